"""Every config in configs/ loads, names a registered method and a known data set, and the
real-data ones stop with a clear message while their data is absent."""

from __future__ import annotations

import glob
import os

import pytest

from nhfair_jax.data import get_sources, known_datasets
from nhfair_jax.methods import get_method, registered
from tests.helpers import REPO

ALL = sorted(glob.glob(os.path.join(REPO, "configs", "*.py")))
BENCHMARKS = [p for p in ALL if os.path.basename(p).startswith("benchmark_")]
# Configs of other commands (image generation, LVLM evaluation, the training-choice study, the
# overhead benchmark, the counterfactual study) are checked by their own tests.
OTHER_COMMANDS = [p for p in ALL if os.path.basename(p).startswith(
    ("generate", "lvlm", "choices_", "overhead_", "cf_study"))]
REAL = ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "waterbirds",
        "cifar10b")
# run configs: plain files, and the data-set and zero-shot configs with each argument
RUN_CONFIGS = ([os.path.basename(p) for p in ALL
                if p not in BENCHMARKS and p not in OTHER_COMMANDS
                and os.path.basename(p) not in ("dataset.py", "zeroshot.py")]
               + [f"dataset.py:{d}" for d in (*REAL, "csv", "digitsb")]
               + [f"zeroshot.py:{d},{m}" for d in (*REAL, "digitsb") for m in ("clip", "blip2")]
               + [f"zeroshot.py:{d},clip,{v}" for d in ("celeba", "digitsb")
                  for v in ("fairerclip", "sfid")])


def _load(name):
    from nhfair_jax.config import load_config_file

    return load_config_file(os.path.join(REPO, "configs", name))


def test_configs_take_arguments_instead_of_near_copies():
    """A handful of files: the entry points a user types first keep their names, and every
    other run is a config with an argument (data set, method, model, recipe, task)."""
    names = {os.path.basename(p) for p in ALL}
    assert len(names) <= 20, sorted(names)
    assert {"erm_digitsb.py", "fis_celeba.py", "benchmark_digitsb.py", "digitsb.py",
            "dataset.py", "zeroshot.py", "generate.py", "choices_digitsb.py", "choices_paper.py",
            "benchmark_paper.py", "cf_study.py", "overhead_digitsb.py"} <= names
    assert not [n for n in names if n.endswith("_digitsb.py") and n.split("_")[0] in registered()
                and n != "erm_digitsb.py"], "per-method copies are configs/digitsb.py:<method>"


def test_an_unknown_argument_is_an_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown data set 'nope'; known: celeba"):
        _load("dataset.py:nope")
    with pytest.raises(ValueError, match="MODEL must be clip or blip2"):
        _load("zeroshot.py:celeba,siglip")
    with pytest.raises(ValueError, match="unknown recipe 'x'"):
        _load("generate.py:x")


@pytest.mark.parametrize("name", RUN_CONFIGS)
def test_config_loads_and_names_what_exists(name, tmp_path):
    from nhfair_jax.methods import spec

    c = _load(name)
    assert c.method.name in registered() and c.data.name in known_datasets()
    get_method(c.method)  # hyperparameters complete and valid
    trained = spec(c.method.name).trains  # zero-shot configs: their own tests check them
    if c.data.name not in ("digitsb", "csv") and trained:  # CSV: a small-CNN template
        assert c.model.name == "resnet18" and c.data.image_size == 224
        assert c.train.batch_size == 256 and c.train.epochs == 100 and c.train.patience == 10
        missing = str(tmp_path / "absent")
        with pytest.raises(FileNotFoundError, match=f"data not found at {missing}; see "
                                                    "data/README.md"):
            get_sources(c.data.name, missing, **c.data.options)
    if c.data.name == "csv":
        with pytest.raises(FileNotFoundError, match="data not found at"):
            get_sources("csv", str(tmp_path / "absent.csv"), **c.data.options)


@pytest.mark.parametrize("path", BENCHMARKS, ids=os.path.basename)
def test_benchmark_configs_name_registered_methods_and_loadable_data_sets(path, monkeypatch):
    from nhfair_jax.benchmark import validate
    from nhfair_jax.sweep.runner import Sweeper

    monkeypatch.chdir(REPO)  # their ERM configs are paths relative to the repository
    bench = _load(os.path.basename(path))
    validate(bench)  # raises on an unknown method, data set or config file
    sweeper = Sweeper(bench, "/nonexistent", None)
    for dataset in bench.datasets:
        config = sweeper.base_config(dataset)  # every override names an existing key
        assert config.data.name in known_datasets()


@pytest.mark.parametrize("data", (*REAL, "digitsb"))
def test_a_data_set_config_takes_any_trained_method_as_its_argument(data):
    from nhfair_jax.methods import spec

    for name in registered():
        if not spec(name).trains and "base_run" not in spec(name).needs:
            continue  # zero-shot: configs/zeroshot.py
        c = _load(f"dataset.py:{data},{name}")
        assert c.method.name == name and c.data.name == data
        if data == "digitsb":
            assert _load(f"digitsb.py:{name}").to_dict() == c.to_dict()
        get_method(c.method)  # with every default of that method


def test_method_name_override_becomes_the_config_argument_or_fills_defaults():
    from nhfair_jax.cli import with_method_argument
    from nhfair_jax.config import complete_method, load_config_file

    digitsb = os.path.join(REPO, "configs", "digitsb.py")
    argv = ["run", "--config", digitsb, "--config.method.name=mixup", "--config.method.coef=2"]
    assert with_method_argument(argv)[2] == f"{digitsb}:mixup"
    argv = ["run", f"--config={digitsb}", "--config.method.name", "gapreg"]
    assert with_method_argument(argv)[1] == f"--config={digitsb}:gapreg"
    # A config without an argument keeps its path; the run fills the method's defaults.
    erm = os.path.join(REPO, "configs", "erm_digitsb.py")
    argv = ["run", "--config", erm, "--config.method.name=gapreg"]
    assert with_method_argument(argv) == argv
    c = load_config_file(erm)
    c.method.name = "gapreg"
    c.lock()
    complete_method(c)
    assert dict(c.method) == {"name": "gapreg", "objective": "dp", "coef": 1.0}
