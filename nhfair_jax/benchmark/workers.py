"""The benchmark's workers as a job array (`--launcher slurm|local --workers N`): the picklable
worker that submitit runs on a node (run_benchmark without the report, requeued when the
scheduler stops it), and the command's side, which submits, waits, counts finished runs from
the study and the run directories, and reports; it never trains."""

from __future__ import annotations

import os

from absl import logging

from nhfair_jax import runtime
from nhfair_jax.benchmark import (check_workdir, dataset_methods, run_benchmark, seed_jobs,
                                  total_runs, validate)
from nhfair_jax.errors import UserError
from nhfair_jax.report import build_report
from nhfair_jax.rundir import RunDir
from nhfair_jax.sweep import collect, launch
from nhfair_jax.sweep.runner import Sweeper, log_line, open_storage, storage_url


def finished_runs(bench, workdir: str, storage) -> int:
    """How many of the benchmark's runs are finished: trials counted by the studies, seed
    re-runs by their run directories once a data set's sweeps are complete. Trains nothing."""
    sweeper = Sweeper(bench, workdir, storage)
    seeds = [int(s) for s in bench.seeds]
    done = 0
    for dataset in bench.datasets:
        methods = dataset_methods(bench, dataset)
        counts = {m: min(sweeper.finished_trials(dataset, m), sweeper.budget(m)) for m in methods}
        done += sum(counts.values())
        if any(counts[m] < sweeper.budget(m) for m in methods):
            continue  # seeds follow the selection, which waits for every sweep
        jobs = seed_jobs(workdir, dataset, methods, seeds, collect.select(workdir, dataset, methods),
                         None, log=lambda *_: None)
        skipped = len(methods) * (len(seeds) - 1) - len(jobs)  # methods with nothing to select
        done += skipped + sum(RunDir(job["run_dir"]).finished for job in jobs)
    return done


class Worker:
    """One benchmark worker of a job array: run_benchmark without the report. Picklable
    (submitit runs it on the node); its checkpoint method lets submitit requeue it when the
    scheduler preempts it or its time runs out: the requeued worker resumes from the workdir."""

    def __init__(self, bench, workdir: str, storage: str, force: bool):
        self.bench, self.workdir, self.storage, self.force = bench, workdir, storage, force

    def __call__(self, index: int) -> dict:
        import socket

        runtime.setup()  # a fresh process on the node: the command's settings
        logging.set_verbosity(logging.WARNING)
        log_line(f"worker {index} on {socket.gethostname()} (pid {os.getpid()}) starts")
        run_benchmark(self.bench, self.workdir, self.storage, force=self.force, report=False)
        return {"worker": index, "host": socket.gethostname()}

    def __submitit_checkpoint__(self, index: int):
        import submitit

        return submitit.helpers.DelayedSubmission(self, index)

    checkpoint = __submitit_checkpoint__  # the name submitit's signal handler looks for


def launch_benchmark(bench, workdir: str, storage: str | None, *, launcher: str, workers: int,
                     wait: bool = True, slurm=None, force: bool = False,
                     report: bool = True) -> dict:
    """The benchmark by a job array of `workers` workers sharing one study; this process only
    submits, waits and reports, and never trains.

    Returns:
      {"finished", "total", "workers": job ids (still running when not waiting), and
      "report": build_report's result once every run is finished}.

    Raises:
      UserError: the workers ended with runs left (the same command again resumes them).
    """
    if int(workers) < 1:
        raise UserError(f"--workers must be at least 1, got {workers}")
    validate(bench)
    check_workdir(workdir, bench, force)
    workdir = os.path.abspath(workdir)
    url = storage_url(storage, workdir, shared=True)  # opened here: a bad URL fails first
    store = open_storage(url, int(bench.heartbeat_s), int(bench.grace_s))
    total = total_runs(Sweeper(bench, workdir, store))
    array = launch.JobArray(os.path.join(workdir, "launcher"), launcher)
    try:
        return _collect(array, bench, workdir, store, url, total, workers=workers, wait=wait,
                        slurm=slurm, force=force, report=report)
    finally:
        array.close()


def _collect(array, bench, workdir, store, url, total, *, workers, wait, slurm, force, report):
    """launch_benchmark's part after the checks: attach, submit, wait, report."""
    def status() -> dict:
        return {"finished": finished_runs(bench, workdir, store), "total": total,
                "workers": array.job_ids()}

    def done(now) -> dict:
        for problem in array.problems():  # a lost worker's runs were finished by the others
            log_line(f"note: {problem}; its runs were finished by the other workers")
        return {**now, "report": build_report(workdir) if report else None}

    if array.active():
        log_line(f"workers of an earlier command are at work: {launch.describe(array)}")
    else:
        now = status()
        if now["finished"] >= total:
            return done(now)
        ids = array.submit(Worker(bench, workdir, url, force), workers,
                           slurm if slurm is not None else launch.slurm_options())
        log_line(f"submitted {len(ids)} workers ({now['finished']} of {total} runs finished "
                 f"so far; study {url}): {launch.describe(array)}")
    if not wait:
        now = status()
        log_line(f"{now['finished']} of {total} runs finished; run the same command again to "
                 "collect and report")
        return now
    try:
        array.wait(tick=lambda: log_line(f"{finished_runs(bench, workdir, store)} of {total} "
                                         f"runs finished; {launch.describe(array)}"))
    except KeyboardInterrupt:
        array.cancel()  # local workers end with this command; Slurm's keep going
        raise
    now = status()
    if now["finished"] < total:
        problems = array.problems()
        raise UserError(f"the workers ended with {total - now['finished']} of {total} runs left"
                        f"{' (' + '; '.join(problems) + ')' if problems else ''}; run the same "
                        "command again to resume them")
    return done(now)
