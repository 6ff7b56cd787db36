"""The device augmentation (nhfair_jax/data/device_augment.py) against the host's: for fixed
operations, levels and signs every pixel is the host's except where a pixel centre maps within
float32's reach of an input pixel's edge; the draws have the host's distribution."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.data import device_augment as dev
from nhfair_jax.data.pipeline import Normalize, random_flip
from nhfair_jax.errors import UserError
from nhfair_jax.data.randaugment import OPS, RandAugment, apply_op, op_amount, sample_positions
from nhfair_jax.data.randaugment import _matrices as host_matrices


class _Signs:
    """A stand-in generator whose `random(k)` gives the host's sign draw: -1 below 0.5."""

    def __init__(self, signs):
        self.signs = np.asarray(signs)

    def random(self, k):
        assert k == len(self.signs)
        return np.where(self.signs < 0, 0.25, 0.75)


def _images(n, h, w, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (n, h, w, 3), dtype=np.uint8)


def _near_an_edge(op, level, sign, size):
    """[B, H, W]: output pixels whose centre maps within 1e-4 of an input pixel's edge (in the
    host's float64): there float32 may pick the neighbour."""
    h, w = size
    side = w if op.endswith("_x") else h
    m = host_matrices(op, op_amount(op, level, side, sign), size)
    xs, ys = sample_positions(m, size)
    return (np.abs(xs - np.round(xs)) < 1e-4) | (np.abs(ys - np.round(ys)) < 1e-4)


@pytest.mark.parametrize("size", [(16, 16), (12, 20)])  # square, and h != w
def test_each_operation_at_every_level_and_sign_is_the_hosts(size):
    levels = np.arange(1, 10)
    images = _images(2 * len(levels), *size)
    level = np.concatenate([levels, levels])
    sign = np.concatenate([-np.ones(len(levels)), np.ones(len(levels))])
    for o, op in enumerate(OPS):
        host = apply_op(images, op, level, _Signs(sign))
        ones = np.ones(len(level), bool)
        ours = np.asarray(dev.apply_slot(jnp.asarray(images), jnp.full(len(level), o), ones,
                                         jnp.asarray(level), jnp.asarray(sign, jnp.float32)))
        differ = (ours != host).any(-1)
        if op in dev.GEOMETRIC:
            allowed = _near_an_edge(op, level, sign, size)
            assert not (differ & ~allowed).any(), (op, np.argwhere(differ & ~allowed)[:5])
        else:
            assert not differ.any(), op
        if op != "identity":  # the operation did something
            assert (ours != images).any(), op


def test_a_slot_applies_only_where_drawn_and_each_image_its_own_operation():
    images = _images(6, 16, 16, seed=1)
    op = np.array([1, 2, 6, 3, 5, 0])  # rotate, shear_x, sharpness, shear_y, translate_y, id
    applied = np.array([True, True, True, False, True, True])
    level, sign = np.full(6, 5), np.array([1.0, -1, 1, 1, -1, 1])
    ours = np.asarray(dev.apply_slot(jnp.asarray(images), jnp.asarray(op), jnp.asarray(applied),
                                     jnp.asarray(level), jnp.asarray(sign, jnp.float32)))
    for i in range(6):
        expected = images[i:i + 1] if not applied[i] else apply_op(
            images[i:i + 1], OPS[op[i]], level[i:i + 1], _Signs(sign[i:i + 1]))
        np.testing.assert_array_equal(ours[i:i + 1], expected)


def test_paired_views_get_the_same_draws_and_the_flip_comes_last():
    images = _images(8, 16, 16, seed=2)
    batch = {"image": jnp.asarray(images), "image_cf": jnp.asarray(images),
             "label": jnp.zeros(8, jnp.int32)}
    choices = dev.draw(jax.random.key(0), 8)
    out = dev.augment(batch, choices)
    np.testing.assert_array_equal(out["image"], out["image_cf"])
    unflipped = dev.augment(batch, {**choices, "flip": jnp.zeros(8, bool)})
    flip = np.asarray(choices["flip"])
    assert flip.any() and not flip.all()
    np.testing.assert_array_equal(np.asarray(out["image"])[flip],
                                  np.asarray(unflipped["image"])[flip][:, :, ::-1])
    np.testing.assert_array_equal(np.asarray(out["image"])[~flip],
                                  np.asarray(unflipped["image"])[~flip])
    # the host flips the same way
    host = random_flip({"image": np.asarray(unflipped["image"]), "label": np.zeros(8)},
                       _FlipRng(flip))
    np.testing.assert_array_equal(host["image"], np.asarray(out["image"]))


class _FlipRng:
    def __init__(self, flip):
        self.flip = flip

    def random(self, n):
        return np.where(self.flip, 0.25, 0.75)


