"""The benchmark: for each (data set, method) of a benchmark config, a Bayesian hyperparameter
sweep, selection on validation (DTO for ERM, the fairness-without-harm zones for the rest), seed
re-runs of every selected configuration, and the report.

    python -m nhfair_jax.benchmark --config configs/benchmark_digitsb.py --workdir runs/bench \
        [--storage postgresql://user:pass@host/db | journal:///nfs/study.log] [--force] \
        [--prune median|halving]
    # N workers as one Slurm job array (or as processes here: --launcher local) sharing the
    # study; waits for them and reports, or returns at once with --no_wait:
    python -m nhfair_jax.benchmark --config ... --workdir /nfs/bench --launcher slurm \
        --workers 16 --slurm.partition=gpu --slurm.gpus_per_task=1 --slurm.time=240

Splits: with the benchmark config's `splits = "per_seed"` (the default) every run splits its data
with its own training seed (`data.split_seed` = the run's seed), as the benchmark paper's code
re-splits with each seed, so the spread over seeds holds the split's variance too; with
`splits = "fixed"` every run keeps the data config's `data.split_seed`. Data sets with an
official split (Waterbirds) keep it either way.

Running the same command again continues where it stopped; several machines given the same
--storage share the studies. With --launcher, the same command again waits for the workers still
queued or running, submits new ones when runs are left and none is, and reports when every run
is finished. The report is rebuilt from the run directories alone with
`python -m nhfair_jax.report --workdir runs/bench`.
"""

from __future__ import annotations

import os
import time

from nhfair_jax.benchmark.progress import Progress
from nhfair_jax.config import load_config_file
from nhfair_jax.config_schema import BENCHMARK, ConfigError, check_config, check_run
from nhfair_jax.data import known_datasets, reused_sources
from nhfair_jax.errors import UserError
from nhfair_jax.methods import BASELINE, registered, spec
from nhfair_jax.report import build_report
from nhfair_jax.rundir import RunDir, claim_workdir, config_diff
from nhfair_jax.sweep import collect
from nhfair_jax.sweep.runner import (
    OBJECTIVES,
    PRUNERS,
    Sweeper,
    log_line,
    open_storage,
    storage_url,
)

SPLITS = ("per_seed", "fixed")


def validate(bench) -> None:
    """Unknown methods, data sets or config files: one clear error before anything runs. A
    config without `splits` gets the default, "per_seed" (written to benchmark_config.json)."""

    unknown = [m for m in bench.methods if m not in registered()]
    if unknown:
        raise UserError(f"unknown method(s) {unknown} in the benchmark config; registered: "
                        f"{', '.join(sorted(registered()))}")
    if BASELINE not in bench.methods:
        raise UserError(f"the benchmark config's methods must include {BASELINE!r}: every "
                        "method is selected relative to the ERM baseline")
    if bench.objective not in OBJECTIVES:
        raise UserError(f"objective must be one of {sorted(OBJECTIVES)}, got {bench.objective!r}")
    if "splits" not in bench:
        with bench.unlocked():
            bench.splits = SPLITS[0]
    if bench.splits not in SPLITS:
        raise UserError(f"splits must be one of {', '.join(SPLITS)}, got {bench.splits!r}")
    if bench.get("prune", "") not in ("", *PRUNERS):
        raise UserError(f"prune must be one of {', '.join(PRUNERS)} (or empty: off), got "
                        f"{bench.prune!r}")
    if not bench.datasets:
        raise UserError("the benchmark config names no data set")
    check_config(bench, BENCHMARK, what="the benchmark config")
    for name, entry in bench.datasets.items():
        skipped = list(entry.get("skip_methods", ()))
        wrong = [m for m in skipped if m not in bench.methods or m == BASELINE]
        if wrong:
            raise UserError(f"data set {name!r}: skip_methods {wrong} must name methods of the "
                            "benchmark other than erm")
        try:
            config = load_config_file(entry.config)
        except FileNotFoundError as e:
            raise UserError(f"data set {name!r}: {e}") from e
        if config.data.name not in known_datasets():
            raise UserError(f"data set {name!r}: unknown data set {config.data.name!r}; known: "
                            f"{', '.join(known_datasets())}")
        try:  # its runs' config: the file's, with the benchmark's overrides
            check_run(Sweeper(bench, "", None).base_config(name))
        except ConfigError as e:
            raise ConfigError(f"data set {name!r}: {e}") from e


