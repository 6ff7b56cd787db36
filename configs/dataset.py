"""Any registered method on a data set in its official layout, or on your own CSV manifest:
`configs/dataset.py:DATASET[,METHOD]` (METHOD default erm).

Real data sets (celeba, utkface, fairface, facet, ham10000, fitz17k, waterbirds, cifar10b): the
benchmark paper's setting, an ImageNet-pretrained ResNet-18 at 224 px, batch 256, up to 100
epochs with early stopping after 10 epochs without improvement of validation loss or utility
(AUC for ham10000 and fitz17k, accuracy for the others). Put the data where data/README.md says
and the torchvision ResNet-18 weights at weights/resnet18.pth (or point the config elsewhere):

    python -m nhfair_jax.run --config configs/dataset.py:celeba --workdir runs/erm_celeba \
        --config.data.root=data/celeba --config.model.pretrained_path=weights/resnet18.pth
    python -m nhfair_jax.run --config configs/dataset.py:ham10000,gapreg --workdir runs/g_ham

`csv`: your own images listed in a CSV manifest with image, label and sensitive-attribute
columns (data/README.md, "Your own data"). The small CNN at 64 px trains on a CPU; switch to
model.name="resnet18" (with pretrained_path) for real work:

    python -m nhfair_jax.run --config configs/dataset.py:csv --workdir runs/mine \
        --config.data.root=/data/mine/manifest.csv --config.data.sensitive=skin,age_group \
        --config.data.options.split_col=split

`digitsb` is the embedded data set (configs/digitsb.py's config).
"""

import ml_collections

from nhfair_jax.config import digitsb_config, real_data_config

# data set -> (default folder of its official release, utility)
REAL = {"celeba": ("data/celeba", "acc"), "utkface": ("data/utkface", "acc"),
        "fairface": ("data/fairface", "acc"), "facet": ("data/facet", "acc"),
        "ham10000": ("data/ham10000", "auc"), "fitz17k": ("data/fitzpatrick17k", "auc"),
        "waterbirds": ("data/waterbirds", "acc"), "cifar10b": ("data/cifar10", "acc")}


def csv_config(method: str = "erm"):
    c = digitsb_config(method)
    c.data.name = "csv"
    c.data.root = "data/mine/manifest.csv"
    c.data.image_size = 64
    c.data.target = "label"
    c.data.sensitive = "sensitive"
    c.data.options = ml_collections.ConfigDict({"image_col": "image", "split_col": ""})
    return c


def get_config(arg: str = "celeba"):
    dataset, _, method = arg.partition(",")
    method = method or "erm"
    if dataset == "csv":
        return csv_config(method)
    if dataset == "digitsb":
        return digitsb_config(method)
    if dataset not in REAL:
        from nhfair_jax.errors import UnknownName

        raise UnknownName("data set", dataset, [*REAL, "csv", "digitsb"])
    root, utility = REAL[dataset]
    return real_data_config(dataset, root, utility=utility, method=method)
