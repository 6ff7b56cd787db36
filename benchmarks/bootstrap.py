"""Time metrics.bootstrap (issue: 1,000 stratified resamples of 1M predictions in seconds).

    python benchmarks/bootstrap.py --n 1000000 --resamples 1000 --score-resamples 1000 \
        --loop-resamples 5 --json benchmarks/results/bootstrap.json

Rows: the count path (every count-based figure, no scores), the score path (adds overall and
per-group AUC; linear in the rows, so timed on `--score-resamples` resamples), and a plain loop
(draw rows per group, call fairness_report) on a few resamples for comparison. Each row times the
whole call (point report included); the last column extrapolates its per-resample time to
`--resamples`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

from nhfair_jax import metrics  # noqa: E402


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _plain_loop(y, yhat, g, score, resamples, groups, classes):
    rng = np.random.default_rng(0)
    members = [np.flatnonzero(g == a) for a in range(groups)]
    for _ in range(resamples):
        rows = np.concatenate([rng.choice(m, m.size) for m in members])
        metrics.fairness_report(y[rows], yhat[rows], g[rows], num_classes=classes,
                                num_groups=groups,
                                y_score=None if score is None else score[rows])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("--groups", type=int, default=8)
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--score-resamples", type=int, default=50)
    p.add_argument("--loop-resamples", type=int, default=10)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, args.n)
    yhat = np.where(rng.random(args.n) < 0.8, y, 1 - y)
    g = rng.integers(0, args.groups, args.n)
    score = np.clip(0.3 * y + 0.7 * rng.random(args.n), 0, 1).astype(np.float32)
    kw = dict(num_classes=2, num_groups=args.groups)
    point = _timed(lambda: metrics.fairness_report(y, yhat, g, **kw))
    point_auc = _timed(lambda: metrics.fairness_report(y, yhat, g, y_score=score, **kw))
    rows = []

    def add(stage, resamples, seconds, setup):
        # seconds: the whole call; setup: the part that does not repeat per resample (the point
        # report with AUC; the count path's point report is within timing noise, so 0 there).
        per = (seconds - setup) / resamples
        rows.append({"stage": stage, "resamples": resamples, "seconds": seconds,
                     "per_resample_ms": 1e3 * per, total: setup + per * args.resamples})

    total = f"seconds_for_{args.resamples}"
    add("count path (no scores): every count figure", args.resamples,
        _timed(lambda: metrics.bootstrap(None, y, yhat, g, n=args.resamples, **kw)), 0.0)
    add("score path: + overall and per-group AUC", args.score_resamples,
        _timed(lambda: metrics.bootstrap(None, y, yhat, g, y_score=score,
                                         n=args.score_resamples, **kw)), point_auc)
    add("plain loop, no scores (rows per group + fairness_report)", args.loop_resamples,
        _timed(lambda: _plain_loop(y, yhat, g, None, args.loop_resamples, args.groups, 2)), 0.0)
    add("plain loop with scores", args.loop_resamples,
        _timed(lambda: _plain_loop(y, yhat, g, score, args.loop_resamples, args.groups, 2)), 0.0)
    print(f"n={args.n:,} groups={args.groups} binary target; point report {point:.3f} s "
          f"({point_auc:.3f} s with AUC); {total} extrapolates the per-resample time")
    print_table(rows, ["stage", "resamples", "seconds", "per_resample_ms", total])
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    write_json(args.json, {"benchmark": "bootstrap", "n": args.n, "groups": args.groups,
                           "point_report_s": point, "point_report_with_auc_s": point_auc,
                           "load_average_1min": os.getloadavg()[0], "rows": rows})


if __name__ == "__main__":
    main()
