"""Orbax checkpoints of the train state plus the loop's bookkeeping (epoch, history, early
stopping): one checkpoint per finished epoch, of which orbax keeps the latest and the best
(a preservation policy), so that an epoch that is also the best is written once. Orbax
finalises a checkpoint by renaming its folder, so a run killed mid-save resumes from the
previous one; the best epoch is the one the latest checkpoint's bookkeeping names."""

from __future__ import annotations

import os

import jax
import orbax.checkpoint as ocp
from orbax.checkpoint import checkpoint_managers

from nhfair_jax.rundir import to_json_safe

_RANK = "best_rank"  # the epoch for a best epoch, 0 otherwise: the largest is the best


class Checkpoints:
    def __init__(self, workdir: str):
        workdir = os.path.abspath(workdir)  # orbax refuses relative paths
        keep = checkpoint_managers.AnyPreservationPolicy([
            checkpoint_managers.LatestN(n=1),
            checkpoint_managers.BestN(get_metric_fn=lambda m: m[_RANK], n=1,
                                      keep_checkpoints_without_metrics=False)])
        options = ocp.CheckpointManagerOptions(create=True, enable_async_checkpointing=False,
                                               preservation_policy=keep)
        self.manager = ocp.CheckpointManager(os.path.join(workdir, "checkpoints"),
                                             options=options)

    def save(self, epoch: int, state, meta: dict, *, is_best: bool) -> None:
        if epoch in self.manager.all_steps():  # re-done after a kill: the same state
            return
        self.manager.save(epoch, args=ocp.args.Composite(
            state=ocp.args.StandardSave(state), meta=ocp.args.JsonSave(to_json_safe(meta))),
            metrics={_RANK: epoch if is_best else 0})
        self.manager.wait_until_finished()

    def _restore(self, step, like):
        abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, like)
        out = self.manager.restore(step, args=ocp.args.Composite(
            state=ocp.args.StandardRestore(abstract), meta=ocp.args.JsonRestore()))
        return out["state"], out["meta"]

    def restore_latest(self, like):
        """(state, meta) of the last finished epoch, or None for a fresh run."""
        step = self.manager.latest_step()
        return None if step is None else self._restore(step, like)

    def restore_best(self, like):
        """(state, meta) of the best epoch so far (the one the latest bookkeeping names)."""
        step = self.manager.latest_step()
        if step is None:
            raise FileNotFoundError("no checkpoint to restore")
        meta = self.manager.restore(step, args=ocp.args.Composite(
            meta=ocp.args.JsonRestore()))["meta"]
        return self._restore(meta["best_epoch"] or step, like)

    def close(self) -> None:
        self.manager.close()
