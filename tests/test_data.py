"""DigitsB / CIFAR-10B construction, splits, get_source, and the grain pipeline."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

from nhfair_jax.data import get_source, get_sources, random_split
from nhfair_jax.data.biased import make_biased
from nhfair_jax.data.pipeline import eval_dataset, iterate, random_flip, train_dataset


@pytest.fixture(scope="module")
def digits():
    return get_sources("digitsb", None, split_seed=0, image_size=32)


@pytest.mark.slow
def test_digitsb_splits_are_8_1_1_disjoint_and_cover_everything(digits):
    sizes = {s: len(src) for s, src in digits.items()}
    assert sum(sizes.values()) == 1797
    assert abs(sizes["train"] - 0.8 * 1797) <= 1 and abs(sizes["val"] - 0.1 * 1797) <= 1
    ids = [set(src.indices.tolist()) for src in digits.values()]
    assert not (ids[0] & ids[1] or ids[0] & ids[2] or ids[1] & ids[2])
    assert set().union(*ids) == set(range(1797))


def test_digitsb_record_contract(digits):
    train = digits["train"]
    rec = train[0]
    assert rec["image"].dtype == np.uint8 and rec["image"].shape == (32, 32, 3)
    assert set(rec) >= {"image", "label", "group", "index"}
    assert train.num_classes == 2 and train.num_groups == 2
    assert train.group_names == ["clean", "gaussian_noise"]


@pytest.mark.slow
def test_digitsb_label_is_digit_at_least_5_and_bias_follows_skew_and_alpha():
    from sklearn.datasets import load_digits

    target = load_digits().target
    full = get_sources("digitsb", None, split_seed=0, image_size=32)
    for src in full.values():
        np.testing.assert_array_equal(src.labels, (target[src.indices] >= 5).astype(int))
    allsrc = np.concatenate([s.groups for s in full.values()]), np.concatenate(
        [s.labels for s in full.values()])
    # P(A = Y) = 0.8 and P(G = A) = 0.8, within sampling error of 1,797 draws.
    assert abs(np.mean(allsrc[0] == allsrc[1]) - 0.8) < 0.04
    g = np.concatenate([s.extras["attr_g"] for s in full.values()])
    assert abs(np.mean(g == allsrc[0]) - 0.8) < 0.04
    strong = get_sources("digitsb", None, skew=1.0, alpha=1.0)["train"]
    np.testing.assert_array_equal(strong.groups, strong.labels)


def test_noise_marks_the_group_and_gflip_changes_only_contrast():
    flat = np.full((4, 8, 8, 3), 0.5, np.float32)  # contrast cannot change a flat image
    out = make_biased(flat, np.array([0, 1, 7, 9]), skew=1.0, alpha=1.0, seed=0)
    np.testing.assert_array_equal(out["group"], [0, 0, 1, 1])
    std = out["image"].reshape(4, -1).std(axis=1)
    # A = 1 <=> Gaussian noise present, of std 0.04 x 255 = 10.2 grey levels (severity 1)
    assert (std[:2] == 0).all() and (np.abs(std[2:] - 0.04 * 255) < 1.0).all()
    np.testing.assert_array_equal(out["image"], out["image_gflip"])
    base = np.zeros((4, 8, 8, 3), np.float32)
    base[:, 2:6, 2:6] = 1.0
    out = make_biased(base, np.array([0, 1, 7, 9]), skew=0.0, alpha=1.0, seed=0)
    np.testing.assert_array_equal(out["group"], [1, 1, 0, 0])
    clean = out["image"][2:].astype(int)  # A = 0, G = 0: the image itself
    np.testing.assert_array_equal(clean, np.round(base[2:] * 255))
    low = out["image_gflip"][2:].astype(int)  # G flipped to 1: contrast x 0.75, no noise
    np.testing.assert_array_equal(low.max(axis=(1, 2, 3)) - low.min(axis=(1, 2, 3)),
                                  [191, 191])  # round(0.75 x 255)


@pytest.mark.slow
def test_splits_depend_on_split_seed_only(digits):
    again = get_sources("digitsb", None, split_seed=0, image_size=32)
    np.testing.assert_array_equal(again["val"].indices, digits["val"].indices)
    np.testing.assert_array_equal(again["train"].images, digits["train"].images)
    other = get_sources("digitsb", None, split_seed=1, image_size=32)
    assert not np.array_equal(other["val"].indices, digits["val"].indices)
    a, b = random_split(100, "x", 3), random_split(100, "x", 3)
    assert all(np.array_equal(a[s], b[s]) for s in a)


def test_get_source_errors():
    with pytest.raises(ValueError, match="unknown data set 'nope'.*digitsb"):
        get_source("nope", None, "train")
    with pytest.raises(FileNotFoundError, match="data not found at /no/such/celeba"):
        get_source("celeba", "/no/such/celeba", "train")
    with pytest.raises(ValueError, match="split must be one of"):
        get_source("digitsb", None, "dev")


def _write_cifar(root, n_per_batch=6):
    rng = np.random.default_rng(0)
    folder = os.path.join(root, "cifar-10-batches-py")
    os.makedirs(folder)
    names = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
    for name in names:
        data = rng.integers(0, 256, (n_per_batch, 3072), dtype=np.uint8)
        labels = list(rng.integers(0, 10, n_per_batch))
        with open(os.path.join(folder, name), "wb") as f:
            pickle.dump({b"data": data, b"labels": labels, b"batch_label": name.encode()}, f)
    return folder


def test_cifar10b_from_a_miniature_python_release(tmp_path):
    _write_cifar(str(tmp_path))
    sources = get_sources("cifar10b", str(tmp_path), image_size=32, split="official")
    assert len(sources["test"]) == 6 and len(sources["train"]) + len(sources["val"]) == 30
    assert len(sources["val"]) == 3  # 10% of train carved out
    with open(os.path.join(tmp_path, "cifar-10-batches-py", "test_batch"), "rb") as f:
        raw = pickle.load(f, encoding="bytes")
    np.testing.assert_array_equal(sources["test"].labels, np.array(raw[b"labels"]) >= 5)
    # Without noise or contrast the image is the CIFAR image, channels last.
    clean = get_sources("cifar10b", str(tmp_path), skew=0.0, alpha=0.0,
                        split="official")["test"]
    keep = clean.groups == 0
    expected = raw[b"data"].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(clean.images[keep & (clean.extras["attr_g"] == 0)],
                                  expected[keep & (clean.extras["attr_g"] == 0)])


def test_cifar10b_missing_or_corrupt_batch_names_the_file(tmp_path):
    folder = _write_cifar(str(tmp_path))
    os.remove(os.path.join(folder, "data_batch_3"))
    with pytest.raises(FileNotFoundError, match="data_batch_3"):
        get_sources("cifar10b", str(tmp_path))
    with open(os.path.join(folder, "data_batch_3"), "wb") as f:
        f.write(b"\x80\x04truncated")
    with pytest.raises(ValueError, match="cannot read CIFAR-10 batch .*data_batch_3"):
        get_sources("cifar10b", str(tmp_path))


def test_train_batches_fixed_size_shuffled_per_epoch_and_deterministic(digits):
    train = digits["train"]
    ds0 = train_dataset(train, batch_size=64, seed=1, epoch=0, flip=False)
    assert len(ds0) == len(train) // 64
    b0 = [b["index"] for b in iterate(ds0)]
    assert all(len(b) == 64 for b in b0)
    assert len(set(np.concatenate(b0).tolist())) == 64 * len(b0)  # no repeats in an epoch
    again = [b["index"] for b in iterate(train_dataset(train, batch_size=64, seed=1, epoch=0,
                                                       flip=False))]
    assert all(np.array_equal(a, b) for a, b in zip(b0, again))
    b1 = [b["index"] for b in iterate(train_dataset(train, batch_size=64, seed=1, epoch=1))]
    assert not np.array_equal(b0[0], b1[0])


def test_train_and_eval_batches_are_grains_shuffle_and_batch_exactly(digits):
    """The pipeline computes grain's shuffled order a batch at a time, kept per (rows, seed):
    each epoch's batches, with flip and an augmentation drawing from its own rng, are
    those of grain's `source(rows).shuffle(seed).batch(...)` followed by the same maps."""
    from nhfair_jax.data.pipeline import Normalize, _gather, epoch_seed, shuffle_positions

    import grain

    train, test = digits["train"], digits["test"]

    def augment(batch, rng):  # an augmentation whose draws show in the images
        return {**batch, "image": np.clip(batch["image"].astype(np.int32)
                                          + rng.integers(0, 9, batch["image"].shape),
                                          0, 255).astype(np.uint8)}

    sampled = np.random.default_rng(3).integers(0, len(train), 300)  # a sampler's repeats
    for indices in (None, sampled):
        for epoch in (0, 4):
            rows = np.arange(len(train)) if indices is None else indices
            s = epoch_seed(11, epoch)
            ref = grain.MapDataset.source(rows).shuffle(seed=s).batch(64, drop_remainder=True)
            ref = ref.map(_gather(train, None)).random_map(augment, seed=s + 1)
            ref = ref.random_map(random_flip, seed=s + 2).map(Normalize(
                (0.5,) * 3, (0.5,) * 3, keys=("image", "image2", "image_cf", "image_gflip")))
            ours = train_dataset(train, batch_size=64, seed=11, epoch=epoch, indices=indices,
                                 augment=augment, mean=(0.5,) * 3, std=(0.5,) * 3, keys=None)
            assert len(ours) == len(ref)
            for a, b in zip(iterate(ours), iterate(ref)):
                assert a.keys() == b.keys()
                for k in a:
                    np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    for n, seed in [(1, 0), (7, 2**32 - 1), (1438, 123456789)]:
        expected = [grain.MapDataset.source(np.arange(n)).shuffle(seed=seed)[i] for i in range(n)]
        np.testing.assert_array_equal(shuffle_positions(n, seed), expected)
        np.testing.assert_array_equal(shuffle_positions(n, seed, 1, 5), expected[1:5])
    ref = grain.MapDataset.source(np.arange(len(test))).batch(64).map(_gather(test))
    for a, b in zip(iterate(eval_dataset(test, batch_size=64, keys=None)), iterate(ref)):
        np.testing.assert_array_equal(a["index"][a["mask"]], b["index"])


