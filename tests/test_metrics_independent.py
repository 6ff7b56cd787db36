"""Independent tests of nhfair_jax.metrics, written from the definitions (docs/metrics.md).

They do not read the implementation. The expected values come from Fairlearn / scikit-learn,
from a slow loop-based reference written here directly from the spec's formulas, or from
small examples computed by hand (the arithmetic is in the comments).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import nhfair_jax.metrics as metrics  # noqa: E402 - an import error must fail, not skip
from tests.helpers import property_examples  # noqa: E402

fairness_report = metrics.fairness_report
group_accuracy = metrics.group_accuracy
demographic_parity = metrics.demographic_parity
equalized_odds = metrics.equalized_odds
equal_opportunity = metrics.equal_opportunity
disparity_of_equalized_odds = metrics.disparity_of_equalized_odds
group_auc = metrics.group_auc
counterfactual_disparity = metrics.counterfactual_disparity
rate_of_flipped_predictions = metrics.rate_of_flipped_predictions
group_recall = metrics.group_recall
recall_disparity = metrics.recall_disparity
confusion_counts = metrics.confusion_counts
fairness_from_counts = metrics.fairness_from_counts
GroupConfusion = metrics.GroupConfusion

HYP = settings(
    max_examples=property_examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Keys of fairness_report that are derived from the confusion counts alone.
COUNT_KEYS = ["acc", "worst_acc", "gap_acc", "dp", "eqodd", "dp_mean", "eqodd_ovr",
              "group_acc", "group_size"]
BINARY_KEYS = ["eqopp", "deo", "deo_mean"]
AUC_KEYS = ["auc", "worst_auc", "gap_auc", "group_auc"]


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------

def _isnan(x) -> bool:
    return x is not None and isinstance(x, (float, np.floating)) and math.isnan(x)


def assert_close(got, want, tol=1e-12, what=""):
    """Scalar comparison with NaN == NaN."""
    got = float(got)
    want = float(want)
    if math.isnan(want):
        assert math.isnan(got), f"{what}: expected NaN, got {got}"
        return
    assert not math.isnan(got), f"{what}: expected {want}, got NaN"
    assert abs(got - want) <= tol, f"{what}: expected {want}, got {got}"


def assert_vec_close(got, want, tol=1e-12, what=""):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert np.array_equal(np.isnan(got), np.isnan(want)), f"{what}: NaN pattern {got} vs {want}"
    m = ~np.isnan(want)
    assert np.allclose(got[m], want[m], atol=tol, rtol=0), f"{what}: {got} vs {want}"


def _gap(values):
    """max - min over the defined (non-NaN) values; NaN with fewer than two defined."""
    v = [x for x in values if not math.isnan(x)]
    return max(v) - min(v) if len(v) >= 2 else float("nan")


def _rate(num_mask, den_mask):
    den = int(den_mask.sum())
    if den == 0:
        return float("nan")
    return float((num_mask & den_mask).sum()) / den


def _mean_defined(values):
    v = [x for x in values if not math.isnan(x)]
    return sum(v) / len(v) if v else float("nan")


def reference(y, yh, g, C, G):
    """Loop-based reference straight from the spec. eqodd_ovr is None when some TPR/FPR cell is
    undefined (the spec does not pin down that case)."""
    y = np.asarray(y)
    yh = np.asarray(yh)
    g = np.asarray(g)
    out = {}
    in_g = [g == a for a in range(G)]
    out["group_size"] = [int(m.sum()) for m in in_g]
    out["group_acc"] = [_rate(y == yh, m) for m in in_g]
    out["acc"] = float((y == yh).mean())
    defined_acc = [v for v in out["group_acc"] if not math.isnan(v)]
    out["worst_acc"] = min(defined_acc) if defined_acc else float("nan")
    out["gap_acc"] = _gap(out["group_acc"])

    sel_gaps = [_gap([_rate(yh == c, m) for m in in_g]) for c in range(C)]
    d = [x for x in sel_gaps if not math.isnan(x)]
    out["dp"] = 1.0 - max(d) if d else float("nan")
    out["dp_mean"] = _mean_defined([1.0 - x for x in sel_gaps])

    e = [_gap([_rate(yh == c, m & (y == c)) for m in in_g]) for c in range(C)]
    out["eqodd"] = 1.0 - _mean_defined(e)

    cells = [_gap([_rate(yh == c2, m & (y == c1)) for m in in_g])
             for c1 in range(C) for c2 in range(C)]
    dcells = [x for x in cells if not math.isnan(x)]
    out["deo"] = max(dcells) if dcells else float("nan")
    out["deo_mean"] = _mean_defined(cells)
    if C == 2:
        out["eqopp"] = 1.0 - e[1]

    terms = []
    for c in range(C):
        tpr = [_rate(yh == c, m & (y == c)) for m in in_g]
        fpr = [_rate(yh == c, m & (y != c)) for m in in_g]
        if any(math.isnan(v) for v in tpr + fpr):
            terms = None
            break
        terms.append(1.0 - (_gap(tpr) + _gap(fpr)) / 2.0)
    out["eqodd_ovr"] = None if terms is None else sum(terms) / len(terms)
    return out


def check_against_reference(rep, ref, keys, tol=1e-12):
    for k in keys:
        assert k in rep, f"missing key {k!r}"
        if ref.get(k, "skip") is None:
            continue
        if k in ("group_acc", "group_size"):
            assert len(rep[k]) == len(ref[k]), f"{k}: length {len(rep[k])} != {len(ref[k])}"
            assert_vec_close(rep[k], ref[k], tol, what=k)
        else:
            assert_close(rep[k], ref[k], tol, what=k)


@st.composite
def fair_data(draw, *, binary=False, all_groups=True, all_cells=False, max_g=5, max_c=4,
              max_extra=40):
    """(y_true, y_pred, groups, C, G). all_groups: every group non-empty. all_cells: every
    (group, class) cell non-empty."""
    C = 2 if binary else draw(st.integers(2, max_c))
    G = draw(st.integers(2, max_g))
    ys, gs = [], []
    if all_cells:
        for a in range(G):
            for c in range(C):
                ys.append(c)
                gs.append(a)
    elif all_groups:
        for a in range(G):
            gs.append(a)
            ys.append(draw(st.integers(0, C - 1)))
    n_extra = draw(st.integers(0 if (all_cells or all_groups) else 1, max_extra))
    ys += draw(st.lists(st.integers(0, C - 1), min_size=n_extra, max_size=n_extra))
    gs += draw(st.lists(st.integers(0, G - 1), min_size=n_extra, max_size=n_extra))
    n = len(ys)
    yh = draw(st.lists(st.integers(0, C - 1), min_size=n, max_size=n))
    perm = np.asarray(draw(st.permutations(range(n))), dtype=np.int64)
    y = np.asarray(ys, dtype=np.int64)[perm]
    g = np.asarray(gs, dtype=np.int64)[perm]
    yh = np.asarray(yh, dtype=np.int64)
    return y, yh, g, C, G


# --------------------------------------------------------------------------------------------
# 1. Property-based tests against Fairlearn / scikit-learn
# --------------------------------------------------------------------------------------------

from fairlearn.metrics import (  # noqa: E402
    MetricFrame,
    demographic_parity_difference,
    equalized_odds_difference,
    false_positive_rate,
    true_positive_rate,
)
from sklearn.metrics import accuracy_score, roc_auc_score  # noqa: E402

def _tpr(y_true, y_pred):
    return true_positive_rate(y_true, y_pred, pos_label=1)


def _fpr(y_true, y_pred):
    return false_positive_rate(y_true, y_pred, pos_label=1)


def _fl_gap(metric, y, yh, g):
    mf = MetricFrame(metrics=metric, y_true=y, y_pred=yh, sensitive_features=g)
    return float(mf.difference(method="between_groups"))


@HYP
@given(fair_data(binary=True))
def test_binary_dp_matches_fairlearn(data):
    y, yh, g, C, G = data
    want = 1.0 - demographic_parity_difference(y, yh, sensitive_features=g)
    rep = fairness_report(y, yh, g, num_classes=2, num_groups=G)
    assert_close(rep["dp"], want, 1e-12, "report dp")
    assert_close(demographic_parity(y, yh, g, num_classes=2, num_groups=G), want, 1e-12,
                 "demographic_parity")
    # defaults (num_classes / num_groups inferred from the data, C at least 2) give the same
    # dp here, because every group is present in the data.
    assert_close(demographic_parity(y, yh, g), want, 1e-12, "demographic_parity defaults")


@HYP
@given(fair_data(binary=True, all_cells=True))
def test_binary_eqodd_eqopp_deo_match_fairlearn(data):
    y, yh, g, C, G = data
    gap_tpr = _fl_gap(_tpr, y, yh, g)
    gap_fpr = _fl_gap(_fpr, y, yh, g)
    rep = fairness_report(y, yh, g, num_classes=2, num_groups=G)
    assert_close(rep["eqodd"], 1.0 - (gap_tpr + gap_fpr) / 2.0, 1e-12, "eqodd")
    assert_close(equalized_odds(y, yh, g, num_classes=2, num_groups=G),
                 1.0 - (gap_tpr + gap_fpr) / 2.0, 1e-12, "equalized_odds")
    assert_close(rep["eqopp"], 1.0 - gap_tpr, 1e-12, "eqopp")
    assert_close(equal_opportunity(y, yh, g, num_classes=2, num_groups=G), 1.0 - gap_tpr,
                 1e-12, "equal_opportunity")
    # deo (binary) = max over the 4 (y, y') cells = max(gapTPR, gapFPR) = Fairlearn's
    # equalized_odds_difference; deo_mean = (gapTPR + gapFPR) / 2 (agg="mean").
    want_deo = equalized_odds_difference(y, yh, sensitive_features=g)
    want_deo_mean = equalized_odds_difference(y, yh, sensitive_features=g, agg="mean")
    assert_close(rep["deo"], want_deo, 1e-12, "deo")
    assert_close(rep["deo_mean"], want_deo_mean, 1e-12, "deo_mean")
    assert_close(disparity_of_equalized_odds(y, yh, g, num_classes=2, num_groups=G),
                 want_deo, 1e-12, "disparity_of_equalized_odds max")
    assert_close(disparity_of_equalized_odds(y, yh, g, num_classes=2, num_groups=G,
                                             reduce="mean"),
                 want_deo_mean, 1e-12, "disparity_of_equalized_odds mean")
    # binary one-vs-rest eqodd equals eqodd; binary dp_mean equals dp
    assert_close(rep["eqodd_ovr"], rep["eqodd"], 1e-12, "eqodd_ovr (binary)")
    assert_close(rep["dp_mean"], rep["dp"], 1e-12, "dp_mean (binary)")


@HYP
@given(fair_data())
def test_accuracy_and_group_accuracy_match_fairlearn(data):
    y, yh, g, C, G = data
    mf = MetricFrame(metrics=accuracy_score, y_true=y, y_pred=yh, sensitive_features=g)
    by_group = mf.by_group
    want = np.array([float(by_group.loc[a]) for a in range(G)])
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    assert_close(rep["acc"], accuracy_score(y, yh), 1e-12, "acc")
    assert len(rep["group_acc"]) == G
    assert_vec_close(rep["group_acc"], want, 1e-12, "group_acc")
    assert_vec_close(group_accuracy(y, yh, g, num_classes=C, num_groups=G), want, 1e-12,
                     "group_accuracy")
    assert_close(rep["worst_acc"], want.min(), 1e-12, "worst_acc")
    assert_close(rep["gap_acc"], want.max() - want.min(), 1e-12, "gap_acc")
    assert list(map(int, rep["group_size"])) == [int((g == a).sum()) for a in range(G)]


@HYP
@given(fair_data())
def test_multiclass_dp_and_dp_mean_match_fairlearn_per_class(data):
    """dp = 1 - max_c gap_a P(yhat=c|a) (Denis et al.); dp_mean = mean_c (1 - gap). Each per-class
    gap is Fairlearn's demographic parity difference of the indicator yhat == c."""
    y, yh, g, C, G = data
    gaps = [demographic_parity_difference((y == c).astype(int), (yh == c).astype(int),
                                          sensitive_features=g) for c in range(C)]
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    assert_close(rep["dp"], 1.0 - max(gaps), 1e-12, "dp")
    assert_close(rep["dp_mean"], float(np.mean([1.0 - x for x in gaps])), 1e-12, "dp_mean")
    assert_close(demographic_parity(y, yh, g, num_classes=C, num_groups=G), 1.0 - max(gaps),
                 1e-12, "demographic_parity")


