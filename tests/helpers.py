"""Helpers the test files share (fixtures live in conftest.py): the tiny DigitsB config, the
command line run as a user runs it, config files for post-fit and teacher runs, optional pieces
of the environment, and a check that a run learned its label.

`need(piece)`: an optional piece of the test environment (a Python package, a program, a
server). Missing, it skips the test locally; listed in NHFAIR_REQUIRE (comma-separated, or
"all"), it fails the test instead, so that CI, which installs every piece and sets
NHFAIR_REQUIRE=all, cannot turn a broken install into a green run of skips.

`python tests/helpers.py` checks every piece at once and exits 1 naming those missing (.ci/run
calls it before the tests).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# piece -> (kind, what to look for, how to get it)
PIECES = {
    "torch": ("module", "torch", 'pip install "torch==2.13.0"'),
    "transformers": ("module", "transformers", 'pip install -e ".[zeroshot,lvlm]"'),
    "diffusers": ("module", "diffusers", 'pip install -e ".[generate]"'),
    "tfds": ("module", "tensorflow_datasets", 'pip install -e ".[test]"'),
    "oxonfair": ("module", "oxonfair", 'pip install -e ".[test]"'),
    # `transformers serve`'s server (transformers[serving]): fastapi and uvicorn
    "serving": ("module", ("fastapi", "uvicorn"), 'pip install -e ".[lvlm]"'),
    # the benchmark's --launcher (Slurm job arrays, local worker processes)
    "submitit": ("module", "submitit", 'pip install -e ".[cluster]"'),
    "chromium": ("program", ("chromium", "chromium-browser"), "apt-get install chromium"),
    "node": ("program", ("node", "nodejs"), "apt-get install nodejs"),
    "postgres": ("env", "NHFAIR_PG_URL",
                 "set NHFAIR_PG_URL=postgresql://user:pass@host/db (.ci/run starts a server)"),
    # Fashion-MNIST's IDX files as Debian's dataset-fashion-mnist installs them
    "fashion_mnist": ("file", "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz",
                      "apt-get install dataset-fashion-mnist"),
}


# Set by conftest.py: the run deselects the slow tests (`-m "not slow"`, the quick loop).
QUICK_SUITE = False


def property_examples(full: int) -> int:
    """Hypothesis examples for a property test: `full` in the whole suite (CI's), a fifth of
    them (at least 10) in the quick loop, which is meant to finish in about two minutes."""
    return max(10, full // 5) if QUICK_SUITE else full


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
        modules = (target,) if isinstance(target, str) else target
        try:
            return [importlib.import_module(m) for m in modules][0], None
        except Exception as e:  # noqa: BLE001 - a broken install fails in many ways
            return None, f"cannot import {', '.join(modules)}: {type(e).__name__}: {e}"
    if kind == "program":
        found = next((p for p in map(shutil.which, target) if p), None)
        return found, None if found else f"none of {', '.join(target)} is on PATH"
    if kind == "file":
        return (os.path.dirname(target), None) if os.path.exists(target) else (
            None, f"{target} does not exist")
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
    # module level too: test files that need a piece for every test call this at import
    pytest.skip(message, allow_module_level=True)


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


def tiny_config(**overrides):
    """DigitsB with a narrow small CNN: a few seconds per epoch on a 2-core CPU."""
    sys.path.insert(0, os.path.join(REPO, "configs"))
    from erm_digitsb import get_config

    c = get_config()
    c.model.cnn_widths = (8, 16, 32)
    c.train.epochs = 2
    c.train.batch_size = 64
    c.train.eval_batch_size = 64
    c.train.progress = False
    for key, value in overrides.items():
        node = c
        *parents, leaf = key.split(".")
        for p in parents:
            node = node[p]
        node[leaf] = value
    return c


TINY_FLAGS = ["--config.model.cnn_widths=(8, 16, 32)", "--config.train.progress=False"]


def run_cli(*args, env=None, timeout=600, module="nhfair_jax.run", cwd=REPO):
    """Runs `python -m <module> args...` in `cwd`; returns the CompletedProcess."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=timeout)


def erm_config_file(tmp_path, epochs: int = 1) -> str:
    """A configs/*.py-style file returning tiny_config for `epochs` (post-fit methods name one)."""
    path = tmp_path / f"erm_tiny_{epochs}.py"
    path.write_text(
        "import sys\n"
        f"sys.path.insert(0, {REPO!r})\n"
        "from tests.helpers import tiny_config\n"
        "def get_config():\n"
        f"    return tiny_config(**{{'train.epochs': {epochs}}})\n")
    return str(path)


# Log keys that measure the machine, not the run (they differ between any two runs).
TIMING_KEYS = ("time_train_s", "time_eval_s", "compiles", "compiled", "cache_hits", "compile_s")


def log_without_timings(workdir) -> list:
    """A run directory's log.jsonl entries without the timing keys."""
    import json

    with open(os.path.join(str(workdir), "log.jsonl")) as f:
        return [{k: v for k, v in json.loads(line).items() if k not in TIMING_KEYS}
                for line in f if line.strip()]


def checkpointed_state(config, workdir) -> dict:
    """{"latest", "best"}: (params, batch statistics, optimizer state, method state) of the run's
    last and best checkpoints, as host arrays."""
    import jax

    from nhfair_jax.training.checkpoint import Checkpoints
    from nhfair_jax.training.setup import RESTORING, build

    like = build(config, None, teacher=RESTORING).state
    ckpt = Checkpoints(str(workdir))
    try:
        return {name: jax.device_get((s.params, s.batch_stats, s.opt_state, s.method_state))
                for name, (s, _) in (("latest", ckpt.restore_latest(like)),
                                     ("best", ckpt.restore_best(like)))}
    finally:
        ckpt.close()


def assert_same_run(config, workdir, reference) -> None:
    """Two run directories of `config` hold the same run: every log line (timings aside) and
    the last and best checkpoints' states, bit for bit (a resumed run against an uninterrupted
    one)."""
    import jax
    import numpy as np

    assert log_without_timings(workdir) == log_without_timings(reference)
    got, want = checkpointed_state(config, workdir), checkpointed_state(config, reference)
    for name in ("latest", "best"):
        pairs = zip(jax.tree.leaves(got[name]), jax.tree.leaves(want[name]), strict=True)
        assert all(np.array_equal(a, b) for a, b in pairs), name


def toy_apply(variables, x, train=False, features=False, mutable=None):
    """A two-layer 'network' without BatchNorm for loss tests: features = tanh(x W1), logits =
    features W2 (params {"w1", "w2"}); the apply signature of the package's models."""
    import jax.numpy as jnp

    p = variables["params"]
    feats = jnp.tanh(x.reshape(x.shape[0], -1) @ p["w1"])
    logits = feats @ p["w2"]
    out = (logits, feats) if features else logits
    return (out, {"batch_stats": {}}) if mutable else out


def toy_student_and_teacher(seed: int, inputs: int, hidden: int, classes: int):
    """(params, teacher variables) of toy_apply: random normal weights from `seed`."""
    import jax

    k = jax.random.split(jax.random.key(seed), 4)
    params = {"w1": jax.random.normal(k[0], (inputs, hidden)),
              "w2": jax.random.normal(k[1], (hidden, classes))}
    teacher = {"params": {"w1": jax.random.normal(k[2], (inputs, hidden)),
                          "w2": jax.random.normal(k[3], (hidden, classes))}, "batch_stats": {}}
    return params, teacher


def main() -> int:
    """Checks every piece of PIECES; prints one line per missing piece (what is wrong, how to get
    it) and returns 1 when any is missing."""
    missing = [(p, why) for p, (found, why) in ((p, _find(p)) for p in PIECES) if found is None]
    for piece, why in missing:
        print(f"ci: {piece} missing ({why}); {PIECES[piece][2]}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())


class Interrupted(Exception):
    """What `interrupt_and_resume` raises inside a run to stop it."""


def interrupt_and_resume(config, workdir, monkeypatch, cls, hook: str, at_epoch: int,
                         after_interrupt=None) -> dict:
    """Runs `config` in `workdir`, stopped by an exception as `cls.hook(..., epoch)` is called
    for epoch `at_epoch` (a crash at that moment: what was checkpointed stays), then runs it
    again undisturbed; returns the resumed run's result. `hook` is a method whose last
    positional argument before any keyword is the 1-based epoch (Method.on_epoch_start,
    Run.train_epoch). `after_interrupt()`, when given, checks the directory in between."""
    import inspect

    from nhfair_jax.dispatch import run

    original = getattr(cls, hook)
    position = list(inspect.signature(original).parameters).index("epoch")

    def stopped(*args, **kw):
        if args[position] == at_epoch:
            raise Interrupted(f"{cls.__name__}.{hook} at epoch {at_epoch}")
        return original(*args, **kw)

    monkeypatch.setattr(cls, hook, stopped)
    with pytest.raises(Interrupted):
        run(config, str(workdir))
    monkeypatch.setattr(cls, hook, original)
    if after_interrupt is not None:
        after_interrupt()
    return run(config, str(workdir))
