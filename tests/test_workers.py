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
from tests.bench_helpers import (FakeTraining, bench_config, config_file, findings,
                                 postgres_url, worker_args)
from tests.helpers import REPO, need

# Two DigitsB variants x {erm, resampling} + DFR (post-fit), seeds (0, 1), 2-epoch runs.
KW = dict(datasets=("digitsb", "digitsb_skew95"), methods=("erm", "resampling", "dfr"),
          trials=1, erm_trials=2, seeds=(0, 1), epochs=2)
PAUSE = {"NHFAIR_TEST_PAUSE": "write_probe=0.05,run_locked=0.2"}
# the start of a run's line in the benchmark's log, after its progress ("[5/14 runs, about 6 s
# left] ")
RUN_LINE = r"^(?:\[\d+/\d+ runs[^\]]*\] )?"
SEED_LINE = re.compile(RUN_LINE + r"\[(\S+)/(\S+)\] seed (\d+) of the selected configuration: "
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
        assert len(re.findall(RUN_LINE + rf"\[{dataset}/{method}\] trial \d+: val", text,
                              re.M)) == budget
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
    return findings(build_report(workdir, plots=False)["markdown"])


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
    assert findings(build_report(workdir, plots=False)["markdown"]) == single_worker_report


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
        assert findings(build_report(workdir, plots=False)["markdown"]) == single_worker_report
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


@pytest.mark.slow
def test_workers_on_a_journal_file_train_each_run_once_and_report_as_one(tmp_path,
                                                                        single_worker_report):
    # Optuna's JournalStorage: no database server, one file on the shared file system (here a
    # folder apart from the workdir); two together (they race to create the file and the
    # studies), a third a little later.
    from nhfair_jax.report import build_report

    journal = f"journal://{tmp_path / 'shared' / 'study.log'}"
    workdir = _staggered_workers(tmp_path, journal, starts=(0, 0, 3))
    assert findings(build_report(workdir, plots=False)["markdown"]) == single_worker_report
    assert not os.path.exists(os.path.join(workdir, "optuna.db"))


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


# --- workers through the launcher (submitit's local executor) --------------------------------

def _launcher_args(config, workdir, *extra):
    import sys

    need("submitit")
    return [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
            workdir, "--launcher", "local", *extra]


def _worker_logs(workdir) -> list[str]:
    """The launched workers' logs (submitit's <job id>_0_log.err), oldest job first."""
    import glob

    paths = sorted(glob.glob(os.path.join(workdir, "launcher", "logs", "*_0_log.err")),
                   key=os.path.getmtime)
    return [open(p).read() for p in paths]


def _worker_pids(workdir) -> set[int]:
    """Pids of the launched worker processes now running (from their logs' first lines)."""
    return {int(m) for log in _worker_logs(workdir)
            for m in re.findall(r"^worker \d+ on \S+ \(pid (\d+)\) starts", log, re.M)
            if _pid_alive(int(m))}


def _pid_alive(pid) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.mark.slow
def test_two_launched_workers_train_each_run_once_and_report_as_one(tmp_path,
                                                                   single_worker_report):
    from nhfair_jax.report import build_report

    config = config_file(tmp_path, **KW)
    workdir = str(tmp_path / "w")
    done = subprocess.run(_launcher_args(config, workdir, "--workers", "2"), cwd=REPO,
                          capture_output=True, text=True, timeout=900, env={**os.environ, **PAUSE})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "submitted 2 workers" in done.stderr
    logs = _worker_logs(workdir)
    assert len(logs) == 2 and all("Job completed successfully" in log for log in logs)
    _check_trained_once(workdir, logs, KW)
    assert all(re.search(r"trial \d+: val", log) for log in logs), "a worker ran no trial"
    assert os.path.exists(os.path.join(workdir, "optuna.journal"))  # the launcher's default
    # the command's summary (each method's test means) and where the report is
    assert "2 data set(s) x 3 method(s)" in done.stdout
    assert f"report: {os.path.join(workdir, 'report.md')}" in done.stdout
    assert findings(build_report(workdir, plots=False)["markdown"]) == single_worker_report
    again = subprocess.run(_launcher_args(config, workdir, "--workers", "2"), cwd=REPO,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "submitted" not in again.stderr and len(_worker_logs(workdir)) == 2


def _training_trial(workdir, timeout=400):
    """The run directory of a trial that has checkpointed an epoch and is not finished, and
    the pid of the worker holding it."""
    trials = os.path.join(workdir, "trials")
    t0 = time.time()
    while time.time() - t0 < timeout:
        for folder, _, files in os.walk(trials):
            if "log.jsonl" in files and "result.json" not in files and \
                    os.path.getsize(os.path.join(folder, "log.jsonl")) > 0:
                holders = _lock_holders(os.path.join(folder, ".lock")) & _worker_pids(workdir)
                if holders:
                    return folder, holders.pop()
        time.sleep(0.05)
    raise AssertionError("no trial was seen training")


def _retried_in_place(workdir, folder, kw):
    """The study holds one failed trial, retried with its parameters in its own directory,
    which logged each epoch once (resumed from its checkpoint, not restarted)."""
    import optuna

    from nhfair_jax.sweep.runner import open_storage

    store = open_storage(f"journal://{os.path.join(workdir, 'optuna.journal')}", 2, 6)
    trials = optuna.load_study(study_name="digitsb/erm", storage=store).trials
    failed = [t for t in trials if t.state.name == "FAIL"]
    complete = [t for t in trials if t.state.name == "COMPLETE"]
    assert len(failed) == 1 and len(complete) == kw["erm_trials"], [t.state for t in trials]
    retry = [t for t in complete if t.user_attrs.get("retry_of") == failed[0].number]
    assert len(retry) == 1 and retry[0].params == failed[0].params
    assert os.path.join(workdir, retry[0].user_attrs["run_dir"]) == folder
    log = [json.loads(line)["epoch"] for line in open(os.path.join(folder, "log.jsonl"))]
    assert log == list(range(1, kw["epochs"] + 1))


@pytest.mark.slow
def test_a_killed_launched_worker_is_resumed_by_the_other_and_a_rerun_trains_nothing(tmp_path):
    kw = dict(datasets=("digitsb",), methods=("erm",), trials=1, erm_trials=2, seeds=(0, 1),
              epochs=3)
    config = config_file(tmp_path, **kw)
    workdir = str(tmp_path / "w")
    out = open(tmp_path / "launcher.err", "w+")
    launcher = subprocess.Popen(_launcher_args(config, workdir, "--workers", "2"), cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=out, text=True)
    folder, victim = _training_trial(workdir)
    os.kill(victim, signal.SIGKILL)  # as a node failure or the OOM killer would
    assert launcher.wait(timeout=600) == 0, open(tmp_path / "launcher.err").read()[-3000:]
    err = open(tmp_path / "launcher.err").read()
    assert "ended without a result (killed" in err and "finished by the other workers" in err
    assert "lost its worker" in "\n".join(_worker_logs(workdir))
    _retried_in_place(workdir, folder, kw)
    stamps = {d: os.stat(os.path.join(d, "result.json")).st_mtime_ns for d in _run_dirs(workdir)}
    assert len(stamps) == kw["erm_trials"] + 1
    again = subprocess.run(_launcher_args(config, workdir, "--workers", "2"), cwd=REPO,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "submitted" not in again.stderr
    assert {d: os.stat(os.path.join(d, "result.json")).st_mtime_ns
            for d in _run_dirs(workdir)} == stamps


@pytest.mark.slow
def test_a_preempted_launched_worker_is_requeued_and_resumes_its_trial(tmp_path):
    # SIGUSR2 is what Slurm sends before preempting a job or at its time limit (submitit asks
    # for it); submitit checkpoints the worker and requeues it, and the new process resumes.
    kw = dict(datasets=("digitsb",), methods=("erm",), trials=1, erm_trials=1, seeds=(0,),
              epochs=3)
    config = config_file(tmp_path, **kw)
    workdir = str(tmp_path / "w")
    out = open(tmp_path / "launcher.err", "w+")
    launcher = subprocess.Popen(_launcher_args(config, workdir, "--no_wait"), cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=out, text=True)
    assert launcher.wait(timeout=300) == 0, open(tmp_path / "launcher.err").read()
    folder, victim = _training_trial(workdir)
    os.kill(victim, signal.SIGUSR2)
    done = subprocess.run(_launcher_args(config, workdir), cwd=REPO, capture_output=True,
                          text=True, timeout=600)  # attaches to the requeued worker, reports
    assert done.returncode == 0, done.stderr[-3000:]
    assert "workers of an earlier command are at work" in done.stderr
    (log,) = _worker_logs(workdir)  # one job, two processes
    assert "this job is preempted" in log and "Requeued job" in log
    assert len(re.findall(r"^worker 0 on \S+ \(pid \d+\) starts", log, re.M)) == 2
    assert "lost its worker" in log
    _retried_in_place(workdir, folder, kw)
    assert os.path.getsize(os.path.join(workdir, "report.md")) > 0


@pytest.mark.slow
def test_the_slurm_launcher_submits_one_array_and_a_task_at_its_time_limit_is_requeued(tmp_path):
    # Slurm's commands stood in for by tests/slurm_shim.py: the real sbatch script submitit
    # writes from the --slurm.* flags, one array of two tasks, sacct polled while waiting,
    # `scontrol requeue` after the time-limit signal, the results collected. With a limit of one
    # minute submitit takes any signal for the time limit (a run past min(80%, limit - 10 min)),
    # where it requeues only a worker that can checkpoint itself (preemptions: tested above).
    import sys

    from tests import slurm_shim

    need("submitit")
    env = slurm_shim.install(str(tmp_path / "bin"), str(tmp_path / "slurm"))
    kw = dict(datasets=("digitsb",), methods=("erm",), trials=1, erm_trials=2, seeds=(0, 1),
              epochs=3)
    config = config_file(tmp_path, **kw)
    workdir = str(tmp_path / "w")
    args = [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
            workdir, "--launcher", "slurm", "--workers", "2", "--slurm.partition=gpu",
            "--slurm.gpus_per_task=1", "--slurm.time=1", "--slurm.mem_gb=16",
            "--slurm.setup=('export NHFAIR_SHIM_SETUP=1',)"]
    out = open(tmp_path / "launcher.err", "w+")
    launcher = subprocess.Popen(args, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=out)
    folder, victim = _training_trial(workdir)
    os.kill(victim, signal.SIGUSR2)  # what Slurm sends 90 s before the time limit
    assert launcher.wait(timeout=900) == 0, open(tmp_path / "launcher.err").read()[-3000:]
    (script,) = glob_sbatch(tmp_path / "slurm")
    for line in ("#SBATCH --array=0-1%2", "#SBATCH --partition=gpu", "#SBATCH --gpus-per-task=1",
                 "#SBATCH --time=1", "#SBATCH --mem=16GB", "#SBATCH --job-name=nhfair-worker",
                 "#SBATCH --signal=USR2@90", "export NHFAIR_SHIM_SETUP=1"):
        assert line in script.splitlines(), (line, script)
    logs = _worker_logs(workdir)
    assert len(logs) == 2 and sum("this job is timed-out" in log for log in logs) == 1
    assert "Requeued job" in "\n".join(logs)
    _check_trained_once(workdir, logs, kw)
    _retried_in_place(workdir, folder, kw)
    assert os.path.getsize(os.path.join(workdir, "report.md")) > 0
    again = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "submitted" not in again.stderr, again.stderr[-3000:]


def glob_sbatch(state_dir) -> list[str]:
    import glob

    return [open(p).read() for p in glob.glob(os.path.join(str(state_dir), "*.sbatch"))]


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


@pytest.mark.slow
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
    assert "held no started trial; it now belongs to this config" in capsys.readouterr().err
    assert rundir.read_json(os.path.join(workdir, "benchmark_config.json"))["trials"] == 2
    other = bench_config(trials=2, seeds=(0, 1, 2))  # not only a budget: refused once in use
    with rundir.RunDir(failed).lock():  # a worker is starting that trial right now: the workdir is in use
        with pytest.raises(UserError, match="different benchmark config .*seeds"):
            check_workdir(workdir, other, force=False)
    rundir.write_jsonl(os.path.join(failed, "log.jsonl"), [{"epoch": 1}])  # an epoch: started
    with pytest.raises(UserError, match=r"different benchmark config \(differs in: seeds\); "
                                        "use another --workdir, or --force"):
        check_workdir(workdir, other, force=False)
    # a raised trial budget goes on in a started workdir: its finished trials are kept
    check_workdir(workdir, bench_config(trials=3), force=False)
    assert "the trial budget of" in capsys.readouterr().err
    assert rundir.read_json(os.path.join(workdir, "benchmark_config.json"))["trials"] == 3
    with pytest.raises(UserError, match="differs in: trials"):  # a lower one is refused
        check_workdir(workdir, bench_config(trials=2), force=False)
    check_workdir(workdir, other, force=True)
    assert rundir.read_json(os.path.join(workdir, "benchmark_config.json"))["seeds"] == [0, 1, 2]


# --- lost workers and the journal, fast (no training) ------------------------------------------

STORAGES = ("sqlite", "journal")


def _store(tmp_path, kind):
    from nhfair_jax.sweep.runner import open_storage

    url = (f"sqlite:///{tmp_path / 'optuna.db'}" if kind == "sqlite"
           else f"journal://{tmp_path / 'shared' / 'study.log'}")
    return open_storage(url, 2, 6)


def _live_mark(workdir):
    """A process elsewhere holding a worker mark in `workdir`: (process, its mark's name)."""
    import sys

    code = ("import sys, time\nfrom nhfair_jax.sweep.liveness import WorkerMark\n"
            f"m = WorkerMark({str(workdir)!r})\nprint(m.name, flush=True)\ntime.sleep(120)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE,
                            text=True)
    return proc, proc.stdout.readline().strip()


def _running_trial(study, worker, host="node-elsewhere"):
    from nhfair_jax.methods import suggest

    trial = study.ask()
    suggest(trial, "erm")
    if worker is not None:
        trial.set_user_attr("worker", worker)
    trial.set_user_attr("host", host)
    return trial


@pytest.mark.slow
@pytest.mark.parametrize("kind", STORAGES)
def test_a_trial_whose_worker_is_gone_is_retried_once_and_a_live_ones_is_left(tmp_path, kind,
                                                                            monkeypatch):
    from optuna.trial import TrialState


    from nhfair_jax.sweep.liveness import WorkerMark
    from nhfair_jax.sweep.runner import Sweeper

    workdir = tmp_path / "w"
    store = _store(tmp_path, kind)
    bench = bench_config(datasets=("digitsb",), methods=("erm",), erm_trials=3)
    bench.grace_s = 1
    logged = []
    sweepers = [Sweeper(bench, str(workdir), store, log=logged.append) for _ in range(3)]
    study = sweepers[0].study("digitsb", "erm")
    gone = WorkerMark(str(workdir))  # a worker on another machine that has since died
    dead = _running_trial(study, gone.name)
    gone.release()
    proc, name = _live_mark(workdir)
    try:
        live = _running_trial(study, name)
        unnamed = _running_trial(study, None)  # created a moment ago: its worker names it next
        _together(lambda: sweepers.pop()._fail_lost(study), 3)  # three workers look at once

        def by_number():
            return {t.number: t for t in study.get_trials(deepcopy=False)}

        trials = by_number()
        assert trials[dead.number].state == TrialState.FAIL
        assert trials[live.number].state == TrialState.RUNNING
        assert trials[unnamed.number].state == TrialState.RUNNING
        retries = [t for t in trials.values() if t.state == TrialState.WAITING]
        assert [t.user_attrs["retry_of"] for t in retries] == [dead.number]  # once, not thrice
        assert len(logged) == 1 and "node-elsewhere" in logged[0]
        time.sleep(1.2)  # past the grace period, a nameless trial's worker is taken as lost
        Sweeper(bench, str(workdir), store, log=logged.append)._fail_lost(study)
        assert by_number()[unnamed.number].state == TrialState.FAIL
        assert by_number()[live.number].state == TrialState.RUNNING
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    Sweeper(bench, str(workdir), store, log=logged.append)._fail_lost(study)
    trials = by_number()
    assert trials[live.number].state == TrialState.FAIL  # its process ended: lost now
    lost = [dead.number, unnamed.number, live.number]
    assert sorted(t.user_attrs["retry_of"] for t in trials.values()
                  if t.state == TrialState.WAITING) == sorted(lost)
    fake = FakeTraining(monkeypatch)  # the budget of 3: the three retries, nothing else
    Sweeper(bench, str(workdir), store, log=logged.append).sweep("digitsb", "erm")
    complete = [t for t in study.get_trials() if t.state == TrialState.COMPLETE]
    assert len(fake.calls) == 3
    assert sorted(t.user_attrs["retry_of"] for t in complete) == sorted(lost)
    assert all(t.params == trials[t.user_attrs["retry_of"]].params for t in complete)


def test_journal_storage_opens_for_workers_together_and_bad_urls_are_one_line(tmp_path):
    import optuna

    from nhfair_jax.sweep.runner import open_storage, storage_url

    url = f"journal://{tmp_path / 'new' / 'folder' / 'study.log'}"
    barrier, studies, errors = threading.Barrier(4), [], []

    def worker():
        barrier.wait()
        try:
            store = open_storage(url, 2, 6)
            studies.append(optuna.create_study(study_name="d/erm", storage=store,
                                               load_if_exists=True)._study_id)
        except Exception as e:  # noqa: BLE001 - any failure is the test's
            errors.append(repr(e))

    _together(worker, 4)
    assert errors == [] and len(set(studies)) == 1
    assert optuna.get_all_study_names(open_storage(url, 2, 6)) == ["d/erm"]
    with pytest.raises(UserError, match="names no file"):
        open_storage("journal://", 2, 6)
    (tmp_path / "a_file").write_text("")  # its folder cannot be made (even by root)
    with pytest.raises(UserError, match="cannot open the study journal .*a_file/study.log"):
        open_storage(f"journal://{tmp_path / 'a_file' / 'study.log'}", 2, 6)
    (tmp_path / "junk.log").write_text("not a journal\n")
    with pytest.raises(UserError, match="cannot open the study journal .*junk.log"):
        open_storage(f"journal://{tmp_path / 'junk.log'}", 2, 6)
    # the workdir's own study: the file it holds, else SQLite, or a journal for shared workers
    w = tmp_path / "w"
    w.mkdir()
    assert storage_url(None, str(w)).startswith("sqlite:///")
    assert storage_url(None, str(w), shared=True) == f"journal://{w / 'optuna.journal'}"
    (w / "optuna.journal").touch()
    assert storage_url(None, str(w)) == f"journal://{w / 'optuna.journal'}"
    (w / "optuna.db").touch()
    with pytest.raises(UserError, match="holds both optuna.db and optuna.journal"):
        storage_url(None, str(w))
    assert storage_url("postgresql://x/y", str(w)) == "postgresql://x/y"


@pytest.mark.slow
def test_launcher_settings_become_sbatch_options_and_mistakes_are_one_line(tmp_path):
    import sys

    from nhfair_jax.sweep.launch import _sbatch_parameters, slurm_options

    o = slurm_options()
    assert _sbatch_parameters(o, 3) == {"time": 240, "nodes": 1, "ntasks_per_node": 1,
                                        "job_name": "nhfair-worker", "array_parallelism": 3,
                                        "gpus_per_task": 1}
    o.partition, o.time, o.mem_gb, o.cpus_per_task, o.array_parallelism = "gpu", 90, 32, 8, 2
    o.account, o.setup = "lab", ("module load cuda", "source venv/bin/activate")
    o.additional = "mail-type=END, exclude=node[1-2]"
    assert _sbatch_parameters(o, 4) == {
        "time": 90, "nodes": 1, "ntasks_per_node": 1, "job_name": "nhfair-worker",
        "array_parallelism": 2, "partition": "gpu", "account": "lab", "gpus_per_task": 1,
        "cpus_per_task": 8, "mem": "32GB",
        "setup": ["module load cuda", "source venv/bin/activate"],
        "additional_parameters": {"mail-type": "END", "exclude": "node[1-2]"}}
    o.additional = "mail-type"
    with pytest.raises(UserError, match="--slurm.additional: 'mail-type' is not key=value"):
        _sbatch_parameters(o, 4)

    config = config_file(tmp_path, datasets=("digitsb",), methods=("erm",))
    base = [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
            str(tmp_path / "w")]
    no_srun = {**os.environ, "PATH": os.pathsep.join([os.path.dirname(sys.executable),
                                                      "/usr/bin", "/bin"])}
    for extra, message in (
            (["--workers", "2"], "--workers and --no_wait go with --launcher local or slurm"),
            (["--launcher", "local", "--slurm.partitio=gpu"],
             '--slurm.partitio: no such config key; Did you mean "partition"'),
            (["--launcher", "slurm", "--slurm.time=2h"], "flag --slurm.time=2h: invalid literal"),
            (["--launcher", "slurm", "--workers", "2"], "--launcher slurm: no Slurm here (srun is "
                                                        "not on PATH)"),
            (["--launcher", "local", "--workers", "0"], "--workers must be at least 1")):
        proc = subprocess.run(base + extra, cwd=REPO, capture_output=True, text=True,
                              timeout=300, env=no_srun)
        assert proc.returncode == 1, proc.stderr
        lines = [x for x in proc.stderr.strip().splitlines() if x.startswith("error:")]
        assert len(lines) == 1 and message in lines[0], proc.stderr
        assert "Traceback" not in proc.stderr
    assert not os.path.exists(tmp_path / "w" / "launcher" / "jobs.json")  # nothing submitted


def test_a_sweep_whose_last_trials_others_hold_is_passed_without_waiting(tmp_path, monkeypatch):
    from nhfair_jax.sweep.runner import Sweeper

    fake = FakeTraining(monkeypatch)  # waiting would fail the test
    workdir = tmp_path / "w"
    store = _store(tmp_path, "journal")
    bench = bench_config(datasets=("digitsb",), methods=("erm",), erm_trials=2)
    sweeper = Sweeper(bench, str(workdir), store, log=lambda *_: None)
    proc, name = _live_mark(workdir)
    try:
        _running_trial(sweeper.study("digitsb", "erm"), name)  # another worker's, running
        assert sweeper.sweep("digitsb", "erm", wait=False) is False
        assert len(fake.calls) == 1  # the one trial the budget left it
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    assert sweeper.sweep("digitsb", "erm", wait=False) is True  # the lost trial, retried here
    assert len(fake.calls) == 2