@HYP
@given(fair_data(all_cells=True))
def test_multiclass_eqodd_ovr_matches_fairlearn_one_vs_rest(data):
    y, yh, g, C, G = data
    terms = []
    for c in range(C):
        yc = (y == c).astype(int)
        yhc = (yh == c).astype(int)
        terms.append(1.0 - (_fl_gap(_tpr, yc, yhc, g) + _fl_gap(_fpr, yc, yhc, g)) / 2.0)
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    assert_close(rep["eqodd_ovr"], float(np.mean(terms)), 1e-12, "eqodd_ovr")
    # eqodd (per-class recall gaps): e_c = gap of the one-vs-rest TPR of class c
    e = [_fl_gap(_tpr, (y == c).astype(int), (yh == c).astype(int), g) for c in range(C)]
    assert_close(rep["eqodd"], 1.0 - float(np.mean(e)), 1e-12, "eqodd")


@HYP
@given(fair_data())
def test_report_matches_spec_reference_all_groups_present(data):
    y, yh, g, C, G = data
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    ref = reference(y, yh, g, C, G)
    keys = COUNT_KEYS + (BINARY_KEYS if C == 2 else [])
    check_against_reference(rep, ref, keys)
    assert_close(equalized_odds(y, yh, g, num_classes=C, num_groups=G), ref["eqodd"], 1e-12,
                 "equalized_odds")
    assert_close(disparity_of_equalized_odds(y, yh, g, num_classes=C, num_groups=G),
                 ref["deo"], 1e-12, "deo (any C)")
    assert_close(disparity_of_equalized_odds(y, yh, g, num_classes=C, num_groups=G,
                                             reduce="mean"),
                 ref["deo_mean"], 1e-12, "deo_mean (any C)")
    for k in ("dp", "eqodd", "dp_mean", "acc", "worst_acc", "gap_acc"):
        v = float(rep[k])
        assert math.isnan(v) or -1e-12 <= v <= 1 + 1e-12, f"{k}={v} outside [0, 1]"


