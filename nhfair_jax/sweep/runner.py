"""Hyperparameter sweeps with Optuna (TPE), one study per (data set, method), every trial a run
directory.

Storage is any Optuna database URL (a SQLite file in the workdir by default, or PostgreSQL),
or `journal:///path/to/study.log`, Optuna's JournalStorage: one append-only file, for workers on
several machines that share a file system but no database server. Re-running continues:

- a configuration's run directory is named by a hash of (data set, method, parameters, seed),
  so a finished configuration is never trained again, and a retried one resumes its checkpoint;
- a trial whose worker died is failed and re-enqueued with the same parameters (or, when it
  died before drawing them, the draw it would have made: nhfair_jax.sweep.sampler), by the
  first worker to see that the trial's worker no longer holds its lock
  (nhfair_jax.sweep.liveness), on whatever machine it ran; with a database, also when its
  heartbeat goes stale;
- the trial budget counts finished trials (completed, or stopped by the pruner); a worker that
  would exceed it (another worker took the last slot) ends its trial as pruned without training;
- with a pruner (the benchmark config's `prune`: "median" or "halving", off by default: the
  benchmark paper trains every trial), each trial reports its validation objective after every
  epoch and stops when Optuna's pruner says it cannot win; its run directory keeps what it
  trained, marked pruned.json, and is never resumed nor a selection candidate;
- one worker at a time trains a run directory (`RunDir.lock`, an flock the kernel drops when
  its process dies), so workers that reach the same run (seed re-runs, a retried trial) train
  it once; the others wait for it or move on to other runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import socket
import sys
import time

import ml_collections

from nhfair_jax import dispatch
from nhfair_jax.config import load_config_file
from nhfair_jax.dispatch import with_method
from nhfair_jax.errors import RunPruned, TrainingDiverged, UserError
from nhfair_jax.methods import spec
from nhfair_jax.methods.registry import search_space, suggest
from nhfair_jax.rundir import RunDir, test_pause
from nhfair_jax.sweep.liveness import WorkerMark, retrying, worker_alive
from nhfair_jax.sweep.sampler import NumberSeededTPE, draw_number

# What a sweep optimises on validation. "loss" is the benchmark's original code's choice (its
# paper says only "on the validation results"); selection afterwards uses DTO / FWH either way.
OBJECTIVES = {"loss": "minimize", "utility": "maximize", "worst": "maximize", "gap": "minimize"}
PRUNERS = ("median", "halving")


def make_pruner(kind: str, startup_trials: int):
    """Optuna's pruner of `kind` (PRUNERS), on the per-epoch validation objective.

    "median": MedianPruner; a trial stops after an epoch where its value is worse than the
    median of the earlier trials' values at that epoch; the first `startup_trials` trials (the
    sampler's random ones) and every trial's first epoch are never pruned. "halving":
    SuccessiveHalvingPruner with Optuna's defaults (the minimum resource estimated from the
    first finished trial, reduction factor 4): at rungs of 1, 4, 16, ... times that many epochs
    only the best quarter of the trials that reached the rung go on.
    """
    import optuna

    if kind == "median":
        # steps are epochs (1, 2, ...); Optuna prunes from step n_warmup_steps on
        return optuna.pruners.MedianPruner(n_startup_trials=int(startup_trials),
                                           n_warmup_steps=2)
    if kind == "halving":
        return optuna.pruners.SuccessiveHalvingPruner()
    raise UserError(f"prune must be one of {', '.join(PRUNERS)} (or empty: off), got {kind!r}")


def pruned_by_pruner(trial) -> bool:
    """A trial the pruner stopped (it counts toward the budget), not one pruned because it
    diverged or because other workers had taken the budget's last slot."""
    return trial.state.name == "PRUNED" and "pruned_after_epoch" in trial.user_attrs


