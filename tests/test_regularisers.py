"""GapReg and MCDP: their penalties, and their effect on DigitsB against ERM."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.config import digitsb_config
from nhfair_jax.methods.gapreg import probability_gap
from nhfair_jax.methods.mcdp import smoothed_cdf_disparity
from nhfair_jax.dispatch import run

# jitted: one compilation a shape, where op by op each primitive compiles on its own
_cdf = jax.jit(smoothed_cdf_disparity, static_argnums=2,
               static_argnames=("temperature", "num_probes"))


def _probs(p1):
    p1 = jnp.asarray(p1, jnp.float32)
    return jnp.stack([1 - p1, p1], axis=1)


def test_probability_gap_by_hand():
    labels = jnp.array([1, 1, 0, 1, 0, 0])
    groups = jnp.array([0, 0, 0, 1, 1, 2])
    probs = _probs([.9, .7, .2, .6, .1, .4])
    # dp: E[p1|a] = .6, .35, .4 -> gap .25
    assert float(probability_gap(probs, labels, groups, 3, "dp")) == pytest.approx(0.25, abs=1e-6)
    # eop: positives only; group 2 has none and is skipped: E[p1|a,Y=1] = .8, .6 -> .2
    assert float(probability_gap(probs, labels, groups, 3, "eop")) == pytest.approx(0.2, abs=1e-6)
    # eod: class 1 as eop (.2); class 0: E[p0|a,Y=0] = .8, .9, .6 -> .3; summed .5
    assert float(probability_gap(probs, labels, groups, 3, "eod")) == pytest.approx(0.5, abs=1e-6)
    with pytest.raises(ValueError, match="method.objective"):
        probability_gap(probs, labels, groups, 3, "xx")


def test_multiclass_dp_gap_is_the_largest_class_gap():
    probs = jnp.array([[.8, .1, .1], [.2, .2, .6]])
    gap = probability_gap(probs, jnp.array([0, 2]), jnp.array([0, 1]), 2, "dp")
    assert float(gap) == pytest.approx(0.6, abs=1e-6)  # class 0: .6, class 1: .1, class 2: .5


@pytest.mark.slow
def test_cdf_disparity_is_zero_for_identical_groups_and_grows_with_the_shift():
    rng = np.random.default_rng(0)
    base = rng.random(200)
    scores = jnp.asarray(np.concatenate([base, base]), jnp.float32)
    groups = jnp.asarray(np.repeat([0, 1], 200))
    same = _cdf(scores, groups, 2, temperature=20.0)
    assert float(same) == pytest.approx(0.0, abs=1e-6)
    values = []
    for shift in (0.05, 0.15, 0.3):
        shifted = jnp.asarray(np.concatenate([base, np.clip(base + shift, 0, 1)]), jnp.float32)
        values.append(float(_cdf(shifted, groups, 2, temperature=20.0)))
    assert 0 < values[0] < values[1] < values[2]
    # A sharper temperature approaches the hard Kolmogorov-Smirnov distance.
    sharp = float(_cdf(jnp.asarray(np.concatenate([base, np.clip(base + .3, 0, 1)])),
                       groups, 2, temperature=200.0, num_probes=201))
    assert sharp == pytest.approx(0.3, abs=0.05)
    unfair = jnp.asarray(np.concatenate([base, np.clip(base + .3, 0, 1)]), jnp.float32)
    grad = jax.grad(lambda s: _cdf(s, groups, 2, temperature=20.0))(unfair)
    # Differentiable away from parity, pushing the two groups' scores toward each other.
    assert float(grad[:200].sum()) < 0 < float(grad[200:].sum())


def _train(tmp_path, name, seed=0, data=None, **kw):
    cfg = digitsb_config(name, **kw)
    cfg.seed = seed
    cfg.train.epochs = 6
    cfg.train.patience = 7
    cfg.train.progress = False
    for key, value in (data or {}).items():
        cfg.data.options[key] = value
    tag = "_".join(map(str, [*kw.values(), *(data or {}).values()]))
    return run(cfg, str(tmp_path / f"{name}_{seed}_{tag}"))


@pytest.fixture(scope="module")
def erm_dir(tmp_path_factory):
    """One folder for the ERM baselines: a finished run directory is read back, not retrained,
    so the tests pairing with the same seeds and data share them."""
    return tmp_path_factory.mktemp("erm")


def _paired_gain_holds(erm_dir, tmp_path, metric, data=None, seeds=5, **kw):
    """Trains ERM and the method on each seed and asserts the method's gain in test `metric`
    (higher is fairer) beyond the seeds' spread: the one-sided 95% t lower bound of the mean
    paired gain above 0 (the epoch each run keeps is chosen on validation accuracy, so a single
    seed can keep an early, unfair epoch). Returns the paired accuracy differences."""
    from scipy import stats

    gains, accs = [], []
    for seed in range(seeds):
        base = _train(erm_dir, "erm", seed=seed, data=data)
        result = _train(tmp_path, seed=seed, data=data, **kw)
        gains.append(result["test"][metric] - base["test"][metric])
        accs.append(result["test"]["acc"] - base["test"]["acc"])
    lower = np.mean(gains) - stats.t.ppf(0.95, len(gains) - 1) * stats.sem(gains)
    assert lower > 0, gains
    return accs


@pytest.mark.slow
def test_gapreg_dp_with_a_large_coefficient_improves_dp_over_erm(erm_dir, tmp_path):
    """DigitsB as it comes (noise 90% predictive of the label in training): a coefficient of 5
    on the demographic-parity gap trades accuracy for parity, and must raise test dp (1 - the
    gap in positive rates) over ERM's, paired over five seeds."""
    _paired_gain_holds(erm_dir, tmp_path, "dp", name="gapreg", objective="dp", coef=5.0)


