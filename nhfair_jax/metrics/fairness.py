"""Utility and fairness metrics for any number of groups and classes (docs/metrics.md).

Every count-based metric is derived from per-group confusion counts. Conventions:
- values are fractions in [0, 1];
- a gap is max minus min over the groups where the rate is defined (an empty cell is skipped);
  with fewer than two defined groups the gap is undefined (NaN), and a metric with no defined
  term at all is NaN, never a silent 0 or 1.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.metrics.counts import confusion_counts, encode_inputs


def _ratio(num, den):
    num = np.asarray(num, np.float64)
    den = np.asarray(den, np.float64)
    out = np.full(np.broadcast(num, den).shape, np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _gap(values, axis=0):
    """Max minus min over `axis`, skipping NaN; NaN where fewer than two values are defined."""
    values = np.asarray(values, np.float64)
    defined = ~np.isnan(values)
    hi = np.where(defined, values, -np.inf).max(axis=axis)
    lo = np.where(defined, values, np.inf).min(axis=axis)
    return np.where(defined.sum(axis=axis) >= 2, hi - lo, np.nan)


def _nanreduce(fn, values) -> float:
    values = np.asarray(values, np.float64)
    values = values[~np.isnan(values)]
    return float(fn(values)) if values.size else float("nan")


def _rates(counts):
    """P(yhat | A) [G, C] and P(yhat | Y, A) [G, C, C], NaN for empty cells."""
    counts = np.asarray(counts, np.int64)
    pred_rate = _ratio(counts.sum(axis=1), counts.sum(axis=(1, 2))[:, None])
    cond_rate = _ratio(counts, counts.sum(axis=2, keepdims=True))
    return pred_rate, cond_rate


def group_accuracy_from_counts(counts) -> np.ndarray:
    counts = np.asarray(counts)
    return _ratio(np.trace(counts, axis1=1, axis2=2), counts.sum(axis=(1, 2)))


def demographic_parity_from_counts(counts) -> float:
    """1 - max over predicted classes of the gap of P(yhat = y | a) (Denis et al. 2024)."""
    pred_rate, _ = _rates(counts)
    return 1.0 - _nanreduce(np.max, _gap(pred_rate, axis=0))


def equalized_odds_from_counts(counts) -> float:
    """1 - mean over true classes y of the gap of P(yhat = y | Y = y, A = a)."""
    _, cond = _rates(counts)
    diag = np.diagonal(cond, axis1=1, axis2=2)  # [G, C]
    return 1.0 - _nanreduce(np.mean, _gap(diag, axis=0))


def equal_opportunity_from_counts(counts) -> float:
    counts = np.asarray(counts)
    if counts.shape[1] != 2:
        raise ValueError(f"equal opportunity needs a binary target, got {counts.shape[1]} classes")
    _, cond = _rates(counts)
    return 1.0 - _nanreduce(np.max, _gap(cond[:, 1, 1], axis=0))


def disparity_of_equalized_odds_from_counts(counts, reduce: str = "max") -> float:
    """Max (or mean) over (y, y') of the gap of P(yhat = y' | A = a, Y = y); lower is fairer."""
    if reduce not in ("max", "mean"):
        raise ValueError(f"reduce must be 'max' or 'mean', got {reduce!r}")
    _, cond = _rates(counts)
    return _nanreduce(np.max if reduce == "max" else np.mean, _gap(cond, axis=0))


def paper_variants_from_counts(counts) -> dict:
    """The reference code's multi-class variants, for comparison with the paper's tables.

    dp_mean: mean over classes of 1 - gap P(yhat = c | a).
    eqodd_ovr: mean over classes of 1 - (gap TPR_c + gap FPR_c) / 2, one-vs-rest rates.
    """
    counts = np.asarray(counts, np.int64)
    pred_rate, _ = _rates(counts)
    dp_mean = _nanreduce(np.mean, 1.0 - _gap(pred_rate, axis=0))
    per_class = counts.sum(axis=2)  # [G, C]: examples of true class y in group a
    diag = np.diagonal(counts, axis1=1, axis2=2)  # [G, C]
    tpr = _ratio(diag, per_class)
    false_pos = counts.sum(axis=1) - diag  # predicted c while true class != c
    negatives = per_class.sum(axis=1, keepdims=True) - per_class
    fpr = _ratio(false_pos, negatives)
    eqodd_ovr = _nanreduce(np.mean, 1.0 - (_gap(tpr, axis=0) + _gap(fpr, axis=0)) / 2.0)
    return {"dp_mean": dp_mean, "eqodd_ovr": eqodd_ovr}


def fairness_from_counts(counts) -> dict:
    """Every count-based metric of fairness_report from [G, C, C] confusion counts."""
    counts = np.asarray(counts, np.int64)
    if counts.ndim != 3 or counts.shape[1] != counts.shape[2]:
        raise ValueError(f"counts must have shape [G, C, C], got {counts.shape}")
    group_size = counts.sum(axis=(1, 2))
    group_acc = group_accuracy_from_counts(counts)
    total = int(group_size.sum())
    out = {
        "acc": float(np.trace(counts.sum(axis=0)) / total) if total else float("nan"),
        "worst_acc": _nanreduce(np.min, group_acc),
        "gap_acc": _nanreduce(np.max, _gap(group_acc)),
        "dp": demographic_parity_from_counts(counts),
        "eqodd": equalized_odds_from_counts(counts),
        **paper_variants_from_counts(counts),
        "group_acc": group_acc.tolist(),
        "group_size": group_size.tolist(),
        "count": total,
    }
    if counts.shape[1] == 2:
        out["eqopp"] = equal_opportunity_from_counts(counts)
        out["deo"] = disparity_of_equalized_odds_from_counts(counts, "max")
        out["deo_mean"] = disparity_of_equalized_odds_from_counts(counts, "mean")
    return out


def _counts(y_true, y_pred, groups, num_classes, num_groups):
    """Counts of labels of any kind, encoded in sorted order (counts.encode_inputs)."""
    y_true, y_pred, groups, c, g, _, _ = encode_inputs(y_true, y_pred, groups, num_classes,
                                                       num_groups)
    return confusion_counts(y_true, y_pred, groups, num_classes=c, num_groups=g)


def group_accuracy(y_true, y_pred, groups, *, num_classes=None, num_groups=None) -> np.ndarray:
    """P(yhat = y | A = a) for each group a; NaN for an empty group."""
    return group_accuracy_from_counts(_counts(y_true, y_pred, groups, num_classes, num_groups))


def demographic_parity(y_true, y_pred, groups, *, num_classes=None, num_groups=None) -> float:
    """Demographic parity, larger is fairer; multi-class per Denis et al. (2024)."""
    return demographic_parity_from_counts(_counts(y_true, y_pred, groups, num_classes, num_groups))


def demographic_parity_ratio(y_true, y_pred, groups, *, num_classes=None,
                             num_groups=None) -> float:
    """Smallest over largest group selection rate of the positive class (the last class), the
    "80% rule" of disparate impact (Fairlearn's demographic_parity_ratio); binary targets only.
    Groups without an example are left out; NaN when every selection rate is 0."""
    counts = _counts(y_true, y_pred, groups, num_classes, num_groups)
    if counts.shape[1] != 2:
        raise ValueError(f"the demographic-parity ratio needs a binary target; this one has "
                         f"{counts.shape[1]} classes")
    size = counts.sum(axis=(1, 2))
    rates = counts[size > 0][:, :, 1].sum(axis=1) / size[size > 0]
    if rates.size == 0 or rates.max() == 0:
        return float("nan")
    return float(rates.min() / rates.max())


def equalized_odds(y_true, y_pred, groups, *, num_classes=None, num_groups=None) -> float:
    """Equalized odds as the paper reports it: 1 - mean over classes of the per-class gap."""
    return equalized_odds_from_counts(_counts(y_true, y_pred, groups, num_classes, num_groups))


def equal_opportunity(y_true, y_pred, groups, *, num_classes=None, num_groups=None) -> float:
    """1 - gap of the true-positive rate over groups; binary targets only."""
    return equal_opportunity_from_counts(_counts(y_true, y_pred, groups, num_classes, num_groups))


def disparity_of_equalized_odds(y_true, y_pred, groups, *, num_classes=None, num_groups=None,
                                reduce: str = "max") -> float:
    """DEO of the counterfactual-fairness paper (lower is fairer); `reduce="mean"` for deo_mean."""
    counts = _counts(y_true, y_pred, groups, num_classes, num_groups)
    return disparity_of_equalized_odds_from_counts(counts, reduce)
