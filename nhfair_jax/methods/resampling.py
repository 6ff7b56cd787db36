"""Resampling: draw training examples with replacement so that every group (or group x class
cell) is equally likely."""

from __future__ import annotations

import numpy as np

from nhfair_jax.methods.base import CrossEntropy
from nhfair_jax.methods.groups import CELL_MODES, balanced_weights
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice


@register("resampling", space={"method.mode": Choice(CELL_MODES)})
class Resampling(CrossEntropy):
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
