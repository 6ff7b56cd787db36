"""Pure selection rules on per-group validation utilities (rows candidates, columns groups)."""

from __future__ import annotations

import numpy as np

ZONES = ("optimal", "sub_optimal", "degradation", "unwanted")
# Zones are tried in this order; unwanted candidates are never selected.
_SELECTABLE = ZONES[:3]
_TIE = 1e-12


def _matrix(name: str, values) -> np.ndarray:
    arr = np.asarray(values, np.float64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be [candidates, groups] with at least one of each, "
                         f"got shape {np.shape(values)}")
    if np.isnan(arr).any():
        rows = sorted(set(np.argwhere(np.isnan(arr))[:, 0].tolist()))
        raise ValueError(f"{name} has NaN per-group utilities (candidates {rows}); a group with no "
                         "validation examples cannot be compared")
    return arr


def _first_min(keys: list[np.ndarray]) -> int:
    """Index minimising keys lexicographically, with a tolerance for float ties; lowest index last."""
    candidates = np.arange(len(keys[0]))
    for key in keys:
        sub = key[candidates]
        candidates = candidates[sub <= sub.min() + _TIE]
    return int(candidates[0])


def dto_distances(group_perf) -> np.ndarray:
    """Euclidean distance of each candidate to the utopia point (each group's best value)."""
    u = _matrix("group_perf", group_perf)
    return np.linalg.norm(u - u.max(axis=0, keepdims=True), axis=1)


def dto_select(group_perf, *, utility=None) -> int:
    """The ERM baseline: the candidate closest to the utopia point.

    Args:
      group_perf: [candidates, groups] validation utilities.
      utility: optional overall validation utility per candidate, used to break ties (higher
        wins); default the mean of the candidate's group utilities.

    Returns:
      The selected row; remaining ties go to the lowest index.
    """
    u = _matrix("group_perf", group_perf)
    util = u.mean(axis=1) if utility is None else np.asarray(utility, np.float64)
    if util.shape != (u.shape[0],):
        raise ValueError(f"utility has shape {util.shape}, expected ({u.shape[0]},)")
    return _first_min([dto_distances(u), -util])


def fwh_zone(erm_group_perf, cand_group_perf) -> str:
    """The fairness-without-harm zone of one candidate relative to the ERM baseline.

    The four zones partition every case ("equality counts as not below"):
    optimal: no group below ERM; degradation: some group below and none above; otherwise some
    group is below and some above: sub_optimal if ERM's worst group is not below and the
    candidate's gap (best group minus worst) is smaller than ERM's, else unwanted.

    The gap condition is the paper's: sub-optimal models "reduce disparities by decreasing the
    advantaged group's utility while improving the disadvantaged group" (Sec. 3.3), and Figure
    2's caption asks for a candidate in the shaded region "which demonstrates improved
    fairness". A candidate that lifts the disadvantaged group past the advantaged one and opens
    a gap as large as ERM's or larger has only swapped who is disadvantaged; it widens (or
    keeps) the disparity, and is unwanted. Gaps within 1e-12 count as equal.
    """
    erm = _matrix("erm_group_perf", erm_group_perf)
    cand = _matrix("cand_group_perf", cand_group_perf)
    if erm.shape[0] != 1 or cand.shape != erm.shape:
        raise ValueError(f"expected two vectors of the same length, got {erm.shape[1:]} and "
                         f"{cand.shape[1:]} groups")
    erm, cand = erm[0], cand[0]
    below, above = cand < erm, cand > erm
    if not below.any():
        return "optimal"
    if not above.any():
        return "degradation"
    worst = int(np.argmin(erm))
    if below[worst]:
        return "unwanted"
    narrower = np.ptp(cand) < np.ptp(erm) - _TIE
    return "sub_optimal" if narrower else "unwanted"


def fwh_select(erm_group_perf, cands_group_perf, cands_gap):
    """A mitigation method's model by the fairness-without-harm order.

    Zones are tried in the order optimal, sub_optimal, degradation; within optimal and
    sub_optimal the smallest gap wins, within degradation the smallest L2 distance to the ERM
    baseline's per-group utilities (keeping utility rather than equalising by collapse).

    Args:
      erm_group_perf: [groups] validation utilities of the selected ERM baseline.
      cands_group_perf: [candidates, groups] validation utilities of the method's candidates.
      cands_gap: [candidates] validation gap of each candidate.

    Returns:
      (index, zone); (None, "unwanted") when every candidate is unwanted.
    """
    erm = _matrix("erm_group_perf", erm_group_perf)[0]
    cands = _matrix("cands_group_perf", cands_group_perf)
    gap = np.asarray(cands_gap, np.float64)
    if cands.shape[1] != erm.shape[0]:
        raise ValueError(f"candidates have {cands.shape[1]} groups, the ERM baseline {erm.shape[0]}")
    if gap.shape != (cands.shape[0],):
        raise ValueError(f"cands_gap has shape {gap.shape}, expected ({cands.shape[0]},)")
    zones = np.array([fwh_zone(erm, row) for row in cands])
    for zone in _SELECTABLE:
        members = np.flatnonzero(zones == zone)
        if members.size == 0:
            continue
        if zone == "degradation":
            key = np.linalg.norm(cands[members] - erm, axis=1)
        else:
            key = gap[members]
        return int(members[_first_min([key])]), zone
    return None, "unwanted"


def max_utility_select(utility) -> int:
    """The "M" rule: maximal overall validation utility; ties to the lowest index."""
    util = np.asarray(utility, np.float64)
    if util.ndim != 1 or util.size == 0:
        raise ValueError(f"utility must be a non-empty 1-D array, got shape {util.shape}")
    return _first_min([-util])
