"""Data sets as random-access sources, and the grain input pipeline.

    from nhfair_jax.data import get_source
    train = get_source("digitsb", root=None, split="train")
"""

from __future__ import annotations

import os

from nhfair_jax.data.digitsb import cifar10b_sources, digitsb_sources
from nhfair_jax.data.source import SPLITS, ArraySource, check_split, random_split

# Loaders that build all three splits at once; each takes (root, *, split_seed, image_size, ...).
_LOADERS = {
    "digitsb": digitsb_sources,
    "cifar10b": cifar10b_sources,
}
# Data sets of the benchmark whose loaders read the official release (shared/spec/datasets.md).
_PLANNED = ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "waterbirds",
            "celeba_cf", "lfw_cf")
EMBEDDED = ("digitsb",)


def known_datasets() -> list[str]:
    return sorted((*_LOADERS, *_PLANNED))


def get_sources(name: str, root: str | None, *, split_seed: int = 0, image_size: int = 32,
                **options) -> dict[str, ArraySource]:
    """All three splits of a data set, built once.

    Raises:
      ValueError: an unknown data set name (the known ones are listed).
      FileNotFoundError: the data folder is missing ("data not found at <path>").
    """
    if name not in _LOADERS and name not in _PLANNED:
        raise ValueError(f"unknown data set {name!r}; known: {', '.join(known_datasets())}")
    if name not in EMBEDDED and (not root or not os.path.exists(root)):
        raise FileNotFoundError(f"data not found at {root or '<data.root is empty>'}; "
                                "see data/README.md")
    if name not in _LOADERS:
        raise NotImplementedError(f"the {name} loader (official layout) is not part of this "
                                  "release yet; digitsb and cifar10b are")
    return _LOADERS[name](root, split_seed=split_seed, image_size=image_size, **options)


def get_source(name: str, root: str | None, split: str, *, target=None, sensitive=None,
               split_seed: int = 0, image_size: int = 224, **options) -> ArraySource:
    """One split of a data set: a source with `len`, indexing and class / group names."""
    check_split(split)
    for key, value in (("target", target), ("sensitive", sensitive)):
        if value is not None:
            options[key] = value
    return get_sources(name, root, split_seed=split_seed, image_size=image_size, **options)[split]


__all__ = ["SPLITS", "ArraySource", "get_source", "get_sources", "known_datasets",
           "random_split"]
