"""Issue 49's rule for the individual-fairness baselines at their defaults on DigitsB (the
configs' small CNN at 32 px, up to 30 epochs): accuracy within 5 points of ERM's, CD and DEO no
worse. Slow: each run trains for minutes."""

from __future__ import annotations

import numpy as np
import pytest

from nhfair_jax.config import load_config_file
from nhfair_jax.dispatch import run


def _digitsb_defaults(workdir, method, seed, **overrides):
    """The test result of `configs/digitsb.py:<method>` at seed `seed` (the small CNN at 32 px,
    up to 30 epochs), with `overrides` of method settings that do not touch training."""
    c = load_config_file(f"configs/digitsb.py:{method}")
    c.train.progress, c.seed = False, seed
    for key, value in overrides.items():
        c.method[key] = value
    return run(c, str(workdir / f"{method}_{seed}"))["test"]


@pytest.fixture(scope="module")
def erm_at_defaults(tmp_path_factory):
    """ERM's test results on DigitsB at seeds 0 and 1, shared by the baselines' default checks."""
    workdir = tmp_path_factory.mktemp("erm_defaults")
    return {seed: _digitsb_defaults(workdir, "erm", seed) for seed in (0, 1)}


def _no_worse_than_erm(name, result_at, erm, seeds=(0, 1)):
    """Issue 49's rule for a baseline at its defaults on DigitsB, at seeds 0 and 1: test
    accuracy within 5 points of ERM's and CD no worse than ERM's at each seed, DEO no worse on
    the mean of the two seeds (DEO on the 179 test images moves with the seed alone: ERM's
    0.099 and 0.042). `result_at(seed)` trains the method's run; the seeds in the order given,
    each checked before the next is trained."""
    results = {}
    for seed in seeds:
        test = results[seed] = result_at(seed)
        assert test["acc"] >= erm[seed]["acc"] - 0.05, (name, seed, test["acc"], erm[seed]["acc"])
        assert test["cd"] <= erm[seed]["cd"], (name, seed, test["cd"], erm[seed]["cd"])
    deo = {k: np.mean([r[s]["deo"] for s in (0, 1)]) for k, r in (("erm", erm),
                                                                    (name, results))}
    assert deo[name] <= deo["erm"], (name, deo)


@pytest.mark.slow
def test_sensei_learns_at_its_defaults_on_digitsb(tmp_path, erm_at_defaults):
    """SenSeI at its defaults within the rule of `_no_worse_than_erm`. We measured accuracy
    0.978 and 0.978 against ERM's 0.955 and 0.966, CD 0.056 and 0.067 against 0.078 and 0.078,
    DEO 0.004 and 0.081 against 0.099 and 0.042 (worse at seed 1, better on the mean). The
    earlier per-pixel ball stayed at validation accuracy 0.73 from the first epoch and
    predicted the group (CD and DEO 1.0)."""
    _no_worse_than_erm("sensei", lambda seed: _digitsb_defaults(tmp_path, "sensei", seed),
                       erm_at_defaults)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "LASSI at its defaults fails issue 49's rule on DigitsB: CD 0.089 against ERM's 0.078 at "
    "seed 1, mean DEO 0.090 against 0.071 (benchmarks/README.md)"))
def test_lassi_learns_at_its_defaults_on_digitsb(tmp_path, erm_at_defaults):
    """LASSI at its defaults (adversarial weight 0.01, 10 flow epochs before the classifier's
    30) within the rule of `_no_worse_than_erm`; its certificate (which changes no
    prediction) with 100 votes instead of 1,000 to save time. Reported as failing: we measured
    accuracy 0.961 and 0.955 (ERM's 0.955 and 0.966), CD 0.067 and 0.089 (0.078 and 0.078),
    DEO 0.099 and 0.081 (0.099 and 0.042). At the reference code's weight 0.05, at seed 0,
    0.927, 0.112 and 0.176: worse on all three. Strict: the test fails when LASSI passes, so
    that the mark is taken off. Seed 1 first: where it fails, one LASSI run (minutes) says so."""
    _no_worse_than_erm("lassi", lambda seed: _digitsb_defaults(tmp_path, "lassi", seed,
                                                               cert_n=100, cert_n0=10),
                       erm_at_defaults, seeds=(1, 0))
