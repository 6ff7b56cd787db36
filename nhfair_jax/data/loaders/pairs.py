"""Counterfactual test pairs (CelebA-CF, LFW-CF, or pairs written by nhfair_jax.generate)."""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.data.store import DataError, Table, combine_groups
from nhfair_jax.data.loaders.common import binary_names, check_values, read_csv


def _pairs(dataset: str, default_target: str):
    def load(root, target=default_target, sensitive="sex") -> Table:
        """`pairs.csv` (original, counterfactual, target, sensitive, optional keep); a test split
        only. Rows with keep 0 (marked in a review) are dropped and counted."""
        path = os.path.join(root, "pairs.csv")
        frame = read_csv(path, ("original", "counterfactual", "target", "sensitive"))
        for column in ("target", "sensitive"):
            check_values(frame[column], (0, 1), path, column)
        notes = {}
        if "keep" in frame.columns:
            check_values(frame["keep"], (0, 1), path, "keep")
            if (frame["keep"] == 0).any():
                notes["pairs marked keep=0, dropped"] = int((frame["keep"] == 0).sum())
            frame = frame[frame["keep"] == 1].reset_index(drop=True)
        if target != default_target or sensitive != "sex":
            raise DataError(f"{dataset}: the pairs carry one target ({default_target}) and one "
                            "sensitive attribute (sex)")
        files = frame["original"].astype(str).tolist()
        groups, group_names = combine_groups([frame["sensitive"].to_numpy()],
                                             [["female", "male"]])
        return Table(ids=[f"{f}#{i:09d}" for i, f in enumerate(files)],
                     paths=[os.path.join(root, f) for f in files],
                     cf_paths=[os.path.join(root, f) for f in frame["counterfactual"].astype(str)],
                     labels=frame["target"].to_numpy().astype(np.int32), groups=groups,
                     class_names=binary_names(default_target), group_names=group_names,
                     split=np.full(len(files), "test"), only_splits=("test",), notes=notes)
    return load
