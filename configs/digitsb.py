"""Any registered method on the embedded DigitsB data set (the small CNN at 32 px; about a minute
of CPU per run). The argument names the method (default erm):

    python -m nhfair_jax.run --config configs/digitsb.py:mixup --workdir runs/mixup_digitsb
    python -m nhfair_jax.run --config configs/digitsb.py --config.method.name=mixup --workdir ...

configs/erm_digitsb.py and configs/<method>_digitsb.py name the same configs by path.
"""

from nhfair_jax.config import digitsb_config


def get_config(method: str = "erm"):
    return digitsb_config(method or "erm")