@pytest.mark.slow
def test_gapreg_eod_improves_equalized_odds_over_erm(erm_dir, tmp_path):
    """Where the effect is large: training images whose noise predicts the label 95% of the
    time, validation and test balanced (eval_skew 0.5, about 45 test images per group x class
    cell), so ERM's shortcut leaves true-positive and true-negative rates far apart between the
    groups. Paired over five seeds (the epoch each run keeps is chosen on about 180 validation
    images, so single seeds' gains range from under 0.1 to over 0.6 and three are too few),
    GapReg eod's gain in test eqodd must hold beyond the seeds' spread, without a lower mean
    accuracy than ERM's (a constant prediction would be "fair" by learning nothing)."""
    accs = _paired_gain_holds(erm_dir, tmp_path, "eqodd", data={"skew": 0.95, "eval_skew": 0.5},
                              name="gapreg", objective="eod", coef=1.0)
    assert np.mean(accs) >= 0, accs


@pytest.mark.slow
def test_mcdp_improves_dp_over_erm(erm_dir, tmp_path):
    """As GapReg dp: MCDP's smoothed CDF disparity at a coefficient of 5 must raise test dp over
    ERM's, paired over five seeds."""
    _paired_gain_holds(erm_dir, tmp_path, "dp", name="mcdp", coef=5.0)


@pytest.mark.slow
def test_mcdp_probes_are_the_codes_100_over_the_batchs_score_range():
    """The code: probing_points = linspace(min(y_pred), max(y_pred), steps=100) of the batch's
    positive-class scores (.item(): constants), sigmoid(T (t - s)) averaged per group, the max
    over probes of |cdf0 - cdf1|; written out here in numpy for scores away from [0, 1]'s ends."""
    from nhfair_jax.methods.mcdp import MCDP

    assert MCDP.defaults["num_probes"] == 100
    rng = np.random.default_rng(3)
    s = rng.uniform(0.3, 0.6, 64)
    g = rng.integers(0, 2, 64)
    t = np.linspace(s.min(), s.max(), 100)[:, None]
    sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    code = np.abs(sig(20 * (t - s[g == 0])).mean(1) - sig(20 * (t - s[g == 1])).mean(1)).max()
    ours = float(_cdf(jnp.asarray(s, jnp.float32), jnp.asarray(g), 2, temperature=20.0))
    assert ours == pytest.approx(code, rel=1e-5)
    # the probes carry no gradient: only the scores' own term does
    grad = jax.grad(lambda x: _cdf(x, jnp.asarray(g), 2, temperature=20.0))(
        jnp.asarray(s, jnp.float32))
    assert np.isfinite(np.asarray(grad)).all()


def test_mcdp_probe_grid_is_within_0_005_of_the_maximum_over_all_thresholds():
    """100 probes over the batch's range: close to the maximum over 2001 probes at the searched
    temperatures (5-100) on noisy beta-distributed scores of two groups."""
    rng = np.random.default_rng(0)
    for temperature in (5.0, 20.0, 100.0):
        n = 256
        scores = jnp.asarray(np.clip(rng.beta(2, 2, n) + rng.normal(0, 0.1, n) * (np.arange(n) % 2),
                                     0, 1), jnp.float32)
        groups = jnp.asarray(np.arange(n) % 2)
        coarse = float(_cdf(scores, groups, 2, temperature=temperature))
        fine = float(_cdf(scores, groups, 2, temperature=temperature, num_probes=2001))
        assert 0 <= fine - coarse < 0.005
