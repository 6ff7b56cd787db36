"""Checkpoints of the train state plus the loop's bookkeeping (epoch, history, early stopping):
one file per finished epoch, of which the latest and the best are kept (an epoch that is both
is written once).

Each file is the train state in flax's msgpack serialization (`flax.serialization`: the state
dict of the TrainState dataclass) with the bookkeeping as JSON in the same file, written to a
temp file, synced and renamed into place: a run killed mid-save resumes from the previous
epoch, never from half a file. The states are replicated and gathered on one host (at most a
ResNet and its optimizer's moments). Orbax's checkpoints, used before, cost 0.2-0.6 s a save on
a 2-core CPU whatever the state's size (its thread and event-loop coordination: the benchmark's
largest cost after training, 288 of 1,374 run seconds of the main job); this costs about
0.02 s for the small CNN.

A file starts with a header: a magic word, the payload's length and its SHA-256. A file that a
machine dying mid-write, or a file system losing its tail, left short or changed is noticed when
it is read (`TornCheckpoint`): the run resumes from the newest intact checkpoint whose best epoch
is intact too, or starts afresh, and says so in one line; the torn file is removed. Files
written before the header existed (no magic word) are read as they are.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import sys

import flax.serialization
import jax
import numpy as np

from nhfair_jax.rundir import atomic_write, to_json_safe

_FILE = re.compile(r"^epoch_(\d+)\.msgpack$")
MAGIC = b"NHFCKPT1"
_HEADER = struct.Struct("<8sQ32s")  # magic, payload length, SHA-256 of the payload


class TornCheckpoint(Exception):
    """A checkpoint file shorter than its header says, or whose checksum does not match."""


def frame(payload: bytes) -> bytes:
    """The payload behind its header (magic, length, SHA-256)."""
    return _HEADER.pack(MAGIC, len(payload), hashlib.sha256(payload).digest()) + payload


def unframe(data: bytes, path: str) -> bytes:
    """The payload of a framed file, checked; an old file without the header as it is."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data[:len(MAGIC)]):  # torn inside the header itself
            raise TornCheckpoint(f"{path}: {len(data)} bytes, shorter than its header")
        return data
    if len(data) < _HEADER.size:
        raise TornCheckpoint(f"{path}: {len(data)} bytes, shorter than its header")
    _, length, digest = _HEADER.unpack_from(data)
    payload = data[_HEADER.size:]
    if len(payload) != length:
        raise TornCheckpoint(f"{path}: {len(payload)} bytes of payload, its header says "
                             f"{length}")
    if hashlib.sha256(payload).digest() != digest:
        raise TornCheckpoint(f"{path}: its checksum does not match its content")
    return payload


class Checkpoints:
    def __init__(self, workdir: str):
        self.folder = os.path.join(os.path.abspath(workdir), "checkpoints")

    def _path(self, epoch: int) -> str:
        return os.path.join(self.folder, f"epoch_{epoch}.msgpack")

    def epochs(self) -> list[int]:
        """The epochs on disk, in order."""
        if not os.path.isdir(self.folder):
            return []
        return sorted(int(m.group(1)) for m in map(_FILE.match, os.listdir(self.folder)) if m)

    def save(self, epoch: int, state, meta: dict, *, is_best: bool) -> None:
        """Writes epoch `epoch`, then lets go of every epoch but it and the best one (named by
        `meta["best_epoch"]`, which `is_best` says is this one)."""
        del is_best  # meta names the best epoch
        os.makedirs(self.folder, exist_ok=True)
        if epoch not in self.epochs():  # re-done after a kill: the same state, already saved
            payload = {"state": flax.serialization.to_state_dict(jax.device_get(state)),
                       "meta": json.dumps(to_json_safe(meta), allow_nan=False)}
            data = frame(flax.serialization.msgpack_serialize(payload))
            atomic_write(self._path(epoch), lambda f: f.write(data), mode="wb")
        keep = {epoch, meta.get("best_epoch")}
        for old in self.epochs():
            if old not in keep:
                os.remove(self._path(old))

    def _read(self, epoch: int) -> dict:
        path = self._path(epoch)
        with open(path, "rb") as f:
            payload = unframe(f.read(), path)
        try:
            return flax.serialization.msgpack_restore(payload)
        except Exception as e:  # noqa: BLE001 - an old file without header, cut short
            raise TornCheckpoint(f"{path}: {e}") from e

    def resume_point(self):
        """(epoch, payload) of the newest checkpoint that is intact and whose best epoch is
        intact too, or None (start afresh). When a file is torn, it and every file after the
        epoch resumed are removed, and one line on stderr says so."""
        epochs, payloads, torn, found = self.epochs(), {}, {}, None

        def intact(epoch):
            if epoch not in payloads:
                try:
                    payloads[epoch] = self._read(epoch)
                except TornCheckpoint as e:
                    payloads[epoch], torn[epoch] = None, str(e)
            return payloads[epoch]

        for epoch in reversed(epochs):
            if intact(epoch) is None:
                continue
            best = json.loads(payloads[epoch]["meta"]).get("best_epoch")
            if best in (None, epoch) or (best in epochs and intact(best) is not None):
                found = epoch
                break
        if torn:
            for epoch in epochs:
                if epoch in torn or found is None or epoch > found:
                    os.remove(self._path(epoch))
            what = (f"resuming after epoch {found}" if found is not None else
                    "starting the run afresh")
            print(f"note: torn checkpoint {'; '.join(torn.values())}; {what}", file=sys.stderr)
        return None if found is None else (found, payloads[found])

    @staticmethod
    def _state(payload: dict, like):
        host = flax.serialization.from_state_dict(jax.device_get(like), payload["state"])
        # on the devices (and with the sharding) of `like`, as the step expects
        state = jax.tree.map(lambda x, ref: jax.device_put(np.asarray(x), ref.sharding)
                             if isinstance(ref, jax.Array) else x, host, like)
        return state, json.loads(payload["meta"])

    def restore_latest(self, like):
        """(state, meta) of the last finished epoch with an intact checkpoint (and best epoch),
        or None for a fresh run."""
        point = self.resume_point()
        return None if point is None else self._state(point[1], like)

    def restore_best(self, like):
        """(state, meta) of the best epoch (the one the latest epoch's bookkeeping names)."""
        epochs = self.epochs()
        if not epochs:
            raise FileNotFoundError(f"no checkpoint in {self.folder}")
        latest = self._read(epochs[-1])
        best = json.loads(latest["meta"]).get("best_epoch") or epochs[-1]
        return self._state(latest if best == epochs[-1] else self._read(best), like)

    def close(self) -> None:
        """Nothing is held open between saves."""
