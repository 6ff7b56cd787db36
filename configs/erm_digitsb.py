"""ERM on the embedded DigitsB data set: the small CNN at 32 px, minutes on a laptop CPU.

    python -m nhfair_jax.run --config configs/erm_digitsb.py --workdir runs/erm_digitsb
"""

from nhfair_jax.config import base_config


def get_config():
    c = base_config()
    c.data.name = "digitsb"
    c.data.image_size = 32
    c.data.mean = (0.5, 0.5, 0.5)
    c.data.std = (0.5, 0.5, 0.5)
    c.data.options.skew = 0.8  # P(A = Y)
    c.data.options.alpha = 0.8  # P(G = A)
    c.model.name = "small_cnn"
    # Adam converges in the 22 steps an epoch has here; SGD at this budget stays near 0.84.
    c.optim.name = "adam"
    c.optim.lr = 2e-3
    c.optim.weight_decay = 0.0
    c.train.epochs = 30
    c.train.batch_size = 64
    c.train.eval_batch_size = 64
    c.train.patience = 10
    return c
