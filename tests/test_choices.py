"""The training-choice study: planning, bad input before anything trains, a tiny study end to end
(cell counts, a rerun trains nothing, Table 13 recomputed from results.csv) and the reuse of a
benchmark's run directories."""

from __future__ import annotations

import os

import ml_collections
import numpy as np
import pytest

from nhfair_jax.errors import UserError
from nhfair_jax.study.choices import plan, run_study
from nhfair_jax.study.choices_report import std_table
from tests.helpers import REPO, run_cli

TINY = {"train": {"epochs": 2, "patience": 2, "progress": False, "batch_size": 64,
                  "eval_batch_size": 64},
        "model": {"cnn_widths": (8, 16)}, "data": {"image_size": 16}}


def study_config(choices=None, seeds=(0, 1), methods=(), config="configs/digitsb.py",
                 **extra):
    c = ml_collections.ConfigDict()
    c.base_workdir = ""
    c.datasets = ml_collections.ConfigDict(
        {"digitsb": {"config": os.path.join(REPO, config), "overrides": {}}})
    c.overrides = ml_collections.ConfigDict(TINY)
    c.base_params = ml_collections.ConfigDict({"optim": {"lr": 2e-3}})
    c.seeds = tuple(seeds)
    c.choices = ml_collections.ConfigDict(choices if choices is not None else {
        "optimizer": {"adam": (2e-3, 5e-3)}, "batch_size": (32, 64)})
    c.methods = tuple(methods)
    c.method_params = ml_collections.ConfigDict()
    c.pretrained_paths = ml_collections.ConfigDict()
    c.report_percent = False
    for key, value in extra.items():
        c[key] = value
    return c


def test_plan_one_choice_at_a_time_and_values_equal_to_the_base_share_its_runs(tmp_path):
    _, cells = plan(study_config({"optimizer": {"adam": (2e-3, 5e-3), "sgd": (0.1,)},
                                  "batch_size": (32, 64), "weight_decay": {"none": (),
                                                                           "l1": (1e-4,)}},
                                 methods=("gapreg",)), str(tmp_path))
    by = {(c["choice"], c["value"]): c for c in cells}
    assert sorted(by) == sorted([("base", "base"), ("optimizer", "adam"), ("optimizer", "sgd"),
                                 ("batch_size", "32"), ("batch_size", "64"),
                                 ("weight_decay", "none"), ("weight_decay", "l1"),
                                 ("method_randaug", "base"), ("method_randaug", "+RA")])
    base = by[("base", "base")]["points"][0]
    assert base == {"optim.lr": 2e-3}
    # adam at the base's lr and batch 64 (the config's) are the base configuration itself
    assert by[("optimizer", "adam")]["points"] == [base, {"optim.lr": 5e-3}]
    assert by[("batch_size", "64")]["points"] == [base]
    assert by[("batch_size", "32")]["points"] == [{"optim.lr": 2e-3, "train.batch_size": 32}]
    assert by[("optimizer", "sgd")]["points"] == [{"optim.lr": 0.1, "optim.name": "sgd"}]
    assert by[("weight_decay", "l1")]["points"] == [
        {"optim.lr": 2e-3, "optim.wd_mode": "l1", "optim.weight_decay": 1e-4}]
    ra = by[("method_randaug", "+RA")]
    assert ra["method"] == "gapreg" and ra["points"][0]["train.randaugment"] is True


@pytest.mark.parametrize("choices, config, message", [
    ({"pretrained": (True, False)}, "configs/digitsb.py", "small CNN has no pretrained"),
    ({"depth": ("resnet18", "resnet34")}, "configs/digitsb.py", "whose depth is its widths"),
    ({"depth": ((8, 16), (8, 16, 32))}, "configs/dataset.py:celeba", "is not a depth of resnet18"),
    ({"depth": ("resnet18", "resnet34")}, "configs/dataset.py:celeba",
     "pretrained_paths names no weights for resnet34"),
    ({"pretrained": (True, False)}, "configs/dataset.py:celeba",
     "base=base (digitsb): pretrained weights not found at weights/resnet18.pth"),
    ({"optimizer": {"rmsprop": (1e-3,)}}, "configs/digitsb.py", "unknown optimizer"),
    ({"weight_decay": {"l3": (1e-3,)}}, "configs/digitsb.py", "unknown type 'l3'"),
    ({"optimizer": {"sgd": ()}}, "configs/digitsb.py", "empty grid"),
    ({"dropout": (0.1,)}, "configs/digitsb.py", "unknown choice(s) ['dropout']"),
])
def test_a_choice_the_base_cannot_take_is_one_error_before_anything_trains(
        tmp_path, choices, config, message):
    workdir = str(tmp_path / "w")
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        run_study(study_config(choices, config=config), workdir)
    assert not os.path.exists(os.path.join(workdir, "runs"))


