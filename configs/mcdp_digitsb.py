"""MCDP on DigitsB: CE + coef x the maximal disparity of smoothed score CDFs between groups.

    python -m nhfair_jax.run --config configs/mcdp_digitsb.py --workdir runs/mcdp_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("mcdp")
