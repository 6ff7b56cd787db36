"""`python -m nhfair_jax.benchmark`: the benchmark command (see nhfair_jax.benchmark)."""

from __future__ import annotations

import os
import sys

from absl import app, flags, logging
from ml_collections import config_flags

from nhfair_jax.benchmark import run_benchmark
from nhfair_jax.benchmark.workers import launch_benchmark
from nhfair_jax.cli import define_config_dict, fail_with, parse_flags
from nhfair_jax.errors import UserError
from nhfair_jax.report import summary_lines
from nhfair_jax.sweep.launch import slurm_options

_CONFIG = config_flags.DEFINE_config_file("config", None, "A configs/benchmark_*.py file.",
                                          lock_config=True)
_WORKDIR = flags.DEFINE_string("workdir", None, "Benchmark directory (created if missing).")
_STORAGE = flags.DEFINE_string("storage", None, "Optuna storage URL (sqlite:///, postgresql://, "
                               "journal:///); default the workdir's own study file (SQLite; a "
                               "journal with --launcher).")
_FORCE = flags.DEFINE_bool("force", False, "Use a workdir made by a different benchmark config.")
_NO_REPORT = flags.DEFINE_bool("no_report", False, "Skip the report (workers of a shared "
                               "study; the last one, or `nhfair_jax.report`, writes it).")
_LAUNCHER = flags.DEFINE_enum("launcher", None, ["local", "slurm"], "Run --workers workers "
                              "through submitit: a Slurm job array, or processes on this machine; "
                              "this process then only submits, waits and reports.")
_WORKERS = flags.DEFINE_integer("workers", 1, "Workers of --launcher.")
_NO_WAIT = flags.DEFINE_bool("no_wait", False, "With --launcher: return once the workers are "
                             "submitted; the same command again collects and reports.")
_PRUNE = flags.DEFINE_enum("prune", None, ["median", "halving"], "Stop trials that cannot win "
                           "early, on the sweep objective's validation value after each epoch: "
                           "Optuna's median or successive-halving pruner. Off by default (the "
                           "benchmark paper trains every trial); pruned trials count toward the "
                           "budget and are never selected.")
_SLURM = define_config_dict("slurm", slurm_options(), "sbatch settings of --launcher slurm (--slurm.partition=gpu --slurm.time=240 ...).")


def main(argv) -> None:
    del argv
    logging.set_verbosity(logging.WARNING)
    try:
        workdir = _WORKDIR.value
        if not workdir:
            workdir = os.path.join("runs", "bench")
            print(f"note: no --workdir given: the benchmark directory is {workdir}",
                  file=sys.stderr)
        if _PRUNE.value:  # a key of its own only when on: workdirs made without it stay valid
            with _CONFIG.value.unlocked():
                _CONFIG.value.prune = _PRUNE.value
        if _LAUNCHER.value is None and (_WORKERS.value != 1 or _NO_WAIT.value):
            raise UserError("--workers and --no_wait go with --launcher local or slurm (without "
                            "it this process is the one worker)")
        if _LAUNCHER.value is not None:
            done = launch_benchmark(_CONFIG.value, workdir, _STORAGE.value,
                                    launcher=_LAUNCHER.value, workers=_WORKERS.value,
                                    wait=not _NO_WAIT.value, slurm=_SLURM.value,
                                    force=_FORCE.value, report=not _NO_REPORT.value)
            out = done.get("report")
        else:
            out = run_benchmark(_CONFIG.value, workdir, _STORAGE.value, force=_FORCE.value,
                                report=not _NO_REPORT.value)
        if out:
            print("\n".join(summary_lines(out["info"])))
            print(f"report: {os.path.join(workdir, 'report.md')} (and report.html, "
                  "results.csv, plots/)")
    except Exception as e:  # noqa: BLE001 - a mistake is one line, a bug its traceback

        fail_with(e)


if __name__ == "__main__":
    flags.mark_flags_as_required(["config"])
    app.run(main, flags_parser=parse_flags)
