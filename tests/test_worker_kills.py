"""Workers killed at random moments, several times in one sweep (issue 52): kill -9 as the OOM
killer or a lost node would, each time a fresh worker started in its place (as a requeued job),
then the command run once more. The finished studies must be those of one undisturbed worker:
the same trials complete, each once; the same seed runs; every run's log and numbers those of
the same run undisturbed; no epoch logged twice; the report written, with the same findings.

On a journal file always; on PostgreSQL where NHFAIR_PG_URL names a server (CI starts one).
The kill schedule comes from a seeded random generator; its seed is in every failure message.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
import uuid

import pytest

from tests.bench_helpers import bench_config, config_file, findings, postgres_url, worker_args
from tests.helpers import REPO, log_without_timings

KW = dict(datasets=("digitsb",), methods=("erm", "resampling"), trials=2, erm_trials=2,
          seeds=(0, 1), epochs=3)
KILLS = 3


def _start(args):
    return subprocess.Popen(args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def _finished_runs(workdir) -> dict:
    """{run directory relative to the workdir: its result} of every finished run."""
    out = {}
    for folder, _, files in os.walk(workdir):
        if "result.json" in files:
            with open(os.path.join(folder, "result.json")) as f:
                out[os.path.relpath(folder, workdir)] = json.load(f)
    return out


def _complete_trials(storage_url) -> dict:
    """{study name: sorted parameters of its COMPLETE trials}."""
    import optuna

    from nhfair_jax.sweep.runner import open_storage

    store = open_storage(storage_url, 2, 6)
    out = {}
    for summary in optuna.get_all_study_summaries(store):
        trials = optuna.load_study(study_name=summary.study_name, storage=store).trials
        out[summary.study_name] = sorted(json.dumps(t.params, sort_keys=True) for t in trials
                                         if t.state.name == "COMPLETE")
    return out


def _lock_holders(workdir) -> set[int]:
    """Pids holding the flock of a run directory under `workdir` (from /proc/locks)."""
    inodes = {str(os.stat(os.path.join(folder, ".lock")).st_ino)
              for folder, _, files in os.walk(workdir) if ".lock" in files}
    with open("/proc/locks") as f:
        return {int(p[4]) for p in (line.split() for line in f)
                if "FLOCK" in p and p[5].rsplit(":", 1)[-1] in inodes}


def _sweep_with_kills(tmp_path, storage, seed):
    """Two workers; KILLS times, after a random pause and once a worker holds a run directory's
    lock (a minute at most), a random one of those (else of the live ones) is killed -9 and a
    fresh one started; then the survivors
    finish and the command runs once more (reporting). Returns (workdir, kills, kills of a
    worker that held a run lock)."""
    rng = random.Random(seed)
    config = config_file(tmp_path, **KW)
    workdir = str(tmp_path / "killed")
    workers = [_start(worker_args(config, workdir, storage)) for _ in range(2)]
    killed, holding = [], 0
    for _ in range(KILLS):
        time.sleep(rng.uniform(0.5, 4.0))
        deadline = time.time() + 60  # a fresh worker imports and compiles before it trains
        while True:
            alive = [w for w in workers if w.poll() is None]
            holders = [w for w in alive if w.pid in _lock_holders(workdir)]
            if holders or not alive or time.time() > deadline:
                break
            time.sleep(rng.uniform(0.05, 0.5))
        if not alive:
            break
        victim = rng.choice(holders or alive)
        holding += bool(holders)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        killed.append(victim)
        workers.append(_start(worker_args(config, workdir, storage)))
    survivors = [w for w in workers if w not in killed]
    for w in survivors:
        _, err = w.communicate(timeout=900)
        assert w.returncode == 0, f"seed {seed}: {err[-3000:]}"
    rerun = subprocess.run(worker_args(config, workdir, storage, report=True), cwd=REPO,
                           capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, f"seed {seed}: {rerun.stderr[-3000:]}"
    return workdir, len(killed), holding


def _dead_worker_trial(study, workdir, params=None):
    """A RUNNING trial of a worker that has since died, killed before it drew its parameters
    (`params`: those a retry was enqueued with, still undrawn)."""
    from nhfair_jax.sweep.liveness import WorkerMark

    if params is not None:
        study.enqueue_trial(params, user_attrs={"retry_of": 99, "draw_number": 99})
    trial = study.ask()
    gone = WorkerMark(workdir)
    trial.set_user_attr("worker", gone.name)
    gone.release()
    return trial


def test_a_trial_lost_before_drawing_is_retried_with_the_draw_it_would_have_made(tmp_path):
    """A worker killed between creating a trial and drawing its parameters: the retry draws
    what that trial would have drawn, the next new trial what the next undisturbed one drew
    (the retry's trial number notwithstanding), and a retry killed so keeps the parameters it
    was enqueued with: the study's trials stay those of an undisturbed sweep."""
    from nhfair_jax.methods import suggest
    from nhfair_jax.sweep.runner import Sweeper, open_storage

    bench = bench_config(datasets=("digitsb",), methods=("erm",), erm_trials=3)
    undisturbed = Sweeper(bench, str(tmp_path / "a"),
                          open_storage(f"journal://{tmp_path / 'a.log'}", 2, 6))
    study = undisturbed.study("digitsb", "erm")
    expected = [suggest(study.ask(), "erm") for _ in range(3)]
    assert len({json.dumps(e, sort_keys=True) for e in expected}) == 3

    sweeper = Sweeper(bench, str(tmp_path / "b"),
                      open_storage(f"journal://{tmp_path / 'b.log'}", 2, 6), log=lambda m: None)
    study = sweeper.study("digitsb", "erm")
    lost = _dead_worker_trial(study, str(tmp_path / "b"))
    assert lost.number == 0 and lost.params == {}
    sweeper._fail_lost(study)
    retry = study.ask()
    assert retry.user_attrs == {"retry_of": 0, "draw_number": 0}
    assert suggest(retry, "erm") == expected[0]
    fresh = study.ask()
    assert fresh.number == 2 and suggest(fresh, "erm") == expected[1]
    second = _dead_worker_trial(study, str(tmp_path / "b"), params=expected[2])
    sweeper._fail_lost(study)
    again = study.ask()
    assert again.user_attrs["retry_of"] == second.number
    assert suggest(again, "erm") == expected[2]


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory):
    """One worker alone on a journal file: the reference workdir and its studies."""
    from nhfair_jax.benchmark import run_benchmark

    folder = tmp_path_factory.mktemp("undisturbed")
    storage = f"journal://{folder / 'study.log'}"
    workdir = str(folder / "w")
    run_benchmark(bench_config(**KW), workdir, storage)
    return workdir, _complete_trials(storage)


