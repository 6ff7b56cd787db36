"""metrics.bootstrap: coverage on simulated data, agreement with a plain loop bootstrap, the
vectorised AUC path, NaN safety, strings, seeds and bad arguments."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nhfair_jax import metrics
from nhfair_jax.metrics.bootstrap import bootstrap_rate, count_figures

# Two groups with known rates: sizes, P(y = 1 | a) and P(yhat = y | a).
SIZES, POS, ACC = (400, 150), (0.3, 0.6), (0.85, 0.7)


def _simulate(rng):
    groups = np.repeat(np.arange(2), SIZES)
    y = (rng.random(groups.size) < np.take(POS, groups)).astype(int)
    right = rng.random(groups.size) < np.take(ACC, groups)
    return y, np.where(right, y, 1 - y), groups


def _truth():
    rate1 = [q * a + (1 - q) * (1 - a) for q, a in zip(POS, ACC)]  # P(yhat = 1 | a)
    return {
        "acc": float(np.dot(SIZES, ACC) / sum(SIZES)),
        "group_acc_1": ACC[1],
        "dp": 1 - abs(rate1[0] - rate1[1]),
        "eqodd": 1 - abs(ACC[0] - ACC[1]),  # TPR and TNR both equal the accuracy of the group
    }


@pytest.mark.slow
def test_intervals_cover_the_true_value_at_about_the_nominal_rate():
    rng = np.random.default_rng(123)
    truth = _truth()
    sets = 200
    hits = {k: 0 for k in truth}
    for i in range(sets):
        ci = metrics.bootstrap(None, *_simulate(rng), n=200, seed=i)
        got = {"acc": ci["acc"], "group_acc_1": ci["group_acc"][1], "dp": ci["dp"],
               "eqodd": ci["eqodd"]}
        for k, t in truth.items():
            hits[k] += _covers(got[k], t)
    # Per metric: 200 sets at 95% has a binomial sd of 0.015; allow 3 sd (percentile intervals
    # run slightly short of nominal at these sizes); pooled over the four metrics, tighter.
    sd = math.sqrt(0.95 * 0.05 / sets)
    for k, h in hits.items():
        assert abs(h / sets - 0.95) <= 3 * sd, (k, h / sets)
    pooled = sum(hits.values()) / (4 * sets)
    assert 0.91 <= pooled <= 0.98, pooled
    # A 50% interval must cover about half the time: the coverage follows `confidence`.
    rng = np.random.default_rng(7)
    half = sum(_covers(metrics.bootstrap(None, *_simulate(rng), n=200, seed=i,
                                         confidence=0.5)["acc"], truth["acc"])
               for i in range(sets))
    assert abs(half / sets - 0.5) <= 3 * math.sqrt(0.25 / sets), half / sets


def _covers(interval: dict, value: float) -> bool:
    return interval["lo"] <= value <= interval["hi"]


def _loop_bootstrap(y, yhat, groups, n, seed, score=None):
    """The textbook stratified bootstrap: draw rows with replacement within each group."""
    rng = np.random.default_rng(seed)
    members = [np.flatnonzero(groups == a) for a in range(groups.max() + 1)]
    out = []
    for _ in range(n):
        rows = np.concatenate([rng.choice(m, m.size, replace=True) for m in members])
        out.append(metrics.fairness_report(y[rows], yhat[rows], groups[rows], num_groups=3,
                                           y_score=None if score is None else score[rows]))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("with_score", [False, True])
def test_agrees_with_a_plain_loop_bootstrap(with_score, seed=1):
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(3), (120, 60, 40))
    y = rng.integers(0, 2, groups.size)
    yhat = np.where(rng.random(groups.size) < 0.75, y, 1 - y)
    score = np.clip(0.35 * y + 0.65 * rng.random(groups.size), 0, 1) if with_score else None
    n = 1000
    ci = metrics.bootstrap(None, y, yhat, groups, y_score=score, n=n, seed=seed)
    loop = _loop_bootstrap(y, yhat, groups, n, seed=seed + 1, score=score)
    keys = ["acc", "worst_acc", "dp", "eqodd", "eqopp"]
    keys += ["auc", "worst_auc"] if with_score else []
    for k in keys:
        draws = np.array([r[k] for r in loop])
        lo, hi = np.percentile(draws, [2.5, 97.5])
        width = hi - lo
        # Two independent 1,000-resample estimates of the same quantiles differ by about 3% of
        # the width (sd); 12% is four sd.
        assert abs(ci[k]["lo"] - lo) < 0.12 * width and abs(ci[k]["hi"] - hi) < 0.12 * width, k
        assert ci[k]["value"] == pytest.approx(metrics.fairness_report(
            y, yhat, groups, y_score=score)[k])


def test_vectorised_auc_equals_roc_auc_on_every_resample():
    """The score path's bincount AUC against fairness_report (rankdata) on the same draws."""
    rng = np.random.default_rng(3)
    groups = rng.integers(0, 3, 300)
    y = rng.integers(0, 2, 300)
    yhat = rng.integers(0, 2, 300)
    score = np.round(rng.random(300), 1)  # many ties
    fast = metrics.bootstrap(None, y, yhat, groups, y_score=score, n=40, seed=5)
    slow = metrics.bootstrap(lambda *a, **k: metrics.fairness_report(*a, **k), y, yhat, groups,
                             y_score=score, n=40, seed=5)
    for k in ("auc", "worst_auc", "gap_auc", "acc", "dp", "eqodd", "deo"):
        assert fast[k] == pytest.approx(slow[k], abs=1e-12), k
    for a in range(3):
        assert fast["group_auc"][a] == pytest.approx(slow["group_auc"][a], abs=1e-12)
    # Unstratified: group sizes vary from resample to resample; still the same draws.
    fast = metrics.bootstrap(None, y, yhat, groups, y_score=score, n=40, seed=6, stratify=False)
    slow = metrics.bootstrap(lambda *a, **k: metrics.fairness_report(*a, **k), y, yhat, groups,
                             y_score=score, n=40, seed=6, stratify=False)
    for k in ("auc", "gap_auc", "eqodd"):
        assert fast[k] == pytest.approx(slow[k], abs=1e-12), k
    assert fast["group_size"][0]["lo"] < fast["group_size"][0]["hi"]


