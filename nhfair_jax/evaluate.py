"""A fairness report of any model's predictions, with bootstrap confidence intervals.

    python -m nhfair_jax.evaluate --predictions preds.csv [--label label --prediction prediction
        --group sex,race --score score] [--paired cd=pred_cf,rfp=pred_edit] [--out DIR]
        [--bootstrap 1000] [--seed 0] [--confidence 0.95]

Reads a CSV, a Parquet file or a run directory's predictions_<split>.npz and writes DIR/report.md,
DIR/report.json (every figure as {"value", "lo", "hi"} under the metric's name) and
DIR/groups.csv (one row per group: size, accuracy, AUC, flip rates, each with its interval).
Several group columns make intersectional groups; each attribute alone is reported too.
"""

from __future__ import annotations

import argparse
import csv
import io as _stringio
import os
import sys
from dataclasses import dataclass, field

import numpy as np

from nhfair_jax.errors import UserError

PAIRED_METRICS = ("cd", "rfp")
MIN_GROUP = 30


@dataclass
class Predictions:
    """Labels, predictions and groups of one file, encoded as integers with their names."""

    source: str
    y_true: np.ndarray
    y_pred: np.ndarray
    class_names: list
    attributes: list  # group column names
    attribute_codes: list  # one int array per attribute
    attribute_names: list  # one list of value names per attribute
    score: np.ndarray | None = None
    paired: dict = field(default_factory=dict)  # metric -> (column, int codes, -1 where no pair)


# --- reading -------------------------------------------------------------------------------

def _read_table(path: str):
    import pandas as pd

    if not os.path.exists(path):
        raise UserError(f"--predictions {path}: no such file")
    ext = os.path.splitext(path)[1].lower()
    try:
        if ext in (".csv", ".txt", ".tsv"):
            frame = pd.read_csv(path, sep="\t" if ext == ".tsv" else ",", low_memory=False)
        elif ext in (".parquet", ".pq"):
            frame = pd.read_parquet(path)
        else:
            raise UserError(f"--predictions {path}: unknown file type {ext!r}; give a .csv, "
                            ".parquet or a run directory's predictions_<split>.npz")
    except pd.errors.EmptyDataError:
        raise UserError(f"{path} is empty: no header and no rows") from None
    except (pd.errors.ParserError, OSError, ValueError) as e:
        raise UserError(f"{path}: cannot read it ({str(e).splitlines()[0]})") from None
    if len(frame) == 0:
        raise UserError(f"{path} has a header but no rows")
    return frame


def _column(frame, path: str, name: str, flag: str):
    if name not in frame.columns:
        cols = ", ".join(map(str, frame.columns[:20]))
        raise UserError(f"{path} has no column {name!r} (columns: {cols}); name it with {flag}")
    values = frame[name].to_numpy()
    missing = np.flatnonzero(_isna(values))
    if missing.size:
        raise UserError(f"{path}: column {name!r} is empty or NaN at row {missing[0] + 1} "
                        f"({missing.size} such rows; rows count from 1 after the header)")
    return values


def _isna(values: np.ndarray) -> np.ndarray:
    import pandas as pd

    return np.asarray(pd.isna(values), bool)


def _canonical(values: np.ndarray) -> np.ndarray:
    """Integral floats as ints; anything non-numeric as strings; so 1, 1.0 and '1' compare."""
    if values.dtype.kind in "iub":
        return values.astype(np.int64)
    if values.dtype.kind == "f" and np.all(values == np.round(values)):
        return values.astype(np.int64)
    if values.dtype.kind == "f":
        return values
    import pandas as pd

    codes, uniques = pd.factorize(values)  # format each distinct value once
    return np.array([_label_str(v) for v in uniques], dtype=str)[codes]


