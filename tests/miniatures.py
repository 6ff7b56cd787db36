"""Miniature copies of the official data-set layouts (data/README.md), for loader tests.

Each `make_<name>(root, ...)` writes a handful of tiny images with the real file names, folders and
CSV / text columns of the official release, and returns a `Miniature`: the root to hand to the
loader and, for every example written, what the spec says the loader must derive from it (label,
group, official split, grouping key) and whether it must be kept.

Every image is one solid colour (or, for FACET, one colour per person box on a grey background)
taken from a palette whose colours are at least 56 apart in every channel, so a loaded, resized,
JPEG-decoded image is identified by its colour (`identify`) and the tests can check exactly which
examples landed in which split with which label and group.

`order_seed` permutes the order in which files are created and CSV rows written (None keeps the
canonical order), for tests that the split does not depend on listing order.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from PIL import Image

_LEVELS = (16, 72, 128, 184, 240)
BACKGROUND = (128, 128, 128)
# 124 colours, pairwise >= 56 apart in some channel; grey (the FACET background) left out.
PALETTE = [c for c in itertools.product(_LEVELS, repeat=3) if c != BACKGROUND]

CELEBA_ATTRIBUTES = (
    "5_o_Clock_Shadow Arched_Eyebrows Attractive Bags_Under_Eyes Bald Bangs Big_Lips Big_Nose "
    "Black_Hair Blond_Hair Blurry Brown_Hair Bushy_Eyebrows Chubby Double_Chin Eyeglasses Goatee "
    "Gray_Hair Heavy_Makeup High_Cheekbones Male Mouth_Slightly_Open Mustache Narrow_Eyes No_Beard "
    "Oval_Face Pale_Skin Pointy_Nose Receding_Hairline Rosy_Cheeks Sideburns Smiling Straight_Hair "
    "Wavy_Hair Wearing_Earrings Wearing_Hat Wearing_Lipstick Wearing_Necklace Wearing_Necktie "
    "Young").split()
assert len(CELEBA_ATTRIBUTES) == 40

FAIRFACE_RACES = ["White", "Black", "Latino_Hispanic", "East Asian", "Southeast Asian", "Indian",
                  "Middle Eastern"]


@dataclass
class Example:
    """One example written into a miniature."""
    file: str                      # path relative to the miniature's data folder
    colour: tuple                  # the solid colour of the image (or of the person's box)
    label: int | None = None       # what the loader must return with default options
    group: int | None = None
    kept: bool = True              # False: the spec says the loader drops this row
    split: str | None = None       # official split, where the layout has one
    key: str | None = None         # grouping key (FACET filename, HAM lesion_id)
    attrs: dict = field(default_factory=dict)  # raw values, for options (other targets/groups)
    colour_cf: tuple | None = None  # pair data sets: colour of the counterfactual image


@dataclass
class Miniature:
    root: str                      # what to pass to the loader as `root`
    folder: str                    # the data folder (== root, except for `csv`: root is the CSV)
    examples: list

    @property
    def kept(self) -> list:
        return [e for e in self.examples if e.kept]

    def by_colour(self) -> dict:
        return {e.colour: e for e in self.examples}


# ----------------------------------------------------------------------------------------------
# Images


def write_solid(path: str, colour, size=(12, 12)) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img = Image.new("RGB", size, tuple(int(c) for c in colour))
    if path.lower().endswith((".jpg", ".jpeg")):
        img.save(path, format="JPEG", quality=95, subsampling=0)
    else:
        img.save(path)


def corrupt(path: str, kind: str = "truncated") -> None:
    """Replaces an image by a truncated JPEG (header intact, scan cut) or by non-image bytes."""
    if kind == "garbage":
        with open(path, "wb") as f:
            f.write(b"this is not an image, just some text\n" * 4)
        return
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, (64, 64, 3), dtype=np.uint8)
    Image.fromarray(noise).save(path, format="JPEG", quality=95)
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data[: int(len(data) * 0.6)])
    try:  # make sure the miniature really is unreadable with pillow's defaults
        from PIL import ImageFile
        assert not ImageFile.LOAD_TRUNCATED_IMAGES
        with Image.open(path) as im:
            im.load()
    except (OSError, SyntaxError):
        return
    raise AssertionError(f"{path} still decodes after truncation")


def identify_colour(image: np.ndarray, palette=PALETTE, tol: float = 24.0):
    """The palette colour of a loaded image (mean of its central quarter), or None."""
    img = np.asarray(image, np.float32)
    h, w = img.shape[:2]
    centre = img[h // 4: h - h // 4, w // 4: w - w // 4].reshape(-1, 3).mean(axis=0)
    pal = np.asarray(palette, np.float32)
    dist = np.abs(pal - centre).max(axis=1)
    best = int(dist.argmin())
    return tuple(int(v) for v in pal[best]) if dist[best] <= tol else None


def identify(images: np.ndarray, mini: Miniature, field_name: str = "colour") -> list:
    """The Example behind each loaded image (raises if an image matches none)."""
    table = {getattr(e, field_name): e for e in mini.examples}
    palette = list(table)
    out = []
    for i, image in enumerate(images):
        c = identify_colour(image, palette)
        if c is None:
            raise AssertionError(f"loaded image {i} (mean colour "
                                 f"{np.asarray(image).reshape(-1, 3).mean(0)}) matches no example")
        out.append(table[c])
    return out


def _order(n: int, order_seed):
    if order_seed is None:
        return list(range(n))
    return [int(i) for i in np.random.default_rng(order_seed).permutation(n)]


def _write_images(mini: Miniature, order_seed, *, base=None) -> None:
    base = base or mini.folder
    for i in _order(len(mini.examples), order_seed):
        e = mini.examples[i]
        write_solid(os.path.join(base, e.file), e.colour)


def _write_csv(path: str, rows: list, columns: list, order_seed) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rows = [rows[i] for i in _order(len(rows), order_seed)]
    pd.DataFrame(rows, columns=columns).to_csv(path, index=False)


# ----------------------------------------------------------------------------------------------
# CelebA


def make_celeba(root: str, n: int = 30, order_seed=None, attr_seed: int = 0) -> Miniature:
    """list_attr_celeba.txt (count, 40 names, `file  v1 .. v40` in {1,-1}), list_eval_partition.txt,
    img_align_celeba/NNNNNN.jpg. Default label Wavy_Hair == 1, group Male == 1."""
    rng = np.random.default_rng(attr_seed)
    values = rng.choice([-1, 1], size=(n, 40))
    wavy, male = CELEBA_ATTRIBUTES.index("Wavy_Hair"), CELEBA_ATTRIBUTES.index("Male")
    values[:4, wavy], values[4:8, wavy] = 1, -1     # both values present for sure
    values[:8:2, male], values[1:8:2, male] = 1, -1
    partition = [0] * n
    for i in range(n):
        partition[i] = 0 if i % 5 < 3 else (1 if i % 5 == 3 else 2)   # 18 / 6 / 6 for n = 30
    examples = []
    for i in range(n):
        attrs = dict(zip(CELEBA_ATTRIBUTES, (int(v) for v in values[i])))
        examples.append(Example(file=f"img_align_celeba/{i + 1:06d}.jpg", colour=PALETTE[i],
                                label=int(attrs["Wavy_Hair"] == 1), group=int(attrs["Male"] == 1),
                                split=("train", "val", "test")[partition[i]], attrs=attrs))
    mini = Miniature(root=root, folder=root, examples=examples)
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "list_attr_celeba.txt"), "w") as f:
        f.write(f"{n}\n")
        f.write(" ".join(CELEBA_ATTRIBUTES) + " \n")
        for i in range(n):  # the attribute file keeps its canonical order
            name = os.path.basename(examples[i].file)
            f.write(name + "".join(f" {int(v):2d}" for v in values[i]) + "\n")
    with open(os.path.join(root, "list_eval_partition.txt"), "w") as f:
        for i in range(n):
            f.write(f"{os.path.basename(examples[i].file)} {partition[i]}\n")
    _write_images(mini, order_seed)
    return mini


# ----------------------------------------------------------------------------------------------
# UTKFace

UTK_BAD_NAMES = ("61_1_20170109142408075.jpg",            # race field missing
                 "39_1_20170116174525125.jpg.chip.jpg",   # race field missing, chip form
                 "abc_1_0_20170116174525125.jpg")         # age not a number
UTK_NON_IMAGE = "notes.txt"


def make_utkface(root: str, n: int = 30, order_seed=None, folder: str = "UTKFace",
                 bad_names: bool = True) -> Miniature:
    """UTKFace/age_gender_race_datetime.jpg[.chip.jpg]. Default label gender (0 male, 1 female);
    group race binarised, 0 White, 1 non-White. Also writes unparsable names (never examples)."""
    ages = [1, 8, 15, 21, 25, 26, 30, 34, 38, 42, 45, 50, 55, 59, 60, 61, 65, 70, 80, 116]
    examples = []
    for i in range(n):
        age, gender, race = ages[i % len(ages)], i % 2, (i // 2) % 5
        stamp = f"2017011617{i:02d}25125"
        suffix = ".jpg.chip.jpg" if i % 3 == 0 else ".jpg"
        name = f"{age}_{gender}_{race}_{stamp}{suffix}"
        examples.append(Example(file=f"{folder}/{name}", colour=PALETTE[i], label=gender,
                                group=int(race != 0),
                                attrs={"age": age, "gender": gender, "race": race}))
    mini = Miniature(root=root, folder=root, examples=examples)
    _write_images(mini, order_seed)
    if bad_names:
        for j, name in enumerate(UTK_BAD_NAMES):
            write_solid(os.path.join(root, folder, name), PALETTE[-1 - j])
        with open(os.path.join(root, folder, UTK_NON_IMAGE), "w") as f:
            f.write("not an image\n")
    return mini


# ----------------------------------------------------------------------------------------------
# FairFace


def make_fairface(root: str, n_train: int = 24, n_val: int = 6, order_seed=None,
                  bad_race: str | None = None) -> Miniature:
    """fairface_label_{train,val}.csv (file, age, gender, race, service_test), images train/N.jpg,
    val/N.jpg.
    Label = index of race in FAIRFACE_RACES; group Male 0, Female 1."""
    age_bins = ["0-2", "3-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "more than 70"]
    examples, rows = [], {"train": [], "val": []}
    for i in range(n_train + n_val):
        part = "train" if i < n_train else "val"
        number = i + 1 if part == "train" else i - n_train + 1
        race, gender = FAIRFACE_RACES[i % 7], ("Male", "Female")[(i // 7) % 2]
        if bad_race is not None and i == 3:
            race = bad_race
        e = Example(file=f"{part}/{number}.jpg", colour=PALETTE[i],
                    label=FAIRFACE_RACES.index(race) if race in FAIRFACE_RACES else None,
                    group=int(gender == "Female"), split=part,
                    attrs={"race": race, "gender": gender})
        examples.append(e)
        rows[part].append([e.file, age_bins[i % 9], gender, race, bool(i % 2)])
    mini = Miniature(root=root, folder=root, examples=examples)
    cols = ["file", "age", "gender", "race", "service_test"]
    for part in ("train", "val"):
        _write_csv(os.path.join(root, f"fairface_label_{part}.csv"), rows[part], cols, order_seed)
    _write_images(mini, order_seed)
    return mini


# ----------------------------------------------------------------------------------------------
# FACET

FACET_COLUMNS = (["filename", "person_id", "class1", "class2", "gender_presentation_masc",
                  "gender_presentation_fem", "gender_presentation_non_binary",
                  "gender_presentation_na"] + [f"skin_tone_{k}" for k in range(1, 11)]
                 + ["age_presentation_young", "age_presentation_middle", "age_presentation_older",
                    "age_presentation_na", "visible_face", "bounding_box"])


def make_facet(root: str, n_images: int = 14, order_seed=None) -> Miniature:
    """annotations/annotations.csv (one row per person) and images/<filename>. Each image is
    48x16 grey with one 8x16 coloured box per person (2-3 persons). Label visible_face;
    group fem -> 1, masc -> 0; rows with neither or both are not kept."""
    examples, rows, images = [], [], []
    pid, colour = 1000, 0
    for img in range(n_images):
        filename = f"sa_{img * 37 + 10:d}.jpg"
        persons = 2 + (img % 2)                           # 2 or 3 persons per image
        boxes = []
        for j in range(persons):
            kind = (img + j) % 5
            masc, fem = {0: (1, 0), 1: (0, 1), 2: (1, 0), 3: (0, 1), 4: (0, 0)}[kind]
            if img == 5 and j == 0:
                masc, fem = 1, 1                          # both: dropped
            nb = int(kind == 4 and img % 2 == 0)
            na = int(masc == 0 and fem == 0 and not nb)
            visible = int((img * 3 + j) % 4 != 0)
            box = {"x": 16 * j, "y": 0, "width": 8, "height": 16}
            kept = (masc + fem) == 1
            e = Example(file=f"images/{filename}", colour=PALETTE[colour], label=visible,
                        group=(fem if kept else None), kept=kept, key=filename,
                        attrs={"person_id": pid, "box": box})
            examples.append(e)
            boxes.append((box, PALETTE[colour]))
            skin = [0] * 10
            skin[(img + j) % 10] = 1
            age = [int((img + j) % 4 == k) for k in range(4)]
            rows.append([filename, pid, ("guard", "nurse", "farmer")[j], "", masc, fem, nb, na,
                         *skin, *age, visible, json.dumps(box)])
            pid += 1
            colour += 1
        images.append((filename, boxes))
    mini = Miniature(root=root, folder=root, examples=examples)
    _write_csv(os.path.join(root, "annotations", "annotations.csv"), rows, FACET_COLUMNS,
               order_seed)
    os.makedirs(os.path.join(root, "images"), exist_ok=True)
    for i in _order(len(images), order_seed):
        filename, boxes = images[i]
        arr = np.full((16, 48, 3), BACKGROUND, np.uint8)
        for box, c in boxes:
            arr[box["y"]:box["y"] + box["height"], box["x"]:box["x"] + box["width"]] = c
        Image.fromarray(arr).save(os.path.join(root, "images", filename), format="JPEG",
                                  quality=95, subsampling=0)
    return mini


# ----------------------------------------------------------------------------------------------
# HAM10000

HAM_COLUMNS = ["lesion_id", "image_id", "dx", "dx_type", "age", "sex", "localization"]


def make_ham10000(root: str, n_lesions: int = 14, order_seed=None) -> Miniature:
    """HAM10000_metadata.csv and ISIC_NNNNNNN.jpg over HAM10000_images_part_1/_2. 1-3 images per
    lesion. Label dx in {mel, akiec}; group old = age over 60 (60 itself is young: the
    benchmark code's `0 if x <= 60 else 1`, the only rule giving Table 1's 71:29). Rows with age or sex missing, or sex
    "unknown", are not kept."""
    dxs = ["mel", "nv", "akiec", "bcc", "bkl", "nv", "df", "vasc", "mel", "nv", "bcc", "akiec",
           "nv", "bkl"]
    ages = [45.0, 60.0, 59.0, 75.0, 30.0, 85.0, 15.0, 61.0, 50.0, 40.0, 70.0, 65.0, 35.0, 5.0]
    examples, rows, colour = [], [], 0
    for les in range(n_lesions):
        lesion = f"HAM_{118 + les * 7:07d}"
        dx, age = dxs[les % len(dxs)], ages[les % len(ages)]
        sex = ("male", "female")[les % 2]
        for k in range(1 + les % 3):
            image_id = f"ISIC_{27419 + colour:07d}"
            part = 1 if colour % 2 == 0 else 2
            row_age, row_sex = age, sex
            if les == 4 and k == 0:
                row_age = None                      # missing age: dropped
            if les == 7 and k == 0:
                row_sex = "unknown"                 # dropped
            if les == 10 and k == 1:
                row_sex = None                      # missing sex: dropped
            kept = row_age is not None and row_sex in ("male", "female")
            e = Example(file=f"HAM10000_images_part_{part}/{image_id}.jpg", colour=PALETTE[colour],
                        label=int(dx in ("mel", "akiec")),
                        group=(int(row_age > 60) if kept else None), kept=kept, key=lesion,
                        attrs={"dx": dx, "age": row_age, "sex": row_sex, "image_id": image_id})
            examples.append(e)
            rows.append([lesion, image_id, dx, "histo", row_age, row_sex, "back"])
            colour += 1
    mini = Miniature(root=root, folder=root, examples=examples)
    _write_csv(os.path.join(root, "HAM10000_metadata.csv"), rows, HAM_COLUMNS, order_seed)
    _write_images(mini, order_seed)
    return mini


# ----------------------------------------------------------------------------------------------
# Fitzpatrick 17k

FITZ_COLUMNS = ["md5hash", "fitzpatrick_scale", "fitzpatrick_centaur", "label",
                "nine_partition_label", "three_partition_label", "qc", "url", "url_alphanum"]


def make_fitz17k(root: str, n: int = 30, n_unknown_scale: int = 3, n_missing_images: int = 0,
                 order_seed=None) -> Miniature:
    """fitzpatrick17k.csv and images/<md5hash>.jpg. Label three_partition_label == malignant;
    group scale 1-3 -> 0, 4-6 -> 1; scale -1 rows and rows without an image not kept."""
    three = ["malignant", "benign", "non-neoplastic"]
    nine = {"malignant": "malignant melanoma", "benign": "benign dermal",
            "non-neoplastic": "inflammatory"}
    diseases = {"malignant": "melanoma", "benign": "dermatofibroma",
                "non-neoplastic": "psoriasis"}
    examples, rows = [], []
    total = n + n_unknown_scale + n_missing_images
    for i in range(total):
        md5 = hashlib.md5(f"fitz-{i}".encode()).hexdigest()
        scale = (i % 6) + 1 if i < n or i >= n + n_unknown_scale else -1
        part = three[i % 3]
        missing = i >= n + n_unknown_scale
        kept = scale != -1 and not missing
        e = Example(file=f"images/{md5}.jpg", colour=PALETTE[i], label=int(part == "malignant"),
                    group=(int(scale >= 4) if kept else None), kept=kept,
                    attrs={"scale": scale, "missing": missing})
        examples.append(e)
        rows.append([md5, scale, scale if i % 4 else -1, diseases[part], nine[part], part,
                     "" if i % 5 else "1 Diagnostic", f"https://example.org/{md5}.jpg",
                     f"httpsexampleorg{md5}jpg"])
    mini = Miniature(root=root, folder=root, examples=examples)
    _write_csv(os.path.join(root, "fitzpatrick17k.csv"), rows, FITZ_COLUMNS, order_seed)
    for i in _order(total, order_seed):
        e = examples[i]
        if not e.attrs["missing"]:
            write_solid(os.path.join(root, e.file), e.colour)
    return mini


# ----------------------------------------------------------------------------------------------
# Waterbirds

WATERBIRDS_COLUMNS = ["img_id", "img_filename", "y", "split", "place", "place_filename"]


def make_waterbirds(root: str, n: int = 30, order_seed=None) -> Miniature:
    """metadata.csv (img_id, img_filename, y, split 0/1/2, place, place_filename) and the images at
    img_filename. Label y, group place, official split."""
    birds = [("001.Black_footed_Albatross", "Black_Footed_Albatross"),
             ("045.Northern_Fulmar", "Northern_Fulmar"),
             ("094.White_breasted_Nuthatch", "White_Breasted_Nuthatch"),
             ("118.House_Sparrow", "House_Sparrow")]
    places = ["/b/bamboo_forest/00000123.jpg", "/o/ocean/00002178.jpg"]
    examples, rows = [], []
    for i in range(n):
        folder, stem = birds[i % 4]
        y = int(i % 4 < 2)                 # albatross and fulmar are waterbirds
        place = (i // 4) % 2
        split = (0, 0, 0, 1, 2)[i % 5]     # 18 / 6 / 6 for n = 30
        fname = f"{folder}/{stem}_{46 + i:04d}_{18 + i}.jpg"
        e = Example(file=fname, colour=PALETTE[i], label=y, group=place,
                    split=("train", "val", "test")[split], attrs={"y": y, "place": place})
        examples.append(e)
        rows.append([i + 1, fname, y, split, place, places[place]])
    mini = Miniature(root=root, folder=root, examples=examples)
    _write_csv(os.path.join(root, "metadata.csv"), rows, WATERBIRDS_COLUMNS, order_seed)
    _write_images(mini, order_seed)
    return mini


# ----------------------------------------------------------------------------------------------
# CIFAR-10's python release


def write_cifar_batches(root, per_batch: int, seed: int = 0) -> None:
    """`cifar-10-batches-py/` under root: data_batch_1..5 and test_batch of `per_batch` random
    images each, as the release pickles them (bytes keys, rows of 3072 channel-major bytes)."""
    import pickle

    folder = os.path.join(str(root), "cifar-10-batches-py")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        with open(os.path.join(folder, name), "wb") as f:
            pickle.dump({b"data": rng.integers(0, 256, (per_batch, 3072), dtype=np.uint8),
                         b"labels": list(rng.integers(0, 10, per_batch))}, f)


# ----------------------------------------------------------------------------------------------
# Counterfactual pairs (celeba_cf, lfw_cf)


def make_pairs(root: str, n: int = 12, order_seed=None) -> Miniature:
    """pairs.csv (original, counterfactual, target, sensitive), paths relative to root."""
    examples, rows = [], []
    for i in range(n):
        orig, cf = f"originals/{i + 1:06d}.jpg", f"counterfactuals/{i + 1:06d}_flip.jpg"
        e = Example(file=orig, colour=PALETTE[i], colour_cf=PALETTE[n + i], label=i % 2,
                    group=(i // 2) % 2, split="test")
        examples.append(e)
        rows.append([orig, cf, e.label, e.group])
    mini = Miniature(root=root, folder=root, examples=examples)
    _write_csv(os.path.join(root, "pairs.csv"), rows,
               ["original", "counterfactual", "target", "sensitive"], order_seed)
    for i in _order(n, order_seed):
        e = examples[i]
        write_solid(os.path.join(root, e.file), e.colour)
        write_solid(os.path.join(root, rows[i][1]), e.colour_cf)
    return mini


# ----------------------------------------------------------------------------------------------
# Your own CSV


def make_csv(folder: str, n: int = 20, order_seed=None,
             manifest: str = "manifest.csv") -> Miniature:
    """A manifest CSV (image, label, sensitive, age_bin, fold, path2) with PNG images in subfolders
    relative to the CSV's folder. Labels are strings cat/dog, sensitive F/M, age_bin
    old/young/mid; class and group indices are positions in the sorted distinct values."""
    labels, sens, ages = ["dog", "cat"], ["M", "F"], ["young", "old", "mid"]
    folds = ["train"] * 12 + ["val"] * 4 + ["test"] * 4
    examples, rows = [], []
    for i in range(n):
        label, s, a = labels[i % 2], sens[(i // 2) % 2], ages[i % 3]
        fname = f"imgs/{'ab'[i % 2]}/img_{i:03d}.png"
        e = Example(file=fname, colour=PALETTE[i], label=sorted(labels).index(label),
                    group=sorted(sens).index(s), split=folds[i % len(folds)],
                    attrs={"label": label, "sensitive": s, "age_bin": a})
        examples.append(e)
        rows.append([fname, label, s, a, e.split, fname])
    mini = Miniature(root=os.path.join(folder, manifest), folder=folder, examples=examples)
    _write_csv(os.path.join(folder, manifest), rows,
               ["image", "label", "sensitive", "age_bin", "fold", "path2"], order_seed)
    _write_images(mini, order_seed)
    return mini


MAKERS = {"celeba": make_celeba, "utkface": make_utkface, "fairface": make_fairface,
          "facet": make_facet, "ham10000": make_ham10000, "fitz17k": make_fitz17k,
          "waterbirds": make_waterbirds, "celeba_cf": make_pairs, "lfw_cf": make_pairs,
          "csv": make_csv}


def snapshot(folder: str) -> dict:
    """Every file under folder with its size and mtime (to check loaders write nothing there)."""
    out = {}
    for dirpath, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(dirpath, f)
            st = os.stat(p)
            out[os.path.relpath(p, folder)] = (st.st_size, st.st_mtime_ns)
    return out
