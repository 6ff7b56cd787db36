"""The streaming AUC accumulator and the per-group refusal rate, against direct computations."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from nhfair_jax.metrics import ScoreAccumulator, refusal_rate


def test_score_accumulator_over_padded_batches_equals_the_whole_split():
    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    g = rng.integers(0, 3, n)
    s = np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1)
    acc = ScoreAccumulator()
    for start in range(0, n, 64):  # batches of 64, the last one padded with junk rows
        rows = np.arange(start, min(start + 64, n))
        pad = 64 - len(rows)
        acc.add(np.concatenate([y[rows], np.ones(pad, int)]),
                np.concatenate([s[rows], np.zeros(pad)]),
                np.concatenate([g[rows], np.zeros(pad, int)]),
                mask=np.arange(64) < len(rows))
    out = acc.compute(num_groups=3)
    assert out["auc"] == pytest.approx(roc_auc_score(y, s))
    per_group = [roc_auc_score(y[g == a], s[g == a]) for a in range(3)]
    np.testing.assert_allclose(out["group_auc"], per_group)
    assert out["worst_auc"] == pytest.approx(min(per_group))
    assert out["gap_auc"] == pytest.approx(max(per_group) - min(per_group))
    assert np.isnan(ScoreAccumulator().compute()["auc"])


def test_refusal_rate_per_group_with_an_empty_group():
    pred = np.array([1, -1, 0, -1, -1, 2, 0])
    groups = np.array([0, 0, 0, 1, 1, 1, 3])
    rate = refusal_rate(pred, groups, num_groups=4)
    np.testing.assert_allclose(rate[[0, 1, 3]], [1 / 3, 2 / 3, 0.0])
    assert np.isnan(rate[2])  # no answers from group 2
    np.testing.assert_allclose(refusal_rate(pred, groups, refusal=0, num_groups=4)[[0, 3]],
                               [1 / 3, 1.0])
