"""The benchmark: for each (data set, method) of a benchmark config, a Bayesian hyperparameter
sweep, selection on validation (DTO for ERM, the fairness-without-harm zones for the rest), seed
re-runs of every selected configuration, and the report.

    python -m nhfair_jax.benchmark --config configs/benchmark_digitsb.py --workdir runs/bench \
        [--storage postgresql://user:pass@host/db] [--force]

Running the same command again continues where it stopped; several machines given the same
--storage share the studies. The report is rebuilt from the run directories alone with
`python -m nhfair_jax.report --workdir runs/bench`.
"""

from __future__ import annotations

import os
import sys
import time

from absl import app, flags, logging
from ml_collections import config_flags

from nhfair_jax.cli import parse_flags

_CONFIG = config_flags.DEFINE_config_file("config", None, "A configs/benchmark_*.py file.",
                                          lock_config=True)
_WORKDIR = flags.DEFINE_string("workdir", None, "Benchmark directory (created if missing).")
_STORAGE = flags.DEFINE_string("storage", None, "Optuna storage URL; default a SQLite file "
                               "in the workdir.")
_FORCE = flags.DEFINE_bool("force", False, "Use a workdir made by a different benchmark config.")
_NO_REPORT = flags.DEFINE_bool("no_report", False, "Skip the report (workers of a shared "
                               "study; the last one, or `nhfair_jax.report`, writes it).")


def validate(bench) -> None:
    """Unknown methods, data sets or config files: one clear error before anything runs."""
    from nhfair_jax.config import load_config_file
    from nhfair_jax.data import known_datasets
    from nhfair_jax.errors import UserError
    from nhfair_jax.methods import registered
    from nhfair_jax.sweep.runner import OBJECTIVES

    unknown = [m for m in bench.methods if m not in registered()]
    if unknown:
        raise UserError(f"unknown method(s) {unknown} in the benchmark config; registered: "
                        f"{', '.join(sorted(registered()))}")
    if "erm" not in bench.methods:
        raise UserError("the benchmark config must include 'erm': every method is selected "
                        "relative to the ERM baseline")
    if bench.objective not in OBJECTIVES:
        raise UserError(f"objective must be one of {sorted(OBJECTIVES)}, got {bench.objective!r}")
    if not bench.datasets:
        raise UserError("the benchmark config names no data set")
    for name, spec in bench.datasets.items():
        skipped = list(spec.get("skip_methods", ()))
        wrong = [m for m in skipped if m not in bench.methods or m == "erm"]
        if wrong:
            raise UserError(f"data set {name!r}: skip_methods {wrong} must name methods of the "
                            "benchmark other than erm")
        try:
            config = load_config_file(spec.config)
        except FileNotFoundError as e:
            raise UserError(f"data set {name!r}: {e}") from e
        if config.data.name not in known_datasets():
            raise UserError(f"data set {name!r}: unknown data set {config.data.name!r}; known: "
                            f"{', '.join(known_datasets())}")


def dataset_methods(bench, dataset: str) -> list[str]:
    """The methods run on `dataset`: ERM first, then the benchmark's methods less the data set's
    `skip_methods` (a method that cannot run there, as OxonFair on a multi-class target)."""
    skipped = set(bench.datasets[dataset].get("skip_methods", ()))
    return ["erm", *[m for m in bench.methods if m != "erm" and m not in skipped]]


def check_workdir(workdir: str, bench, force: bool) -> None:
    """The workdir belongs to this benchmark config, or is new, or no trial has started in it
    (then a corrected config takes it over); writes benchmark_config.json."""
    from nhfair_jax.errors import UserError
    from nhfair_jax.rundir import config_diff, config_to_json, read_json, write_json
    from nhfair_jax.sweep.runner import log_line

    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "benchmark_config.json")
    resolved = config_to_json(bench)
    if os.path.exists(path) and not force:
        changed = config_diff(read_json(path), resolved)
        if changed and started_runs(workdir):
            raise UserError(f"{workdir} was made by a different benchmark config (differs in: "
                            f"{', '.join(changed[:6])}); use another --workdir, or --force to "
                            "continue in it anyway")
        if changed:
            log_line(f"note: {workdir} was made by a different benchmark config (differs in: "
                     f"{', '.join(changed[:6])}), but no trial has started in it: it now "
                     "belongs to this config")
    write_json(path, resolved)


