"""CelebA (official release: img_align_celeba/, list_attr_celeba.txt, list_eval_partition.txt)."""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.data.store import DataError, Table
from nhfair_jax.data.loaders.common import binary_names, groups_of, label_of, require


CELEBA_ATTRS = (
    "5_o_Clock_Shadow Arched_Eyebrows Attractive Bags_Under_Eyes Bald Bangs Big_Lips Big_Nose "
    "Black_Hair Blond_Hair Blurry Brown_Hair Bushy_Eyebrows Chubby Double_Chin Eyeglasses "
    "Goatee Gray_Hair Heavy_Makeup High_Cheekbones Male Mouth_Slightly_Open Mustache "
    "Narrow_Eyes No_Beard Oval_Face Pale_Skin Pointy_Nose Receding_Hairline Rosy_Cheeks "
    "Sideburns Smiling Straight_Hair Wavy_Hair Wearing_Earrings Wearing_Hat Wearing_Lipstick "
    "Wearing_Necklace Wearing_Necktie Young").split()


def load_celeba(root, target="Wavy_Hair", sensitive="Male", partition="random") -> Table:
    """`list_attr_celeba.txt`, `list_eval_partition.txt`, `img_align_celeba/`."""
    attr_path = require(os.path.join(root, "list_attr_celeba.txt"))
    images = require(os.path.join(root, "img_align_celeba"), "image folder")
    with open(attr_path) as f:
        lines = f.read().splitlines()
    if len(lines) < 2:
        raise DataError(f"{attr_path}: expected a count line and a header line")
    header = lines[1].split()
    files, values = [], []
    for number, line in enumerate(lines[2:], start=3):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != len(header) + 1:
            raise DataError(f"{attr_path} line {number}: {len(parts)} fields, expected "
                            f"{len(header) + 1} (file name and {len(header)} attributes)")
        files.append(parts[0])
        values.append(parts[1:])
    values = np.asarray(values)
    bad = np.argwhere(~np.isin(values, ["1", "-1"]))
    if bad.size:
        r, c = bad[0]
        raise DataError(f"{attr_path} line {r + 3}: attribute {header[c]} is {values[r, c]!r}; "
                        "expected 1 or -1")
    binary = (values == "1").astype(np.int32)
    available = {a: (binary[:, j], binary_names(a)) for j, a in enumerate(header)}
    labels, class_names = label_of(available, target, "celeba")
    groups, group_names = groups_of(available, sensitive, "celeba")
    split = None
    if partition == "official":
        part_path = require(os.path.join(root, "list_eval_partition.txt"))
        part = {}
        with open(part_path) as f:
            for number, line in enumerate(f, start=1):
                fields = line.split()
                if fields:
                    if len(fields) != 2 or fields[1] not in ("0", "1", "2"):
                        raise DataError(f"{part_path} line {number}: expected '<file> 0|1|2'")
                    part[fields[0]] = ("train", "val", "test")[int(fields[1])]
        missing = [f for f in files if f not in part]
        if missing:
            raise DataError(f"{part_path} has no partition for {missing[0]} "
                            f"({len(missing)} files in all)")
        split = np.asarray([part[f] for f in files])
    elif partition != "random":
        raise DataError(f"celeba: data.options.partition must be 'random' or 'official', got "
                        f"{partition!r}")
    return Table(ids=files, paths=[os.path.join(images, f) for f in files], labels=labels,
                 groups=groups, class_names=class_names, group_names=group_names, split=split)
