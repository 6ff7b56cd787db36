"""Data sets as random-access sources, and the grain input pipeline.

    from nhfair_jax.data import get_source
    train = get_source("digitsb", root=None, split="train")
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os

import numpy as np

from nhfair_jax.data.counterfactuals import attach_counterfactuals, pair_splits
from nhfair_jax.data.digitsb import (
    cifar10b_sources,
    digitsb_sources,
    fashion_mnist_b_sources,
)
from nhfair_jax.data.loaders import LOADERS
from nhfair_jax.data.loaders.pairs import _pairs
from nhfair_jax.data.source import REUSE, SPLITS, ArraySource, check_split, random_split
from nhfair_jax.data.source import sensitive_names as _sensitive
from nhfair_jax.data.store import DataError, build_sources, default_cache_dir
from nhfair_jax.data.tfds_sources import celeba_tfds_sources, cifar10b_tfds_sources
from nhfair_jax.errors import UnknownName

# Built from arrays (no image files): each takes (root, *, split_seed, image_size, ...).
_ARRAY_LOADERS = {
    "digitsb": digitsb_sources,
    "cifar10b": cifar10b_sources,
    "fashion_mnist_b": fashion_mnist_b_sources,
    "cifar10b_tfds": cifar10b_tfds_sources,
}
# TFDS alternatives that decode into the cached store like the file loaders.
_TFDS_LOADERS = {"celeba_tfds": celeba_tfds_sources}
EMBEDDED = ("digitsb",)


def known_datasets() -> list[str]:
    return sorted((*_ARRAY_LOADERS, *_TFDS_LOADERS, *LOADERS))


def get_sources(name: str, root: str | None, *, split_seed: int = 0, image_size: int = 32,
                cache_dir: str | None = None, on_bad_image: str = "error", target=None,
                sensitive=None, progress: bool = True, **options) -> dict[str, ArraySource]:
    """The splits of a data set, built once (images decoded into the cache on first use).

    Args:
      name: a known data set (known_datasets()) or "csv" for your own manifest.
      root: the folder of the official release (the manifest's path for "csv").
      split_seed: the seeded 8:1:1 split (data sets with an official split ignore it).
      image_size: images are resized to image_size x image_size once, into the cache.
      cache_dir: where decoded arrays live; default $NHFAIR_CACHE or ~/.cache/nhfair_jax.
      on_bad_image: "error" (default) or "skip" (unreadable images dropped, counted, warned).
      target, sensitive: the target attribute and the sensitive attribute(s) (a tuple, or
        "a,b", for intersectional groups); None for the data set's default.
      options: loader options (e.g. partition="official", crop=False, include_bcc=True).

    Raises:
      ValueError: an unknown data set name (the known ones are listed).
      FileNotFoundError: the data folder or a file is missing (the path is named).
      DataError: the files are not what the loader expects (file, row, column or value named).
    """
    if name not in known_datasets():
        raise UnknownName("data set", name, known_datasets())
    if name in EMBEDDED and root:
        raise DataError(f"data.root={root!r}: {name} is generated in memory and reads no "
                        "folder; leave data.root empty (or choose a data set read from files)")
    if name not in EMBEDDED and (not root or not os.path.exists(root)):
        raise FileNotFoundError(f"data not found at {root or '<data.root is empty>'}; "
                                "see data/README.md")
    target, sensitive = (None if target in (None, "") else target), _sensitive(sensitive)
    if name in _ARRAY_LOADERS:
        if target is not None or sensitive is not None:
            raise DataError(f"{name} has a fixed target and sensitive attribute; leave "
                            "data.target and data.sensitive empty")
        return _ARRAY_LOADERS[name](root, split_seed=split_seed, image_size=image_size,
                                    **options)
    if name in _TFDS_LOADERS:
        for key, value in (("target", target), ("sensitive", sensitive)):
            if value is not None:
                options[key] = value
        return _TFDS_LOADERS[name](root, split_seed=split_seed, image_size=image_size,
                                   cache_dir=cache_dir or None, on_bad_image=on_bad_image,
                                   progress=progress, **options)
    loader = LOADERS[name]
    accepted = [p for p in inspect.signature(loader).parameters if p != "root"]
    unknown = [k for k in options if k not in accepted]
    if unknown:
        raise DataError(f"{name} has no option(s) {unknown}; it accepts {accepted}")
    for key, value in (("target", target), ("sensitive", sensitive)):
        if value is not None:
            options[key] = value
    table = loader(root, **options)
    return build_sources(name, table, split_seed=split_seed, image_size=image_size,
                         cache_dir=cache_dir or None, on_bad_image=on_bad_image,
                         progress=progress)


def get_source(name: str, root: str | None, split: str, *, target=None, sensitive=None,
               split_seed: int = 0, image_size: int = 224, **options) -> ArraySource:
    """One split of a data set: a source with `len`, indexing and class / group names."""
    check_split(split)
    sources = get_sources(name, root, split_seed=split_seed, image_size=image_size,
                          target=target, sensitive=sensitive, **options)
    if split not in sources:
        raise DataError(f"{name} has only the split(s) {list(sources)}, not {split!r} (pair "
                        "data sets are for testing: they share the originals' test samples)")
    return sources[split]




_REUSE = REUSE
REUSED_DATA_SETS = 2  # data settings kept at once while reusing (the oldest is let go)


@contextlib.contextmanager
def reused_sources():
    """Within it, `config_sources` loads each data setting once and hands every later run the
    same sources (a benchmark's trials and seed runs read identical arrays): the command-line
    entry points of the benchmark and the studies use it. The sources are read-only; files
    changed on disk meanwhile are not seen, which is why a plain call loads afresh."""
    _REUSE["depth"] += 1
    try:
        yield
    finally:
        _REUSE["depth"] -= 1
        if not _REUSE["depth"]:
            _REUSE["sources"].clear()
            _REUSE["builds"].clear()


def config_sources(c) -> dict:
    """{split: Source} of a run's config: the data set, and the user's edited training (and
    validation) images when data.counterfactuals names them (loaded once per setting inside
    `reused_sources`)."""
    if not _REUSE["depth"]:
        return _load_config_sources(c)
    key = json.dumps(c.data.to_dict(), sort_keys=True, default=str)
    kept = _REUSE["sources"]
    if key not in kept:
        if len(kept) >= REUSED_DATA_SETS:
            kept.pop(next(iter(kept)))
        kept[key] = _load_config_sources(c)
        for source in kept[key].values():  # a run that wrote into them would change the next
            for arr in (source.images, source.labels, source.groups, source.indices,
                        *source.extras.values()):
                if isinstance(arr, np.ndarray):
                    arr.flags.writeable = False
    return dict(kept[key])


def _load_config_sources(c) -> dict:
    sources = get_sources(
        c.data.name, c.data.root or None, split_seed=c.data.split_seed,
        image_size=c.data.image_size, target=c.data.target, sensitive=c.data.sensitive,
        cache_dir=c.data.cache_dir, on_bad_image=c.data.on_bad_image,
        progress=c.train.progress, **c.data.options)
    if c.data.get("counterfactuals", ""):
        has = pair_splits(c.data.counterfactuals)
        for split in ("train", "val"):
            if split == "train" or (split in has and split in sources):
                sources[split] = attach_counterfactuals(sources[split], c.data.counterfactuals,
                                                        image_size=c.data.image_size, config=c)
    return sources


def test_pairs(c, key: str = "cf_pairs"):
    """The test pairs of a run's config, as one source with `image_cf` (the edited image); None
    when unset. `eval.cf_pairs`: pairs with the sensitive attribute edited (CD); the optional
    `eval.gflip_pairs`: pairs with the latent attribute G edited (RFP; e.g. hair length, made by
    configs/generate.py:celeba_sdedit_hair). Each names a folder holding pairs.csv, read as the
    celeba_cf / lfw_cf loaders read theirs."""
    folder = c.eval.get(key, "")
    if not folder:
        return None

    name = f"{c.data.name}_cf"
    loader = LOADERS[name] if name in LOADERS else _pairs("cf_pairs", "target")
    if not os.path.exists(os.path.join(folder, "pairs.csv")):
        raise FileNotFoundError(f"eval.{key}: {folder} holds no pairs.csv (the layout of "
                                "data/README.md, 'Counterfactual pairs')")
    table = loader(folder)
    return build_sources(f"{name}_{key}", table, split_seed=0, image_size=c.data.image_size,
                         cache_dir=c.data.cache_dir or None, on_bad_image=c.data.on_bad_image,
                         progress=c.train.progress)["test"]


__all__ = ["SPLITS", "ArraySource", "DataError", "config_sources", "default_cache_dir",
           "get_source", "get_sources", "known_datasets", "random_split", "reused_sources",
           "test_pairs"]