def test_count_figures_equal_fairness_from_counts_on_every_resample():
    rng = np.random.default_rng(11)
    for c in (2, 3):
        # Sparse counts: many empty cells, a group without a class, an empty group.
        counts = rng.integers(0, 4, (60, 4, c, c)) * (rng.random((60, 4, c, c)) < 0.6)
        counts[:, 3] = 0
        counts[::2, 1, 0] = 0
        batch = count_figures(counts)
        for i in range(len(counts)):
            one = metrics.fairness_from_counts(counts[i])
            assert set(batch) == {k for k in one}
            for k, v in one.items():
                np.testing.assert_allclose(batch[k][i], np.asarray(v, np.float64), rtol=0,
                                           atol=1e-12, err_msg=k)


def test_bootstrap_rate_is_the_flip_rate_with_a_loop_sized_interval():
    rng = np.random.default_rng(12)
    groups = np.repeat([0, 1], (300, 60))
    flips = rng.random(360) < np.where(groups == 0, 0.1, 0.3)
    ci = bootstrap_rate(flips, groups, n=3000, seed=0)
    assert ci["rate"]["value"] == pytest.approx(flips.mean())
    assert ci["group_rate"][1]["value"] == pytest.approx(flips[groups == 1].mean())
    loop = [np.mean(np.concatenate([rng.choice(flips[groups == a], (groups == a).sum())
                                    for a in (0, 1)])) for _ in range(3000)]
    lo, hi = np.percentile(loop, [2.5, 97.5])
    assert abs(ci["rate"]["lo"] - lo) < 0.1 * (hi - lo)
    assert abs(ci["rate"]["hi"] - hi) < 0.1 * (hi - lo)
    assert bootstrap_rate(flips, groups, n=50, seed=3) == bootstrap_rate(flips, groups, n=50,
                                                                         seed=3)
    free = bootstrap_rate(flips, groups, n=500, seed=0, stratify=False)
    assert free["rate"]["lo"] < flips.mean() < free["rate"]["hi"]
    empty = bootstrap_rate([], [], n=10, num_groups=2)
    assert math.isnan(empty["rate"]["value"]) and math.isnan(empty["group_rate"][0]["lo"])


