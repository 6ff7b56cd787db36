"""LBC (label bias correction: multipliers updated between epochs reweight group x class
cells) on DigitsB; method.epochs_per_round=5 is the study's round length.

    python -m nhfair_jax.run --config configs/lbc_digitsb.py --workdir runs/lbc_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("lbc")
