"""ERM on the embedded DigitsB data set: the small CNN at 32 px, about a minute on a laptop CPU.

    python -m nhfair_jax.run --config configs/erm_digitsb.py --workdir runs/erm_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("erm")
