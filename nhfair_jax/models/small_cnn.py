"""A small CNN for CPU runs: conv-BN-ReLU blocks and a linear head."""

from __future__ import annotations

from collections.abc import Sequence

import flax.linen as nn
import jax.numpy as jnp

from nhfair_jax.models.layers import conv_layer, norm_layer, pool


class SmallCNN(nn.Module):
    """Conv(3x3)-BN-ReLU blocks with 2x2 max pooling between them, global average pool, linear head.

    Four blocks at 32 px give the last one a receptive field covering the whole image.

    `__call__(x, train=False, features=False)` returns logits, or (logits, features) where
    features is the pooled penultimate vector (used by methods with their own heads).
    """

    num_classes: int
    widths: Sequence[int] = (16, 32, 64, 128)
    dtype: jnp.dtype = jnp.float32
    conv_impl: str = "auto"  # see models.layers: the CPU-fast layers, XLA's on accelerators

    @nn.compact
    def __call__(self, x, *, train: bool = False, features: bool = False):
        x = x.astype(self.dtype)
        for i, width in enumerate(self.widths):
            x = conv_layer(width, (3, 3), use_bias=False, dtype=self.dtype,
                           conv_impl=self.conv_impl, name=f"conv{i}")(x)
            x = norm_layer(use_running_average=not train, momentum=0.9, epsilon=1e-5,
                           dtype=self.dtype, name=f"bn{i}")(x)
            x = nn.relu(x)
            if i < len(self.widths) - 1:
                x = pool(x, (2, 2), strides=(2, 2))
        feats = jnp.mean(x, axis=(1, 2))
        logits = nn.Dense(self.num_classes, dtype=self.dtype, name="fc")(feats)
        return (logits, feats) if features else logits
