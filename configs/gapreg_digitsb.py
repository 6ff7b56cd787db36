"""GapReg on DigitsB: CE + coef x the group gap of softmax probabilities (method.objective dp/eop/eod).

    python -m nhfair_jax.run --config configs/gapreg_digitsb.py --workdir runs/gapreg_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("gapreg")
