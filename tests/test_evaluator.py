"""The evaluator's batches: a split smaller than the evaluation batch is one batch of its own
(rounded) size, and its predictions are those of the full-size padded batch."""

from __future__ import annotations

import numpy as np
import pytest

from nhfair_jax.training import setup
from nhfair_jax.training.evaluator import eval_batch_rows
from tests.helpers import tiny_config


def test_a_small_split_is_one_batch_of_its_size_rounded_per_device():
    assert eval_batch_rows(180, 256, 1) == 184  # DigitsB's validation split
    assert eval_batch_rows(179, 256, 1) == 184  # and its test split: one program for both
    assert eval_batch_rows(5, 256, 1) == 8
    assert eval_batch_rows(1000, 256, 1) == 256  # larger splits: full batches, the last padded
    assert eval_batch_rows(180, 256, 4) == 192  # a multiple of 8 rows per device
    assert eval_batch_rows(250, 256, 4) == 256
    assert eval_batch_rows(250, 64, 2) == 64  # never above the configured batch


@pytest.mark.slow  # builds DigitsB and compiles two programs: seconds
def test_predictions_at_the_split_size_are_those_of_the_padded_full_batch():
    built = setup.build(tiny_config(**{"train.eval_batch_size": 256}))
    evaluator = built.evaluator()
    sized = [batch["image"].shape[0] for batch, _ in
             evaluator.eval_batches(built.sources["val"])]
    assert sized == [184]
    logits = evaluator.predict(built.state, "val")
    full = built.evaluator()
    full.batch_rows = lambda rows: 256  # the padded batch every split used before
    assert [b["image"].shape[0] for b, _ in full.eval_batches(built.sources["val"])] == [256]
    assert logits.shape == (len(built.sources["val"]), built.num_classes)
    np.testing.assert_allclose(logits, full.predict(built.state, "val"), rtol=1e-5, atol=1e-6)
