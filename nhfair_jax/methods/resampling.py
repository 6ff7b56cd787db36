"""Resampling: draw training examples with replacement so that every group (or group x class
cell) is equally likely."""

from __future__ import annotations

import numpy as np

from nhfair_jax.methods.erm import ERM
from nhfair_jax.methods.registry import register

MODES = ("group", "group_x_class")


def balanced_weights(labels, groups, num_classes: int, mode: str) -> np.ndarray:
    """Sampling probabilities proportional to 1 / count of the example's cell."""
    if mode not in MODES:
        raise ValueError(f"method.mode must be one of {MODES}, got {mode!r}")
    cell = groups if mode == "group" else groups * num_classes + labels
    counts = np.bincount(cell)
    weights = 1.0 / counts[cell]
    return weights / weights.sum()


@register("resampling")
class Resampling(ERM):
    """ERM on an epoch of len(train) rows drawn with weights 1 / count over groups or groups x
    classes.

    References: Idrissi et al., "Simple data balancing achieves competitive worst-group-accuracy",
    CLeaR 2022.
    """

    defaults = {"mode": "group"}

    def sample_indices(self, source, seed, epoch, method_state):
        del method_state
        p = balanced_weights(source.labels, source.groups, source.num_classes, self.cfg.mode)
        rng = np.random.default_rng([seed, epoch, 0x5E5A])
        return rng.choice(len(source), size=len(source), replace=True, p=p)
