"""Reading a file of predictions (CSV, TSV, Parquet, or a run directory's
predictions_<split>.npz): labels, predictions, groups and scores encoded as integers with their
names, every bad cell a one-line error naming the column and the row."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from nhfair_jax.errors import UserError
from nhfair_jax.rundir import RunDir

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
