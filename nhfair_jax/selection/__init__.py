"""Model selection on validation numbers: DTO for the ERM baseline, fairness-without-harm zones
for mitigation methods, and the maximal-utility ("M") rule (docs/selection.md).

References: the NH-Fair benchmark paper, Sec. 3.3 and Fig. 2.
"""

from nhfair_jax.selection.rules import (
    ZONES,
    dto_distances,
    dto_select,
    fwh_select,
    fwh_zone,
    max_utility_select,
)

__all__ = ["ZONES", "dto_distances", "dto_select", "fwh_select", "fwh_zone",
           "max_utility_select"]
