"""A jit-friendly accumulator of the counts in counts.py: summed in the train step and across
devices, turned into metrics once (CLU's merge / compute split)."""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from nhfair_jax.metrics.fairness import fairness_from_counts


class GroupConfusion(NamedTuple):
    """Jit-friendly accumulator of per-group confusion counts.

    A NamedTuple, hence a pytree: it can be returned from a jitted step, summed across devices
    and batches with `merge`, and turned into metrics once with `compute`.
    """

    counts: jnp.ndarray  # [G, C, C]: group, true class, predicted class.

    @classmethod
    def empty(cls, num_groups: int, num_classes: int) -> "GroupConfusion":
        return cls(jnp.zeros((num_groups, num_classes, num_classes), jnp.int32))

    @classmethod
    def from_batch(cls, y_true, y_pred, groups, *, num_groups: int, num_classes: int,
                   mask=None) -> "GroupConfusion":
        """Counts of one batch; traceable under jit (no value checks: labels must be in range)."""
        c = num_classes
        flat = (jnp.asarray(groups, jnp.int32) * c + jnp.asarray(y_true, jnp.int32)) * c
        flat = flat + jnp.asarray(y_pred, jnp.int32)
        weights = jnp.ones(flat.shape, jnp.int32) if mask is None else jnp.asarray(mask, jnp.int32)
        counts = jnp.zeros(num_groups * c * c, jnp.int32).at[flat].add(weights, mode="drop")
        return cls(counts.reshape(num_groups, c, c))

    def merge(self, other: "GroupConfusion") -> "GroupConfusion":
        return GroupConfusion(self.counts + other.counts)

    def compute(self) -> dict:
        return fairness_from_counts(np.asarray(self.counts))
