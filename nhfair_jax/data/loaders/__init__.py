"""Loaders that read each data set's official release layout (data/README.md) into a
`Table`, one module per data set; `store.build_sources` turns a table into cached split sources.

Every loader takes (root, target, sensitive, **options), checks what it reads, and says which
file, row, column or value is wrong. `sensitive` may name several attributes (a tuple) for
intersectional groups.
"""

from nhfair_jax.data.loaders.celeba import CELEBA_ATTRS, load_celeba
from nhfair_jax.data.loaders.common import (  # noqa: F401 - the helpers other modules use
    as_tuple, binary_names, check_values, groups_of, label_of, pick_attributes, read_csv, require)
from nhfair_jax.data.loaders.facet import load_facet
from nhfair_jax.data.loaders.fairface import FAIRFACE_RACES, load_fairface
from nhfair_jax.data.loaders.fitz17k import load_fitz17k
from nhfair_jax.data.loaders.ham10000 import load_ham10000
from nhfair_jax.data.loaders.manifest import load_csv
from nhfair_jax.data.loaders.pairs import _pairs
from nhfair_jax.data.loaders.utkface import UTK_RACES, load_utkface
from nhfair_jax.data.loaders.waterbirds import load_waterbirds

LOADERS = {
    "celeba": load_celeba, "utkface": load_utkface, "fairface": load_fairface,
    "facet": load_facet, "ham10000": load_ham10000, "fitz17k": load_fitz17k,
    "waterbirds": load_waterbirds, "csv": load_csv,
    "celeba_cf": _pairs("celeba_cf", "Blond_Hair"), "lfw_cf": _pairs("lfw_cf", "Smiling"),
}

__all__ = ["CELEBA_ATTRS", "FAIRFACE_RACES", "LOADERS", "UTK_RACES", "load_celeba", "load_csv",
           "load_facet", "load_fairface", "load_fitz17k", "load_ham10000", "load_utkface",
           "load_waterbirds"]
