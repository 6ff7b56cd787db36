"""RW (reweighing, w = P(a) P(y) / P(a, y)) on DigitsB.

    python -m nhfair_jax.run --config configs/rw_digitsb.py --workdir runs/rw_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("rw")
