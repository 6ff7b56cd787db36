"""Time every count-based metric on many predictions (issue: metrics of 10 million predictions,
8 groups, 7 classes in under a second on the 2-core CPU).

    python benchmarks/metrics.py --n 10000000 --groups 8 --classes 7 --json benchmarks/results/metrics.json
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import best_of, print_table, write_json  # noqa: E402

from nhfair_jax import metrics  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=10_000_000)
    p.add_argument("--groups", type=int, default=8)
    p.add_argument("--classes", type=int, default=7)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    rng = np.random.default_rng(0)
    y = rng.integers(0, args.classes, args.n)
    yhat = np.where(rng.random(args.n) < 0.7, y, rng.integers(0, args.classes, args.n))
    g = rng.integers(0, args.groups, args.n)
    kw = dict(num_classes=args.classes, num_groups=args.groups)
    counts = metrics.confusion_counts(y, yhat, g, **kw)
    stages = {
        "confusion_counts (validate + bincount)": lambda: metrics.confusion_counts(y, yhat, g, **kw),
        "fairness_from_counts (all rates)": lambda: metrics.fairness_from_counts(counts),
        "fairness_report (end to end)": lambda: metrics.fairness_report(y, yhat, g, **kw),
    }
    rows = [{"stage": name, "seconds": best_of(fn, args.repeats, warmup=False)}
            for name, fn in stages.items()]
    for r in rows:
        r["predictions_per_s"] = args.n / r["seconds"]
    print(f"n={args.n:,} groups={args.groups} classes={args.classes} (best of {args.repeats})")
    print_table(rows, ["stage", "seconds", "predictions_per_s"])
    write_json(args.json, {"benchmark": "metrics", "n": args.n, "groups": args.groups,
                           "classes": args.classes, "rows": rows})


if __name__ == "__main__":
    main()
