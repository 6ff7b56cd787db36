"""RandAugment (n=2, m=10, non-colour operations only) on DigitsB.

    python -m nhfair_jax.run --config configs/randaug_digitsb.py --workdir runs/randaug_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("randaug")
