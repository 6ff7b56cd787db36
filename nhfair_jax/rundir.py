"""Run directories: what every command writes and reads, in one place.

`RunDir` owns one run directory: config.json (the fully resolved config), log.jsonl (one line
per finished epoch), result.json (written last: a run is finished when it exists),
predictions_{val,test}.npz, params.json (a sweep's parameters of the run), checkpoints/ and
.lock (the flock one worker holds while it trains the run). Every file is written atomically (a
temp file in the same folder, then a rename, so a killed run never leaves a half-written file),
and the guard in `RunDir.prepare` keeps a directory with trained epochs from being taken over by
a different config. Nothing here imports the trainer, so data, training, sweeps, studies,
reports and the command-line entry points can all use it.
"""

from __future__ import annotations

import contextlib
import fcntl
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


class WriteFailed(OSError, UserError):
    """A file could not be written (a full disk, a quota, a read-only file system): the message
    names the file; nothing of it was left behind, and the file it would have replaced is as it
    was."""

    def __str__(self) -> str:
        return self.args[1]


def atomic_write(path: str, write, mode: str = "w") -> None:
    """Calls write(file) on a temp file in the same folder, then renames it to `path`.

    Raises:
      WriteFailed: the operating system refused a write (ENOSPC, EDQUOT, EROFS, ...); the temp
        file is removed and `path` keeps its previous content (if any).
    """
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.",
                                   suffix=".tmp")
        with os.fdopen(fd, mode) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException as e:
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)
        if isinstance(e, OSError) and not isinstance(e, WriteFailed) and e.errno is not None:
            raise WriteFailed(e.errno, f"cannot write {path}: {e.strerror or e}; nothing of it "
                              "was written (free some space or choose another folder, then "
                              "run the same command again)") from e
        raise


def write_json(path: str, payload) -> None:
    atomic_write(path, lambda f: json.dump(to_json_safe(payload), f, indent=2, allow_nan=False))


def write_jsonl(path: str, rows) -> None:
    atomic_write(path, lambda f: f.writelines(json.dumps(to_json_safe(r), allow_nan=False) + "\n"
                                         for r in rows))


def write_npz(path: str, **arrays) -> None:
    atomic_write(path, lambda f: np.savez(f, **arrays), mode="wb")


def write_csv(path: str, frame, float_format: str | None = "%.6g") -> None:
    """A pandas DataFrame as CSV (the reports' results.csv), atomically; `float_format=None`
    writes the shortest round-trip floats (exact)."""
    atomic_write(path, lambda f: frame.to_csv(f, index=False, float_format=float_format))


def write_png(path: str, fig) -> None:
    """A matplotlib figure as PNG without timestamp metadata (reruns give the same bytes),
    atomically."""
    atomic_write(path, lambda f: fig.savefig(f, format="png", dpi=110, bbox_inches="tight",
                                             metadata={"Software": None}), mode="wb")


def read_json(path: str):
    with open(path) as f:
        return json.load(f)


def write_text(path: str, text: str) -> None:
    atomic_write(path, lambda f: f.write(text))


def read_jsonl(path: str) -> list:
    """The rows of a JSON-lines file. A last line cut short (a file system that lost the file's
    tail) is left out, with a note on stderr: the trainer writes log.jsonl again from its
    checkpoint's history when it resumes. Any other line that does not parse is an error."""
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    rows = []
    for i, line in enumerate(lines):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            if i < len(lines) - 1 or line.endswith("\n"):
                raise UserError(f"{path}, line {i + 1}: not JSON ({e}); the file is damaged") \
                    from e
            print(f"note: {path}: its last line is cut short; it is left out", file=sys.stderr)
    return rows


def read_json_whole(path: str):
    """A JSON file's content, or None when it is missing or torn (cut short, or not JSON: a
    file system that lost its tail); a torn file is named on stderr."""
    if not os.path.exists(path):
        return None
    try:
        return read_json(path)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        print(f"note: {path} is torn ({e}); it is ignored", file=sys.stderr)
        return None


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


