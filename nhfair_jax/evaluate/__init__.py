"""A fairness report of any model's predictions, with bootstrap confidence intervals.

    python -m nhfair_jax.evaluate --predictions preds.csv [--label label --prediction prediction
        --group sex,race --score score] [--paired cd=pred_cf,rfp=pred_edit] [--out DIR]
        [--bootstrap 1000] [--seed 0] [--confidence 0.95]

Reads a CSV, a Parquet file or a run directory's predictions_<split>.npz and writes DIR/report.md,
DIR/report.json (every figure as {"value", "lo", "hi"} under the metric's name) and
DIR/groups.csv (one row per group: size, accuracy, AUC, flip rates, each with its interval).
Several group columns make intersectional groups; each attribute alone is reported too.

The library (predictions.py: reading; report.py: the figures and their files) and the command
(cli.py) are apart; the names below are the library's.
"""

from nhfair_jax.evaluate.cli import main
from nhfair_jax.evaluate.predictions import Predictions, load_predictions, parse_paired
from nhfair_jax.evaluate.report import evaluate, to_csv, to_json, to_markdown, write_report

__all__ = ["Predictions", "evaluate", "load_predictions", "main", "parse_paired", "to_csv",
           "to_json", "to_markdown", "write_report"]
