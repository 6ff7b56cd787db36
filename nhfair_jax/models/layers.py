"""The models' layers, behind three selectors that the models call (`conv_layer`, `norm_layer`,
`pool`): on the CPU, the implementations of cpu_layers.py that XLA's CPU backend runs fast, with
the same numbers; on accelerators, XLA's convolution and flax's pooling and batch norm; patches
for per-example gradients everywhere.

- `Conv(conv_impl="auto")`: on the CPU, `conv_tap_matmuls` exactly where the output map is
  smaller than the kernel, `conv_taps` where the kernel has at most TAPS_MAX taps, XLA's
  elsewhere; on accelerators XLA's convolution (cuDNN on a GPU), lowered to the same program
  as `flax.linen.Conv`; patches under `per_example_convolutions` everywhere. On accelerators
  `norm_layer` gives `flax.linen.BatchNorm` and `pool` `flax.linen.max_pool`. `Conv` has
  `flax.linen.Conv`'s parameters, and the batch norms the same parameter and statistics
  names, so a checkpoint moves between backends.

The contexts below change what "auto" gives while a function traces: `per_example_convolutions`
(patches, for per-example gradients), `closed_form_convolutions` (patches for few-tap
convolutions, for the closed form layer by layer) and, in cpu_layers.py,
`forward_mode_convolutions`.
"""


from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Sequence
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp

from nhfair_jax.models.cpu_layers import (BatchNorm, _pairs, batch_norm, conv_patches,  # noqa: F401
                                          conv_tap_matmuls, conv_taps, conv_xla,
                                          forward_mode_convolutions, max_pool)

CONV_IMPLS = ("auto", "xla", "patches", "taps", "tap_matmuls")
TAPS_MAX = 32  # kh * kw * C_in up to which "auto" uses conv_taps on the CPU


_PER_EXAMPLE = contextvars.ContextVar("nhfair_per_example_convolutions", default=False)


@contextlib.contextmanager
def per_example_convolutions():
    """Within this block (while a function is traced), `conv_impl="auto"` convolutions use
    patches everywhere, on every backend. Under vmap(grad), XLA's kernel-gradient convolution
    becomes a grouped convolution, slow on the CPU and on a GPU, where the patches' kernel
    gradient becomes one batched matmul (FIS per-example scoring of the small CNN on the CPU:
    1,128 -> 1,682 examples/s; of ResNet-18 at 224 px, batch 64, on an H200: 991 -> 5,414)."""
    token = _PER_EXAMPLE.set(True)
    try:
        yield
    finally:
        _PER_EXAMPLE.reset(token)


_CLOSED_FORM = contextvars.ContextVar("nhfair_closed_form_convolutions", default=False)


@contextlib.contextmanager
def closed_form_convolutions():
    """Within this block (while a function is traced), a few-tap convolution that "auto" would
    give `conv_taps` is traced as patches (one matmul) instead: for the closed form layer by
    layer (`per_example.per_layer_dots`). There, XLA fused the multiply-add loop into the
    batched backward pass's consumers (recomputed per use: max pooling's gradient reads every
    element of a window) and split the loop's forward-mode derivative in a kernel direction into
    many passes over the output; per_layer scoring of the small CNN at 32 px, batch 64, K = 2,
    with non-trivial batch statistics: 33 -> 16 ms a batch."""
    token = _CLOSED_FORM.set(True)
    try:
        yield
    finally:
        _CLOSED_FORM.reset(token)


def resolve_conv_impl(impl: str, out_hw=None, kernel_hw=None, taps: int | None = None) -> str:
    """The implementation a convolution uses. "auto" is, under `per_example_convolutions`,
    patches everywhere, on every backend; elsewhere XLA's own on accelerators, and on the CPU
    `conv_tap_matmuls` where XLA's is pathological (output map smaller than the kernel),
    `conv_taps` where the kernel has few taps (kh * kw * C_in = `taps` <= TAPS_MAX; patches
    instead under `closed_form_convolutions`), XLA's elsewhere."""
    if impl not in CONV_IMPLS:
        raise ValueError(f"model.conv_impl must be one of {CONV_IMPLS}, got {impl!r}")
    if impl != "auto":
        return impl
    if _PER_EXAMPLE.get():
        return "patches"
    if jax.default_backend() != "cpu":
        return "xla"
    if out_hw is None or kernel_hw is None:
        return "patches"
    if any(o < k for o, k in zip(out_hw, kernel_hw)):
        return "tap_matmuls"
    if taps is not None and taps <= TAPS_MAX:
        return "patches" if _CLOSED_FORM.get() else "taps"
    return "xla"


