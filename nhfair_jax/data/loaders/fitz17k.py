"""Fitzpatrick17k (fitzpatrick17k.csv and the downloaded images)."""

from __future__ import annotations

import os

from nhfair_jax.data.store import Table
from nhfair_jax.data.loaders.common import check_values, groups_of, label_of, read_csv


def load_fitz17k(root, target="malignant", sensitive="skin") -> Table:
    """`fitzpatrick17k.csv` and `images/<md5hash>.jpg` (the images the user could download)."""
    path = os.path.join(root, "fitzpatrick17k.csv")
    frame = read_csv(path, ("md5hash", "fitzpatrick_scale", "three_partition_label"))
    check_values(frame["three_partition_label"], ("benign", "malignant", "non-neoplastic"), path,
                 "three_partition_label")
    check_values(frame["fitzpatrick_scale"], (-1, 1, 2, 3, 4, 5, 6), path, "fitzpatrick_scale")
    unknown = frame["fitzpatrick_scale"] == -1
    frame = frame[~unknown].reset_index(drop=True)
    folder = os.path.join(root, "images")
    folder = folder if os.path.isdir(folder) else root
    present = set(os.listdir(folder))
    have = frame["md5hash"].astype(str).map(lambda h: f"{h}.jpg" in present).to_numpy()
    missing = int((~have).sum())
    frame = frame[have].reset_index(drop=True)
    notes = {}
    if unknown.any():
        notes["rows with fitzpatrick_scale -1, dropped"] = int(unknown.sum())
    if missing:
        notes[f"images named in the CSV but missing from {folder}, dropped"] = missing
    scale = frame["fitzpatrick_scale"].to_numpy().astype(int)
    available = {"malignant": ((frame["three_partition_label"] == "malignant").to_numpy()
                               .astype(int), ["not_malignant", "malignant"]),
                 "skin": ((scale >= 4).astype(int), ["light (I-III)", "dark (IV-VI)"]),
                 "skin6": (scale - 1, ["I", "II", "III", "IV", "V", "VI"])}
    labels, class_names = label_of(available, target, "fitz17k")
    groups, group_names = groups_of(available, sensitive, "fitz17k")
    ids = frame["md5hash"].astype(str).tolist()
    return Table(ids=ids, paths=[os.path.join(folder, f"{h}.jpg") for h in ids], labels=labels,
                 groups=groups, class_names=class_names, group_names=group_names, notes=notes)