@HYP
@given(fair_data(all_groups=False, max_extra=25))
def test_report_matches_spec_reference_with_empty_groups_and_cells(data):
    """Groups and (group, class) cells may be empty: they are skipped, and NaN appears only
    where no term is defined."""
    y, yh, g, C, G = data
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    ref = reference(y, yh, g, C, G)
    keys = COUNT_KEYS + (BINARY_KEYS if C == 2 else [])
    check_against_reference(rep, ref, keys)


@HYP
@given(fair_data(binary=True), st.data())
def test_group_auc_matches_sklearn(data, hd):
    y, yh, g, C, G = data
    assume(len(np.unique(y)) == 2)
    n = len(y)
    # scores on a coarse grid, so that ties occur
    s = np.asarray(hd.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n)),
                   dtype=np.float64) / 10.0
    want = []
    for a in range(G):
        m = g == a
        want.append(roc_auc_score(y[m], s[m]) if len(np.unique(y[m])) == 2 else float("nan"))
    want = np.array(want)
    assert_vec_close(group_auc(y, s, g, num_groups=G), want, 1e-12, "group_auc")

    rep = fairness_report(y, yh, g, y_score=s, num_classes=2, num_groups=G)
    assert_close(rep["auc"], roc_auc_score(y, s), 1e-12, "auc")
    assert len(rep["group_auc"]) == G
    assert_vec_close(rep["group_auc"], want, 1e-12, "report group_auc")
    defined = want[~np.isnan(want)]
    assert_close(rep["worst_auc"], defined.min() if len(defined) else float("nan"), 1e-12,
                 "worst_auc")
    assert_close(rep["gap_auc"],
                 defined.max() - defined.min() if len(defined) >= 2 else float("nan"),
                 1e-12, "gap_auc")

    # [N, 2] matrix: column 1 is the class-1 probability; column 0 is deliberately not 1 - s
    col0 = np.asarray(hd.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n)),
                      dtype=np.float64) / 10.0
    rep2 = fairness_report(y, yh, g, y_score=np.stack([col0, s], axis=1), num_classes=2,
                           num_groups=G)
    assert_close(rep2["auc"], roc_auc_score(y, s), 1e-12, "auc from [N,2] scores")
    assert_vec_close(rep2["group_auc"], want, 1e-12, "group_auc from [N,2] scores")


def test_report_keys():
    y = np.array([0, 1, 1, 0, 1, 0])
    yh = np.array([0, 1, 0, 0, 1, 1])
    g = np.array([0, 0, 0, 1, 1, 1])
    rep = fairness_report(y, yh, g)
    for k in COUNT_KEYS + BINARY_KEYS:
        assert k in rep, k
    rep = fairness_report(y, yh, g, y_score=np.array([.1, .9, .4, .3, .8, .6]))
    for k in COUNT_KEYS + BINARY_KEYS + AUC_KEYS:
        assert k in rep, k
    y3 = np.array([0, 1, 2, 0, 1, 2])
    rep3 = fairness_report(y3, yh, g)
    for k in COUNT_KEYS:
        assert k in rep3, k
    assert len(rep3["group_acc"]) == 2


def test_defaults_encode_groups_and_classes_in_sorted_order_and_sizes_given_keep_codes():
    y = np.array([0, 1, 2, 0, 1, 2, 0, 1])
    yh = np.array([0, 1, 2, 1, 1, 0, 0, 2])
    g = np.array([0, 0, 0, 1, 1, 3, 3, 3])
    # inferred: the groups present, in sorted order (no empty group for the missing code 2)
    rep = fairness_report(y, yh, g)
    assert rep["group_names"] == [0, 1, 3] and rep["class_names"] == [0, 1, 2]
    assert list(map(int, rep["group_size"])) == [3, 2, 3]
    assert_vec_close(rep["group_acc"], [1.0, 0.5, 1 / 3], 1e-12, "group_acc")
    check_against_reference(rep, reference(y, yh, np.searchsorted([0, 1, 3], g), 3, 3),
                            COUNT_KEYS)
    # given: codes are indices, and the absent group 2 is there, empty
    rep = fairness_report(y, yh, g, num_groups=4)
    assert list(map(int, rep["group_size"])) == [3, 2, 0, 3]
    assert_vec_close(rep["group_acc"], [1.0, 0.5, np.nan, 1 / 3], 1e-12, "group_acc")
    check_against_reference(rep, reference(y, yh, g, 3, 4), COUNT_KEYS)
    # codes 10 and 20 are two groups, not 21; strings are groups too, and the same report
    for named in (np.where(g == 0, 10, 20), np.where(g == 0, "men", "women")):
        rep2 = fairness_report(y, yh, named)
        assert len(rep2["group_acc"]) == 2 and rep2["group_names"] == sorted(set(named.tolist()))
        check_against_reference(rep2, reference(y, yh, (g != 0).astype(int), 3, 2), COUNT_KEYS)
    # string classes: sorted, the positive class of a binary target the second
    yb, yhb = np.array([1, 1, 0, 0, 1, 0, 0, 1]), np.array([1, 0, 0, 1, 1, 0, 1, 1])
    words = np.array(["no", "yes"])
    rep3 = fairness_report(words[yb], words[yhb], g)
    assert rep3["class_names"] == ["no", "yes"]
    ref3 = fairness_report(yb, yhb, g)
    for k in BINARY_KEYS:
        assert rep3[k] == ref3[k] or (np.isnan(rep3[k]) and np.isnan(ref3[k])), k
    # labels in {0, 1}: two classes even when one is never seen; binary keys exist
    rep = fairness_report(np.zeros(4, int), np.zeros(4, int), np.array([0, 0, 1, 1]))
    assert rep["class_names"] == [0, 1] and len(rep["group_acc"]) == 2
    for k in BINARY_KEYS:
        assert k in rep, k


