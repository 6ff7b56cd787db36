"""Bias Mimicking on DigitsB (method.mode of the final head: none, us, uw or os).

    python -m nhfair_jax.run --config configs/bias_mimicking_digitsb.py \
        --workdir runs/bias_mimicking_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("bias_mimicking")
