"""From a loader's table of image files to split sources: deterministic splits, parallel decoding
into a cached uint8 array store, and the handling of unreadable images.

A loader reads the official annotation files into a `Table` (one row per example, image paths,
labels, groups and how to split). `build_sources` then

1. orders the rows by their stable id, so nothing depends on the order of a directory listing;
2. splits them: an official split column, or a seeded 8:1:1 draw over rows or over groups of rows
   (FACET images, HAM10000 lesions), from a local generator of (data set, split_seed);
3. decodes and resizes every image once, in parallel with a progress bar, into a store under the
   cache directory (never inside the data folder): `images.npy` (+ `images_cf.npy` for pairs) and
   `meta.json`, written in a temporary folder that is renamed into place only when complete, so a
   half-written store is never read. The store's key hashes the data set, the loader version,
   the resolution and the table's image list (paths, crops); the split is computed after reading,
   so changing `split_seed` reuses the store. Each file's size and modification time are part of
   the key too, so a repaired or replaced image rebuilds it;
4. returns an ArraySource per split over a read-only memory map.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from tqdm.auto import tqdm

from nhfair_jax.data.source import SPLITS, ArraySource, random_split

LOADER_VERSION = 1
BAD_IMAGE_MODES = ("error", "skip")


class DataError(ValueError):
    """The data on disk is not what the loader expects (it says which file, row or column)."""


@dataclass
class Table:
    """One row per example, as a loader read it from the official files."""

    ids: list  # stable ids (file names); rows are ordered by them
    paths: list  # absolute image paths
    labels: np.ndarray
    groups: np.ndarray
    class_names: list
    group_names: list
    split: np.ndarray | None = None  # "train" / "val" / "test" per row (an official split)
    split_groups: np.ndarray | None = None  # rows sharing a value land in the same split
    crops: list | None = None  # (x, y, width, height) per row, or None for the whole image
    cf_paths: list | None = None  # counterfactual image per row (pair data sets)
    only_splits: tuple = SPLITS  # the splits the data set has
    reader: object = None  # reader(i) -> uint8 HxWx3, for images that are not files (TFDS)
    key_extra: str = ""  # what identifies the images when `reader` is set
    notes: dict = field(default_factory=dict)  # what the loader dropped, for the warning

    def __post_init__(self):
        n = len(self.ids)
        for key in ("paths", "labels", "groups", "split", "split_groups", "crops", "cf_paths"):
            value = getattr(self, key)
            if value is not None and len(value) != n:
                raise ValueError(f"Table.{key} has {len(value)} rows, ids {n}")
        if n == 0:
            raise DataError("no examples left after reading the annotations")


def default_cache_dir() -> str:
    return os.environ.get("NHFAIR_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "nhfair_jax")


def combine_groups(columns: list, names: list) -> tuple[np.ndarray, list]:
    """Intersectional groups: mixed radix with the first attribute most significant."""
    group = np.zeros(len(columns[0]), np.int64)
    group_names = [""]
    for values, value_names in zip(columns, names):
        group = group * len(value_names) + np.asarray(values, np.int64)
        group_names = [f"{a} & {b}" if a else str(b) for a in group_names for b in value_names]
    return group.astype(np.int32), group_names


def grouped_split(keys, name: str, split_seed: int) -> dict[str, np.ndarray]:
    """8:1:1 over the distinct keys (sorted, then shuffled by the local generator)."""
    unique, inverse = np.unique(np.asarray(keys).astype(str), return_inverse=True)
    parts = random_split(len(unique), name, split_seed)
    return {s: np.flatnonzero(np.isin(inverse, parts[s])) for s in SPLITS}


def _split_rows(table: Table, name: str, split_seed: int) -> dict[str, np.ndarray]:
    if table.split is not None:
        split = np.asarray(table.split)
        return {s: np.flatnonzero(split == s) for s in SPLITS}
    if table.split_groups is not None:
        return grouped_split(table.split_groups, name, split_seed)
    return random_split(len(table.ids), name, split_seed)


def _decode(path: str, size: int, crop):
    from PIL import Image

    with Image.open(path) as img:
        img.load()
        img = img.convert("RGB")
        if crop is not None:
            x, y, w, h = (int(round(float(v))) for v in crop)
            x0, y0 = max(x, 0), max(y, 0)
            x1, y1 = min(x + max(w, 1), img.width), min(y + max(h, 1), img.height)
            if x1 <= x0 or y1 <= y0:
                raise DataError(f"bounding box {crop} lies outside the {img.width}x{img.height} "
                                "image")
            img = img.crop((x0, y0, x1, y1))
        decoded = img.size
        img = img.resize((size, size), Image.BILINEAR)
        return np.asarray(img, np.uint8), decoded


def _resize(image: np.ndarray, size: int) -> np.ndarray:
    from PIL import Image

    img = Image.fromarray(np.asarray(image, np.uint8)).convert("RGB")
    return np.asarray(img.resize((size, size), Image.BILINEAR), np.uint8)


def _store_key(name: str, table: Table, image_size: int) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([name, LOADER_VERSION, image_size, table.key_extra]).encode())
    for i, path in enumerate(table.paths):
        h.update(path.encode())
        h.update(_stamp(path))
        if table.crops is not None and table.crops[i] is not None:
            h.update(json.dumps([float(v) for v in table.crops[i]]).encode())
        if table.cf_paths is not None:
            h.update(table.cf_paths[i].encode())
            h.update(_stamp(table.cf_paths[i]))
    return h.hexdigest()[:16]


def _stamp(path: str) -> bytes:
    """Size and modification time: a replaced or repaired image changes the store's key."""
    try:
        st = os.stat(path)
        return f"{st.st_size}:{st.st_mtime_ns}".encode()
    except OSError:
        return b"missing"


