"""COV (CE + lam x |covariance of group and decision score|) on DigitsB.

    python -m nhfair_jax.run --config configs/cov_digitsb.py --workdir runs/cov_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("cov")