class RunDir:
    """One run directory: its files, whether it is finished, its lock and its config guard.

    Args:
      path: the directory (it need not exist yet).
    """

    CONFIG, LOG, RESULT, PARAMS = "config.json", "log.jsonl", "result.json", "params.json"
    PRUNED = "pruned.json"  # a sweep's pruner stopped the run: never resumed, never a candidate
    # what a directory holds once training has produced something worth protecting
    _STARTED = (RESULT, "predictions_val.npz", "predictions_test.npz")

    def __init__(self, path):
        self.path = os.fspath(path)

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"RunDir({self.path!r})"

    def file(self, name: str) -> str:
        return os.path.join(self.path, name)

    @property
    def name(self) -> str:
        return os.path.basename(os.path.normpath(self.path))

    @property
    def checkpoints(self) -> str:
        return self.file("checkpoints")

    # --- what it holds --------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """result.json exists: it is written last, so the run is complete."""
        return os.path.exists(self.file(self.RESULT))

    def result(self) -> dict | None:
        """result.json's content, or None while the run is not finished (or its result.json
        is torn: then the file is removed, and the run's last step is done again)."""
        result = read_json_whole(self.file(self.RESULT))
        if result is None and self.finished:
            with contextlib.suppress(FileNotFoundError):
                os.remove(self.file(self.RESULT))
        return result

    def pruned(self) -> dict | None:
        """pruned.json's content ({"epoch", "value", "pruner"}) when a sweep's pruner stopped
        this run, else None."""
        path = self.file(self.PRUNED)
        return read_json(path) if os.path.exists(path) else None

    def config(self) -> dict | None:
        """config.json's content (the resolved config), or None before the run was prepared
        (or when the file is torn)."""
        return read_json_whole(self.file(self.CONFIG))

    def params(self) -> dict | None:
        """params.json's content (what a sweep or study ran here), or None (also when the file
        is torn: the sweep writes it again)."""
        return read_json_whole(self.file(self.PARAMS))

    def log(self) -> list:
        """The per-epoch log entries (one per finished epoch)."""
        path = self.file(self.LOG)
        return read_jsonl(path) if os.path.exists(path) else []

    def epochs_logged(self) -> int:
        return len(self.log())

    def predictions(self, split: str) -> dict:
        """{name: array} of predictions_<split>.npz."""
        with np.load(self.file(f"predictions_{split}.npz")) as data:
            return {k: data[k] for k in data.files}

    def has_started(self) -> bool:
        """Whether the directory holds a finished epoch, a checkpoint or a result.

        A directory with only config.json (a start that failed before the first epoch ended) has
        not started, and a corrected config may take it over.
        """
        if any(os.path.exists(self.file(name)) for name in self._STARTED):
            return True
        log = self.file(self.LOG)
        if os.path.exists(log) and os.path.getsize(log) > 0:
            return True
        return os.path.isdir(self.checkpoints) and bool(os.listdir(self.checkpoints))

    # --- writing (atomic) -----------------------------------------------------------------

    def write_json(self, name: str, payload) -> None:
        write_json(self.file(name), payload)

    def write_result(self, result: dict) -> None:
        self.write_json(self.RESULT, result)

    def write_pruned(self, info: dict) -> None:
        self.write_json(self.PRUNED, info)

    def write_params(self, params: dict) -> None:
        self.write_json(self.PARAMS, params)

    def write_log(self, entries) -> None:
        write_jsonl(self.file(self.LOG), entries)

    def write_predictions(self, split: str, **arrays) -> None:
        write_npz(self.file(f"predictions_{split}.npz"), **arrays)

    def prepare(self, config, *, overwrite: bool = False) -> None:
        """Creates the directory, or checks that it belongs to this config; writes config.json
        (`claim_workdir`: a directory with trained epochs of another config is refused).

        Raises:
          UserError: the directory cannot be written, or holds a run of another config.
        """
        claim_workdir(self.path, config, overwrite=overwrite, holds=self.has_started,
                      what="holds a run of a different config",
                      remedy="use --overwrite or another --workdir",
                      empty="held no trained epoch")

    # --- one worker at a time -------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, *, wait: bool = True):
        """Holds the directory's lock (an flock on .lock), creating the directory.

        One worker trains a run; the others wait for it (wait=True) or move on (the context
        yields False when another process holds it). The kernel releases the lock when its
        process ends, however it ends, so a killed worker leaves no stale lock behind. Workers
        on several machines need a shared file system whose locks work across machines (NFSv4
        does).
        """
        try:
            os.makedirs(self.path, exist_ok=True)
            handle = open(self.file(".lock"), "a")
        except OSError as e:
            raise UserError(f"cannot create the run directory {self.path}: {e.strerror or e}; "
                            "the benchmark --workdir must be writable") from e
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
                held = True
            except BlockingIOError:
                held = False
            except OSError as e:
                raise UserError(f"cannot lock {handle.name}: {e.strerror or e}; workers sharing "
                                "a benchmark --workdir need a file system with file locks "
                                "(flock)") from e
            yield held

    @property
    def is_run_dir(self) -> bool:
        """Whether the folder is a run directory (prepared, or locked by a worker)."""
        return any(os.path.exists(self.file(n)) for n in (self.CONFIG, ".lock"))


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


