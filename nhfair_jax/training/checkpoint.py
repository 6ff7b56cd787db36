"""Orbax checkpoints of the train state plus the loop's bookkeeping (epoch, history, early
stopping), one manager for the latest epoch and one for the best. Orbax finalises a checkpoint
by renaming its folder, so a run killed mid-save resumes from the previous one."""

from __future__ import annotations

import os

import jax
import orbax.checkpoint as ocp

from nhfair_jax.rundir import to_json_safe


class Checkpoints:
    def __init__(self, workdir: str):
        workdir = os.path.abspath(workdir)  # orbax refuses relative paths
        options = ocp.CheckpointManagerOptions(max_to_keep=1, create=True,
                                               enable_async_checkpointing=False)
        self.latest = ocp.CheckpointManager(os.path.join(workdir, "checkpoints", "latest"),
                                            options=options)
        self.best = ocp.CheckpointManager(os.path.join(workdir, "checkpoints", "best"),
                                          options=options)

    @staticmethod
    def _save(manager, epoch: int, state, meta: dict) -> None:
        if epoch in manager.all_steps():  # re-done after a kill: the same state, already saved
            return
        manager.save(epoch, args=ocp.args.Composite(state=ocp.args.StandardSave(state),
                                                    meta=ocp.args.JsonSave(to_json_safe(meta))))
        manager.wait_until_finished()

    def save(self, epoch: int, state, meta: dict, *, is_best: bool) -> None:
        # Best first: a kill between the two saves re-runs this epoch, which is deterministic.
        if is_best:
            self._save(self.best, epoch, state, meta)
        self._save(self.latest, epoch, state, meta)

    @staticmethod
    def _restore(manager, like):
        step = manager.latest_step()
        if step is None:
            return None
        abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, like)
        out = manager.restore(step, args=ocp.args.Composite(
            state=ocp.args.StandardRestore(abstract), meta=ocp.args.JsonRestore()))
        return out["state"], out["meta"]

    def restore_latest(self, like):
        """(state, meta) of the last finished epoch, or None for a fresh run."""
        return self._restore(self.latest, like)

    def restore_best(self, like):
        return self._restore(self.best, like)

    def close(self) -> None:
        self.latest.close()
        self.best.close()
