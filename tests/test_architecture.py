"""The shape the package keeps: a method's kind is read only by the registry and the dispatcher,
a method module is named only by its own file and the registry's import list, no compiled-at-
run-time kernels and no JAX internals, and a new method is one module of its own."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re

import pytest

from tests.helpers import REPO, run_cli

PACKAGE = os.path.join(REPO, "nhfair_jax")
KIND_READERS = {"nhfair_jax/methods/registry.py", "nhfair_jax/dispatch.py"}


def _package_files():
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, REPO), open(path).read()


KINDS = {"TRAINED", "POST_FIT", "ZERO_SHOT"}
OLD_FLAGS = {"post_fit", "zeroshot", "needs_teacher", "needs_pairs"}


def kind_reads(text: str) -> list[str]:
    """Where code reads a method's kind: a record's `.kind` (of `spec(...)`, or of a name
    `record` / `spec`), a kind constant anywhere but a `register(..., kind=...)` declaration,
    and the per-class flags the registry replaced (`getattr(cls, "post_fit")`,
    `cls.needs_teacher`, ...)."""
    tree = ast.parse(text)
    declared = {id(kw.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "register" for kw in node.keywords
                if kw.arg == "kind"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "kind":
            owner = node.value
            if (isinstance(owner, ast.Call) and getattr(owner.func, "id", "") == "spec") or (
                    isinstance(owner, ast.Name) and owner.id in ("record", "spec")):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.Name) and node.id in KINDS and id(node) not in declared:
            found.append(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in OLD_FLAGS:
            found.append(ast.unparse(node))
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr"
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in OLD_FLAGS):
            found.append(ast.unparse(node))
    return found


def test_only_the_registry_and_the_dispatcher_read_a_methods_kind():
    """Other modules ask a record what a run needs (`spec(name).needs`, `.trains`)."""
    found = [f"{path}: {read}" for path, text in _package_files() if path not in KIND_READERS
             for read in kind_reads(text)]
    assert not found, "\n".join(sorted(set(found)))


def test_a_method_module_is_named_only_by_itself_and_the_registry():
    from nhfair_jax.methods import registered, spec

    defining = sorted({spec(n).cls.__module__.rsplit(".", 1)[1] for n in registered()})
    assert len(defining) > 20, defining  # found by the package, every one
    found = []
    for path, text in _package_files():
        for module in defining:
            own = path == f"nhfair_jax/methods/{module}.py"
            if own or path == "nhfair_jax/methods/registry.py":
                continue
            if re.search(rf"methods\.{module}\b|from nhfair_jax\.methods import [^\n]*\b{module}\b",
                         text):
                found.append(f"{path} names methods.{module}")
    assert not found, "\n".join(found)


def test_no_run_time_compiled_kernels_and_no_jax_internals():
    for path, text in _package_files():
        assert "jax._src" not in text, path
        assert "onednn" not in text.lower(), path
    for folder, _, files in os.walk(PACKAGE):
        assert not [f for f in files if f.endswith((".cc", ".cpp", ".c", ".cu"))], folder


def test_the_kind_check_sees_a_violation():
    text = ("from nhfair_jax.methods.registry import POST_FIT, ZERO_SHOT, register\n"
            "@register('x', kind=ZERO_SHOT)\n"
            "class X: pass\n"
            "def f(name, cls, dtype):\n"
            "    ok = dtype.kind == 'f'\n"
            "    return spec(name).kind == POST_FIT or getattr(cls, 'zeroshot', False)\n")
    # the declaration and dtype.kind are not reads; the comparison and the getattr are
    assert sorted(kind_reads(text)) == sorted(["POST_FIT", "spec(name).kind",
                                               "getattr(cls, 'zeroshot', False)"])


SMOOTH = '''"""ERM with label smoothing: a method of the user's own, outside the package."""

import jax
import optax

from nhfair_jax.methods import LossOutput, Method, forward, register
from nhfair_jax.methods.space import Uniform


@register("smooth_erm", space={"method.smoothing": Uniform(0.0, 0.3)})
class SmoothERM(Method):
    defaults = {"smoothing": 0.1}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng, hp=None):
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        targets = optax.smooth_labels(
            jax.nn.one_hot(batch["label"], logits.shape[-1]), self.hyper(hp).smoothing)
        loss = optax.softmax_cross_entropy(logits, targets).mean()
        return LossOutput(loss, logits, batch_stats, method_state, {"smoothing_loss": loss})
