"""Loaders that read each data set's official release layout (data/README.md) into a
`Table`; `store.build_sources` turns a table into cached split sources.

Every loader takes (root, target, sensitive, **options), checks what it reads, and says which
file, row, column or value is wrong. `sensitive` may name several attributes (a tuple) for
intersectional groups.
"""

from __future__ import annotations

import json
import os
import re

import numpy as np

from nhfair_jax.data.store import DataError, Table, combine_groups

# --- shared helpers ------------------------------------------------------------------------


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


# --- CelebA --------------------------------------------------------------------------------

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


# --- UTKFace -------------------------------------------------------------------------------

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


# --- FairFace ------------------------------------------------------------------------------

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
        from nhfair_jax.data.source import split_rng

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


# --- FACET ---------------------------------------------------------------------------------


def load_facet(root, target="visible_face", sensitive="gender", crop=True) -> Table:
    """`annotations/annotations.csv` (one row per person) and `images/`."""
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


# --- HAM10000 ------------------------------------------------------------------------------


def load_ham10000(root, target="malignant", sensitive="age", include_bcc=False) -> Table:
    """`HAM10000_metadata.csv` and `<image_id>.jpg` in `HAM10000_images_part_1/` / `_2/`."""
    path = os.path.join(root, "HAM10000_metadata.csv")
    frame = read_csv(path, ("lesion_id", "image_id", "dx", "age", "sex"))
    check_values(frame["dx"], ("akiec", "bcc", "bkl", "df", "mel", "nv", "vasc"), path, "dx")
    keep = frame["age"].notna() & frame["sex"].notna() & (frame["sex"] != "unknown")
    dropped = int((~keep).sum())
    frame = frame[keep].reset_index(drop=True)
    check_values(frame["sex"], ("male", "female"), path, "sex")
    folders = [os.path.join(root, d) for d in ("HAM10000_images_part_1", "HAM10000_images_part_2",
                                               "HAM10000_images", "images")]
    folders = [d for d in folders if os.path.isdir(d)] + [root]
    where = {}
    for folder in reversed(folders):  # the first folder wins
        for name in os.listdir(folder):
            where[name] = os.path.join(folder, name)
    ids = frame["image_id"].astype(str).tolist()
    paths = []
    for image_id in ids:
        if f"{image_id}.jpg" not in where:
            raise FileNotFoundError(f"image {image_id}.jpg (named in {path}) not found in "
                                    f"{', '.join(folders)}")
        paths.append(where[f"{image_id}.jpg"])
    malignant = {"mel", "akiec"} | ({"bcc"} if include_bcc else set())
    age = frame["age"].to_numpy().astype(float)
    sex = (frame["sex"] == "female").to_numpy().astype(int)
    available = {"malignant": (frame["dx"].isin(malignant).to_numpy().astype(int),
                               ["benign", "malignant"]),
                 "age": ((age >= 60).astype(int), ["young", "old"]),
                 "sex": (sex, ["male", "female"])}
    labels, class_names = label_of(available, target, "ham10000")
    groups, group_names = groups_of(available, sensitive, "ham10000")
    notes = {"rows with missing age or sex, dropped": dropped} if dropped else {}
    return Table(ids=ids, paths=paths, labels=labels, groups=groups, class_names=class_names,
                 group_names=group_names, split_groups=frame["lesion_id"].to_numpy(),
                 notes=notes)


# --- Fitzpatrick17k ------------------------------------------------------------------------


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


# --- Waterbirds ----------------------------------------------------------------------------


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


# --- your own data: a CSV manifest ---------------------------------------------------------


def _categorical(values):
    """Integer codes and names of a column: sorted numbers, or sorted strings kept as names."""
    values = np.asarray(values)
    if np.issubdtype(values.dtype, np.number):
        unique = np.unique(values)
        names = [str(v.item()) if hasattr(v, "item") else str(v) for v in unique]
        return np.searchsorted(unique, values).astype(np.int32), names
    values = values.astype(str)
    unique = np.unique(values)
    return np.searchsorted(unique, values).astype(np.int32), [str(u) for u in unique]


def load_csv(root, target="label", sensitive="sensitive", image_col="image", split_col=None
             ) -> Table:
    """A manifest CSV (root: its path, or a folder holding `manifest.csv`) with an image path
    (relative to the CSV's folder, or absolute), a label and sensitive-attribute columns."""
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
    labels, class_names = _categorical(frame[target].to_numpy())
    available = {c: _categorical(frame[c].to_numpy()) for c in as_tuple(sensitive)}
    groups, group_names = groups_of(available, sensitive, "csv")
    split = None
    if split_col:
        check_values(frame[split_col].astype(str), ("train", "val", "test"), path, split_col)
        split = frame[split_col].astype(str).to_numpy()
    ids = [f"{f}#{i:09d}" for i, f in enumerate(files)]  # the manifest's order
    return Table(ids=ids, paths=[f if os.path.isabs(f) else os.path.join(base, f) for f in files],
                 labels=labels, groups=groups, class_names=class_names,
                 group_names=group_names, split=split)


# --- counterfactual pairs ------------------------------------------------------------------


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


LOADERS = {
    "celeba": load_celeba, "utkface": load_utkface, "fairface": load_fairface,
    "facet": load_facet, "ham10000": load_ham10000, "fitz17k": load_fitz17k,
    "waterbirds": load_waterbirds, "csv": load_csv,
    "celeba_cf": _pairs("celeba_cf", "Blond_Hair"), "lfw_cf": _pairs("lfw_cf", "Smiling"),
}
