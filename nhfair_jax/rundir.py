"""Run directories: what every command writes and reads, in one place.

A run directory holds config.json (the fully resolved config), log.jsonl, result.json,
predictions_{val,test}.npz and checkpoints/. Everything here is plain files: atomic writers (a
temp file in the same folder, then a rename, so a killed run never leaves a half-written file),
readers, and the guard that keeps a directory with trained epochs from being taken over by a
different config. Nothing here imports the trainer, so data, training, sweeps, studies, reports
and the command-line entry points can all use it.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import tempfile

import numpy as np

from nhfair_jax.errors import UserError

# Settings that do not change a run's numbers: resuming with another value is fine.
PRESENTATION_KEYS = ("train.progress", "train.prefetch")


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


def atomic_write(path: str, write, mode: str = "w") -> None:
    """Calls write(file) on a temp file in the same folder, then renames it to `path`."""
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
    atomic_write(path, lambda f: json.dump(to_json_safe(payload), f, indent=2, allow_nan=False))


def write_jsonl(path: str, rows) -> None:
    atomic_write(path, lambda f: f.writelines(json.dumps(to_json_safe(r), allow_nan=False) + "\n"
                                         for r in rows))


def write_npz(path: str, **arrays) -> None:
    atomic_write(path, lambda f: np.savez(f, **arrays), mode="wb")


def read_json(path: str):
    with open(path) as f:
        return json.load(f)


def write_text(path: str, text: str) -> None:
    atomic_write(path, lambda f: f.write(text))


def config_to_json(config) -> dict:
    return json.loads(json.dumps(to_json_safe(config.to_dict())))


def config_diff(old: dict, new: dict, prefix: str = "") -> list[str]:
    keys = sorted(set(old) | set(new))
    out = []
    for k in keys:
        a, b = old.get(k), new.get(k)
        if isinstance(a, dict) and isinstance(b, dict):
            out += config_diff(a, b, f"{prefix}{k}.")
        elif a != b:
            out.append(f"{prefix}{k}")
    return out


def prepare_workdir(workdir: str, config, *, overwrite: bool = False) -> None:
    """Creates the run directory, or checks that it belongs to this config; writes config.json.

    Raises:
      UserError: the directory cannot be written, or holds a run of another config.
    """
    config_path = os.path.join(workdir, "config.json")
    if overwrite and os.path.isdir(workdir):
        if os.listdir(workdir) and not os.path.exists(config_path):
            raise UserError(f"--overwrite refuses to delete {workdir}: it is not a run directory "
                            "(no config.json)")
        shutil.rmtree(workdir)
    try:
        os.makedirs(workdir, exist_ok=True)
        # A name of its own: workers preparing the same directory must not remove each other's.
        probe = os.path.join(workdir, f".write_probe.{os.getpid()}.{os.urandom(4).hex()}")
        with open(probe, "w") as f:
            f.write("ok")
        test_pause("write_probe")
        os.remove(probe)
    except OSError as e:
        raise UserError(f"cannot write to workdir {workdir}: {e.strerror or e}; choose another "
                        "--workdir") from e
    resolved = config_to_json(config)
    if os.path.exists(config_path):
        stored = read_json(config_path)
        changed = [k for k in config_diff(stored, resolved) if k not in PRESENTATION_KEYS]
        if not changed:
            return
        if has_started(workdir):
            raise UserError(f"{workdir} holds a run of a different config (differs in: "
                            f"{', '.join(changed[:6])}); use --overwrite or another --workdir")
        # Only the config of a start that failed (bad data path, wrong column): nothing to lose.
        print(f"note: {workdir} held no trained epoch; it now belongs to this config (changed: "
              f"{', '.join(changed[:6])})", file=sys.stderr)
    write_json(config_path, resolved)


# What a run directory holds once training has produced something worth protecting.
_STARTED_MARKERS = ("result.json", "predictions_val.npz", "predictions_test.npz")


def has_started(workdir: str) -> bool:
    """Whether a run directory holds a finished epoch, a checkpoint or a result.

    A directory with only config.json (a start that failed before the first epoch ended) has not
    started, and a corrected config may take it over.
    """
    if any(os.path.exists(os.path.join(workdir, name)) for name in _STARTED_MARKERS):
        return True
    log = os.path.join(workdir, "log.jsonl")
    if os.path.exists(log) and os.path.getsize(log) > 0:
        return True
    checkpoints = os.path.join(workdir, "checkpoints")
    return os.path.isdir(checkpoints) and bool(os.listdir(checkpoints))


def test_pause(point: str) -> None:
    """Test hook: sleeps at a named point where concurrent workers could race.

    NHFAIR_TEST_PAUSE="point=seconds,..." (unset in normal use) widens those windows so that the
    tests of several benchmark workers would show a race there; see tests/test_workers.py.
    """
    spec = os.environ.get("NHFAIR_TEST_PAUSE")
    if not spec:
        return
    for item in spec.split(","):
        name, _, seconds = item.partition("=")
        if name.strip() == point:
            import time

            time.sleep(float(seconds))
