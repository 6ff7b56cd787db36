"""Shared helpers for the benchmarks: a plain-text table and an atomic JSON dump. Importing it
applies the package's runtime settings (XLA flags, compilation cache) as every command does:
each benchmark imports it before its first JAX computation."""

from __future__ import annotations

import json
import os
import platform
import tempfile
import time

from nhfair_jax import runtime

runtime.setup()


def print_table(rows: list[dict], columns: list[str]) -> None:
    widths = {c: max(len(c), *(len(_fmt(r.get(c))) for r in rows)) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    print("  ".join("-" * widths[c] for c in columns))
    for r in rows:
        print("  ".join(_fmt(r.get(c)).ljust(widths[c]) for c in columns))


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return "" if v is None else str(v)


def write_json(path: str | None, payload: dict) -> None:
    if not path:
        return
    payload = {"machine": {"platform": platform.platform(), "cpus": os.cpu_count()}, **payload}
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(payload, f, indent=2)
    os.replace(tmp, path)
    print(f"wrote {path}")


def best_of(fn, repeats: int, warmup: bool = True) -> float:
    """Fastest wall time of `repeats` calls (after one untimed call when warmup: compilation)."""
    if warmup:
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
