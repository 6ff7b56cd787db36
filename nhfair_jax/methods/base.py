"""What a method contributes to training, and the default (ERM) behaviour of each hook."""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax


class HookContext(NamedTuple):
    """What the epoch hooks see of a run (the trainer builds it; hooks never get the trainer).

    apply_fn: the model's apply; sources: {split: data source}; eval_batches(source, keys):
    normalised, padded evaluation batches as (host batch, device batch); predict(state, split):
    evaluation logits of a split; data_seed: the run's data seed; eval_batch_size.
    """

    apply_fn: Any
    sources: dict
    eval_batches: Any
    predict: Any
    data_seed: int
    eval_batch_size: int


class LossOutput(NamedTuple):
    """What a method's loss returns to the generic train step."""

    loss: jnp.ndarray  # scalar to minimise
    logits: jnp.ndarray  # [B, C], for the training confusion counts
    batch_stats: Any  # updated BatchNorm statistics
    method_state: Any  # updated method state (a pytree; {} when the method keeps none)
    metrics: dict  # extra scalars to log (averaged over the epoch)


def cross_entropy(logits, labels, weights=None):
    """Softmax cross-entropy, averaged with optional per-example weights (0 drops a row)."""
    per_example = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    if weights is None:
        return per_example.mean()
    weights = weights.astype(per_example.dtype)
    return (per_example * weights).sum() / jnp.maximum(weights.sum(), 1e-12)


def forward(apply_fn, params, batch_stats, images, *, train: bool, features: bool = False):
    """The backbone's forward pass; in training also returns the updated batch statistics."""
    variables = {"params": params, "batch_stats": batch_stats}
    if not train:
        return apply_fn(variables, images, train=False, features=features), batch_stats
    out, updates = apply_fn(variables, images, train=True, features=features,
                            mutable=["batch_stats"])
    return out, updates["batch_stats"]


