"""Decoupled classifiers (one linear head per group) on DigitsB.

    python -m nhfair_jax.run --config configs/decoupled_digitsb.py --workdir runs/decoupled_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("decoupled")
