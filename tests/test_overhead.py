"""benchmarks/overhead.py: which methods it times or skips (and why), the interleaved order, best
of N with compilation taken out, the parameter count, bad configs, and a real 1-epoch run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from nhfair_jax.errors import UserError
from tests.helpers import REPO

sys.path.insert(0, os.path.join(REPO, "benchmarks"))
import overhead  # noqa: E402

TINY = {"train": {"epochs": 1, "patience": 1, "progress": False},
        "model": {"cnn_widths": (8, 16)}, "data": {"image_size": 16}}


def write_config(tmp_path, methods=(), method_overrides=None, repeats=1, erm_every=2,
                 drop=()):
    body = {"config": os.path.join(REPO, "configs/digitsb.py"), "overrides": TINY,
            "methods": list(methods), "method_overrides": method_overrides or {},
            "repeats": repeats, "erm_every": erm_every, "seed": 0}
    for key in drop:
        body.pop(key)
    path = tmp_path / f"overhead_{len(os.listdir(tmp_path))}.py"
    path.write_text("import json\nimport ml_collections\n\ndef get_config():\n"
                    f"    return ml_collections.ConfigDict(json.loads({json.dumps(body)!r}))\n")
    return str(path)


def test_every_registered_method_is_timed_or_skipped_with_a_reason(tmp_path):
    from nhfair_jax.methods import registered, spec
    from nhfair_jax.methods.registry import POST_FIT, ZERO_SHOT

    c = overhead.load_overhead_config(write_config(tmp_path))
    timed, skipped = overhead.plan_methods(c)
    assert sorted(timed + list(skipped)) == sorted(m for m in registered() if m != "erm")
    assert not set(timed) & set(skipped)
    for m in registered():
        if spec(m).kind == ZERO_SHOT:
            assert skipped[m].startswith("zero-shot")
        elif spec(m).kind == POST_FIT:
            assert skipped[m].startswith("post-fit")
        elif "teacher" in spec(m).needs:
            assert skipped[m].startswith("needs a teacher run")
        elif m != "erm":
            assert m in timed
    assert {"gapreg", "laftr", "fis", "groupdro"} <= set(timed)


def test_a_teacher_supplied_in_the_config_is_timed(tmp_path):
    from nhfair_jax.methods import registered, spec

    teachers = [m for m in registered() if "teacher" in spec(m).needs]
    assert teachers  # CKD, HKD+CP, MFD
    m = teachers[0]
    c = overhead.load_overhead_config(write_config(
        tmp_path, methods=("erm", m),
        method_overrides={m: {"method": {"teacher_workdir": str(tmp_path / "t")}}}))
    assert overhead.plan_methods(c) == ([m], {})
    assert overhead.run_config(c, m).method.teacher_workdir == str(tmp_path / "t")


def test_erm_is_interleaved_in_every_round():
    order = overhead.schedule(["a", "b", "c", "d", "e"], repeats=2, erm_every=2)
    assert order == ["erm", "a", "b", "erm", "c", "d", "erm", "e"] * 2 + ["erm"]
    assert overhead.schedule([], repeats=3, erm_every=1) == ["erm"] * 3


def _fake(wall, train, compile_train, epochs=2, params=100):
    return {"wall_s": wall, "epochs": epochs, "params": params, "state": 0,
            "seconds": {"data": 1.0, "train": train, "val": 0.5, "test": 0.4},
            "compile_s": {"data": 0.3, "train": compile_train, "val": 0.1, "test": 0.0},
            "peak_rss_bytes": 2**20 * 300, "peak_device_bytes": None, "device": "cpu"}


def test_best_of_n_takes_each_figure_s_minimum_with_compilation_taken_out():
    f = overhead.best([_fake(10.0, 6.0, 2.0), _fake(9.0, 7.0, 4.0), {"error": "x"}])
    assert f["runs"] == 2 and f["run_s"] == 9.0
    assert f["train_s"] == pytest.approx(3.0)  # 7 - 4 beats 6 - 2
    assert f["val_s"] == pytest.approx(0.4) and f["data_s"] == 1.0  # setup compile: no phase
    assert f["per_epoch_s"] == pytest.approx((3.0 + 0.4) / 2)
    assert f["compile_s"] == pytest.approx(2.4)
    assert f["peak_rss_mb"] == pytest.approx(300)
    assert overhead.best([{"error": "boom"}]) == {"error": "boom"}


def test_parameters_count_method_state_but_not_its_optimizer_moments():
    import jax.numpy as jnp
    import optax

    params = {"w": jnp.ones((3, 4)), "b": jnp.ones(4)}
    adversary = {"w": jnp.ones((4, 2))}
    state = {"adv": adversary, "adv_opt": optax.adam(1e-3).init(adversary)}
    assert overhead.count_elements(params) == 16
    assert overhead.count_elements(state, skip_optimizer_states=True) == 8
    assert overhead.count_elements(state) > 8 * 3  # Adam's two moments and its step count


@pytest.mark.parametrize("kw, message", [
    ({"methods": ("nope",)}, "unknown method"),
    ({"repeats": 0}, "must be >= 1"),
    ({"drop": ("repeats",)}, "lacks 'repeats'"),
])
def test_bad_configs_are_one_clear_error(tmp_path, kw, message):
    path = write_config(tmp_path, **kw)
    with pytest.raises(UserError, match=message):
        overhead.plan_methods(overhead.load_overhead_config(path))


@pytest.mark.slow
def test_missing_config_file_is_one_line_on_the_command_line(tmp_path):
    proc = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks/overhead.py"),
                           "--config", str(tmp_path / "none.py")], capture_output=True,
                          text=True, cwd=REPO)
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines()[-1].startswith("error: config file not found")


@pytest.mark.slow
def test_one_epoch_run_gives_a_row_per_method_or_a_skip_reason(tmp_path):
    out = tmp_path / "overhead.json"
    methods = ("erm", "gapreg", "laftr", "dfr", "clip")
    proc = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks/overhead.py"),
                           "--config", write_config(tmp_path, methods=methods),
                           "--json", str(out)], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(out.read_text())
    assert set(result["methods"]) == {"erm", "gapreg", "laftr"}
    assert set(result["skipped"]) == {"dfr", "clip"}
    erm, laftr = result["methods"]["erm"], result["methods"]["laftr"]
    assert erm["runs"] == 2 and result["order"] == ["erm", "gapreg", "laftr", "erm"]
    assert len(result["load_average"]) == 2  # the machine's load at the start and at the end
    assert erm["ratio_run"] == 1.0 and erm["extra_params"] == 0
    assert laftr["extra_state"] > 0 and laftr["extra_params"] == 0  # its adversary
    assert result["methods"]["gapreg"]["extra_params"] == 0
    for f in result["methods"].values():
        assert f["compile_s"] > 0 and f["train_s"] > 0 and f["peak_rss_mb"] > 50
        assert f["run_s"] > f["train_s"] + f["val_s"]
    assert laftr["paper_ratio"] == pytest.approx(84.93 / 58.34)
    table = proc.stdout
    for m in ("erm", "gapreg", "laftr", "dfr", "clip"):
        assert any(line.startswith(m + " ") for line in table.splitlines()), table
    assert "skipped: post-fit" in table and "skipped: zero-shot" in table


def test_shipped_overhead_config_times_the_trained_methods(monkeypatch):
    monkeypatch.chdir(REPO)
    c = overhead.load_overhead_config(os.path.join(REPO, "configs", "overhead_digitsb.py"))
    timed, skipped = overhead.plan_methods(c)
    assert "gapreg" in timed and "dfr" in skipped
    assert overhead.run_config(c, "gapreg").train.epochs == 2


def test_repeats_from_the_command_line_must_be_positive(tmp_path):
    with pytest.raises(UserError, match="--repeats must be >= 1"):
        overhead.measure(write_config(tmp_path), repeats=0)


def test_table15_layout_puts_methods_in_columns_with_the_paper_ratio():
    result = {"methods": {
        "erm": {**overhead.best([_fake(10.0, 6.0, 2.0)]), "extra_params": 0, "ratio_run": 1.0,
                "ratio_epoch": 1.0, "paper_ratio": 1.0},
        "laftr": {**overhead.best([_fake(15.0, 9.0, 2.0)]), "extra_params": 65921,
                  "ratio_run": 1.5, "ratio_epoch": 1.4, "paper_ratio": 84.93 / 58.34},
        "rw": {**overhead.best([_fake(10.0, 6.0, 2.0)]), "extra_params": 0, "ratio_run": 1.0,
               "ratio_epoch": 1.0},
        "bad": {"error": "boom"}}}
    lines = overhead.table15(result, per_block=2).splitlines()
    assert lines[0] == "| | erm | laftr |"
    assert "| Extra parameters (optimizer-trained) | – | 65,921 |" in lines
    assert "| Run / ERM (paper, PyTorch) | 1.00x | 1.46x |" in lines
    assert "| | rw |" in lines and "| Run / ERM (paper, PyTorch) | n/a |" in lines
    assert not any("bad" in x for x in lines)


def test_ratios_use_the_erm_runs_beside_each_method(tmp_path, monkeypatch):
    walls = iter([30.0, 12.0, 10.0, 14.0, 20.0, 40.0])  # in the order below
    order = []

    def fake_run_one(config_path, method):
        order.append(method)
        return {**_fake(next(walls), 6.0, 2.0), "method": method}

    monkeypatch.setattr(overhead, "run_one", fake_run_one)
    path = write_config(tmp_path, methods=("erm", "gapreg", "mcdp", "mixup"), erm_every=2)
    result = overhead.measure(path, log=lambda s: None)
    assert order == ["erm", "gapreg", "mcdp", "erm", "mixup", "erm"]
    f = result["methods"]
    assert f["erm"]["run_s"] == 14.0 and f["erm"]["runs"] == 3  # the best of all ERM runs
    assert f["gapreg"]["erm_beside_run_s"] == 30.0 and f["gapreg"]["ratio_run"] == 12.0 / 30.0
    assert f["mixup"]["erm_beside_run_s"] == 14.0 and f["mixup"]["ratio_run"] == 20.0 / 14.0
    assert result["wall_s"]["erm"] == [30.0, 14.0, 40.0]