class Method:
    """Base class: the hooks a method may override. The trainer calls only these.

    Hooks (all optional except `loss`):
      setup(info): called first; keeps `info` as self.info for the other hooks.
      init_params(model_params, key, info): the trainable pytree; methods with extra modules
        (per-group heads, an adversary) return {"model": model_params, ...} and read it back in
        `loss` and `predict`.
      init_state(info): the method's own non-trainable state, carried in the train state.
      loss(apply_fn, params, batch_stats, method_state, batch, rng): a LossOutput.
      predict(apply_fn, params, batch_stats, batch): evaluation logits.
      sample_indices(source, seed, epoch, method_state): training rows for this epoch (may
        repeat), or None for every row once.
      augment: None, or a batch transform f(batch, rng) on uint8 images in the input pipeline.
      on_epoch_start(ctx, state, epoch): a new train state (e.g. selection rounds); `ctx` is
        a HookContext; the method state it returns holds host arrays (the trainer places them
        on the devices).
      artifacts(ctx, state): {file name: JSON-able payload} written into the run directory.
      optimizer(make_tx): the optax transformation of this step variant; make_tx(scheduled=True)
        builds config.optim's optimizer (scheduled: the trainer sets its learning rate per
        epoch; False: constant). Methods with phases freeze parts here (optax.multi_transform
        with `frozen`), and every variant must keep one optimizer-state structure.
      step_variant(epoch, epochs): a hashable naming the epoch's variant of the step (default
        None); the trainer compiles one step per variant, from with_variant(variant), whose
        `variant` attribute the hooks read as a static Python value (FSCL's two phases).
      selectable(epoch, epochs): whether the epoch may be the best checkpoint and counts for
        early stopping (False e.g. while a head is still untrained).
      frozen_features(epoch, epochs): True for an epoch that trains only a head on a frozen
        backbone (FSCL's linear phase). The trainer then computes the backbone's features of
        the training and validation rows once (`features`, evaluation mode, no augmentation)
        and feeds the step and the epoch's validation batches {"features", "label", "group"}
        instead of images; `loss` and `predict` must read batch["features"] when present.
        The features are recomputed after any epoch that was not frozen.
      features(apply_fn, params, batch_stats, images): the backbone's penultimate features
        [B, D] in evaluation mode (default: the model's own; methods whose trainable pytree
        wraps the model read their part of it).
      epoch_metrics(totals, num_batches): the logged scalars from the loss metrics summed over
        the epoch's batches (sufficient statistics: ratios are derived once, from totals).

    `info` holds num_classes, num_groups, num_train, epochs, seed, feature_dim, key (a PRNG key
    for the method's own initialisation) and the training source's labels and groups (numpy).
    """

    name = "base"
    defaults: dict = {}  # hyperparameters under config.method.*, with their default values
    batch_keys = ("image", "label", "group")  # what the jitted step receives
    augment = None

    def __init__(self, cfg):
        self.cfg = cfg
        self.info: dict = {}

    def setup(self, info: dict) -> None:
        self.info = info

    def init_params(self, model_params, key, info: dict):
        del key, info
        return model_params

    def init_state(self, info: dict):
        del info
        return {}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng) -> LossOutput:
        raise NotImplementedError

    def predict(self, apply_fn, params, batch_stats, batch):
        return forward(apply_fn, params, batch_stats, batch["image"], train=False)[0]

    def sample_indices(self, source, seed: int, epoch: int, method_state):
        del source, seed, epoch, method_state
        return None

    def on_epoch_start(self, ctx: HookContext, state, epoch: int):
        del ctx, epoch
        return state

    def artifacts(self, ctx: HookContext, state) -> dict:
        del ctx, state
        return {}

    def optimizer(self, make_tx):
        return make_tx()

    variant = None

    def step_variant(self, epoch: int, epochs: int):
        del epoch, epochs
        return None

    def with_variant(self, variant):
        """This method with `variant` set (a shallow copy; the same object if unchanged)."""
        if variant == self.variant:
            return self
        other = copy.copy(self)
        other.variant = variant
        return other

    def selectable(self, epoch: int, epochs: int) -> bool:
        del epoch, epochs
        return True

    def frozen_features(self, epoch: int, epochs: int) -> bool:
        del epoch, epochs
        return False

    def features(self, apply_fn, params, batch_stats, images):
        (_, feats), _ = forward(apply_fn, params, batch_stats, images, train=False,
                                features=True)
        return feats

    def epoch_metrics(self, totals: dict, num_batches: int) -> dict:
        """The epoch's logged scalars from the sums over its batches of the loss's `metrics`.

        Default: each scalar's sum / num_batches (batches have a fixed size, so this is the
        per-example mean of a per-batch mean); array-valued totals (per-cell counts) are for
        methods that derive a ratio from them once, and are not logged as they are.
        """
        return {k: float(np.asarray(v) / max(num_batches, 1)) for k, v in totals.items()
                if np.ndim(v) == 0}


def frozen(tx: optax.GradientTransformation) -> optax.GradientTransformation:
    """`tx` with its state kept as it is and every update zero: a part of the model that a phase
    does not train (weight decay and momentum included). The state has the same structure as
    tx's, so a run can switch phases with one optimizer state."""

    def update(updates, state, params=None):
        del params
        return jax.tree.map(jnp.zeros_like, updates), state

    return optax.GradientTransformation(tx.init, update)


def teacher_variables(info: dict, method_name: str) -> dict:
    """The frozen teacher's {"params", "batch_stats"} that the trainer put in `info` (for the
    method state: the jitted step computes the teacher's outputs on device)."""
    if info.get("teacher") is None:
        raise RuntimeError(f"method {method_name!r} has no teacher; the trainer loads it "
                           "(method.teacher_workdir / teacher_config) before building the state")
    return info["teacher"]


def teacher_forward(apply_fn, teacher_vars: dict, images, *, features: bool = False):
    """The teacher's logits (or (logits, features)) in evaluation mode, without gradient."""
    out, _ = forward(apply_fn, teacher_vars["params"], teacher_vars["batch_stats"], images,
                     train=False, features=features)
    return jax.tree.map(jax.lax.stop_gradient, out)
