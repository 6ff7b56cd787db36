"""TensorFlow Datasets as an alternative source, for data sets the user has already prepared
with TFDS (`celeb_a`, `cifar10`). Read through `tfds.data_source` (random access over the
prepared ArrayRecord files), which needs tensorflow-datasets but not TensorFlow.

    data.name = "celeba_tfds", data.root = <TFDS data_dir>   (CelebA, same targets/groups)
    data.name = "cifar10b_tfds", data.root = <TFDS data_dir> (the CIFAR-10B construction)
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.data.digitsb import cifar10b_from_arrays
from nhfair_jax.data.loaders import as_tuple
from nhfair_jax.data.store import DataError, Table, build_sources, combine_groups

TFDS_SPLITS = {"train": "train", "validation": "val", "test": "test"}


def _tfds():
    try:
        import tensorflow_datasets as tfds
    except ImportError as e:
        raise DataError("the TFDS sources need tensorflow-datasets: pip install "
                        "'nhfair-jax[tfds]' (TensorFlow itself is not needed)") from e
    return tfds


def _source(name: str, split: str, data_dir):
    tfds = _tfds()
    try:
        return tfds.data_source(name, split=split, data_dir=data_dir)
    except Exception as e:  # TFDS raises assorted types for a dataset that is not prepared
        raise FileNotFoundError(f"TFDS data set {name!r} (split {split!r}) is not prepared in "
                                f"{data_dir}: {e}; prepare it with TFDS first (see "
                                "data/README.md)") from e


def celeba_tfds_sources(root, *, split_seed=0, image_size=224, target="Wavy_Hair",
                        sensitive="Male", partition="random", cache_dir=None,
                        on_bad_image="error", progress=True):
    """CelebA from TFDS `celeb_a`: the same targets, groups and splits as the `celeba` loader
    (`partition="official"` uses TFDS's train/validation/test, which are CelebA's own)."""

    parts = {split: _source("celeb_a", split, root) for split in TFDS_SPLITS}
    ids, official, attrs, readers = [], [], [], []
    for tfds_split, ours in TFDS_SPLITS.items():
        src = parts[tfds_split]
        for i in range(len(src)):
            record = src[i]
            ids.append(f"tfds:celeb_a/{tfds_split}/{i:07d}")
            official.append(ours)
            attrs.append({k: bool(v) for k, v in record["attributes"].items()})
            readers.append((tfds_split, i))
    names = sorted(attrs[0])
    for attr in (target, *as_tuple(sensitive)):
        if attr not in names:
            raise DataError(f"unknown attribute {attr!r} for celeb_a; choose from {names}")
    column = lambda a: np.asarray([r[a] for r in attrs], np.int32)
    groups, group_names = combine_groups([column(a) for a in as_tuple(sensitive)],
                                         [[f"not_{a}", a] for a in as_tuple(sensitive)])
    if partition not in ("random", "official"):
        raise DataError(f"celeba_tfds: partition must be 'random' or 'official', got "
                        f"{partition!r}")

    def read(i):
        split, row = readers[i]
        return np.asarray(parts[split][row]["image"], np.uint8)

    table = Table(ids=ids, paths=ids, labels=column(target), groups=groups,
                  class_names=[f"not_{target}", target], group_names=group_names,
                  split=np.asarray(official) if partition == "official" else None, reader=read,
                  key_extra=f"celeb_a:{[len(p) for p in parts.values()]}")
    return build_sources("celeba_tfds", table, split_seed=split_seed, image_size=image_size,
                         cache_dir=cache_dir, on_bad_image=on_bad_image, progress=progress)


def cifar10b_tfds_sources(root, *, split_seed=0, image_size=32, skew=0.8, alpha=0.8,
                          build_seed=0, val_fraction=0.1, roles="paper", **_):
    """CIFAR-10B built from TFDS `cifar10` (train / test), as from the python release."""

    arrays = []
    for split in ("train", "test"):
        src = _source("cifar10", split, root)
        records = [src[i] for i in range(len(src))]
        arrays.append((np.stack([np.asarray(r["image"], np.uint8) for r in records]),
                       np.asarray([int(r["label"]) for r in records], np.int64)))
    (train_x, train_y), (test_x, test_y) = arrays
    return cifar10b_from_arrays(train_x, train_y, test_x, test_y, split_seed=split_seed,
                                image_size=image_size, skew=skew, alpha=alpha,
                                build_seed=build_seed, val_fraction=val_fraction, roles=roles)
