"""SS: simple data balancing by subsampling. Every group (or group x class cell) keeps as many
training examples as the smallest one has, drawn once per run without replacement; each epoch
is that subsample."""

from __future__ import annotations

import numpy as np

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import CrossEntropy
from nhfair_jax.methods.groups import CELL_MODES, cell_counts, require_examples
from nhfair_jax.methods.registry import register

def subsample_rows(labels, groups, num_classes: int, num_groups: int, mode: str,
                   rng: np.random.Generator) -> np.ndarray:
    """Row numbers of a balanced subsample: min cell size rows of each cell, sorted.

    Args:
      labels, groups: the training split's [N] class and group indices.
      mode: "group" (cells are groups) or "group_x_class".
      rng: the generator that draws the rows (one per run).
    """
    if mode not in CELL_MODES:
        raise UserError(f"method.mode must be one of {CELL_MODES}, got {mode!r}")
    labels, groups = np.asarray(labels), np.asarray(groups)
    counts = cell_counts(labels, groups, num_classes, num_groups)
    require_examples(counts, "ss", cells=mode == "group_x_class")
    cell = groups if mode == "group" else groups * num_classes + labels
    k = num_groups if mode == "group" else num_groups * num_classes
    size = np.bincount(cell, minlength=k).min()
    keep = [rng.choice(np.flatnonzero(cell == c), size, replace=False) for c in range(k)]
    return np.sort(np.concatenate(keep))


def augmented_subsample(labels, num_classes: int, mode: str, rng: np.random.Generator
                        ) -> np.ndarray:
    """Row numbers (sorted) of SS+aug's subsample: the pairs (row, its counterfactual) that
    balance the augmented set's cells: min class size pairs of each class for
    "group_x_class", every row for "group" (SS's class docstring)."""
    if mode not in CELL_MODES:
        raise UserError(f"method.mode must be one of {CELL_MODES}, got {mode!r}")
    labels = np.asarray(labels)
    if mode == "group":
        return np.arange(len(labels))
    counts = np.bincount(labels, minlength=num_classes)
    if counts.min() == 0:
        raise UserError(f"ss+aug: class {int(np.argmin(counts))} has no training example")
    keep = [rng.choice(np.flatnonzero(labels == c), counts.min(), replace=False)
            for c in range(num_classes)]
    return np.sort(np.concatenate(keep))


@register("ss")
class SS(CrossEntropy):
    """ERM on a subsample in which every group (`mode="group"`) or every group x class cell
    (`mode="group_x_class"`, the default) is as large as the smallest; the subsample is drawn
    once per run from the run's data seed and every epoch is that subsample (shuffled anew).

    The default is the cell version because Idrissi et al.'s SUBG balances their groups, which
    are combinations of class and attribute.

    With the `+aug` modifier (`method.cf="aug"`, SS+aug) the subsample is drawn from the
    augmented set, as the counterfactual paper's text reads ("subsampling" the training set
    augmented with the counterfactuals): a row and its counterfactual (A flipped, class kept)
    put one example in each group of their class, so every group x class cell of the augmented
    set of class y holds n_y examples and balancing its cells keeps, in every class, as many
    pairs as the smallest class has (`group_x_class`), or every pair (`group`: the augmented set
    is balanced over groups already). A row without a counterfactual counts as a pair (it
    appears twice as itself).

    References: Idrissi et al., "Simple data balancing achieves competitive worst-group-accuracy",
    CLeaR 2022 (SUBG).
    """

    defaults = {"mode": "group_x_class"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.mode not in CELL_MODES:
            raise UserError(f"method.mode must be one of {CELL_MODES}, got {cfg.mode!r}")

    def setup(self, info):
        super().setup(info)
        require_examples(cell_counts(info["labels"], info["groups"], info["num_classes"],
                                     info["num_groups"]), self.name,
                         cells=self.cfg.mode == "group_x_class")

    def sample_indices(self, source, seed, epoch, method_state):
        del epoch, method_state  # the same rows every epoch: drawn from the seed alone
        rng = np.random.default_rng([seed, 0x55B5])
        if getattr(self, "cf_mode", "") == "aug":
            return augmented_subsample(source.labels, source.num_classes, self.cfg.mode, rng)
        return subsample_rows(source.labels, source.groups, source.num_classes,
                              source.num_groups, self.cfg.mode, rng)