def _write_store(folder: str, name: str, table: Table, image_size: int, on_bad_image: str,
                 workers: int, progress: bool) -> None:
    """Decodes every image into `folder` (a temporary folder the caller renames)."""
    n = len(table.paths)
    columns = [("images", table.paths)]
    if table.cf_paths is not None:
        columns.append(("images_cf", table.cf_paths))
    bad = []
    sizes = [[0, 0] for _ in range(n)]  # each original image's decoded width and height
    for column, paths in columns:
        out = np.lib.format.open_memmap(os.path.join(folder, f"{column}.npy"), mode="w+",
                                        dtype=np.uint8, shape=(n, image_size, image_size, 3))

        def work(i, paths=paths, out=out):
            try:
                if table.reader is not None:
                    out[i] = _resize(table.reader(i), image_size)
                    return None
                out[i], decoded = _decode(paths[i], image_size,
                                          None if table.crops is None else table.crops[i])
                if column == "images" and table.crops is None:  # crops differ by design
                    sizes[i] = list(decoded)
                return None
            except FileNotFoundError as e:
                if on_bad_image == "error":
                    raise FileNotFoundError(f"image not found: {paths[i]}; restore it, or set "
                                            "data.on_bad_image='skip' to drop missing and "
                                            "unreadable images") from e
                return i
            except (OSError, SyntaxError, ValueError) as e:  # PIL's errors for bad files
                if on_bad_image == "error":
                    raise DataError(f"cannot read image {paths[i]}: {e}; fix or remove the file, "
                                    "or set data.on_bad_image='skip' to drop unreadable images"
                                    ) from e
                return i

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for failed in tqdm(pool.map(work, range(n)), total=n, disable=not progress,
                               desc=f"decoding {name} ({column}, {image_size}px)"):
                if failed is not None:
                    bad.append(int(failed))
        out.flush()
        del out
    meta = {"name": name, "version": LOADER_VERSION, "image_size": image_size, "rows": n,
            "bad_rows": sorted(set(bad)),
            "sizes": sizes if table.crops is None and table.reader is None else []}
    with open(os.path.join(folder, "meta.json"), "w") as f:
        json.dump(meta, f)


def build_sources(name: str, table: Table, *, split_seed: int, image_size: int,
                  cache_dir: str | None = None, on_bad_image: str = "error",
                  workers: int | None = None, progress: bool = True) -> dict[str, ArraySource]:
    """ArraySources for the table's splits, decoding the images into the cache when needed."""
    if on_bad_image not in BAD_IMAGE_MODES:
        raise ValueError(f"data.on_bad_image must be one of {BAD_IMAGE_MODES}, got "
                         f"{on_bad_image!r}")
    order = sorted(range(len(table.ids)), key=lambda i: str(table.ids[i]))
    table = _reorder(table, order)
    cache_dir = os.path.abspath(cache_dir or default_cache_dir())
    folder = os.path.join(cache_dir, f"{name}-{image_size}px-v{LOADER_VERSION}-"
                                     f"{_store_key(name, table, image_size)}")
    if not os.path.exists(os.path.join(folder, "meta.json")):
        os.makedirs(cache_dir, exist_ok=True)
        tmp = f"{folder}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        try:
            _write_store(tmp, name, table, image_size, on_bad_image,
                         workers or min(8, os.cpu_count() or 1), progress)
            try:
                os.replace(tmp, folder)
            except OSError:  # another process finished the same store first
                if not os.path.exists(os.path.join(folder, "meta.json")):
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    with open(os.path.join(folder, "meta.json")) as f:
        meta = json.load(f)
    bad = np.asarray(meta["bad_rows"], np.int64)
    skipped = [table.paths[i] for i in bad]
    if skipped and on_bad_image == "error":
        raise DataError(f"{len(skipped)} unreadable image(s), first {skipped[0]}; fix or remove "
                        "them, or set data.on_bad_image='skip'")
    images = np.load(os.path.join(folder, "images.npy"), mmap_mode="r")
    images_cf = (np.load(os.path.join(folder, "images_cf.npy"), mmap_mode="r")
                 if table.cf_paths is not None else None)
    keep = np.ones(len(table.ids), bool)
    keep[bad] = False
    notes = dict(table.notes)
    if skipped:
        notes["unreadable images skipped"] = len(skipped)
    if notes:
        warnings.warn(f"{name}: " + "; ".join(f"{k}: {v}" for k, v in notes.items()),
                      UserWarning, stacklevel=3)
    rows_by_split = {s: rows[keep[rows]] for s, rows in
                     _split_rows(table, name, split_seed).items() if s in table.only_splits}
    data_warnings = check_splits(name, table, rows_by_split)
    for size_note in odd_sizes(meta, table.paths, image_size):
        data_warnings.append(size_note)
    for note in data_warnings:
        warnings.warn(note, UserWarning, stacklevel=3)
    sources = {}
    for split in table.only_splits:
        rows = rows_by_split[split]
        extras = {} if images_cf is None else {"image_cf": _Rows(images_cf, rows)}
        source = ArraySource(images=_Rows(images, rows), labels=table.labels[rows],
                             groups=table.groups[rows], indices=rows,
                             class_names=table.class_names, group_names=table.group_names,
                             name=name, split=split, extras=extras)
        source.skipped = skipped
        source.warnings = data_warnings  # what the run's result.json repeats
        sources[split] = source
    return sources


