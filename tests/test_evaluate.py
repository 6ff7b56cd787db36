"""python -m nhfair_jax.evaluate: CSV / Parquet / npz in, report.md / report.json / groups.csv
out; intersectional groups, strings, paired flips, warnings, empty cells and bad input."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pandas as pd
import pytest

from tests.helpers import run_cli
from nhfair_jax import evaluate, metrics


def _frame(n=400, seed=0):
    rng = np.random.default_rng(seed)
    sex = rng.choice(["F", "M"], n)
    race = rng.choice(["A", "B", "C"], n, p=[0.6, 0.3, 0.1])
    y = rng.choice(["no", "yes"], n)
    flip = {"no": "yes", "yes": "no"}
    pred = np.where(rng.random(n) < 0.8, y, [flip[v] for v in y])
    score = np.clip((y == "yes") * 0.4 + rng.random(n) * 0.6, 0, 1)
    return pd.DataFrame({"label": y, "prediction": pred, "sex": sex, "race": race,
                         "score": score})


def _run(tmp_path, frame, *flags, name="preds.csv", capsys=None):
    path = tmp_path / name
    if name.endswith(".parquet"):
        frame.to_parquet(path)
    else:
        frame.to_csv(path, index=False)
    out = tmp_path / (name + "_out")
    rc = evaluate.main(["--predictions", str(path), "--out", str(out), "--bootstrap", "200",
                        *flags])
    assert rc == 0
    return json.loads((out / "report.json").read_text()), out


def test_csv_report_matches_metrics_and_has_intervals(tmp_path):
    frame = _frame()
    report, out = _run(tmp_path, frame, "--group", "sex")
    y = (frame.label == "yes").to_numpy().astype(int)
    p = (frame.prediction == "yes").to_numpy().astype(int)
    g = (frame.sex == "M").to_numpy().astype(int)
    want = metrics.fairness_report(y, p, g, y_score=frame.score.to_numpy())
    for k in ("acc", "worst_acc", "gap_acc", "dp", "eqodd", "eqopp", "deo", "auc", "worst_auc"):
        assert report[k]["value"] == pytest.approx(want[k]), k
        assert report[k]["lo"] <= report[k]["value"] <= report[k]["hi"], k
        assert report[k]["hi"] - report[k]["lo"] > 0, k
    assert [r["group"] for r in report["groups"]] == ["F", "M"]
    assert [r["size"] for r in report["groups"]] == want["group_size"]
    table = pd.read_csv(out / "groups.csv")
    assert list(table.columns[:6]) == ["grouping", "group", "size", "acc", "acc_lo", "acc_hi"]
    assert table.acc.tolist() == pytest.approx(want["group_acc"])
    assert table.auc.tolist() == pytest.approx(want["group_auc"])
    md = (out / "report.md").read_text()
    assert f"| acc ↑ | {want['acc']:.4f} [" in md and "| F | " in md
    assert "| gap_acc ↓ |" in md and "| dp ↑ |" in md and "positive class" in md
    # per group: what explains dp and eqodd, against Fairlearn's own rates
    from fairlearn.metrics import (MetricFrame, demographic_parity_ratio, false_positive_rate,
                                   selection_rate, true_positive_rate)

    frame_fl = MetricFrame(metrics={"selection_rate": selection_rate, "tpr": true_positive_rate,
                                    "fpr": false_positive_rate},
                           y_true=y, y_pred=p, sensitive_features=frame.sex.to_numpy())
    for key in ("selection_rate", "tpr", "fpr"):
        assert table[key].tolist() == pytest.approx(frame_fl.by_group[key].tolist()), key
        assert (table[f"{key}_lo"] <= table[key]).all() and (table[key] <= table[f"{key}_hi"]).all()
    assert report["dp_ratio"]["value"] == pytest.approx(
        demographic_parity_ratio(y, p, sensitive_features=frame.sex.to_numpy()))


def test_intersectional_groups_equal_a_manual_concatenation(tmp_path):
    frame = _frame()
    report, _ = _run(tmp_path, frame, "--group", "sex,race")
    manual = frame.assign(both=frame.sex + " & " + frame.race)
    alone, _ = _run(tmp_path, manual, "--group", "both", name="manual.csv")
    keys = [k for k in alone if isinstance(alone[k], dict) and "value" in alone[k]]
    assert keys and {k: report[k] for k in keys} == {k: alone[k] for k in keys}
    assert report["groups"] == alone["groups"]
    assert [r["group"] for r in report["groups"]][:2] == ["F & A", "F & B"]
    # Each attribute alone is listed too, and equals a run on that column only.
    assert list(report["groupings"]) == ["sex", "race"]
    race, _ = _run(tmp_path, frame, "--group", "race", name="race.csv")
    assert report["groupings"]["race"]["groups"] == race["groups"]
    assert report["groupings"]["race"]["figures"]["dp"] == race["dp"]


def test_string_labels_equal_integer_labels_and_parquet(tmp_path):
    frame = _frame(seed=1)
    strings, _ = _run(tmp_path, frame, "--group", "race")
    coded = frame.assign(label=(frame.label == "yes").astype(int),
                         prediction=(frame.prediction == "yes").astype(int))
    ints, _ = _run(tmp_path, coded, "--group", "race", name="ints.parquet")
    for k in ("acc", "dp", "eqodd", "auc", "groups"):
        assert strings[k] == ints[k], k
    assert strings["input"]["classes"] == ["no", "yes"] and ints["input"]["classes"] == ["0", "1"]


def test_float_labels_equal_integer_labels(tmp_path):
    """A CSV whose label column was written from floats (1.0 / 0.0, as pandas writes a column
    that once held a NaN) and whose predictions are integers (1 / 0) is the same report as
    integers in both columns, with the classes named "0" and "1"."""
    frame = _frame(seed=3)
    coded = frame.assign(label=(frame.label == "yes").astype(int),
                         prediction=(frame.prediction == "yes").astype(int))
    ints, _ = _run(tmp_path, coded, "--group", "race", name="ints.csv")
    floats = coded.assign(label=coded.label.astype(float))
    path = tmp_path / "floats.csv"
    floats.to_csv(path, index=False)
    assert "1.0," in path.read_text() or "0.0," in path.read_text()  # really written as floats
    got, _ = _run(tmp_path, floats, "--group", "race", name="floats.csv")
    for k in ("acc", "dp", "eqodd", "auc", "groups"):
        assert got[k] == ints[k], k
    assert got["input"]["classes"] == ["0", "1"]
    mixed = coded.assign(label=coded.label.map({0: "0.0", 1: "1"}).astype(object))
    got, _ = _run(tmp_path, mixed, "--group", "race", name="mixed.csv")  # "1" and "0.0" in one
    assert got["acc"] == ints["acc"] and got["input"]["classes"] == ["0", "1"]


def test_paired_flips_small_group_warning_and_empty_cell(tmp_path, capsys):
    frame = _frame(n=300, seed=2)
    # Group C: 12 rows, all of class "no" (its "yes" cell is empty).
    frame.loc[frame.race == "C", "race"] = "B"
    frame.loc[:11, "race"] = "C"
    frame.loc[:11, "label"] = "no"
    cf = frame.prediction.where(np.arange(len(frame)) % 5 != 0,
                                frame.prediction.map({"no": "yes", "yes": "no"})).astype(object)
    cf[len(frame) - 20:] = None  # rows without a pair
    frame["pred_cf"] = cf
    report, out = _run(tmp_path, frame, "--group", "race", "--paired", "cd=pred_cf")
    paired = frame.iloc[:len(frame) - 20]
    assert report["cd"]["value"] == pytest.approx(
        metrics.counterfactual_disparity(paired.prediction, paired.pred_cf))
    assert report["cd"]["lo"] < report["cd"]["value"] < report["cd"]["hi"]
    c_row = next(r for r in report["groups"] if r["group"] == "C")
    assert c_row["size"] == 12 and c_row["auc"]["value"] is None and c_row["auc"]["lo"] is None
    assert any("'C' has 12 examples (under 30)" in w for w in report["warnings"])
    assert "warning: race: group 'C' has 12 examples" in capsys.readouterr().err
    assert report["left_out"] == ["race: group 'C' has no example of class 'yes': that cell is "
                                  "left out of eqodd, deo, eqodd_ovr, eqopp, the group's AUC"]
    assert "## Empty cells left out" in (out / "report.md").read_text()


def test_predictions_npz_of_a_run_directory(tmp_path):
    rng = np.random.default_rng(3)
    n = 240
    label, group = rng.integers(0, 2, n), rng.integers(0, 3, n)
    logits = rng.normal(size=(n, 2)) + 1.5 * np.eye(2)[label]
    score = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    run = tmp_path / "run"
    run.mkdir()
    np.savez(run / "predictions_test.npz", index=np.arange(n), label=label, group=group,
             logits=logits, score=score)
    (run / "result.json").write_text(json.dumps({"class_names": ["even", "odd"],
                                                 "group_names": ["red", "green", "blue"]}))
    out = tmp_path / "rep"
    assert evaluate.main(["--predictions", str(run / "predictions_test.npz"), "--out", str(out),
                          "--bootstrap", "100"]) == 0
    report = json.loads((out / "report.json").read_text())
    want = metrics.fairness_report(label, logits.argmax(1), group, y_score=score[:, 1])
    for k in ("acc", "dp", "eqodd", "auc", "gap_auc"):
        assert report[k]["value"] == pytest.approx(want[k]), k
    assert [r["group"] for r in report["groups"]] == ["red", "green", "blue"]
    assert report["input"]["classes"] == ["even", "odd"]


def test_cli_end_to_end_no_bootstrap_and_bad_input_exit_1(tmp_path, monkeypatch):
    frame = _frame(n=100)
    frame.to_csv(tmp_path / "preds.csv", index=False)
    monkeypatch.chdir(tmp_path)
    assert evaluate.main(["--predictions", "preds.csv", "--group", "sex", "--bootstrap", "0"]) == 0
    report = json.loads((tmp_path / "preds_report" / "report.json").read_text())
    assert report["acc"]["lo"] is None and report["acc"]["value"] > 0.5
    # As a user runs it: one line on stderr, exit status 1, no traceback.
    bad = run_cli("--predictions", "preds.csv", "--group", "gender",
                  module="nhfair_jax.evaluate", cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines() == [
        "error: preds.csv has no column 'gender' (columns: label, prediction, sex, race, score); "
        "name it with --group"]


def _error(tmp_path, capsys, content: str | pd.DataFrame, *flags, name="bad.csv"):
    path = tmp_path / name
    if isinstance(content, pd.DataFrame):
        content.to_csv(path, index=False)
    else:
        path.write_text(content)
    rc = evaluate.main(["--predictions", str(path), "--out", str(tmp_path / "o"), *flags])
    err = capsys.readouterr().err.strip()
    assert rc == 1 and "\n" not in err and err.startswith("error: "), err
    assert not (tmp_path / "o" / "report.json").exists()
    return err


def test_bad_input_is_one_line_naming_the_column_or_row(tmp_path, capsys):
    frame = _frame(n=40)
    assert "no column 'label'" in _error(tmp_path, capsys, frame.drop(columns="label"),
                                         "--group", "sex")
    assert "no column 'p1'" in _error(tmp_path, capsys, frame, "--group", "sex", "--score", "p1")
    nan = frame.copy()
    nan.loc[6, "label"] = None
    err = _error(tmp_path, capsys, nan, "--group", "sex")
    assert "column 'label' is empty or NaN at row 7" in err
    unseen = frame.copy()
    unseen.loc[9, "prediction"] = "maybe"
    err = _error(tmp_path, capsys, unseen, "--group", "sex")
    assert "column 'prediction' holds class 'maybe' at row 10, never seen in column 'label'" in err
    assert "is empty" in _error(tmp_path, capsys, "", "--group", "sex")
    assert "header but no rows" in _error(tmp_path, capsys, "label,prediction,group\n")
    text = frame.assign(score=frame.score.astype(object))
    text.loc[3, "score"] = "high"
    assert "column 'score' holds 'high' at row 4" in _error(tmp_path, capsys, text, "--group",
                                                            "sex")
    assert "unknown file type '.xlsx'" in _error(tmp_path, capsys, "x", name="p.xlsx")
    assert "--paired 'xx=pred'" in _error(tmp_path, capsys, frame, "--group", "sex",
                                          "--paired", "xx=pred")
    three = frame.assign(label=np.resize(["a", "b", "c"], len(frame)),
                         prediction=np.resize(["a", "b", "c"], len(frame)))
    assert "AUC for binary targets" in _error(tmp_path, capsys, three, "--group", "sex")


def test_classes_and_positive_flags(tmp_path):
    frame = _frame(n=200, seed=4)
    frame["prediction"] = frame.prediction.where(np.arange(200) != 0, "maybe")
    report, _ = _run(tmp_path, frame.drop(columns="score"), "--group", "sex", "--classes",
                     "no,yes,maybe")
    assert report["input"]["classes"] == ["no", "yes", "maybe"] and "eqopp" not in report
    flipped, _ = _run(tmp_path, _frame(n=200, seed=4), "--group", "sex", "--positive", "no",
                      name="pos.csv")
    base, _ = _run(tmp_path, _frame(n=200, seed=4), "--group", "sex", name="base.csv")
    assert flipped["input"]["classes"] == ["yes", "no"]
    # The score column is P(yes): with "no" as the positive class the AUC turns around.
    assert flipped["auc"]["value"] == pytest.approx(1 - base["auc"]["value"])
    assert not math.isclose(flipped["eqopp"]["value"], base["eqopp"]["value"])
    assert flipped["acc"]["value"] == base["acc"]["value"]


def test_file_not_found_and_out_folder_default(tmp_path, capsys):
    rc = evaluate.main(["--predictions", str(tmp_path / "nope.csv")])
    assert rc == 1 and "no such file" in capsys.readouterr().err
    assert not os.path.exists("nope_report")