def _trials(storage_url) -> list:
    import optuna

    from nhfair_jax.sweep.runner import open_storage

    store = open_storage(storage_url, 2, 6)
    return [(s.study_name, t) for s in optuna.get_all_study_summaries(store)
            for t in optuna.load_study(study_name=s.study_name, storage=store).trials]


def _failed_trials(storage_url) -> int:
    return sum(t.state.name == "FAIL" for _, t in _trials(storage_url))


def _history(storage_url) -> str:
    """Every trial of every study, for a failure's message."""
    return "\n".join(f"{name} {t.number} {t.state.name} {t.params} {t.user_attrs} "
                     f"{ {k: v for k, v in t.system_attrs.items() if 'retry' in k or 'fail' in k} }"
                     for name, t in _trials(storage_url))


def _compare(workdir, storage, undisturbed, seed):
    ref_dir, ref_trials = undisturbed
    print(f"seed {seed}: {_failed_trials(storage)} trial(s) failed with their worker and were "
          "retried")
    assert _complete_trials(storage) == ref_trials, \
        f"seed {seed}: the studies differ:\n{_history(storage)}"
    runs, ref_runs = _finished_runs(workdir), _finished_runs(ref_dir)
    assert sorted(runs) == sorted(ref_runs), f"seed {seed}: other runs finished"
    for rel, result in runs.items():
        log = log_without_timings(os.path.join(workdir, rel))
        epochs = [entry["epoch"] for entry in log]
        assert epochs == list(range(1, len(epochs) + 1)), f"seed {seed}: {rel} logged {epochs}"
        assert log == log_without_timings(os.path.join(ref_dir, rel)), f"seed {seed}: {rel}"
        for split in ("val", "test"):
            assert result[split] == ref_runs[rel][split], f"seed {seed}: {rel} {split}"
    from nhfair_jax.report import build_report

    assert os.path.getsize(os.path.join(workdir, "report.md")) > 0
    assert findings(build_report(workdir, plots=False)["markdown"]) == findings(
        build_report(ref_dir, plots=False)["markdown"])


@pytest.mark.slow
def test_workers_killed_at_random_on_a_journal_finish_as_one_undisturbed_worker(
        tmp_path, undisturbed):
    seed = int(os.environ.get("NHFAIR_KILL_SEED", "52"))
    storage = f"journal://{tmp_path / 'shared' / 'study.log'}"
    workdir, kills, holding = _sweep_with_kills(tmp_path, storage, seed)
    assert kills >= 2 and holding >= 1, f"seed {seed}: {kills} kills, {holding} mid-run"
    _compare(workdir, storage, undisturbed, seed)


@pytest.mark.slow
def test_workers_killed_at_random_on_postgresql_finish_as_one_undisturbed_worker(
        tmp_path, undisturbed):
    import psycopg

    server = postgres_url()
    name = f"nhfair_kill_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(server, autocommit=True)
    admin.execute(f"CREATE DATABASE {name}")
    try:
        storage = server.rsplit("/", 1)[0] + "/" + name
        seed = int(os.environ.get("NHFAIR_KILL_SEED", "52"))
        workdir, kills, holding = _sweep_with_kills(tmp_path, storage, seed)
        assert kills >= 2 and holding >= 1, f"seed {seed}: {kills} kills, {holding} mid-run"
        _compare(workdir, storage, undisturbed, seed)
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()
