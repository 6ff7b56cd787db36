"""Score-based utility (ROC AUC, overall and per group) and the score accumulator."""

from __future__ import annotations

import numpy as np


def positive_scores(y_score) -> np.ndarray:
    """The positive-class score from a 1-D score vector or an [N, 2] probability matrix."""
    s = np.asarray(y_score, np.float64)
    if s.ndim == 2:
        if s.shape[1] != 2:
            raise ValueError(f"AUC needs a binary target; y_score has {s.shape[1]} columns")
        s = s[:, 1]
    if s.ndim != 1:
        raise ValueError(f"y_score must be 1-D or [N, 2], got shape {s.shape}")
    return s


def average_ranks(values) -> np.ndarray:
    """1-based ranks of `values`, tied values sharing the mean of their ranks (scipy's
    `rankdata(method="average")`, in numpy so that the metrics import no scipy)."""
    _, inverse, counts = np.unique(np.asarray(values), return_inverse=True, return_counts=True)
    last = np.cumsum(counts)  # the rank of each distinct value's last copy
    return (last - (counts - 1) / 2.0)[inverse.reshape(-1)]


def roc_auc(y_true, y_score) -> float:
    """ROC AUC by the Mann-Whitney rank statistic (ties count one half); NaN with one class."""
    y = np.asarray(y_true)
    s = positive_scores(y_score)
    if y.shape != s.shape:
        raise ValueError(f"lengths differ: y_true {y.shape[0]}, y_score {s.shape[0]}")
    if y.size and not np.isin(y, (0, 1)).all():
        raise ValueError("AUC needs a binary target with labels in {0, 1}")
    pos = y == 1
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = average_ranks(s)
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def group_auc(y_true, y_score, groups, *, num_groups=None) -> np.ndarray:
    """ROC AUC within each group; NaN for a group holding a single class (or no example)."""
    y = np.asarray(y_true)
    s = positive_scores(y_score)
    g = np.asarray(groups)
    if not (len(y) == len(s) == len(g)):
        raise ValueError(f"lengths differ: y_true {len(y)}, y_score {len(s)}, groups {len(g)}")
    if num_groups is None:
        num_groups = max(2, int(g.max(initial=0)) + 1)
    if g.size and (g.min() < 0 or g.max() >= num_groups):
        raise ValueError(f"groups outside [0, {num_groups})")
    return np.array([roc_auc(y[g == a], s[g == a]) for a in range(num_groups)])


class ScoreAccumulator:
    """Collects (label, group, score) batch by batch on the host for AUC, which has no additive
    sufficient statistic; padding rows are dropped with `mask`."""

    def __init__(self):
        self._parts = []

    def add(self, y_true, y_score, groups, mask=None):
        y, s, g = np.asarray(y_true), positive_scores(y_score), np.asarray(groups)
        if mask is not None:
            keep = np.asarray(mask).astype(bool)
            y, s, g = y[keep], s[keep], g[keep]
        self._parts.append((y, s, g))

    def compute(self, num_groups=None) -> dict:
        if not self._parts:
            return {"auc": float("nan"), "group_auc": []}
        y, s, g = (np.concatenate(p) for p in zip(*self._parts))
        per_group = group_auc(y, s, g, num_groups=num_groups)
        return auc_summary(roc_auc(y, s), per_group)


def auc_summary(auc: float, per_group: np.ndarray) -> dict:
    defined = per_group[~np.isnan(per_group)]
    return {
        "auc": auc,
        "worst_auc": float(defined.min()) if defined.size else float("nan"),
        "gap_auc": float(defined.max() - defined.min()) if defined.size >= 2 else float("nan"),
        "group_auc": per_group.tolist(),
    }
