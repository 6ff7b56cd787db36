"""Mixup across groups (same label, other group) on DigitsB.

    python -m nhfair_jax.run --config configs/mixup_digitsb.py --workdir runs/mixup_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("mixup")