def dataset_methods(bench, dataset: str) -> list[str]:
    """The methods run on `dataset`: ERM first, then the benchmark's methods less the data set's
    `skip_methods` (a method that cannot run there, as OxonFair on a multi-class target)."""

    skipped = set(bench.datasets[dataset].get("skip_methods", ()))
    return [BASELINE, *[m for m in bench.methods if m != BASELINE and m not in skipped]]


def check_workdir(workdir: str, bench, force: bool) -> None:
    """The workdir belongs to this benchmark config, or is new, or no trial has started in it
    (then a corrected config takes it over), or its config differs only in a raised trial
    budget (rundir.claim_workdir); writes benchmark_config.json."""

    def compare(before, resolved):
        changed = config_diff(before, resolved)
        if changed and budget_raised(before, resolved, changed):
            log_line(f"note: the trial budget of {workdir} rises ({', '.join(changed)}): its "
                     "finished trials are kept and the new ones added; the selection and the "
                     "seeds follow the larger sweep")
            return []
        return changed

    claim_workdir(workdir, bench, name="benchmark_config.json", force=force, compare=compare,
                  holds=lambda: bool(started_runs(workdir)),
                  what="was made by a different benchmark config",
                  remedy="use another --workdir, or --force to continue in it anyway",
                  empty="held no started trial")


BUDGET_KEYS = ("trials", "trials_per_method")


def budget_raised(before: dict, after: dict, changed: list[str]) -> bool:
    """Whether the configs differ only in trial budgets, none of them lower (a sweep with a
    larger budget goes on from the trials it has; a lower one would disown finished trials)."""
    if not changed or any(k.split(".")[0] not in BUDGET_KEYS for k in changed):
        return False

    def budget(config: dict, key: str):
        value = config
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return value

    for key in changed:
        old, new = budget(before, key), budget(after, key)
        if key.startswith("trials_per_method.") and old is None:
            old = before.get("trials")  # the method took the global budget before
        if not isinstance(new, int) or not isinstance(old, int) or new < old:
            return False
    return True


def started_runs(workdir: str) -> list[str]:
    """Run directories of the workdir with a trained epoch, a checkpoint or a result, or that a
    worker holds right now."""

    out = []
    for kind in ("trials", "seeds"):
        for folder, dirs, _ in os.walk(os.path.join(workdir, kind)):
            run_dir = RunDir(folder)
            if not run_dir.is_run_dir:
                continue
            dirs.clear()  # a run directory's subfolders are its checkpoints
            with run_dir.lock(wait=False) as free:
                if run_dir.has_started() or not free:
                    out.append(folder)
    return out


def run_benchmark(bench, workdir: str, storage: str | None = None, *, force: bool = False,
                  report: bool = True) -> dict:
    with reused_sources():  # every trial and seed run of a data set reads the same arrays
        return _run_benchmark(bench, workdir, storage, force=force, report=report)


def _run_benchmark(bench, workdir, storage, *, force, report) -> dict:
    validate(bench)
    check_workdir(workdir, bench, force)
    url = storage_url(storage, workdir)
    store = open_storage(url, int(bench.heartbeat_s), int(bench.grace_s))
    seeds = [int(s) for s in bench.seeds]
    sweeper = Sweeper(bench, workdir, store, log=log_line)
    t0 = time.perf_counter()
    bar = Progress(total_runs(sweeper), enabled=bool(bench.progress))
    sweeper.bar, sweeper.log = bar, bar.log
    deferred, pending = [], list(bench.datasets)
    # First every study this worker can add a trial to, passing those whose last trials other
    # workers hold (many workers would otherwise idle at each study's tail); then, waiting, the
    # ones it passed. A data set's seeds follow once all of its sweeps are done.
    for wait in (False, True):
        for dataset in list(pending):
            methods = dataset_methods(bench, dataset)
            if not _sweeps(sweeper, dataset, methods, wait=wait):
                continue
            pending.remove(dataset)
            selection = collect.select(workdir, dataset, methods)
            # Seed runs another worker holds are left for the end: this worker moves on.
            for job in seed_jobs(workdir, dataset, methods, seeds, selection, bar, bar.log):
                if not _seed_run(sweeper, job, wait=False, bar=bar):
                    bar.log(f"[{dataset}/{job['method']}] seed {job['seed']}: another worker "
                            "is on it (or on the ERM run it needs); back to it at the end")
                    deferred.append(job)
    for job in deferred:  # wait for them (a killed worker's run is resumed here)
        if job["base_job"] is not None:  # listed, and so finished, before: this only reads it
            sweeper.train_run(**{k: v for k, v in job["base_job"].items() if k != "base_job"})
        _seed_run(sweeper, job, wait=True, bar=bar)
    bar.close()
    log_line(f"benchmark runs finished in {time.perf_counter() - t0:.0f} s")
    if not report:
        return {}

    return build_report(workdir)