def test_shuffle_positions_are_computed_once_per_rows_and_seed_within_a_bounded_cache(
        monkeypatch):
    import grain

    from nhfair_jax.data import pipeline

    calls = []
    real = grain.experimental.index_shuffle
    monkeypatch.setattr(grain.experimental, "index_shuffle",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    monkeypatch.setattr(pipeline, "_orders", type(pipeline._orders)())
    first = pipeline.shuffle_positions(1000, 5, 0, 64)
    assert len(calls) == 64
    np.testing.assert_array_equal(pipeline.shuffle_positions(1000, 5, 0, 64), first)
    assert len(calls) == 64  # kept
    pipeline.shuffle_positions(1000, 5, 32, 100)
    assert len(calls) == 100  # only the positions not read before
    monkeypatch.setattr(pipeline, "SHUFFLE_CACHE_BYTES", 3 * 1000 * 8)
    for seed in range(6, 11):
        pipeline.shuffle_positions(1000, seed, 0, 1)
    assert list(pipeline._orders) == [(1000, seed) for seed in (8, 9, 10)]  # the newest


def test_train_batches_normalise_and_follow_sampler_indices(digits):
    train = digits["train"]
    ds = train_dataset(train, batch_size=16, seed=0, epoch=0, flip=False, mean=(0.5,) * 3,
                       std=(0.5,) * 3, indices=np.zeros(32, np.int64))
    batch = next(iterate(ds))
    assert batch["image"].dtype == np.float32
    np.testing.assert_allclose(batch["image"][0], train.images[0] / 127.5 - 1.0, atol=1e-6)
    assert (batch["index"] == train.indices[0]).all()  # a sampler may repeat rows


def test_random_flip_flips_about_half_and_mirrors_exactly():
    img = np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3)
    batch = {"image": np.repeat(img[:1], 400, 0), "label": np.zeros(400)}
    out = random_flip(batch, np.random.default_rng(0))
    flipped = (out["image"] != batch["image"]).any(axis=(1, 2, 3))
    assert 0.4 < flipped.mean() < 0.6
    np.testing.assert_array_equal(out["image"][flipped][0], img[0][:, ::-1])


