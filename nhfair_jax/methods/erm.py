"""Empirical risk minimisation: plain cross-entropy, the baseline every method is compared to."""

from __future__ import annotations

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.registry import register


@register("erm")
class ERM(Method):
    """Cross-entropy on the training batch.

    References: Vapnik, "Principles of risk minimization for learning theory", NeurIPS 1991.
    """

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng) -> LossOutput:
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        return LossOutput(cross_entropy(logits, batch["label"]), logits, batch_stats,
                          method_state, {})