def _sweeps(sweeper, dataset: str, methods, *, wait: bool) -> bool:
    """Runs a data set's sweeps, ERM first; whether all of them are done (without `wait`,
    those whose last trials other workers hold are passed, and so are the post-fit sweeps
    while ERM's is not done)."""

    erm_done = done = sweeper.sweep(dataset, BASELINE, wait=wait)
    for method in [m for m in methods if m != BASELINE]:
        base = None
        if spec(method).fitted_on_base_run:
            if not erm_done:
                done = False
                continue
            base = collect.select(sweeper.workdir, dataset, [BASELINE])[BASELINE]["selected"]["dir"]
        done = sweeper.sweep(dataset, method, base_run=base, wait=wait) and done
    return done


def total_runs(sweeper) -> int:
    """Trials and seed re-runs of the whole benchmark (zero-shot CLIP / BLIP-2: one run)."""
    bench = sweeper.bench
    return sum(sweeper.budget(m) + len(bench.seeds) - 1
               for d in bench.datasets for m in dataset_methods(bench, d))


def seed_jobs(workdir: str, dataset: str, methods, seeds, selection, bar, log=None
              ) -> list[dict]:
    """The seed re-runs of one data set's selected configurations (Sweeper.train_run's
    arguments, plus base_job: for a post-fit method, ERM's run of the same seed), ERM first."""

    log = log or log_line
    jobs, erm_jobs = [], {}
    for method in [BASELINE, *[m for m in methods if m != BASELINE]]:
        chosen = selection[method]["selected"]
        if chosen is None:
            log(f"[{dataset}/{method}] no selectable candidate (all Unwanted); no seeds")
            if bar is not None:
                bar.update(len(seeds) - 1)
            continue
        post_fit = spec(method).fitted_on_base_run
        for seed in seeds[1:]:
            job = {"kind": "seeds", "dataset": dataset, "method": method,
                   "params": chosen["params"]["params"], "seed": seed,
                   "run_dir": os.path.join(workdir, "seeds", dataset, method, chosen["name"],
                                           f"s{seed}"),
                   # fitted on ERM's run of the same seed
                   "base_run": erm_jobs[seed]["run_dir"] if post_fit else None,
                   "base_job": erm_jobs[seed] if post_fit else None}
            if method == BASELINE:
                erm_jobs[seed] = job
            jobs.append(job)
    return jobs


def _seed_run(sweeper, job: dict, *, wait: bool, bar) -> bool:
    """Trains or reads one seed re-run and logs what happened; False: another worker holds it
    (only when not waiting)."""
    t0 = time.perf_counter()
    done = sweeper.train_run(**{k: v for k, v in job.items() if k != "base_job"}, wait=wait)
    if done is None:
        return False
    if not done["trained"]:  # counted, not listed: a rerun of a finished benchmark is quiet
        bar.finished_earlier(1)
        return True
    if job["base_run"] is not None:
        what = f"fitted on ERM's seed-{job['seed']} run ({time.perf_counter() - t0:.0f} s)"
    else:
        what = (f"trained, {done['epochs']} epoch{'s' * (done['epochs'] != 1)} here "
                f"({time.perf_counter() - t0:.0f} s)")
    bar.update(1)
    bar.log(f"[{job['dataset']}/{job['method']}] seed {job['seed']} of the selected "
            f"configuration: {what}")
    return True
