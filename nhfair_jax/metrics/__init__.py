"""Utility and fairness metrics for any number of groups and classes.

Usage in a notebook:

    from nhfair_jax import metrics
    metrics.fairness_report(y_true, y_pred, groups, y_score=p1)

Definitions: docs/metrics.md. Values are fractions in [0, 1].
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.metrics.counts import GroupConfusion, confusion_counts, validate_inputs
from nhfair_jax.metrics.fairness import (
    demographic_parity,
    disparity_of_equalized_odds,
    equal_opportunity,
    equalized_odds,
    fairness_from_counts,
    group_accuracy,
)
from nhfair_jax.metrics.paired import (
    counterfactual_disparity,
    group_recall,
    rate_of_flipped_predictions,
    recall_disparity,
    refusal_rate,
)
from nhfair_jax.metrics.scores import ScoreAccumulator, auc_summary, group_auc, roc_auc
from nhfair_jax.metrics.bootstrap import bootstrap


def fairness_report(y_true, y_pred, groups, *, y_score=None, num_classes=None,
                    num_groups=None) -> dict:
    """Every metric of one model on one split.

    Args:
      y_true: true labels in [0, C).
      y_pred: predicted labels in [0, C).
      groups: group index in [0, G) (the sensitive attribute or an intersection).
      y_score: optional positive-class score (1-D, or [N, 2] probabilities) for a binary target;
        adds auc, worst_auc, gap_auc and group_auc.
      num_classes: C; default inferred (max label + 1, at least 2).
      num_groups: G; default inferred (max group + 1, at least 2).

    Returns:
      A dict with acc, worst_acc, gap_acc, dp, eqodd, dp_mean, eqodd_ovr, group_acc, group_size
      and count; for binary targets also eqopp, deo, deo_mean. Per-group values are lists
      indexed by group; undefined values are NaN.
    """
    y_true, y_pred, groups, c, g = validate_inputs(y_true, y_pred, groups, num_classes, num_groups)
    out = fairness_from_counts(confusion_counts(y_true, y_pred, groups, num_classes=c,
                                                num_groups=g))
    if y_score is not None:
        if c != 2:
            raise ValueError(f"y_score gives AUC for binary targets only; this target has {c} "
                             "classes")
        per_group = group_auc(y_true, y_score, groups, num_groups=g)
        out.update(auc_summary(roc_auc(y_true, y_score), per_group))
    return out


__all__ = [
    "GroupConfusion", "ScoreAccumulator", "bootstrap", "confusion_counts",
    "counterfactual_disparity", "demographic_parity", "disparity_of_equalized_odds",
    "equal_opportunity", "equalized_odds",
    "fairness_from_counts", "fairness_report", "group_accuracy", "group_auc", "group_recall",
    "rate_of_flipped_predictions", "recall_disparity", "refusal_rate", "roc_auc",
]
