"""The README's main job, one checkout against another (or one with extra flags), side by side.

    python benchmarks/main_job.py --out /tmp/mainjob \
        --run previous=/path/to/old/checkout --run head=. --run prune=.:--prune=median \
        --json benchmarks/results/main_job.json

A setting that has no flag of its own is compared through a config file: FLAGS may hold a
second `--config=FILE` (the last one counts), a file whose get_config() loads
configs/benchmark_digitsb.py and changes one field, e.g. `overrides.train.eval_batch_size`.

Each run is `python -m nhfair_jax.benchmark --config configs/benchmark_digitsb.py` started in
its checkout (so that checkout's package is the one imported) with a workdir and a fresh
persistent compilation cache of its own under --out, all started together by default (each then
has about the same share of the machine; --one_by_one runs them one after the other). Measured
per run: wall seconds, user + system CPU seconds and peak memory of the process (os.wait4), the
runs' own timings (result.json's timings_s summed over the run directories), the epochs trained,
the trials a pruner stopped, the trained runs whose first epoch compiled nothing (every program
read from the persistent cache) and traced nothing (every program the process's already,
nhfair_jax/training/programs.py), the steady-state training time (each run's epochs at the
median of its later epochs' training seconds, summed) and the wall time over it; and, against
the first run, how many results.csv cells (data set, method, rule, seed, split x metric) are
identical and the largest difference of the others.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

CONFIG = "configs/benchmark_digitsb.py"


def parse_run(text: str) -> dict:
    label, _, rest = text.partition("=")
    checkout, _, extra = rest.partition(":")
    if not label or not checkout:
        raise SystemExit(f"--run takes LABEL=CHECKOUT[:FLAGS], got {text!r}")
    return {"label": label, "checkout": os.path.abspath(checkout), "flags": extra.split()}


def start(run: dict, out: str, config: str):
    workdir = os.path.join(out, run["label"])
    env = {**os.environ, "NHFAIR_COMPILE_CACHE": os.path.join(out, run["label"] + "-xla-cache"),
           "PYTHONPATH": run["checkout"]}
    log = open(os.path.join(out, run["label"] + ".log"), "w")
    args = [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
            workdir, *run["flags"]]
    proc = subprocess.Popen(args, cwd=run["checkout"], env=env, stdout=log, stderr=log)
    return {**run, "workdir": workdir, "proc": proc, "t0": time.perf_counter()}


def wait(job: dict) -> dict:
    _, status, usage = os.wait4(job["proc"].pid, 0)
    wall = time.perf_counter() - job["t0"]
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{job['label']} failed: see {job['workdir']}.log")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024}


def run_dirs(workdir: str):
    for kind in ("trials", "seeds"):
        for folder, dirs, files in os.walk(os.path.join(workdir, kind)):
            if "config.json" in files:
                dirs.clear()
                yield folder


def measured(workdir: str) -> dict:
    timings, epochs, pruned, trained, clean, untraced, steady = {}, 0, 0, 0, 0, 0, 0.0
    for folder in run_dirs(workdir):
        log = []
        if os.path.exists(os.path.join(folder, "log.jsonl")):
            log = [json.loads(line) for line in open(os.path.join(folder, "log.jsonl"))]
        epochs += len(log)
        pruned += os.path.exists(os.path.join(folder, "pruned.json"))
        if log and "cache_hits" in log[0]:
            trained += 1
            clean += log[0]["compiles"] == log[0]["cache_hits"]
            untraced += log[0]["compiles"] == 0  # its programs were the process's already
        times = [e["time_train_s"] for e in log if "time_train_s" in e]
        if times:  # steady state: every epoch at the median of the later ones
            steady += len(times) * float(np.median(times[1:] or times))
        result = os.path.join(folder, "result.json")
        if os.path.exists(result):
            for key, value in json.load(open(result)).get("timings_s", {}).items():
                if isinstance(value, (int, float)):
                    timings[key] = timings.get(key, 0.0) + value
    return {"epochs": epochs, "pruned_trials": pruned,
            "first_epoch_compiles_nothing": f"{clean} of {trained}" if trained else "",
            "first_epoch_traces_nothing": f"{untraced} of {trained}" if trained else "",
            "steady_train_s": round(steady, 1),
            **{f"timings_{k}_s": round(v, 1) for k, v in sorted(timings.items())}}


def cells(workdir: str) -> dict:
    with open(os.path.join(workdir, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    out = {}
    for row in rows:
        key = tuple(row.get(k, "") for k in ("dataset", "method", "rule", "seed", "split"))
        for name, value in row.items():
            try:
                out[(*key, name)] = float(value)
            except (TypeError, ValueError):
                out[(*key, name)] = value
    return out


def compare(reference: dict, other: dict) -> dict:
    keys = set(reference) | set(other)
    same = sum(reference.get(k) == other.get(k) for k in keys)
    diffs = [abs(reference[k] - other[k]) for k in keys if k in reference and k in other
             and isinstance(reference[k], float) and isinstance(other[k], float)]
    return {"cells_identical": f"{same} of {len(keys)}",
            "largest_difference": max(diffs, default=0.0)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", action="append", required=True, type=parse_run,
                   help="LABEL=CHECKOUT[:FLAGS] (flags of the benchmark command, space-separated)")
    p.add_argument("--out", required=True, help="a new folder for the workdirs and logs")
    p.add_argument("--config", default=CONFIG)
    p.add_argument("--one_by_one", action="store_true")
    p.add_argument("--json")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=False)
    if a.one_by_one:
        done = [{**job, **wait(job)} for job in (start(r, a.out, a.config) for r in a.run)]
    else:
        jobs = [start(r, a.out, a.config) for r in a.run]
        done = [{**job, **wait(job)} for job in jobs]
    rows = []
    reference = cells(done[0]["workdir"])
    for job in done:
        row = {"run": job["label"], "flags": " ".join(job["flags"]),
               "wall_s": round(job["wall_s"], 1), "cpu_s": round(job["cpu_s"], 1),
               "peak_mb": round(job["peak_mb"]), **measured(job["workdir"]),
               **compare(reference, cells(job["workdir"]))}
        row["wall_over_steady"] = round(row["wall_s"] / row["steady_train_s"], 2) \
            if row["steady_train_s"] else None
        row["cpu_ratio"] = round(row["cpu_s"] / rows[0]["cpu_s"], 3) if rows else 1.0
        row["wall_ratio"] = round(row["wall_s"] / rows[0]["wall_s"], 3) if rows else 1.0
        rows.append(row)
    columns = ["run", "wall_s", "wall_ratio", "cpu_s", "cpu_ratio", "peak_mb", "epochs",
               "steady_train_s", "wall_over_steady", "pruned_trials",
               "first_epoch_compiles_nothing", "first_epoch_traces_nothing", "cells_identical",
               "largest_difference"]
    print_table(rows, columns)
    timing_keys = sorted({k for r in rows for k in r if k.startswith("timings_")})
    print_table(rows, ["run", *timing_keys])
    write_json(a.json, {"config": a.config, "together": not a.one_by_one, "runs": rows})


if __name__ == "__main__":
    main()
