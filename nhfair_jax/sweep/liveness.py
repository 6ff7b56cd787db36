"""Which sweep workers are alive, on any machine and with any study storage.

Each worker process holds an flock on a file of its own, WORKDIR/workers/<host>-<pid>-<tag>.lock,
for as long as it lives, and every trial it runs names that file. The kernel drops an flock when
its process ends, however it ends (killed, preempted, out of time, out of memory), so another
worker that can take the lock of a running trial's file knows that trial's worker is gone. This
needs no heartbeat from the study storage (Optuna's JournalStorage has none) and no clock shared
between machines; workers on several machines need a shared file system whose locks work across
them (NFSv4's do), as the run directories' locks already do.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import uuid
import weakref

from nhfair_jax.errors import UserError

FOLDER = "workers"


def _path(workdir: str, name: str) -> str:
    return os.path.join(workdir, FOLDER, f"{name}.lock")


class WorkerMark:
    """This process's mark in `workdir`: a lock file held until the mark is released or the
    process ends (the file is removed at a normal exit)."""

    def __init__(self, workdir: str):
        self.workdir = workdir
        self.name = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        path = _path(workdir, self.name)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            handle = open(path, "a")
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            raise UserError(f"cannot lock {path}: {e.strerror or e}; workers sharing a benchmark "
                            "--workdir need a writable file system with file locks (flock)") from e
        self._release = weakref.finalize(self, _release, handle, path)

    def release(self) -> None:
        self._release()


def _release(handle, path: str) -> None:
    try:
        os.remove(path)  # before unlocking: nobody finds a free lock on a live worker's file
    except OSError:
        pass
    handle.close()


def worker_alive(workdir: str, name: str) -> bool:
    """Whether the worker that made the mark `name` in `workdir` still runs."""
    try:
        fd = os.open(_path(workdir, name), os.O_RDWR)
    except FileNotFoundError:
        return False  # removed at its worker's exit
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # drops the lock this check may have taken
    return False


@contextlib.contextmanager
def retrying(workdir: str):
    """Held while a worker fails a lost trial and enqueues its retry (an flock on
    WORKDIR/workers/.retry.lock): workers that find the same lost trial together retry it once,
    whatever the storage's transactions guarantee (SQLite's do not lock the row they read)."""
    path = os.path.join(workdir, FOLDER, ".retry.lock")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
