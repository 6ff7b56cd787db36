"""Issue 49's rule for the individual-fairness baselines at their defaults on DigitsB
(benchmarks/if_defaults.py): accuracy within 5 points of ERM's and CD no worse at each seed, DEO
no worse on the seeds' mean. The rule on hand-built cases, and SenSeI's defaults against the
collapse they once had (slow). The rule on runs (two minutes a SenSeI seed, ten a LASSI one,
over CI's budget) is measured by the script alone: SenSeI holds it at seeds 0-4, LASSI fails
it, benchmarks/README.md."""

from __future__ import annotations

import os
import sys

import pytest

from tests.helpers import REPO

sys.path.insert(0, os.path.join(REPO, "benchmarks"))
import if_defaults  # noqa: E402

ERM = {0: {"acc": 0.90, "cd": 0.10, "deo": 0.10}, 1: {"acc": 0.80, "cd": 0.20, "deo": 0.30}}


def _with(seed, **changes):
    out = {s: dict(r) for s, r in ERM.items()}
    out[seed].update(changes)
    return out


def test_the_rule_on_hand_built_cases():
    assert if_defaults.verdict(ERM, ERM)["holds"]  # equal is no worse
    # accuracy: 5 points below is within, 6 is not
    assert if_defaults.verdict(_with(0, acc=0.85), ERM)["holds"]
    v = if_defaults.verdict(_with(1, acc=0.74), ERM)
    assert v["acc"] == [True, False] and not v["holds"]
    # CD at each seed, however good the other
    v = if_defaults.verdict({0: {**ERM[0], "cd": 0.0}, 1: {**ERM[1], "cd": 0.21}}, ERM)
    assert v["cd"] == [True, False] and not v["holds"]
    # DEO on the mean: worse at one seed and better on the mean holds, worse on the mean fails
    assert if_defaults.verdict(_with(0, deo=0.25), ERM)["holds"] is False
    v = if_defaults.verdict({0: {**ERM[0], "deo": 0.15}, 1: {**ERM[1], "deo": 0.20}}, ERM)
    assert v["deo_mean"] and v["holds"]


def test_a_set_field_reaches_every_runs_config(monkeypatch, tmp_path):
    """--set KEY=VALUE: the value (a Python literal, or a bare word as a string) in the config
    each run trains with, the method's defaults otherwise untouched."""
    import nhfair_jax.dispatch

    seen = {}

    def fake_run(config, workdir):
        seen[os.path.basename(workdir)] = config
        return {"test": {"acc": 1.0, "cd": 0.0, "deo": 0.0}}

    monkeypatch.setattr(nhfair_jax.dispatch, "run", fake_run)
    if_defaults.run_at_defaults(str(tmp_path), "lassi", 3, ("data.options.roles=code",
                                                             "train.epochs=7"))
    c = seen["lassi_3"]
    assert c.data.options.roles == "code" and c.train.epochs == 7 and c.seed == 3
    assert c.method.cert_n == 100 and c.method.adv_weight == 0.01
    with pytest.raises(Exception, match="unknown config key"):
        if_defaults.run_at_defaults(str(tmp_path), "erm", 0, ("train.epoch=7",))


@pytest.mark.slow
@pytest.mark.parametrize("eps", [None, 5.5])
def test_sensei_at_its_defaults_learns_the_label_not_the_group(tmp_path, eps):
    """SenSeI at its defaults, five epochs, seed 0: it learns the digit, not the group. The
    earlier per-pixel ball (an L2 radius of 5.5, `eps=5.5` here, which must fail) stayed at
    validation accuracy 0.73 from the first epoch and predicted the group: test accuracy 0.78 (the
    majority) and CD 1.0 (every edit of A flips the prediction). The bounds sit between that
    and what the defaults learn in five epochs (we measured 0.92 and 0.22). The rule itself
    (accuracy within 5 points of ERM's, CD and DEO no worse, after 30 epochs) takes two
    minutes a seed, so benchmarks/if_defaults.py measures it: SenSeI holds it at all five seeds
    (benchmarks/README.md)."""
    sets = ("train.epochs=5",) if eps is None else (
        "train.epochs=5", f"method.eps={eps}", f"method.step_size={eps / 2}")
    test = if_defaults.run_at_defaults(str(tmp_path), "sensei", 0, sets)
    learns = test["acc"] >= 0.85 and test["cd"] <= 0.5
    assert learns == (eps is None), test
