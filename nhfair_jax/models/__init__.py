"""Backbones: the torchvision-layout ResNets and a small CNN for CPU runs."""

from __future__ import annotations

from nhfair_jax.models.resnet import load_torchvision_weights, resnet
from nhfair_jax.models.small_cnn import SmallCNN

RESNET_NAMES = ("resnet18", "resnet34", "resnet50", "resnet101")


def known_models() -> list[str]:
    return ["small_cnn", *RESNET_NAMES]


def model_options(cfg) -> dict:
    """The constructor arguments that config.model holds for the chosen model."""
    options = {"conv_impl": cfg.get("conv_impl", "auto")}
    if cfg.name == "small_cnn":
        options["widths"] = tuple(cfg.cnn_widths)
    return options


def create_model(name: str, num_classes: int, **kwargs):
    """A Flax module by name: `small_cnn` or `resnet18/34/50/101`.

    Every model is called as `model.apply(variables, x, train=..., features=...)` and returns
    logits, or (logits, pooled features) with features=True.
    """
    if name == "small_cnn":
        return SmallCNN(num_classes=num_classes, **kwargs)
    if name in RESNET_NAMES:
        return resnet(name, num_classes, **kwargs)
    raise ValueError(f"unknown model {name!r}; known: {', '.join(known_models())}")


def load_pretrained(name: str, variables, path: str):
    """ImageNet weights from a local torchvision .pth file (ResNets only)."""
    if name not in RESNET_NAMES:
        raise ValueError(f"model.pretrained_path is set, but {name} has no torchvision weights; "
                         f"pretrained weights load into {', '.join(RESNET_NAMES)}")

    return load_torchvision_weights(variables, path)