def _label_str(v) -> str:
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def _encode_classes(labels, preds, path, label_col, pred_col, classes=None, positive=None):
    """Class codes in sorted order (or the order of --classes); --positive becomes the last."""
    labels, preds = _canonical(labels), _canonical(preds)
    if classes is not None or labels.dtype.kind != preds.dtype.kind:
        labels, preds = labels.astype(str), preds.astype(str)
    names = [str(c) for c in classes] if classes is not None else np.unique(labels).tolist()
    if positive is not None:
        if str(positive) not in map(str, names):
            raise UserError(f"--positive {positive!r} is not a class of column {label_col!r} "
                            f"(classes: {', '.join(map(str, names))})")
        names = sorted(names, key=lambda c: str(c) == str(positive))  # stable: it goes last
    index = {v: i for i, v in enumerate(names)}
    codes = []
    for col, values in ((label_col, labels), (pred_col, preds)):
        uniq, inverse = np.unique(values, return_inverse=True)
        unknown = [i for i, u in enumerate(uniq.tolist()) if u not in index]
        if unknown:
            row = int(np.flatnonzero(np.isin(inverse, unknown))[0])
            where = "not in --classes" if classes is not None else \
                f"never seen in column {label_col!r}"
            raise UserError(f"{path}: column {col!r} holds class {_label_str(values[row])!r} at "
                            f"row {row + 1}, {where} (classes: "
                            f"{', '.join(map(str, names[:20]))}); pass --classes to list every "
                            "class")
        codes.append(np.array([index[u] for u in uniq.tolist()], np.int64)[inverse])
    if len(names) < 2:
        raise UserError(f"{path}: column {label_col!r} holds a single class {names[0]!r}; a "
                        "report needs two or more (pass --classes to list them)")
    return codes[0], codes[1], [_label_str(c) for c in names]


def _factorise(values) -> tuple[np.ndarray, list]:
    values = _canonical(values)
    names, codes = np.unique(values, return_inverse=True)
    return codes.astype(np.int64), [_label_str(v) for v in names.tolist()]


def _run_names(path: str):
    """class_names / group_names from the run directory's result.json next to an npz."""
    from nhfair_jax.rundir import RunDir

    meta = RunDir(os.path.dirname(os.path.abspath(path))).result()
    if meta is not None:
        return meta.get("class_names"), meta.get("group_names")
    return None, None


def _load_npz(path: str) -> Predictions:
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise UserError(f"{path}: cannot read it as an .npz ({e})") from None
    missing = [k for k in ("label", "group", "logits") if k not in data.files]
    if missing:
        raise UserError(f"{path} has no field {missing[0]!r} (fields: {', '.join(data.files)}); "
                        "expected a run directory's predictions_<split>.npz")
    labels, groups, logits = data["label"], data["group"], data["logits"]
    if labels.size == 0:
        raise UserError(f"{path} holds no rows")
    num_classes = logits.shape[1]
    class_names, group_names = _run_names(path)
    class_names = class_names or [str(c) for c in range(num_classes)]
    observed, codes = np.unique(groups, return_inverse=True)
    all_groups = group_names or [str(a) for a in range(int(groups.max()) + 1)]
    score = data["score"][:, 1].astype(np.float64) if num_classes == 2 and "score" in data.files \
        else None
    return Predictions(path, labels.astype(np.int64), logits.argmax(axis=1).astype(np.int64),
                       list(class_names), ["group"], [codes.astype(np.int64)],
                       [[all_groups[a] for a in observed]], score)


def load_predictions(path: str, *, label="label", prediction="prediction", group="group",
                     score="score", paired=None, classes=None, positive=None,
                     score_given=False) -> Predictions:
    """Reads and checks a predictions file.

    Args:
      path: .csv, .tsv, .parquet, or a run directory's predictions_<split>.npz (whose fields
        index, label, group, logits and score fix the columns; the prediction is the arg max).
      label, prediction: column names of the true and predicted classes (numbers or strings).
      group: one column name, or several separated by commas (intersectional groups).
      score: column of the positive-class score (binary targets); skipped when absent unless
        `score_given`.
      paired: {"cd" or "rfp": column of the prediction on the edited image}; an empty cell means
        the row has no pair.
      classes: every class in order, when the labels do not show them all.
      positive: the positive class (for scores, TPR and eqopp); default the last in sorted order.

    Raises:
      UserError: a missing column, an empty cell, a prediction class never seen in the labels,
        an empty file; the message names the column and the row.
    """
    import pandas as pd

    if path.lower().endswith(".npz"):
        return _load_npz(path)
    frame = _read_table(path)
    y_true, y_pred, class_names = _encode_classes(
        _column(frame, path, label, "--label"), _column(frame, path, prediction, "--prediction"),
        path, label, prediction, classes, positive)
    attributes = [g.strip() for g in group.split(",") if g.strip()]
    if not attributes:
        raise UserError("--group names no column; give one, or several separated by commas")
    codes, names = zip(*(_factorise(_column(frame, path, a, "--group")) for a in attributes))
    out = Predictions(path, y_true, y_pred, class_names, attributes, list(codes), list(names))
    if score_given or score in frame.columns:
        values = pd.to_numeric(pd.Series(_column(frame, path, score, "--score")), errors="coerce")
        if values.isna().any():
            bad = int(np.flatnonzero(values.isna())[0])
            raise UserError(f"{path}: column {score!r} holds {str(frame[score].iloc[bad])!r} at "
                            f"row {bad + 1}; a score is a number")
        if len(class_names) != 2:
            raise UserError(f"--score gives AUC for binary targets; column {label!r} has "
                            f"{len(class_names)} classes")
        out.score = values.to_numpy(np.float64)
    for metric, col in (paired or {}).items():
        if col not in frame.columns:
            raise UserError(f"{path} has no column {col!r} (named by --paired {metric}={col})")
        values = frame[col].to_numpy()
        has_pair = ~_isna(values)
        lookup = {c: i for i, c in enumerate(class_names)}
        keys = [_label_str(v) for v in values[has_pair]]
        unknown = [k for k in keys if k not in lookup]
        if unknown:
            i = int(np.flatnonzero(has_pair)[keys.index(unknown[0])])
            raise UserError(f"{path}: column {col!r} holds class {unknown[0]!r} at row {i + 1}, "
                            f"never seen in column {label!r}")
        codes = np.full(len(values), -1, np.int64)
        codes[has_pair] = [lookup[k] for k in keys]
        out.paired[metric] = (col, codes)
    return out


