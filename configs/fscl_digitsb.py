"""FSCL on DigitsB: the fair supervised contrastive loss on two RandAugment views for the first
60% of the epochs (method.contrastive_fraction), then a linear head on the frozen features
(method.group_norm switches on FSCL+'s group normalisation). Contrastive learning needs more
steps than cross-entropy: 30 epochs with Adam.

    python -m nhfair_jax.run --config configs/fscl_digitsb.py --workdir runs/fscl_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    c = digitsb_config("fscl")
    c.train.epochs = 30
    c.train.patience = 30
    c.optim.name = "adam"
    c.optim.lr = 3e-3
    c.optim.weight_decay = 0.0
    return c
