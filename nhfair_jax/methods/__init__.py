"""Bias-mitigation methods, one module each, found by name through the registry
(nhfair_jax/methods/registry.py: one record per method says its kind, class, defaults, search
space and what it needs); `config.method.name` picks one.
"""

from nhfair_jax.methods.base import (CrossEntropy, LossOutput, Method, PostFitMethod,
                                     ZeroShotMethod, cross_entropy, forward)
from nhfair_jax.methods.registry import (BASELINE, get_method, method_class, method_needs,
                                         register, registered, search_space, spec, suggest)

__all__ = ["BASELINE", "CrossEntropy", "LossOutput", "Method", "PostFitMethod", "ZeroShotMethod",
           "cross_entropy", "forward", "get_method", "method_class", "method_needs", "register",
           "registered", "search_space", "spec", "suggest"]
