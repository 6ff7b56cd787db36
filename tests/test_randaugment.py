"""RandAugment restricted to non-colour operations."""

from __future__ import annotations

import numpy as np
import pytest

from nhfair_jax.data import get_sources
from nhfair_jax.data.pipeline import iterate, train_dataset
from nhfair_jax.data.randaugment import OPS, RandAugment, apply_op


def _uniform_batch(n=64, size=16, seed=0):
    colours = np.random.default_rng(seed).integers(1, 256, (n, 1, 1, 3), dtype=np.uint8)
    return np.broadcast_to(colours, (n, size, size, 3)).copy(), colours


@pytest.mark.parametrize("op", OPS)
def test_no_operation_changes_a_colour(op):
    """On single-colour images, every pixel stays its colour or becomes the 0 fill: a colour
    operation (brightness, contrast, solarize, ...) would produce other values."""
    images, colours = _uniform_batch()
    out = apply_op(images, op, 10, np.random.default_rng(1))
    same = (out == colours).all(axis=-1)
    fill = (out == 0).all(axis=-1)
    assert (same | fill).all()


def test_geometric_ops_move_pixels_and_identity_does_not():
    img = np.random.default_rng(0).integers(0, 256, (8, 16, 16, 3), dtype=np.uint8)
    rng = np.random.default_rng(2)
    assert np.array_equal(apply_op(img, "identity", 10, rng), img)
    for op in ("rotate", "shear_x", "shear_y", "translate_x", "translate_y", "sharpness",
               "cutout"):
        assert (apply_op(img, op, 10, rng) != img).any(axis=(1, 2, 3)).all(), op
    # Translation by m=10 moves content by about 15% of the width.
    shifted = apply_op(img, "translate_x", 10, np.random.default_rng(3))
    matches = [any(np.array_equal(shifted[i, :, s:s + 8], img[i, :, 2:10])
                   for s in range(16 - 8)) for i in range(8)]
    assert all(matches)


def test_randaugment_is_deterministic_for_a_seed_and_pairs_move_together():
    images = np.random.default_rng(0).integers(0, 256, (32, 16, 16, 3), dtype=np.uint8)
    aug = RandAugment(2, 10)
    a = aug({"image": images, "image_cf": images.copy()}, np.random.default_rng(5))
    b = aug({"image": images, "image_cf": images.copy()}, np.random.default_rng(5))
    assert np.array_equal(a["image"], b["image"])
    assert np.array_equal(a["image"], a["image_cf"])  # same ops on the counterfactual
    # each of the 2 ops applies with p 0.5 (some draws are identity or too weak to move a pixel)
    assert (a["image"] != images).any(axis=(1, 2, 3)).mean() > 0.35
    with pytest.raises(ValueError, match="magnitude must be in"):
        RandAugment(2, 40)


def test_pipeline_applies_it_to_training_batches():
    train = get_sources("digitsb", None)["train"]
    plain = next(iterate(train_dataset(train, batch_size=32, seed=0, epoch=1, flip=False)))
    aug = next(iterate(train_dataset(train, batch_size=32, seed=0, epoch=1, flip=False,
                                     augment=RandAugment(2, 10))))
    assert np.array_equal(plain["index"], aug["index"])
    changed = (plain["image"] != aug["image"]).any(axis=(1, 2, 3)).mean()
    assert changed > 0.35


def test_train_randaugment_adds_it_to_any_method_deterministically():
    from nhfair_jax.config import method_config
    from nhfair_jax.training.loop import Run
    from tests.helpers import tiny_config

    cfg = tiny_config(**{"train.randaugment": True, "train.flip": False})
    cfg.method = method_config("gapreg")
    run = Run(cfg, None)
    train = run.sources["train"]
    batches = [next(iterate(train_dataset(train, batch_size=32, seed=3, epoch=2, flip=False,
                                          augment=augment)))
               for augment in (run.augment, run.augment, None)]
    assert np.array_equal(batches[0]["image"], batches[1]["image"])  # same seed, same views
    assert (batches[0]["image"] != batches[2]["image"]).any(axis=(1, 2, 3)).mean() > 0.6
    assert Run(tiny_config(), None).augment is None  # off by default


def test_each_op_applies_with_probability_half_at_a_random_strength():
    from nhfair_jax.data.randaugment import apply_op

    images = np.random.default_rng(0).integers(0, 255, (400, 16, 16, 3), dtype=np.uint8)
    out = RandAugment(1, 10)({"image": images}, np.random.default_rng(1))["image"]
    unchanged = np.mean([np.array_equal(a, b) for a, b in zip(images, out)])
    # half skipped, plus identity draws and strength-0 ops among the applied half
    assert 0.45 < unchanged < 0.7
    fixed = RandAugment(1, 10, prob=1.0, random_magnitude=False)({"image": images},
                                                                  np.random.default_rng(1))
    assert np.mean([np.array_equal(a, b) for a, b in zip(images, fixed["image"])]) < 0.3
    # per-image strengths: strength 0 leaves an image alone, 30 moves it
    rot = apply_op(images[:2], "rotate", np.array([0.0, 30.0]), np.random.default_rng(0))
    assert np.array_equal(rot[0], images[0]) and not np.array_equal(rot[1], images[1])
