"""Scratch+aug on DigitsB: cross-entropy on the originals and their exact counterfactuals (the
Gaussian-noise attribute A flipped).

    python -m nhfair_jax.run --config configs/cf_aug_digitsb.py --workdir runs/cf_aug_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("cf_aug")
