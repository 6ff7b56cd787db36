"""nhfair-jax: a JAX benchmark for bias mitigation toward fairness without harm on images."""

from nhfair_jax import compile_cache as _compile_cache
from nhfair_jax import xla_flags as _xla_flags

__version__ = "0.1.0"

# XLA reads XLA_FLAGS once, when JAX starts a backend: the package's CPU flags go in first
# (nhfair_jax/xla_flags.py says which, why, and how to turn them off).
_xla_flags.apply()
# JAX's persistent compilation cache, so that runs building the same programs compile them once
# (nhfair_jax/compile_cache.py: where, and how to turn it off).
_compile_cache.apply()
