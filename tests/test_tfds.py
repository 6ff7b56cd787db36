"""TFDS as an alternative source (celeb_a, cifar10), read with tfds.data_source under
tfds.testing.mock_data: no TensorFlow and no download needed."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import need

tfds = need("tfds")

from nhfair_jax.data import DataError, get_sources  # noqa: E402


def _mock(n):
    return tfds.testing.mock_data(num_examples=n, policy=tfds.testing.MockPolicy.USE_CODE)


@pytest.mark.slow
def test_celeba_from_tfds_reads_attributes_by_name_and_the_official_partition(tmp_path):
    with _mock(10):
        src = tfds.data_source("celeb_a", split="train")
        expected = [int(bool(src[i]["attributes"]["Smiling"])) for i in range(10)]
        kw = dict(image_size=16, cache_dir=str(tmp_path / "cache"), progress=False)
        official = get_sources("celeba_tfds", str(tmp_path), target="Smiling",
                               sensitive="Male,Young", partition="official", **kw)
        random = get_sources("celeba_tfds", str(tmp_path), **kw)
        with pytest.raises(DataError, match="unknown attribute 'Smile'"):
            get_sources("celeba_tfds", str(tmp_path), target="Smile", **kw)
    train = official["train"]
    assert [len(official[s]) for s in ("train", "val", "test")] == [10, 10, 10]
    assert train.labels.tolist() == expected  # ids sort train rows in TFDS order
    assert train.num_groups == 4 and train[0]["image"].shape == (16, 16, 3)
    assert [len(random[s]) for s in ("train", "val", "test")] == [24, 3, 3]
    assert random["train"].class_names == ["not_Wavy_Hair", "Wavy_Hair"]


def test_cifar10b_from_tfds_follows_the_cifar10b_construction(tmp_path):
    with _mock(20):
        sources = get_sources("cifar10b_tfds", str(tmp_path), image_size=16, skew=1.0,
                              alpha=1.0)
    train = sources["train"]
    # The counterfactual paper's CIFAR-10B split: 64:16:20 of the pooled 40 images
    assert (len(train), len(sources["val"]), len(sources["test"])) == (26, 6, 8)
    assert np.array_equal(train.groups, train.labels)  # skew 1: A = Y
    assert train.images.shape[1:] == (16, 16, 3)