def parse_paired(text: str | None) -> dict:
    """'cd=pred_cf,rfp=pred_edit' (a bare column means cd) -> {"cd": "pred_cf", ...}."""
    out = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        metric, sep, col = item.partition("=")
        metric, col = (metric.strip(), col.strip()) if sep else ("cd", metric.strip())
        if metric not in PAIRED_METRICS:
            raise UserError(f"--paired {item!r}: the metric must be one of "
                            f"{', '.join(PAIRED_METRICS)} (e.g. cd=pred_cf)")
        out[metric] = col
    return out


# --- the report ----------------------------------------------------------------------------

def _groupings(p: Predictions) -> list[tuple[str, np.ndarray, list]]:
    """(name, codes of observed groups, names): the intersection, then each attribute alone."""
    from nhfair_jax.data.store import combine_groups

    out = []
    if len(p.attributes) > 1:
        combined, names = combine_groups(p.attribute_codes, p.attribute_names)
        observed, codes = np.unique(combined, return_inverse=True)
        out.append((" & ".join(p.attributes), codes.astype(np.int64),
                    [names[a] for a in observed]))
    out += list(zip(p.attributes, p.attribute_codes, p.attribute_names))
    return out


def _empty_cells(y_true, groups, group_names, class_names, scores: bool) -> list[str]:
    """Which (group, class) cells hold no example, and the figures that leave them out."""
    counts = np.zeros((len(group_names), len(class_names)), np.int64)
    np.add.at(counts, (groups, y_true), 1)
    out = []
    for a, c in zip(*np.nonzero(counts == 0)):
        uses = ["eqodd", "deo", "eqodd_ovr"]
        uses += ["eqopp"] if len(class_names) == 2 and c == 1 else []
        uses += ["the group's AUC"] if scores else []
        out.append(f"group {group_names[a]!r} has no example of class {class_names[c]!r}: that "
                   f"cell is left out of {', '.join(uses)}")
    return out


