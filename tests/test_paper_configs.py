"""The paper-scale configs (configs/benchmark_paper.py, configs/choices_paper.py): what they
hold, read against the benchmark paper's words (Section 4, Appendix B.4, Tables 2, 7, 9-13 and
22), and one short run of each on miniatures of the seven data sets' official layouts (the real
runs need the data and a GPU)."""

from __future__ import annotations

import os

import pytest

from nhfair_jax.config import load_config_file
from tests import miniatures
from tests.helpers import REPO

SEVEN = ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "waterbirds")
# Table 2's columns, in its order, by our names (BM is bias_mimicking)
TABLE2_METHODS = ("erm", "randaug", "mixup", "resampling", "bias_mimicking", "fis", "decoupled",
                  "laftr", "fscl", "gapreg", "mcdp", "groupdro", "dfr", "oxonfair")

# Table 7, as printed: "Common Hyperparameters" and each method's own rows.
LR = ("log_uniform", 1e-5, 1e-2)
TABLE7 = {
    "mixup": {"method.coef": ("uniform", 0.1, 10)},
    "resampling": {"method.mode": ("choice", "group", "group_x_class")},
    "bias_mimicking": {"method.mode": ("choice", "none", "us", "uw", "os")},
    "fis": {"method.label_ratio": ("choice", 0.1, 0.3, 0.5),
            "method.constraint": ("choice", "dp", "eop", "eod")},
    "laftr": {"method.class_coef": ("uniform", 0.1, 1), "method.fair_coef": ("uniform", 0.1, 1)},
    "fscl": {"method.group_norm": ("choice", False, True)},
    "gapreg": {"method.objective": ("choice", "dp", "eop", "eod"),
               "method.coef": ("uniform", 0.01, 5)},
    "mcdp": {"method.coef": ("uniform", 0.01, 5),
             "method.temperature": ("choice", 5, 10, 20, 50, 100)},
    "dfr": {"method.tune_class_weights": ("choice", False, True),
            "method.add_train": ("choice", False, True),
            "method.penalty": ("choice", "l1", "l2")},
    "oxonfair": {"method.combination": ("choice", "accuracy/accuracy.diff",
                                        "accuracy.min/accuracy", "accuracy.diff/accuracy.min",
                                        "equalized_odds/accuracy",
                                        "demographic_parity/accuracy")},
}


def _dist(d):
    from nhfair_jax.methods.space import Choice, LogUniform, Uniform

    if isinstance(d, LogUniform):
        return ("log_uniform", d.low, d.high)
    if isinstance(d, Uniform):
        return ("uniform", d.low, d.high)
    assert isinstance(d, Choice)
    return ("choice", *d.options)


def _load(name):
    return load_config_file(os.path.join(REPO, "configs", name))


def test_every_method_searches_table_7():
    """The common rows for every trained method and each method's own rows; LAFTR adds the
    variant its code's sweep searches (Table 7 lists only the two coefficients)."""
    from nhfair_jax.methods import spec

    for method in TABLE2_METHODS:
        space = {k: _dist(v) for k, v in spec(method).search_space.items()}
        if spec(method).trains:
            assert space.pop("optim.lr") == LR
            assert space.pop("optim.weight_decay") == ("choice", 0.0, 1e-5, 1e-4, 1e-3, 1e-2)
            assert space.pop("optim.name") == ("choice", "adam", "sgd")
        if method == "laftr":
            assert space.pop("method.variant") == ("choice", "dp", "eqodd", "eqopp")
        if method == "groupdro":  # Table 7's alpha and gamma belong to the btl variant
            assert set(spec(method).conditional[1]["btl"]) == {"method.alpha", "method.gamma"}
            continue
        assert space == TABLE7.get(method, {}), method


