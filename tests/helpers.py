"""Helpers the test files share (fixtures live in conftest.py).

`need(piece)`: an optional piece of the test environment (a Python package, a program, a
server). Missing, it skips the test locally; listed in NHFAIR_REQUIRE (comma-separated, or
"all"), it fails the test instead, so that CI, which installs every piece and sets
NHFAIR_REQUIRE=all, cannot turn a broken install into a green run of skips.
"""

from __future__ import annotations

import importlib
import os
import shutil

import pytest

# piece -> (kind, what to look for, how to get it)
PIECES = {
    "torch": ("module", "torch", 'pip install "torch==2.13.0"'),
    "transformers": ("module", "transformers", 'pip install -e ".[zeroshot,lvlm]"'),
    "diffusers": ("module", "diffusers", 'pip install -e ".[generate]"'),
    "tfds": ("module", "tensorflow_datasets", 'pip install -e ".[test]"'),
    "oxonfair": ("module", "oxonfair", 'pip install -e ".[test]"'),
    "chromium": ("program", ("chromium", "chromium-browser"), "apt-get install chromium"),
    "node": ("program", ("node", "nodejs"), "apt-get install nodejs"),
    "postgres": ("env", "NHFAIR_PG_URL",
                 "set NHFAIR_PG_URL=postgresql://user:pass@host/db (.ci/run starts a server)"),
}


def required() -> set[str]:
    """The pieces NHFAIR_REQUIRE makes mandatory ("all": every piece)."""
    names = {n.strip() for n in os.environ.get("NHFAIR_REQUIRE", "").split(",") if n.strip()}
    return set(PIECES) if "all" in names else names


def strict() -> bool:
    """NHFAIR_REQUIRE=all: no test may skip (conftest turns a skip into a failure)."""
    return "all" in os.environ.get("NHFAIR_REQUIRE", "").replace(" ", "").split(",")


def _find(piece: str):
    kind, target, _ = PIECES[piece]
    if kind == "module":
        try:
            return importlib.import_module(target), None
        except Exception as e:  # noqa: BLE001 - a broken install fails in many ways
            return None, f"cannot import {target}: {type(e).__name__}: {e}"
    if kind == "program":
        found = next((p for p in map(shutil.which, target) if p), None)
        return found, None if found else f"none of {', '.join(target)} is on PATH"
    value = os.environ.get(target)
    return value, None if value else f"{target} is not set"


def need(piece: str):
    """The module, program path or setting of an optional piece; skips the test without it, or
    fails it when NHFAIR_REQUIRE names the piece."""
    if piece not in PIECES:
        raise KeyError(f"unknown test piece {piece!r}; known: {', '.join(PIECES)}")
    found, why = _find(piece)
    if found is not None:
        return found
    message = f"{piece} missing ({why}); {PIECES[piece][2]}"
    if piece in required():
        pytest.fail(f"NHFAIR_REQUIRE lists {piece}: {message}", pytrace=False)
    pytest.skip(message)


def assert_learned(run_dir, split: str = "test", sds: float = 3.0) -> float:
    """The run's accuracy on `split` (from its predictions file) beats always predicting the
    majority class by `sds` binomial standard deviations of that rate: it learned the label,
    beyond what chance gives on this many examples. Returns the accuracy."""
    import numpy as np

    pred = np.load(os.path.join(str(run_dir), f"predictions_{split}.npz"))
    labels = pred["label"]
    acc = float((pred["logits"].argmax(1) == labels).mean())
    majority = float(np.bincount(labels).max() / len(labels))
    bound = majority + sds * float(np.sqrt(majority * (1 - majority) / len(labels)))
    assert acc > bound, f"{split} accuracy {acc:.3f} is not above chance ({bound:.3f})"
    return acc
