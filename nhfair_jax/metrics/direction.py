"""Which way is better for each figure, and the header mark that says it.

The parity figures are 1 - a difference (dp, eqodd, eqopp and their variants: 1 is fair,
higher is better); gaps, the disparity of equalized odds (deo), the counterfactual figures and
the loss are differences or costs (0 is best, lower is better). Every table header carries the
mark: `dp ↑`, `gap_acc ↓`.
"""

from __future__ import annotations

HIGHER = "↑"
LOWER = "↓"

LOWER_IS_BETTER = frozenset({
    "gap", "gap_acc", "gap_auc", "deo", "deo_mean", "cd", "cd_balanced", "rfp", "loss",
    "recall_disparity", "refusal_rate", "ece"})
HIGHER_IS_BETTER = frozenset({
    "utility", "worst", "acc", "worst_acc", "auc", "worst_auc", "dp", "dp_mean", "eqodd",
    "eqodd_ovr", "eqopp", "selection_rate_ratio", "dp_ratio"})


def direction(name: str) -> str | None:
    """"higher", "lower", or None for a figure with no better side (a size, a rate by group)."""
    base = name.removeprefix("val_").removeprefix("test_")
    if base in LOWER_IS_BETTER:
        return "lower"
    if base in HIGHER_IS_BETTER:
        return "higher"
    return None


def marked(name: str) -> str:
    """`name` with its direction mark for a table header: "dp ↑", "gap_acc ↓", "count"."""
    d = direction(name)
    return name if d is None else f"{name} {HIGHER if d == 'higher' else LOWER}"


LEGEND = "↑ higher is better (dp, eqodd: 1 - a difference, 1 is fair); ↓ lower is better"