@pytest.mark.parametrize("arg", [*SEVEN, "all"])
def test_benchmark_paper_config_is_the_papers_protocol(arg, monkeypatch):
    from nhfair_jax.benchmark import dataset_methods, validate
    from nhfair_jax.sweep.runner import Sweeper

    monkeypatch.chdir(REPO)
    bench = _load(f"benchmark_paper.py:{arg}")
    validate(bench)
    assert set(bench.datasets) == set(SEVEN if arg == "all" else (arg,))
    assert tuple(bench.methods) == TABLE2_METHODS
    assert tuple(bench.seeds) == (0, 1, 2, 3, 4)  # "averaged over five runs"
    assert bench.objective == "loss"  # the code's sweeps: "Validation loss", minimize
    sweeper = Sweeper(bench, "/nonexistent", None)
    for method in TABLE2_METHODS:  # "a tuning budget of 100-200 searches per pair"
        assert 100 <= sweeper.budget(method) <= 200 or not _searches(method)
    for dataset in bench.datasets:
        c = sweeper.base_config(dataset)
        assert c.data.name == dataset
        assert c.data.root == _load(f"dataset.py:{dataset}").data.root
        assert (c.model.name, c.data.image_size, c.model.pretrained_path) == (
            "resnet18", 224, "weights/resnet18.pth")
        assert (c.train.batch_size, c.train.epochs, c.train.patience) == (256, 100, 10)
        assert c.eval.utility == ("auc" if dataset in ("ham10000", "fitz17k") else "acc")
        # OxonFair has no FairFace row in Table 2 ("–"): skipped there only
        expected = [m for m in TABLE2_METHODS if not (dataset == "fairface" and m == "oxonfair")]
        assert dataset_methods(bench, dataset) == expected


def _searches(method):
    from nhfair_jax.methods import spec

    return bool(spec(method).search_space)


def test_a_skipped_method_must_be_one_of_the_benchmarks(monkeypatch):
    from nhfair_jax.benchmark import validate
    from nhfair_jax.errors import UserError

    monkeypatch.chdir(REPO)
    bench = _load("benchmark_paper.py:fairface")
    with bench.unlocked():
        bench.datasets.fairface.skip_methods = ("erm",)
    with pytest.raises(UserError, match=r"data set 'fairface': skip_methods \['erm'\] must name"):
        validate(bench)
    with pytest.raises(ValueError, match="unknown data set 'cifar10b'; known: celeba"):
        _load("benchmark_paper.py:cifar10b")


@pytest.mark.slow
def test_choices_paper_plans_tables_9_to_13_on_seven_data_sets_and_table_22_on_its_pair(
        tmp_path, monkeypatch):
    from nhfair_jax.study.choices import plan

    monkeypatch.chdir(REPO)
    _, cells = plan(_load("choices_paper.py"), str(tmp_path))  # every run config builds
    assert {c["dataset"] for c in cells} == set(SEVEN)
    for dataset in SEVEN:
        values = {}
        for c in cells:
            if c["dataset"] == dataset:
                values.setdefault(c["choice"], []).append(c["value"])
        assert sorted(values["optimizer"]) == ["adagrad", "adam", "adamw", "sgd"]  # Table 9
        assert sorted(values["batch_size"], key=int) == ["32", "64", "128", "256", "512",
                                                         "1024"]  # Table 10
        assert sorted(values["weight_decay"]) == ["l1", "l2", "none"]  # Table 11
        assert sorted(values["depth"]) == ["resnet101", "resnet18", "resnet34",
                                           "resnet50"]  # Table 12
        assert sorted(values["pretrained"]) == ["no", "yes"]  # Figures 6-7
    table22 = {(c["dataset"], c["method"], c["value"]) for c in cells
               if c["choice"] == "method_randaug"}
    assert table22 == {(d, m, v) for d in ("utkface", "ham10000")
                       for m in ("gapreg", "mcdp", "groupdro") for v in ("base", "+RA")}
    assert _load("choices_paper.py:celeba").methods == ()


MINIATURES = {
    "celeba": lambda r: miniatures.make_celeba(r, n=100),
    "utkface": lambda r: miniatures.make_utkface(r, n=100),
    "fairface": lambda r: miniatures.make_fairface(r, n_train=80, n_val=20),
    "facet": lambda r: miniatures.make_facet(r, n_images=40),
    "ham10000": lambda r: miniatures.make_ham10000(r, n_lesions=50),
    "fitz17k": lambda r: miniatures.make_fitz17k(r, n=100),
    "waterbirds": lambda r: miniatures.make_waterbirds(r, n=100),
}