@pytest.mark.parametrize("change, message", [
    ({"methods": ("dfr",)}, "not trained"),
    ({"methods": ("nope",)}, "unknown method 'nope'"),
    ({"seeds": ()}, "seeds is empty"),
    ({"base_workdir": "/nonexistent/bench"}, "is not a benchmark workdir"),
])
def test_bad_study_configs_are_one_clear_error(tmp_path, change, message):
    c = study_config()
    for key, value in change.items():
        c[key] = value
    with pytest.raises(UserError, match=message):
        run_study(c, str(tmp_path / "w"))


@pytest.mark.slow
def test_cli_reports_a_bad_choice_in_one_line(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("import sys\nsys.path.insert(0, %r)\n"
                    "from tests.test_choices import study_config\n"
                    "def get_config():\n    return study_config({'pretrained': (True,)})\n"
                    % REPO)
    proc = run_cli("--config", str(path), "--workdir", str(tmp_path / "w"),
                   module="nhfair_jax.study.choices")
    assert proc.returncode != 0
    lines = [x for x in proc.stderr.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and "small CNN has no pretrained weights" in lines[0], proc.stderr


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    workdir = str(tmp_path_factory.mktemp("choices"))
    return workdir, run_study(study_config(), workdir)


def _result_files(workdir):
    out = {}
    for folder, _, files in os.walk(os.path.join(workdir, "runs")):
        if "result.json" in files:
            out[folder] = os.path.getmtime(os.path.join(folder, "result.json"))
    return out


@pytest.mark.slow
def test_study_end_to_end_cells_runs_and_report(tiny_study):
    import pandas as pd

    workdir, out = tiny_study
    cells = [(c["choice"], c["value"]) for c in out["cells"]]
    assert cells == [("base", "base"), ("optimizer", "adam"), ("batch_size", "32"),
                     ("batch_size", "64")]
    assert all(len(c["runs"]) == 2 for c in out["cells"])
    # base s0/s1, adam lr 5e-3 s0 (+ s1 when DTO picks it), batch 32 s0/s1; batch 64 == base
    adam = out["cells"][1]
    expected = 4 + 1 + (adam["selected"] != out["cells"][0]["selected"])
    assert out["trained"] == expected == len(_result_files(workdir))
    assert out["cells"][3]["runs"][0]["dir"] == out["cells"][0]["runs"][0]["dir"]
    rows = pd.read_csv(os.path.join(workdir, "results.csv"))
    test = rows[(rows.split == "test") & rows.selected]
    assert len(test) == 4 * 2 and set(test.seed) == {0, 1}
    assert len(rows[(rows.split == "test") & ~rows.selected]) == 1  # adam's other grid point
    md = open(os.path.join(workdir, "report.md")).read()
    for heading in ("Optimizer (Table 9)", "Batch size (Table 10)", "Table 13"):
        assert heading in md
    for name in ("optimizer_digitsb.png", "batch_size_digitsb.png", "curves_batch_size.png"):
        assert os.path.exists(os.path.join(workdir, "plots", name))
    assert "<table>" in open(os.path.join(workdir, "report.html")).read()


@pytest.mark.slow
def test_rerun_trains_nothing(tiny_study):
    workdir, first = tiny_study
    before = _result_files(workdir)
    again = run_study(study_config(), workdir, plots=False)
    assert again["trained"] == 0 and _result_files(workdir) == before
    assert [r["dir"] for c in again["cells"] for r in c["runs"]] == \
        [r["dir"] for c in first["cells"] for r in c["runs"]]


@pytest.mark.slow
def test_std_table_recomputed_from_results_csv(tiny_study):
    import pandas as pd

    workdir, out = tiny_study
    rows = pd.read_csv(os.path.join(workdir, "results.csv"))
    test = rows[(rows.split == "test") & rows.selected]
    table = std_table(out, percent=False)
    assert table[0] == ["data set", "choice", "utility", "worst", "gap", "eqodd", "dp"]
    got = {r[1]: [float(v.strip("*")) for v in r[2:]] for r in table[1:]}
    assert set(got) == {"optimizer", "batch_size"}
    for choice, numbers in got.items():
        means = test[test.choice == choice].groupby("value")[
            ["utility", "worst", "gap", "eqodd", "dp"]].mean()
        # population std over the values' means (the paper's Std rows)
        expected = [float(np.sqrt(((means[m] - means[m].mean()) ** 2).mean()))
                    for m in means.columns]
        np.testing.assert_allclose(numbers, expected, atol=6e-4)
    assert got["optimizer"] == [0.0] * 5  # one optimizer: nothing moves


@pytest.mark.slow
def test_a_benchmark_workdir_is_the_base_and_its_runs_are_reused(tmp_path):
    from nhfair_jax.benchmark import run_benchmark
    from tests.bench_helpers import bench_config

    bench = str(tmp_path / "bench")
    run_benchmark(bench_config(datasets=("digitsb",), methods=("erm",), erm_trials=1,
                               seeds=(0, 1)), bench, report=False)
    c = study_config({"randaugment": (False, True)})
    c.base_workdir = bench
    workdir = str(tmp_path / "study")
    out = run_study(c, workdir, plots=False)
    # base == RandAugment off: the benchmark's trial (seed 0) and seed re-run (seed 1)
    assert out["reused"] == 2 and out["trained"] == 2
    base = out["cells"][0]
    assert all(r["dir"].startswith(bench) for r in base["runs"])
    assert [r["dir"] for r in out["cells"][1]["runs"]] == [r["dir"] for r in base["runs"]]
    assert all(r["dir"].startswith(workdir) for r in out["cells"][2]["runs"])


@pytest.mark.parametrize("name", ["choices_digitsb.py", "choices_paper.py:utkface"])
def test_shipped_study_configs_plan_every_cell(name, tmp_path, monkeypatch):
    from nhfair_jax.config import load_config_file

    monkeypatch.chdir(REPO)  # their data-set configs are paths relative to the repository
    _, cells = plan(load_config_file(os.path.join(REPO, "configs", name)), str(tmp_path))
    choices = {c["choice"] for c in cells}
    assert {"base", "optimizer", "batch_size", "weight_decay", "depth", "randaugment",
            "method_randaug"} <= choices
    assert ("pretrained" in choices) == (name != "choices_digitsb.py")


def test_std_table_and_its_reading_on_hand_built_cells():
    from nhfair_jax.study.choices_report import choice_table, knob_summary

    def run(u, g):
        return {"result": {"test": {"utility": u, "worst": u - g, "gap": g, "eqodd": 0.9,
                                    "dp": 0.8}}}

    out = {"cells": [
        {"dataset": "d", "choice": "optimizer", "value": "a", "runs": [run(0.9, 0.1)] * 2},
        {"dataset": "d", "choice": "optimizer", "value": "b", "runs": [run(0.7, 0.3)] * 2},
        {"dataset": "d", "choice": "batch_size", "value": "32", "runs": [run(0.9, 0.1)]},
        {"dataset": "d", "choice": "batch_size", "value": "64", "runs": [run(0.88, 0.1)]}]}
    assert std_table(out, percent=False)[1:] == [
        ["d", "optimizer", "**0.100**", "**0.200**", "**0.100**", "0.000", "0.000"],
        ["", "batch_size", "0.010", "0.010", "0.000", "0.000", "0.000"]]
    assert std_table(out, percent=True)[1][2] == "**10.0**"
    assert knob_summary(out) == "Largest spread: d: optimizer (3 of 5 metrics)."
    rows = choice_table(out, "optimizer", percent=False)
    assert rows[1] == ["d", "a", "**0.900 ± 0.000**", "**0.800 ± 0.000**", "**0.100 ± 0.000**",
                       "0.900 ± 0.000", "0.800 ± 0.000"]
    assert rows[3] == ["", "Std", "0.100", "0.200", "0.100", "0.000", "0.000"]


@pytest.mark.parametrize("sensitive, drawn", [("race,age", True), ("race", False)])
def test_intersectional_figure_only_for_two_sensitive_attributes(tmp_path, sensitive, drawn):
    import json

    from nhfair_jax.study.choices_report import _intersectional

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"data": {"sensitive": sensitive}}))

    def run(u, groups):
        return {"dir": str(run_dir), "group": {"test": np.array(groups)},
                "result": {"test": {"utility": u}, "group_names": ["a0", "a1", "b0", "b1"]}}

    out = {"cells": [
        {"dataset": "utk", "choice": "base", "runs": [run(0.9, [0.9, 0.8, 0.95, 0.7])]},
        {"dataset": "utk", "choice": "batch_size", "runs": [run(0.8, [0.8, 0.8, 0.85, 0.75])]}]}
    figures = _intersectional(out, "utk", str(tmp_path))
    assert bool(figures) == drawn
    if drawn:
        kind, path, caption = figures[0]
        assert kind == "figure" and os.path.isfile(tmp_path / path)
        assert "race,age" in caption and "Figure 12" in caption
