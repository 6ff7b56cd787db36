"""Shared config defaults (one place); configs/*.py start from these and change what differs.

Namespaces: data, model, optim, train, method, eval. Every field has a typed default so that a
command-line override of a wrong type, or of a key that does not exist, is an error.
"""

from __future__ import annotations

import ml_collections

from nhfair_jax.data.pipeline import IMAGENET_MEAN, IMAGENET_STD
from nhfair_jax.methods import method_class


def base_config() -> ml_collections.ConfigDict:
    c = ml_collections.ConfigDict()
    c.seed = 0

    c.data = ml_collections.ConfigDict()
    c.data.name = "digitsb"
    c.data.root = ""  # folder of the official release; empty for embedded data
    c.data.split_seed = 0
    c.data.image_size = 224
    c.data.mean = IMAGENET_MEAN
    c.data.std = IMAGENET_STD
    c.data.target = ""  # the target attribute; empty: the data set's default
    c.data.sensitive = ""  # the sensitive attribute(s), "a,b" for intersectional groups
    c.data.cache_dir = ""  # decoded-image store; empty: $NHFAIR_CACHE or ~/.cache/nhfair_jax
    c.data.on_bad_image = "error"  # or "skip": unreadable images dropped, counted, reported
    c.data.options = ml_collections.ConfigDict()  # loader-specific (e.g. skew, alpha)

    c.model = ml_collections.ConfigDict()
    c.model.name = "resnet18"
    c.model.pretrained_path = ""  # local torchvision .pth (ImageNet weights)
    c.model.cnn_widths = (16, 32, 64, 128)  # small_cnn only: channels of its conv blocks
    # convolutions: "auto" = on the CPU tap loops and tap matmuls where XLA's is slow, XLA's
    # otherwise; flax's own layers (XLA's convolution, cuDNN) on accelerators; "xla" /
    # "patches" / "taps" / "tap_matmuls" force one (nhfair_jax/models/layers.py)
    c.model.conv_impl = "auto"

    # Paper defaults (seed paper Table 7): SGD with momentum, x0.1 every 30 epochs.
    c.optim = ml_collections.ConfigDict()
    c.optim.name = "sgd"
    c.optim.lr = 1e-2
    c.optim.momentum = 0.9
    c.optim.weight_decay = 1e-4
    c.optim.wd_mode = "l2"  # coupled L2 as PyTorch's weight_decay; "l1"; "none"
    c.optim.schedule = "auto"  # auto: step for sgd, constant otherwise
    c.optim.step_epochs = 30
    c.optim.gamma = 0.1

    c.train = ml_collections.ConfigDict()
    c.train.epochs = 100
    c.train.batch_size = 256
    c.train.eval_batch_size = 256
    c.train.patience = 10
    # The paper's protocol: patience restarts when validation loss or utility improves; the
    # checkpoint kept is the best utility's. "val_utility" / "val_loss": one monitor for both.
    c.train.monitor = "val_loss_or_utility"
    c.train.flip = True
    c.train.randaugment = False  # RandAugment(n=2, m=10), non-colour ops, for any method
    # where the flip and RandAugment run: "host" (the data pipeline), "device" (the train step,
    # on uint8 batches), "auto" (the device on an accelerator, the host on the CPU)
    c.train.augment_on = "auto"
    # "uniform": every training row once per epoch; "group" / "group_x_class": an epoch of
    # len(train) rows drawn with replacement, weights 1 / count of the row's group (or group x
    # class cell), GroupDRO's sampler, for any method that draws no rows of its own
    c.train.sampling = "uniform"
    c.train.prefetch = 2
    c.train.progress = True

    c.method = ml_collections.ConfigDict()
    c.method.name = "erm"

    c.eval = ml_collections.ConfigDict()
    c.eval.utility = "acc"  # "auc" for the medical data sets
    # a folder of test pairs (pairs.csv: CelebA-CF, LFW-CF or nhfair_jax.generate's output):
    # the test split's CD, balanced CD and accuracy / DEO on the counterfactuals come from them
    c.eval.cf_pairs = ""
    return c


def method_config(name: str, **overrides) -> ml_collections.ConfigDict:
    """config.method for a registered method: its name and every hyperparameter's default."""

    cls = method_class(name)
    unknown = sorted(set(overrides) - set(cls.defaults))
    if unknown:
        raise ValueError(f"method {name!r} has no hyperparameters {unknown}; it has "
                         f"{sorted(cls.defaults)}")
    return ml_collections.ConfigDict({"name": name, **cls.defaults, **overrides})


def digitsb_config(method: str = "erm", **method_overrides) -> ml_collections.ConfigDict:
    """A method on the embedded DigitsB data set: the small CNN at 32 px, about a minute of CPU.

    Adam: it converges in the 22 steps an epoch has here (SGD at this budget stays near 0.84).
    """
    c = base_config()
    c.data.name = "digitsb"
    c.data.image_size = 32
    c.data.mean = (0.5, 0.5, 0.5)
    c.data.std = (0.5, 0.5, 0.5)
    c.data.options.skew = 0.8  # P(A = Y)
    c.data.options.alpha = 0.8  # P(G = A)
    c.model.name = "small_cnn"
    c.optim.name = "adam"
    c.optim.lr = 2e-3
    c.optim.weight_decay = 0.0
    c.train.epochs = 30
    c.train.batch_size = 64
    c.train.eval_batch_size = 64
    c.train.patience = 10
    c.method = method_config(method, **method_overrides)
    return c


def real_data_config(name: str, root: str, *, utility: str = "acc", method: str = "erm",
                     **method_overrides) -> ml_collections.ConfigDict:
    """The paper's setting for a real data set: ImageNet-pretrained ResNet-18 at 224 px, batch
    256, 100 epochs, patience 10. data.root points at the official release."""
    c = base_config()
    c.data.name = name
    c.data.root = root
    c.eval.utility = utility
    c.model.pretrained_path = "weights/resnet18.pth"  # torchvision ImageNet weights, local file
    c.method = method_config(method, **method_overrides)
    return c


def load_config_module(path: str):
    """The module of a configs/*.py file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("loaded_config", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def complete_method(config) -> None:
    """Fills config.method with the defaults of the method it names when they are missing (a
    `--config.method.name=X` override on a config built for another method); keeps the values
    it has for the method's own hyperparameters."""

    cls = method_class(config.method.name)
    if set(cls.defaults) <= set(config.method.keys()):
        return
    kept = {k: v for k, v in config.method.items() if k in cls.defaults}
    with config.unlocked():
        config.method = method_config(config.method.name, **kept)


def load_config_file(path: str):
    """get_config() of a configs/*.py file (`path:arg` passes arg), or the config.json of a run
    directory."""
    import json
    import os

    path, _, arg = path.partition(":") if not os.path.exists(path) else (path, "", "")
    if not os.path.exists(path):
        where = "" if os.path.isabs(path) else f" (relative to the current directory {os.getcwd()})"
        raise FileNotFoundError(f"config file not found: {path}{where}; run from the repository "
                                "root or give the config as an absolute path")
    if path.endswith(".json"):  # a run directory's config.json (the benchmark's selection)
        with open(path) as f:
            return ml_collections.ConfigDict(json.load(f))
    module = load_config_module(path)
    return module.get_config(arg) if arg else module.get_config()
