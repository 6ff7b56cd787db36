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
"""

from __future__ import annotations

import json
import os
import re

import flax.serialization
import jax
import numpy as np

from nhfair_jax.rundir import atomic_write, to_json_safe

_FILE = re.compile(r"^epoch_(\d+)\.msgpack$")


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
            data = flax.serialization.msgpack_serialize(payload)
            atomic_write(self._path(epoch), lambda f: f.write(data), mode="wb")
        keep = {epoch, meta.get("best_epoch")}
        for old in self.epochs():
            if old not in keep:
                os.remove(self._path(old))

    def _read(self, epoch: int) -> dict:
        with open(self._path(epoch), "rb") as f:
            return flax.serialization.msgpack_restore(f.read())

    @staticmethod
    def _state(payload: dict, like):
        host = flax.serialization.from_state_dict(jax.device_get(like), payload["state"])
        # on the devices (and with the sharding) of `like`, as the step expects
        state = jax.tree.map(lambda x, ref: jax.device_put(np.asarray(x), ref.sharding)
                             if isinstance(ref, jax.Array) else x, host, like)
        return state, json.loads(payload["meta"])

    def restore_latest(self, like):
        """(state, meta) of the last finished epoch, or None for a fresh run."""
        epochs = self.epochs()
        return self._state(self._read(epochs[-1]), like) if epochs else None

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