def set_dotted(config, key: str, value) -> None:
    """config[key] = value for a dotted key that exists (loader options under data.options are
    open: each loader checks its own)."""
    node = config
    *parents, leaf = key.split(".")
    for p in parents:
        if p not in node:
            raise UserError(f"unknown config key {key!r}")
        node = node[p]
    if leaf not in node and parents != ["data", "options"]:
        raise UserError(f"unknown config key {key!r} in the benchmark's overrides")
    if isinstance(value, list):
        value = tuple(value)
    current = node.get(leaf) if leaf in node else None
    if isinstance(current, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    node[leaf] = value


def flatten(tree, prefix: str = "") -> dict:
    """{"train": {"epochs": 6}} -> {"train.epochs": 6}."""
    out = {}
    for key, value in dict(tree).items():
        if isinstance(value, (dict, ml_collections.ConfigDict)):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def config_hash(payload) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:12]


JOURNAL = "journal://"
# The workdir's own study files: SQLite for workers on one machine, a journal for several.
WORKDIR_STORES = {"sqlite": "optuna.db", "journal": "optuna.journal"}


def storage_url(storage: str | None, workdir: str, *, shared: bool = False) -> str:
    """--storage, else the study file in the workdir: the one it already holds, else a new
    SQLite file (optuna.db), or with `shared` (workers on several machines) a new journal
    (optuna.journal: SQLite's locks are not safe on network file systems)."""
    if storage:
        return storage
    paths = {kind: os.path.abspath(os.path.join(workdir, name))
             for kind, name in WORKDIR_STORES.items()}
    found = [kind for kind, path in paths.items() if os.path.exists(path)]
    if len(found) > 1:
        raise UserError(f"{workdir} holds both {' and '.join(WORKDIR_STORES.values())}; say "
                        f"which study to use with --storage sqlite:///{paths['sqlite']} or "
                        f"--storage {JOURNAL}{paths['journal']}")
    kind = found[0] if found else ("journal" if shared else "sqlite")
    return f"{JOURNAL}{paths[kind]}" if kind == "journal" else f"sqlite:///{paths[kind]}"


def open_journal(url: str):
    """Optuna's JournalStorage on the file a journal:// URL names (created with its folder);
    its lock is a file made with O_EXCL, which NFS (v3 and later) supports."""
    import optuna
    from optuna.storages.journal import JournalFileBackend, JournalFileOpenLock

    path = url[len(JOURNAL):]
    if not path:
        raise UserError(f"--storage {url} names no file; use {JOURNAL}/path/to/study.log (a "
                        "file on a file system that every worker shares)")
    path = os.path.abspath(path)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        _check_journal(path)
        return optuna.storages.JournalStorage(
            JournalFileBackend(path, lock_obj=JournalFileOpenLock(path)))
    except (OSError, ValueError) as e:  # not writable; a file that is not a journal
        raise UserError(f"cannot open the study journal {path}: {getattr(e, 'strerror', None) or e}"
                        f"; --storage {JOURNAL}PATH needs a writable file that only Optuna's "
                        "journal writes") from e


