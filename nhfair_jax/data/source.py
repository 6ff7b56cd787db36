"""Random-access sources: what every loader returns and the pipeline reads."""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

SPLITS = ("train", "val", "test")

# While `nhfair_jax.data.reused_sources` is active (a benchmark, a study): its depth, the
# sources it keeps by data config, and the loaders' split-independent builds (a biased set's
# images before any split) by their arguments, so that runs re-splitting one set with their
# seeds build it once.
REUSE = {"depth": 0, "sources": {}, "builds": OrderedDict()}
KEPT_BUILDS = 4


def kept_build(key, build):
    """`build()`, kept under `key` while sources are reused (else built each time)."""
    if not REUSE["depth"]:
        return build()
    builds = REUSE["builds"]
    if key in builds:
        builds.move_to_end(key)
        return builds[key]
    made = builds[key] = build()
    while len(builds) > KEPT_BUILDS:
        builds.popitem(last=False)
    return made


class ArraySource:
    """An in-memory (or memory-mapped) split of a data set.

    Indexing gives a dict with `image` (uint8 HxWx3), `label`, `group` and `index` (the example's
    stable id in the whole data set), plus any extra per-example arrays (e.g. `image_cf`).
    """

    def __init__(self, *, images: np.ndarray, labels: np.ndarray, groups: np.ndarray,
                 indices: np.ndarray, class_names: Sequence[str], group_names: Sequence[str],
                 name: str = "", split: str = "", extras: dict | None = None):
        n = len(images)
        for key, arr in (("labels", labels), ("groups", groups), ("indices", indices),
                         *((k, v) for k, v in (extras or {}).items())):
            if len(arr) != n:
                raise ValueError(f"{name}/{split}: {key} has {len(arr)} rows, images {n}")
        if images.dtype != np.uint8 or images.ndim != 4 or images.shape[-1] != 3:
            raise ValueError(f"{name}/{split}: images must be uint8 [N, H, W, 3], got "
                             f"{images.dtype} {images.shape}")
        self.images = images
        self.labels = np.asarray(labels, np.int32)
        self.groups = np.asarray(groups, np.int32)
        self.indices = np.asarray(indices, np.int64)
        self.extras = dict(extras or {})
        self.class_names = list(class_names)
        self.group_names = list(group_names)
        self.name, self.split = name, split

    @property
    def num_classes(self) -> int:
        return len(self.class_names)

    @property
    def num_groups(self) -> int:
        return len(self.group_names)

    @property
    def image_shape(self) -> tuple[int, int, int]:
        return tuple(self.images.shape[1:])

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> dict:
        return {"image": self.images[i], "label": self.labels[i], "group": self.groups[i],
                "index": self.indices[i], **{k: v[i] for k, v in self.extras.items()}}

    def get_batch(self, rows: np.ndarray, keys: Sequence[str] | None = None) -> dict:
        """Many rows at once by fancy indexing (far faster than stacking single records).

        Args:
          rows: row numbers within this split.
          keys: the fields to read; default all of them.
        """
        rows = np.asarray(rows)
        columns = {"image": self.images, "label": self.labels, "group": self.groups,
                   "index": self.indices, **self.extras}
        if keys is None:
            keys = columns
        missing = [k for k in keys if k not in columns]
        if missing:
            raise KeyError(f"{self.name}/{self.split} has no field {missing}; it has {list(columns)}")
        return {k: columns[k][rows] for k in keys}

    def subset(self, rows: np.ndarray, split: str) -> "ArraySource":
        rows = np.asarray(rows)
        return ArraySource(images=self.images[rows], labels=self.labels[rows],
                           groups=self.groups[rows], indices=self.indices[rows],
                           class_names=self.class_names, group_names=self.group_names,
                           name=self.name, split=split,
                           extras={k: v[rows] for k, v in self.extras.items()})


def split_rng(name: str, split_seed: int) -> np.random.Generator:
    """A local generator that depends on (data set, split_seed) only, never on global state."""
    return np.random.default_rng([int(split_seed), zlib.crc32(name.encode())])


def random_split(n: int, name: str, split_seed: int,
                 fractions: tuple[float, float, float] = (0.8, 0.1, 0.1)) -> dict[str, np.ndarray]:
    """Deterministic random train/val/test row indices (sorted within each split)."""
    if abs(sum(fractions) - 1.0) > 1e-9:
        raise ValueError(f"split fractions must sum to 1, got {fractions}")
    perm = split_rng(name, split_seed).permutation(n)
    n_train = int(round(fractions[0] * n))
    n_val = int(round(fractions[1] * n))
    parts = (perm[:n_train], perm[n_train:n_train + n_val], perm[n_train + n_val:])
    return {s: np.sort(p) for s, p in zip(SPLITS, parts)}


def check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")


def sensitive_names(value):
    """'race,age' or ('race', 'age') -> ('race', 'age'); '' or None -> None (the default)."""
    if value is None or value == "" or value == ():
        return None
    if isinstance(value, str):
        parts = tuple(p.strip() for p in value.split(",") if p.strip())
        return parts if len(parts) > 1 else parts[0]
    return tuple(value)
