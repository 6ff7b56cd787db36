"""fairness_report: every metric of one model on one split, from labels, predictions and
groups (and scores for AUC); split_metrics: the same from a model's logits, with the loss and
the data set's utility (what every run directory's result.json holds per split)."""

from __future__ import annotations

import numpy as np

from nhfair_jax.errors import UserError
from nhfair_jax.metrics.counts import confusion_counts, encode_inputs
from nhfair_jax.metrics.fairness import fairness_from_counts
from nhfair_jax.metrics.scores import auc_summary, group_auc, roc_auc


def fairness_report(y_true, y_pred, groups, *, y_score=None, num_classes=None,
                    num_groups=None) -> dict:
    """Every metric of one model on one split.

    Args:
      y_true: true labels: integers or strings (without `num_classes`, encoded over the sorted
        distinct values of y_true and y_pred; the positive class of a binary target is the
        second, e.g. 1 of {0, 1}).
      y_pred: predicted labels, in the same vocabulary.
      groups: the group of each row (the sensitive attribute or an intersection): integers or
        strings, encoded in sorted order without `num_groups` (codes 10 and 20: two groups).
      y_score: optional positive-class score (1-D, or [N, 2] probabilities) for a binary target;
        adds auc, worst_auc, gap_auc and group_auc.
      num_classes: C, with y_true and y_pred integer codes in [0, C) (a class may be absent).
      num_groups: G, with groups integer codes in [0, G) (a group may be absent).

    Returns:
      A dict with acc, worst_acc, gap_acc, dp, eqodd, dp_mean, eqodd_ovr, group_acc, group_size
      and count; for binary targets also eqopp, deo, deo_mean; `class_names` and `group_names`,
      the value of each code. Per-group values are lists in the order of group_names;
      undefined values are NaN.
    """
    y_true, y_pred, groups, c, g, class_names, group_names = encode_inputs(
        y_true, y_pred, groups, num_classes, num_groups)
    out = fairness_from_counts(confusion_counts(y_true, y_pred, groups, num_classes=c,
                                                num_groups=g))
    if y_score is not None:
        if c != 2:
            raise ValueError(f"y_score gives AUC for binary targets only; this target has {c} "
                             "classes")
        per_group = group_auc(y_true, y_score, groups, num_groups=g)
        out.update(auc_summary(roc_auc(y_true, y_score), per_group))
    out["class_names"], out["group_names"] = class_names, group_names
    return out


UTILITIES = ("acc", "auc")


def softmax(logits):
    """Row-wise softmax of [N, C] logits (numpy, in their dtype)."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def split_metrics(labels, groups, logits, *, num_classes, num_groups, utility="acc") -> dict:
    """The report of one split from its logits: fairness_report plus loss and the utility trio
    (utility, worst, gap) in the data set's utility (accuracy, or AUC for medical data)."""
    probs = softmax(logits.astype(np.float64))
    rows = np.arange(len(labels))
    loss = float(-np.log(np.maximum(probs[rows, labels], 1e-30)).mean()) if len(labels) else None
    score = probs[:, 1] if num_classes == 2 else None
    out = fairness_report(labels, probs.argmax(axis=1), groups, y_score=score,
                                      num_classes=num_classes, num_groups=num_groups)
    del out["class_names"], out["group_names"]  # codes here: the run names them itself
    out["loss"] = loss
    if utility == "auc" and num_classes != 2:
        raise UserError(f"eval.utility='auc' needs a binary target; this one has {num_classes} "
                        "classes; use eval.utility='acc'")
    out["utility"], out["worst"], out["gap"] = (out[utility], out[f"worst_{utility}"],
                                                out[f"gap_{utility}"])
    return out
