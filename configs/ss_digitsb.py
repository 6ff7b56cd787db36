"""SS (subsampling) on DigitsB: every group x class cell cut to the smallest, once per run
(method.mode="group" balances groups only).

    python -m nhfair_jax.run --config configs/ss_digitsb.py --workdir runs/ss_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("ss")
