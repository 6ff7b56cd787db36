"""Atomic writes: a temp file in the same folder, then a rename, so a killed run never leaves a
half-written file behind."""

from __future__ import annotations

import json
import math
import os
import tempfile

import numpy as np


def to_json_safe(value):
    """JSON-safe: NaN/inf become null (JSON has no NaN), numpy scalars become Python numbers."""
    if isinstance(value, dict):
        return {str(k): to_json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_safe(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_json_safe(value.tolist())
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _atomic(path: str, write, mode: str = "w") -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def write_json(path: str, payload) -> None:
    _atomic(path, lambda f: json.dump(to_json_safe(payload), f, indent=2, allow_nan=False))


def write_jsonl(path: str, rows) -> None:
    _atomic(path, lambda f: f.writelines(json.dumps(to_json_safe(r), allow_nan=False) + "\n"
                                         for r in rows))


def write_npz(path: str, **arrays) -> None:
    _atomic(path, lambda f: np.savez(f, **arrays), mode="wb")


def read_json(path: str):
    with open(path) as f:
        return json.load(f)
