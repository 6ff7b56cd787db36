"""nhfair-jax: a JAX benchmark for bias mitigation toward fairness without harm on images.

Importing the package changes nothing in the process (no XLA flags, no JAX settings): the
commands call `nhfair_jax.runtime.setup()`, and a notebook may too (see runtime.py).
"""

__version__ = "0.1.0"
