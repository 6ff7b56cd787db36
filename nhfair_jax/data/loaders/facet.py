"""FACET (annotations.csv with person bounding boxes, images in imgs_*/)."""

from __future__ import annotations

import json
import os

import numpy as np

from nhfair_jax.data.store import DataError, Table
from nhfair_jax.data.loaders.common import check_values, groups_of, label_of, read_csv


def load_facet(root, target="visible_face", sensitive="gender", crop=False) -> Table:
    """`annotations/annotations.csv` (one row per person) and `images/`.

    One example per annotated person, on the whole image by default (the benchmark's code and
    the LVLM study's read whole images; the paper does not say); `crop=True` cuts each person's
    bounding box instead."""
    path = os.path.join(root, "annotations", "annotations.csv")
    frame = read_csv(path, ("filename", "person_id", "gender_presentation_masc",
                            "gender_presentation_fem", "visible_face", "bounding_box"))
    masc = frame["gender_presentation_masc"].to_numpy().astype(int)
    fem = frame["gender_presentation_fem"].to_numpy().astype(int)
    keep = (masc + fem) == 1  # exactly one of the two presentations
    frame = frame[keep].reset_index(drop=True)
    dropped = int((~keep).sum())
    check_values(frame["visible_face"], (0, 1), path, "visible_face")
    available = {"visible_face": (frame["visible_face"].to_numpy().astype(int),
                                  ["face_not_visible", "face_visible"]),
                 "gender": (fem[keep], ["masc", "fem"])}
    labels, class_names = label_of(available, target, "facet")
    groups, group_names = groups_of(available, sensitive, "facet")
    folder = os.path.join(root, "images")
    folder = folder if os.path.isdir(folder) else root
    crops = None
    if crop:
        crops = []
        for i, box in enumerate(frame["bounding_box"]):
            try:
                b = json.loads(box)
                crops.append((b["x"], b["y"], b["width"], b["height"]))
            except (TypeError, ValueError, KeyError) as e:
                raise DataError(f"{path}: bounding_box of person {frame['person_id'][i]} is "
                                f"{box!r}; expected JSON with x, y, width, height") from e
    files = frame["filename"].astype(str).tolist()
    ids = [f"{f}#{p}" for f, p in zip(files, frame["person_id"])]
    notes = {"persons with neither or both gender presentations, dropped": dropped} \
        if dropped else {}
    return Table(ids=ids, paths=[os.path.join(folder, f) for f in files], labels=labels,
                 groups=groups, class_names=class_names, group_names=group_names,
                 split_groups=np.asarray(files), crops=crops, notes=notes)
