"""Bias-mitigation methods, one module each, found by name through the registry.

Importing a module registers its method; `config.method.name` picks one.
"""

from nhfair_jax.methods import (  # noqa: F401  (importing registers)
    bias_mimicking, cf, decoupled, dfr, fis, fscl, gapreg, groupdro, laftr, mcdp, mixup, oxonfair,
    randaug, resampling)
from nhfair_jax.methods import cov, lbc, mfd, rw, ss  # noqa: F401  (group-fairness baselines)
from nhfair_jax.methods import zeroshot as _zeroshot  # noqa: F401  (clip, blip2, fairerclip, sfid)
from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.erm import ERM
from nhfair_jax.methods.registry import get_method, method_class, register, registered

__all__ = ["ERM", "LossOutput", "Method", "cross_entropy", "forward", "get_method",
           "method_class", "register", "registered"]
