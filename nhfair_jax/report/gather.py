"""Everything the report shows, read from the run directories of a benchmark workdir alone.

The layout is the one `nhfair_jax.sweep.collect` reads: `benchmark_config.json` at the top,
`trials/<data set>/<method>/<trial>/` and `seeds/<data set>/<method>/<trial>/s<k>/`, each run
directory with params.json, config.json, result.json and predictions_<split>.npz.
"""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax import metrics, rundir
from nhfair_jax.errors import UserError
from nhfair_jax.methods.registry import BASELINE
from nhfair_jax.metrics.bootstrap import bootstrap
from nhfair_jax.selection import fwh_zone
from nhfair_jax.sweep import collect

CSV_METRICS = ("utility", "worst", "gap", "acc", "worst_acc", "gap_acc", "auc", "worst_auc",
               "gap_auc", "dp", "eqodd", "dp_mean", "eqodd_ovr", "eqopp", "loss")
# The report's figures with a bootstrap interval, and their names in a fairness report for a
# data set whose utility is `u` (acc or auc).
INTERVAL_METRICS = ("utility", "worst", "gap", "dp", "eqodd")


def _interval_key(metric: str, utility: str) -> str:
    return {"utility": utility, "worst": f"worst_{utility}",
            "gap": f"gap_{utility}"}.get(metric, metric)


def read_bench_config(workdir: str) -> dict:
    """The workdir's benchmark_config.json; a one-line error when DIR is not a benchmark workdir."""
    path = os.path.join(workdir, "benchmark_config.json")
    if not os.path.isfile(path):
        raise UserError(f"{workdir} is not a benchmark workdir: no benchmark_config.json; run "
                        "nhfair_jax.benchmark first")
    return rundir.read_json(path)


def gather(workdir: str, *, bootstrap: int = 0) -> dict:
    """The selections, seed runs and test zones of every (data set, method).

    Args:
      workdir: the benchmark directory.
      bootstrap: resamples for the test intervals of every selected run (0: none).

    Returns:
      {"bench", "methods" (ERM first), "workdir", "data": {data set: {method: entry}},
       "intervals": whether intervals were computed}; an entry holds "selection" (from
      `collect.select`), "runs" (the selected configuration's runs, by seed), "test_group" (mean
      per-group test utility over seeds) and "test_zone". Each run of "runs" gets "interval":
      {metric: (lo, hi)} on test when intervals are computed.
    """
    bench = read_bench_config(workdir)
    methods = [BASELINE, *[m for m in bench["methods"] if m != BASELINE]]
    data = {}
    for dataset in bench["datasets"]:
        selection = collect.select(workdir, dataset, methods)
        if not selection:
            continue
        per_method = {}
        for method in methods:
            sel = selection.get(method, {"selected": None, "candidates": [], "m_rule": None,
                                         "zone": None})
            runs = collect.seed_runs(workdir, dataset, method, sel["selected"]) \
                if sel["selected"] is not None else []
            if bootstrap > 0:
                for run in runs:
                    run["interval"] = bootstrap_interval(run, n=bootstrap)
            test_group = np.nanmean(np.stack([r["group"]["test"] for r in runs]), 0) \
                if runs else None
            per_method[method] = {"selection": sel, "runs": runs, "test_group": test_group,
                                  "pruned": collect.pruned_trials(workdir, dataset, method)}
        erm_test = per_method[BASELINE]["test_group"]
        for method, entry in per_method.items():
            entry["test_zone"] = (fwh_zone(erm_test, entry["test_group"])
                                  if method != BASELINE and entry["test_group"] is not None
                                  and erm_test is not None else None)
        data[dataset] = per_method
    return {"bench": bench, "methods": methods, "data": data, "workdir": workdir,
            "intervals": bootstrap > 0}


def bootstrap_interval(run: dict, *, n: int, seed: int = 0, confidence: float = 0.95) -> dict:
    """{metric: (lo, hi)} of one run's test figures: a percentile bootstrap over its test
    predictions (stratified by group), or {} when the run has no predictions_test.npz."""
    path = os.path.join(run["dir"], "predictions_test.npz")
    if not os.path.exists(path):
        return {}
    with np.load(path) as f:
        label, group = f["label"], f["group"]
        score = f["score"] if "score" in f else _softmax(f["logits"])
    result = run["result"]
    num_classes = int(result.get("num_classes") or score.shape[1])
    num_groups = result.get("num_groups")
    # scores only where the utility is AUC: without them the bootstrap takes its fast count path
    use_score = run["utility"] == "auc" and num_classes == 2
    out = bootstrap(metrics.fairness_report, label, score.argmax(axis=1), group,
                    y_score=score[:, 1] if use_score else None, n=n, seed=seed,
                    confidence=confidence, num_classes=num_classes,
                    num_groups=None if num_groups is None else int(num_groups))
    intervals = {}
    for metric in INTERVAL_METRICS:
        entry = out.get(_interval_key(metric, run["utility"]))
        if entry is not None and entry.get("lo") is not None and np.isfinite(entry["lo"]) \
                and np.isfinite(entry["hi"]):
            intervals[metric] = (float(entry["lo"]), float(entry["hi"]))
    return intervals


def _softmax(logits):
    z = np.asarray(logits, np.float64)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def results_rows(info: dict) -> list[dict]:
    """One row per (data set, method, rule, seed, split) with every metric as a fraction; the
    selected runs' test rows carry `<metric>_lo` / `<metric>_hi` bootstrap bounds when computed."""
    rows = []
    for dataset, per_method in info["data"].items():
        for method, entry in per_method.items():
            sel = entry["selection"]
            runs = [("selected", r) for r in entry["runs"]]
            if sel["m_rule"] is not None:
                runs.append(("m_rule", sel["m_rule"]))
            for rule, run in runs:
                for split in ("val", "test"):
                    res = run["result"][split]
                    row = {"dataset": dataset, "method": method, "rule": rule,
                           "seed": run["params"]["seed"], "split": split,
                           "run": os.path.relpath(run["dir"], info["workdir"]),
                           "zone_val": sel["zone"] if rule == "selected" else None}
                    row.update({k: res.get(k) for k in CSV_METRICS})
                    if info.get("intervals"):
                        interval = run.get("interval", {}) if split == "test" and \
                            rule == "selected" else {}
                        for metric in INTERVAL_METRICS:
                            lo, hi = interval.get(metric, (None, None))
                            row[f"{metric}_lo"], row[f"{metric}_hi"] = lo, hi
                    rows.append(row)
    return rows


def plane(info: dict, dataset: str) -> dict:
    """The two groups Figure 2 plots: for two groups, groups 0 (x) and 1 (y); for more, the ERM
    baseline's worst validation group (x) against its best one (y). "worst_axis" says which
    axis holds the disadvantaged group (fwh_zone's worst group: the first minimum)."""
    erm = info["data"][dataset][BASELINE]["selection"]["selected"]
    base = erm["group"]["val"]
    names = list(erm["result"].get("group_names") or [])
    names += [f"group {g}" for g in range(len(names), len(base))]
    worst = int(np.nanargmin(base))
    if len(base) == 2:
        axes = (0, 1)
    else:
        best = int(np.nanargmax(base))
        axes = (worst, best)
    return {"axes": axes, "names": [names[a] for a in axes], "worst_axis": axes.index(worst),
            "num_groups": len(base), "utility": erm["utility"]}
