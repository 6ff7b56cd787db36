"""Post-fit sweeps on frozen features: what a DFR (or OxonFair) trial costs on a finished ERM run.

    python benchmarks/postfit.py --json benchmarks/results/postfit.json

Trains one short ERM run on DigitsB, then runs `--trials` DFR trials on it through
`nhfair_jax.dispatch.run`, cycling through DFR's search space (class weights x training rows x
penalty), each in its own run directory, as a sweep does. The first trial computes the
penultimate features of the best checkpoint once and caches them in the ERM run; every later
trial reads them and the data's labels and groups only (no model, no checkpoint, no forward
pass). For comparison, `--uncached` trials delete that cache first and so pay what every trial
paid before the cache (building the trainer, restoring the checkpoint, the forward passes).
Last, a real sweep: `--sweep-trials` Optuna trials of DFR on the same ERM run through the
benchmark's Sweeper, as `python -m nhfair_jax.benchmark` runs them.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

from nhfair_jax.config import digitsb_config, method_config  # noqa: E402
from nhfair_jax.dispatch import run  # noqa: E402
from nhfair_jax.training.postfit import cache_path  # noqa: E402

SPACE = list(itertools.product((False, True), (False, True), ("l1", "l2")))


def dfr_config(base_dir: str, i: int):
    cfg = digitsb_config("erm")
    weights, add_train, penalty = SPACE[i % len(SPACE)]
    cfg.method = method_config("dfr", base_config=os.path.join(base_dir, "config.json"),
                               base_workdir=base_dir, tune_class_weights=weights,
                               add_train=add_train, penalty=penalty)
    cfg.train.progress = False
    return cfg


def sweep_seconds(base_dir: str, workdir: str, trials: int) -> dict:
    """A real DFR sweep on the finished ERM run: `trials` Optuna (TPE) trials through the
    benchmark's Sweeper, on SQLite. A configuration drawn again reads its finished run directory
    (named by a hash of its parameters) instead of fitting again."""
    import ml_collections

    from nhfair_jax.sweep.runner import Sweeper, open_storage, storage_url

    bench = ml_collections.ConfigDict({
        "datasets": {"digitsb": {"config": "configs/erm_digitsb.py", "overrides": {}}},
        "methods": ("dfr",), "trials": trials, "trials_per_method": {}, "startup_trials": 3,
        "seeds": (0,), "objective": "loss", "sampler_seed": 0,
        "overrides": {"train": {"progress": False}}, "heartbeat_s": 10, "grace_s": 30})
    os.makedirs(workdir, exist_ok=True)
    storage = open_storage(storage_url(None, workdir), 10, 30)
    t0 = time.perf_counter()
    Sweeper(bench, workdir, storage, log=lambda *a: None).sweep(
        "digitsb", "dfr", base_run=base_dir)
    seconds = time.perf_counter() - t0
    fitted = len([d for d in os.listdir(os.path.join(workdir, "trials", "digitsb", "dfr"))])
    return {"trials": trials, "seconds": seconds, "distinct_configurations_fitted": fitted}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--trials", type=int, default=100)
    p.add_argument("--uncached", type=int, default=3)
    p.add_argument("--base-epochs", type=int, default=3)
    p.add_argument("--sweep-trials", type=int, default=100)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = os.path.join(tmp, "erm")
        base = digitsb_config("erm")
        base.train.epochs, base.train.progress = args.base_epochs, False
        t0 = time.perf_counter()
        run(base, base_dir)  # its config.json is what the DFR configs name
        base_s = time.perf_counter() - t0

        def trial(i: int) -> float:
            t = time.perf_counter()
            run(dfr_config(base_dir, i), os.path.join(tmp, f"dfr_{i}"))
            return time.perf_counter() - t

        uncached = []
        for i in range(args.uncached):
            for split in ("train", "val", "test"):
                path = cache_path(base_dir, "features", split)
                if os.path.exists(path):
                    os.remove(path)
            uncached.append(trial(i))
        t0 = time.perf_counter()
        cached = [trial(args.uncached + i) for i in range(args.trials)]
        total = time.perf_counter() - t0
        sweep = sweep_seconds(base_dir, os.path.join(tmp, "sweep"), args.sweep_trials)
    by_space = {}
    for i, seconds in enumerate(cached):
        by_space.setdefault(SPACE[(args.uncached + i) % len(SPACE)], []).append(seconds)
    rows = [{"tune_class_weights": w, "add_train": a, "penalty": pen,
             "median_s": statistics.median(s), "trials": len(s)}
            for (w, a, pen), s in sorted(by_space.items())]
    print(f"ERM base run ({args.base_epochs} epochs): {base_s:.1f} s")
    print(f"DFR trial with the feature cache deleted (the cost before it): median "
          f"{statistics.median(uncached):.2f} s of {len(uncached)}")
    print(f"DFR trials on cached features: {args.trials} in {total:.1f} s "
          f"(median {statistics.median(cached):.2f} s)\n")
    print_table(rows, ["tune_class_weights", "add_train", "penalty", "median_s", "trials"])
    print(f"\nA DFR sweep (Optuna TPE) of {sweep['trials']} trials on the finished ERM run: "
          f"{sweep['seconds']:.1f} s ({sweep['distinct_configurations_fitted']} distinct "
          f"configurations fitted; a configuration drawn again reads its run directory)")
    write_json(args.json, {"benchmark": "postfit", "base_epochs": args.base_epochs,
                           "base_seconds": base_s, "uncached_seconds": uncached,
                           "trials": args.trials, "total_seconds": total,
                           "cached_median_seconds": statistics.median(cached),
                           "by_space": rows, "sweep": sweep})


if __name__ == "__main__":
    main()
