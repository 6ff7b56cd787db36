"""Several benchmark workers on one workdir and one study, in every phase: sweeps, seed re-runs
and post-fit runs. Every worker exits 0, every run is trained once (epochs counted in the
workers' logs and in each run's log.jsonl), a worker killed in the seed phase stops neither the
others nor a rerun, and the report equals a single worker's.

The test hook NHFAIR_TEST_PAUSE="write_probe=S,run_locked=S" (nhfair_jax.rundir.test_pause) widens
the windows where workers race: between writing and removing prepare_workdir's write probe (the
race behind "cannot write to workdir ...: No such file or directory"), and right after a worker
takes a run directory's lock.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
import uuid

import pytest

from nhfair_jax.errors import UserError
from tests.bench_helpers import bench_config, config_file, postgres_url, worker_args
from tests.helpers import REPO

# Two DigitsB variants x {erm, resampling} + DFR (post-fit), seeds (0, 1), 2-epoch runs.
KW = dict(datasets=("digitsb", "digitsb_skew95"), methods=("erm", "resampling", "dfr"),
          trials=1, erm_trials=2, seeds=(0, 1), epochs=2)
PAUSE = {"NHFAIR_TEST_PAUSE": "write_probe=0.05,run_locked=0.2"}
SEED_LINE = re.compile(r"^\[(\S+)/(\S+)\] seed (\d+) of the selected configuration: "
                       r"(trained, (\d+) epochs? here|fitted on|finished already)", re.M)


def _start(args, env=None):
    return subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **(env or {})})


def _run_dirs(workdir):
    return sorted(d for d, _, files in os.walk(workdir) if "result.json" in files)


def _check_trained_once(workdir, logs, kw, *, resumed=()):
    """Every seed run trained (or fitted) by exactly one worker, for all its epochs (`resumed`
    runs: the rest of a killed worker's); each study's trials logged once; every run's
    log.jsonl holds each epoch once."""
    text = "\n".join(logs)
    assert "choose another" not in text and "Traceback" not in text, text[-3000:]
    done = {}
    for dataset, method, seed, what, n in SEED_LINE.findall(text):
        if what != "finished already":
            done.setdefault((dataset, method, int(seed)), []).append(int(n or 0))
    expected = {(d, m, 1) for d in kw["datasets"] for m in kw["methods"]}
    assert set(done) == expected, done
    for (dataset, method, seed), trained in done.items():
        assert len(trained) == 1, (dataset, method, trained)  # one worker trained it
        if method != "dfr" and (dataset, method) not in resumed:
            assert trained == [kw["epochs"]], (dataset, method, trained)
    budgets = {(d, m): kw["erm_trials"] if m == "erm" else kw["trials"]
               for d in kw["datasets"] for m in kw["methods"]}
    for (dataset, method), budget in budgets.items():
        assert len(re.findall(rf"^\[{dataset}/{method}\] trial \d+: val", text, re.M)) == budget
    runs = _run_dirs(workdir)
    assert len(runs) == sum(budgets.values()) + len(expected)
    for run in runs:
        if "/dfr/" not in run:
            log = [json.loads(line)["epoch"] for line in open(os.path.join(run, "log.jsonl"))]
            assert log == list(range(1, kw["epochs"] + 1)), run


@pytest.fixture(scope="module")
def single_worker_report(tmp_path_factory):
    from nhfair_jax.benchmark import run_benchmark
    from nhfair_jax.report import build_report

    workdir = str(tmp_path_factory.mktemp("alone") / "w")
    run_benchmark(bench_config(**KW), workdir, report=False)
    return build_report(workdir, plots=False)["markdown"]


def _staggered_workers(tmp_path, storage, starts):
    """Workers on KW started `starts` seconds apart (0: together); all must exit 0."""
    config = config_file(tmp_path, **KW)
    workdir = str(tmp_path / "w")
    workers = []
    for delay in starts:  # the later ones join mid-sweep and catch up in the seed phase
        time.sleep(delay)
        workers.append(_start(worker_args(config, workdir, storage), PAUSE))
    outputs = [w.communicate(timeout=600) for w in workers]
    for w, (_, err) in zip(workers, outputs):
        assert w.returncode == 0, err[-3000:]
    logs = [err for _, err in outputs]
    _check_trained_once(workdir, logs, KW)
    assert sum("seed 1 of the selected configuration: trained" in e for e in logs) >= 2, \
        "one worker trained every seed run: the test did not exercise a shared seed phase"
    return workdir


@pytest.mark.slow
def test_three_staggered_workers_on_sqlite_train_each_run_once(tmp_path, single_worker_report):
    from nhfair_jax.report import build_report

    workdir = _staggered_workers(tmp_path, None, starts=(0, 2, 2))
    assert build_report(workdir, plots=False)["markdown"] == single_worker_report


@pytest.mark.slow
def test_workers_on_postgresql_train_each_run_once_and_report_as_one(tmp_path,
                                                                    single_worker_report):
    import psycopg

    from nhfair_jax.report import build_report

    server = postgres_url()
    name = f"nhfair_test_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(server, autocommit=True)
    admin.execute(f"CREATE DATABASE {name}")
    try:  # two together (they race to create the tables), a third a little later
        workdir = _staggered_workers(tmp_path, server.rsplit("/", 1)[0] + "/" + name,
                                     starts=(0, 0, 3))
        assert build_report(workdir, plots=False)["markdown"] == single_worker_report
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


def _lock_holders(path) -> set[int]:
    """Pids holding an flock on `path` (from /proc/locks)."""
    inode = os.stat(path).st_ino
    holders = set()
    with open("/proc/locks") as f:
        for line in f:
            parts = line.split()
            if "FLOCK" in parts and parts[5].rsplit(":", 1)[-1] == str(inode):
                holders.add(int(parts[4]))
    return holders


def _kill_in_seed_phase(workdir, workers):
    """SIGKILLs the worker training a seed run once it has checkpointed an epoch; returns it
    and the (data set, method) of that run."""
    seeds = os.path.join(workdir, "seeds")
    t0 = time.time()
    while time.time() - t0 < 400:
        assert any(w.poll() is None for w in workers), "all workers ended before the seed phase"
        for folder, _, files in os.walk(seeds):
            if "log.jsonl" in files and "result.json" not in files and \
                    os.path.getsize(os.path.join(folder, "log.jsonl")) > 0:
                victim = [w for w in workers
                          if w.pid in _lock_holders(os.path.join(folder, ".lock"))]
                if victim:
                    victim[0].send_signal(signal.SIGKILL)
                    victim[0].wait()
                    rel = os.path.relpath(folder, seeds).split(os.sep)
                    return victim[0], (rel[0], rel[1])
        time.sleep(0.05)
    raise AssertionError("no seed run was seen training")


@pytest.mark.slow
def test_a_worker_killed_in_the_seed_phase_stops_neither_the_other_nor_a_rerun(tmp_path):
    kw = dict(datasets=("digitsb",), methods=("erm", "dfr"), trials=1, erm_trials=1,
              seeds=(0, 1), epochs=3)
    config = config_file(tmp_path, **kw)
    workdir = str(tmp_path / "w")
    workers = [_start(worker_args(config, workdir), PAUSE) for _ in range(2)]
    victim, killed = _kill_in_seed_phase(workdir, workers)
    other = [w for w in workers if w is not victim][0]
    _, err = other.communicate(timeout=600)
    assert other.returncode == 0, err[-3000:]
    stamps = {d: os.stat(os.path.join(d, "result.json")).st_mtime_ns for d in _run_dirs(workdir)}
    rerun = subprocess.run(worker_args(config, workdir, report=True), cwd=REPO,
                           capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert not re.search(r"trained, \d+ epochs? here|fitted on", rerun.stderr), rerun.stderr
    # nothing written again either (reading a finished post-fit run must not fit it again)
    assert {d: os.stat(os.path.join(d, "result.json")).st_mtime_ns
            for d in _run_dirs(workdir)} == stamps
    assert os.path.getsize(os.path.join(workdir, "report.md")) > 0
    logs = [err, victim.stderr.read()]
    _check_trained_once(workdir, logs, kw, resumed={killed})
    resumed = [int(n) for d, m, _, what, n in SEED_LINE.findall("\n".join(logs))
               if (d, m) == killed and what.startswith("trained")]
    assert resumed and 0 < resumed[0] < kw["epochs"]  # the checkpoint was resumed, not redone


# --- the pieces, fast ------------------------------------------------------------------------

def _together(worker, n):
    """Runs `worker` in n threads at once (workers within one process race the same way)."""
    threads = [threading.Thread(target=worker) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_workers_preparing_one_run_directory_do_not_remove_each_others_probe(tmp_path,
                                                                           monkeypatch):
    # Before the fix every caller wrote and removed RUN/.write_probe: a second remove failed with
    # "cannot write to workdir RUN: No such file or directory; choose another --workdir".
    import ml_collections

    from nhfair_jax.rundir import RunDir

    monkeypatch.setenv("NHFAIR_TEST_PAUSE", "write_probe=0.01")
    run, errors = str(tmp_path / "run"), []

    def worker():
        for _ in range(40):
            try:
                RunDir(run).prepare(ml_collections.ConfigDict({"a": 1}))
            except UserError as e:
                errors.append(str(e))

    _together(worker, 3)
    assert errors == []
    assert sorted(os.listdir(run)) == ["config.json"]


def test_run_lock_excludes_and_a_killed_holder_leaves_no_stale_lock(tmp_path):
    from nhfair_jax.rundir import RunDir

    run_lock = RunDir(tmp_path / "trials" / "d" / "erm" / "abc-s0").lock
    with run_lock() as held:
        assert held
        with run_lock(wait=False) as other:  # another open file: another holder
            assert not other
    ready, go = os.pipe()
    pid = os.fork()
    if pid == 0:  # a worker that takes the lock and is killed holding it
        with run_lock():
            os.write(go, b"x")
            time.sleep(60)
        os._exit(0)
    assert os.read(ready, 1) == b"x"
    with run_lock(wait=False) as free:
        assert not free
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    with run_lock(wait=False) as free:
        assert free  # nothing to break: the kernel released the dead worker's lock


def test_workers_opening_a_new_sqlite_study_together_all_get_it(tmp_path):
    # Unretried, four threads creating one new SQLite file's tables fail ("table studies
    # already exists", "UNIQUE constraint failed: alembic_version.version_num") most times.
    from nhfair_jax.sweep.runner import open_storage

    errors = []
    for rep in range(2):
        url = f"sqlite:///{tmp_path / f'optuna{rep}.db'}"
        barrier = threading.Barrier(4)

        def worker():
            barrier.wait()
            try:
                open_storage(url, 2, 6)
            except UserError as e:
                errors.append(str(e))

        _together(worker, 4)
    assert errors == []


def _made_by(workdir, bench):
    from nhfair_jax import rundir
    from nhfair_jax.rundir import config_to_json

    os.makedirs(workdir, exist_ok=True)
    rundir.write_json(os.path.join(workdir, "benchmark_config.json"), config_to_json(bench))


def test_a_workdir_without_a_started_trial_is_taken_over_by_a_corrected_config(tmp_path, capsys):
    from nhfair_jax.benchmark import check_workdir
    from nhfair_jax import rundir

    workdir = str(tmp_path / "w")
    _made_by(workdir, bench_config(trials=3))
    failed = os.path.join(workdir, "trials", "digitsb", "erm", "abc-s0")  # a start that failed
    os.makedirs(failed)
    rundir.write_json(os.path.join(failed, "config.json"), {"seed": 0})
    corrected = bench_config(trials=2)
    check_workdir(workdir, corrected, force=False)
    assert "no trial has started in it: it now belongs to this config" in capsys.readouterr().err
    assert rundir.read_json(os.path.join(workdir, "benchmark_config.json"))["trials"] == 2
    with rundir.RunDir(failed).lock():  # a worker is starting that trial right now: the workdir is in use
        with pytest.raises(UserError, match="different benchmark config .*trials"):
            check_workdir(workdir, bench_config(trials=3), force=False)
    rundir.write_jsonl(os.path.join(failed, "log.jsonl"), [{"epoch": 1}])  # an epoch: started
    with pytest.raises(UserError, match=r"different benchmark config \(differs in: trials\); "
                                        "use another --workdir, or --force"):
        check_workdir(workdir, bench_config(trials=3), force=False)
    check_workdir(workdir, bench_config(trials=3), force=True)
    assert rundir.read_json(os.path.join(workdir, "benchmark_config.json"))["trials"] == 3
