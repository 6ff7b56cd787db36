"""LVLM metrics on hand-made answers: the study's recall and GD recipe, abstentions, rates,
bootstrap intervals, single-choice false-positive rates."""

from __future__ import annotations

import numpy as np
import pytest

from nhfair_jax.lvlm.metrics import bootstrap_recall, evaluate, seed_recipe
from nhfair_jax.lvlm.tasks import get_task

RACES = ("White", "Black", "Asian", "Indian")


def _records(task, truths, preds, statuses=None, groups=None):
    statuses = statuses or ["parsed" if p is not None else "refused" for p in preds]
    out = []
    for i, (t, p, s) in enumerate(zip(truths, preds, statuses)):
        out.append({"id": str(i), "label_index": task.classes.index(t),
                    "parsed_index": None if p is None else task.classes.index(p),
                    "status": s, "group": (groups or truths)[i], "attrs": {task.target: t},
                    "scores": None})
    return out


def test_recall_and_gd_match_the_study_recipe():
    task = get_task("utkface_race")
    rng = np.random.default_rng(3)
    truths = [RACES[i] for i in rng.integers(0, 4, 200)]
    preds = [None if rng.random() < 0.15 else (t if rng.random() < 0.7 else RACES[rng.integers(4)])
             for t in truths]
    out = evaluate(_records(task, truths, preds), task, "direct", recall_attributes=("race",),
                   gd_pairs=[("White", "Black"), ("Asian", "Indian")], n_boot=200)
    recalls, _, gd_wb, gd_ai = seed_recipe(["refused" if p is None else p for p in preds], truths)
    assert out["recall"] == pytest.approx(recalls)
    assert out["gd"]["White-Black"] == pytest.approx(gd_wb)
    assert out["gd"]["Asian-Indian"] == pytest.approx(gd_ai)
    assert out["group_size"] == {r: truths.count(r) for r in RACES}
    # by hand for one group: abstentions are wrong, never dropped
    white = [p == "White" for t, p in zip(truths, preds) if t == "White"]
    assert out["recall"]["White"] == pytest.approx(np.mean(white))


def test_gender_gd_sign_and_missing_pair():
    task = get_task("utkface_gender")
    truths = ["Male"] * 10 + ["Female"] * 10
    preds = ["Male"] * 9 + ["Female"] + ["Female"] * 5 + [None] * 5
    out = evaluate(_records(task, truths, preds), task, "direct", recall_attributes=("gender",),
                   gd_pairs=[("Male", "Female"), ("White", "Black")], n_boot=100)
    assert out["recall"] == {"Male": 0.9, "Female": 0.5}
    assert out["gd"] == {"Male-Female": pytest.approx(0.4)}  # White-Black: no such groups
    assert seed_recipe(["x" if p is None else p for p in preds], truths)[1] == pytest.approx(0.4)


def test_reports_abstentions_wrong_and_answered_only():
    task = get_task("utkface_gender")
    truths = ["Male"] * 4 + ["Female"] * 4
    preds = ["Male", "Male", None, "Female", "Female", "Female", "Female", None]
    statuses = ["parsed", "parsed", "unparseable", "parsed", "parsed", "parsed", "parsed",
                "error"]
    groups = ["White", "Black"] * 4
    out = evaluate(_records(task, truths, preds, statuses, groups), task, "direct",
                   recall_attributes=("gender",), gd_pairs=[], n_boot=50)
    # the error (row 7) is a missing answer, not a wrong one: out of every figure but the
    # status counts (issue 51)
    assert out["report_abstain_wrong"]["acc"] == pytest.approx(5 / 7)
    assert out["report_abstain_wrong"]["count"] == 7
    assert out["report_answered"]["acc"] == pytest.approx(5 / 6)
    assert out["answered_rate"] == pytest.approx(6 / 7)
    assert out["recall"]["Female"] == pytest.approx(3 / 3)  # rows 4, 5, 6; 7 is missing
    assert out["missing"] == {"count": 1, "of": 8, "by_group": {"Black": 1, "Female": 1}}
    assert out["warnings"][0].startswith("INCOMPLETE: 1 of 8 answers are missing")
    assert out["status_counts"] == {"parsed": 6, "refused": 0, "unparseable": 1, "error": 1}
    # per group of the sensitive attribute: Black holds rows 1, 3, 5, 7 (error at 7)
    assert out["error_rate"]["Black"] == pytest.approx(1 / 4)
    assert out["unparseable_rate"]["White"] == pytest.approx(1 / 4)
    assert out["unparseable_rate"]["Male"] == pytest.approx(1 / 4)  # recall groups too
    assert out["unparseable_gap"] == pytest.approx(1 / 4)  # over White and Black
    assert any("Male has 4 examples" in w for w in out["warnings"])


def test_bootstrap_intervals_cover_and_shrink():
    small = {"a": np.r_[np.ones(6), np.zeros(4)], "b": np.r_[np.ones(3), np.zeros(7)]}
    big = {k: np.tile(v, 100) for k, v in small.items()}
    r_small, gd_small = bootstrap_recall(small, [("a", "b")], n_boot=2000, confidence=0.95,
                                         seed=0)
    r_big, gd_big = bootstrap_recall(big, [("a", "b")], n_boot=2000, confidence=0.95, seed=0)
    for r in (r_small, r_big):
        lo, hi = r["a"]["ci"]
        assert lo <= r["a"]["value"] <= hi
    width = lambda ci: ci[1] - ci[0]  # noqa: E731
    assert width(r_big["a"]["ci"]) < width(r_small["a"]["ci"]) / 5
    assert gd_small["a-b"]["value"] == pytest.approx(0.3)
    assert gd_small["a-b"]["ci"][0] < 0.3 < gd_small["a-b"]["ci"][1]
    # the bootstrap of a 0/1 mean spreads as sqrt(p(1-p)/n): a = 0.6 over n = 1000 answers
    # gives a 95% interval of width 2 x 1.96 x sqrt(0.24 / 1000) = 0.061 (within 10%: the
    # interval's ends are quantiles of 2000 resamples)
    assert width(r_big["a"]["ci"]) == pytest.approx(2 * 1.96 * np.sqrt(0.24 / 1000), rel=0.1)


def test_single_choice_recall_and_false_positive_rate():
    task = get_task("utkface_gender")
    records = []
    # 4 males: true-class question answered Yes 3 times; wrong-class question Yes once
    for i, (truth, yes_true, yes_wrong) in enumerate(
            [("Male", 1, 0), ("Male", 1, 1), ("Male", 1, 0), ("Male", 0, 0),
             ("Female", 1, 0), ("Female", None, 0)]):
        for label, answer in ((1, yes_true), (0, yes_wrong)):
            records.append({"id": f"{i}|{label}", "label_index": label,
                            "parsed_index": answer, "status": "parsed" if answer is not None
                            else "refused", "group": truth, "attrs": {"gender": truth},
                            "scores": None})
    out = evaluate(records, task, "single_choice", recall_attributes=("gender",),
                   gd_pairs=[("Male", "Female")], n_boot=50)
    assert out["recall"] == {"Male": 0.75, "Female": 0.5}
    assert out["fpr"] == {"Male": 0.25, "Female": 0.0}
    assert out["gd"]["Male-Female"] == pytest.approx(0.25)
    assert out["report_abstain_wrong"]["count"] == 12