def test_the_draws_have_the_hosts_distribution():
    """Operations uniform over the pool, applied with probability `prob`, levels uniform on
    1..magnitude-1, signs and flips fair: each frequency within 4.5 standard errors of the
    host RandAugment's definition."""
    n = 20_000
    c = dev.draw(jax.random.key(3), n, num_ops=2, magnitude=10, prob=0.5)
    host = RandAugment()

    def close(freq, p, count):
        assert abs(freq - p) <= 4.5 * np.sqrt(p * (1 - p) / count), (freq, p)

    op, level = np.asarray(c["op"]).ravel(), np.asarray(c["level"]).ravel()
    for o in range(len(host.ops)):
        close((op == o).mean(), 1 / len(host.ops), op.size)
    for v in range(1, host.magnitude):
        close((level == v).mean(), 1 / (host.magnitude - 1), level.size)
    assert level.min() >= 1 and level.max() <= host.magnitude - 1
    close(np.asarray(c["applied"]).mean(), host.prob, op.size)
    close((np.asarray(c["sign"]) < 0).mean(), 0.5, op.size)
    close(np.asarray(c["flip"]).mean(), 0.5, n)
    assert not np.asarray(dev.draw(jax.random.key(3), 8, flip=False)["flip"]).any()


def test_augment_runs_jitted_on_uint8_batches():
    images = jnp.asarray(_images(4, 16, 16, seed=4))
    run = jax.jit(lambda key, x: dev.augment({"image": x}, dev.draw(key, 4))["image"])
    out = run(jax.random.key(1), images)
    assert out.dtype == jnp.uint8 and out.shape == images.shape
    assert (np.asarray(out) != np.asarray(images)).any()


def test_where_the_augmentation_runs():
    kw = {"flip": True, "randaugment": True, "mean": (0.5,) * 3, "std": (0.5,) * 3}
    assert dev.device_prepare("auto", platform="cpu", **kw) is None
    assert dev.device_prepare("host", platform="gpu", **kw) is None
    assert dev.device_prepare("auto", platform="gpu", **kw) == dev.DevicePrepare(
        True, True, (0.5,) * 3, (0.5,) * 3)
    assert dev.device_prepare("device", platform="cpu", **kw) is not None
    own = object()  # a method's own host transform: it stays on the host
    assert dev.device_prepare("auto", platform="gpu", host_augment=own, **kw) is None
    with pytest.raises(UserError, match="augment_on='host'"):
        dev.device_prepare("device", platform="gpu", host_augment=own, **kw)
    with pytest.raises(UserError, match="train.augment_on"):
        dev.device_prepare("gpu", **kw)


def test_prepare_normalises_as_the_host_pipeline_and_leaves_features_alone():
    images = _images(4, 8, 8, seed=5)
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    host = Normalize(mean, std, keys=("image", "image_cf"))({"image": images,
                                                            "image_cf": images[::-1]})
    prepare = dev.DevicePrepare(False, False, mean, std)
    ours = prepare({"image": jnp.asarray(images), "image_cf": jnp.asarray(images[::-1]),
                    "label": jnp.zeros(4, jnp.int32)}, jax.random.key(0))
    for key in ("image", "image_cf"):
        assert ours[key].dtype == jnp.float32
        np.testing.assert_allclose(ours[key], host[key], rtol=1e-6, atol=1e-6)
    features = {"features": jnp.ones((4, 3)), "label": jnp.zeros(4, jnp.int32)}
    assert prepare(features, jax.random.key(0)) is features


@pytest.mark.slow
def test_a_run_augmented_on_the_device_trains_as_the_host_path_without_draws(tmp_path):
    """On the CPU with train.augment_on='device': without flip and RandAugment the pipeline
    ships uint8 and the step normalises, and one epoch ends with the host path's parameters
    (up to rounding); with both on, the epoch trains (a finite loss) and differs."""
    from nhfair_jax.dispatch import run
    from tests.helpers import tiny_config

    def test_logits(name, **overrides):
        config = tiny_config(**{"train.epochs": 1, **overrides})
        run(config, str(tmp_path / name))
        return np.load(tmp_path / name / "predictions_test.npz")["logits"]

    plain = {"train.flip": False, "train.randaugment": False}
    host = test_logits("host", **plain, **{"train.augment_on": "host"})
    device = test_logits("device", **plain, **{"train.augment_on": "device"})
    # The two paths round differently (the step may fuse the scale and shift into one
    # multiply-add), and an epoch of training amplifies a last-bit difference in the input to
    # a few thousandths in the logits (0.004 here, 0.0016 on another CPU); one horizontal flip
    # of the draws changes them by 0.13 and RandAugment by 0.39 (logits' spread 0.5). The
    # bound sits between: a path that drew a flip, or normalised otherwise, exceeds it.
    np.testing.assert_allclose(device, host, rtol=0, atol=0.02)
    drawn = test_logits("drawn", **{"train.augment_on": "device", "train.randaugment": True})
    assert np.isfinite(drawn).all() and np.abs(drawn - host).max() > 0.1
