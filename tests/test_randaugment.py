"""RandAugment as the benchmark's code runs it (RandAugmentMC(n=2, m=10)), restricted to
non-colour operations: its pool, levels and parameters from the code, checked against PIL."""

from __future__ import annotations

import numpy as np
import PIL.Image
import PIL.ImageEnhance
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


def test_the_pool_is_the_codes_without_colour_operations_and_without_cutout():
    """FixMatch's pool as the benchmark's code builds it (fixmatch_augment_pool: AutoContrast,
    Brightness, Contrast, Equalize, Identity, Posterize, Rotate, Sharpness, ShearX, ShearY,
    Solarize, TranslateX, TranslateY) minus the paper's colour operations; it has no cutout."""
    assert set(OPS) == {"identity", "rotate", "sharpness", "shear_x", "shear_y", "translate_x",
                        "translate_y"}


@pytest.mark.parametrize("op, pil_call", [
    ("rotate", lambda im, v: im.rotate(v)),
    ("shear_x", lambda im, v: im.transform(im.size, PIL.Image.AFFINE, (1, v, 0, 0, 1, 0))),
    ("shear_y", lambda im, v: im.transform(im.size, PIL.Image.AFFINE, (1, 0, 0, v, 1, 0))),
    ("translate_x", lambda im, v: im.transform(im.size, PIL.Image.AFFINE, (1, 0, v, 0, 1, 0))),
    ("translate_y", lambda im, v: im.transform(im.size, PIL.Image.AFFINE, (1, 0, 0, 0, 1, v))),
    ("sharpness", lambda im, v: PIL.ImageEnhance.Sharpness(im).enhance(v))])
def test_each_operation_is_the_codes_pil_call_at_the_codes_parameter(op, pil_call):
    """The code's arithmetic at every level v of m = 10: Rotate int(v * 30 / 10) degrees, ShearX /
    ShearY v * 0.3 / 10, TranslateX / TranslateY int(v * 0.3 / 10 * side) pixels (each with a
    random sign), Sharpness enhance(v * 0.9 / 10 + 0.05) (no sign); our batch operation against
    PIL's own on the same image, pixel for pixel, except where a sample falls within a
    thousandth of a pixel of a pixel's edge (an exact tie, which PIL's fixed-point arithmetic
    may resolve to the neighbour)."""
    from nhfair_jax.data.randaugment import op_amount

    img = np.random.default_rng(7).integers(0, 256, (1, 33, 41, 3), dtype=np.uint8)
    pil = PIL.Image.fromarray(img[0])
    side = 41 if op.endswith("_x") else 33
    for v in range(1, 10):
        for sign in (1.0, -1.0):
            amount = float(op_amount(op, v, side, sign))
            expected = {"rotate": sign * int(v * 30 / 10), "shear_x": sign * v * 0.3 / 10,
                        "shear_y": sign * v * 0.3 / 10,
                        "translate_x": sign * int(v * 0.3 / 10 * 41),
                        "translate_y": sign * int(v * 0.3 / 10 * 33),
                        "sharpness": v * 0.9 / 10 + 0.05}[op]
            assert amount == pytest.approx(expected), (op, v, sign)
            want = np.asarray(pil_call(pil, amount))
            ours, ties = _forced(op, img, v, sign)
            assert not ((ours != want).any(-1) & ~ties).any(), (op, v, sign)
            assert ties.mean() < 0.1


def _forced(op, img, level, sign):
    """(apply_op with the sign forced, the pixels whose sample lies on a pixel's edge)."""
    from nhfair_jax.data.randaugment import (_affine, _matrices, _sharpness, op_amount,
                                             sample_positions)

    h, w = img.shape[1:3]
    amount = op_amount(op, np.array([level], float), w if op.endswith("_x") else h, sign)
    if op == "sharpness":
        return _sharpness(img, amount)[0], np.zeros((h, w), bool)
    matrices = _matrices(op, amount, (h, w))
    edge = lambda p: np.abs(p - np.rint(p)) < 1e-3  # noqa: E731
    xin, yin = sample_positions(matrices, (h, w))
    return _affine(img, matrices)[0], (edge(xin) | edge(yin))[0]


def _rotation_angle(before, after, centre):
    """The angle (degrees) by which a bright blob moved about the image centre."""
    (y0, x0), (y1, x1) = (np.argwhere(im[..., 0] > 128).mean(0) for im in (before, after))
    a0 = np.degrees(np.arctan2(y0 - centre, x0 - centre))
    a1 = np.degrees(np.arctan2(y1 - centre, x1 - centre))
    return (a1 - a0 + 180) % 360 - 180


