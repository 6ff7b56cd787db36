"""UTKFace (age_gender_race_date.jpg file names)."""

from __future__ import annotations

import os
import re

import numpy as np

from nhfair_jax.data.store import DataError, Table
from nhfair_jax.data.loaders.common import groups_of, label_of


UTK_RACES = ("White", "Black", "Asian", "Indian", "Others")
_UTK_NAME = re.compile(r"^(\d+)_([01])_([0-4])_\d+.*\.jpg$", re.IGNORECASE)


def load_utkface(root, target="gender", sensitive="race") -> Table:
    """`UTKFace/` (or `UTKface_inthewild/`) with `age_gender_race_datetime.jpg` files."""
    for sub in ("UTKFace", "UTKface_inthewild", "utkface"):
        folder = os.path.join(root, sub)
        if os.path.isdir(folder):
            break
    else:
        raise FileNotFoundError(f"image folder not found: {os.path.join(root, 'UTKFace')} (or "
                                "UTKface_inthewild); see data/README.md")
    files, ages, genders, races, unparsed = [], [], [], [], 0
    for dirpath, _, names in os.walk(folder):
        for name in names:
            match = _UTK_NAME.match(name)
            if not match:
                unparsed += 1
                continue
            files.append(os.path.relpath(os.path.join(dirpath, name), folder))
            ages.append(int(match.group(1)))
            genders.append(int(match.group(2)))
            races.append(int(match.group(3)))
    if not files:
        raise DataError(f"no file named age_gender_race_datetime.jpg in {folder}")
    ages, genders, races = map(np.asarray, (ages, genders, races))
    available = {"gender": (genders, ["male", "female"]),
                 "race": ((races != 0).astype(int), ["White", "non-White"]),
                 "race5": (races, list(UTK_RACES)),
                 "age": ((ages >= 60).astype(int), ["young", "old"])}
    labels, class_names = label_of(available, target, "utkface")
    groups, group_names = groups_of(available, sensitive, "utkface")
    notes = {"files whose names do not parse, skipped": unparsed} if unparsed else {}
    return Table(ids=files, paths=[os.path.join(folder, f) for f in files], labels=labels,
                 groups=groups, class_names=class_names, group_names=group_names, notes=notes)
