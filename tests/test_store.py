"""The cached array store behind the image loaders, and the CSV source end to end."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

from nhfair_jax.data import DataError, get_source, get_sources
from nhfair_jax.data.store import Table, build_sources, combine_groups, grouped_split


def _images(folder, n, size=(12, 10), seed=0):
    from PIL import Image

    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    names = []
    for i in range(n):
        name = f"img_{i:03d}.png"
        Image.fromarray(rng.integers(0, 255, (*size, 3), dtype=np.uint8)).save(
            os.path.join(folder, name))
        names.append(name)
    return names


def _manifest(tmp_path, n=30, split=False):
    names = _images(tmp_path / "pics", n)
    rows = ["image,label,skin,age" + (",split" if split else "")]
    for i, name in enumerate(names):
        row = f"pics/{name},{'cat' if i % 3 else 'dog'},{'dark' if i % 2 else 'light'},{i % 4}"
        # not i % 3: the split would then follow the label, and training hold one class
        rows.append(row + (f",{('train', 'val', 'test')[(i // 2) % 3]}" if split else ""))
    path = tmp_path / "manifest.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_csv_source_keeps_string_names_and_builds_intersectional_groups(tmp_path):
    path = _manifest(tmp_path)
    sources = get_sources("csv", path, image_size=8, cache_dir=str(tmp_path / "cache"),
                          sensitive=("skin", "age"), progress=False)
    train = sources["train"]
    assert train.class_names == ["cat", "dog"]
    assert train.group_names[:4] == ["dark & 0", "dark & 1", "dark & 2", "dark & 3"]
    assert train.num_groups == 8
    assert {len(s) for s in sources.values()} == {24, 3}
    for source in sources.values():  # labels and groups as written, row by row
        for row in range(len(source)):
            i = int(source.indices[row])
            assert source.class_names[source.labels[row]] == ("cat" if i % 3 else "dog")
            assert source.groups[row] == (1 - i % 2) * 4 + i % 4
    split = get_sources("csv", _manifest(tmp_path / "b", split=True), image_size=8,
                        cache_dir=str(tmp_path / "cache"), sensitive="skin", split_col="split",
                        progress=False)
    assert [len(split[s]) for s in ("train", "val", "test")] == [10, 10, 10]


def test_csv_errors_name_the_column_and_the_value(tmp_path):
    path = _manifest(tmp_path)
    with pytest.raises(DataError, match=r"no column\(s\) \['race'\]"):
        get_sources("csv", path, sensitive="race", cache_dir=str(tmp_path / "c"))
    with pytest.raises(DataError, match="column 'label' has value 'dog'"):
        get_sources("csv", path, sensitive="skin", split_col="label",
                    cache_dir=str(tmp_path / "c"))
    with pytest.raises(FileNotFoundError, match="nothere.csv"):
        get_sources("csv", str(tmp_path / "nothere.csv"), cache_dir=str(tmp_path / "c"))


def _table(paths, **kw):
    n = len(paths)
    return Table(ids=[os.path.basename(p) for p in paths], paths=paths,
                 labels=np.arange(n) % 2, groups=(np.arange(n) // 2) % 2,
                 class_names=["a", "b"], group_names=["g0", "g1"], **kw)


def test_store_is_reused_rebuilt_on_a_changed_key_and_never_read_half_written(tmp_path):
    folder = tmp_path / "imgs"
    paths = [str(folder / n) for n in _images(folder, 20)]
    cache = tmp_path / "cache"
    first = build_sources("toy", _table(paths), split_seed=0, image_size=8, cache_dir=str(cache),
                          progress=False)
    stores = os.listdir(cache)
    assert len(stores) == 1 and not any(".tmp" in s for s in stores)
    # A leftover of a killed build is ignored, and a second load reads the store, not the files.
    os.makedirs(cache / (stores[0] + ".tmp-99999"))
    (cache / (stores[0] + ".tmp-99999") / "images.npy").write_bytes(b"half")
    mtimes = {p: os.path.getmtime(p) for p in paths}
    again = build_sources("toy", _table(paths), split_seed=0, image_size=8, cache_dir=str(cache),
                          progress=False)
    for split in first:
        assert np.array_equal(np.asarray(first[split].images), np.asarray(again[split].images))
    # Another split seed reuses the store; another size, or a replaced image, rebuilds it.
    build_sources("toy", _table(paths), split_seed=3, image_size=8, cache_dir=str(cache),
                  progress=False)
    assert len([s for s in os.listdir(cache) if ".tmp" not in s]) == 1
    build_sources("toy", _table(paths), split_seed=0, image_size=6, cache_dir=str(cache),
                  progress=False)
    _images(folder, 1, seed=5)  # rewrites img_000.png
    os.utime(paths[0], ns=(0, int(mtimes[paths[0]] * 1e9) + 10**9))
    build_sources("toy", _table(paths), split_seed=0, image_size=8, cache_dir=str(cache),
                  progress=False)
    assert len([s for s in os.listdir(cache) if ".tmp" not in s]) == 3


def test_a_failed_build_leaves_no_store_and_skip_mode_counts_and_warns(tmp_path):
    folder = tmp_path / "imgs"
    paths = [str(folder / n) for n in _images(folder, 12)]
    with open(paths[4], "r+b") as f:  # truncated: the header survives, the pixels do not
        f.truncate(60)
    cache = tmp_path / "cache"
    with pytest.raises(DataError, match="img_004.png"):
        build_sources("toy", _table(paths), split_seed=0, image_size=8, cache_dir=str(cache),
                      progress=False)
    assert os.listdir(cache) == []  # nothing half-written is left to be read later
    with pytest.warns(UserWarning, match="unreadable images skipped: 1"):
        sources = build_sources("toy", _table(paths), split_seed=0, image_size=8,
                                cache_dir=str(cache), on_bad_image="skip", progress=False)
    assert sum(len(s) for s in sources.values()) == 11
    assert sources["train"].skipped == [paths[4]]
    assert 4 not in np.concatenate([s.indices for s in sources.values()])
    # The store remembers the unreadable file: asking for errors again still reports it.
    with pytest.raises(DataError, match="img_004.png"):
        build_sources("toy", _table(paths), split_seed=0, image_size=8, cache_dir=str(cache),
                      progress=False)


def test_grouped_split_keeps_groups_together_and_does_not_depend_on_row_order():
    keys = np.repeat([f"lesion{i}" for i in range(40)], 3)
    parts = grouped_split(keys, "toy", 0)
    seen = {s: set(keys[rows]) for s, rows in parts.items()}
    assert not (seen["train"] & seen["val"]) and not (seen["train"] & seen["test"])
    assert sum(len(r) for r in parts.values()) == len(keys)
    shuffled = np.random.default_rng(1).permutation(keys)
    again = grouped_split(shuffled, "toy", 0)
    assert {s: set(shuffled[r]) for s, r in again.items()} == seen


def test_combined_groups_are_mixed_radix_first_attribute_major():
    groups, names = combine_groups([np.array([0, 1, 1]), np.array([2, 0, 1])],
                                   [["a", "b"], ["x", "y", "z"]])
    assert groups.tolist() == [2, 3, 4]
    assert names == ["a & x", "a & y", "a & z", "b & x", "b & y", "b & z"]


def test_pair_data_sets_have_a_test_split_only(tmp_path):
    names = _images(tmp_path / "cf", 6)
    rows = ["original,counterfactual,target,sensitive"]
    rows += [f"cf/{names[i]},cf/{names[i + 3]},{i % 2},{(i + 1) % 2}" for i in range(3)]
    (tmp_path / "pairs.csv").write_text("\n".join(rows) + "\n")
    test = get_source("celeba_cf", str(tmp_path), "test", image_size=8,
                      cache_dir=str(tmp_path / "cache"), progress=False)
    assert len(test) == 3 and test[0]["image_cf"].shape == (8, 8, 3)
    assert not np.array_equal(test[0]["image"], test[0]["image_cf"])
    with pytest.raises(DataError, match="only the split"):
        get_source("celeba_cf", str(tmp_path), "train", image_size=8,
                   cache_dir=str(tmp_path / "cache"), progress=False)


@pytest.mark.slow
def test_training_runs_on_a_csv_data_set(tmp_path):
    from nhfair_jax.dispatch import run
    from tests.helpers import tiny_config

    path = _manifest(tmp_path, n=80)
    cfg = tiny_config(**{"data.name": "csv", "data.root": path, "data.sensitive": "skin",
                         "data.image_size": 16, "data.cache_dir": str(tmp_path / "cache"),
                         "train.epochs": 1, "train.batch_size": 16,
                         "train.eval_batch_size": 16})
    cfg.data.options = {}  # DigitsB's skew and alpha are not options of the CSV source
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = run(cfg, str(tmp_path / "run"))
    assert result["dataset"] == "csv" and result["class_names"] == ["cat", "dog"]
    assert result["group_names"] == ["dark", "light"] and result["split_sizes"]["train"] == 64