def test_normalise_and_flip_give_the_textbook_formulas_values_bit_for_bit():
    """Both are rewritten for speed (rows of width x channels; flipped rows written over a
    copy): the values must be those of x.astype(float32) * scale - shift with numpy's own
    broadcast, and of np.where(flip, mirrored, x) with the same draws, exactly."""
    from nhfair_jax.data.pipeline import Normalize

    rng = np.random.default_rng(7)
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    for shape in [(64, 32, 32, 3), (5, 7, 9, 3), (3, 4, 6, 1)]:
        batch = {"image": rng.integers(0, 256, shape, dtype=np.uint8),
                 "image_cf": rng.integers(0, 256, shape, dtype=np.uint8),
                 "label": np.zeros(shape[0], np.int64)}
        m, s = (mean, std) if shape[-1] == 3 else (mean[:1], std[:1])
        norm = Normalize(m, s, keys=("image", "image_cf"))
        for k in ("image", "image_cf"):
            scale = 1.0 / (255.0 * np.asarray(s, np.float32))
            shift = np.asarray(m, np.float32) / np.asarray(s, np.float32)
            expected = batch[k].astype(np.float32) * scale - shift
            got = norm(batch)[k]
            assert got.dtype == np.float32 and got.shape == shape
            np.testing.assert_array_equal(got, expected)
        out = random_flip(batch, np.random.default_rng(1))
        flip = np.random.default_rng(1).random(shape[0]) < 0.5
        for k in ("image", "image_cf"):  # paired views flip together
            expected = np.where(flip[:, None, None, None], batch[k][:, :, ::-1], batch[k])
            np.testing.assert_array_equal(out[k], expected)
        assert out["image"] is not batch["image"]  # the input is not written to