# --------------------------------------------------------------------------------------------
# 2. Hand-computed examples
# --------------------------------------------------------------------------------------------

# Multi-class example, C = 3, G = 2 (4 rows each):
#   group 0: y    = [0, 1, 1, 2]   yhat = [0, 0, 1, 2]
#   group 1: y    = [0, 1, 2, 2]   yhat = [0, 1, 1, 1]
MC_Y = np.array([0, 1, 1, 2, 0, 1, 2, 2])
MC_YH = np.array([0, 0, 1, 2, 0, 1, 1, 1])
MC_G = np.array([0, 0, 0, 0, 1, 1, 1, 1])


def test_hand_multiclass_dp_differs_from_dp_mean():
    # P(yhat=c|a):  group 0 = (2/4, 1/4, 1/4), group 1 = (1/4, 3/4, 0)
    # gaps per class: 0.25, 0.50, 0.25
    # dp (Denis et al.) = 1 - max = 0.5 ; dp_mean = mean(0.75, 0.5, 0.75) = 2/3
    rep = fairness_report(MC_Y, MC_YH, MC_G, num_classes=3, num_groups=2)
    assert_close(rep["dp"], 0.5, 1e-12, "dp")
    assert_close(rep["dp_mean"], 2 / 3, 1e-12, "dp_mean")
    assert_close(demographic_parity(MC_Y, MC_YH, MC_G), 0.5, 1e-12, "demographic_parity")


def test_hand_multiclass_eqodd_eqodd_ovr_acc_deo():
    # eqodd: P(yhat=y|Y=y,a): y=0: (1, 1) -> e0 = 0; y=1: (1/2, 1) -> e1 = 1/2;
    #        y=2: (1, 0) -> e2 = 1.  eqodd = 1 - (0 + 1/2 + 1)/3 = 1/2
    # eqodd_ovr (one-vs-rest):
    #   c=0: TPR (1, 1) gap 0;  FPR: g0 rows y!=0 -> yhat [0,1,2] -> 1/3, g1 -> [1,1,1] -> 0;
    #        gap 1/3; term 1 - (0 + 1/3)/2 = 5/6
    #   c=1: TPR (1/2, 1) gap 1/2; FPR: g0 y!=1 -> yhat [0,2] -> 0, g1 -> [0,1,1] -> 2/3;
    #        gap 2/3; term 1 - (1/2 + 2/3)/2 = 5/12
    #   c=2: TPR (1, 0) gap 1; FPR: g0 y!=2 -> [0,0,1] -> 0, g1 -> [0,1] -> 0; gap 0; term 1/2
    #   eqodd_ovr = (5/6 + 5/12 + 1/2)/3 = 7/12
    # acc: group 0 3/4, group 1 2/4 -> acc 5/8, worst 1/2, gap 1/4
    # deo cells gap_a P(yhat=y'|Y=y,a):
    #   y=0: g0 (1,0,0), g1 (1,0,0)       -> 0, 0, 0
    #   y=1: g0 (1/2,1/2,0), g1 (0,1,0)   -> 1/2, 1/2, 0
    #   y=2: g0 (0,0,1), g1 (0,1,0)       -> 0, 1, 1
    #   deo = 1, deo_mean = 3/9 = 1/3
    rep = fairness_report(MC_Y, MC_YH, MC_G, num_classes=3, num_groups=2)
    assert_close(rep["eqodd"], 0.5, 1e-12, "eqodd")
    assert_close(rep["eqodd_ovr"], 7 / 12, 1e-12, "eqodd_ovr")
    assert_close(rep["acc"], 5 / 8, 1e-12, "acc")
    assert_close(rep["worst_acc"], 0.5, 1e-12, "worst_acc")
    assert_close(rep["gap_acc"], 0.25, 1e-12, "gap_acc")
    assert_vec_close(rep["group_acc"], [0.75, 0.5], 1e-12, "group_acc")
    assert_close(equalized_odds(MC_Y, MC_YH, MC_G), 0.5, 1e-12, "equalized_odds")
    assert_close(disparity_of_equalized_odds(MC_Y, MC_YH, MC_G), 1.0, 1e-12, "deo")
    assert_close(disparity_of_equalized_odds(MC_Y, MC_YH, MC_G, reduce="mean"), 1 / 3, 1e-12,
                 "deo_mean")


def test_hand_three_groups_binary_eqodd_is_not_dp():
    # Each group: y = [1, 1, 0, 0]
    #   g0 yhat [1, 1, 0, 0] -> TPR 1,   TNR 1,   P(yhat=1) 1/2
    #   g1 yhat [1, 0, 1, 0] -> TPR 1/2, TNR 1/2, P(yhat=1) 1/2
    #   g2 yhat [0, 0, 1, 1] -> TPR 0,   TNR 0,   P(yhat=1) 1/2
    # dp = 1 (perfect parity) but eqodd = 1 - (1 + 1)/2 = 0, eqopp = 0,
    # deo: all four cells have gap 1 -> deo = 1, deo_mean = 1
    y = np.array([1, 1, 0, 0] * 3)
    yh = np.array([1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1])
    g = np.repeat([0, 1, 2], 4)
    rep = fairness_report(y, yh, g)
    assert_close(rep["dp"], 1.0, 1e-12, "dp")
    assert_close(rep["eqodd"], 0.0, 1e-12, "eqodd")
    assert_close(rep["eqopp"], 0.0, 1e-12, "eqopp")
    assert_close(rep["deo"], 1.0, 1e-12, "deo")
    assert_close(rep["deo_mean"], 1.0, 1e-12, "deo_mean")
    assert_close(equalized_odds(y, yh, g), 0.0, 1e-12, "equalized_odds")
    assert_close(equal_opportunity(y, yh, g), 0.0, 1e-12, "equal_opportunity")