def check_splits(name: str, table: Table, rows_by_split: dict) -> list[str]:
    """Data that would make a figure lie: a class that validation or test holds but training
    does not is an error (a model never shown it cannot predict it); a group with a single
    member in a split is a warning (its per-group figures, and the worst group's, rest on one
    example). Returns the warnings."""
    train = rows_by_split.get("train")
    if train is not None:
        seen = set(np.unique(table.labels[train]).tolist())
        for split, rows in rows_by_split.items():
            unseen = sorted(set(np.unique(table.labels[rows]).tolist()) - seen)
            if split != "train" and unseen:
                c = unseen[0]
                count = int((table.labels[rows] == c).sum())
                raise DataError(f"{name}: class {table.class_names[c]!r} of the target has "
                                f"{count} {split} example(s) but none in training, so no model "
                                "can learn it and its figures would mislead; drop or merge its "
                                "rows, or split so that training holds it")
    out = []
    for split, rows in rows_by_split.items():
        counts = np.bincount(table.groups[rows], minlength=len(table.group_names))
        for g in np.flatnonzero(counts == 1):
            out.append(f"{name}: group {table.group_names[g]!r} has one {split} example; its "
                       "per-group figures (and the worst group's) rest on it")
    return out


def odd_sizes(meta: dict, paths: list, image_size: int) -> list[str]:
    """A warning when most images decode to one size and some to another (a thumbnail, a crop
    or a file of another data set among them): each is resized to image_size all the same."""
    sizes = meta.get("sizes") or []
    decoded = [i for i, s in enumerate(sizes) if s != [0, 0]]  # [0, 0]: unreadable
    if not decoded:
        return []
    values, counts = np.unique(np.asarray([sizes[i] for i in decoded], np.int64), axis=0,
                               return_counts=True)
    if len(values) < 2 or counts.max() < 0.9 * len(decoded):
        return []
    common = values[counts.argmax()]
    odd = [i for i in decoded if tuple(sizes[i]) != tuple(common)]
    first = odd[0]
    return [f"{len(odd)} image(s) decode to another size than the {int(counts.max())} others "
            f"({common[0]}x{common[1]}), first {paths[first]} ({sizes[first][0]}x"
            f"{sizes[first][1]}); all are resized to {image_size}x{image_size}"]


def _reorder(table: Table, order) -> Table:
    pick = lambda v: None if v is None else (
        [v[i] for i in order] if isinstance(v, list) else np.asarray(v)[order])
    return Table(ids=pick(table.ids), paths=pick(table.paths), labels=pick(table.labels),
                 groups=pick(table.groups), class_names=table.class_names,
                 group_names=table.group_names, split=pick(table.split),
                 split_groups=pick(table.split_groups), crops=pick(table.crops),
                 cf_paths=pick(table.cf_paths), only_splits=table.only_splits, notes=table.notes,
                 reader=None if table.reader is None else (lambda i: table.reader(order[i])),
                 key_extra=table.key_extra)


class _Rows:
    """Rows of a memory-mapped array seen as an array of their own (no copy until read)."""

    def __init__(self, array, rows):
        self.array, self.rows = array, np.asarray(rows, np.int64)
        self.dtype, self.ndim = array.dtype, array.ndim
        self.shape = (len(self.rows), *array.shape[1:])

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            return np.asarray(self.array[self.rows[key]])
        rows = self.rows[key]
        if isinstance(rows, np.ndarray) and rows.ndim == 1 and len(rows) > 1:
            order = np.argsort(rows)  # sorted reads from the memory map, then back in order
            out = np.empty((len(rows), *self.shape[1:]), self.dtype)
            out[order] = self.array[rows[order]]
            return out
        return np.asarray(self.array[rows])

    def __array__(self, dtype=None, copy=None):
        out = np.asarray(self.array[self.rows])
        return out if dtype is None else out.astype(dtype)
