"""The examples an LVLM task asks about: original image files (with FACET's person boxes), the
true answer and every demographic attribute, from the data loaders of `nhfair_jax.data`.

LVLMs read the original images at their own resolution, so the cached low-resolution store is not
used: the loader's table gives the files, the same ordering and the same seeded split as
`nhfair_jax.data.get_source`, so a `test` split here holds the examples the trained models are
tested on. FACET's extra annotations (person class, perceived age, skin tone) are read from the
same `annotations.csv` the loader reads and joined by (file name, person id).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import numpy as np

from nhfair_jax.data.loaders import LOADERS, read_csv
from nhfair_jax.data.source import SPLITS, random_split
from nhfair_jax.data.store import grouped_split
from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.tasks import FAIRFACE_RACE, Task


@dataclass
class Example:
    """One image (or one person in an image) and what is known about it."""

    id: str
    path: str
    crop: tuple | None
    attrs: dict = field(default_factory=dict)


def _decode_groups(table) -> list[list[str]]:
    """Per row, the values of each sensitive attribute the loader combined ("a & b" names)."""
    names = [str(n).split(" & ") for n in table.group_names]
    return [names[int(g)] for g in table.groups]


def _gender(value: str) -> str:
    return {"male": "Male", "masc": "Male", "female": "Female", "fem": "Female",
            "Male": "Male", "Female": "Female", "not_Male": "Female"}[value]


def _celeba(root, options):
    table = LOADERS["celeba"](root, target="Wavy_Hair", sensitive=("Male",), **options)
    groups = _decode_groups(table)
    attrs = [{"wavy": ("No", "Yes")[int(y)], "gender": _gender(g[0])}
             for y, g in zip(table.labels, groups)]
    return table, attrs


def _utk_age(file_name: str) -> str:
    age = int(re.match(r"(\d+)_", os.path.basename(file_name)).group(1))
    return "young" if age < 30 else ("middle" if age < 60 else "old")


def _utkface(root, options):
    table = LOADERS["utkface"](root, target="gender", sensitive=("race5",), **options)
    groups = _decode_groups(table)
    attrs = [{"gender": ("Male", "Female")[int(y)], "race": g[0],
              "race_binary": "White" if g[0] == "White" else "non-White",
              "age": _utk_age(i)} for y, g, i in zip(table.labels, groups, table.ids)]
    return table, attrs


def _fairface(root, options):
    table = LOADERS["fairface"](root, target="race", sensitive=("gender",), **options)
    groups = _decode_groups(table)
    attrs = [{"race": FAIRFACE_RACE[int(y)], "gender": _gender(g[0])}
             for y, g in zip(table.labels, groups)]
    return table, attrs


def _argmax_or_none(row, columns):
    values = np.asarray([float(row[c]) if c in row and row[c] == row[c] else 0.0
                         for c in columns])
    return int(values.argmax()) if values.max(initial=0.0) > 0 else None


def _facet(root, options):
    table = LOADERS["facet"](root, target="visible_face", sensitive=("gender",), **options)
    path = os.path.join(root, "annotations", "annotations.csv")
    frame = read_csv(path, ("filename", "person_id", "class1"))
    # Persons annotated per image, over every row (the study's `load_unique_imgs_with_class`
    # counts rows before any filter).
    persons = frame["filename"].astype(str).value_counts().to_dict()
    rows = {f"{f}#{p}": r for f, p, r in zip(frame["filename"].astype(str), frame["person_id"],
                                             frame.to_dict("records"))}
    skin_cols = [f"skin_tone_{k}" for k in range(1, 11)]
    age_cols = ["age_presentation_young", "age_presentation_middle", "age_presentation_older"]
    groups = _decode_groups(table)
    attrs = []
    for i, (y, g) in enumerate(zip(table.labels, groups)):
        row = rows[table.ids[i]]
        skin = _argmax_or_none(row, skin_cols)  # the Monk scale value most annotators chose
        age = _argmax_or_none(row, age_cols)
        attrs.append({"visible_face": ("No", "Yes")[int(y)], "gender": _gender(g[0]),
                      "occupation": str(row["class1"]).strip().lower(),
                      "age": None if age is None else ("young", "middle", "old")[age],
                      "skin_tone": None if skin is None else
                      ("light" if skin < 3 else "medium" if skin < 6 else "dark"),
                      "_persons": persons[str(row["filename"])]})
    return table, attrs


def _waterbirds(root, options):
    table = LOADERS["waterbirds"](root, target="y", sensitive=("place",), **options)
    groups = _decode_groups(table)
    attrs = [{"bird": ("Landbird", "Waterbird")[int(y)], "place": g[0]}
             for y, g in zip(table.labels, groups)]
    return table, attrs


_READERS = {"celeba": _celeba, "utkface": _utkface, "fairface": _fairface, "facet": _facet,
            "waterbirds": _waterbirds}


class _Ordered:
    """The table's rows ordered by id, as the cached sources order them."""

    def __init__(self, table, order):
        pick = lambda v: None if v is None else [v[i] for i in order]  # noqa: E731
        self.ids, self.paths, self.crops = pick(table.ids), pick(table.paths), pick(table.crops)
        self.split = None if table.split is None else np.asarray(table.split)[order]
        self.split_groups = (None if table.split_groups is None
                             else np.asarray(table.split_groups)[order])


