"""Group statistics several methods share: training-split counts per group x class cell (and
the check that the groups a method relies on have examples), balanced sampling weights, and
the differentiable per-group means and gaps of a batch used by the regularisers."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from nhfair_jax.errors import UserError

CELL_MODES = ("group", "group_x_class")


def balanced_weights(labels, groups, num_classes: int, mode: str) -> np.ndarray:
    """Sampling probabilities proportional to 1 / count of the example's cell."""
    if mode not in CELL_MODES:
        raise ValueError(f"method.mode must be one of {CELL_MODES}, got {mode!r}")
    cell = groups if mode == "group" else groups * num_classes + labels
    counts = np.bincount(cell)
    weights = 1.0 / counts[cell]
    return weights / weights.sum()


SAMPLINGS = ("uniform", *CELL_MODES)


def balanced_indices(sampling: str, source, seed: int, epoch: int, method_rows, method: str):
    """The epoch's training rows under `train.sampling`: the method's own (`method_rows`, None
    for every row once) for "uniform"; otherwise len(source) rows drawn with replacement with
    weights 1 / count of the row's group ("group") or group x class cell ("group_x_class"),
    GroupDRO's and Resampling's sampler (balanced_weights), offered to any method. The authors of
    the counterfactual paper train CKD with group x class balanced batches (their `gcBal`
    sampler fills each batch with equal shares of every cell, cycling the small cells); ours is
    balanced in expectation, batch by batch. A method that draws its own rows cannot take it."""
    if sampling not in SAMPLINGS:
        raise UserError(f"train.sampling must be one of {SAMPLINGS}, got {sampling!r}")
    if sampling == "uniform":
        return method_rows
    if method_rows is not None:
        raise UserError(f"train.sampling={sampling!r}: method {method} draws its own training "
                        "rows; use train.sampling='uniform' with it (or its own balancing option)")
    p = balanced_weights(source.labels, source.groups, source.num_classes, sampling)
    rng = np.random.default_rng([int(seed), int(epoch), 0x6CBA])
    return rng.choice(len(source), size=len(source), replace=True, p=p)


def cell_counts(labels, groups, num_classes: int, num_groups: int) -> np.ndarray:
    """[G, C] number of training examples of each group x class cell."""
    counts = np.zeros((num_groups, num_classes), np.int64)
    np.add.at(counts, (np.asarray(groups), np.asarray(labels)), 1)
    return counts


def require_examples(counts: np.ndarray, method: str, *, cells: bool = False) -> None:
    """A one-line UserError when a group (cells=False) or a group x class cell (cells=True) of
    the training split has no example.

    Args:
      counts: [G, C] from cell_counts.
      method: the method's name, for the message.
      cells: check every group x class cell instead of every group.
    """
    if cells:
        empty = np.argwhere(counts == 0)
        if len(empty):
            g, c = empty[0]
            raise UserError(f"method {method}: the training split has no example of group {g} "
                            f"with class {c} ({len(empty)} empty group x class cells); {method} "
                            "needs every cell: pick data.sensitive / data.target with all "
                            "combinations present, or a mode that balances groups only")
        return
    empty = np.flatnonzero(counts.sum(1) == 0)
    if len(empty):
        raise UserError(f"method {method}: the training split has no example of group "
                        f"{empty[0]} ({len(empty)} of {len(counts)} groups empty); {method} needs "
                        "every group: pick a data.sensitive whose groups all occur in training")


def original_rows(batch):
    """[B] float: 1 for the rows of original examples, 0 for the counterfactual rows the
    `cf="aug"` modifier adds (`cf_view`, methods/cf.py); all ones without it."""
    if "cf_view" in batch:
        return 1.0 - batch["cf_view"].astype(jnp.float32)
    return jnp.ones(batch["label"].shape[0], jnp.float32)


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