# Spec, "Comparing with the paper's tables": with more than two groups and a binary target the
# reference code sets eqodd (and eqopp) equal to dp; this project must follow the formula.
#   g0: y = [1,1,1,1,0,0,0,0]        yhat = [1,1,1,0, 1,0,0,0]
#       TPR 3/4, FPR 1/4, P(yhat=1) = 4/8 = 1/2
#   g1: y = [1,1,0,0]                yhat = [1,1,0,0]
#       TPR 1,   FPR 0,   P(yhat=1) = 2/4 = 1/2
#   g2: y = [1,1,1,1,0,0,0,0,0,0]    yhat = [1,1,0,0, 1,1,0,0,0,0]
#       TPR 1/2, FPR 2/6 = 1/3, P(yhat=1) = 4/10 = 2/5
#   dp = 1 - (1/2 - 2/5) = 0.9
#   gap TPR = 1 - 1/2 = 1/2 ; gap FPR (= gap TNR) = 1/3 - 0 = 1/3
#   eqodd = 1 - (1/2 + 1/3)/2 = 7/12 ; eqopp = 1/2
#   deo = max(1/2, 1/3) = 1/2 ; deo_mean = (1/2 + 1/2 + 1/3 + 1/3)/4 = 5/12
#   dp_mean = dp = 0.9 (binary) ; eqodd_ovr = eqodd = 7/12 (binary)
PV_Y = np.array([1, 1, 1, 1, 0, 0, 0, 0] + [1, 1, 0, 0] + [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
PV_YH = np.array([1, 1, 1, 0, 1, 0, 0, 0] + [1, 1, 0, 0] + [1, 1, 0, 0, 1, 1, 0, 0, 0, 0])
PV_G = np.array([0] * 8 + [1] * 4 + [2] * 10)


def test_paper_variant_three_groups_binary_follows_formula_not_dp():
    rep = fairness_report(PV_Y, PV_YH, PV_G)
    assert_close(rep["dp"], 0.9, 1e-12, "dp")
    assert_close(rep["eqodd"], 7 / 12, 1e-12, "eqodd")
    assert_close(rep["eqopp"], 0.5, 1e-12, "eqopp")
    assert abs(float(rep["eqodd"]) - float(rep["dp"])) > 0.1
    assert abs(float(rep["eqopp"]) - float(rep["dp"])) > 0.1
    assert_close(rep["deo"], 0.5, 1e-12, "deo")
    assert_close(rep["deo_mean"], 5 / 12, 1e-12, "deo_mean")
    assert_close(rep["dp_mean"], 0.9, 1e-12, "dp_mean")
    assert_close(rep["eqodd_ovr"], 7 / 12, 1e-12, "eqodd_ovr")
    assert_close(equalized_odds(PV_Y, PV_YH, PV_G, num_classes=2, num_groups=3), 7 / 12, 1e-12,
                 "equalized_odds")
    assert_close(equal_opportunity(PV_Y, PV_YH, PV_G, num_classes=2, num_groups=3), 0.5, 1e-12,
                 "equal_opportunity")
    assert_close(disparity_of_equalized_odds(PV_Y, PV_YH, PV_G, reduce="max"), 0.5, 1e-12,
                 "deo")
    assert_close(disparity_of_equalized_odds(PV_Y, PV_YH, PV_G, reduce="mean"), 5 / 12, 1e-12,
                 "deo_mean")
    # group accuracies: g0 6/8, g1 4/4, g2 6/10
    assert_vec_close(rep["group_acc"], [0.75, 1.0, 0.6], 1e-12, "group_acc")
    assert_close(rep["worst_acc"], 0.6, 1e-12, "worst_acc")
    assert_close(rep["gap_acc"], 0.4, 1e-12, "gap_acc")
    assert_close(rep["acc"], 16 / 22, 1e-12, "acc")


def test_hand_counterfactual_disparity_and_rfp():
    yp = np.array([0, 1, 1, 0, 2])
    ycf = np.array([0, 0, 1, 1, 2])
    # flips at positions 1 and 3 -> 2/5
    assert_close(counterfactual_disparity(yp, ycf), 0.4, 1e-12, "cd")
    assert_close(rate_of_flipped_predictions(yp, ycf), 0.4, 1e-12, "rfp")
    assert_close(counterfactual_disparity(yp, yp), 0.0, 1e-12, "cd identical")
    assert_close(rate_of_flipped_predictions(yp, (yp + 1) % 3), 1.0, 1e-12, "rfp all flipped")
    # lists work too; 1 flip of 4
    assert_close(counterfactual_disparity([1, 1, 0, 0], [1, 1, 0, 1]), 0.25, 1e-12, "cd lists")


def test_hand_group_recall_counts_refusals_as_wrong():
    # ground truth = the demographic label; -1 = refused/unparseable, 7 = not a valid label
    groups = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2])
    y_true = groups.copy()
    y_pred = np.array([0, 0, -1, 1, 1, -1, -1, 2, 7])
    # group 0: 2 correct of 4 = 0.5 (dropping the refusal would give 2/3)
    # group 1: 1 correct of 3 = 1/3 (dropping refusals would give 1)
    # group 2: 1 correct of 2 = 0.5 (7 counts as wrong)
    r = group_recall(y_true, y_pred, groups)
    assert_vec_close(r, [0.5, 1 / 3, 0.5], 1e-12, "group_recall")
    r = group_recall(y_true, y_pred, groups, num_groups=3)
    assert_vec_close(r, [0.5, 1 / 3, 0.5], 1e-12, "group_recall num_groups")


def test_hand_recall_disparity_sign_and_mapping():
    recalls = [0.5, 1 / 3, 0.5]
    assert_close(recall_disparity(recalls, 0, 1), 0.5 - 1 / 3, 1e-12, "gd(0,1)")
    assert_close(recall_disparity(recalls, 1, 0), 1 / 3 - 0.5, 1e-12, "gd(1,0)")
    assert float(recall_disparity(recalls, 1, 0)) < 0  # negative favours the second group
    assert_close(recall_disparity(np.array(recalls), 1, 2), 1 / 3 - 0.5, 1e-12, "gd ndarray")
    by_name = {"Male": 0.625, "Female": 0.875, "White": 0.75, "Black": 0.5}
    assert_close(recall_disparity(by_name, "Male", "Female"), -0.25, 1e-12, "gd(Male,Female)")
    assert_close(recall_disparity(by_name, "White", "Black"), 0.25, 1e-12, "gd(White,Black)")


