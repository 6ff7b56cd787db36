"""The process-wide settings a command of the package turns on: the XLA CPU flags
(`xla_flags.py`) and JAX's persistent compilation cache (`compile_cache.py`).

`import nhfair_jax` changes nothing in the process: the command-line entry points call `setup()`
before anything computes, and so do the tests' conftest and the timing benchmarks. A notebook or
a library user opts in the same way, before the first JAX computation:

    from nhfair_jax import runtime
    runtime.setup()                      # the flags and the default cache folder
    runtime.setup(compile_cache="off")   # the flags only

XLA reads XLA_FLAGS once, when JAX starts its first backend: called after a JAX computation,
`setup()` still sets the cache, but the flags reach subprocesses only.
"""

from __future__ import annotations

from nhfair_jax import compile_cache, xla_flags

_done = {"flags": False}


def setup(compile_cache_dir: str | None = None) -> dict:
    """Applies the XLA CPU flags (once per process) and points JAX's persistent compilation
    cache at `compile_cache_dir` (a folder, or "off"; None: the default folder, see
    compile_cache.py). Returns {"xla_flags": flags appended, "compile_cache": folder or None}."""
    added = []
    if not _done["flags"]:
        added = xla_flags.apply()
        _done["flags"] = True
    if compile_cache_dir is None:
        folder = compile_cache.apply()
    else:
        compile_cache.use(compile_cache_dir)
        folder = compile_cache.folder()
    return {"xla_flags": added, "compile_cache": folder}
