"""Evaluation of one model on a run's splits, shared by a trained run (each epoch's validation,
the final evaluation), a restored run (post-fit inputs, teachers, studies) and the epoch hooks
(through HookContext): evaluation batches and their cache, logits kept at the current
parameters, frozen-backbone features, the edited views of paired images."""

from __future__ import annotations

import functools

import jax
import numpy as np

from nhfair_jax import metrics as metrics_lib
from nhfair_jax.data.pipeline import eval_dataset, iterate
from nhfair_jax.methods.base import backbone_features
from nhfair_jax.training import programs
from nhfair_jax.training.step import make_eval_step, shard_batch

# Edited views evaluated where a split has them: {source key: predictions-file key}.
PAIRED_VIEWS = {"image_cf": "logits_cf", "image_gflip": "logits_gflip"}
# A split's evaluation batches (host and device arrays) are kept for the run's later passes up
# to this many bytes: evaluation reads them unchanged every epoch (no augmentation).
EVAL_CACHE_BYTES = 256 << 20
# A split smaller than the evaluation batch is one batch of its own size, rounded up to this
# many rows per device: a 180-row validation split costs 184 rows of forward pass, not 256,
# and splits of nearly one size (validation, test) share one program.
EVAL_ROUNDING = 8


def eval_batch_rows(rows: int, batch_size: int, devices: int) -> int:
    """The evaluation batch of a split of `rows` rows: `batch_size`, or, for a smaller split,
    its size rounded up to a multiple of EVAL_ROUNDING x `devices` (never above
    `batch_size`, a multiple of the devices)."""
    step = EVAL_ROUNDING * devices
    return min(batch_size, max(step, -(-rows // step) * step))


class Evaluator:
    """Predictions and reports of one model (its `apply`, the method's `predict`) on `sources`.

    Args:
      config: the run's resolved config (eval batch size, prefetch, normalisation, utility).
      model, method, mesh: the network, the method (its evaluation keys and `predict`), devices.
      sources: {split: data source}; num_classes, num_groups: of the training split.
      test_pairs, test_gflip: the run's paired test sets of their own (eval.cf_pairs,
        eval.gflip_pairs), or None.
    """

    def __init__(self, config, model, method, mesh, sources, *, num_classes: int,
                 num_groups: int, test_pairs=None, test_gflip=None):
        self.config, self.model, self.method, self.mesh = config, model, method, mesh
        self.sources, self.num_classes, self.num_groups = sources, num_classes, num_groups
        self.test_pairs, self.test_gflip = test_pairs, test_gflip
        # a program of this process (training/programs.py); predict reads the config as it is
        found = programs.method_key(method, hparams_traced=False)
        self.eval_step = programs.program(
            "eval_step", None if found is None else (found, model, programs.mesh_key(mesh)),
            lambda: make_eval_step(method, model.apply, mesh))
        self.eval_keys = (*method.batch_keys, "mask")
        self.norm = {"mean": tuple(config.data.mean), "std": tuple(config.data.std)}
        self._frozen, self._features_fn = {}, None  # frozen-backbone features, by split
        # predict's logits by split and view, at the (params, batch_stats) in _kept_at
        self._kept_at, self._kept_logits = None, {}
        self._eval_cache = {}  # (split, keys, image_key) -> [(batch, device batch)]

    def batch_rows(self, rows: int) -> int:
        """The evaluation batch of a split of `rows` rows (`eval_batch_rows`)."""
        return eval_batch_rows(rows, self.config.train.eval_batch_size, self.mesh.devices.size)

    def eval_batches(self, source, keys=None, image_key: str = "image"):
        """Normalised, padded evaluation batches of a source, sharded over the mesh; yields
        (host batch, device batch), whose arrays are read only. `image_key` (e.g. "image_cf")
        is read as the image."""
        keys = tuple(keys or self.eval_keys)
        # A split's own source, read whole, is kept (up to EVAL_CACHE_BYTES) and answered from
        # memory by later passes (each epoch's validation): the batches are the same arrays.
        split = next((name for name, s in self.sources.items() if s is source), None)
        cache_key = (split, keys, image_key)
        if split is not None and cache_key in self._eval_cache:
            yield from self._eval_cache[cache_key]
            return
        gather = None if image_key == "image" else (image_key, "label", "group", "index")
        ds = eval_dataset(source, batch_size=self.batch_rows(len(source)), **self.norm,
                          **({"keys": gather} if gather else {}))
        batches, size = ([] if split is not None else None), 0
        for batch in iterate(ds, self.config.train.prefetch):
            if gather:
                batch["image"] = batch.pop(image_key)
            pair = batch, shard_batch(batch, self.mesh, keys)
            if batches is not None:
                size += sum(v.nbytes for v in batch.values()) + sum(
                    v.nbytes for v in pair[1].values())
                if size <= EVAL_CACHE_BYTES:
                    for v in batch.values():
                        v.flags.writeable = False  # shared with later passes: read only
                    batches.append(pair)
                else:
                    batches = None
            yield pair
        if batches is not None:
            self._eval_cache[cache_key] = batches

    def cached_features(self, state, split: str) -> np.ndarray:
        """[N, D] backbone features of a split, for the epochs of a phase that trains a head on
        the frozen backbone (`Phase.cached_features`) and for post-fit methods: evaluation mode,
        without augmentation, computed once and kept until `forget_features`."""
        if split not in self._frozen:
            if self._features_fn is None:
                self._features_fn = programs.program(
                    "features", (self.model,),
                    lambda: jax.jit(functools.partial(backbone_features, self.model.apply)))
            parts = []
            for batch, device_batch in self.eval_batches(self.sources[split], ("image", "mask")):
                feats = self._features_fn(state.params, state.batch_stats, device_batch["image"])
                parts.append(np.asarray(feats, np.float32)[batch["mask"]])
            self._frozen[split] = np.concatenate(parts)
        return self._frozen[split]

    def forget_features(self) -> None:
        """The backbone is about to change: cached features are stale."""
        self._frozen.clear()

    def _predict_features(self, state, split: str) -> np.ndarray:
        feats = self.cached_features(state, split)
        size = self.batch_rows(len(feats))
        out = []
        for start in range(0, len(feats), size):
            chunk = feats[start:start + size]
            padded = np.concatenate([chunk, np.zeros((size - len(chunk), chunk.shape[1]),
                                                     chunk.dtype)])
            logits = self.eval_step(state.params, state.batch_stats,
                                    shard_batch({"features": padded}, self.mesh, ("features",)))
            out.append(np.asarray(logits)[:len(chunk)])
        return np.concatenate(out)

    def predict(self, state, split: str, image_key: str = "image", *,
                frozen: bool = False, source=None) -> np.ndarray:
        """Logits of a split (or of `source`, e.g. the test pairs); `frozen`: from its
        frozen-backbone features (a frozen epoch's validation)."""
        if frozen and image_key == "image" and source is None:
            return self._predict_features(state, split)
        # The splits predicted at the current parameters, kept while the state's parameters
        # are the same objects (a step makes new ones): an epoch hook that reads the
        # validation logits (FIS's rounds) gets the previous epoch's evaluation instead of a
        # second pass over the split.
        key, own = (split, image_key), source is None
        at = self._kept_at  # the objects themselves, held: an id could be reused
        if at is None or at[0] is not state.params or at[1] is not state.batch_stats:
            self._kept_at, self._kept_logits = (state.params, state.batch_stats), {}
        if own and key in self._kept_logits:
            return self._kept_logits[key].copy()
        out = []
        for batch, device_batch in self.eval_batches(self.sources[split] if own else source,
                                                     image_key=image_key):
            logits = self.eval_step(state.params, state.batch_stats, device_batch)
            out.append(np.asarray(logits)[batch["mask"]])
        logits = np.concatenate(out)
        if own:
            self._kept_logits[key] = logits.copy()
        return logits

    def evaluate_views(self, state, split: str, edits=PAIRED_VIEWS, *, frozen: bool = False):
        """(report, {"logits": ..., "logits_cf": ..., "logits_gflip": ...}): the split's report
        with the paired metrics (cd, cd_balanced from `image_cf`; rfp from `image_gflip`) of
        the edited views in `edits` that the split has. `frozen`: the plain view's logits from
        the frozen-backbone features."""
        source = self.sources[split]
        views = {"logits": self.predict(state, split, frozen=frozen)}
        report = metrics_lib.split_metrics(source.labels, source.groups, views["logits"],
                                           num_classes=self.num_classes,
                                           num_groups=self.num_groups,
                                           utility=self.config.eval.utility)
        for key in edits:
            if key in source.extras:
                views[PAIRED_VIEWS[key]] = self.predict(state, split, image_key=key)
        if len(views) > 1:
            mask = source.extras.get("cf_mask")
            report.update(metrics_lib.paired_report(
                source.labels, source.groups, views["logits"], logits_cf=views.get("logits_cf"),
                logits_gflip=views.get("logits_gflip"),
                cf_mask=None if mask is None else np.asarray(mask)))
        return report, views

    def evaluate(self, state, split: str, edits=PAIRED_VIEWS, *, frozen: bool = False):
        report, views = self.evaluate_views(state, split, edits, frozen=frozen)
        return report, views["logits"]
