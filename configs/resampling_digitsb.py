"""Group-balanced resampling on DigitsB (method.mode: group or group_x_class).

    python -m nhfair_jax.run --config configs/resampling_digitsb.py --workdir runs/resampling_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("resampling")