def evaluate(p: Predictions, *, n: int = 1000, seed: int = 0, confidence: float = 0.95,
             min_group: int = MIN_GROUP) -> dict:
    """The report of one predictions file: figures with intervals, per-group rows, warnings.

    Returns:
      {"figures": {metric: {"value", "lo", "hi"}} of the first grouping (the intersection when
      several group columns are given), "groupings": {name: {"figures", "groups"}} for every
      grouping, "warnings", "left_out", "input", "bootstrap"}.
    """
    from nhfair_jax.metrics import bootstrap
    from nhfair_jax.metrics.bootstrap import bootstrap_rate

    c = len(p.class_names)
    groupings, warnings, left_out = {}, [], []
    for name, codes, names in _groupings(p):
        g = len(names)
        ci = bootstrap(None, p.y_true, p.y_pred, codes, y_score=p.score, n=max(n, 1), seed=seed,
                       confidence=confidence, num_classes=c, num_groups=g)
        ci = {k: v for k, v in ci.items() if k not in ("class_names", "group_names")}
        if n == 0:
            ci = {k: _no_interval(v) for k, v in ci.items()}
        per_group = [{"group": names[a], "size": int(ci["group_size"][a]["value"]),
                      "acc": ci["group_acc"][a]} for a in range(g)]
        if "group_auc" in ci:
            for a in range(g):
                per_group[a]["auc"] = ci["group_auc"][a]
        figures = {k: v for k, v in ci.items() if isinstance(v, dict)}
        if c == 2:  # what explains dp and eqodd: each group's rates of the positive class
            figures["dp_ratio"] = _dp_ratio(p, codes, g, n, seed, confidence)
            chosen = p.y_pred == 1
            for key, rows in (("selection_rate", slice(None)), ("tpr", p.y_true == 1),
                              ("fpr", p.y_true == 0)):
                rates = bootstrap_rate(chosen[rows], codes[rows], n=max(n, 1), seed=seed,
                                       confidence=confidence, num_groups=g)["group_rate"]
                for a in range(g):
                    per_group[a][key] = rates[a] if n else _no_interval(rates[a])
        for metric, (col, codes_cf) in p.paired.items():
            has = codes_cf >= 0
            flips = bootstrap_rate(p.y_pred[has] != codes_cf[has], codes[has], n=max(n, 1),
                                   seed=seed, confidence=confidence, num_groups=g)
            figures[metric] = flips["rate"] if n else _no_interval(flips["rate"])
            for a in range(g):
                per_group[a][metric] = (flips["group_rate"][a] if n
                                        else _no_interval(flips["group_rate"][a]))
        groupings[name] = {"figures": figures, "groups": per_group}
        for row in per_group:
            if row["size"] < min_group:
                warnings.append(f"{name}: group {row['group']!r} has {row['size']} examples "
                                f"(under {min_group}): its figures are noisy")
        if g < 2:
            warnings.append(f"{name}: only one group ({names[0]!r}); gaps and parity are "
                            "undefined")
        left_out += [f"{name}: {m}" for m in _empty_cells(p.y_true, codes, names, p.class_names,
                                                          p.score is not None)]
    first = next(iter(groupings.values()))
    return {
        "figures": first["figures"], "groupings": groupings, "warnings": warnings,
        "left_out": left_out,
        "input": {"predictions": p.source, "rows": int(p.y_true.size), "classes": p.class_names,
                  "group_columns": p.attributes, "score": p.score is not None,
                  "paired": {m: col for m, (col, _) in p.paired.items()}},
        "bootstrap": {"resamples": n, "seed": seed, "confidence": confidence,
                      "stratified_by": "group", "interval": "percentile"},
    }


def _dp_ratio(p, codes, g: int, n: int, seed: int, confidence: float) -> dict:
    """The demographic-parity ratio (smallest / largest group selection rate of the positive
    class) with its group-stratified bootstrap interval."""
    from nhfair_jax.metrics import bootstrap, demographic_parity_ratio

    def ratio(y_true, y_pred, groups, num_classes, num_groups):
        return {"dp_ratio": demographic_parity_ratio(y_true, y_pred, groups,
                                                     num_classes=num_classes,
                                                     num_groups=num_groups)}

    ci = bootstrap(ratio, p.y_true, p.y_pred, codes, n=max(n, 1), seed=seed,
                   confidence=confidence, num_classes=2, num_groups=g)["dp_ratio"]
    return ci if n else _no_interval(ci)


def _no_interval(v):
    if isinstance(v, list):
        return [_no_interval(x) for x in v]
    return {**v, "lo": float("nan"), "hi": float("nan")}


# --- writing -------------------------------------------------------------------------------

# Figures in the order a reader looks for them; any other figure follows.
ORDER = ("acc", "worst_acc", "gap_acc", "auc", "worst_auc", "gap_auc", "dp", "dp_ratio", "eqodd",
         "eqopp", "deo", "deo_mean", "dp_mean", "eqodd_ovr", "cd", "rfp", "count")
GROUP_FIGURES = ("acc", "auc", "selection_rate", "tpr", "fpr", "cd", "rfp")


def _fmt(fig: dict) -> str:
    v, lo, hi = fig["value"], fig["lo"], fig["hi"]
    if v is None or v != v:
        return "undefined"
    if lo is None or lo != lo:
        return f"{v:.4f}"
    return f"{v:.4f} [{lo:.4f}, {hi:.4f}]"


def _ordered(figures: dict) -> list[str]:
    return [k for k in ORDER if k in figures] + sorted(k for k in figures if k not in ORDER)


