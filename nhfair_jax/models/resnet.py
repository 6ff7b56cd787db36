"""ResNet-18/34/50/101 in Flax Linen, laid out like torchvision so its weights load.

Submodule names follow torchvision's ``state_dict`` keys with dots turned into
underscores (``layer1.0.downsample.0`` -> ``layer1_0/downsample_conv``), so
:func:`load_torchvision_weights` can map every parameter by name alone.

References:
    He, Zhang, Ren, Sun. Deep Residual Learning for Image Recognition. CVPR 2016.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Mapping, Sequence

import flax.linen as nn
import jax.numpy as jnp
import numpy as np
from flax import traverse_util
from flax.core import FrozenDict, freeze, unfreeze

from nhfair_jax.models.layers import conv_layer, norm_layer, pool

# torchvision initialises convs with kaiming_normal(mode="fan_out"); matching it keeps
# from-scratch training comparable with the PyTorch reference runs.
_conv_init = nn.initializers.variance_scaling(2.0, "fan_out", "normal")


def _shortcut(block, x, out_filters):
    """Identity, or a 1x1 projection + BN (torchvision's `downsample`) when the shape changes."""
    if block.strides == 1 and x.shape[-1] == out_filters:
        return x
    residual = block.conv(out_filters, (1, 1), block.strides, padding=0, name="downsample_conv")(x)
    return block.norm(name="downsample_bn")(residual)


class BasicBlock(nn.Module):
    """Two 3x3 convs with an identity (or 1x1 projection) shortcut; used by ResNet-18/34."""

    filters: int
    strides: int
    conv: Callable[..., nn.Module]
    norm: Callable[..., nn.Module]

    @nn.compact
    def __call__(self, x):
        y = self.conv(self.filters, (3, 3), self.strides, padding=1, name="conv1")(x)
        y = nn.relu(self.norm(name="bn1")(y))
        y = self.conv(self.filters, (3, 3), 1, padding=1, name="conv2")(y)
        y = self.norm(name="bn2")(y)
        return nn.relu(y + _shortcut(self, x, self.filters))


class Bottleneck(nn.Module):
    """1x1 reduce, 3x3, 1x1 expand (x4); used by ResNet-50/101.

    The stride sits on the 3x3 conv (torchvision's "v1.5"), not on the first 1x1 as in
    the original paper, because that is where pretrained torchvision weights expect it.
    """

    filters: int
    strides: int
    conv: Callable[..., nn.Module]
    norm: Callable[..., nn.Module]

    @nn.compact
    def __call__(self, x):
        y = self.conv(self.filters, (1, 1), 1, padding=0, name="conv1")(x)
        y = nn.relu(self.norm(name="bn1")(y))
        y = self.conv(self.filters, (3, 3), self.strides, padding=1, name="conv2")(y)
        y = nn.relu(self.norm(name="bn2")(y))
        y = self.conv(self.filters * 4, (1, 1), 1, padding=0, name="conv3")(y)
        y = self.norm(name="bn3")(y)
        return nn.relu(y + _shortcut(self, x, self.filters * 4))


_BLOCKS = {"basic": BasicBlock, "bottleneck": Bottleneck}


class ResNet(nn.Module):
    """ResNet with BatchNorm in the torchvision layout, for NHWC float inputs.

    Attributes:
        stage_sizes: number of blocks in layer1..layer4, e.g. ``(2, 2, 2, 2)``.
        block: ``"basic"`` (ResNet-18/34) or ``"bottleneck"`` (ResNet-50/101).
        num_classes: width of the final ``fc`` layer.
        dtype: computation dtype; parameters and batch statistics stay float32.

    References:
        He et al. Deep Residual Learning for Image Recognition. CVPR 2016.
    """

    stage_sizes: Sequence[int]
    block: str
    num_classes: int
    dtype: Any = jnp.float32
    conv_impl: str = "auto"  # see models.layers: the CPU-fast layers, XLA's on accelerators

    @nn.compact
    def __call__(self, x, *, train: bool = False, features: bool = False):
        """Classify a batch of images.

        Args:
            x: images, ``[N, H, W, 3]``.
            train: use batch statistics and update ``batch_stats`` (pass
                ``mutable=["batch_stats"]``); otherwise use the running averages.
            features: also return the pooled penultimate features.

        Returns:
            Logits ``[N, num_classes]``, or ``(logits, feats)`` with feats
            ``[N, 512]`` (basic) or ``[N, 2048]`` (bottleneck) when ``features``.
        """
        if self.block not in _BLOCKS:
            raise ValueError(f"unknown block {self.block!r}; expected one of {sorted(_BLOCKS)}")
        block_cls = _BLOCKS[self.block]
        conv = functools.partial(conv_layer, use_bias=False, dtype=self.dtype, kernel_init=_conv_init,
                                 conv_impl=self.conv_impl)
        # torch's momentum 0.1 weights the new batch; flax's momentum weights the old average.
        norm = functools.partial(
            norm_layer, use_running_average=not train, momentum=0.9, epsilon=1e-5, dtype=self.dtype
        )

        x = jnp.asarray(x, self.dtype)
        x = conv(64, (7, 7), 2, padding=3, name="conv1")(x)
        x = nn.relu(norm(name="bn1")(x))
        # pooling pads with -inf, which is what torch's MaxPool2d(padding=1) does.
        x = pool(x, (3, 3), strides=(2, 2), padding=((1, 1), (1, 1)))
        for i, num_blocks in enumerate(self.stage_sizes):
            for j in range(num_blocks):
                strides = 2 if i > 0 and j == 0 else 1
                x = block_cls(64 * 2**i, strides, conv, norm, name=f"layer{i + 1}_{j}")(x)
        feats = jnp.mean(x, axis=(1, 2))
        logits = nn.Dense(self.num_classes, dtype=self.dtype, name="fc")(feats)
        return (logits, feats) if features else logits


RESNETS: dict[str, dict[str, Any]] = {
    "resnet18": {"stage_sizes": (2, 2, 2, 2), "block": "basic"},
    "resnet34": {"stage_sizes": (3, 4, 6, 3), "block": "basic"},
    "resnet50": {"stage_sizes": (3, 4, 6, 3), "block": "bottleneck"},
    "resnet101": {"stage_sizes": (3, 4, 23, 3), "block": "bottleneck"},
}


def resnet(name: str, num_classes: int, conv_impl: str = "auto") -> ResNet:
    """Build a named ResNet.

    Args:
        name: one of ``RESNETS`` ("resnet18", "resnet34", "resnet50", "resnet101").
        num_classes: width of the final ``fc`` layer.

    Returns:
        An uninitialised :class:`ResNet`.

    Raises:
        ValueError: ``name`` is not in ``RESNETS``.
    """
    if name not in RESNETS:
        raise ValueError(f"unknown resnet {name!r}; known: {', '.join(RESNETS)}")
    return ResNet(num_classes=num_classes, conv_impl=conv_impl, **RESNETS[name])


# Flax leaf name -> torch suffix, per collection.
_LEAF_TO_TORCH = {
    "params": {"kernel": "weight", "scale": "weight", "bias": "bias"},
    "batch_stats": {"mean": "running_mean", "var": "running_var"},
}


def _torch_key(collection: str, path: tuple[str, ...]) -> str:
    """``("layer1_0", "downsample_bn", "scale")`` -> ``"layer1.0.downsample.1.weight"``."""
    parts = []
    for module in path[:-1]:
        if module.startswith("layer"):
            parts.extend(module.split("_"))
        elif module.startswith("downsample_"):
            parts.extend(["downsample", "0" if module == "downsample_conv" else "1"])
        else:
            parts.append(module)
    return ".".join(parts + [_LEAF_TO_TORCH[collection][path[-1]]])


def _torch_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Flax conv HWIO -> OIHW, dense [in, out] -> [out, in]; vectors unchanged."""
    if len(shape) == 4:
        return (shape[3], shape[2], shape[0], shape[1])
    return tuple(reversed(shape))


def _from_torch_layout(a: np.ndarray) -> np.ndarray:
    """Inverse of :func:`_torch_shape`, applied to the data."""
    if a.ndim == 4:
        return a.transpose(2, 3, 1, 0)
    return a.T if a.ndim == 2 else a


def load_torchvision_weights(
    variables: Mapping[str, Any], path: str | os.PathLike, *, skip_fc_if_mismatch: bool = True
) -> dict[str, Any]:
    """Copy a torchvision ResNet ``state_dict`` into initialised Flax variables.

    Every model parameter and batch statistic must be in the file with a matching
    shape, and every file entry (other than ``num_batches_tracked``) must be used, so
    e.g. a ResNet-34 file cannot silently half-load into a ResNet-18.

    Args:
        variables: ``{"params": ..., "batch_stats": ...}`` from ``ResNet.init``.
        path: local ``.pth`` file holding a state_dict saved with ``torch.save``.
        skip_fc_if_mismatch: if the file's ``fc`` has a different number of classes
            (ImageNet's 1000 vs. ours), keep the model's own freshly initialised
            ``fc``, the usual fine-tuning setup; if False, raise instead.

    Returns:
        A new variables dict with the same tree structure as ``variables``; the input
        is not modified.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        ImportError: torch is not installed.
        ValueError: a key missing from or unused in the file, or a shape mismatch.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"pretrained weights not found at {path}; set model.pretrained_path to a local torchvision .pth file"
        )
    try:
        import torch
    except ImportError as e:
        raise ImportError("loading .pth weights needs torch: pip install 'nhfair-jax[torch]'") from e

    state = torch.load(path, map_location="cpu", weights_only=True)
    # Training checkpoints often wrap the weights ({"state_dict": ...}) and DataParallel
    # prefixes every key with "module.".
    if isinstance(state, Mapping) and isinstance(state.get("state_dict"), Mapping):
        state = state["state_dict"]
    if not isinstance(state, Mapping):
        raise ValueError(f"{path} holds a {type(state).__name__}, not a state_dict")
    if state and all(k.startswith("module.") for k in state):
        state = {k[len("module."):]: v for k, v in state.items()}
    # float32 first: numpy has no bfloat16, and the model's own dtype is restored below.
    state = {
        k: v.detach().to(torch.float32).numpy()
        for k, v in state.items()
        if not k.endswith("num_batches_tracked")
    }

    fc_weight = state.get("fc.weight")
    model_fc = tuple(variables["params"]["fc"]["kernel"].shape)
    # Only a different class count is the fine-tuning case; a different input width
    # means the wrong architecture and must fail like any other shape mismatch.
    keep_model_fc = (
        fc_weight is not None and fc_weight.shape[0] != model_fc[1] and fc_weight.shape[1] == model_fc[0]
    )
    if keep_model_fc and not skip_fc_if_mismatch:
        raise ValueError(
            f"fc.weight in {path} has {fc_weight.shape[0]} classes but the model has {model_fc[1]}; "
            "pass skip_fc_if_mismatch=True to keep the model's fc"
        )

    new = {}
    used = set()
    for collection in ("params", "batch_stats"):
        flat = traverse_util.flatten_dict(unfreeze(variables[collection]))
        for leaf_path, leaf in flat.items():
            key = _torch_key(collection, leaf_path)
            used.add(key)
            if keep_model_fc and leaf_path[0] == "fc":
                new[(collection, *leaf_path)] = leaf
                continue
            if key not in state:
                raise ValueError(f"{key} (for {collection}/{'/'.join(leaf_path)}) missing from {path}")
            expected = _torch_shape(tuple(leaf.shape))
            if state[key].shape != expected:
                raise ValueError(
                    f"shape mismatch for {key}: file has {state[key].shape}, model expects {expected}"
                )
            new[(collection, *leaf_path)] = jnp.asarray(_from_torch_layout(state[key]), dtype=leaf.dtype)

    unused = sorted(set(state) - used)
    if unused:
        shown = ", ".join(unused[:5]) + (f", ... ({len(unused)} in all)" if len(unused) > 5 else "")
        raise ValueError(f"{path} has entries the model does not use: {shown}")

    out = traverse_util.unflatten_dict(new)
    return freeze(out) if isinstance(variables, FrozenDict) else out