def claim_workdir(path: str, config, *, name: str = "config.json", overwrite: bool = False,
                  force: bool = False, compare=None, holds=lambda: True,
                  what: str = "holds the work of a different config",
                  remedy: str = "use another --workdir or --overwrite",
                  empty: str = "held nothing yet") -> list[str]:
    """The one guard of a work directory, for every command that owns one (a run, an LVLM
    evaluation, a generate run, a benchmark, a study): the directory is created and shown
    writable; `overwrite` deletes it first, but only when it holds `name` (it is then ours);
    when it holds a `name` of another config, it is refused if `holds()` says its content
    depends on that config (trained epochs, answers, images, started runs), else taken over with
    a note; `force` takes it over in any case. Then `name` is written with the config.

    Args:
      compare: (stored, resolved JSON) -> the keys whose difference matters (default: every
        key but PRESENTATION_KEYS).

    Returns:
      The keys in which a taken-over directory's config differed.

    Raises:
      UserError: the directory cannot be written, `overwrite` on a folder that is not ours, or
        a directory whose content belongs to another config.
    """
    config_path = os.path.join(path, name)
    if overwrite and os.path.isdir(path):
        if os.listdir(path) and not os.path.exists(config_path):
            raise UserError(f"--overwrite refuses to delete {path}: it is not a work directory "
                            f"of this command (no {name})")
        shutil.rmtree(path)
    try:
        os.makedirs(path, exist_ok=True)
        # A name of its own: workers preparing the same directory must not remove each other's.
        probe = os.path.join(path, f".write_probe.{os.getpid()}.{os.urandom(4).hex()}")
        with open(probe, "w") as f:
            f.write("ok")
        test_pause("write_probe")
        os.remove(probe)
    except OSError as e:
        raise UserError(f"cannot write to workdir {path}: {e.strerror or e}; choose another "
                        "--workdir") from e
    resolved = config_to_json(config)
    changed = []
    stored = read_json_whole(config_path) if not force else None
    if stored is None and not force and os.path.exists(config_path) and holds():
        raise UserError(f"{config_path} is torn while {path} holds work that depends on it "
                        f"(for a run: trained epochs): which config that work belongs to is "
                        f"unknown; {remedy}")
    if stored is not None:
        changed = (compare(stored, resolved) if compare is not None else
                   [k for k in config_diff(stored, resolved) if k not in PRESENTATION_KEYS])
        if changed and holds():
            raise UserError(f"{path} {what} (differs in: {', '.join(changed[:6])}); {remedy}")
        if changed:
            print(f"note: {path} {empty}; it now belongs to this config (changed: "
                  f"{', '.join(changed[:6])})", file=sys.stderr)
    write_json(config_path, resolved)
    return changed

