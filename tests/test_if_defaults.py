"""Issue 49's rule for the individual-fairness baselines at their defaults on DigitsB
(benchmarks/if_defaults.py): accuracy within 5 points of ERM's and CD no worse at each seed, DEO
no worse on the seeds' mean. The rule on hand-built cases; SenSeI's runs (slow). LASSI's half
(about ten minutes a run, over CI's budget) is measured by the script alone: it fails the rule,
benchmarks/README.md."""

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
def test_sensei_learns_at_its_defaults_on_digitsb(tmp_path):
    """SenSeI at its defaults within the rule, at seeds 0 and 1. We measured accuracy 0.978 and
    0.978 against ERM's 0.955 and 0.966, CD 0.056 and 0.067 against 0.078 and 0.078, DEO 0.004
    and 0.081 against 0.099 and 0.042 (worse at seed 1, better on the mean). The earlier
    per-pixel ball stayed at validation accuracy 0.73 from the first epoch and predicted the
    group (CD and DEO 1.0)."""
    results = {m: {s: if_defaults.run_at_defaults(str(tmp_path), m, s) for s in (0, 1)}
               for m in ("erm", "sensei")}
    v = if_defaults.verdict(results["sensei"], results["erm"])
    assert v["holds"], (v, results)
