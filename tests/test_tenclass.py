"""Ten-class image sets in their official formats (the MNIST family's IDX files, gzipped or not,
and CIFAR-10's python batches) and the paper's CIFAR-10B construction over them
(`fashion_mnist_b`): classes 0-4 vs 5-9, A and G injected at skew 0.8 and alpha, exact pairs,
64:16:20 splits. Miniature IDX files written here; the real Fashion-MNIST files where Debian's
dataset-fashion-mnist installs them."""

from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest

from nhfair_jax.data import DataError, get_sources
from nhfair_jax.data.tenclass import read_idx, read_idx_release, read_ten_class
from tests.helpers import need
from tests.miniatures import write_cifar_batches


def write_idx(path, array: np.ndarray, *, gz: bool = False) -> None:
    """An IDX file as the MNIST release lays it out: two zero bytes, the type code 0x08
    (unsigned byte), the number of dimensions, each dimension as a big-endian int32, the data."""
    array = np.asarray(array, np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(struct.pack(">i", d)
                                                         for d in array.shape)
    data = header + array.tobytes()
    with (gzip.open if gz else open)(str(path), "wb") as f:
        f.write(data)


def make_idx_release(root, n_train=60, n_test=40, *, gz=True, seed=0, size=6):
    """A miniature MNIST-family folder: images whose mean grey level encodes the class."""
    rng = np.random.default_rng(seed)
    out = {}
    for split, n in (("train", n_train), ("t10k", n_test)):
        classes = rng.integers(0, 10, n).astype(np.uint8)
        images = (20 * classes[:, None, None] + rng.integers(0, 10, (n, size, size))).astype(
            np.uint8)
        suffix = ".gz" if gz else ""
        write_idx(root / f"{split}-images-idx3-ubyte{suffix}", images, gz=gz)
        write_idx(root / f"{split}-labels-idx1-ubyte{suffix}", classes, gz=gz)
        out[split] = (images, classes)
    return out


@pytest.mark.parametrize("gz", [True, False])
def test_idx_files_read_back_as_written(tmp_path, gz):
    written = make_idx_release(tmp_path, gz=gz)
    train_x, train_y, test_x, test_y = read_idx_release(str(tmp_path))
    np.testing.assert_array_equal(train_x[..., 0], written["train"][0])
    np.testing.assert_array_equal(train_x[..., 2], written["train"][0])  # grey -> 3 channels
    np.testing.assert_array_equal(train_y, written["train"][1])
    np.testing.assert_array_equal(test_x[..., 1], written["t10k"][0])
    np.testing.assert_array_equal(test_y, written["t10k"][1])
    assert train_x.dtype == np.uint8 and train_x.shape == (60, 6, 6, 3)


def test_fashion_mnist_b_is_the_papers_construction(tmp_path):
    written = make_idx_release(tmp_path, n_train=400, n_test=100)
    sources = get_sources("fashion_mnist_b", str(tmp_path), image_size=6, alpha=0.7)
    assert {s: len(v) for s, v in sources.items()} == {"train": 320, "val": 80, "test": 100}
    classes = np.concatenate([written["train"][1], written["t10k"][1]])
    images = np.concatenate([written["train"][0], written["t10k"][0]])
    ids = np.concatenate([v.indices for v in sources.values()])
    assert len(np.unique(ids)) == 500  # train and test images pooled, each in one split
    for src in sources.values():
        # binary classes 0-4 vs 5-9 of the image's own class
        np.testing.assert_array_equal(src.labels, (classes[src.indices] >= 5).astype(int))
        assert {"image_cf", "image_gflip", "attr_g"} <= set(src.extras)
    a = np.concatenate([s.groups for s in sources.values()])
    y = np.concatenate([s.labels for s in sources.values()])
    g = np.concatenate([s.extras["attr_g"] for s in sources.values()])
    tol = 3 * np.sqrt(0.25 / 500)
    assert abs(np.mean(a == y) - 0.8) < tol and abs(np.mean(g == a) - 0.7) < tol
    # exact pairs: with no noise and no contrast change, the counterfactual is the image
    flat = get_sources("fashion_mnist_b", str(tmp_path), image_size=6, noise_std=0.0,
                       contrast=1.0)
    for src in flat.values():
        np.testing.assert_array_equal(src.extras["image_cf"], src.images)
        np.testing.assert_array_equal(src.images[..., 0], images[src.indices])
    # the counterfactual differs from the image only where A differs: by the noise alone
    train = sources["train"]
    diff = train.extras["image_cf"].astype(int) - train.images.astype(int)
    assert (np.abs(diff).reshape(len(train), -1).max(1) > 0).mean() > 0.9


def test_the_same_construction_over_cifar_batches(tmp_path):
    write_cifar_batches(tmp_path, 20)
    x, y, tx, ty = read_ten_class(str(tmp_path))
    assert x.shape == (100, 32, 32, 3) and tx.shape == (20, 32, 32, 3)
    sources = get_sources("fashion_mnist_b", str(tmp_path), image_size=8)
    assert {s: len(v) for s, v in sources.items()} == {"train": 77, "val": 19, "test": 24}


def test_bad_idx_files_are_one_line_errors(tmp_path):
    make_idx_release(tmp_path, gz=False)
    path = tmp_path / "train-labels-idx1-ubyte"
    data = path.read_bytes()
    path.write_bytes(data[:-3])  # truncated
    with pytest.raises(DataError, match="header announces .* the file holds"):
        read_idx(str(path))
    path.write_bytes(b"\x00\x00\x0d\x01" + data[4:])  # float32 type code
    with pytest.raises(DataError, match="not an IDX file of unsigned bytes"):
        read_idx(str(path))
    write_idx(path, np.full(60, 12, np.uint8))
    with pytest.raises(DataError, match="class 12 outside 0..9"):
        read_idx_release(str(tmp_path))
    write_idx(path, np.zeros(59, np.uint8))
    with pytest.raises(DataError, match="59 labels for 60 images"):
        read_idx_release(str(tmp_path))
    path.write_bytes(data)
    (tmp_path / "t10k-images-idx3-ubyte").unlink()
    with pytest.raises(FileNotFoundError, match="lacks the test IDX files; expected "
                                                "t10k-images-idx3-ubyte"):
        read_idx_release(str(tmp_path))
    with pytest.raises(FileNotFoundError, match="data not found at"):
        get_sources("fashion_mnist_b", str(tmp_path / "absent"))


@pytest.mark.slow
def test_the_real_fashion_mnist_files():
    root = need("fashion_mnist")
    train_x, train_y, test_x, test_y = read_idx_release(root)
    assert train_x.shape == (60000, 28, 28, 3) and test_x.shape == (10000, 28, 28, 3)
    assert np.bincount(train_y).tolist() == [6000] * 10  # the release's balanced classes
    sources = get_sources("fashion_mnist_b", root, image_size=8)
    assert {s: len(v) for s, v in sources.items()} == {"train": 44800, "val": 11200,
                                                       "test": 14000}
