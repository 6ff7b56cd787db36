"""fairness_report: every metric of one model on one split, from labels, predictions and
groups (and scores for AUC)."""

from __future__ import annotations

from nhfair_jax.metrics.counts import confusion_counts, validate_inputs
from nhfair_jax.metrics.fairness import fairness_from_counts
from nhfair_jax.metrics.scores import auc_summary, group_auc, roc_auc


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
