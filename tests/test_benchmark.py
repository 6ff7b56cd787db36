"""The benchmark command: sweeps, selection, seeds, the report, resuming, several workers, and
its errors. Tiny budgets on 16-px DigitsB so that the whole flow runs in about a minute."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import numpy as np
import pytest

from nhfair_jax.benchmark import run_benchmark
from nhfair_jax.errors import UserError
from nhfair_jax.report import build_report
from nhfair_jax.methods import spec, suggest
from tests.bench_helpers import FakeTraining, bench_config, config_file as _config_file
from tests.bench_helpers import findings, postgres_url as _postgres_url
from tests.helpers import REPO, run_cli

def test_every_method_has_a_search_space_that_yields_a_valid_config():
    import optuna

    from nhfair_jax.methods import get_method, registered
    from nhfair_jax.sweep.runner import Sweeper

    sweeper = Sweeper(bench_config(), "/nonexistent", None)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for method in registered():
        params = suggest(optuna.create_study().ask(), method)
        # post-fit methods reuse ERM's training; zero-shot methods do not train
        assert ("optim.lr" in params) == spec(method).trains
        config = sweeper.run_config("digitsb", method, params, 0, base_run="/runs/erm")
        get_method(config.method)  # every drawn value is a valid hyperparameter
        for key, value in params.items():
            node = config
            for part in key.split("."):
                node = node[part]
            assert node == value
    # GroupDRO: both variants searched; alpha and gamma only in btl's sub-space
    assert spec("groupdro").space["method.variant"].options == ("standard", "btl")
    assert "method.alpha" in spec("groupdro").conditional[1]["btl"]


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    workdir = str(tmp_path_factory.mktemp("bench") / "w")
    out = run_benchmark(bench_config(), workdir)
    return workdir, out


def _dirs(workdir, kind):
    root = os.path.join(workdir, kind)
    return sorted(os.path.relpath(os.path.join(d, f), workdir)
                  for d, _, files in os.walk(root) for f in files if f == "result.json")


@pytest.mark.slow
def test_benchmark_sweeps_selects_reruns_seeds_and_reports(bench):
    import pandas as pd

    workdir, out = bench
    trials = _dirs(workdir, "trials")
    for dataset in ("digitsb", "digitsb_skew95"):
        counts = {m: sum(t.startswith(f"trials/{dataset}/{m}/") for t in trials)
                  for m in ("erm", "resampling", "dfr")}
        assert counts == {"erm": 2, "resampling": 1, "dfr": 1}
    for name in ("report.md", "report.html", "results.csv", "comparisons.csv",
                 "plots/candidates_digitsb.png", "plots/groups_digitsb_skew95.png"):
        assert os.path.getsize(os.path.join(workdir, name)) > 0, name
    frame = pd.read_csv(os.path.join(workdir, "results.csv"))
    selected = frame[frame["rule"] == "selected"]
    # every (data set, method) has a selection here, re-run with both seeds, on both splits
    assert len(selected) == 2 * 3 * 2 * 2 and set(selected["seed"]) == {0, 1}
    # two data sets: Friedman / Nemenyi is one sentence (it needs three), no CD diagram
    assert "Friedman test and Nemenyi post-hoc: not computed." in out["markdown"]
    assert not os.path.exists(os.path.join(workdir, "plots", "cd_utility.png"))
    assert "splits = per_seed" in out["markdown"]
    # DTO, recomputed independently from the ERM trials' validation accuracies per group
    for dataset in ("digitsb", "digitsb_skew95"):
        runs = [t[:-len("/result.json")] for t in trials if t.startswith(f"trials/{dataset}/erm/")]
        perf = np.array([json.load(open(os.path.join(workdir, r, "result.json")))["val"]
                         ["group_acc"] for r in runs])
        best = runs[int(np.argmin(np.linalg.norm(perf - perf.max(0), axis=1)))]
        chosen = selected[(selected.dataset == dataset) & (selected.method == "erm") &
                          (selected.seed == 0)]["run"].iloc[0]
        assert chosen == best
        # post-fit trials were fitted on the DTO baseline
        dfr = [t for t in trials if t.startswith(f"trials/{dataset}/dfr/")][0]
        params = json.load(open(os.path.join(workdir, os.path.dirname(dfr), "params.json")))
        assert os.path.basename(params["base_run"]) == os.path.basename(best)


@pytest.mark.slow
def test_report_is_rebuilt_from_run_directories_alone(bench, tmp_path):
    workdir, out = bench
    os.rename(os.path.join(workdir, "optuna.db"), tmp_path / "moved.db")  # not needed
    try:
        again = build_report(workdir, plots=False)
        assert again["markdown"].split("## Plots")[0].strip() == \
            out["markdown"].split("## Plots")[0].strip()
        proc = run_cli("--workdir", workdir, "--no-plots", module="nhfair_jax.report")
        assert proc.returncode == 0, proc.stderr
        assert "Fairness-without-harm zones" in proc.stdout
    finally:
        os.rename(tmp_path / "moved.db", os.path.join(workdir, "optuna.db"))


@pytest.mark.slow
def test_running_again_trains_nothing_and_another_config_is_refused(bench):
    workdir, _ = bench
    stamps = {d: os.path.getmtime(os.path.join(workdir, d)) for d in _dirs(workdir, "trials") +
              _dirs(workdir, "seeds")}
    run_benchmark(bench_config(), workdir, report=False)
    after = {d: os.path.getmtime(os.path.join(workdir, d)) for d in _dirs(workdir, "trials") +
             _dirs(workdir, "seeds")}
    assert after == stamps
    with pytest.raises(UserError, match="different benchmark config .*seeds"):
        run_benchmark(bench_config(seeds=(0, 2)), workdir)  # (a raised budget continues it)


@pytest.mark.parametrize("change, message", [
    ({"methods": ("erm", "nosuch")}, r"unknown method\(s\) \['nosuch'\]"),
    ({"methods": ("gapreg",)}, "must include 'erm'"),
])
def test_bad_benchmark_configs_are_one_clear_error(tmp_path, change, message):
    with pytest.raises(UserError, match=message):
        run_benchmark(bench_config(**change), str(tmp_path / "w"))


@pytest.mark.slow
def test_unknown_data_set_and_unreachable_storage(tmp_path):
    c = bench_config(datasets=("digitsb",))
    bad = tmp_path / "erm_bad.py"
    bad.write_text(f"import sys\nsys.path.insert(0, {REPO!r})\n"
                   "from tests.helpers import tiny_config\n"
                   "def get_config():\n    c = tiny_config()\n    c.data.name = 'mnistb'\n"
                   "    return c\n")
    c.datasets.digitsb.config = str(bad)
    with pytest.raises(UserError, match="unknown data set 'mnistb'"):
        run_benchmark(c, str(tmp_path / "a"))
    typo = bench_config(datasets=("digitsb",))
    typo.overrides.train.epoch = 3  # not a config key
    with pytest.raises(UserError, match="unknown config key 'train.epoch'"):
        run_benchmark(typo, str(tmp_path / "c"))
    with pytest.raises(UserError, match="cannot open the study storage postgresql://"):
        run_benchmark(bench_config(), str(tmp_path / "b"),
                      "postgresql://nobody:x@127.0.0.1:9/none?connect_timeout=2")


def _sweep(workdir, trials, fake):
    from nhfair_jax.sweep.runner import Sweeper, open_storage, storage_url

    bench = bench_config(datasets=("digitsb",), methods=("erm",), erm_trials=trials)
    os.makedirs(workdir, exist_ok=True)
    store = open_storage(storage_url(None, workdir), 2, 6)
    Sweeper(bench, workdir, store, log=lambda *_: None).sweep("digitsb", "erm")
    import optuna

    return optuna.load_study(study_name="digitsb/erm", storage=store)


def test_a_sweep_trains_exactly_its_budget_of_trials_each_in_a_directory_of_its_parameters(
        tmp_path, monkeypatch):
    """Fast (no training): the budget is the number of finished trials, not one more; each
    trial's run directory is named by its parameters, holds them, and is trained once; a rerun
    of the finished sweep trains nothing."""
    from optuna.trial import TrialState

    fake = FakeTraining(monkeypatch)
    workdir = str(tmp_path / "w")
    study = _sweep(workdir, 3, fake)
    complete = [t for t in study.trials if t.state == TrialState.COMPLETE]
    assert len(complete) == 3 and len(fake.calls) == 3
    dirs = [c[0] for c in fake.calls]
    assert len(set(dirs)) == 3  # three configurations, three directories
    for trial in complete:
        run_dir = os.path.join(workdir, trial.user_attrs["run_dir"])
        stored = json.load(open(os.path.join(run_dir, "params.json")))["params"]
        assert stored == trial.params
        assert json.load(open(os.path.join(run_dir, "config.json")))["optim"]["lr"] == \
            trial.params["optim.lr"]
    _sweep(workdir, 3, fake)
    assert len(fake.calls) == 3  # finished: nothing trained again


def test_run_directories_are_named_by_data_set_method_parameters_and_seed():
    from nhfair_jax.sweep.runner import Sweeper

    sweeper = Sweeper(bench_config(), "/w", None)
    a = {"optim.lr": 1e-3, "optim.name": "adam"}
    name = sweeper.run_dir("trials", "digitsb", "erm", a, 0)
    assert name == sweeper.run_dir("trials", "digitsb", "erm", dict(reversed(a.items())), 0)
    others = [sweeper.run_dir("trials", "digitsb", "erm", {**a, "optim.lr": 2e-3}, 0),
              sweeper.run_dir("trials", "digitsb", "erm", {**a, "optim.name": "sgd"}, 0),
              sweeper.run_dir("trials", "digitsb", "erm", a, 1),
              sweeper.run_dir("trials", "digitsb_skew95", "erm", a, 0),
              sweeper.run_dir("trials", "digitsb", "gapreg", a, 0),
              sweeper.run_dir("trials", "digitsb", "dfr", a, 0, base_run="/w/trials/x")]
    assert len({name, *others}) == 7


def _wait_for(predicate, timeout=240):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow
def test_a_killed_worker_is_resumed_and_its_trial_retried_with_the_same_parameters(tmp_path):
    import optuna

    config = _config_file(tmp_path, datasets=("digitsb",), methods=("erm",), erm_trials=2,
                          seeds=(0,), epochs=3)
    workdir = str(tmp_path / "w")
    args = [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
            workdir, "--no_report"]
    proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    erm = os.path.join(workdir, "trials", "digitsb", "erm")

    def checkpointed():  # the first trial has saved an epoch, and is not finished
        if not os.path.isdir(erm):
            return False
        for d in os.listdir(erm):
            if os.path.exists(os.path.join(erm, d, "log.jsonl")) and \
                    os.path.getsize(os.path.join(erm, d, "log.jsonl")) > 0:
                return not os.path.exists(os.path.join(erm, d, "result.json"))
        return False

    assert _wait_for(checkpointed), proc.communicate()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed = os.listdir(erm)[0]
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "lost its worker" in done.stderr
    study = optuna.load_study(study_name="digitsb/erm",
                              storage=f"sqlite:///{os.path.join(workdir, 'optuna.db')}")
    states = [t.state.name for t in study.trials]
    assert states.count("COMPLETE") == 2 and states.count("FAIL") == 1
    complete = [t for t in study.trials if t.state.name == "COMPLETE"]
    failed = [t for t in study.trials if t.state.name == "FAIL"][0]
    retried = [t for t in complete if t.user_attrs.get("retry_of") == failed.number]
    assert len(retried) == 1 and retried[0].params == failed.params
    assert retried[0].user_attrs["run_dir"].endswith(killed)  # resumed in its own directory
    assert len({t.user_attrs["run_dir"] for t in complete}) == 2
    log = [json.loads(line) for line in open(os.path.join(erm, killed, "log.jsonl"))]
    assert [e["epoch"] for e in log] == [1, 2, 3]  # each epoch once: resumed, not restarted


@contextlib.contextmanager
def _shared_storage(kind, tmp_path):
    """A new study storage that several workers share: a PostgreSQL database (dropped after
    the test) or a journal file."""
    if kind == "journal":
        yield f"journal://{tmp_path / 'shared' / 'study.log'}"
        return
    import psycopg

    server = _postgres_url()
    name = f"nhfair_test_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(server, autocommit=True)
    admin.execute(f"CREATE DATABASE {name}")
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["postgresql", "journal"])
def test_two_workers_share_one_study_and_report_as_sqlite(tmp_path, kind):
    import optuna

    from nhfair_jax.sweep.runner import open_storage

    with _shared_storage(kind, tmp_path) as url:
        kw = dict(datasets=("digitsb",), methods=("erm", "resampling"), trials=2,
                  erm_trials=3, seeds=(0, 1))
        config = _config_file(tmp_path, **kw)
        shared = str(tmp_path / "pg")
        args = [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
                shared, "--storage", url, "--no_report"]
        workers = [subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [w.communicate(timeout=900) for w in workers]
        for w, (_, err) in zip(workers, outputs):
            assert w.returncode == 0, err
        ran = "\n".join(err for _, err in outputs)
        store = open_storage(url, 2, 6)
        for method, budget in (("erm", 3), ("resampling", 2)):
            study = optuna.load_study(study_name=f"digitsb/{method}", storage=store)
            complete = [t for t in study.trials if t.state.name == "COMPLETE"]
            assert len(complete) == budget
            assert len({t.user_attrs["run_dir"] for t in complete}) == budget
            assert all(t.state.name in ("COMPLETE", "PRUNED") for t in study.trials)
            assert ran.count(f"[digitsb/{method}] trial ") == budget  # each trained once
        both_workers = {t.user_attrs["pid"] for m in ("erm", "resampling")
                        for t in optuna.load_study(study_name=f"digitsb/{m}",
                                                   storage=store).trials if "pid" in t.user_attrs}
        assert len(both_workers) == 2
        shared_report = findings(build_report(shared, plots=False)["markdown"])
        alone = str(tmp_path / "sqlite")
        run_benchmark(bench_config(**kw), alone, report=False)
        assert findings(build_report(alone, plots=False)["markdown"]) == shared_report


@pytest.mark.slow
def test_pruned_trials_count_toward_the_budget_stop_early_and_are_never_candidates(
        tmp_path, monkeypatch):
    """Fast (no training): with the median pruner on the sweep objective (here val worst, to be
    maximised), a trial whose value after an epoch is below the median of the earlier trials'
    at that epoch stops there: its run directory keeps the epochs it trained and pruned.json,
    it is no selection candidate and it counts toward the budget, so the sweep trains as many
    trials as without pruning, some of them shorter. A rerun trains nothing; a pruned run
    directory reached again is not trained again."""
    from optuna.trial import TrialState

    from nhfair_jax.errors import RunPruned
    from nhfair_jax.rundir import RunDir
    from nhfair_jax.sweep import collect
    from nhfair_jax.sweep.runner import Sweeper, open_storage, pruned_by_pruner, storage_url

    fake = FakeTraining(monkeypatch)
    workdir = str(tmp_path / "w")
    bench = bench_config(datasets=("digitsb",), methods=("erm",), erm_trials=8, epochs=4)
    bench.startup_trials = 2
    with bench.unlocked():
        bench.prune = "median"
    os.makedirs(workdir, exist_ok=True)
    store = open_storage(storage_url(None, workdir), 2, 6)
    sweeper = Sweeper(bench, workdir, store, log=lambda *_: None)
    sweeper.sweep("digitsb", "erm")
    study = sweeper.study("digitsb", "erm")
    pruned = [t for t in study.trials if pruned_by_pruner(t)]
    complete = [t for t in study.trials if t.state == TrialState.COMPLETE]
    assert pruned and len(pruned) + len(complete) == 8 == len(fake.calls)
    assert sweeper.finished_trials("digitsb", "erm") == 8
    for t in study.trials[:2]:  # the startup trials always train to the end
        assert t.state == TrialState.COMPLETE
    for t in pruned:
        # epoch 1 is the warm-up; the fake's value is the same every epoch, so the pruner
        # stops a trial at its first prunable epoch: below the earlier trials' median there
        assert t.user_attrs["pruned_after_epoch"] == 2
        earlier = [u.intermediate_values[2] for u in study.trials[:t.number]
                   if 2 in u.intermediate_values]
        assert t.intermediate_values[2] < np.median(earlier)
        run_dir = os.path.join(workdir, t.user_attrs["run_dir"])
        assert json.load(open(os.path.join(run_dir, "pruned.json")))["epoch"] == 2
        assert not os.path.exists(os.path.join(run_dir, "result.json"))
        assert len(open(os.path.join(run_dir, "log.jsonl")).readlines()) == 2
    folder = os.path.join(workdir, "trials", "digitsb", "erm")
    monkeypatch.setattr(collect, "load_run", lambda d: {"dir": d} if RunDir(d).finished else None)
    candidates = {r["dir"] for r in collect.candidates(workdir, "digitsb", "erm")}
    assert len(os.listdir(folder)) == 8
    assert candidates == {os.path.join(workdir, t.user_attrs["run_dir"]) for t in complete}
    assert [p["epochs"] for p in collect.pruned_trials(workdir, "digitsb", "erm")] == \
        [2] * len(pruned)
    sweeper.sweep("digitsb", "erm")
    assert len(fake.calls) == 8  # the budget holds the pruned trials: nothing trained again
    with pytest.raises(RunPruned):
        sweeper.train("trials", "digitsb", "erm", pruned[0].params, 0)
    assert len(fake.calls) == 8


def test_runs_split_the_data_with_their_seed_unless_the_split_is_fixed(tmp_path):
    """Issue 50: the benchmark paper's code re-splits the data with each training seed; the
    default follows it, "fixed" keeps the data config's split for every run."""
    from nhfair_jax.benchmark import validate
    from nhfair_jax.sweep.runner import Sweeper

    params = {"optim.lr": 1e-3}
    bench = bench_config()
    validate(bench)  # fills in the default
    assert bench.splits == "per_seed"
    sweeper = Sweeper(bench, "/w", None)
    assert [sweeper.run_config("digitsb", "erm", params, s).data.split_seed
            for s in (0, 3)] == [0, 3]
    assert sweeper.run_config("digitsb", "dfr", {}, 3, base_run="/w/erm").data.split_seed == 3
    with bench.unlocked():
        bench.splits = "fixed"
        bench.datasets.digitsb.overrides = {"data": {"split_seed": 7}}
    assert [sweeper.run_config("digitsb", "erm", params, s).data.split_seed
            for s in (0, 3)] == [7, 7]
    with bench.unlocked():
        bench.splits = "random"
    with pytest.raises(UserError, match="splits must be one of per_seed, fixed, got 'random'"):
        run_benchmark(bench, str(tmp_path / "w"))