# what each resolved `conv_impl` computes with
CONV_FNS = {"xla": conv_xla, "patches": conv_patches, "taps": conv_taps,
            "tap_matmuls": conv_tap_matmuls}


class Conv(nn.Module):
    """A 2-D convolution with `flax.linen.Conv`'s parameters (`kernel` HWIO, optional `bias`),
    so checkpoints and torchvision weights load unchanged, computed by `conv_impl`."""

    features: int
    kernel_size: Sequence[int]
    strides: int | Sequence[int] = 1
    padding: Any = "SAME"
    use_bias: bool = True
    dtype: Any = jnp.float32
    kernel_init: Any = nn.initializers.lecun_normal()
    bias_init: Any = nn.initializers.zeros_init()
    conv_impl: str = "auto"

    @nn.compact
    def __call__(self, x):
        kh, kw = self.kernel_size
        strides = (self.strides,) * 2 if isinstance(self.strides, int) else tuple(self.strides)
        kernel = self.param("kernel", self.kernel_init, (kh, kw, x.shape[-1], self.features),
                            jnp.float32)
        x, kernel = jnp.asarray(x, self.dtype), jnp.asarray(kernel, self.dtype)
        pads = _pairs(self.padding, (kh, kw), strides, x.shape[1:3])
        out_hw = tuple((n + lo + hi - k) // st + 1
                       for n, (lo, hi), k, st in zip(x.shape[1:3], pads, (kh, kw), strides))
        impl = resolve_conv_impl(self.conv_impl, out_hw, (kh, kw), kh * kw * x.shape[-1])
        y = CONV_FNS[impl](x, kernel, strides, pads)
        if self.use_bias:
            bias = jnp.asarray(self.param("bias", self.bias_init, (self.features,), jnp.float32),
                               self.dtype)
            y = y + bias.reshape((1,) * (y.ndim - 1) + bias.shape)  # as flax's Conv adds it
        return y


# --- the layers the models use: the CPU's above, flax's own elsewhere -------------------------

def _on_cpu() -> bool:
    return jax.default_backend() == "cpu"


def conv_layer(features: int, kernel_size, strides=1, *, conv_impl: str = "auto", **kwargs):
    """A convolution module: `Conv` (above) on every backend, its implementation chosen by
    `resolve_conv_impl` while it traces. With XLA's convolution (accelerators' "auto", or "xla"
    anywhere) it lowers to the same program as `flax.linen.Conv`, value and gradient
    (tests/test_models_layers.py); it is used on accelerators too so that per-example gradients
    (`per_example_convolutions`) can take patches there."""
    if conv_impl not in CONV_IMPLS:
        raise ValueError(f"model.conv_impl must be one of {CONV_IMPLS}, got {conv_impl!r}")
    return Conv(features, tuple(kernel_size), strides, conv_impl=conv_impl, **kwargs)


def norm_layer(**kwargs):
    """Batch norm: `BatchNorm` (above) on the CPU, `flax.linen.BatchNorm` elsewhere (the same
    parameters, statistics and values)."""
    return BatchNorm(**kwargs) if _on_cpu() else nn.BatchNorm(**kwargs)


def pool(x, window, strides=None, padding="VALID"):
    """Max pooling: `max_pool` (above) on the CPU, `flax.linen.max_pool` elsewhere (the same
    values and gradients)."""
    if _on_cpu():
        return max_pool(x, window, strides, padding)
    return nn.max_pool(x, tuple(window), tuple(strides) if strides else None, padding)
