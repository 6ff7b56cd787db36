"""The counterfactual-vs-group fairness study at the paper's scale, on CIFAR-10B (the CIFAR-10
python release under data/cifar10, see data/README.md; a GPU):

    python -m nhfair_jax.study.counterfactual --config configs/cf_study_cifar10b.py \
        --workdir runs/cf_cifar10b

The paper's setting: a ResNet trained from scratch (resnet18 here; the paper's ResNet-56 is not
among the models), Adam at lr 1e-3, batch 128, 50 epochs, four seeds, the 64:16:20 split,
P(A = Y) = 0.8 and alpha from 0.5 to 0.9; CP's lambda and CKD's mu on a log grid within
[1e-2, 1e2]. Alphas, selection rule and teacher study as configs/cf_study_digitsb.py.
"""

import os
import sys

import ml_collections

from nhfair_jax.config import real_data_config

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cf_study_digitsb import get_config as digitsb_study  # noqa: E402


def get_config():
    c = digitsb_study()
    c.name = "cifar10b"
    base = real_data_config("cifar10b", "data/cifar10", utility="acc")
    base.data.image_size = 32
    base.data.options.skew = 0.8
    base.data.options.alpha = 0.8
    base.model.pretrained_path = ""  # trained from scratch, as the paper's CIFAR-10B models
    base.optim.name = "adam"
    base.optim.lr = 1e-3
    base.optim.weight_decay = 0.0
    base.train.batch_size = 128
    base.train.eval_batch_size = 256
    base.train.epochs = 50
    base.train.patience = 50  # a fixed 50 epochs, as the paper; the best epoch is kept
    base.train.progress = False
    c.base = base
    c.seeds = (0, 1, 2, 3)
    c.grid = ml_collections.ConfigDict({"cp": {"lam": (0.1, 1.0, 10.0, 100.0)},
                                        "ckd": {"mu": (0.1, 1.0, 10.0, 100.0),
                                                "lam": (1.0, 10.0)}})
    return c
