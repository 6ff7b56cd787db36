"""What the loaders share: reading files and CSVs with errors that name the file, row, column
or value, and turning attributes into labels and (intersectional) groups."""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.data.store import DataError, combine_groups


def require(path: str, what: str = "") -> str:
    if not os.path.exists(path):
        raise FileNotFoundError(f"{what or 'file'} not found: {path}; see data/README.md for "
                                "the expected layout")
    return path


def read_csv(path: str, columns, settings=None):
    """Reads a CSV that must hold `columns`; `settings` maps a column to the config field that
    names it, so that the error can say which field to change."""
    import pandas as pd

    require(path)
    try:
        frame = pd.read_csv(path)
    except Exception as e:  # pandas raises several types for unreadable files
        raise DataError(f"cannot read {path} as CSV: {e}") from e
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        hint = "; ".join(f"set {settings[c]} to the column that holds it" for c in missing
                         if settings and c in settings)
        raise DataError(f"{path} has no column(s) {missing}; it has {list(frame.columns)}"
                        + (f"; {hint}" if hint else ""))
    return frame


def as_tuple(value) -> tuple:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def pick_attributes(available: dict, requested, what: str, dataset: str):
    """(values list, names list) of the requested attributes from {name: (values, names)}."""
    columns, names = [], []
    for attr in as_tuple(requested):
        if attr not in available:
            raise DataError(f"unknown {what} {attr!r} for {dataset}; choose from "
                            f"{sorted(available)}")
        values, value_names = available[attr]
        columns.append(np.asarray(values))
        names.append(list(value_names))
    if not columns:
        raise DataError(f"{dataset}: data.{what} is empty")
    return columns, names


def groups_of(available: dict, sensitive, dataset: str):
    return combine_groups(*pick_attributes(available, sensitive, "sensitive attribute", dataset))


def label_of(available: dict, target, dataset: str):
    if isinstance(target, (list, tuple)):
        raise DataError(f"{dataset}: data.target names one attribute, got {target!r}")
    (values,), (names,) = pick_attributes(available, target, "target", dataset)
    return values.astype(np.int32), names


def check_values(values, allowed, path: str, column: str, rows=None):
    """Every value in `allowed`; else a DataError naming the first bad row and value."""
    values = np.asarray(values)
    bad = np.flatnonzero(~np.isin(values, list(allowed)))
    if bad.size:
        i = bad[0]
        row = rows[i] if rows is not None else i
        raise DataError(f"{path}: column {column!r} has value {values[i]!r} at row {row}; "
                        f"expected one of {sorted(allowed, key=str)}")


def binary_names(attr: str) -> list:
    return [f"not_{attr}", attr]


def categorical(values):
    """Integer codes and names of a column: sorted numbers, or sorted strings kept as names."""
    values = np.asarray(values)
    if np.issubdtype(values.dtype, np.number):
        unique = np.unique(values)
        names = [str(v.item()) if hasattr(v, "item") else str(v) for v in unique]
        return np.searchsorted(unique, values).astype(np.int32), names
    values = values.astype(str)
    unique = np.unique(values)
    return np.searchsorted(unique, values).astype(np.int32), [str(u) for u in unique]
