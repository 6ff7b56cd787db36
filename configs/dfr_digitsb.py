"""DFR on DigitsB: last-layer retraining of the ERM model of configs/erm_digitsb.py (trained
first into runs/erm_digitsb when that run does not exist yet).

    python -m nhfair_jax.run --config configs/dfr_digitsb.py --workdir runs/dfr_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("dfr", base_config="configs/erm_digitsb.py",
                          base_workdir="runs/erm_digitsb")
