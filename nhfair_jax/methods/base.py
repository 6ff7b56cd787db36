"""What a method contributes to training, and the default (ERM) behaviour of each hook."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax.numpy as jnp
import optax


class LossOutput(NamedTuple):
    """What a method's loss returns to the generic train step."""

    loss: jnp.ndarray  # scalar to minimise
    logits: jnp.ndarray  # [B, C], for the training confusion counts
    batch_stats: Any  # updated BatchNorm statistics
    method_state: Any  # updated method state (a pytree; {} when the method keeps none)
    metrics: dict  # extra scalars to log (averaged over the epoch)


def cross_entropy(logits, labels, mask=None):
    """Mean softmax cross-entropy over the rows where mask is set."""
    per_example = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    if mask is None:
        return per_example.mean()
    mask = mask.astype(per_example.dtype)
    return (per_example * mask).sum() / jnp.maximum(mask.sum(), 1.0)


class Method:
    """Base class: the hooks a method may override. The trainer calls only these.

    Hooks:
      init_state(info): the method's own state, a pytree carried in the train state.
      loss(apply_fn, params, batch_stats, method_state, batch, rng): a LossOutput.
      predict(apply_fn, variables, batch): evaluation logits.
      sample_indices(source, seed, epoch): the rows to train on this epoch, or None for all.
    """

    name = "base"
    batch_keys = ("image", "label", "group")  # what the jitted step receives

    def __init__(self, cfg):
        self.cfg = cfg

    def init_state(self, info: dict):
        del info
        return {}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng) -> LossOutput:
        raise NotImplementedError

    def predict(self, apply_fn, variables, batch):
        return apply_fn(variables, batch["image"], train=False)

    def sample_indices(self, source, seed: int, epoch: int):
        del source, seed, epoch
        return None
