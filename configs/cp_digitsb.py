"""Counterfactual pairing on DigitsB: CE + lam x mean squared distance between the logits of
each image and of its counterfactual (A flipped).

    python -m nhfair_jax.run --config configs/cp_digitsb.py --workdir runs/cp_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("cp", lam=1.0)
