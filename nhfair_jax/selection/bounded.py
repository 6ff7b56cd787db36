"""The counterfactual-fairness study's selection rule: the lowest validation fairness measure
(CD for counterfactual-aware methods, DEO for group-fairness ones) among the candidates whose
validation accuracy reaches a fraction of the reference model's (docs/selection.md).

References: the counterfactual fairness benchmark paper, Sec. 3.1 ("Model selection") and its
footnote: "we set the bound as 98% of the accuracy of Scratch, i.e., if Scratch achieves 95.0%
accuracy, then we only consider models with more than 93.1% accuracy"; Sec. 6 for DEO.
"""

from __future__ import annotations

import numpy as np

ACC_RATIO = 0.98  # the paper's bound: 98% of Scratch's validation accuracy


def accuracy_bound(reference_acc: float, ratio: float = ACC_RATIO) -> float:
    """The lowest validation accuracy a candidate may have: `ratio` x the reference's."""
    if not 0.0 < ratio <= 1.0:
        raise ValueError(f"the accuracy ratio must be in (0, 1], got {ratio}")
    return float(ratio) * float(reference_acc)


def bounded_select(val_acc, val_measure, reference_acc: float, ratio: float = ACC_RATIO
                   ) -> tuple[int, str]:
    """The candidate with the lowest `val_measure` among those with `val_acc` at least
    accuracy_bound(reference_acc, ratio); ties go to the higher accuracy, then the lower index.
    When no candidate reaches the bound, the most accurate one (rule
    "no_candidate_within_bound"). A candidate whose measure is undefined (NaN) is never chosen
    by the measure.

    Args:
      val_acc, val_measure: one value per candidate (validation split).
      reference_acc: the reference model's validation accuracy (the paper's Scratch).
      ratio: the fraction of it a candidate must reach.

    Returns:
      (index of the chosen candidate, "within_bound" or "no_candidate_within_bound").
    """
    acc = np.asarray(val_acc, np.float64)
    measure = np.asarray(val_measure, np.float64)
    if acc.ndim != 1 or acc.shape != measure.shape or not len(acc):
        raise ValueError(f"val_acc and val_measure must be 1-D of one length >= 1, got shapes "
                         f"{acc.shape} and {measure.shape}")
    bound = accuracy_bound(reference_acc, ratio)
    eligible = np.flatnonzero((acc >= bound - 1e-12) & ~np.isnan(measure))
    if not len(eligible):
        return int(np.flatnonzero(acc == acc.max())[0]), "no_candidate_within_bound"
    order = sorted(eligible, key=lambda i: (measure[i], -acc[i], i))
    return int(order[0]), "within_bound"
