"""Independent tests of nhfair_jax.selection, written from the definitions (docs/selection.md).

Hand-built cases use dyadic fractions (exact in binary floating point) wherever an exact tie or
an exact equality with the ERM baseline matters.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nhfair_jax.selection as selection  # noqa: E402 - an import error must fail, not skip
from tests.helpers import property_examples  # noqa: E402

dto_select = selection.dto_select
dto_distances = selection.dto_distances
fwh_zone = selection.fwh_zone
fwh_select = selection.fwh_select
max_utility_select = selection.max_utility_select

ZONES = {"optimal", "sub_optimal", "degradation", "unwanted"}
HYP = settings(max_examples=property_examples(100), deadline=None,
               suppress_health_check=[HealthCheck.too_slow])


def _idx(i):
    assert i is not None
    assert int(i) == i
    return int(i)


# --------------------------------------------------------------------------------------------
# DTO
# --------------------------------------------------------------------------------------------

def test_dto_best_is_not_max_utility():
    # utopia = (1.0, 1.0). distances: row0 sqrt(0.01 + 0.01), row1 0.8, row2 0.8
    perf = np.array([[0.9, 0.9], [1.0, 0.2], [0.2, 1.0]])
    util = np.array([0.85, 0.95, 0.3])  # overall utility: row 1 is the most accurate overall
    assert _idx(dto_select(perf)) == 0
    assert _idx(dto_select(perf, utility=util)) == 0
    assert _idx(max_utility_select(util)) == 1
    assert np.allclose(np.asarray(dto_distances(perf), dtype=float),
                       [math.sqrt(0.02), 0.8, 0.8], atol=1e-12, rtol=0)


def test_dto_uses_column_max_not_global_max():
    # utopia = (0.5, 1.0), not (1, 1): row0 = (0.5, 0.75) is at 0.25, row1 = (0.25, 1.0) at 0.25,
    # row2 = (0.375, 0.875) at sqrt(0.125^2 + 0.125^2) = 0.1768 -> the DTO choice.
    # (With (1, 1) as the utopia, row0 would win: 0.559 < 0.637 < 0.75.)
    perf = np.array([[0.5, 0.75], [0.25, 1.0], [0.375, 0.875]])
    d = np.asarray(dto_distances(perf), dtype=float)
    assert np.allclose(d, [0.25, 0.25, math.sqrt(2) * 0.125], atol=1e-12, rtol=0)
    assert _idx(dto_select(perf)) == 2


def test_dto_tie_broken_by_mean_then_index():
    # utopia (1, 1). A = (0.625, 0.5) and B = (0.375, 1.0) are both at distance 0.625
    # (0.375^2 + 0.5^2 = 0.625^2), C = (1, 0) at distance 1.
    # mean(A) = 0.5625 < mean(B) = 0.6875 -> B (index 1)
    perf = np.array([[0.625, 0.5], [0.375, 1.0], [1.0, 0.0]])
    d = np.asarray(dto_distances(perf), dtype=float)
    assert np.allclose(d, [0.625, 0.625, 1.0], atol=1e-12, rtol=0)
    assert _idx(dto_select(perf)) == 1
    # with an explicit utility vector, it decides the tie instead of the row mean
    assert _idx(dto_select(perf, utility=np.array([0.9, 0.1, 0.99]))) == 0
    assert _idx(dto_select(perf, utility=[0.1, 0.9, 0.0])) == 1


def test_dto_full_tie_lowest_index():
    # rows 1 and 2 at the same distance 0.5 from (1, 1) with the same mean 0.75 -> index 1
    perf = np.array([[0.0, 0.0], [1.0, 0.5], [0.5, 1.0]])
    assert _idx(dto_select(perf)) == 1
    # equal utilities too -> still the lower index
    assert _idx(dto_select(perf, utility=[0.2, 0.7, 0.7])) == 1
    # reversed order of the tied pair: still the lower index (now the other row)
    assert _idx(dto_select(perf[[0, 2, 1]])) == 1
    # three groups, identical rows -> 0
    assert _idx(dto_select(np.full((4, 3), 0.5))) == 0


def test_dto_three_groups():
    # utopia (0.9, 0.8, 0.7)
    perf = np.array([[0.9, 0.5, 0.5],   # dist sqrt(0 + .09 + .04) = .3606
                     [0.8, 0.8, 0.6],   # dist sqrt(.01 + 0 + .01) = .1414
                     [0.7, 0.7, 0.7]])  # dist sqrt(.04 + .01 + 0) = .2236
    assert _idx(dto_select(perf)) == 1
    assert np.allclose(np.asarray(dto_distances(perf), dtype=float),
                       [math.sqrt(0.13), math.sqrt(0.02), math.sqrt(0.05)], atol=1e-12, rtol=0)


def test_max_utility_select():
    assert _idx(max_utility_select([0.5, 0.9, 0.9, 0.1])) == 1
    assert _idx(max_utility_select(np.array([0.3]))) == 0
    assert _idx(max_utility_select(np.array([0.1, 0.2, 0.7]))) == 2


@st.composite
def perf_matrix(draw, min_rows=1, max_rows=6):
    G = draw(st.integers(2, 4))
    n = draw(st.integers(min_rows, max_rows))
    vals = draw(st.lists(st.lists(st.integers(0, 8), min_size=G, max_size=G),
                         min_size=n, max_size=n))
    return np.asarray(vals, dtype=np.int64)  # integer eighths: exact arithmetic


@HYP
@given(perf_matrix(), st.data())
def test_dto_property(ints, hd):
    perf = ints / 8.0
    utopia = ints.max(axis=0)
    sq = ((ints - utopia) ** 2).sum(axis=1)  # exact squared distance in 1/64 units
    d = np.asarray(dto_distances(perf), dtype=float)
    assert d.shape == (len(perf),)
    assert np.allclose(d, np.sqrt(sq) / 8.0, atol=1e-12, rtol=0)
    # reference choice: min distance, then higher mean (= higher row sum), then lower index
    sums = ints.sum(axis=1)
    want = min(range(len(perf)), key=lambda i: (sq[i], -sums[i], i))
    assert _idx(dto_select(perf)) == want
    util = np.asarray(hd.draw(st.lists(st.integers(0, 3), min_size=len(perf),
                                       max_size=len(perf))))
    want_u = min(range(len(perf)), key=lambda i: (sq[i], -util[i], i))
    assert _idx(dto_select(perf, utility=util / 4.0)) == want_u
    want_m = min(range(len(util)), key=lambda i: (-util[i], i))
    assert _idx(max_utility_select(util / 4.0)) == want_m


# --------------------------------------------------------------------------------------------
# Zones
# --------------------------------------------------------------------------------------------

# Two groups: ERM baseline e = (0.8, 0.6); disadvantaged d = group 1, advantaged = group 0.
ERM2 = [0.8, 0.6]


@pytest.mark.parametrize("cand,zone", [
    ([0.85, 0.65], "optimal"),       # both above
    ([0.8, 0.6], "optimal"),         # equal everywhere: nothing below
    ([0.8, 0.7], "optimal"),         # advantaged equal, d above
    ([0.9, 0.6], "optimal"),         # d equal, advantaged above
    ([0.75, 0.7], "sub_optimal"),    # d above, advantaged below, gap 0.05 < 0.2
    ([0.75, 0.875], "sub_optimal"),  # groups swap, gap 0.125 < 0.2
    ([0.5, 0.9], "unwanted"),        # groups swap, gap 0.4 > 0.2: the disparity widens
    ([0.625, 0.875], "unwanted"),    # groups swap, gap 0.25 > 0.2
    ([0.75, 0.55], "degradation"),   # both below
    ([0.8, 0.55], "degradation"),    # advantaged equal, d below
    ([0.75, 0.6], "degradation"),    # d equal, advantaged below
    ([0.9, 0.5], "unwanted"),        # d below, advantaged above
    ([0.81, 0.59], "unwanted"),
])
def test_zone_two_groups(cand, zone):
    assert fwh_zone(ERM2, cand) == zone
    assert fwh_zone(np.asarray(ERM2), np.asarray(cand)) == zone


def test_zone_two_groups_disadvantaged_is_group_zero():
    # ERM (0.6, 0.8): d = group 0
    assert fwh_zone([0.6, 0.8], [0.7, 0.75]) == "sub_optimal"
    assert fwh_zone([0.6, 0.8], [0.55, 0.9]) == "unwanted"
    assert fwh_zone([0.6, 0.8], [0.55, 0.75]) == "degradation"
    assert fwh_zone([0.6, 0.8], [0.65, 0.85]) == "optimal"


def test_zone_tie_for_worst_group_uses_lowest_index():
    # ERM (0.75, 0.75): both groups are worst; d = group 0 (lowest index)
    assert fwh_zone([0.75, 0.75], [0.5, 1.0]) == "unwanted"       # d (group 0) below
    # d above, group 1 below: but ERM's gap is 0, which no mixed move can reduce
    assert fwh_zone([0.75, 0.75], [1.0, 0.5]) == "unwanted"
    # three groups, tie between groups 1 and 2 -> d = group 1 (ERM's gap 0.375)
    assert fwh_zone([0.875, 0.5, 0.5], [0.875, 0.25, 0.75]) == "unwanted"
    assert fwh_zone([0.875, 0.5, 0.5], [0.8125, 0.625, 0.5]) == "sub_optimal"  # gap 0.3125
    assert fwh_zone([0.875, 0.5, 0.5], [0.875, 0.75, 0.375]) == "unwanted"  # gap 0.5 > 0.375
    assert fwh_zone([0.875, 0.5, 0.5], [0.75, 0.625, 0.375]) == "unwanted"  # gap 0.375, equal


# Three groups: ERM (0.9, 0.6, 0.8); d = group 1.
ERM3 = [0.9, 0.6, 0.8]


@pytest.mark.parametrize("cand,zone", [
    ([0.9, 0.7, 0.85], "optimal"),
    ([0.9, 0.6, 0.8], "optimal"),
    ([0.95, 0.65, 0.8], "optimal"),
    ([0.85, 0.6, 0.8], "degradation"),
    ([0.5, 0.5, 0.5], "degradation"),
    ([0.9, 0.55, 0.8], "degradation"),
    ([0.8, 0.7, 0.85], "sub_optimal"),   # d above, group 0 below, group 2 above; gap 0.15
    ([0.8, 0.7, 0.7], "sub_optimal"),    # d above, the others below; gap 0.1 < 0.3
    ([0.6, 0.95, 0.7], "unwanted"),      # d above, group 0 below, but gap 0.35 > 0.3
    ([0.95, 0.5, 0.8], "unwanted"),      # d below, group 0 above
    ([0.95, 0.55, 0.75], "unwanted"),
    ([0.85, 0.5, 0.9], "unwanted"),
    # d equal to ERM, one group below and one above: some below and some above, and d not
    # strictly below -> sub_optimal when the gap shrinks (equality is "not below")
    ([0.85, 0.6, 0.875], "sub_optimal"),  # gap 0.275 < 0.3
    ([0.85, 0.6, 0.9], "unwanted"),       # gap 0.3: not reduced
])
def test_zone_three_groups(cand, zone):
    assert fwh_zone(ERM3, cand) == zone


def _ref_zone(erm, cand):
    """The zone from the definitions, one predicate per zone, checked to be a partition.

    With more than two groups, the definitions leave one case open: the disadvantaged group
    exactly at ERM while other groups move both ways. The package documents it as sub_optimal
    (nobody of the worst-off group is harmed); that convention is the last predicate here.
    Sub-optimal models "reduce disparities" (the paper's Sec. 3.3): the candidate's gap is
    below ERM's; a mixed move that does not reduce it is unwanted.
    """
    erm = [float(v) for v in erm]
    cand = [float(v) for v in cand]
    d = min(range(len(erm)), key=lambda a: (erm[a], a))  # ERM's worst group, lowest index
    some_below = any(c < e for c, e in zip(cand, erm))
    some_above = any(c > e for c, e in zip(cand, erm))
    narrower = max(cand) - min(cand) < max(erm) - min(erm)
    mixed_not_worse = (cand[d] > erm[d] and some_below) or (cand[d] == erm[d] and some_below
                                                            and some_above)
    holds = {
        "optimal": all(c >= e for c, e in zip(cand, erm)),
        "degradation": all(c <= e for c, e in zip(cand, erm)) and some_below,
        "sub_optimal": mixed_not_worse and narrower,
        "unwanted": (cand[d] < erm[d] and some_above) or (mixed_not_worse and not narrower),
    }
    assert sum(holds.values()) == 1, holds
    return next(zone for zone, true in holds.items() if true)


@HYP
@given(perf_matrix(min_rows=2, max_rows=2))
def test_zone_property(ints):
    erm, cand = ints[0] / 8.0, ints[1] / 8.0
    z = fwh_zone(erm, cand)
    assert z in ZONES
    assert z == _ref_zone(erm, cand)


@HYP
@given(st.lists(st.integers(0, 8), min_size=2, max_size=2),
       st.lists(st.integers(0, 8), min_size=2, max_size=2))
def test_zone_two_groups_spec_wording(e, c):
    """The spec's two-group definitions, literally."""
    e = np.asarray(e) / 8.0
    c = np.asarray(c) / 8.0
    d = 0 if e[0] <= e[1] else 1
    adv = 1 - d
    z = fwh_zone(e, c)
    if (c >= e).all():
        assert z == "optimal"
    elif c[d] > e[d] and c[adv] < e[adv]:
        # "reduce disparities": the smaller gap; otherwise the groups swapped, no fairer
        assert z == ("sub_optimal" if abs(c[d] - c[adv]) < e[adv] - e[d] else "unwanted")
    elif (c <= e).all():
        assert z == "degradation"
    else:
        assert c[d] < e[d] and c[adv] > e[adv]
        assert z == "unwanted"


# --------------------------------------------------------------------------------------------
# FWH selection
# --------------------------------------------------------------------------------------------

def test_select_optimal_smallest_gap_over_other_zones():
    cands = [[0.75, 0.7],    # sub_optimal, gap 0.05
             [0.85, 0.65],   # optimal, gap 0.20
             [0.82, 0.70],   # optimal, gap 0.12
             [0.7, 0.7]]     # degradation? no: d above (0.7 > 0.6), adv below -> sub_optimal
    gaps = [0.05, 0.20, 0.12, 0.0]
    idx, zone = fwh_select(ERM2, cands, gaps)
    assert zone == "optimal"
    assert _idx(idx) == 2


def test_select_gap_tie_lowest_index():
    cands = [[0.75, 0.55],   # degradation
             [0.85, 0.65],   # optimal, gap 0.25
             [0.9, 0.7],     # optimal, gap 0.25
             [0.8, 0.6]]     # optimal (equal to ERM), gap 0.5
    idx, zone = fwh_select(ERM2, cands, [0.0, 0.25, 0.25, 0.5])
    assert (_idx(idx), zone) == (1, "optimal")


def test_select_sub_optimal_when_no_optimal():
    cands = [[0.9, 0.5],     # unwanted, gap 0.0 (never selected)
             [0.7, 0.65],    # sub_optimal, gap 0.2
             [0.79, 0.59],   # degradation, gap 0.01
             [0.75, 0.7],    # sub_optimal, gap 0.1
             [0.6, 0.7]]     # sub_optimal, gap 0.1 (tie with 3 -> 3)
    idx, zone = fwh_select(ERM2, cands, [0.0, 0.2, 0.01, 0.1, 0.1])
    assert (_idx(idx), zone) == (3, "sub_optimal")


def test_select_degradation_prefers_staying_close_to_erm():
    # ERM (0.8, 0.6). Candidate 0 equalises by collapsing (gap 0) but is far from ERM:
    # distance sqrt(0.3^2 + 0.1^2) = 0.316; candidate 1 keeps utility: distance
    # sqrt(0.02^2 + 0.01^2) = 0.022 despite a gap of 0.19. Candidate 2 is unwanted.
    cands = [[0.5, 0.5], [0.78, 0.59], [0.9, 0.1]]
    idx, zone = fwh_select(ERM2, cands, [0.0, 0.19, 0.8])
    assert (_idx(idx), zone) == (1, "degradation")


def test_select_degradation_distance_tie_lowest_index():
    # ERM (0.75, 0.5): (0.5, 0.5) and (0.75, 0.25) are both at distance 0.25
    erm = [0.75, 0.5]
    cands = [[1.0, 0.25],    # unwanted
             [0.5, 0.5],     # degradation, dist 0.25
             [0.75, 0.25],   # degradation, dist 0.25
             [0.25, 0.25]]   # degradation, dist 0.559
    idx, zone = fwh_select(erm, cands, [0.75, 0.0, 0.5, 0.0])
    assert (_idx(idx), zone) == (1, "degradation")


def test_select_all_unwanted_gives_none():
    cands = [[0.9, 0.5], [0.85, 0.55], [1.0, 0.0]]
    idx, zone = fwh_select(ERM2, cands, [0.4, 0.3, 1.0])
    assert idx is None
    assert zone == "unwanted"


def test_select_three_groups():
    # ERM3 = (0.9, 0.6, 0.8), d = group 1
    cands = [[0.95, 0.5, 0.8],   # unwanted
             [0.8, 0.7, 0.85],   # sub_optimal, gap 0.15
             [0.8, 0.75, 0.75],  # sub_optimal, gap 0.05
             [0.9, 0.55, 0.8]]   # degradation
    idx, zone = fwh_select(ERM3, cands, [0.45, 0.15, 0.05, 0.35])
    assert (_idx(idx), zone) == (2, "sub_optimal")
    cands.append([0.9, 0.6, 0.81])  # optimal, gap 0.3
    idx, zone = fwh_select(ERM3, cands, [0.45, 0.15, 0.05, 0.35, 0.3])
    assert (_idx(idx), zone) == (4, "optimal")
    # only unwanted and degradation candidates; degradation by L2 distance to ERM:
    #   (0.5, 0.5, 0.5) dist 0.51 ; (0.875, 0.5, 0.75) dist 0.1146
    idx, zone = fwh_select(ERM3, [[0.95, 0.5, 0.8], [0.5, 0.5, 0.5], [0.875, 0.5, 0.75]],
                           [0.45, 0.0, 0.375])
    assert (_idx(idx), zone) == (2, "degradation")


def _ref_select(erm, cands, gaps):
    """The selection order from the definitions: Optimal, then Sub-optimal, by smallest gap;
    then Degradation by the smallest Euclidean distance to ERM; ties to the lower index."""
    by_zone = {}
    for i, cand in enumerate(cands):
        by_zone.setdefault(_ref_zone(erm, cand), []).append(i)
    for zone in ("optimal", "sub_optimal"):
        if zone in by_zone:
            best = by_zone[zone][0]
            for i in by_zone[zone][1:]:
                if gaps[i] < gaps[best]:
                    best = i
            return best, zone
    if "degradation" in by_zone:
        dist = {i: math.dist([float(v) for v in cands[i]], [float(v) for v in erm])
                for i in by_zone["degradation"]}
        best = by_zone["degradation"][0]
        for i in by_zone["degradation"][1:]:
            if dist[i] < dist[best]:
                best = i
        return best, "degradation"
    return None, "unwanted"


@HYP
@given(perf_matrix(min_rows=2, max_rows=7), st.data())
def test_select_property(ints, hd):
    erm_i, cand_i = ints[0], ints[1:]
    gaps_i = hd.draw(st.lists(st.integers(0, 4), min_size=len(cand_i), max_size=len(cand_i)))
    want_idx, want_zone = _ref_select(erm_i, cand_i, gaps_i)
    idx, zone = fwh_select(erm_i / 8.0, cand_i / 8.0, np.asarray(gaps_i) / 8.0)
    assert zone == want_zone
    if want_idx is None:
        assert idx is None
    else:
        assert _idx(idx) == want_idx
        assert fwh_zone(erm_i / 8.0, cand_i[want_idx] / 8.0) == zone


# --------------------------------------------------------------------------------------------
# A reading of the paper's Figure 2
# --------------------------------------------------------------------------------------------

def test_figure2_reading():
    # ERM candidates scattered in the (group 0 acc, group 1 acc) plane.
    erm_cands = np.array([[0.92, 0.70],
                          [0.88, 0.78],
                          [0.80, 0.82],
                          [0.95, 0.60],
                          [0.85, 0.75]])
    # utopia = (0.95, 0.82); distances: .1237, .0806, .15, .22, .1221 -> candidate 1
    utopia = np.array([0.95, 0.82])
    want_d = np.linalg.norm(erm_cands - utopia, axis=1)
    assert np.allclose(np.asarray(dto_distances(erm_cands), dtype=float), want_d, atol=1e-12)
    e_idx = _idx(dto_select(erm_cands))
    assert e_idx == 1
    e = erm_cands[e_idx]  # (0.88, 0.78): group 1 is disadvantaged

    # one mitigation candidate in each quadrant around e
    quad = {
        "optimal": [0.90, 0.80],       # upper right: both groups gain
        "sub_optimal": [0.85, 0.83],   # d gains, the advantaged group pays
        "degradation": [0.86, 0.75],   # lower left: both lose
        "unwanted": [0.91, 0.74],      # d loses, the advantaged group gains
    }
    for zone, c in quad.items():
        assert fwh_zone(e, c) == zone, (zone, c)

    names = ["unwanted", "degradation", "sub_optimal", "optimal"]
    cands = np.array([quad[n] for n in names])
    gaps = np.abs(cands[:, 0] - cands[:, 1])
    idx, zone = fwh_select(e, cands, gaps)
    assert (_idx(idx), zone) == (3, "optimal")
    idx, zone = fwh_select(e, cands[:3], gaps[:3])
    assert (_idx(idx), zone) == (2, "sub_optimal")
    idx, zone = fwh_select(e, cands[:2], gaps[:2])
    assert (_idx(idx), zone) == (1, "degradation")
    idx, zone = fwh_select(e, cands[:1], gaps[:1])
    assert idx is None and zone == "unwanted"


def test_figure2_sub_optimal_zone_is_where_the_gap_shrinks():
    """Issue 50. Sec. 3.3: sub-optimal models "reduce disparities by decreasing the advantaged
    group's utility while improving the disadvantaged group"; Figure 2's caption: the candidate
    must sit "in the shaded region, which demonstrates improved fairness". In the plane of the
    two groups, with ERM at e = (advantaged 0.75, disadvantaged 0.5), the quadrant where the
    disadvantaged group gains and the other loses holds the triangle of a smaller gap, bounded
    by the line through ERM mirrored across the diagonal, (0.5, 0.75): there the groups have
    swapped with the same gap. Beyond that line the groups swap with a wider gap."""
    e = [0.75, 0.5]
    assert fwh_zone(e, [0.625, 0.625]) == "sub_optimal"      # on the diagonal: gap 0
    assert fwh_zone(e, [0.5625, 0.75]) == "sub_optimal"      # swapped, gap 0.1875 < 0.25
    assert fwh_zone(e, [0.5, 0.75]) == "unwanted"            # the mirror point: gap 0.25
    assert fwh_zone(e, [0.375, 0.875]) == "unwanted"         # swapped, gap 0.5
    assert fwh_zone(e, [0.74609375, 0.99609375]) == "unwanted"  # a hair below, far above
    # a swapped candidate with the wider gap is never selected: the degradation one is
    cands = [[0.375, 0.875], [0.6875, 0.4375]]
    gaps = [0.5, 0.25]
    assert fwh_select(e, cands, gaps) == (1, "degradation")
    cands.append([0.5625, 0.75])
    assert fwh_select(e, cands, gaps + [0.1875]) == (2, "sub_optimal")
