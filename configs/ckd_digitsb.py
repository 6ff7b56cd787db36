"""Counterfactual knowledge distillation on DigitsB from the ERM teacher of
configs/erm_digitsb.py (trained first into runs/erm_digitsb when that run does not exist yet).

    python -m nhfair_jax.run --config configs/ckd_digitsb.py --workdir runs/ckd_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("ckd", mu=1.0, lam=1.0, teacher_config="configs/erm_digitsb.py",
                          teacher_workdir="runs/erm_digitsb")