def started_runs(workdir: str) -> list[str]:
    """Run directories of the workdir with a trained epoch, a checkpoint or a result, or that a
    worker holds right now."""
    from nhfair_jax.rundir import RunDir

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
    from tqdm.auto import tqdm

    from nhfair_jax.methods import spec
    from nhfair_jax.sweep import collect
    from nhfair_jax.sweep.runner import Sweeper, log_line, open_storage, storage_url

    validate(bench)
    check_workdir(workdir, bench, force)
    url = storage_url(storage, workdir)
    store = open_storage(url, int(bench.heartbeat_s), int(bench.grace_s))
    seeds = [int(s) for s in bench.seeds]
    sweeper = Sweeper(bench, workdir, store, log=log_line)
    # zero-shot CLIP / BLIP-2: one run
    total = sum(sweeper.budget(m) + len(seeds) - 1
                for d in bench.datasets for m in dataset_methods(bench, d))
    t0 = time.perf_counter()
    bar = tqdm(total=total, desc="benchmark", unit="run", file=sys.stderr,
               disable=not bench.progress)
    sweeper.bar = bar
    deferred = []
    for dataset in bench.datasets:
        methods = dataset_methods(bench, dataset)
        for method in methods:
            base = None
            if "base_run" in spec(method).needs:  # fitted on the selected ERM run
                base = collect.select(workdir, dataset, ["erm"])["erm"]["selected"]["dir"]
            sweeper.sweep(dataset, method, base_run=base)
        selection = collect.select(workdir, dataset, methods)
        # Seed runs another worker holds are left for the end: this worker moves on meanwhile.
        for job in seed_jobs(workdir, dataset, methods, seeds, selection, bar):
            if not _seed_run(sweeper, job, wait=False, bar=bar):
                log_line(f"[{dataset}/{job['method']}] seed {job['seed']}: another worker is "
                         "on it (or on the ERM run it needs); back to it at the end")
                deferred.append(job)
    for job in deferred:  # wait for them (a killed worker's run is resumed here)
        if job["base_job"] is not None:  # listed, and so finished, before: this only reads it
            sweeper.train_run(**{k: v for k, v in job["base_job"].items() if k != "base_job"})
        _seed_run(sweeper, job, wait=True, bar=bar)
    bar.close()
    log_line(f"benchmark runs finished in {time.perf_counter() - t0:.0f} s")
    if not report:
        return {}
    from nhfair_jax.report import build_report

    return build_report(workdir)


def seed_jobs(workdir: str, dataset: str, methods, seeds, selection, bar) -> list[dict]:
    """The seed re-runs of one data set's selected configurations (Sweeper.train_run's
    arguments, plus base_job: for a post-fit method, ERM's run of the same seed), ERM first."""
    from nhfair_jax.methods import spec
    from nhfair_jax.sweep.runner import log_line

    jobs, erm_jobs = [], {}
    for method in ["erm", *[m for m in methods if m != "erm"]]:
        chosen = selection[method]["selected"]
        if chosen is None:
            log_line(f"[{dataset}/{method}] no selectable candidate (all Unwanted); no seeds")
            bar.update(len(seeds) - 1)
            continue
        post_fit = "base_run" in spec(method).needs
        for seed in seeds[1:]:
            job = {"kind": "seeds", "dataset": dataset, "method": method,
                   "params": chosen["params"]["params"], "seed": seed,
                   "run_dir": os.path.join(workdir, "seeds", dataset, method, chosen["name"],
                                           f"s{seed}"),
                   # fitted on ERM's run of the same seed
                   "base_run": erm_jobs[seed]["run_dir"] if post_fit else None,
                   "base_job": erm_jobs[seed] if post_fit else None}
            if method == "erm":
                erm_jobs[seed] = job
            jobs.append(job)
    return jobs


def _seed_run(sweeper, job: dict, *, wait: bool, bar) -> bool:
    """Trains or reads one seed re-run and logs what happened; False: another worker holds it
    (only when not waiting)."""
    from nhfair_jax.sweep.runner import log_line

    t0 = time.perf_counter()
    done = sweeper.train_run(**{k: v for k, v in job.items() if k != "base_job"}, wait=wait)
    if done is None:
        return False
    if not done["trained"]:
        what = "finished already (by another worker or an earlier run)"
    elif job["base_run"] is not None:
        what = f"fitted on ERM's seed-{job['seed']} run ({time.perf_counter() - t0:.0f} s)"
    else:
        what = (f"trained, {done['epochs']} epoch{'s' * (done['epochs'] != 1)} here "
                f"({time.perf_counter() - t0:.0f} s)")
    log_line(f"[{job['dataset']}/{job['method']}] seed {job['seed']} of the selected "
             f"configuration: {what}")
    bar.update(1)
    return True


def main(argv) -> None:
    del argv
    logging.set_verbosity(logging.WARNING)
    from nhfair_jax.data import reused_sources

    try:
        workdir = _WORKDIR.value or os.path.join("runs", "bench")
        with reused_sources():  # every trial and seed run of a data set reads the same arrays
            out = run_benchmark(_CONFIG.value, workdir, _STORAGE.value, force=_FORCE.value,
                                report=not _NO_REPORT.value)
        if out:
            print(out["markdown"])
            print(f"report: {os.path.join(workdir, 'report.md')} (and report.html, "
                  "results.csv, plots/)")
    except Exception as e:  # noqa: BLE001 - a mistake is one line, a bug its traceback
        from nhfair_jax.cli import fail_with

        fail_with(e)


if __name__ == "__main__":
    flags.mark_flags_as_required(["config"])
    app.run(main, flags_parser=parse_flags)
