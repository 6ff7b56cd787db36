"""FairFace (fairface_label_{train,val}.csv and the image folders)."""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.data.loaders.common import check_values, groups_of, label_of, read_csv
from nhfair_jax.data.source import split_rng
from nhfair_jax.data.store import DataError, Table

FAIRFACE_RACES = ("White", "Black", "Latino_Hispanic", "East Asian", "Southeast Asian", "Indian",
                  "Middle Eastern")


def load_fairface(root, target="race", sensitive="gender", partition="random") -> Table:
    """`fairface_label_train.csv`, `fairface_label_val.csv` and the image folders they name."""
    import pandas as pd

    frames = []
    for part in ("train", "val"):
        path = os.path.join(root, f"fairface_label_{part}.csv")
        frame = read_csv(path, ("file", "age", "gender", "race"))
        check_values(frame["race"], FAIRFACE_RACES, path, "race")
        check_values(frame["gender"], ("Male", "Female"), path, "gender")
        frames.append(frame.assign(_part=part))
    frame = pd.concat(frames, ignore_index=True)
    race = frame["race"].map({r: i for i, r in enumerate(FAIRFACE_RACES)}).to_numpy()
    gender = (frame["gender"] == "Female").to_numpy().astype(int)
    available = {"race": (race, list(FAIRFACE_RACES)), "gender": (gender, ["Male", "Female"])}
    labels, class_names = label_of(available, target, "fairface")
    groups, group_names = groups_of(available, sensitive, "fairface")
    files = frame["file"].astype(str).tolist()
    split = None
    if partition == "official":  # official val is the test set; val is 10% of official train

        split = np.where(frame["_part"] == "val", "test", "train").astype(object)
        train_rows = np.flatnonzero(split == "train")
        order = np.argsort(np.asarray(files, dtype=object)[train_rows], kind="stable")
        perm = split_rng("fairface", 0).permutation(len(train_rows))
        split[train_rows[order][perm[:int(round(0.1 * len(train_rows)))]]] = "val"
        split = split.astype(str)
    elif partition != "random":
        raise DataError(f"fairface: data.options.partition must be 'random' or 'official', got "
                        f"{partition!r}")
    return Table(ids=files, paths=[os.path.join(root, f) for f in files], labels=labels,
                 groups=groups, class_names=class_names, group_names=group_names, split=split)
