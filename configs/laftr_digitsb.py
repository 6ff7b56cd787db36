"""LAFTR on DigitsB: the encoder and classifier play against an adversary that predicts the group
from the representation (method.variant dp or eqodd; method.fair_coef weighs the game).

    python -m nhfair_jax.run --config configs/laftr_digitsb.py --workdir runs/laftr_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("laftr")