def test_eval_batches_are_padded_with_a_mask_and_drop_nothing(digits):
    test = digits["test"]
    batches = list(iterate(eval_dataset(test, batch_size=64)))
    assert all(len(b["label"]) == 64 for b in batches)
    kept = np.concatenate([b["index"][b["mask"]] for b in batches])
    np.testing.assert_array_equal(kept, test.indices)  # in order, none dropped
    assert batches[-1]["mask"].sum() == len(test) - 64 * (len(batches) - 1)


@pytest.mark.slow
def test_reused_sources_load_a_data_setting_once_and_read_only():
    from nhfair_jax.data import config_sources, reused_sources
    from tests.helpers import tiny_config

    c = tiny_config()
    assert config_sources(c)["train"].images is not config_sources(c)["train"].images
    with reused_sources():
        first, second = config_sources(c), config_sources(c)
        assert second["train"].images is first["train"].images  # loaded once
        with pytest.raises(ValueError, match="read-only"):
            first["train"].labels[0] = 1  # a run cannot change what the next one reads
        other = tiny_config(**{"data.options.skew": 0.9})
        assert not np.array_equal(config_sources(other)["train"].groups, first["train"].groups)
    assert config_sources(c)["train"].images is not first["train"].images  # let go after


def test_reused_sources_build_a_biased_set_once_for_every_seed_split(monkeypatch):
    """Runs that re-split DigitsB with their seeds (the benchmark's splits per seed) build its
    biased images once while sources are reused, and each gets what a fresh load gives."""
    from nhfair_jax.data import biased, config_sources, digitsb, reused_sources
    from tests.helpers import tiny_config

    fresh = {s: config_sources(tiny_config(**{"data.split_seed": s, "data.image_size": 8}))
             for s in (1, 2)}
    builds = []
    real = biased.make_biased
    monkeypatch.setattr(digitsb, "make_biased", lambda *a, **k: builds.append(1) or real(*a, **k))
    with reused_sources():
        reused = {s: config_sources(tiny_config(**{"data.split_seed": s, "data.image_size": 8}))
                  for s in (1, 2)}
        assert len(builds) == 1  # one construction, two splits
        config_sources(tiny_config(**{"data.split_seed": 1, "data.image_size": 8,
                                      "data.options.alpha": 0.6}))
        assert len(builds) == 2  # another construction is built
    for s in (1, 2):
        for split in ("train", "val", "test"):
            a, b = fresh[s][split], reused[s][split]
            np.testing.assert_array_equal(a.indices, b.indices)
            np.testing.assert_array_equal(a.images, b.images)
            np.testing.assert_array_equal(a.groups, b.groups)
            for key in a.extras:
                np.testing.assert_array_equal(a.extras[key], b.extras[key])
    assert not np.array_equal(reused[1]["train"].indices, reused[2]["train"].indices)
    with reused_sources():
        config_sources(tiny_config(**{"data.split_seed": 1, "data.image_size": 8}))
    assert len(builds) == 3  # let go when the block ended