def test_undefined_figures_get_nan_bounds_not_a_crash():
    # Group 1 has no positive example: its TPR, AUC and eqopp term are undefined.
    y = np.array([0, 1, 0, 1, 0, 1, 0, 0, 0, 0])
    yhat = np.array([0, 1, 1, 1, 0, 0, 0, 1, 0, 0])
    groups = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    score = np.linspace(0, 1, 10)
    ci = metrics.bootstrap(None, y, yhat, groups, y_score=score, n=50)
    assert math.isnan(ci["group_auc"][1]["value"]) and math.isnan(ci["group_auc"][1]["lo"])
    assert math.isnan(ci["eqopp"]["value"]) and math.isnan(ci["eqopp"]["hi"])
    assert math.isnan(ci["gap_auc"]["value"])
    assert not math.isnan(ci["group_auc"][0]["value"])
    assert ci["acc"]["lo"] <= ci["acc"]["value"] <= ci["acc"]["hi"]
    # No rows at all: every figure undefined, nothing raised.
    empty = metrics.bootstrap(None, [], [], [], n=10)
    assert math.isnan(empty["acc"]["value"]) and math.isnan(empty["acc"]["lo"])


def test_string_labels_and_groups_equal_their_integer_codes():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 200)
    yhat = np.where(rng.random(200) < 0.7, y, rng.integers(0, 3, 200))
    groups = rng.integers(0, 2, 200)
    names = np.array(["bird", "cat", "dog"])
    ints = metrics.bootstrap(None, y, yhat, groups, n=100, seed=9)
    strs = metrics.bootstrap(None, list(names[y]), names[yhat], np.array(["f", "m"])[groups],
                             n=100, seed=9)
    assert strs.pop("class_names") == ["bird", "cat", "dog"] and ints.pop("class_names") == [0, 1, 2]
    assert strs.pop("group_names") == ["f", "m"] and ints.pop("group_names") == [0, 1]
    assert strs == ints
    # sparse integer codes are their sorted distinct values, as strings are
    sparse = metrics.bootstrap(None, y, yhat, np.where(groups == 0, 10, 20), n=100, seed=9)
    assert sparse.pop("group_names") == [10, 20]
    sparse.pop("class_names")
    assert sparse == ints


def test_seeded_and_stratified():
    rng = np.random.default_rng(5)
    y, yhat, groups = rng.integers(0, 2, 300), rng.integers(0, 2, 300), rng.integers(0, 3, 300)
    a = metrics.bootstrap(None, y, yhat, groups, n=200, seed=0)
    assert a == metrics.bootstrap(None, y, yhat, groups, n=200, seed=0)
    assert a != metrics.bootstrap(None, y, yhat, groups, n=200, seed=1)
    sizes = np.bincount(groups)
    for g, s in enumerate(sizes):  # stratified: every resample keeps the group sizes
        assert a["group_size"][g] == {"value": s, "lo": s, "hi": s}
    free = metrics.bootstrap(None, y, yhat, groups, n=200, seed=0, stratify=False)
    assert free["group_size"][0]["lo"] < sizes[0] < free["group_size"][0]["hi"]
    assert a["count"]["value"] == free["count"]["lo"] == free["count"]["hi"] == 300


def test_custom_report_fn_and_bad_arguments():
    y, yhat, groups = np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0]), np.array([0, 0, 1, 1])

    def accuracy_only(a, b, c):  # no num_classes / num_groups keywords: not passed
        return {"acc": float(np.mean(a == b)), "name": "ignored"}

    ci = metrics.bootstrap(accuracy_only, y, yhat, groups, n=30)
    assert set(ci) == {"acc", "class_names", "group_names"} and ci["acc"]["value"] == 0.75
    with pytest.raises(ValueError, match="n must be"):
        metrics.bootstrap(None, y, yhat, groups, n=0)
    with pytest.raises(ValueError, match="confidence"):
        metrics.bootstrap(None, y, yhat, groups, confidence=95)
    with pytest.raises(ValueError, match="lengths differ"):
        metrics.bootstrap(None, y, yhat, groups, y_score=[0.1, 0.2])
