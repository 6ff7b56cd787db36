"""Differentiable group statistics of a batch, shared by the regularisation methods."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def group_means(values, groups, num_groups: int, weights=None):
    """Per-group means of `values` [B, K] (rows weighted by `weights`, e.g. a class filter).

    Returns:
      (means [G, K], present [G] bool): groups with no weighted row have mean 0, present False.
    """
    onehot = jax.nn.one_hot(groups, num_groups)  # [B, G]
    if weights is not None:
        onehot = onehot * weights[:, None]
    count = onehot.sum(0)
    means = (onehot.T @ values) / jnp.maximum(count, 1e-12)[:, None]
    return means, count > 0


def group_gap(means, present):
    """Max minus min over the present groups, per column [K]; 0 with fewer than two groups."""
    hi = jnp.where(present[:, None], means, -jnp.inf).max(0)
    lo = jnp.where(present[:, None], means, jnp.inf).min(0)
    return jnp.where(present.sum() >= 2, hi - lo, 0.0)
