"""The run directory's atomic writers and readers (they live in nhfair_jax.rundir; this name
stays for code that imports them from the trainer's package)."""

from nhfair_jax.rundir import (  # noqa: F401
    atomic_write, read_json, to_json_safe, write_json, write_jsonl, write_npz, write_text)
