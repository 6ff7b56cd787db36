"""Every config in configs/ loads, names a registered method and a known data set, and the
real-data ones stop with a clear message while their data is absent."""

from __future__ import annotations

import glob
import importlib.util
import os

import pytest

from nhfair_jax.data import get_sources, known_datasets
from nhfair_jax.methods import get_method, method_class, registered
from tests.conftest import REPO

ALL = sorted(glob.glob(os.path.join(REPO, "configs", "*.py")))
BENCHMARKS = [p for p in ALL if os.path.basename(p).startswith("benchmark_")]
# Configs of other commands (image generation, LVLM evaluation, the training-choice study, the
# overhead benchmark) are checked by their own tests.
OTHER_COMMANDS = [p for p in ALL if os.path.basename(p).startswith(
    ("generate_", "lvlm", "choices_", "overhead_", "cf_study_"))]
CONFIGS = [p for p in ALL if p not in BENCHMARKS and p not in OTHER_COMMANDS]


def _load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_config()


def test_there_is_a_config_per_real_data_set():
    names = {os.path.basename(p) for p in ALL}
    for data in ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "waterbirds",
                 "cifar10b", "digitsb"):
        assert f"{data}.py" in names
    assert "erm_digitsb.py" in names  # the README's one-run command
    assert "fis_celeba.py" in names
    assert "benchmark_digitsb.py" in names  # the README's main job


@pytest.mark.parametrize("path", CONFIGS, ids=os.path.basename)
def test_config_loads_and_names_what_exists(path, tmp_path):
    c = _load(path)
    assert c.method.name in registered() and c.data.name in known_datasets()
    get_method(c.method)  # hyperparameters complete and valid
    zeroshot = getattr(method_class(c.method.name), "zeroshot", False)  # own test checks them
    if c.data.name not in ("digitsb", "csv") and not zeroshot:  # CSV: a small-CNN template
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
    bench = _load(path)
    validate(bench)  # raises on an unknown method, data set or config file
    sweeper = Sweeper(bench, "/nonexistent", None)
    for dataset in bench.datasets:
        config = sweeper.base_config(dataset)  # every override names an existing key
        assert config.data.name in known_datasets()


DATASET_CONFIGS = ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "waterbirds",
                   "cifar10b", "digitsb")


@pytest.mark.parametrize("data", DATASET_CONFIGS)
def test_a_data_set_config_takes_any_trained_method_as_its_argument(data):
    from nhfair_jax.config import load_config_file

    for name in registered():
        cls = method_class(name)
        if getattr(cls, "zeroshot", False):
            continue
        c = load_config_file(os.path.join(REPO, "configs", f"{data}.py:{name}"))
        assert c.method.name == name and c.data.name == data
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
