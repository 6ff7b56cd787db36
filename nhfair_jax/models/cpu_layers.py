"""The CPU's layers: convolution, max pooling and batch norm written so that XLA's CPU backend
runs them fast, with the same numbers as XLA's convolution and flax's pooling and batch norm
(layers.py chooses them on the CPU).

Measured on the 2-core CPU (jax 0.10, forward + backward; benchmarks/README.md and, for the
earlier rounds, benchmarks/HISTORY.md):
- The gradient of `flax.linen.max_pool` (XLA's select-and-scatter) cost more than every
  convolution of the small CNN together: its gradient ran at 1,373 images/s at 32 px, batch 64,
  and at 2,977 with `max_pool` below.
- XLA's own convolution is pathological when the output map is smaller than the kernel
  (ResNet-18's last stages at 32-64 px): a 3x3 convolution of 512 channels on a 2x2 map takes
  355 ms for a batch of 32 against 8 ms as a patch matmul and 5 ms as one matmul per kernel
  tap over the pixels it meets (`conv_tap_matmuls`). Elsewhere XLA's is kept (its fusions win
  in the whole network).
- XLA's CPU convolution is slow when the kernel has few taps (an image's first layer, 3x3 over
  3 channels: 27 taps): 8.3 ms for 64 images at 64 px, 16 output channels, against 2.1 ms as
  27 broadcast multiply-adds in one elementwise loop (`conv_taps`).
- Differentiating `flax.linen.BatchNorm`'s expression leaves x - mean as a factor of the
  backward pass's reductions, and XLA writes that tensor out for them; `batch_norm`'s own
  derivative reduces only g and g * x (small CNN at 64 px, batch 64: 661 -> 719 images/s,
  ResNet-18 at 32 px 512 -> 579, in one side-by-side run of benchmarks/train_step.py).
- The gradient of pooling windows that tile the map (the small CNN's 2x2, stride 2) as kh * kw
  strided scatters added up cost 8 ms of the small CNN's step at 64 px; `_pool_tiles` computes
  it as one broadcast multiply over the input reshaped into its windows (2.3 ms).
- Tried and not kept: the kernel gradient as a patch matmul under XLA's forward (a custom JVP
  rule; slower in every whole step, 2x at 32 px), patches / tap reductions / per-row matmuls
  for a first layer's kernel gradient (3-7x slower than XLA's), space-to-depth for ResNet's
  7x7 stride-2 stem, pooling gradients by stride parity planes for overlapping windows
  (ResNet's 3x3 stride 2: slower at 32 px), and XLA's CPU flags other than the one the package
  sets (nhfair_jax/xla_flags.py: XLA's DNNL library route, XNNPACK off, YNNPACK reductions
  off (2.4x slower ResNet-18 steps), vector width, graph fusion, the concurrency-optimised
  scheduler: all within noise or slower).

- `conv_patches`: a convolution as one matrix product of image patches (im2col): the kh x kw
  shifted strided views of the padded input are concatenated along channels and multiplied by
  the kernel reshaped to [kh * kw * C_in, C_out]. Its derivatives are again matrix products
  and slices / pads, so reverse mode (the train step), forward mode (FIS's jvp scoring) and
  vmap (per-example gradients) follow from JAX's own rules. The patches cost kh * kw times the
  input's memory.
  Under vmap, the kernel gradient is one batched matmul, which is why per-example gradients
  (`per_example_convolutions`) use patches everywhere, on every backend (ResNet-18 at 224 px,
  batch 64, on an H200: 5,414 examples/s against 991 with XLA's grouped convolution; torch.func
  vmap(grad) 1,267).
- `conv_tap_matmuls`: one matmul per kernel tap over the valid part of the map; its
  derivatives are JAX's own (slices, pads, matmuls).
- `conv_taps`: the multiply-adds forward, XLA's convolution for the derivatives (custom JVP);
  the multiply-adds for a tangent only pushed forward (`forward_mode_convolutions`).
- `max_pool`: the window's shifted strided views reduced with elementwise maxima, the result
  taken from the first view equal to the maximum, so that the gradient goes to the first
  maximal element, as `flax.linen.max_pool` and torch route it; tiling windows through
  `_pool_tiles` (a custom JVP with the same derivative).
- `BatchNorm` / `batch_norm`: flax's parameters, statistics and forward operations, with a
  custom JVP whose tangent has x as its only array-sized factor.

All agree with XLA's convolution, `flax.linen.max_pool` and `flax.linen.BatchNorm`
(tests/test_models_layers.py): the convolutions and batch norm's derivatives to float rounding,
max pooling and batch norm's values exactly, gradients, forward mode and vmap included, ties
too.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Sequence
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp


_FORWARD_ONLY = contextvars.ContextVar("nhfair_forward_mode_convolutions", default=False)


@contextlib.contextmanager
def forward_mode_convolutions():
    """Within this block (while a function is traced), a few-tap convolution's (`conv_taps`)
    forward-mode derivative is computed by the same multiply-adds as its value, not by XLA's
    convolution: for derivatives that are pushed forward only (FIS's jvp scoring), where the
    kernel tangent's convolution of the first layer is XLA's slow few-channel case (jvp scoring
    of the small CNN at 32 px, batch 64, K = 2: 25.5 -> 22.2 ms a batch, best of 35).
    Transposing such a derivative (a gradient of it) stays exact but is slow: kh * kw * C_in
    separate reductions."""
    token = _FORWARD_ONLY.set(True)
    try:
        yield
    finally:
        _FORWARD_ONLY.reset(token)


def _pairs(padding, kernel_size, strides, spatial):
    """Explicit ((lo, hi), (lo, hi)) padding from an int, "SAME", "VALID" or pairs."""
    if isinstance(padding, str):
        if padding.upper() == "VALID":
            return ((0, 0), (0, 0))
        if padding.upper() != "SAME":
            raise ValueError(f"padding must be 'SAME', 'VALID', an int or pairs, got {padding!r}")
        out = []
        for n, k, s in zip(spatial, kernel_size, strides):
            total = max((-(-n // s) - 1) * s + k - n, 0)
            out.append((total // 2, total - total // 2))
        return tuple(out)
    if isinstance(padding, int):
        return ((padding, padding), (padding, padding))
    return tuple((p, p) if isinstance(p, int) else tuple(p) for p in padding)


def _views(x, kernel_size, strides, pads, fill):
    """The kh * kw shifted strided views of the padded x, each [B, Ho, Wo, C]."""
    (kh, kw), (sh, sw) = kernel_size, strides
    (pt, pb), (pl, pr) = pads
    if any((pt, pb, pl, pr)):
        x = jnp.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=fill)
    _, h, w, _ = x.shape
    ho, wo = (h - kh) // sh + 1, (w - kw) // sw + 1
    return [x[:, i:i + sh * (ho - 1) + 1:sh, j:j + sw * (wo - 1) + 1:sw, :]
            for i in range(kh) for j in range(kw)]


def conv_patches(x, kernel, strides=(1, 1), padding="SAME"):
    """NHWC x HWIO -> NHWC convolution (cross-correlation, like lax.conv) as a patch matmul."""
    kh, kw, c_in, c_out = kernel.shape
    pads = _pairs(padding, (kh, kw), strides, x.shape[1:3])
    views = _views(x, (kh, kw), strides, pads, 0.0)
    patches = views[0] if len(views) == 1 else jnp.concatenate(views, axis=-1)
    b, ho, wo, _ = patches.shape
    out = patches.reshape(b * ho * wo, kh * kw * c_in) @ kernel.reshape(kh * kw * c_in, c_out)
    return out.reshape(b, ho, wo, c_out)


def conv_tap_matmuls(x, kernel, strides=(1, 1), padding="SAME"):
    """NHWC x HWIO -> NHWC convolution on a small map as one matrix product per kernel tap,
    over only the output pixels whose input pixel for that tap lies inside the map, each padded
    back to the output's shape and summed (XLA fuses the pads and sums into one loop). Patches
    multiply the padding too: on a 2x2 map a 3x3 kernel meets real pixels in 16 of the 36
    (pixel, tap) pairs, on a 1x1 map in 1 of 9. Measured (forward + backward, batch 32): 512
    channels on a 2x2 map 5.0 ms against 8.1 ms for patches; on a 1x1 map 0.5 against 2.4 ms;
    ResNet-18's train step at 32 / 64 px 593 -> 622 / 147 -> 155 images/s."""
    kh, kw, _, _ = kernel.shape
    (sh, sw) = strides
    (pt, pb), (pl, pr) = _pairs(padding, (kh, kw), strides, x.shape[1:3])
    _, h, w, _ = x.shape
    ho, wo = (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1
    out = None
    for ti in range(kh):
        rows = [o for o in range(ho) if 0 <= o * sh + ti - pt < h]
        for tj in range(kw):
            cols = [o for o in range(wo) if 0 <= o * sw + tj - pl < w]
            if not rows or not cols:
                continue  # this tap only ever meets padding
            r0, c0 = rows[0] * sh + ti - pt, cols[0] * sw + tj - pl
            inside = x[:, r0:r0 + sh * (len(rows) - 1) + 1:sh,
                       c0:c0 + sw * (len(cols) - 1) + 1:sw, :]
            term = jnp.pad(inside @ kernel[ti, tj], ((0, 0), (rows[0], ho - 1 - rows[-1]),
                                                     (cols[0], wo - 1 - cols[-1]), (0, 0)))
            out = term if out is None else out + term
    if out is None:  # every tap meets padding only: a zero output
        out = jnp.zeros((x.shape[0], ho, wo, kernel.shape[-1]), jnp.result_type(x, kernel))
    return out


def conv_xla(x, kernel, strides=(1, 1), padding="SAME"):
    pads = _pairs(padding, kernel.shape[:2], strides, x.shape[1:3])
    return jax.lax.conv_general_dilated(x, kernel, tuple(strides), pads,
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _taps(x, kernel, strides, pads):
    """The convolution as kh * kw * C_in broadcast multiply-adds of the shifted input views:
    one elementwise loop that reads the input from cache and writes the output once."""
    kh, kw, c_in, _ = kernel.shape
    out = None
    for t, view in enumerate(_views(x, (kh, kw), strides, pads, 0.0)):
        for c in range(c_in):
            term = view[..., c:c + 1] * kernel[t // kw, t % kw, c]
            out = term if out is None else out + term
    return out


def conv_taps(x, kernel, strides=(1, 1), padding="SAME"):
    """NHWC x HWIO -> NHWC convolution with few input taps (kh * kw * C_in <= TAPS_MAX, e.g. an
    image's first 3x3 layer) as elementwise multiply-adds: XLA's CPU convolution runs such a
    layer 3-4x slower than this loop (3x3, 3 -> 16 channels, 64 px, batch 64: 8.3 ms against
    2.1 ms). Its derivatives are XLA's convolution's (a custom JVP: the tangent is XLA's
    convolution of the tangents, which JAX transposes for the gradients), since the loop's own
    kernel gradient would be kh * kw * C_in separate reductions (20 ms against 4 ms there);
    under `forward_mode_convolutions` the tangent is the loop again."""
    pads = _pairs(padding, kernel.shape[:2], strides, x.shape[1:3])
    return _conv_taps(x, kernel, tuple(strides), pads)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3))
def _conv_taps(x, kernel, strides, pads):
    return _taps(x, kernel, strides, pads)


@functools.partial(_conv_taps.defjvp, symbolic_zeros=True)
def _conv_taps_jvp(strides, pads, primals, tangents):
    x, kernel = primals
    dx, dkernel = tangents
    out = _taps(x, kernel, strides, pads)
    conv = _taps if _FORWARD_ONLY.get() else conv_xla  # see forward_mode_convolutions
    terms = [conv(dx, kernel, strides, pads)] if not _zero(dx) else []
    if not _zero(dkernel):
        terms.append(conv(x, dkernel, strides, pads))
    return out, (sum(terms[1:], terms[0]) if terms else jnp.zeros_like(out))


def _zero(tangent) -> bool:
    return isinstance(tangent, jax.custom_derivatives.SymbolicZero)


def max_pool(x, window: Sequence[int], strides: Sequence[int] | None = None, padding="VALID"):
    """`flax.linen.max_pool` for NHWC inputs (padding with -inf), same values and gradients,
    fast to differentiate. The window's kh * kw shifted strided views of x are reduced with
    elementwise maxima, and the result is taken from the views again, last to first, where a
    view equals the maximum: its gradient goes to the FIRST maximal element of each window (in
    row-major window order), as `flax.linen.max_pool` (XLA's select-and-scatter) and torch's
    MaxPool2d route it. Splitting it among tied elements would be an equally valid subgradient,
    but images have exact ties (a constant background after batch norm) and training would
    drift from the reference. No argmax, no one-hot and no transpose of the input: XLA fuses
    the whole of it, forward and backward, into elementwise loops.

    Windows that tile the map (stride = window, no padding: the small CNN's 2x2 pooling) take
    `_pool_tiles`, whose gradient is one elementwise loop over the input."""
    window = tuple(window)
    strides = tuple(strides) if strides is not None else window
    pads = _pairs(padding, window, strides, x.shape[1:3])
    if strides == window and not any(p for pair in pads for p in pair):
        return _pool_tiles(x, window)
    views = _views(x, window, strides, pads, -jnp.inf)
    top = jax.lax.stop_gradient(_maxima(views))  # compared against only; NaN: NaN, no gradient
    out = top
    for view in reversed(views):
        out = jnp.where(view == top, view, out)
    return out


def _maxima(views):
    top = views[0]
    for view in views[1:]:
        top = jnp.maximum(top, view)
    return top


def _window_maxima(x, window):
    return _maxima(_views(x, window, window, ((0, 0), (0, 0)), -jnp.inf))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _pool_tiles(x, window):
    """Max pooling over windows that tile the map (stride = window, no padding; rows and
    columns past the last whole window are dropped, as flax drops them). The derivative is the
    same as `max_pool`'s (the first maximal element of each window takes it, none for a window
    holding NaN), written on the input reshaped to [B, Ho, kh, Wo, kw, C], where each window is
    a block of axes: the tangent is a masked sum over the window axes, and its transpose, the
    gradient, one broadcast multiply on the reshaped input. With the views, the gradient was kh
    * kw strided scatters added up (small CNN at 64 px: 8 ms a step against 2.3 ms)."""
    return _window_maxima(x, window)


@functools.partial(_pool_tiles.defjvp, symbolic_zeros=True)
def _pool_tiles_jvp(window, primals, tangents):
    (x,), (dx,) = primals, tangents
    top = _window_maxima(x, window)
    if _zero(dx):
        return top, jnp.zeros_like(top)
    (kh, kw), (b, _, _, c) = window, x.shape
    ho, wo = top.shape[1:3]
    blocks = (b, ho, kh, wo, kw, c)
    x6 = x[:, :ho * kh, :wo * kw].reshape(blocks)
    equal = x6 == top[:, :, None, :, None, :]
    first, seen = [], None  # the first maximal element of each window, row-major
    for i in range(kh):
        row = []
        for j in range(kw):
            hit = equal[:, :, i, :, j, :]
            row.append(hit if seen is None else hit & ~seen)
            seen = hit if seen is None else seen | hit
        first.append(jnp.stack(row, axis=3))
    mask = jnp.stack(first, axis=2)
    dx6 = dx[:, :ho * kh, :wo * kw].reshape(blocks)
    return top, jnp.where(mask, dx6, jnp.zeros((), dx.dtype)).sum((2, 4))


def _batch_moments(x, axes):
    """flax's batch statistics (`use_fast_variance`): mean, E[x^2] - mean^2 clipped at 0, and
    the unclipped difference (whose sign says whether the clip is active)."""
    mean = x.mean(axes, keepdims=True)
    raw = jax.lax.square(x).mean(axes, keepdims=True) - jax.lax.square(mean)
    return mean, jnp.maximum(0.0, raw), raw


@functools.partial(jax.custom_jvp, nondiff_argnums=(3,))
def batch_norm(x, scale, bias, epsilon):
    """Train-mode batch normalisation over every axis but the last: returns (y, mean, var),
    y = (x - mean) * (rsqrt(var + epsilon) * scale) + bias, the same operations in the same
    order as `flax.linen.BatchNorm` (so the same values), mean and var with keepdims.

    Its derivative is written out (a custom JVP) so that every array-sized factor in it is x
    itself: the tangent is a * dx + x * c + d with per-channel a, c, d, and its transpose (the
    gradient JAX derives from it) reduces only the cotangent g and g * x. Differentiating
    flax's expression instead leaves (x - mean) as a factor of the reductions, and XLA writes
    that tensor out for them (small CNN at 64 px: 6 ms of a 90 ms step for the first layer's).
    The derivative is exact (the same as flax's to float rounding; forward mode, reverse mode
    and vmap all follow from it), except where the clip of the variance binds exactly at zero,
    where flax's maximum would split the derivative in half and this takes none."""
    mean, var, _ = _batch_moments(x, tuple(range(x.ndim - 1)))
    return _normalize(x, mean, var, scale, bias, epsilon), mean, var


def _normalize(x, mean, var, scale, bias, epsilon):
    """flax's `_normalize`, operation for operation (so the same values)."""
    y = x - mean
    y = y * (jax.lax.rsqrt(var + epsilon) * scale)
    return y + bias


@batch_norm.defjvp
def _batch_norm_jvp(epsilon, primals, tangents):
    x, scale, bias = primals
    dx, dscale, dbias = tangents
    axes = tuple(range(x.ndim - 1))
    mean, var, raw = _batch_moments(x, axes)
    y = _normalize(x, mean, var, scale, bias, epsilon)
    rstd = jax.lax.rsqrt(var + epsilon)
    dmean = dx.mean(axes, keepdims=True)
    # d var = 2 E[(x - mean) dx] = 2 (E[x dx] - mean E[dx]); zero where the clip binds
    half_dvar = jnp.where(raw > 0, (x * dx).mean(axes, keepdims=True) - mean * dmean, 0.0)
    a = rstd * scale
    # dy = a (dx - dmean) + (x - mean) (dscale rstd - a rstd^2 half_dvar) + dbias
    c = dscale * rstd - a * rstd * rstd * half_dvar
    dy = a * dx + x * c + (dbias - a * dmean - mean * c)
    return (y, mean, var), (dy, dmean, 2 * half_dvar)


class BatchNorm(nn.Module):
    """`flax.linen.BatchNorm` over the last axis (the same parameters `scale`, `bias` and
    statistics `mean`, `var`, so checkpoints and torchvision weights load unchanged; the same
    values; running averages updated the same way), with the train-mode derivative of
    `batch_norm`, which XLA computes without writing out x - mean on the CPU."""

    use_running_average: bool | None = None
    momentum: float = 0.99
    epsilon: float = 1e-5
    dtype: Any = None
    param_dtype: Any = jnp.float32
    scale_init: Any = nn.initializers.ones
    bias_init: Any = nn.initializers.zeros

    @nn.compact
    def __call__(self, x, use_running_average: bool | None = None):
        use_running_average = nn.merge_param("use_running_average", self.use_running_average,
                                             use_running_average)
        features = (x.shape[-1],)
        ra_mean = self.variable("batch_stats", "mean", lambda s: jnp.zeros(s, jnp.float32),
                                features)
        ra_var = self.variable("batch_stats", "var", lambda s: jnp.ones(s, jnp.float32),
                               features)
        scale = self.param("scale", self.scale_init, features, self.param_dtype)
        bias = self.param("bias", self.bias_init, features, self.param_dtype)
        # statistics in at least float32, as flax computes them
        x32 = jnp.asarray(x, jnp.promote_types(x.dtype, jnp.float32))
        out_dtype = self.dtype or jnp.result_type(x32, scale, bias)
        if use_running_average:
            return jnp.asarray(_normalize(x32, ra_mean.value, ra_var.value, scale, bias,
                                          self.epsilon), out_dtype)
        y, mean, var = batch_norm(x32, scale, bias, self.epsilon)
        if not self.is_initializing():
            ra_mean.value = self.momentum * ra_mean.value + (1 - self.momentum) * mean.reshape(
                features)
            ra_var.value = self.momentum * ra_var.value + (1 - self.momentum) * var.reshape(
                features)
        return jnp.asarray(y, out_dtype)