def test_an_unknown_pruner_is_one_clear_error(tmp_path):
    bench = bench_config(datasets=("digitsb",), methods=("erm",))
    with bench.unlocked():
        bench.prune = "hyperband"
    with pytest.raises(UserError, match="prune must be one of median, halving"):
        run_benchmark(bench, str(tmp_path / "w"))


@pytest.mark.slow
def test_a_pruned_real_run_keeps_its_epochs_and_is_not_trained_again(tmp_path):
    """The training loop's side of pruning: the pruner's exception after epoch 2 of a real run
    stops it there with two epochs logged and checkpointed and pruned.json written; reaching the
    directory again trains nothing, even with a hook that would not prune."""
    from nhfair_jax.errors import RunPruned
    from nhfair_jax.rundir import RunDir
    from nhfair_jax.sweep.runner import Sweeper

    bench = bench_config(datasets=("digitsb",), methods=("erm",), epochs=4)
    with bench.unlocked():
        bench.prune = "median"
    sweeper = Sweeper(bench, str(tmp_path / "w"), None, log=lambda *_: None)
    params = {"optim.lr": 1e-3, "optim.name": "adam", "optim.weight_decay": 0.0}
    seen = []

    def prune_after_two(epoch, entry):
        seen.append((epoch, entry["selectable"], entry["val_worst"]))
        if epoch == 2:
            raise RunPruned(epoch, entry["val_worst"])

    with pytest.raises(RunPruned):
        sweeper.train("trials", "digitsb", "erm", params, 0, on_epoch=prune_after_two)
    run = RunDir(sweeper.run_dir("trials", "digitsb", "erm", params, 0))
    assert [e for e, _, _ in seen] == [1, 2] and all(s for _, s, _ in seen)
    assert run.pruned() == {"epoch": 2, "value": seen[-1][2], "pruner": "median"}
    assert run.epochs_logged() == 2 and not run.finished
    assert sorted(os.listdir(run.checkpoints))[-1].startswith("epoch_2")
    with pytest.raises(RunPruned):
        sweeper.train("trials", "digitsb", "erm", params, 0, on_epoch=lambda *_: None)
    assert run.epochs_logged() == 2 and not run.finished
