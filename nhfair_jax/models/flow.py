"""A small Glow: an invertible generative model of images, trained by maximum likelihood.

`Glow(levels, steps, hidden)` maps an image batch [B, H, W, C] (values in [-0.5, 0.5]) to its
latents, one array per level, and back, exactly: `Glow(...).apply(v, x)` returns
(latents, log_prior [B], logdet [B]) and `Glow(...).apply(v, latents, reverse=True)` the image.
The log-likelihood of x is log_prior + logdet (`log_likelihood`). Each level squeezes 2 x 2
pixels into channels and runs `steps` flow steps (actnorm, an invertible 1 x 1 convolution, a
coupling layer); every level but the last splits half of its channels off as that level's
latent, modelled by a Gaussian whose mean and log-scale a zero-initialised convolution reads
from the other half; the last level's latent has a learned mean and log-scale per position.
`wrap` / `unwrap` flatten the latents into one vector [B, D] and back (D = H * W * C).

Following Kingma and Dhariwal's Glow (the structure of its reference code in PyTorch by
Rosinality, which LASSI's code builds on): actnorm initialised from the first batch (a
data-dependent `init`), 1 x 1 convolutions initialised as random rotations, coupling networks
of a 3 x 3 convolution, a 1 x 1 convolution and a zero-initialised 3 x 3 convolution whose
output is scaled by exp(3 * s), additive couplings by default (`affine=True`: sigmoid-scaled
affine ones), and the latents returned unstandardised (the split part as it comes out of the
flow, not divided by its prior's scale), as that code returns them. Our choices: the 1 x 1
convolutions are plain matrices (no LU factorisation; their log-determinant is a slogdet of a
C x C matrix, cheap at these widths), and the data are 8-bit images dequantised with uniform
noise (`dequantize`), not reduced to 5 bits as the reference's CelebA model.

References:
  Kingma and Dhariwal, "Glow: Generative flow with invertible 1x1 convolutions", NeurIPS 2018.
  Dinh, Sohl-Dickstein and Bengio, "Density estimation using Real NVP", ICLR 2017 (multi-scale
  architecture, coupling layers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

BINS = 256  # 8-bit images


def squeeze(x):
    """[B, H, W, C] -> [B, H/2, W/2, 4C] (each 2 x 2 block of pixels into channels)."""
    b, h, w, c = x.shape
    x = x.reshape(b, h // 2, 2, w // 2, 2, c).transpose(0, 1, 3, 5, 2, 4)
    return x.reshape(b, h // 2, w // 2, c * 4)


def unsqueeze(x):
    """The inverse of `squeeze`."""
    b, h, w, c = x.shape
    x = x.reshape(b, h, w, c // 4, 2, 2).transpose(0, 1, 4, 2, 5, 3)
    return x.reshape(b, h * 2, w * 2, c // 4)


class ActNorm(nn.Module):
    """y = (x + loc) * exp(logs) per channel; `loc`, `logs` set from the first batch so that y
    has zero mean and unit variance there."""

    @nn.compact
    def __call__(self, x, reverse: bool = False):
        axes = tuple(range(x.ndim - 1))
        loc = self.param("loc", lambda _: -jnp.mean(x, axis=axes))
        logs = self.param("logs", lambda _: -jnp.log(jnp.std(x, axis=axes) + 1e-6))
        if reverse:
            return x * jnp.exp(-logs) - loc
        pixels = math.prod(x.shape[1:-1])
        return (x + loc) * jnp.exp(logs), jnp.full(x.shape[0], pixels * jnp.sum(logs))


def _rotation(key, shape, dtype=jnp.float32):
    q, _ = jnp.linalg.qr(jax.random.normal(key, shape, dtype))
    return q


class InvConv(nn.Module):
    """An invertible 1 x 1 convolution: y = x W^T at every pixel."""

    @nn.compact
    def __call__(self, x, reverse: bool = False):
        c = x.shape[-1]
        w = self.param("kernel", _rotation, (c, c))
        if reverse:
            return x @ jnp.linalg.inv(w).T
        pixels = math.prod(x.shape[1:-1])
        return x @ w.T, jnp.full(x.shape[0], pixels * jnp.linalg.slogdet(w)[1])


class ZeroConv(nn.Module):
    """A 3 x 3 convolution initialised at zero, its output scaled by exp(3 * scale) (Glow's
    last layer of a coupling network and of a prior)."""

    features: int

    @nn.compact
    def __call__(self, x):
        out = nn.Conv(self.features, (3, 3), padding="SAME", kernel_init=nn.initializers.zeros,
                      name="conv")(x)
        scale = self.param("scale", nn.initializers.zeros, (self.features,))
        return out * jnp.exp(3.0 * scale)


class Coupling(nn.Module):
    """The second half of the channels shifted (additive) or scaled and shifted (affine) by a
    network of the first half."""

    hidden: int
    affine: bool = False

    @nn.compact
    def __call__(self, x, reverse: bool = False):
        xa, xb = jnp.split(x, 2, axis=-1)
        h = nn.relu(nn.Conv(self.hidden, (3, 3), padding="SAME", name="in")(xa))
        h = nn.relu(nn.Conv(self.hidden, (1, 1), name="mid")(h))
        h = ZeroConv(xb.shape[-1] * (2 if self.affine else 1), name="out")(h)
        if self.affine:
            log_s, t = jnp.split(h, 2, axis=-1)
            s = jax.nn.sigmoid(log_s + 2.0)
            if reverse:
                return jnp.concatenate([xa, xb / s - t], axis=-1)
            yb = (xb + t) * s
            return jnp.concatenate([xa, yb], axis=-1), jnp.log(s).reshape(x.shape[0], -1).sum(1)
        if reverse:
            return jnp.concatenate([xa, xb - h], axis=-1)
        return jnp.concatenate([xa, xb + h], axis=-1), jnp.zeros(x.shape[0], x.dtype)


def gaussian_log_p(x, mean, log_sd):
    """Sum over all but the batch axis of log N(x; mean, exp(log_sd)^2)."""
    per = -0.5 * math.log(2 * math.pi) - log_sd - 0.5 * (x - mean) ** 2 * jnp.exp(-2 * log_sd)
    return per.reshape(x.shape[0], -1).sum(1)


class Glow(nn.Module):
    """The multi-scale flow (module docstring). Image sides must be multiples of 2^levels."""

    levels: int = 2
    steps: int = 4
    hidden: int = 64
    affine: bool = False

    def _step(self, level: int, step: int):
        return (ActNorm(name=f"l{level}_s{step}_actnorm"),
                InvConv(name=f"l{level}_s{step}_invconv"),
                Coupling(self.hidden, self.affine, name=f"l{level}_s{step}_coupling"))

    def _prior(self, level: int, h):
        """(mean, log_sd) of the latent of `level` given the kept half h (None: the top)."""
        if h is None:
            raise ValueError("the top prior needs the latent's shape")
        if level < self.levels - 1:
            return jnp.split(ZeroConv(h.shape[-1] * 2, name=f"l{level}_prior")(h), 2, axis=-1)
        mean = self.param(f"l{level}_top_mean", nn.initializers.zeros, h.shape[1:])
        log_sd = self.param(f"l{level}_top_log_sd", nn.initializers.zeros, h.shape[1:])
        return mean[None], log_sd[None]

    @nn.compact
    def __call__(self, x, reverse: bool = False):
        if reverse:
            return self._decode(x)
        _, hh, ww, _ = x.shape
        if hh % 2 ** self.levels or ww % 2 ** self.levels:
            raise ValueError(f"the flow's image sides must be multiples of 2^levels = "
                             f"{2 ** self.levels}, got {hh} x {ww}")
        logdet = jnp.zeros(x.shape[0], x.dtype)
        log_prior = jnp.zeros(x.shape[0], x.dtype)
        latents = []
        h = x
        for level in range(self.levels):
            h = squeeze(h)
            for step in range(self.steps):
                for layer in self._step(level, step):
                    h, ld = layer(h)
                    logdet = logdet + ld
            if level < self.levels - 1:
                h, z = jnp.split(h, 2, axis=-1)
                mean, log_sd = self._prior(level, h)
            else:
                z = h
                mean, log_sd = self._prior(level, z)
            log_prior = log_prior + gaussian_log_p(z, mean, log_sd)
            latents.append(z)
        return tuple(latents), log_prior, logdet

    def _decode(self, latents: Sequence):
        h = latents[-1]
        for level in reversed(range(self.levels)):
            if level < self.levels - 1:
                h = jnp.concatenate([h, latents[level]], axis=-1)
            for step in reversed(range(self.steps)):
                for layer in reversed(self._step(level, step)):
                    h = layer(h, reverse=True)
            h = unsqueeze(h)
        return h


def latent_shapes(image_shape, levels: int) -> list[tuple]:
    """The shapes (without the batch axis) of the latents of an image of shape [H, W, C]."""
    h, w, c = image_shape
    shapes = []
    for level in range(levels):
        h, w, c = h // 2, w // 2, c * 4
        if level < levels - 1:
            c //= 2
        shapes.append((h, w, c))
    return shapes


def wrap(latents) -> jnp.ndarray:
    """The latents as one vector per example, [B, D]."""
    return jnp.concatenate([z.reshape(z.shape[0], -1) for z in latents], axis=1)


def unwrap(flat, shapes) -> tuple:
    """The inverse of `wrap` for latents of `shapes` (latent_shapes)."""
    sizes = np.cumsum([math.prod(s) for s in shapes])[:-1]
    parts = jnp.split(flat, sizes, axis=1)
    return tuple(p.reshape(flat.shape[0], *s) for p, s in zip(parts, shapes))


def dequantize(key, x01):
    """8-bit images in [0, 1] -> the flow's input in [-0.5, 0.5): each value's bin (of 1/256)
    plus uniform noise within it."""
    bins = jnp.floor(jnp.clip(x01, 0.0, 1.0) * (BINS - 1) + 0.5)
    return (bins + jax.random.uniform(key, x01.shape, x01.dtype)) / BINS - 0.5


def quantized(x01):
    """The flow's input without noise: each value at its bin's centre."""
    bins = jnp.floor(jnp.clip(x01, 0.0, 1.0) * (BINS - 1) + 0.5)
    return (bins + 0.5) / BINS - 0.5


def bits_per_dim(log_prior, logdet, dims: int):
    """The negative log-likelihood of 8-bit data in bits per dimension, from the flow's output
    on dequantised input (the density of the bins: log p(x) - dims * log 256)."""
    return -(log_prior + logdet - dims * math.log(BINS)) / (dims * math.log(2.0))
