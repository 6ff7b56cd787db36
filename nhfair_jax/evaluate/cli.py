"""`python -m nhfair_jax.evaluate`: the command (flags in, files out, one-line errors)."""

from __future__ import annotations

import argparse
import os
import sys

from nhfair_jax import runtime
from nhfair_jax.errors import UserError
from nhfair_jax.evaluate.predictions import MIN_GROUP, load_predictions, parse_paired
from nhfair_jax.evaluate.report import (
    evaluate,
    format_figure,
    ordered_figures,
    write_report,
)
from nhfair_jax.metrics.direction import LEGEND, marked

_DESCRIPTION = """A fairness report of any model's predictions, with bootstrap confidence intervals.

Reads a CSV, a Parquet file or a run directory's predictions_<split>.npz and writes DIR/report.md,
DIR/report.json (every figure as {"value", "lo", "hi"} under the metric's name) and
DIR/groups.csv (one row per group: size, accuracy, AUC, selection rate, TPR, FPR, flip rates,
each with its interval). Several group columns make intersectional groups; each attribute alone
is reported too."""

class _HelpFormatter(argparse.RawDescriptionHelpFormatter,
                     argparse.ArgumentDefaultsHelpFormatter):
    """The module docstring as written, and every option's default in --help."""


def main(argv=None) -> int:
    runtime.setup()
    ap = argparse.ArgumentParser(prog="python -m nhfair_jax.evaluate", description=_DESCRIPTION,
                                 formatter_class=_HelpFormatter)
    ap.add_argument("--predictions", required=True,
                    help="CSV, TSV, Parquet, or a run directory's predictions_<split>.npz")
    ap.add_argument("--label", default="label", help="column of the true class")
    ap.add_argument("--prediction", default="prediction", help="column of the predicted class")
    ap.add_argument("--group", default="group",
                    help="group column(s), comma-separated for intersectional groups")
    ap.add_argument("--score", default=None,
                    help="column of the positive-class score (binary targets; default: the "
                         "column 'score' when there is one)")
    ap.add_argument("--paired", default=None,
                    help="predictions on edited images: cd=COL (sensitive attribute edited) "
                         "and/or rfp=COL (another attribute edited); an empty cell: no pair")
    ap.add_argument("--classes", default=None,
                    help="every class, comma-separated, when the labels do not show them all")
    ap.add_argument("--positive", default=None,
                    help="the positive class (default: the last in sorted order)")
    ap.add_argument("--out", default=None, help="report folder (default: <file name>_report)")
    ap.add_argument("--bootstrap", type=int, default=1000, help="resamples; 0 for no intervals")
    ap.add_argument("--seed", type=int, default=0, help="seed of the bootstrap's resampling")
    ap.add_argument("--confidence", type=float, default=0.95,
                    help="coverage of the percentile intervals")
    ap.add_argument("--min_group", "--min-group", type=int, default=MIN_GROUP,
                    help="warn about groups with fewer examples")
    a = ap.parse_args(argv)
    try:
        if a.bootstrap < 0 or not 0 < a.confidence < 1:
            raise UserError("--bootstrap must be >= 0 and --confidence in (0, 1)")
        preds = load_predictions(
            a.predictions, label=a.label, prediction=a.prediction, group=a.group,
            score=a.score or "score", score_given=a.score is not None,
            paired=parse_paired(a.paired),
            classes=a.classes.split(",") if a.classes else None, positive=a.positive)
        report = evaluate(preds, n=a.bootstrap, seed=a.seed, confidence=a.confidence,
                          min_group=a.min_group)
        out = a.out or os.path.splitext(os.path.basename(a.predictions))[0] + "_report"
        paths = write_report(report, out)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for w in report["warnings"]:
        print(f"warning: {w}", file=sys.stderr)
    first = next(iter(report["groupings"].values()))
    figs = first["figures"]

    for k in ordered_figures(figs):
        if k != "count":
            print(f"{marked(k):>12}  {format_figure(figs[k])}")
    print(LEGEND)
    print("wrote " + ", ".join(paths))
    return 0

