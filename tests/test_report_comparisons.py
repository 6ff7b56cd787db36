"""The comparison with ERM (issue 50): comparisons.csv against an independent recomputation from
results.csv (scipy's Wilcoxon, Holm by hand), both levels, the Wilcoxon variant, the rounding of
differences, the bold cells of Table 2, and the sentence for a level that cannot reach alpha.

The synthetic workdir gives every data set an ERM of its own (values and seed order differ), so
that pairing a data set's runs with another data set's ERM changes the numbers, and has methods
whose p-values are large enough that Holm without its cap at 1 would exceed it."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from nhfair_jax import rundir
from nhfair_jax.metrics.direction import marked
from nhfair_jax.report import build_report
from nhfair_jax.report.comparisons import COLUMNS, LEVELS, paired_with_erm, wilcoxon
from tests.test_report import make_run

pytestmark = pytest.mark.filterwarnings("error")

SEEDS = (0, 1, 2, 3)
DATASETS = ("d0", "d1", "d2", "d3")
METHODS = ("erm", "groupdro", "mixup", "gapreg")
GOOD, SMALL = "groupdro", "gapreg"  # groupdro beats ERM; gapreg a hair above, never told apart
METRICS = ("utility", "worst", "gap", "eqodd", "dp")
ERM_VAL, METHOD_VAL = (0.70, 0.80), (0.72, 0.82)  # every method's one candidate is Optimal


def _test_accs():
    """{data set: {method: {seed: (group 0, group 1) test accuracy}}}, multiples of 1/200."""
    rng = np.random.default_rng(50)
    step = 0.005
    out = {}
    for k, dataset in enumerate(DATASETS):
        erm = {s: (0.60 + 0.02 * k + step * rng.integers(0, 6), 0.80 - 0.01 * k +
                   step * rng.integers(0, 6)) for s in SEEDS}
        per = {"erm": erm}
        # groupdro: ahead of ERM on d0-d2 by various amounts, a little behind on d3
        per[GOOD] = {s: (a + step * (4 + rng.integers(0, 5)), b + step * rng.integers(1, 4))
                       if k < 3 else (a - step, b) for s, (a, b) in erm.items()}
        # mixup: either side of ERM; gapreg: a hair above ERM on average, never told apart
        per["mixup"] = {s: (a + step * rng.integers(-3, 4), b + step * rng.integers(-3, 4))
                        for s, (a, b) in erm.items()}
        per[SMALL] = {s: (a + step * (1 if s % 2 else -1) * (s + 1) / 2 + step / 2, b)
                        for s, (a, b) in erm.items()}
        out[dataset] = per
    return out


def make_bench(root) -> str:
    """One trial per (data set, method), re-run with every seed."""
    root = str(root)
    os.makedirs(root, exist_ok=True)
    rundir.write_json(os.path.join(root, "benchmark_config.json"),
                      {"datasets": {d: {"config": "configs/erm_digitsb.py"} for d in DATASETS},
                       "methods": list(METHODS), "seeds": list(SEEDS), "objective": "worst",
                       "splits": "per_seed"})
    k = 0
    for dataset, per_method in _test_accs().items():
        for method, by_seed in per_method.items():
            val = ERM_VAL if method == "erm" else METHOD_VAL
            name = f"000-s{SEEDS[0]}"
            for seed in SEEDS:
                k += 1
                where = (os.path.join(root, "trials", dataset, method, name) if seed == SEEDS[0]
                         else os.path.join(root, "seeds", dataset, method, name, f"s{seed}"))
                make_run(where, val, [min(1.0, max(0.0, t)) for t in by_seed[seed]], seed=seed,
                         rng_seed=k)
    return root


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    w = make_bench(tmp_path_factory.mktemp("cmp") / "w")
    out = build_report(w, plots=False, bootstrap=0)
    return w, out


def _holm_by_hand(p: dict) -> dict:
    """Holm's adjusted p-values written out: sorted ascending, the j-th (from 0) times (m - j),
    running maximum, capped at 1."""
    order = sorted(p, key=lambda k: p[k])
    out, running = {}, 0.0
    for j, key in enumerate(order):
        running = max(running, (len(order) - j) * p[key])
        out[key] = min(1.0, running)
    return out


def _recompute(results: pd.DataFrame, metric: str, level: str) -> dict:
    """{method: (differences, p, test)} from results.csv alone."""
    sel = results[(results.rule == "selected") & (results.split == "test")]
    out = {}
    for method in METHODS[1:]:
        diffs = []
        for dataset in DATASETS:
            erm = sel[(sel.dataset == dataset) & (sel.method == "erm")].set_index("seed")[metric]
            own = sel[(sel.dataset == dataset) & (sel.method == method)].set_index("seed")[metric]
            paired = [own[s] - erm[s] for s in own.index if s in erm.index]
            diffs += paired if level == "seed" else [np.mean(paired)]
        d = np.round(np.asarray(diffs), 12)
        nonzero = d[d != 0]
        ties = len(np.unique(np.abs(nonzero))) < len(nonzero)
        test = "exact" if not ties else ("permutation" if len(nonzero) <= 13 else "approx")
        p = stats.wilcoxon(nonzero).pvalue if len(nonzero) >= 2 else None  # method "auto"
        out[method] = (d, p, test if len(nonzero) >= 2 else "none")
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_comparisons_csv_agrees_with_a_recomputation_from_results_csv(report, level):
    workdir, _ = report
    results = pd.read_csv(os.path.join(workdir, "results.csv"))
    frame = pd.read_csv(os.path.join(workdir, "comparisons.csv"), keep_default_na=False,
                        na_values=[""])
    assert list(frame.columns) == COLUMNS
    assert len(frame) == 3 * 5 * 2 and set(frame.level) == {"seed", "dataset"}
    seen_tests, clamped = set(), 0
    for metric in METRICS:
        mine = frame[(frame.metric == metric) & (frame.level == level)].set_index("method")
        again = _recompute(results, metric, level)
        tested = {m: p for m, (_, p, _) in again.items() if p is not None}
        holm = _holm_by_hand(tested)
        clamped += sum(len(tested) * p > 1 for p in tested.values())
        for method, (d, p, test) in again.items():
            row = mine.loc[method]
            assert row.n_pairs == len(d) == (16 if level == "seed" else 4)
            assert row.mean_diff == pytest.approx(d.mean(), abs=1e-12)
            sign = -1 if metric == "gap" else 1
            assert (row.wins, row.ties, row.losses) == (
                (sign * d > 0).sum(), (d == 0).sum(), (sign * d < 0).sum())
            assert row.test == test
            seen_tests.add(test)
            if p is None:
                assert np.isnan(row.p) and np.isnan(row.p_holm)
            else:
                assert row.p == pytest.approx(p, rel=1e-9)
                assert row.p_holm == pytest.approx(holm[method], rel=1e-9)
                assert row.p_holm <= 1.0
    assert clamped  # some Holm product exceeds 1 here: the cap is exercised
    if level == "seed":
        assert {"exact", "approx", "permutation"} <= seen_tests
    else:
        assert {"exact", "permutation"} & seen_tests


def test_the_verdicts_of_the_data(report):
    workdir, out = report
    frame = pd.read_csv(os.path.join(workdir, "comparisons.csv"), keep_default_na=False,
                        na_values=[""]).set_index(["method", "metric", "level"])
    assert frame.loc[(GOOD, "utility", "seed"), "verdict"] == "better"
    assert frame.loc[(SMALL, "utility", "seed"), "verdict"] == "not told apart"
    # four data sets, three methods: 3 x 2 / 2^4 = 0.375 at best, the whole level says so
    assert set(frame.xs("dataset", level="level").verdict) <= {"too few pairs", "identical"}
    md = out["markdown"]
    assert ("At the dataset level no method can be told apart from ERM at alpha = 0.05, "
            "whatever its results: 4 data sets give at best p = 2 / 2^4 = 0.125, and Holm over "
            "3 methods at best min(1, 3 x 0.125) = 0.375.") in md
    assert "At the seed level" not in md
    assert "re-splits the data with its training seed (splits = per_seed)" in md


def _table2(md: str) -> dict:
    """{(data set, metric, method): (cell text, bold)} of Table 2 in the markdown."""
    lines = md.split("## Test results of the selected models")[1].split("\n\n")[2].splitlines()
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    out = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        for method, text in zip(head[2:], cells[2:]):
            bold = text.startswith("**") and text.endswith("**")
            metric = cells[1].split(" ")[0]  # "gap ↓": the metric and its direction mark
            out[(cells[0], metric, method)] = (text.strip("*"), bold)
    return out


def test_bold_cells_are_exactly_those_the_verdict_calls_better(report):
    workdir, out = report
    frame = pd.read_csv(os.path.join(workdir, "comparisons.csv"), keep_default_na=False,
                        na_values=[""])
    better = {(r.method, r.metric) for r in frame.itertuples()
              if r.level == "seed" and r.verdict == "better"}
    assert (GOOD, "utility") in better
    results = pd.read_csv(os.path.join(workdir, "results.csv"))
    sel = results[(results.rule == "selected") & (results.split == "test")]
    means = sel.groupby(["dataset", "method"])[list(METRICS)].mean()
    expected = set()
    for dataset in DATASETS:
        for metric in METRICS:
            for method in METHODS[1:]:
                d = round(means.loc[(dataset, method), metric] - means.loc[(dataset, "erm"),
                                                                           metric], 12)
                if (method, metric) in better and (d < 0 if metric == "gap" else d > 0):
                    expected.add((dataset, metric, method))
    cells = _table2(out["markdown"])
    assert len(cells) == len(DATASETS) * 5 * 4
    assert {k for k, (_, bold) in cells.items() if bold} == expected
    # groupdro trails ERM on d3: better over all data sets, not bold there
    assert ("d0", "utility", GOOD) in expected and ("d3", "utility", GOOD) not in expected
    # gapreg is above ERM's mean somewhere but not told apart: never bold
    assert any(means.loc[(d, SMALL), "utility"] > means.loc[(d, "erm"), "utility"]
               for d in DATASETS)
    assert not [k for k in expected if k[2] == SMALL]
    # the report's comparison table is comparisons.csv's rows
    table = out["markdown"].split("Paired comparisons")[1]
    for r in frame.itertuples():
        assert f"| {r.method} | {marked(r.metric)} | {r.level} | {r.n_pairs} | " \
               f"{r.wins} / {r.ties} / {r.losses} |" in table


def _info(values: dict) -> dict:
    data = {d: {m: {"runs": [{"params": {"seed": s}, "result": {"test": {"utility": v}}}
                             for s, v in enumerate(vals)]} for m, vals in per.items()}
            for d, per in values.items()}
    return {"methods": list(next(iter(values.values()))), "data": data}


def test_equal_differences_tie_after_rounding():
    """0.1 + 0.2 - 0.3 is not 0 in floating point, and 0.7 - 0.4 is not 0.4 - 0.1: rounded to
    1e-12 the differences tie, as they do in exact arithmetic."""
    erm = [0.4, 0.1, 0.2, 0.5, 0.1, 0.3]
    method = [0.7, 0.4, 0.1 + 0.2 + 0.2, 0.5 + 0.25, 0.1 + 0.125, 0.3 - 0.0625]
    raw = np.subtract(method, erm)
    assert len(np.unique(np.abs(raw))) == len(raw)  # unrounded: no tie at all
    (entry,) = paired_with_erm(_info({"a": {"erm": erm, "m": method}}), "utility")
    exact = np.array([0.3, 0.3, 0.3, 0.25, 0.125, -0.0625])
    assert entry["test"] == "permutation"
    assert entry["p"] == pytest.approx(stats.wilcoxon(exact).pvalue, rel=1e-12)
    assert wilcoxon(np.round(raw, 12)) == (entry["p"], "permutation")
    assert wilcoxon([0.0, 0.0, 0.1]) == (None, "none")