def _split_rows(table, name: str, split: str, split_seed: int) -> np.ndarray:
    """The rows of `split`, as `nhfair_jax.data.get_source` draws them (rows ordered by id)."""
    n = len(table.ids)
    if split == "all":
        return np.arange(n)
    if table.split is not None:
        return np.flatnonzero(np.asarray(table.split) == split)
    if table.split_groups is not None:
        return grouped_split(table.split_groups, name, split_seed)[split]
    return random_split(n, name, split_seed)[split]


PERSONS = ("all", "single")


def load_examples(task: Task, root: str, *, split: str, split_seed: int = 0, limit: int = 0,
                  options: dict | None = None,
                  persons: str = "all") -> tuple[list[Example], dict]:
    """The examples of a task, and notes on what was excluded (counted, never silent).

    Args:
      task: the task (its data set and target attribute).
      root: the data set's folder (the official layout, see data/README.md).
      split: "train", "val", "test" or "all".
      split_seed: the seeded split of data sets without an official one.
      limit: if > 0, a seeded random subset of this many examples (for smoke runs).
      options: loader options (e.g. crop=False for whole FACET images).
      persons: FACET: "single" keeps the images of exactly one annotated person (the
        demographic study's selection), "all" every person.

    Raises:
      UserError: the split is unknown, or no example is left.
      FileNotFoundError, DataError: as the loaders raise them.
    """
    if split not in (*SPLITS, "all"):
        raise UserError(f"data.split must be one of {', '.join((*SPLITS, 'all'))}, got "
                        f"{split!r}")
    if persons not in PERSONS:
        raise UserError(f"data.persons must be one of {', '.join(PERSONS)}, got {persons!r}")
    if not root or not os.path.exists(root):
        raise FileNotFoundError(f"data not found at {root or '<data.root is empty>'}; see "
                                "data/README.md")
    table, attrs = _READERS[task.dataset](root, dict(options or {}))
    order = sorted(range(len(table.ids)), key=lambda i: str(table.ids[i]))
    ordered = _Ordered(table, order)
    attrs = [attrs[i] for i in order]
    rows = _split_rows(ordered, task.dataset, split, split_seed)
    examples, excluded, crowded = [], 0, 0
    asked = task.asked_classes or task.classes
    for i in rows:
        if attrs[i].pop("_persons", 1) > 1 and persons == "single":
            crowded += 1
            continue
        if attrs[i].get(task.target) not in asked:
            excluded += 1
            continue
        crop = None if ordered.crops is None else tuple(float(v) for v in ordered.crops[i])
        examples.append(Example(id=str(ordered.ids[i]), path=ordered.paths[i], crop=crop,
                                attrs=dict(attrs[i])))
    notes = dict(table.notes)
    if crowded:
        notes["persons in images of more than one annotated person, excluded "
              "(data.persons='single')"] = crowded
    if excluded:
        notes[f"examples whose {task.target} is not one of the task's asked classes, "
              "excluded"] = excluded
    if limit and limit < len(examples):
        pick = np.sort(np.random.default_rng(split_seed).choice(len(examples), limit,
                                                                 replace=False))
        notes["examples left out by data.limit"] = len(examples) - limit
        examples = [examples[i] for i in pick]
    if not examples:
        raise UserError(f"task {task.name}: no example left in split {split!r} of {root}")
    return examples, notes