@pytest.mark.slow
def test_rotation_angles_measured_on_images_are_the_codes_3_to_27_degrees():
    """RandAugmentMC(n=1, m=10) restricted to rotation, on images of a bright blob 30 px from the
    centre: half the images are not rotated (p = 0.5), the others by a multiple of 3 degrees
    in 3..27 (v from 1..9, int(3 v)), each angle about equally often, both directions. At the
    old strength (U(0, 10) of 30) no angle passed 10 degrees."""
    n, size = 900, 96
    images = np.zeros((n, size, size, 3), np.uint8)
    images[:, size // 2 - 2:size // 2 + 2, size // 2 + 28:size // 2 + 32] = 255
    out = RandAugment(1, 10, ops=("rotate",))({"image": images}, np.random.default_rng(0))["image"]
    angles = np.array([_rotation_angle(images[0], o, size / 2 - 0.5) for o in out])
    rotated = np.abs(angles) > 1.5
    assert 0.45 < rotated.mean() < 0.55
    levels = np.rint(np.abs(angles[rotated]) / 3)
    assert np.allclose(np.abs(angles[rotated]), 3 * levels, atol=1.5)
    assert set(levels.astype(int)) == set(range(1, 10))
    counts = np.bincount(levels.astype(int), minlength=10)[1:]
    assert counts.min() > 0.5 * counts.mean()  # uniform over the nine levels
    assert 0.4 < (angles[rotated] > 0).mean() < 0.6
    assert np.abs(angles).max() <= 27 + 1.5 and np.abs(angles[rotated]).mean() > 12


def test_randaugment_is_deterministic_for_a_seed_and_pairs_move_together():
    images = np.random.default_rng(0).integers(0, 256, (32, 16, 16, 3), dtype=np.uint8)
    aug = RandAugment(2, 10)
    a = aug({"image": images, "image_cf": images.copy()}, np.random.default_rng(5))
    b = aug({"image": images, "image_cf": images.copy()}, np.random.default_rng(5))
    assert np.array_equal(a["image"], b["image"])
    assert np.array_equal(a["image"], a["image_cf"])  # same ops on the counterfactual
    with pytest.raises(ValueError, match="magnitude must be an integer in"):
        RandAugment(2, 30)


def test_each_image_gets_two_draws_each_applied_with_probability_half():
    """With num_ops = 2 and p = 0.5, a quarter of the images get no operation at all; identity
    is one of seven ops, so about (0.5 + 0.5 / 7)^2 = 0.33 are unchanged (at 64 px every other
    op moves or blends some pixel at any level)."""
    images = np.random.default_rng(0).integers(0, 255, (2000, 64, 64, 3), dtype=np.uint8)
    out = RandAugment(2, 10)({"image": images}, np.random.default_rng(1))["image"]
    unchanged = np.mean([np.array_equal(a, b) for a, b in zip(images, out)])
    assert abs(unchanged - (0.5 + 0.5 / 7) ** 2) < 0.04


@pytest.mark.slow
def test_pipeline_applies_it_to_training_batches():
    train = get_sources("digitsb", None)["train"]
    plain = next(iterate(train_dataset(train, batch_size=32, seed=0, epoch=1, flip=False)))
    aug = next(iterate(train_dataset(train, batch_size=32, seed=0, epoch=1, flip=False,
                                     augment=RandAugment(2, 10))))
    assert np.array_equal(plain["index"], aug["index"])
    changed = (plain["image"] != aug["image"]).any(axis=(1, 2, 3)).mean()
    assert changed > 0.35


@pytest.mark.slow
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


def test_fscls_two_views_are_the_same_randaugment_as_the_benchmarks():
    """FSCL's views (its code's TwoCropTransform of the same RandAugmentMC(2, 10)): two
    independent draws of the study's ops at n = 2, m = 10, p = 0.5, on `image` only."""
    from nhfair_jax.data.randaugment import OPS
    from nhfair_jax.config import method_config
    from nhfair_jax.methods import get_method

    fscl = get_method(method_config("fscl"))
    views = fscl.augment.randaugment
    assert (views.num_ops, views.magnitude, views.prob) == (2, 10, 0.5)
    assert views.ops == OPS and views.keys == ("image",)
