"""Hinton distillation (temperature 4) from the ERM teacher of configs/erm_digitsb.py + CP, on
DigitsB (the teacher is trained first into runs/erm_digitsb when missing).

    python -m nhfair_jax.run --config configs/hkd_cp_digitsb.py --workdir runs/hkd_cp_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("hkd_cp", teacher_config="configs/erm_digitsb.py",
                          teacher_workdir="runs/erm_digitsb")