def _on_miniature(spec, root, dataset):
    """The config's data set, pointed at a miniature, run for one short epoch on the CPU: the
    small CNN at 32 px without ImageNet weights; accuracy as the utility, since a miniature's
    validation split is too small to hold both classes in every group for AUC."""
    spec.overrides = {
        "data": {"root": MINIATURES[dataset](os.path.join(root, dataset)).root,
                 "image_size": 32},
        "model": {"name": "small_cnn", "cnn_widths": (8, 16), "pretrained_path": ""},
        "train": {"batch_size": 8, "epochs": 1, "patience": 1}, "eval": {"utility": "acc"}}


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*files whose names do not parse")
def test_benchmark_paper_runs_a_step_on_miniatures_of_the_seven(tmp_path, monkeypatch):
    """configs/benchmark_paper.py:all, one ERM trial and one seed per data set; the report puts
    the paper's ERM cell beside each data set's."""
    from nhfair_jax.benchmark import run_benchmark

    monkeypatch.chdir(REPO)
    bench = _load("benchmark_paper.py:all")
    with bench.unlocked():
        for dataset, spec in bench.datasets.items():
            _on_miniature(spec, str(tmp_path / "data"), dataset)
            spec.skip_methods = ()
        bench.methods, bench.trials, bench.seeds, bench.progress = ("erm",), 1, (0,), False
        bench.trials_per_method = {"erm": 1}
    out = run_benchmark(bench, str(tmp_path / "bench"))
    assert set(out["info"]["data"]) == set(SEVEN)
    md = out["markdown"]
    for paper_name in ("CelebA", "UTKFace", "FairFace", "Facet", "HAM10000", "Fitz17k",
                       "Waterbirds"):
        assert f"({paper_name}) | utility ↑ | erm | " in md  # the metric with its direction


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*files whose names do not parse")
def test_choices_paper_runs_table_22_on_a_miniature(tmp_path, monkeypatch):
    """configs/choices_paper.py:ham10000 with one knob and one of Table 22's methods."""
    from nhfair_jax.study.choices import run_study

    monkeypatch.chdir(REPO)
    study = _load("choices_paper.py:ham10000")
    with study.unlocked():
        _on_miniature(study.datasets.ham10000, str(tmp_path / "data"), "ham10000")
        study.choices = {"randaugment": (False, True)}
        study.methods, study.seeds = ("gapreg",), (0,)
    out = run_study(study, str(tmp_path / "study"), plots=False)
    assert out["trained"] == 4  # base (= RandAugment off), RandAugment on, GapReg without / with
    md = out["markdown"]
    assert "## Methods with and without RandAugment (Table 22)" in md
    assert "| data set | metric | ERM | gapreg base | gapreg +RA |" in md


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*files whose names do not parse")
def test_choices_paper_runs_tables_9_to_11_on_a_miniature(tmp_path, monkeypatch):
    """configs/choices_paper.py:utkface with one value of each of Tables 9-11's knobs (an
    optimizer with one of its learning rates, a batch size, a weight decay with one strength),
    each a short run of its own on a miniature; the report has the three tables."""
    from nhfair_jax.study.choices import run_study

    monkeypatch.chdir(REPO)
    study = _load("choices_paper.py:utkface")
    with study.unlocked():
        _on_miniature(study.datasets.utkface, str(tmp_path / "data"), "utkface")
        study.choices = {"optimizer": {"adagrad": (1e-3,)}, "batch_size": (16,),
                         "weight_decay": {"l1": (1e-4,)}}
        study.methods, study.seeds = (), (0,)
    out = run_study(study, str(tmp_path / "study"), plots=False)
    assert out["trained"] == 4  # the base, and one run per knob's value
    md = out["markdown"]
    for title in ("## Optimizer (Table 9)", "## Batch size (Table 10)",
                  "## Weight decay (Table 11)"):
        assert title in md, title
    assert "| utkface | adagrad |" in md and "| utkface | 16 |" in md and "| utkface | l1 |" in md
