"""FIS, fair influential sampling, on DigitsB: 30% labelled, then influence-guided rounds.

    python -m nhfair_jax.run --config configs/fis_digitsb.py --workdir runs/fis_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("fis")
