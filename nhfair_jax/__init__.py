"""nhfair-jax: a JAX benchmark for bias mitigation toward fairness without harm on images."""

__version__ = "0.1.0"
