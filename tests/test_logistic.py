"""The batched logistic regressions DFR's grid is fitted with (nhfair_jax/methods/logistic.py),
against scikit-learn's liblinear: the same objective (intercept as a regularised feature, class
weights on C, one-vs-rest for more classes), so the same heads up to liblinear's tolerance."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from nhfair_jax.methods import logistic
from nhfair_jax.methods.dfr import penalty_arguments


def _problem(seed, n=80, d=6, classes=2):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    y = rng.integers(0, classes, n)
    x[:, 0] += 0.9 * y
    x[:, 1] -= 0.5 * (y == 0)
    return x, y


def _liblinear(x, y, penalty, c, class_weight, sample_weight=None):
    model = LogisticRegression(**penalty_arguments(penalty), C=c, solver="liblinear",
                               class_weight=class_weight, tol=1e-10, max_iter=100_000,
                               random_state=0)
    return model.fit(x, y, sample_weight=sample_weight)


def _objective(coef, intercept, x, y, penalty, c, weight):
    """liblinear's objective, written out: regularised weights and intercept, C x weights on
    the logistic loss of the +1 / -1 labels."""
    w = np.append(coef, intercept)
    s = np.where(y == 1, 1.0, -1.0)
    loss = (c * weight * np.logaddexp(0.0, -s * (x @ coef + intercept))).sum()
    return loss + (np.abs(w).sum() if penalty == "l1" else 0.5 * w @ w)


@pytest.mark.parametrize("penalty", ["l1", "l2"])
def test_binary_heads_are_liblinears_on_their_rows_with_class_weights(penalty):
    """Several problems in one batch, on two row sets, at C values and class weights far
    apart: each head equals liblinear's (run to a tolerance of 1e-10) on that problem's rows,
    and reaches its objective."""
    x, y = _problem(0)
    rng = np.random.default_rng(1)
    rows = np.stack([np.sort(rng.choice(len(x), 50, replace=False)) for _ in range(2)])
    cases = [(0, 1.0, (1.0, 1.0)), (1, 1.0, (1.0, 1.0)), (0, 0.05, (1.0, 1.0)),
             (1, 3.0, (10.0, 1.0)), (0, 0.3, (1.0, 100.0))]
    of, cs, weights = (np.array(v) for v in zip(*cases))
    coef, intercept = logistic.fit_heads(x, y, rows, of, cs, penalty, 2, weights)
    assert coef.shape == (len(cases), 1, x.shape[1]) and intercept.shape == (len(cases), 1)
    for b, (r, c, cw) in enumerate(cases):
        xr, yr = x[rows[r]], y[rows[r]]
        ref = _liblinear(xr, yr, penalty, c, dict(enumerate(cw)))
        np.testing.assert_allclose(coef[b], ref.coef_, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(intercept[b], ref.intercept_, rtol=1e-4, atol=1e-5)
        weight = np.asarray(cw)[yr]
        ours = _objective(coef[b, 0], intercept[b, 0], xr, yr, penalty, c, weight)
        theirs = _objective(ref.coef_[0], ref.intercept_[0], xr, yr, penalty, c, weight)
        assert ours <= theirs * (1 + 1e-9)
    assert (coef[[0, 1], 0] != coef[[1, 0], 0]).any()  # the row sets were each problem's own
    assert np.count_nonzero(coef[2]) < coef.shape[-1] if penalty == "l1" else True


def test_separable_rows_at_a_large_c_reach_at_least_liblinears_objective():
    """Where liblinear stops far from the optimum (separable rows, C x weight 3,000), the
    batched fit's objective is no worse than liblinear's at its default tolerance."""
    x, y = _problem(2, n=30, d=10)
    x[:, 0] += 4 * y  # separable
    rows, of = np.arange(30)[None], np.zeros(2, int)
    for penalty in ("l1", "l2"):
        coef, intercept = logistic.fit_heads(x, y, rows, of, [3.0, 3.0], penalty, 2,
                                             [[1.0, 1.0], [1000.0, 1.0]])
        for b, cw in enumerate(((1.0, 1.0), (1000.0, 1.0))):
            ref = LogisticRegression(**penalty_arguments(penalty), C=3.0, solver="liblinear",
                                     class_weight=dict(enumerate(cw)), random_state=0).fit(x, y)
            weight = np.asarray(cw)[y]
            assert _objective(coef[b, 0], intercept[b, 0], x, y, penalty, 3.0, weight) <= \
                _objective(ref.coef_[0], ref.intercept_[0], x, y, penalty, 3.0, weight) + 1e-6
            np.testing.assert_array_equal((x @ coef[b, 0] + intercept[b, 0]) > 0,
                                          ref.predict(x) == 1)


@pytest.mark.parametrize("penalty", ["l1", "l2"])
def test_more_classes_are_one_vs_rest_with_the_positive_class_weighted(penalty):
    """Three classes: the head of class k is the binary fit of k against the rest, class k's
    rows weighted by its class weight and the rest by 1 (liblinear's one-vs-rest)."""
    x, y = _problem(3, n=90, classes=3)
    cw = np.array([[1.0, 5.0, 1.0]])
    coef, intercept = logistic.fit_heads(x, y, np.arange(90)[None], [0], [0.5], penalty, 3, cw)
    assert coef.shape == (1, 3, x.shape[1])
    for k in range(3):
        positive = (y == k).astype(int)
        ref = _liblinear(x, positive, penalty, 0.5, None,
                         sample_weight=np.where(positive == 1, cw[0, k], 1.0))
        np.testing.assert_allclose(coef[0, k], ref.coef_[0], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(intercept[0, k], ref.intercept_[0], rtol=1e-4, atol=1e-5)


def test_an_unknown_penalty_is_refused():
    with pytest.raises(ValueError, match="penalty"):
        logistic.fit_binary(np.zeros((1, 2, 2)), [0], np.ones((1, 2)), np.ones((1, 2)), "l3")
