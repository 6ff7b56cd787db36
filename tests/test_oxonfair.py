"""OxonFair: per-group thresholds fitted on validation; the constraint it enforces holds there,
checked with numpy on the written predictions (not with oxonfair's own metrics)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.dispatch import run
from nhfair_jax.errors import UserError
from nhfair_jax.methods import get_method
from tests.helpers import tiny_config


def _rates(path):
    d = np.load(path)
    pred = d["score"].argmax(1)
    acc = [(pred[d["group"] == a] == d["label"][d["group"] == a]).mean() for a in (0, 1)]
    pos = [pred[d["group"] == a].mean() for a in (0, 1)]
    return {"acc": (pred == d["label"]).mean(), "acc_gap": abs(acc[0] - acc[1]),
            "worst": min(acc), "pos_gap": abs(pos[0] - pos[1])}


@pytest.fixture(scope="module")
def base(tmp_path_factory, tiny_erm):
    """The session's tiny ERM run as the base run (its config.json as the base config)."""
    erm_dir, _ = tiny_erm
    return tmp_path_factory.mktemp("oxon"), os.path.join(erm_dir, "config.json"), erm_dir


def _fit(base, objective, constraint, **kw):
    root, config_file, base_dir = base
    cfg = tiny_config()
    cfg.method = method_config("oxonfair", base_config=config_file, base_workdir=base_dir,
                               objective=objective, constraint=constraint, **kw)
    workdir = root / f"{objective}_{constraint}"
    result = run(cfg, str(workdir))
    return result, _rates(workdir / "predictions_val.npz"), _rates(
        f"{base_dir}/predictions_val.npz")


@pytest.mark.slow
def test_accuracy_under_an_accuracy_gap_bound_meets_the_bound_on_validation(base):
    result, fair, erm = _fit(base, "accuracy", "accuracy.diff", diff_bound=0.02)
    assert erm["acc_gap"] > 0.02  # the constraint has work to do
    assert fair["acc_gap"] <= 0.02 + 1e-9
    assert result["tuned"]["bound"] == 0.02 and result["tuned"]["val_is_fit_data"]
    assert result["method"] == "oxonfair" and result["val"]["acc"] == pytest.approx(fair["acc"])


@pytest.mark.slow
def test_demographic_parity_under_no_harm_keeps_accuracy_and_narrows_the_positive_rate_gap(base):
    result, fair, erm = _fit(base, "demographic_parity", "accuracy")  # default: no harm
    assert result["tuned"]["bound"] == pytest.approx(erm["acc"])
    assert fair["acc"] >= erm["acc"] - 1e-9
    assert fair["pos_gap"] < erm["pos_gap"]


@pytest.mark.slow
def test_worst_group_under_accuracy_tolerance(base):
    result, fair, erm = _fit(base, "accuracy.min", "accuracy", tolerance=0.01)
    assert result["tuned"]["bound"] == pytest.approx(erm["acc"] - 0.01)
    assert fair["acc"] >= erm["acc"] - 0.01 - 1e-9
    assert fair["worst"] >= erm["worst"]


def test_binary_targets_only_and_known_combinations():
    method = get_method(method_config("oxonfair"))
    info = {"num_classes": 3, "num_groups": 2, "dataset": "fairface", "utility": "acc"}
    with pytest.raises(UserError, match="binary target; fairface has 3 classes"):
        method.fit({}, {}, 0, info)
    with pytest.raises(ValueError, match="not one of the combinations"):
        get_method(method_config("oxonfair", objective="accuracy", constraint="dp"))