# --------------------------------------------------------------------------------------------
# 3. NaN / skip behaviour
# --------------------------------------------------------------------------------------------

def test_group_without_positives_is_skipped_in_eqodd():
    #   g0: y = [1,1,1,1,0,0] yhat = [1,1,1,0,0,0] -> TPR 3/4, TNR 1,   P(yhat=1) 1/2
    #   g1: y = [1,1,0,0]     yhat = [1,0,1,0]     -> TPR 1/2, TNR 1/2, P(yhat=1) 1/2
    #   g2: y = [0,0]         yhat = [1,0]         -> TPR undefined (skipped), TNR 1/2, P 1/2
    # e1 = 3/4 - 1/2 = 1/4 (counting g2's TPR as 0 would give 3/4, as 1 would give 1/2)
    # e0 = 1 - 1/2 = 1/2 ; eqodd = 1 - (1/4 + 1/2)/2 = 5/8 ; eqopp = 3/4 ; dp = 1
    # deo cells: (1,1) 1/4, (1,0) 1/4, (0,0) 1/2, (0,1) 1/2 -> deo 1/2, deo_mean 3/8
    y = np.array([1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0])
    yh = np.array([1, 1, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0])
    g = np.array([0] * 6 + [1] * 4 + [2] * 2)
    rep = fairness_report(y, yh, g, num_classes=2, num_groups=3)
    assert_close(rep["eqodd"], 5 / 8, 1e-12, "eqodd")
    assert_close(rep["eqopp"], 3 / 4, 1e-12, "eqopp")
    assert_close(rep["dp"], 1.0, 1e-12, "dp")
    assert_close(rep["deo"], 0.5, 1e-12, "deo")
    assert_close(rep["deo_mean"], 3 / 8, 1e-12, "deo_mean")
    assert_vec_close(rep["group_acc"], [5 / 6, 0.5, 0.5], 1e-12, "group_acc")
    assert_close(equalized_odds(y, yh, g), 5 / 8, 1e-12, "equalized_odds")


def test_class_defined_in_one_group_only_is_skipped_and_all_undefined_is_nan():
    # class 1 only in g0, class 0 only in g1: no class has two groups -> eqodd/eqopp/deo NaN
    y = np.array([1, 1, 0, 0])
    yh = np.array([1, 0, 0, 1])
    g = np.array([0, 0, 1, 1])
    rep = fairness_report(y, yh, g, num_classes=2, num_groups=2)
    assert math.isnan(float(rep["eqodd"])), rep["eqodd"]
    assert math.isnan(float(rep["eqopp"])), rep["eqopp"]
    assert math.isnan(float(rep["deo"])), rep["deo"]
    assert math.isnan(float(rep["deo_mean"])), rep["deo_mean"]
    assert math.isnan(float(equalized_odds(y, yh, g))), "equalized_odds"
    # dp is still defined: P(yhat=1) = 1/2 in both -> 1
    assert_close(rep["dp"], 1.0, 1e-12, "dp")
    assert_vec_close(rep["group_acc"], [0.5, 0.5], 1e-12, "group_acc")

    # class 1 in g0 and g1, class 0 only in g1 -> eqodd = 1 - e1 only
    #   g0: y [1,1] yhat [1,1] TPR 1;  g1: y [1,0,0] yhat [0,0,0] TPR 0, TNR 1
    y = np.array([1, 1, 1, 0, 0])
    yh = np.array([1, 1, 0, 0, 0])
    g = np.array([0, 0, 1, 1, 1])
    rep = fairness_report(y, yh, g, num_classes=2, num_groups=2)
    assert_close(rep["eqodd"], 0.0, 1e-12, "eqodd (only class 1 defined)")
    assert_close(rep["eqopp"], 0.0, 1e-12, "eqopp")


def test_single_group_gives_nan_parity():
    y = np.array([0, 1, 1, 0, 1])
    yh = np.array([0, 1, 0, 0, 1])
    g = np.zeros(5, dtype=int)
    rep = fairness_report(y, yh, g)
    for k in ("dp", "eqodd", "eqopp", "gap_acc", "dp_mean", "deo"):
        assert math.isnan(float(rep[k])), f"{k} should be NaN with one group, got {rep[k]}"
    assert math.isnan(float(demographic_parity(y, yh, g))), "demographic_parity"
    assert math.isnan(float(equalized_odds(y, yh, g))), "equalized_odds"
    assert_close(rep["acc"], 0.8, 1e-12, "acc")
    assert_close(rep["worst_acc"], 0.8, 1e-12, "worst_acc")  # min over non-empty groups
    # with num_groups=1 the same holds
    assert math.isnan(float(demographic_parity(y, yh, g, num_groups=1))), "dp G=1"
    assert math.isnan(float(equalized_odds(y, yh, g, num_groups=1))), "eqodd G=1"


def test_empty_group_is_nan_in_group_acc_but_others_defined():
    # G = 3 declared, group 2 empty; groups 0 and 1 as in the spec formulas
    #   g0: y [1,1,0,0] yhat [1,0,0,0] -> acc 3/4, P(yhat=1) 1/4, TPR 1/2, TNR 1
    #   g1: y [1,1,0,0] yhat [1,1,1,0] -> acc 3/4, P(yhat=1) 3/4, TPR 1,   TNR 1/2
    # dp = 1 - 1/2 = 1/2 ; eqodd = 1 - (1/2 + 1/2)/2 = 1/2 ; acc 3/4 ; worst 3/4 ; gap 0
    y = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    yh = np.array([1, 0, 0, 0, 1, 1, 1, 0])
    g = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    rep = fairness_report(y, yh, g, num_classes=2, num_groups=3)
    assert len(rep["group_acc"]) == 3
    assert_vec_close(rep["group_acc"], [0.75, 0.75, np.nan], 1e-12, "group_acc")
    assert list(map(int, rep["group_size"])) == [4, 4, 0]
    assert_vec_close(group_accuracy(y, yh, g, num_groups=3), [0.75, 0.75, np.nan], 1e-12,
                     "group_accuracy")
    assert_close(rep["dp"], 0.5, 1e-12, "dp")
    assert_close(rep["eqodd"], 0.5, 1e-12, "eqodd")
    assert_close(rep["eqopp"], 0.5, 1e-12, "eqopp")
    assert_close(rep["acc"], 0.75, 1e-12, "acc")
    assert_close(rep["worst_acc"], 0.75, 1e-12, "worst_acc")
    assert_close(rep["gap_acc"], 0.0, 1e-12, "gap_acc")
    assert_close(rep["dp_mean"], 0.5, 1e-12, "dp_mean")
    assert_close(rep["eqodd_ovr"], 0.5, 1e-12, "eqodd_ovr")


