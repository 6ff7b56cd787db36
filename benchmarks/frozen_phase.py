"""Head-only epochs on cached features against the same epochs through the frozen encoder:
FSCL's linear phase, `method.linear_features` = "cached" (the default) and "augmented".

    python benchmarks/frozen_phase.py --json benchmarks/results/frozen_phase.json

Runs `--config` (default configs/digitsb.py:fscl: 30 epochs, the last 12 phase 2) once per mode,
each in a fresh process (the same cold start for both), and reads the per-epoch times from the
run's log.jsonl: phase-2 training and validation seconds per epoch (the first phase-2 epoch left
out: it compiles the new step and, when cached, computes the features), phase-1 training seconds
per epoch, the whole run, and the test accuracy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

MODES = ("augmented", "cached")

_RUN_ONE = """
import json, sys, tempfile, time
from nhfair_jax.config import load_config_file
from nhfair_jax.dispatch import run
cfg = load_config_file(sys.argv[1])
cfg.method.linear_features = sys.argv[2]
cfg.train.progress = False
with tempfile.TemporaryDirectory() as workdir:
    t0 = time.perf_counter()
    result = run(cfg, workdir)
    seconds = time.perf_counter() - t0
    log = [json.loads(line) for line in open(workdir + "/log.jsonl")]
print(json.dumps({"seconds": seconds, "log": log, "test_acc": result["test"]["acc"],
                  "test_worst_acc": result["test"]["worst_acc"]}))
"""


def _mean(values):
    values = list(values)
    return sum(values) / len(values) if values else None


def run_mode(config: str, mode: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _RUN_ONE, config, mode], capture_output=True,
                          text=True, check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    phase1 = [e for e in out["log"] if e.get("train_phase") == 0.0]
    phase2 = [e for e in out["log"] if e.get("train_phase") == 1.0]
    return {"mode": mode, "seconds": out["seconds"], "epochs": len(out["log"]),
            "phase2_epochs": len(phase2),
            "phase2_train_s": _mean(e["time_train_s"] for e in phase2[1:]),
            "phase2_eval_s": _mean(e["time_eval_s"] for e in phase2[1:]),
            "phase1_train_s": _mean(e["time_train_s"] for e in phase1),
            "test_acc": out["test_acc"], "test_worst_acc": out["test_worst_acc"]}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--config", default="configs/digitsb.py:fscl")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    rows = [run_mode(args.config, mode) for mode in MODES]
    by = {r["mode"]: r for r in rows}
    ratio = by["augmented"]["phase2_train_s"] / by["cached"]["phase2_train_s"]
    print_table(rows, ["mode", "phase2_train_s", "phase2_eval_s", "phase1_train_s", "seconds",
                       "test_acc", "test_worst_acc"])
    print(f"phase-2 training epoch, augmented / cached: {ratio:.1f}x")
    write_json(args.json, {"benchmark": "frozen_phase", "config": args.config, "runs": rows,
                           "phase2_train_augmented_over_cached": ratio})


if __name__ == "__main__":
    main()
