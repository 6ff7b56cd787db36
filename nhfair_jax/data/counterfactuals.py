"""Training-time counterfactuals for real data: the user's edited training images, paired with the
training split, for the counterfactual-aware methods (cf_aug, cp, ckd, hkd_cp, `method.cf`).

`data.counterfactuals` names a CSV file, or a folder holding `pairs.csv` (the layout
`python -m nhfair_jax.generate` writes). Columns:

- `counterfactual`: the edited image (a path relative to the CSV's folder, or absolute);
- `index` (the example's id in the data set, `source.indices`, as `generate` writes it) or
  `original` (the original image's path as the loader reads it: relative to data.root, or to
  its folder when data.root is a file such as a manifest CSV, or absolute); `index` wins when both exist;
- optional `keep` (0 drops the pair, as marked in a review) and `split` (rows of other splits
  are ignored).

Training rows without a pair are trained unpaired: their `image_cf` is the image itself and
`cf_mask` 0, so pair losses skip them; they are counted and a warning says how many. Rows of
split `val`, when the CSV has them, pair the validation split the same way: its CD (what the
counterfactual study selects by) is then computed over the validation pairs.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from nhfair_jax.data.loaders import LOADERS
from nhfair_jax.data.source import ArraySource, sensitive_names
from nhfair_jax.data.store import _decode
from nhfair_jax.errors import UserError


def pairs_csv(path: str) -> str:
    """The CSV named by data.counterfactuals (a file, or a folder holding pairs.csv)."""
    if os.path.isdir(path):
        path = os.path.join(path, "pairs.csv")
    if not os.path.exists(path):
        raise UserError(f"data.counterfactuals: {path} not found; give a CSV with columns "
                        "original (or index) and counterfactual, or a folder holding pairs.csv")
    return path


def _paths_by_index(config) -> dict:
    """{normalised original path: example index} through the data set's loader (the order
    build_sources gives the examples)."""

    name = config.data.name
    if name not in LOADERS:
        raise UserError(f"data.counterfactuals: {name} has no image files to match 'original' "
                        "against; give an 'index' column (the example's index)")
    options = dict(config.data.options)
    if config.data.target:
        options["target"] = config.data.target
    if config.data.sensitive:
        options["sensitive"] = sensitive_names(config.data.sensitive)
    table = LOADERS[name](config.data.root, **options)
    order = sorted(range(len(table.ids)), key=lambda i: str(table.ids[i]))
    return {os.path.normpath(os.path.abspath(table.paths[i])): pos
            for pos, i in enumerate(order)}


def pair_splits(path: str) -> set:
    """The splits the pairs CSV has rows of ({"train"} without a split column)."""
    import pandas as pd

    frame = pd.read_csv(pairs_csv(path))
    return set(frame["split"].astype(str)) if "split" in frame.columns else {"train"}


def read_pairs(path: str, config=None, split: str = "train"
               ) -> tuple[np.ndarray, list[str], dict]:
    """(example indices, counterfactual paths, notes) of the usable rows of the pairs CSV for
    `split` (a CSV without a split column is the training split's)."""
    import pandas as pd

    path = pairs_csv(path)
    try:
        frame = pd.read_csv(path)
    except Exception as e:  # pandas raises several types for unreadable files
        raise UserError(f"data.counterfactuals: cannot read {path} as CSV: {e}") from e
    if "counterfactual" not in frame.columns or not ({"index", "original"} & set(frame.columns)):
        raise UserError(f"data.counterfactuals: {path} needs the columns counterfactual and "
                        f"original (or index); it has {list(frame.columns)}")
    notes = {}
    if "keep" in frame.columns:
        dropped = int((frame["keep"] == 0).sum())
        if dropped:
            notes["pairs marked keep=0, dropped"] = dropped
        frame = frame[frame["keep"] != 0]
    if "split" in frame.columns:
        other = int((frame["split"].astype(str) != split).sum())
        if other:
            notes["pairs of other splits, ignored"] = other
        frame = frame[frame["split"].astype(str) == split]
    elif split != "train":
        frame = frame.iloc[:0]
    base = os.path.dirname(os.path.abspath(path))
    cf_paths = [c if os.path.isabs(c) else os.path.join(base, c)
                for c in frame["counterfactual"].astype(str)]
    missing = [c for c in cf_paths if not os.path.exists(c)]
    if missing:
        raise UserError(f"data.counterfactuals: {len(missing)} counterfactual image(s) listed in "
                        f"{path} are missing, first {missing[0]}")
    if "index" in frame.columns:
        indices = frame["index"].to_numpy().astype(np.int64)
    else:
        by_path = _paths_by_index(config)
        root = config.data.root
        root = root if os.path.isdir(root) else os.path.dirname(os.path.abspath(root))
        indices = []
        for original in frame["original"].astype(str):
            full = os.path.normpath(os.path.abspath(
                original if os.path.isabs(original) else os.path.join(root, original)))
            if full not in by_path:
                raise UserError(f"data.counterfactuals: original {original} of {path} is not an "
                                f"image of {config.data.name} at {root}")
            indices.append(by_path[full])
        indices = np.asarray(indices, np.int64)
    return indices, cf_paths, notes


def attach_counterfactuals(source, path: str, *, image_size: int, config=None):
    """The source (the training or validation split) with `image_cf` and `cf_mask` from the
    pairs CSV at `path` (its rows of the source's split)."""

    split = source.split or "train"
    indices, cf_paths, notes = read_pairs(path, config, split)
    position = {int(ix): r for r, ix in enumerate(source.indices)}
    words = {"train": ("training", "trained unpaired"),
             "val": ("validation", "left out of CD")}.get(split, (split, "left out of CD"))
    outside = sum(int(ix) not in position for ix in indices)
    if outside:
        notes[f"pairs of examples outside the {words[0]} split, ignored"] = outside
    images = np.asarray(source.images[np.arange(len(source))]).copy()
    mask = np.zeros(len(source), np.float32)
    for ix, cf in zip(indices, cf_paths):
        r = position.get(int(ix))
        if r is None:
            continue
        try:
            images[r] = _decode(cf, image_size, None)[0]
        except Exception as e:  # PIL raises several types for unreadable files
            raise UserError(f"data.counterfactuals: cannot read {cf}: {e}") from e
        mask[r] = 1.0
    unpaired = int((mask == 0).sum())
    if unpaired:
        notes[f"{words[0]} examples without a counterfactual, {words[1]}"] = unpaired
    if notes:
        warnings.warn("data.counterfactuals: " + "; ".join(f"{k}: {v}" for k, v in notes.items()),
                      UserWarning, stacklevel=2)
    extras = {**source.extras, "image_cf": images, "cf_mask": mask}
    out = ArraySource(images=source.images, labels=source.labels, groups=source.groups,
                      indices=source.indices, class_names=source.class_names,
                      group_names=source.group_names, name=source.name, split=source.split,
                      extras=extras)
    out.cf_notes = notes
    return out