def test_group_auc_nan_for_single_class_group():
    y = np.array([0, 1, 0, 1, 1, 1, 0, 0])
    s = np.array([.2, .8, .6, .4, .9, .1, .3, .5])
    g = np.array([0, 0, 0, 0, 1, 1, 2, 2])
    # g0: positives {.8, .4}, negatives {.2, .6}: pairs (.8>.2, .8>.6, .4>.2, .4<.6) -> 3/4
    # g1 only positives, g2 only negatives -> NaN
    r = group_auc(y, s, g, num_groups=3)
    assert_vec_close(r, [0.75, np.nan, np.nan], 1e-12, "group_auc")
    rep = fairness_report(y, (s > 0.5).astype(int), g, y_score=s, num_groups=3)
    assert_vec_close(rep["group_auc"], [0.75, np.nan, np.nan], 1e-12, "report group_auc")
    assert_close(rep["worst_auc"], 0.75, 1e-12, "worst_auc")
    assert math.isnan(float(rep["gap_auc"])), "gap_auc needs two defined groups"


# --------------------------------------------------------------------------------------------
# 4. Errors
# --------------------------------------------------------------------------------------------

_Y = np.array([0, 1, 1, 0, 1, 0])
_YH = np.array([0, 1, 0, 0, 1, 1])
_G = np.array([0, 0, 1, 1, 2, 2])

_TRIPLE_FNS = {
    "fairness_report": fairness_report,
    "group_accuracy": group_accuracy,
    "demographic_parity": demographic_parity,
    "equalized_odds": equalized_odds,
    "equal_opportunity": equal_opportunity,
    "disparity_of_equalized_odds": disparity_of_equalized_odds,
}


@pytest.mark.parametrize("name", sorted(_TRIPLE_FNS))
@pytest.mark.parametrize("which", ["y_true", "y_pred", "groups"])
def test_mismatched_lengths_raise(name, which):
    fn = _TRIPLE_FNS[name]
    args = {"y_true": _Y, "y_pred": _YH, "groups": _G}
    args[which] = args[which][:-1]
    with pytest.raises(ValueError, match=r"(?i)length|shape|size|mismatch|same"):
        fn(args["y_true"], args["y_pred"], args["groups"])


def test_mismatched_lengths_raise_other_functions():
    with pytest.raises(ValueError):
        confusion_counts(_Y, _YH[:-1], _G, num_classes=2, num_groups=3)
    with pytest.raises(ValueError):
        group_auc(_Y, np.linspace(0, 1, 5), _G, num_groups=3)
    with pytest.raises(ValueError):
        counterfactual_disparity([0, 1, 1], [0, 1])
    with pytest.raises(ValueError):
        rate_of_flipped_predictions([0, 1], [0, 1, 1])
    with pytest.raises(ValueError):
        group_recall(_G, _G[:-1], _G)
    with pytest.raises(ValueError):
        fairness_report(_Y, _YH, _G, y_score=np.linspace(0, 1, 5))


@pytest.mark.parametrize("name", sorted(_TRIPLE_FNS))
def test_labels_out_of_range_raise(name):
    fn = _TRIPLE_FNS[name]
    bad_true = _Y.copy()
    bad_true[0] = 2
    with pytest.raises(ValueError, match=r"(?i)label|class|range|num_classes|target"):
        fn(bad_true, _YH, _G, num_classes=2)
    bad_pred = _YH.copy()
    bad_pred[1] = 2
    with pytest.raises(ValueError, match=r"(?i)label|class|range|num_classes|pred"):
        fn(_Y, bad_pred, _G, num_classes=2)
    neg = _Y.copy()
    neg[2] = -1
    with pytest.raises(ValueError):
        fn(neg, _YH, _G, num_classes=2)


@pytest.mark.parametrize("name", sorted(_TRIPLE_FNS))
def test_groups_out_of_range_raise(name):
    fn = _TRIPLE_FNS[name]
    with pytest.raises(ValueError, match=r"(?i)group|range|num_groups|sensitive"):
        fn(_Y, _YH, _G, num_groups=2)  # _G holds 2
    neg = _G.copy()
    neg[0] = -1
    with pytest.raises(ValueError):
        fn(_Y, _YH, neg, num_groups=3)


def test_counts_out_of_range_raise():
    with pytest.raises(ValueError):
        confusion_counts(_Y, _YH, _G, num_classes=2, num_groups=2)
    bad = _Y.copy()
    bad[0] = 5
    with pytest.raises(ValueError):
        confusion_counts(bad, _YH, _G, num_classes=2, num_groups=3)


def test_equal_opportunity_non_binary_raises():
    y3 = np.array([0, 1, 2, 0, 1, 2])
    yh3 = np.array([0, 1, 2, 2, 1, 0])
    with pytest.raises(ValueError, match=r"(?i)binary|two|2 class|num_classes"):
        equal_opportunity(y3, yh3, _G)
    with pytest.raises(ValueError, match=r"(?i)binary|two|2 class|num_classes"):
        equal_opportunity(y3, yh3, _G, num_classes=3)
    with pytest.raises(ValueError, match=r"(?i)binary|two|2 class|num_classes"):
        equal_opportunity(_Y, _YH, _G, num_classes=3)


# --------------------------------------------------------------------------------------------
# 5. Counts, fairness_from_counts and the streaming accumulator
# --------------------------------------------------------------------------------------------

def _brute_counts(y, yh, g, C, G):
    out = np.zeros((G, C, C), dtype=np.int64)
    for a, t, p in zip(g, y, yh):
        out[a, t, p] += 1
    return out


def test_confusion_counts_axis_order_and_dtype():
    # one example: group 1, true 0, predicted 1 -> counts[1, 0, 1] == 1
    c = confusion_counts(np.array([0]), np.array([1]), np.array([1]), num_classes=3,
                         num_groups=2)
    c = np.asarray(c)
    assert c.shape == (2, 3, 3)
    assert c.dtype == np.int64
    want = np.zeros((2, 3, 3), dtype=np.int64)
    want[1, 0, 1] = 1
    assert np.array_equal(c, want)


