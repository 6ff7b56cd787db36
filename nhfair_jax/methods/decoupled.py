"""Decoupled classifiers: a shared backbone and one linear head per group."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.registry import register


def group_head_logits(heads, feats, groups):
    """Each example through its own group's head: feats [B, D] -> logits [B, C]."""
    return jnp.einsum("bd,bdc->bc", feats, heads["kernel"][groups]) + heads["bias"][groups]


@register("decoupled")
class Decoupled(Method):
    """One linear head per group on shared features; needs the group at test time.

    References: Dwork et al., "Decoupled classifiers for group-fair and efficient machine
    learning", FAT* 2018.
    """

    def init_params(self, model_params, key, info):
        g, d, c = info["num_groups"], info["feature_dim"], info["num_classes"]
        kernel = jax.nn.initializers.lecun_normal()(key, (g, d, c))
        return {"model": model_params, "heads": {"kernel": kernel, "bias": jnp.zeros((g, c))}}

    def _logits(self, apply_fn, params, batch_stats, batch, train):
        (_, feats), batch_stats = forward(apply_fn, params["model"], batch_stats, batch["image"],
                                          train=train, features=True)
        return group_head_logits(params["heads"], feats, batch["group"]), batch_stats

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        logits, batch_stats = self._logits(apply_fn, params, batch_stats, batch, True)
        return LossOutput(cross_entropy(logits, batch["label"]), logits, batch_stats,
                          method_state, {})

    def predict(self, apply_fn, params, batch_stats, batch):
        return self._logits(apply_fn, params, batch_stats, batch, False)[0]