'''


def _tree_digest() -> str:
    digest = hashlib.sha256()
    for top in ("nhfair_jax", "configs"):
        for folder, dirs, files in sorted(os.walk(os.path.join(REPO, top))):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith(".pyc"):
                    path = os.path.join(folder, name)
                    digest.update(path.encode() + open(path, "rb").read())
    return digest.hexdigest()


@pytest.mark.slow
def test_a_new_method_is_one_module_of_its_own(tmp_path):
    """ERM with label smoothing, written in a temporary module and named by NHFAIR_METHODS, runs
    through `nhfair_jax.run` and through a two-trial benchmark beside ERM; no file of the
    package or its configs changes."""
    (tmp_path / "smooth_erm.py").write_text(SMOOTH)
    env = {"NHFAIR_METHODS": "smooth_erm",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), REPO, os.environ.get("PYTHONPATH", "")])}
    before = _tree_digest()
    proc = run_cli("--config", "configs/digitsb.py:smooth_erm", "--workdir", str(tmp_path / "one"),
                   "--config.train.epochs=1", "--config.method.smoothing=0.2",
                   "--config.model.cnn_widths=(8, 16, 32)", "--config.train.progress=False",
                   env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.load(open(tmp_path / "one" / "result.json"))
    assert result["method"] == "smooth_erm" and result["epochs_run"] == 1
    log = json.loads(open(tmp_path / "one" / "log.jsonl").readline())
    assert "train_smoothing_loss" in log
    bench = tmp_path / "bench.py"
    bench.write_text(
        "import sys\n"
        f"sys.path.insert(0, {REPO!r})\n"
        "from tests.bench_helpers import bench_config\n"
        "def get_config():\n"
        "    return bench_config(datasets=('digitsb',), methods=('erm', 'smooth_erm'),\n"
        "                        trials=2, erm_trials=2, seeds=(0,))\n")
    proc = run_cli("--config", str(bench), "--workdir", str(tmp_path / "bench"),
                   module="nhfair_jax.benchmark", env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    trials = os.listdir(tmp_path / "bench" / "trials" / "digitsb" / "smooth_erm")
    assert len(trials) == 2
    for trial in trials:
        params = json.load(open(tmp_path / "bench" / "trials" / "digitsb" / "smooth_erm" / trial
                                / "params.json"))["params"]
        assert 0.0 <= params["method.smoothing"] <= 0.3 and "optim.lr" in params
    assert "smooth_erm" in open(tmp_path / "bench" / "report.md").read()
    assert _tree_digest() == before


@pytest.mark.slow
def test_an_unimportable_user_method_module_is_a_one_line_error(tmp_path):
    proc = run_cli("--config", "configs/digitsb.py", "--workdir", str(tmp_path / "w"),
                   env={"NHFAIR_METHODS": "no_such_module_here"})
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1].startswith(
        "error: NHFAIR_METHODS names 'no_such_module_here', which cannot be imported")


def test_only_trained_methods_have_a_loss():
    """A post-fit or zero-shot method is not a trained one with a loss that raises: its class
    has no `loss` (nor the trainer's other hooks); every trained method's is its own."""
    from nhfair_jax.methods.base import Method
    from nhfair_jax.methods.registry import POST_FIT, TRAINED, ZERO_SHOT, registered, spec

    kinds = {name: spec(name).kind for name in registered()}
    assert {POST_FIT, TRAINED, ZERO_SHOT} == set(kinds.values())
    for name, kind in kinds.items():
        cls = spec(name).cls
        if kind == TRAINED:
            assert issubclass(cls, Method) and callable(getattr(cls, "loss")), name
        else:
            assert not issubclass(cls, Method), name
            assert not hasattr(cls, "loss") and not hasattr(cls, "init_state"), name


def test_one_module_writes_every_run_s_outcome():
    """result.json is written by training/outcome.py alone (trained, post-fit and zero-shot
    runs all go through it), so its schema cannot drift between kinds."""
    writers = sorted(path for path, text in _package_files()
                     if re.search(r"(?<!outcome)\.write_result\(", text))
    assert writers == ["nhfair_jax/training/outcome.py"], writers


def test_the_outcome_writer_refuses_a_result_without_the_common_keys(tmp_path):
    import numpy as np
    import pytest
    from ml_collections import ConfigDict

    from nhfair_jax.rundir import RunDir
    from nhfair_jax.training import outcome

    class Source:
        num_classes, num_groups = 2, 2
        class_names, group_names = ["a", "b"], ["g", "h"]
        groups = np.array([0, 1, 1])

        def __len__(self):
            return 3

    config = ConfigDict({"method": {"name": "erm"}, "data": {"name": "digitsb"}, "seed": 0})
    (tmp_path / "run").mkdir()
    rundir = RunDir(str(tmp_path / "run"))
    reports = {"val": {"acc": 1.0}, "test": {"acc": 0.5}}
    with pytest.raises(ValueError, match="stopped_early"):
        outcome.write_result(rundir, config, {"train": Source()}, reports, best_epoch=1,
                             epochs_run=1, monitor="val_loss", timings_s={})
    assert not rundir.finished
    result = outcome.write_result(rundir, config, {"train": Source()}, reports, best_epoch=1,
                                  epochs_run=1, stopped_early=False, monitor="val_loss",
                                  timings_s={})
    assert set(outcome.OUTCOME_KEYS) <= set(result) and result["train_group_size"] == [1, 2]
    assert rundir.result() == result


def test_whether_a_method_is_fitted_on_a_base_run_is_asked_of_its_record():
    """`spec(name).fitted_on_base_run`, not `"base_run" in ...needs` spelled out by callers."""
    found = [path for path, text in _package_files() if path not in KIND_READERS
             and re.search(r"""["']base_run["']\s+in\s""", text)]
    assert not found, found
