"""Captions for zero-shot image-text matching: one table of defaults, or the config's own.

A prompt set is a list with one entry per class, in class order; each entry is a list of one or
more captions (several captions make an ensemble: their normalised text embeddings are averaged,
as in the CLIP paper's prompt ensembling).

The defaults are the image-text matching captions of the NH-Fair benchmark (Table 8 of "Benchmarking
Bias Mitigation Toward Fairness Without Harm from Vision to LVLMs"), quoted verbatim, for each
data set's default target; DigitsB's two captions are ours. A default is used only when the
loaded class names are the ones it was written for, so a changed `data.target` never receives
the captions of another target.
"""

from __future__ import annotations

import json
import os

from nhfair_jax.errors import UserError

# data set -> (class names of its default target, captions in class order)
TABLE8 = {
    "celeba": (("not_Wavy_Hair", "Wavy_Hair"),
               ("A photo of a person with non-wavy hair.", "A photo of a person with wavy hair.")),
    "utkface": (("male", "female"), ("A photo of a male.", "A photo of a female.")),
    "fairface": (("White", "Black", "Latino_Hispanic", "East Asian", "Southeast Asian", "Indian",
                  "Middle Eastern"),
                 ("A photo of a White person.", "A photo of a Black person.",
                  "A photo of a Latino or Hispanic person.", "A photo of an East Asian person.",
                  "A photo of a Southeast Asian person.", "A photo of an Indian person.",
                  "A photo of a Middle Eastern person.")),
    "facet": (("face_not_visible", "face_visible"),
              ("A photo of a person with non-visible face.",
               "A photo of a person with visible face.")),
    "waterbirds": (("landbird", "waterbird"),
                   ("A photo of a landbird.", "A photo of a waterbird.")),
    "ham10000": (("benign", "malignant"),
                 ("A photo of a benign skin condition.", "A photo of a malignant skin condition.")),
    "fitz17k": (("not_malignant", "malignant"),
                ("A photo of a benign skin condition.", "A photo of a malignant skin condition.")),
    # Not in the paper: the embedded data set's two classes (digits 0-4 and 5-9).
    "digitsb": (("digit_0_4", "digit_5_9"),
                ("A photo of a digit from 0 to 4.", "A photo of a digit from 5 to 9.")),
}
ALIASES = {"celeba_tfds": "celeba"}
SEPARATOR = "||"  # alternatives of one class inside an inline caption: an ensemble


def default_prompts(dataset: str, class_names) -> list[list[str]]:
    """Table 8's captions for a data set whose classes are those of its default target."""
    name = ALIASES.get(dataset, dataset)
    if name not in TABLE8:
        raise UserError(f"no default captions for data set {dataset!r} (defaults exist for "
                        f"{', '.join(sorted(TABLE8))}); set method.prompts or method.prompt_file")
    names, captions = TABLE8[name]
    if tuple(class_names) != names:
        raise UserError(f"the default captions of {name} are for the classes {list(names)}, this "
                        f"target has {list(class_names)}; set method.prompts or "
                        "method.prompt_file for this target")
    return [[c] for c in captions]


def _entry(value, where: str) -> list[str]:
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(SEPARATOR)]
    elif isinstance(value, (list, tuple)):
        parts = [p.strip() if isinstance(p, str) else p for p in value]
    else:
        parts = [value]
    if not parts or not all(isinstance(p, str) and p for p in parts):
        raise UserError(f"{where}: each class needs one or more non-empty captions, got "
                        f"{value!r}")
    return parts


def read_prompt_file(path: str, class_names) -> list:
    """A prompt file: JSON (a list in class order, or {class name: captions}) or text (one line
    per class, alternatives separated by '||')."""
    if not os.path.exists(path):
        raise UserError(f"prompt file not found: {path}")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read prompt file {path}: {e}") from e
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise UserError(f"prompt file {path} is not valid JSON: {e}") from e
        if isinstance(data, dict):
            missing = [c for c in class_names if c not in data]
            if missing:
                raise UserError(f"prompt file {path} has no captions for class(es) {missing}; "
                                f"its keys are {sorted(data)}")
            return [data[c] for c in class_names]
        if not isinstance(data, list):
            raise UserError(f"prompt file {path} must hold a list or an object, got "
                            f"{type(data).__name__}")
        return data
    return [line for line in text.splitlines() if line.strip()]


def resolve_prompts(method_cfg, dataset: str, class_names) -> list[list[str]]:
    """The prompt set of a run: method.prompts, else method.prompt_file, else the defaults.

    Raises:
      UserError: a prompt list whose length is not the number of classes, an empty caption, an
        unreadable prompt file, or no default for this data set and target.
    """
    inline = tuple(method_cfg.get("prompts", ()) or ())
    path = method_cfg.get("prompt_file", "") or ""
    if inline and path:
        raise UserError("set method.prompts or method.prompt_file, not both")
    if inline:
        raw, where = list(inline), "method.prompts"
    elif path:
        raw, where = read_prompt_file(path, class_names), f"prompt file {path}"
    else:
        return default_prompts(dataset, class_names)
    if len(raw) != len(class_names):
        raise UserError(f"{where} has {len(raw)} caption entries for {len(class_names)} classes "
                        f"{list(class_names)}; give one entry per class, in class order")
    return [_entry(v, where) for v in raw]
