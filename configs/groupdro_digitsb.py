"""GroupDRO on DigitsB (method.variant "btl" makes alpha and gamma matter).

    python -m nhfair_jax.run --config configs/groupdro_digitsb.py --workdir runs/groupdro_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("groupdro")
