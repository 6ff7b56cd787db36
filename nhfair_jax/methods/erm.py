"""Empirical risk minimisation: plain cross-entropy, the baseline every method is compared to."""

from __future__ import annotations

from nhfair_jax.methods.base import CrossEntropy
from nhfair_jax.methods.registry import register


@register("erm")
class ERM(CrossEntropy):
    """Cross-entropy on the training batch.

    References: Vapnik, "Principles of risk minimization for learning theory", NeurIPS 1991.
    """