@HYP
@given(fair_data(all_groups=False), st.data())
def test_confusion_counts_and_fairness_from_counts(data, hd):
    y, yh, g, C, G = data
    counts = np.asarray(confusion_counts(y, yh, g, num_classes=C, num_groups=G))
    assert counts.shape == (G, C, C)
    assert np.array_equal(counts, _brute_counts(y, yh, g, C, G))
    mask = np.asarray(hd.draw(st.lists(st.booleans(), min_size=len(y), max_size=len(y))))
    cm = np.asarray(confusion_counts(y, yh, g, num_classes=C, num_groups=G,
                                     mask=mask.astype(np.int32)))
    assert np.array_equal(cm, _brute_counts(y[mask], yh[mask], g[mask], C, G))

    from_counts = fairness_from_counts(counts)
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    keys = COUNT_KEYS + (BINARY_KEYS if C == 2 else [])
    for k in keys:
        assert k in from_counts, f"fairness_from_counts lacks {k!r}"
        if k in ("group_acc", "group_size"):
            assert_vec_close(from_counts[k], rep[k], 1e-12, k)
        else:
            assert_close(from_counts[k], rep[k], 1e-12, k)


_JIT_CACHE: dict = {}


def _jitted_from_batch(G, C):
    import jax

    key = (G, C)
    if key not in _JIT_CACHE:
        _JIT_CACHE[key] = jax.jit(functools.partial(GroupConfusion.from_batch, num_groups=G,
                                                    num_classes=C))
    return _JIT_CACHE[key]


@pytest.mark.parametrize("seed,G,C", [(0, 2, 2), (1, 3, 2), (2, 5, 2), (3, 2, 3), (4, 4, 4),
                                      (5, 3, 3)])
def test_streaming_equals_batch(seed, G, C):
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 200))
    y = rng.integers(0, C, n)
    yh = np.where(rng.random(n) < 0.6, y, rng.integers(0, C, n))
    g = rng.integers(0, G, n)
    B = 32  # every batch padded to 32 rows; padding rows hold random VALID values, mask 0
    cuts = np.sort(rng.choice(np.arange(1, n), size=min(n - 1, n // 10), replace=False))
    bounds = [0, *cuts.tolist(), n]
    fb = _jitted_from_batch(G, C)
    merge = jax.jit(lambda a, b: a.merge(b))
    acc = GroupConfusion.empty(G, C)
    assert np.array_equal(np.asarray(acc.counts), np.zeros((G, C, C)))
    n_batches = 0
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        for s in range(lo, hi, B):  # a segment longer than B is split further
            e = min(s + B, hi)
            k = e - s
            pad = B - k
            yb = np.concatenate([y[s:e], rng.integers(0, C, pad)])
            yhb = np.concatenate([yh[s:e], rng.integers(0, C, pad)])
            gb = np.concatenate([g[s:e], rng.integers(0, G, pad)])
            mb = np.concatenate([np.ones(k, np.int32), np.zeros(pad, np.int32)])
            part = fb(jnp.asarray(yb, jnp.int32), jnp.asarray(yhb, jnp.int32),
                      jnp.asarray(gb, jnp.int32), mask=jnp.asarray(mb))
            acc = merge(acc, part)
            n_batches += 1
    assert n_batches >= 2
    counts = np.asarray(acc.counts)
    assert counts.shape == (G, C, C)
    assert np.array_equal(counts.astype(np.int64), _brute_counts(y, yh, g, C, G))
    assert int(counts.sum()) == n

    got = acc.compute()
    rep = fairness_report(y, yh, g, num_classes=C, num_groups=G)
    keys = COUNT_KEYS + (BINARY_KEYS if C == 2 else [])
    for k in keys:
        assert k in got, f"compute() lacks {k!r}"
        if k == "group_size":
            assert list(map(int, got[k])) == list(map(int, rep[k]))
        elif k == "group_acc":
            assert_vec_close(got[k], rep[k], 1e-12, k)
        else:
            assert_close(got[k], rep[k], 1e-12, k)
    # and against the spec reference directly
    ref = reference(y, yh, g, C, G)
    check_against_reference(got, ref, keys)


def test_from_batch_mask_and_merge_eager():
    import jax.numpy as jnp

    y = np.array([0, 1, 1, 0, 1])
    yh = np.array([0, 1, 0, 1, 1])
    g = np.array([0, 0, 1, 1, 1])
    mask = np.array([1, 1, 0, 1, 0])
    a = GroupConfusion.from_batch(jnp.asarray(y), jnp.asarray(yh), jnp.asarray(g),
                                  num_groups=2, num_classes=2, mask=jnp.asarray(mask))
    want = _brute_counts(y[mask == 1], yh[mask == 1], g[mask == 1], 2, 2)
    assert np.array_equal(np.asarray(a.counts), want)
    b = GroupConfusion.from_batch(y, yh, g, num_groups=2, num_classes=2)
    assert np.array_equal(np.asarray(b.counts), _brute_counts(y, yh, g, 2, 2))
    m = a.merge(b)
    assert np.array_equal(np.asarray(m.counts), want + _brute_counts(y, yh, g, 2, 2))
    e = GroupConfusion.empty(2, 2).merge(b)
    assert np.array_equal(np.asarray(e.counts), np.asarray(b.counts))


def _fairlearn_table() -> list[tuple[str, str]]:
    """The rows of docs/metrics.md's "Coming from Fairlearn / AIF360" table: (ours, theirs)."""
    import os
    import re

    text = open(os.path.join(os.path.dirname(__file__), "..", "docs", "metrics.md")).read()
    section = text.split("## Coming from Fairlearn / AIF360", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)`[^|]*\| `(.+)` \|$", section, re.M)
    assert len(rows) >= 6, rows
    return rows


@HYP
@given(fair_data(binary=True, all_cells=True))
def test_the_docs_fairlearn_translation_holds(data):
    """Every row of the docs' Fairlearn table, evaluated as written, on string groups (encoded in
    sorted order, as the report does), equals our figure."""
    import fairlearn.metrics as fm
    from sklearn.metrics import accuracy_score

    y, yh, g, C, G = data
    names = np.array([f"group {chr(ord('a') + i)}" for i in range(G)])
    rep = fairness_report(y, yh, names[g])
    scope = {**{k: getattr(fm, k) for k in dir(fm) if not k.startswith("_")},
             "accuracy_score": accuracy_score, "y": y, "y_pred": yh, "g": names[g]}
    for ours, theirs in _fairlearn_table():
        want = float(eval(theirs, scope))  # noqa: S307 - the docs' own table
        got = (metrics.demographic_parity_ratio(y, yh, names[g]) if ours == "dp_ratio"
               else rep[ours])
        assert_close(got, want, 1e-12, f"{ours} = {theirs}")
