"""Utility and fairness metrics for any number of groups and classes.

Usage in a notebook:

    from nhfair_jax import metrics
    metrics.fairness_report(y_true, y_pred, groups, y_score=p1)

Definitions: docs/metrics.md. Values are fractions in [0, 1].

The functions are numpy: importing this package imports neither JAX nor scipy.stats. The one
JAX piece, `GroupConfusion` (the train step's accumulator), is loaded when first asked for.
"""

from __future__ import annotations

from nhfair_jax.metrics.counts import confusion_counts
from nhfair_jax.metrics.fairness import (
    demographic_parity,
    demographic_parity_ratio,
    disparity_of_equalized_odds,
    equal_opportunity,
    equalized_odds,
    fairness_from_counts,
    group_accuracy,
)
from nhfair_jax.metrics.paired import (
    counterfactual_disparity,
    counterfactual_disparity_balanced,
    group_recall,
    paired_report,
    rate_of_flipped_predictions,
    recall_disparity,
    refusal_rate,
)
from nhfair_jax.metrics.scores import ScoreAccumulator, auc_summary, group_auc, roc_auc
from nhfair_jax.metrics.bootstrap import bootstrap
from nhfair_jax.metrics.report import UTILITIES, fairness_report, softmax, split_metrics


__all__ = [
    "GroupConfusion", "ScoreAccumulator", "UTILITIES", "auc_summary", "bootstrap",
    "confusion_counts",
    "counterfactual_disparity", "counterfactual_disparity_balanced", "demographic_parity",
    "demographic_parity_ratio", "disparity_of_equalized_odds", "equal_opportunity",
    "equalized_odds",
    "fairness_from_counts", "fairness_report", "group_accuracy", "group_auc", "group_recall",
    "paired_report", "rate_of_flipped_predictions", "recall_disparity", "refusal_rate", "roc_auc",
    "softmax", "split_metrics",
]


def __getattr__(name):
    if name == "GroupConfusion":  # JAX's: loaded on first use, not with the numpy metrics
        from nhfair_jax.metrics.accumulate import GroupConfusion

        return GroupConfusion
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
