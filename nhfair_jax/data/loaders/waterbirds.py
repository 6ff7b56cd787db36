"""Waterbirds (metadata.csv of the released folder)."""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.data.store import Table
from nhfair_jax.data.loaders.common import check_values, groups_of, label_of, read_csv


def load_waterbirds(root, target="y", sensitive="place") -> Table:
    """`metadata.csv` (img_id, img_filename, y, split, place) and the images it names."""
    path = os.path.join(root, "metadata.csv")
    frame = read_csv(path, ("img_id", "img_filename", "y", "split", "place"))
    for column, allowed in (("y", (0, 1)), ("place", (0, 1)), ("split", (0, 1, 2))):
        check_values(frame[column], allowed, path, column)
    y, place = frame["y"].to_numpy().astype(int), frame["place"].to_numpy().astype(int)
    available = {"y": (y, ["landbird", "waterbird"]), "place": (place, ["land", "water"]),
                 "place_y": (place * 2 + y, ["land & landbird", "land & waterbird",
                                             "water & landbird", "water & waterbird"])}
    labels, class_names = label_of(available, target, "waterbirds")
    groups, group_names = groups_of(available, sensitive, "waterbirds")
    files = frame["img_filename"].astype(str).tolist()
    split = np.asarray(["train", "val", "test"])[frame["split"].to_numpy().astype(int)]
    return Table(ids=files, paths=[os.path.join(root, f) for f in files], labels=labels,
                 groups=groups, class_names=class_names, group_names=group_names, split=split)
