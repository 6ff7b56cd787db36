"""Paired-image metrics (counterfactual fairness) and demographic recall of LVLMs."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from nhfair_jax.metrics.fairness import disparity_of_equalized_odds


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


def counterfactual_disparity_balanced(y_pred, y_pred_cf, y_true, groups,
                                      cell_sizes=None) -> float:
    """CD balanced over the target class and the sensitive attribute, as the counterfactual
    fairness paper reads it on CIFAR-10B (its App. 11.2) and its code's `get_cd` computes it:

        mean over classes y of  sum_a w_ay cd_ay / sum_a w_ay,   w_ay = n(a, y) / n_pairs(a, y),

    cd_ay the flip rate of the pairs in cell (A = a, Y = y), n_pairs(a, y) their number and
    n(a, y) the evaluation split's (the test set's) examples in that cell. Without `cell_sizes`
    n = n_pairs (a pair for every example: the synthetic sets), every w is 1 and it is the mean
    over classes of the mean over groups; with a separate pair set balanced over the cells
    (CelebA-CF) the weights restore the split's group mix within each class. Cells without
    pairs and classes without any are left out.

    Args:
      y_pred, y_pred_cf: predictions on the originals and on their counterfactuals.
      y_true, groups: class and sensitive group of each pair's original.
      cell_sizes: [G, C] examples of each (group, class) cell of the evaluation split, or None.
    """
    p, q = np.asarray(y_pred), np.asarray(y_pred_cf)
    y, g = np.asarray(y_true), np.asarray(groups)
    if not (len(p) == len(q) == len(y) == len(g)):
        raise ValueError(f"lengths differ: y_pred {len(p)}, y_pred_cf {len(q)}, y_true {len(y)}, "
                         f"groups {len(g)}")
    per_class = []
    for c in np.unique(y):
        num = den = 0.0
        for a in np.unique(g):
            cell = (y == c) & (g == a)
            if not cell.any():
                continue
            n_pairs = float(cell.sum())
            if cell_sizes is None:
                weight = 1.0
            else:
                sizes = np.asarray(cell_sizes)
                if not (0 <= a < sizes.shape[0] and 0 <= c < sizes.shape[1]):
                    raise ValueError(f"cell_sizes has shape {sizes.shape}; the pairs hold group "
                                     f"{a} and class {c}")
                weight = float(sizes[a, c]) / n_pairs
            num += weight * counterfactual_disparity(p[cell], q[cell])
            den += weight
        if den > 0:
            per_class.append(num / den)
    return float(np.mean(per_class)) if per_class else float("nan")


def paired_report(labels, groups, logits, *, logits_cf=None, logits_gflip=None,
                  cf_mask=None, cell_sizes=None) -> dict:
    """`cd` and `cd_balanced` (pairs with the sensitive attribute edited; `cell_sizes` as in
    counterfactual_disparity_balanced), `acc_cf` and `deo_cf` (accuracy and DEO on the
    counterfactual images, whose sensitive group is the other one; DEO for two groups), and
    `rfp` (pairs with a latent attribute edited) of one split from the logits of each view;
    pairs with cf_mask 0 are left out of the pair metrics. Keys are absent when their pairs
    are."""

    pred = np.asarray(logits).argmax(axis=1)
    labels, groups = np.asarray(labels), np.asarray(groups)
    out = {}
    if logits_cf is not None:
        keep = np.ones(len(pred), bool) if cf_mask is None else np.asarray(cf_mask) > 0
        pred_cf = np.asarray(logits_cf).argmax(axis=1)
        out["cd"] = counterfactual_disparity(pred[keep], pred_cf[keep])
        out["cd_balanced"] = counterfactual_disparity_balanced(
            pred[keep], pred_cf[keep], labels[keep], groups[keep], cell_sizes)
        out["cf_pairs"] = int(keep.sum())
        y, q = labels[keep], pred_cf[keep]
        out["acc_cf"] = float(np.mean(q == y)) if len(y) else float("nan")
        if len(y) and set(np.unique(groups)) <= {0, 1}:
            num_classes = int(np.asarray(logits).shape[1])
            out["deo_cf"] = disparity_of_equalized_odds(y, q, 1 - groups[keep],
                                                        num_classes=num_classes, num_groups=2)
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
