"""Your own images: a manifest CSV with an image path, a label and sensitive attributes."""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.data.store import DataError, Table
from nhfair_jax.data.loaders.common import as_tuple, categorical, check_values, groups_of, read_csv


def load_csv(root, target="label", sensitive="sensitive", image_col="image", split_col=None
             ) -> Table:
    """A manifest CSV (root: its path, or a folder holding `manifest.csv`) with an image path
    (relative to the CSV's folder, or absolute), a label and sensitive-attribute columns.

    A relative path that leads outside the CSV's folder (`../other/x.png`) is an error: a
    manifest copied elsewhere, or one naming files it should not, would otherwise read images
    that are not its data set's; give such images as absolute paths."""
    path = os.path.join(root, "manifest.csv") if os.path.isdir(root) else root
    split_col = split_col or None
    columns = [image_col, target, *as_tuple(sensitive)] + ([split_col] if split_col else [])
    settings = {image_col: "data.options.image_col", target: "data.target",
                **{a: "data.sensitive" for a in as_tuple(sensitive)}}
    if split_col:
        settings[split_col] = "data.options.split_col"
    frame = read_csv(path, columns, settings)
    empty = frame[columns].isna().any(axis=1)
    if empty.any():
        i = int(np.flatnonzero(empty.to_numpy())[0])
        raise DataError(f"{path} row {i + 2}: empty value in {list(frame.columns[frame.iloc[i].isna()])}")
    base = os.path.dirname(os.path.abspath(path))
    files = frame[image_col].astype(str).tolist()
    for i, f in enumerate(files):
        if not os.path.isabs(f) and os.path.normpath(f).split(os.sep)[0] == os.pardir:
            raise DataError(f"{path} row {i + 2}: image path {f!r} leads outside the manifest's "
                            f"folder {base}; give images relative to it, or as absolute paths")
    labels, class_names = categorical(frame[target].to_numpy())
    available = {c: categorical(frame[c].to_numpy()) for c in as_tuple(sensitive)}
    groups, group_names = groups_of(available, sensitive, "csv")
    split = None
    if split_col:
        check_values(frame[split_col].astype(str), ("train", "val", "test"), path, split_col)
        split = frame[split_col].astype(str).to_numpy()
    ids = [f"{f}#{i:09d}" for i, f in enumerate(files)]  # the manifest's order
    return Table(ids=ids, paths=[f if os.path.isabs(f) else os.path.join(base, f) for f in files],
                 labels=labels, groups=groups, class_names=class_names,
                 group_names=group_names, split=split)
