"""benchmarks/pruning.py on a tiny finished benchmark: the epochs it counts are the runs' own,
no pruner saves nothing and changes nothing, and the median rule's stops equal those of the
rule worked out here from the runs' logs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.bench_helpers import bench_config
from tests.helpers import REPO

sys.path.insert(0, os.path.join(REPO, "benchmarks"))


def _median_stops(trials, warmup: int, startup: int, maximize: bool = False) -> dict:
    """The median rule in trial order: a trial stops at the first epoch >= warmup where its best
    value so far is worse than the median of the completed trials' values at that epoch (once
    `startup` trials have completed); best and worse in the objective's direction."""
    best, worse = (max, lambda a, b: a < b) if maximize else (min, lambda a, b: a > b)
    completed, stops = [], {}
    for name, values in trials:
        stops[name] = None
        for epoch, _ in enumerate(values, 1):
            at = [v[epoch - 1] for v in completed if len(v) >= epoch]
            if len(completed) >= startup and epoch >= warmup and at and \
                    worse(best(values[:epoch]), float(np.percentile(at, 50))):
                stops[name] = epoch
                break
        if stops[name] is None:
            completed.append(values)
    return stops


def test_the_replay_stops_the_trials_the_median_rule_stops_at_their_epochs():
    import pruning

    rng = np.random.default_rng(0)
    trials = []
    for i in range(12):  # decreasing losses, some far above the others from an early epoch
        values = list(np.cumsum(-rng.uniform(0.01, 0.1, 6)) + 1.0 + (0.5 if i % 3 == 2 else 0))
        trials.append({"dir": f"t{i}", "value": min(values),
                       "log": [{"epoch": e, "val_loss": v} for e, v in enumerate(values, 1)]})
    make = pruning.pruners()["median, 2 start-up trials, 2 warm-up epochs"]
    got = pruning.replay(trials, "val_loss", "minimize", make)
    stops = _median_stops([(t["dir"], [e["val_loss"] for e in t["log"]]) for t in trials],
                          warmup=2, startup=2)
    assert got == {d: (6, False) if s is None else (s, True) for d, s in stops.items()}
    assert sum(s is not None for s in stops.values()) >= 3  # the check has stops to compare
    flipped = [{**t, "log": [{**e, "val_loss": -e["val_loss"]} for e in t["log"]]} for t in trials]
    assert pruning.replay(flipped, "val_loss", "maximize", make) == got  # the direction's mirror
    none = pruning.replay(trials, "val_loss", "minimize", pruning.pruners()["none"])
    assert none == {t["dir"]: (6, False) for t in trials}


@pytest.mark.slow
def test_pruning_replay_counts_the_runs_epochs_and_applies_the_median_rule(tmp_path):
    import optuna

    from nhfair_jax.benchmark import run_benchmark
    from nhfair_jax.rundir import RunDir, read_json
    from nhfair_jax.sweep.runner import OBJECTIVES, open_storage, storage_url

    workdir = str(tmp_path / "w")
    run_benchmark(bench_config(datasets=("digitsb",), methods=("erm", "resampling", "dfr"),
                               trials=3, erm_trials=5, seeds=(0,), epochs=4), workdir,
                  report=False)
    out = tmp_path / "pruning.json"
    proc = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks", "pruning.py"),
                           "--workdir", workdir, "--json", str(out)], capture_output=True,
                          text=True, timeout=600, cwd=REPO, env={**os.environ, "PYTHONPATH": REPO})
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = {r["pruner"]: r for r in json.loads(out.read_text())["rows"]}
    objective = read_json(os.path.join(workdir, "benchmark_config.json"))["objective"]
    key, maximize = f"val_{objective}", OBJECTIVES[objective] == "maximize"
    store = open_storage(storage_url(None, workdir), 2, 6)
    logs = {}
    for method in ("erm", "resampling"):
        study = optuna.load_study(study_name=f"digitsb/{method}", storage=store)
        trials = sorted((t for t in study.trials if t.state.name == "COMPLETE"),
                        key=lambda t: t.number)
        logs[method] = [(t.user_attrs["run_dir"], [e[key] for e in RunDir(
            os.path.join(workdir, t.user_attrs["run_dir"])).log()]) for t in trials]
    epochs = sum(len(v) for method in logs.values() for _, v in method)
    assert epochs == 8 * 4  # 5 ERM and 3 resampling trials of 4 epochs; DFR trains none
    none = rows["none"]
    assert (none["trials"], none["pruned"], none["epochs"], none["epochs_pruned"],
            none["saved"], none["selections_changed"]) == (8, 0, epochs, epochs, 0, "none")
    stops = {}
    for method in logs.values():
        stops.update(_median_stops(method, warmup=2, startup=2, maximize=maximize))
    median = rows["median, 2 start-up trials, 2 warm-up epochs"]
    assert median["pruned"] == sum(s is not None for s in stops.values())
    assert median["epochs_pruned"] == sum(s if s is not None else 4 for s in stops.values())
    for row in rows.values():
        assert row["epochs"] == epochs and row["epochs_pruned"] <= epochs
        assert (row["pruned"] == 0) == (row["epochs_pruned"] == epochs)