def _check_journal(path: str) -> None:
    """Raises ValueError when `path` exists and does not start as Optuna's journal does (one
    JSON operation a line): a SQLite file or another log named by mistake."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    with open(path, "rb") as f:
        first = f.readline(1 << 16)
    try:
        if "op_code" in json.loads(first):
            return
    except (ValueError, TypeError):
        pass
    raise ValueError("it is not an Optuna journal (its first line is not a journal operation)")


def open_storage(url: str, heartbeat_s: int, grace_s: int):
    """The study storage of a URL: a journal file, or an Optuna RDB storage with heartbeats; a
    URL that cannot connect is a UserError."""
    import optuna

    quiet_optuna()
    if url.startswith(JOURNAL):
        return open_journal(url)
    retry = getattr(optuna.storages, "RetryHeartbeatStaleTrialCallback", None)
    callback = ({"heartbeat_stale_trial_callback": retry(max_retry=3)} if retry is not None else
                {"failed_trial_callback": optuna.storages.RetryFailedTrialCallback(max_retry=3)})
    for attempt in range(5):
        try:
            return optuna.storages.RDBStorage(
                url, heartbeat_interval=heartbeat_s, grace_period=grace_s,
                engine_kwargs={"pool_pre_ping": True}, **callback)
        except Exception as e:  # SQLAlchemy raises many types for a bad URL or a down server
            # Workers starting together on a new database race to create its tables; the
            # loser sees a unique-constraint violation (PostgreSQL's UniqueViolation, SQLite's
            # UNIQUE constraint failed) or a locked SQLite file, and finds the tables next try.
            if any(s in repr(e) for s in ("UniqueViolation", "UNIQUE constraint failed",
                                          "already exists", "database is locked")):
                if attempt < 4:
                    time.sleep(0.5 * (attempt + 1))
                    continue
            raise UserError(f"cannot open the study storage {url}: {type(e).__name__}: "
                            f"{str(e).splitlines()[0]}; check --storage (a database URL such "
                            "as sqlite:///path.db or postgresql://user:pass@host/db, or "
                            f"{JOURNAL}/path/to/study.log)") from e


def quiet_optuna() -> None:
    """Optuna marks heartbeats and stale-trial handling experimental; say it once, not per trial.
    Its log stays at ERROR: a failed trial's traceback is optuna's warning, and the error itself
    reaches the command, which says it in one line."""
    import warnings

    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    warnings.filterwarnings("ignore", category=FutureWarning, module="optuna")


class Sweeper:
    """Runs the trials of one benchmark config; shared by every (data set, method) pair."""

    def __init__(self, bench, workdir: str, storage, *, progress_bar=None, log=print):
        self.bench, self.workdir, self.storage = bench, workdir, storage
        self.bar, self.log = progress_bar, log
        self._counted = set()  # studies whose earlier finished trials the bar has counted
        self.host = socket.gethostname()
        self._mark = None

    # --- configs and run directories -------------------------------------------------------

    def base_config(self, dataset: str):
        spec = self.bench.datasets[dataset]
        config = load_config_file(spec.config)
        for key, value in flatten(spec.get("overrides", {})).items():
            set_dotted(config, key, value)
        for key, value in flatten(self.bench.overrides).items():
            set_dotted(config, key, value)
        return config

    def run_config(self, dataset: str, method: str, params: dict, seed: int, base_run=None):
        own = {k.split(".", 1)[1]: v for k, v in params.items() if k.startswith("method.")}
        if spec(method).fitted_on_base_run:
            base = RunDir(base_run)
            own.update(base_config=base.file(RunDir.CONFIG), base_workdir=base.path)
        config = with_method(self.base_config(dataset), method, **own)
        for key, value in params.items():
            if not key.startswith("method."):
                set_dotted(config, key, value)
        # Per-method settings of the benchmark config (e.g. a zero-shot model's model.path).
        for key, value in flatten(self.bench.get("method_overrides", {}).get(method, {})).items():
            set_dotted(config, key, value)
        config.seed = int(seed)
        if self.bench.get("splits", "per_seed") == "per_seed":  # nhfair_jax.benchmark: Splits
            config.data.split_seed = int(seed)
        return config

    def run_dir(self, kind: str, dataset: str, method: str, params: dict, seed: int,
                base_run=None) -> str:
        key = config_hash({"dataset": dataset, "method": method, "params": params,
                           "base": base_run and os.path.basename(base_run)})
        return os.path.join(self.workdir, kind, dataset, method, f"{key}-s{seed}")

    def train(self, kind, dataset, method, params, seed, base_run=None, run_dir=None, *,
              on_epoch=None) -> tuple[str, dict]:
        """Trains (or reads the finished) run of one configuration and seed, waiting while
        another worker trains it."""
        done = self.train_run(kind, dataset, method, params, seed, base_run, run_dir,
                              on_epoch=on_epoch)
        return done["dir"], done["result"]

    def train_run(self, kind, dataset, method, params, seed, base_run=None, run_dir=None, *,
                  wait: bool = True, on_epoch=None) -> dict | None:
        """Trains (or reads the finished) run of one configuration and seed, under its lock.

        Args:
          wait: False: return None at once when another worker holds the run (or, for a
            post-fit run, when the ERM run it is fitted on is not finished yet).
          on_epoch: the trained run's per-epoch hook (nhfair_jax.dispatch.run); RunPruned
            raised from it marks the run directory pruned.

        Raises:
          RunPruned: the pruner stopped this run (now, or in an earlier session).

        Returns:
          {"dir", "result", "trained": this call wrote result.json (False: another worker or
          an earlier session had), "epochs": epochs this call trained}, or None (see wait).
        """

        run_dir = RunDir(run_dir or self.run_dir(kind, dataset, method, params, seed, base_run))
        config = self.run_config(dataset, method, params, seed, base_run)
        with contextlib.ExitStack() as held:
            if base_run is not None and not RunDir(base_run).finished:
                # Its ERM run is trained first (by the post-fit method), by one worker only.
                if not wait or not held.enter_context(RunDir(base_run).lock()):
                    return None
            if not held.enter_context(run_dir.lock(wait=wait)):
                return None
            test_pause("run_locked")
            done = run_dir.finished
            pruned = run_dir.pruned()
            if pruned is not None:  # stopped by a pruner: what it trained stays as it was
                raise RunPruned(int(pruned["epoch"]), float(pruned["value"]))
            if run_dir.params() is None:  # before result.json: a reader never sees one alone
                run_dir.write_params({"dataset": dataset, "method": method, "params": params,
                                      "seed": seed, "base_run": base_run})
            before = run_dir.epochs_logged()
            try:
                # Prepares the directory (checking config.json), answers a finished run from it
                # (never fitted again), and otherwise trains or fits it.
                result = dispatch.run(config, run_dir, progress=False, on_epoch=on_epoch)
            except RunPruned as e:
                run_dir.write_pruned({"epoch": e.epoch, "value": e.value,
                                      "pruner": self.bench.get("prune", "")})
                raise
            return {"dir": run_dir.path, "result": result, "trained": not done,
                    "epochs": run_dir.epochs_logged() - before}

    # --- the study --------------------------------------------------------------------------

    def study(self, dataset: str, method: str):
        import optuna

        optuna.logging.set_verbosity(optuna.logging.ERROR)  # see quiet_optuna
        sampler = NumberSeededTPE(seed=int(self.bench.sampler_seed),
                                  n_startup_trials=int(self.bench.startup_trials))
        kind = self.bench.get("prune", "")
        pruner = make_pruner(kind, self.bench.startup_trials) if kind else \
            optuna.pruners.NopPruner()
        return optuna.create_study(study_name=f"{dataset}/{method}", storage=self.storage,
                                   sampler=sampler, pruner=pruner, load_if_exists=True,
                                   direction=OBJECTIVES[self.bench.objective])

    def finished_trials(self, dataset: str, method: str) -> int:
        """Finished trials of a study (complete, or stopped by the pruner; 0 before the study
        exists); creates nothing."""
        import optuna

        try:
            study = optuna.load_study(study_name=f"{dataset}/{method}", storage=self.storage)
        except KeyError:
            return 0
        return sum(t.state.name == "COMPLETE" or pruned_by_pruner(t)
                   for t in study.get_trials(deepcopy=False))

    def budget(self, method: str) -> int:
        if not search_space(method):
            return 1  # nothing to search (zero-shot CLIP, BLIP-2): one run is the method
        return int(dict(self.bench.trials_per_method).get(method, self.bench.trials))

    def mark(self) -> WorkerMark:
        """This process's liveness mark in the workdir, made on first use."""
        if self._mark is None:
            self._mark = WorkerMark(self.workdir)
        return self._mark

    def _fail_lost(self, study) -> None:
        """Fails, and re-enqueues with the same parameters, the running trials whose worker is
        gone (its mark's lock is free, on whatever machine it ran); a trial that names no
        worker yet counts as lost once it has run for the grace period (its worker was killed
        between creating it and naming itself, a moment)."""
        import datetime

        import optuna
        from optuna.trial import TrialState

        now = datetime.datetime.now()
        for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            name = t.user_attrs.get("worker")
            if name == self.mark().name:
                continue
            if name is None:
                started = t.datetime_start or now
                if (now - started).total_seconds() < float(self.bench.grace_s):
                    continue
            elif worker_alive(self.workdir, name):
                continue
            with retrying(self.workdir):  # tell re-reads the trial's state under the lock
                try:
                    study.tell(t.number, state=TrialState.FAIL)
                except (ValueError, optuna.exceptions.UpdateFinishedTrialError):
                    continue  # another worker failed it first, and retried it
                # killed before drawing: its enqueued parameters, or the lost trial's draw
                study.enqueue_trial(t.params or t.system_attrs.get("fixed_params") or {},
                                    user_attrs={"retry_of": t.number,
                                                "draw_number": draw_number(study, t)})
            self.log(f"trial {t.number} of {study.study_name} lost its worker "
                     f"(pid {t.user_attrs.get('pid')} on {t.user_attrs.get('host')}); retrying "
                     "it with the same parameters")

    def sweep(self, dataset: str, method: str, *, base_run=None, wait: bool = True) -> bool:
        """Runs trials until the budget of finished trials is reached; True then. Without
        `wait`, returns False instead of waiting while other workers run the budget's last
        trials."""
        import optuna
        from optuna.trial import TrialState

        study = self.study(dataset, method)
        budget = self.budget(method)
        seed = int(self.bench.seeds[0])
        objective_key = f"val_{self.bench.objective}"

        def report(trial):
            def on_epoch(epoch, entry):
                value = entry.get(objective_key)
                if not entry["selectable"] or value is None or not math.isfinite(value):
                    return  # a pretraining phase's epochs, or a diverging one, say nothing
                trial.report(float(value), epoch)
                if trial.should_prune():
                    raise RunPruned(epoch, float(value))
            return on_epoch

        def objective(trial):
            trial.set_user_attr("worker", self.mark().name)  # first: see _fail_lost
            earlier = [t for t in study.get_trials(deepcopy=False) if t.number < trial.number]
            if sum(t.state in (TrialState.COMPLETE, TrialState.RUNNING) or pruned_by_pruner(t)
                   for t in earlier) >= budget:
                trial.set_user_attr("skipped", "budget reached by other workers")
                raise optuna.TrialPruned()
            trial.set_user_attr("host", self.host)
            trial.set_user_attr("pid", os.getpid())
            params = suggest(trial, method)
            t0 = time.perf_counter()
            try:
                run_dir, result = self.train("trials", dataset, method, params, seed, base_run,
                                             on_epoch=report(trial))
            except RunPruned as e:
                trial.set_user_attr("pruned_after_epoch", e.epoch)
                trial.set_user_attr("run_dir", os.path.relpath(
                    self.run_dir("trials", dataset, method, params, seed, base_run),
                    self.workdir))
                if self.bar is not None:
                    self.bar.update(1)
                self.log(f"[{dataset}/{method}] trial {trial.number} {e} "
                         f"({time.perf_counter() - t0:.0f} s)")
                raise optuna.TrialPruned() from e
            except TrainingDiverged as e:
                trial.set_user_attr("diverged", str(e))
                self.log(f"[{dataset}/{method}] trial {trial.number} diverged: {e}")
                raise optuna.TrialPruned() from e
            trial.set_user_attr("run_dir", os.path.relpath(run_dir, self.workdir))
            val = result["val"]
            if self.bar is not None:
                self.bar.update(1)
            self.log(f"[{dataset}/{method}] trial {trial.number}: val utility "
                     f"{val['utility']:.4f} worst {val['worst']:.4f} gap {val['gap']:.4f} "
                     f"({time.perf_counter() - t0:.0f} s)")
            return float(val[self.bench.objective])

        while True:
            # Lost workers first: their lock is certainly free, so the trial is retried with
            # its parameters and directory whatever a heartbeat says yet.
            self._fail_lost(study)
            optuna.storages.fail_stale_trials(study)
            trials = study.get_trials(deepcopy=False)
            states = [t.state for t in trials]
            done = states.count(TrialState.COMPLETE) + sum(map(pruned_by_pruner, trials))
            if study.study_name not in self._counted:  # trials finished before this process
                self._counted.add(study.study_name)
                if done and hasattr(self.bar, "finished_earlier"):
                    self.bar.finished_earlier(min(done, budget))
            if done >= budget:
                return True
            if done + states.count(TrialState.RUNNING) >= budget:  # others finish the budget
                if not wait:
                    return False
                time.sleep(min(5.0, float(self.bench.heartbeat_s)))
                continue
            study.optimize(objective, n_trials=1, catch=())


def log_line(message: str) -> None:
    from tqdm.auto import tqdm

    tqdm.write(message, file=sys.stderr)
