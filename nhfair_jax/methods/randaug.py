"""RandAug: ERM on RandAugment views restricted to operations that leave colours alone."""

from __future__ import annotations

from nhfair_jax.data.randaugment import RandAugment
from nhfair_jax.methods.base import CrossEntropy
from nhfair_jax.methods.registry import register


@register("randaug")
class RandAug(CrossEntropy):
    """ERM whose training batches pass through RandAugment(num_ops, magnitude) in the input
    pipeline (identity, rotate, shear, translate, sharpness, cutout; no colour operation).

    References: Cubuk et al., "RandAugment", CVPR Workshops 2020.
    """

    defaults = {"num_ops": 2, "magnitude": 10}

    def __init__(self, cfg):
        super().__init__(cfg)
        self.augment = RandAugment(cfg.num_ops, cfg.magnitude)
