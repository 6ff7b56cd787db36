"""Model selection on validation numbers: DTO for the ERM baseline, fairness-without-harm zones
for mitigation methods, and the maximal-utility ("M") rule (docs/selection.md); the
counterfactual study's rule, the lowest CD or DEO within 98% of Scratch's accuracy.

References: the NH-Fair benchmark paper, Sec. 3.3 and Fig. 2; the counterfactual fairness
benchmark paper, Sec. 3.1 and Sec. 6.
"""

from nhfair_jax.selection.bounded import ACC_RATIO, accuracy_bound, bounded_select

from nhfair_jax.selection.rules import (
    ZONES,
    dto_distances,
    dto_select,
    fwh_select,
    fwh_zone,
    max_utility_select,
)

__all__ = ["ACC_RATIO", "ZONES", "accuracy_bound", "bounded_select", "dto_distances",
           "dto_select", "fwh_select", "fwh_zone", "max_utility_select"]