def to_json(report: dict) -> dict:
    """report.json: every figure of the first grouping under its metric name, then the rest."""
    first, *others = report["groupings"].items()
    return {**report["figures"], "groups": first[1]["groups"],
            "groupings": {name: g for name, g in others},
            "warnings": report["warnings"], "left_out": report["left_out"],
            "input": report["input"], "bootstrap": report["bootstrap"]}


def to_csv(report: dict) -> str:
    """One row per (grouping, group): size and each per-group figure with its bounds."""
    keys = [k for k in GROUP_FIGURES
            if any(k in row for g in report["groupings"].values() for row in g["groups"])]
    buf = _stringio.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["grouping", "group", "size",
                *(f"{k}{s}" for k in keys for s in ("", "_lo", "_hi"))])
    for name, g in report["groupings"].items():
        for row in g["groups"]:
            cells = []
            for k in keys:
                fig = row.get(k) or {}
                cells += [_csv_num(fig.get(s)) for s in ("value", "lo", "hi")]
            w.writerow([name, row["group"], row["size"], *cells])
    return buf.getvalue()


def _csv_num(v) -> str:
    return "" if v is None or v != v else repr(float(v))


def to_markdown(report: dict) -> str:
    b, inp = report["bootstrap"], report["input"]
    ci = (f"{b['confidence']:.0%} percentile bootstrap intervals, {b['resamples']} resamples "
          f"stratified by group, seed {b['seed']}" if b["resamples"] else "no intervals "
          "(--bootstrap 0)")
    from nhfair_jax.metrics.direction import LEGEND, marked

    positive = (f" The positive class (selection rate, TPR, FPR, eqopp, dp_ratio) is "
                f"{inp['classes'][-1]!r}." if len(inp["classes"]) == 2 else "")
    lines = ["# Fairness report", "",
             f"{inp['predictions']}: {inp['rows']} rows, classes {', '.join(inp['classes'])}; "
             f"groups from {', '.join(inp['group_columns'])}. Values are fractions; {ci}."
             f"{positive}", "", f"{LEGEND}; dp_ratio is the 80% rule's ratio (at least 0.8 "
             "passes it).", ""]
    for name, g in report["groupings"].items():
        figs = g["figures"]
        lines += [f"## Groups: {name}", "", "| figure | value [lo, hi] |", "|---|---|"]
        lines += [f"| {marked(k)} | {_fmt(figs[k])} |" for k in _ordered(figs) if k != "count"]
        keys = [k for k in GROUP_FIGURES if k in g["groups"][0]]
        lines += ["", "| group | size | " + " | ".join(marked(k) for k in keys) + " |",
                  "|---|---|" + "---|" * len(keys)]
        lines += [f"| {row['group']} | {row['size']} | " + " | ".join(_fmt(row[k]) for k in keys)
                  + " |" for row in g["groups"]]
        lines.append("")
    if report["warnings"]:
        lines += ["## Warnings", ""] + [f"- {w}" for w in report["warnings"]] + [""]
    if report["left_out"]:
        lines += ["## Empty cells left out", ""] + [f"- {m}" for m in report["left_out"]] + [""]
    return "\n".join(lines)


def write_report(report: dict, out: str) -> list[str]:
    """Writes report.md, report.json and groups.csv atomically; returns their paths."""
    from nhfair_jax import rundir

    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise UserError(f"--out {out}: cannot create it ({e.strerror or e})") from None
    paths = [os.path.join(out, f) for f in ("report.md", "report.json", "groups.csv")]
    rundir.atomic_write(paths[0], lambda f: f.write(to_markdown(report)))
    rundir.write_json(paths[1], to_json(report))
    rundir.atomic_write(paths[2], lambda f: f.write(to_csv(report)))
    return paths


class _HelpFormatter(argparse.RawDescriptionHelpFormatter,
                     argparse.ArgumentDefaultsHelpFormatter):
    """The module docstring as written, and every option's default in --help."""


def main(argv=None) -> int:
    from nhfair_jax import runtime

    runtime.setup()
    ap = argparse.ArgumentParser(prog="python -m nhfair_jax.evaluate", description=__doc__,
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
    from nhfair_jax.metrics.direction import LEGEND, marked

    for k in _ordered(figs):
        if k != "count":
            print(f"{marked(k):>12}  {_fmt(figs[k])}")
    print(LEGEND)
    print("wrote " + ", ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
