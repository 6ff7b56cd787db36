"""MFD (fair feature distillation: CE + lam/2 x per-class MMD between each group's student
features and the teacher's) on DigitsB, from the ERM teacher of configs/erm_digitsb.py (trained
first into runs/erm_digitsb when that run does not exist yet).

    python -m nhfair_jax.run --config configs/mfd_digitsb.py --workdir runs/mfd_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("mfd", teacher_config="configs/erm_digitsb.py",
                          teacher_workdir="runs/erm_digitsb")
