"""Paired-image metrics (counterfactual fairness) and demographic recall of LVLMs."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


def _paired_disagreement(a, b, names) -> float:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"{names[0]} and {names[1]} must be 1-D of equal length, got shapes "
                         f"{a.shape} and {b.shape}")
    return float(np.mean(a != b)) if a.size else float("nan")


def counterfactual_disparity(y_pred, y_pred_cf) -> float:
    """CD: the fraction of pairs whose prediction changes when the sensitive attribute is edited
    (lower is fairer; the "switch rate" of Pinto et al.)."""
    return _paired_disagreement(y_pred, y_pred_cf, ("y_pred", "y_pred_cf"))


def counterfactual_disparity_balanced(y_pred, y_pred_cf, y_true, groups) -> float:
    """CD averaged over the (class, sensitive group) cells that hold pairs: every cell counts
    equally, whatever its size (the counterfactual fairness paper's reading on CIFAR-10B, whose
    cells are skewed by construction)."""
    p, q = np.asarray(y_pred), np.asarray(y_pred_cf)
    y, g = np.asarray(y_true), np.asarray(groups)
    if not (len(p) == len(q) == len(y) == len(g)):
        raise ValueError(f"lengths differ: y_pred {len(p)}, y_pred_cf {len(q)}, y_true {len(y)}, "
                         f"groups {len(g)}")
    cells = [counterfactual_disparity(p[(y == c) & (g == a)], q[(y == c) & (g == a)])
             for c in np.unique(y) for a in np.unique(g) if np.any((y == c) & (g == a))]
    return float(np.mean(cells)) if cells else float("nan")


def paired_report(labels, groups, logits, *, logits_cf=None, logits_gflip=None,
                  cf_mask=None) -> dict:
    """`cd` and `cd_balanced` (pairs with the sensitive attribute edited) and `rfp` (pairs with
    a latent attribute edited) of one split from the logits of each view; pairs with cf_mask 0
    are left out of CD. Keys are absent when their pairs are."""
    pred = np.asarray(logits).argmax(axis=1)
    out = {}
    if logits_cf is not None:
        keep = np.ones(len(pred), bool) if cf_mask is None else np.asarray(cf_mask) > 0
        pred_cf = np.asarray(logits_cf).argmax(axis=1)
        out["cd"] = counterfactual_disparity(pred[keep], pred_cf[keep])
        out["cd_balanced"] = counterfactual_disparity_balanced(
            pred[keep], pred_cf[keep], np.asarray(labels)[keep], np.asarray(groups)[keep])
        out["cf_pairs"] = int(keep.sum())
    if logits_gflip is not None:
        out["rfp"] = rate_of_flipped_predictions(pred, np.asarray(logits_gflip).argmax(axis=1))
    return out


def rate_of_flipped_predictions(y_pred, y_pred_edit) -> float:
    """RFP: the fraction of pairs whose prediction changes when a third attribute correlated with
    the sensitive one is edited (lower is more robust)."""
    return _paired_disagreement(y_pred, y_pred_edit, ("y_pred", "y_pred_edit"))


def group_recall(y_true, y_pred, groups, *, num_groups=None) -> np.ndarray:
    """Recall of each demographic group: correct answers among its instances.

    Any prediction that is not the true label counts as wrong, including refusals and
    unparseable answers (encode them as -1): they are never dropped.

    Returns:
      float array [G]; NaN for a group with no instance.
    """
    y, p, g = np.asarray(y_true), np.asarray(y_pred), np.asarray(groups)
    if not (len(y) == len(p) == len(g)):
        raise ValueError(f"lengths differ: y_true {len(y)}, y_pred {len(p)}, groups {len(g)}")
    if num_groups is None:
        num_groups = max(2, int(g.max(initial=0)) + 1)
    if g.size and (g.min() < 0 or g.max() >= num_groups):
        raise ValueError(f"groups outside [0, {num_groups})")
    correct = np.bincount(g, weights=(y == p).astype(np.float64), minlength=num_groups)
    size = np.bincount(g, minlength=num_groups).astype(np.float64)
    out = np.full(num_groups, np.nan)
    np.divide(correct, size, out=out, where=size > 0)
    return out


def refusal_rate(y_pred, groups, *, refusal=-1, num_groups=None) -> np.ndarray:
    """Fraction of answers per group that were refused or unparseable (encoded as `refusal`)."""
    p, g = np.asarray(y_pred), np.asarray(groups)
    if num_groups is None:
        num_groups = max(2, int(g.max(initial=0)) + 1)
    refused = np.bincount(g, weights=(p == refusal).astype(np.float64), minlength=num_groups)
    size = np.bincount(g, minlength=num_groups).astype(np.float64)
    out = np.full(num_groups, np.nan)
    np.divide(refused, size, out=out, where=size > 0)
    return out


def recall_disparity(recalls, group_a, group_b) -> float:
    """Signed recall difference gd(a, b) = R_a - R_b; negative favours the second group.

    `recalls` is a sequence indexed by group id or a mapping from group name to recall.
    """
    if isinstance(recalls, Mapping):
        for name in (group_a, group_b):
            if name not in recalls:
                raise KeyError(f"no recall for group {name!r}; known: {sorted(recalls)}")
    return float(recalls[group_a]) - float(recalls[group_b])
