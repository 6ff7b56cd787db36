"""Independent tests of the official-layout loaders (data/README.md), on miniatures.

Every miniature image has its own colour (tests/miniatures.py), so each loaded example is traced
back to the row written for it, and labels, groups, splits, drops and crops are checked exactly.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from miniatures import (CELEBA_ATTRIBUTES, FAIRFACE_RACES, MAKERS, UTK_BAD_NAMES,  # noqa: E402
                        corrupt, identify, make_fitz17k, make_pairs, make_utkface, snapshot)
from nhfair_jax.data import DataError, get_source, get_sources  # noqa: E402

SIZE = 16
ALL = ["celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "waterbirds", "csv",
       "celeba_cf", "lfw_cf"]
PAIRS = ["celeba_cf", "lfw_cf"]
# Data sets whose default split is random (not an official column).
RANDOM_SPLIT = ["celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k", "csv"]
# Ungrouped random 8:1:1: exact sizes n_train = round(0.8 n), n_val = round(0.1 n).
UNGROUPED = ["celeba", "utkface", "fairface", "fitz17k", "csv"]


def build(name, tmp_path, sub="data", **kw):
    folder = str(tmp_path / sub / name)
    if name == "fitz17k":
        kw.setdefault("n_unknown_scale", 0)
    return MAKERS[name](folder, **kw)


def load(name, mini, tmp_path, cache="cache", **kw):
    kw.setdefault("image_size", SIZE)
    if name == "facet":  # each person's crop is one colour, so identify() traces it
        kw.setdefault("crop", True)
    return get_sources(name, mini.root, cache_dir=str(tmp_path / cache), **kw)


def members(sources, mini):
    return {s: identify(src.images, mini) for s, src in sources.items()}


def colours(examples):
    return sorted(e.colour for e in examples)


def expected_sizes(n):
    n_train, n_val = int(round(0.8 * n)), int(round(0.1 * n))
    return {"train": n_train, "val": n_val, "test": n - n_train - n_val}


def assert_exact(sources, mini, label=lambda e: e.label, group=lambda e: e.group):
    """Every kept example exactly once, none of the dropped ones, with the expected label/group."""
    found = []
    for split, src in sources.items():
        exs = identify(src.images, mini)
        for i, e in enumerate(exs):
            assert e.kept, f"{split}: {e.file} should have been dropped"
            assert int(src.labels[i]) == label(e), (split, e.file, e.attrs)
            assert int(src.groups[i]) == group(e), (split, e.file, e.attrs)
        found += exs
    assert colours(found) == colours(mini.kept), "splits must cover every kept example exactly once"
    ids = np.concatenate([src.indices for src in sources.values()])
    assert len(set(ids.tolist())) == len(ids), "index must be unique across the data set"


# ----------------------------------------------------------------------------------------------
# The record contract, on every data set


def test_data_error_is_a_value_error():
    assert issubclass(DataError, ValueError)


@pytest.mark.parametrize("name", ALL)
def test_record_contract(name, tmp_path):
    mini = build(name, tmp_path)
    sources = load(name, mini, tmp_path)
    assert set(sources) == ({"test"} if name in PAIRS else {"train", "val", "test"})
    for split, src in sources.items():
        assert len(src) > 0, split
        assert src.images.dtype == np.uint8 and src.images.shape == (len(src), SIZE, SIZE, 3)
        assert len(src.labels) == len(src.groups) == len(src.indices) == len(src)
        rec = src[0]
        assert set(rec) >= {"image", "label", "group", "index"}
        assert rec["image"].dtype == np.uint8 and rec["image"].shape == (SIZE, SIZE, 3)
        np.testing.assert_array_equal(rec["image"], src.images[0])
        assert int(rec["label"]) == int(src.labels[0]) and int(rec["group"]) == int(src.groups[0])
        assert int(rec["index"]) == int(src.indices[0])
        assert 0 <= src.labels.min() and src.labels.max() < src.num_classes
        assert 0 <= src.groups.min() and src.groups.max() < src.num_groups
        assert src.num_classes == len(src.class_names) and src.num_groups == len(src.group_names)
        if name in PAIRS:
            assert rec["image_cf"].dtype == np.uint8 and rec["image_cf"].shape == (SIZE, SIZE, 3)


@pytest.mark.parametrize("name", ALL)
def test_labels_groups_and_coverage_are_exact(name, tmp_path):
    mini = build(name, tmp_path)
    sources = load(name, mini, tmp_path)
    assert_exact(sources, mini)
    src = next(iter(sources.values()))
    if name != "fairface":
        assert src.num_classes == 2
    assert src.num_groups == 2


@pytest.mark.parametrize("name", ALL)
def test_loading_writes_nothing_into_the_data_folder(name, tmp_path):
    mini = build(name, tmp_path)
    before = snapshot(mini.folder)
    load(name, mini, tmp_path)
    load(name, mini, tmp_path)  # the cached path as well
    assert snapshot(mini.folder) == before


def test_default_cache_location_is_not_the_data_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.delenv("NHFAIR_CACHE", raising=False)
    mini = build("utkface", tmp_path)
    before = snapshot(mini.folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sources = get_sources("utkface", mini.root, image_size=SIZE, split_seed=12345)
    assert snapshot(mini.folder) == before
    assert sum(len(s) for s in sources.values()) == len(mini.kept)


@pytest.mark.parametrize("name", ["celeba", "fairface", "waterbirds", "celeba_cf"])
def test_get_source_is_the_matching_split_of_get_sources(name, tmp_path):
    mini = build(name, tmp_path)
    sources = load(name, mini, tmp_path)
    for split, src in sources.items():
        one = get_source(name, mini.root, split, image_size=SIZE, cache_dir=str(tmp_path / "c2"))
        np.testing.assert_array_equal(one.indices, src.indices)
        np.testing.assert_array_equal(one.labels, src.labels)
        np.testing.assert_array_equal(one.groups, src.groups)
        np.testing.assert_array_equal(one.images, src.images)


# ----------------------------------------------------------------------------------------------
# Splits


@pytest.mark.parametrize("name", UNGROUPED)
def test_random_split_sizes_are_8_1_1(name, tmp_path):
    mini = build(name, tmp_path)
    sources = load(name, mini, tmp_path)
    assert {s: len(src) for s, src in sources.items()} == expected_sizes(len(mini.kept))


@pytest.mark.parametrize("name", ["facet", "ham10000"])
def test_grouped_split_keeps_each_group_in_one_split(name, tmp_path):
    mini = build(name, tmp_path)
    sources = load(name, mini, tmp_path)
    where = {}
    for split, exs in members(sources, mini).items():
        for e in exs:
            first = where.setdefault(e.key, split)
            assert first == split, f"{e.key} is in {first} and {split}"
    assert set(where) == {e.key for e in mini.kept}
    n_keys = len(set(where))
    assert n_keys >= 10
    per_split = {s: sum(1 for v in where.values() if v == s) for s in ("train", "val", "test")}
    assert per_split["val"] >= 1 and per_split["test"] >= 1, per_split
    assert per_split["train"] > per_split["val"] + per_split["test"], per_split


@pytest.mark.parametrize("name", RANDOM_SPLIT)
def test_split_is_independent_of_file_and_row_order(name, tmp_path):
    a = build(name, tmp_path, sub="a", order_seed=1)
    b = build(name, tmp_path, sub="b", order_seed=2)
    sa, sb = load(name, a, tmp_path, cache="ca"), load(name, b, tmp_path, cache="cb")
    ma, mb = members(sa, a), members(sb, b)
    for split in ("train", "val", "test"):
        assert colours(ma[split]) == colours(mb[split]), split


@pytest.mark.parametrize("name", ["celeba", "utkface"])
def test_index_is_stable_when_only_file_creation_order_differs(name, tmp_path):
    a = build(name, tmp_path, sub="a", order_seed=1)
    b = build(name, tmp_path, sub="b", order_seed=2)
    sa, sb = load(name, a, tmp_path, cache="ca"), load(name, b, tmp_path, cache="cb")

    def index_of(sources, mini):
        out = {}
        for split, src in sources.items():
            for e, idx in zip(identify(src.images, mini), src.indices):
                out[e.colour] = int(idx)
        return out

    assert index_of(sa, a) == index_of(sb, b)


@pytest.mark.parametrize("name", RANDOM_SPLIT)
def test_split_seed_is_deterministic_and_changes_the_split(name, tmp_path):
    mini = build(name, tmp_path)
    # One cache folder for all three loads: split_seed must be part of the cache key.
    s0 = load(name, mini, tmp_path, split_seed=0)
    s1 = load(name, mini, tmp_path, split_seed=1)
    s0_again = load(name, mini, tmp_path, split_seed=0)
    s0_fresh = load(name, mini, tmp_path, cache="other", split_seed=0)
    m0, m1 = members(s0, mini), members(s1, mini)
    for other in (s0_again, s0_fresh):
        mo = members(other, mini)
        for split in s0:
            assert colours(mo[split]) == colours(m0[split])
            np.testing.assert_array_equal(other[split].indices, s0[split].indices)
    assert any(colours(m0[s]) != colours(m1[s]) for s in s0)
    assert_exact(s1, mini)


@pytest.mark.parametrize("name", ["utkface", "fairface", "ham10000"])
def test_split_ignores_the_global_rng(name, tmp_path):
    mini = build(name, tmp_path)
    np.random.seed(1)
    random.seed(1)
    np_state, py_state = np.random.get_state(), random.getstate()
    s1 = load(name, mini, tmp_path, cache="c1")
    after = np.random.get_state()
    assert all(np.array_equal(x, y) for x, y in zip(np_state, after)), "global numpy RNG used"
    assert random.getstate() == py_state, "global python RNG used"
    np.random.seed(99)
    random.seed(99)
    s2 = load(name, mini, tmp_path, cache="c2")
    for split in s1:
        assert colours(identify(s1[split].images, mini)) == colours(
            identify(s2[split].images, mini))


@pytest.mark.parametrize("name,kw", [("waterbirds", {}), ("celeba", {"partition": "official"}),
                                     ("csv", {"split_col": "fold"})])
def test_official_split_column_is_used(name, kw, tmp_path):
    mini = build(name, tmp_path)
    sources = load(name, mini, tmp_path, **kw)
    for split, exs in members(sources, mini).items():
        wrong = [e.file for e in exs if e.split != split]
        assert not wrong, (split, wrong)
    assert {s: len(src) for s, src in sources.items()} == {
        s: sum(e.split == s for e in mini.examples) for s in ("train", "val", "test")}
    assert_exact(sources, mini)


# ----------------------------------------------------------------------------------------------
# Cache


def _cache_files(folder):
    return [os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs]


def test_second_load_is_identical_and_decodes_no_image(tmp_path, monkeypatch):
    mini = build("celeba", tmp_path)
    first = load("celeba", mini, tmp_path)
    assert _cache_files(tmp_path / "cache"), "nothing was cached under cache_dir"

    import PIL.Image

    def no_decoding(*a, **k):
        raise AssertionError("the second load decoded an image instead of reading the cache")

    monkeypatch.setattr(PIL.Image, "open", no_decoding)
    second = load("celeba", mini, tmp_path)
    for split in first:
        np.testing.assert_array_equal(second[split].images, first[split].images)
        np.testing.assert_array_equal(second[split].labels, first[split].labels)
        np.testing.assert_array_equal(second[split].groups, first[split].groups)
        np.testing.assert_array_equal(second[split].indices, first[split].indices)


def test_changing_image_size_rebuilds(tmp_path):
    mini = build("fairface", tmp_path)
    small = load("fairface", mini, tmp_path, image_size=16)
    big = load("fairface", mini, tmp_path, image_size=24)
    again = load("fairface", mini, tmp_path, image_size=16)
    for split in small:
        assert big[split].images.shape[1:] == (24, 24, 3)
        assert small[split].images.shape[1:] == (16, 16, 3)
        np.testing.assert_array_equal(again[split].images, small[split].images)
        np.testing.assert_array_equal(big[split].indices, small[split].indices)
    assert_exact(big, mini)


def test_changing_target_or_sensitive_with_the_same_cache_changes_labels(tmp_path):
    mini = build("celeba", tmp_path)
    load("celeba", mini, tmp_path)
    other = load("celeba", mini, tmp_path, target="Smiling", sensitive="Young")
    assert_exact(other, mini, label=lambda e: int(e.attrs["Smiling"] == 1),
                 group=lambda e: int(e.attrs["Young"] == 1))


def test_leftover_temp_files_in_the_cache_are_never_used(tmp_path):
    mini = build("utkface", tmp_path)
    reference = load("utkface", mini, tmp_path, cache="ref")
    # Simulate an interrupted write: for every entry a complete store would have, leave only a
    # half-written temp copy of it in a fresh cache folder.
    ref, broken = tmp_path / "ref", tmp_path / "broken"
    broken.mkdir()
    for entry in os.listdir(ref):
        src = ref / entry
        if src.is_dir():
            for suffix in (".tmp", ".tmp-99999", ".tmp.1a2b"):
                dst = broken / (entry + suffix)
                shutil.copytree(src, dst)
                for f in _cache_files(dst):
                    data = open(f, "rb").read()
                    open(f, "wb").write(data[: len(data) // 2])
        else:
            data = open(src, "rb").read()
            for name in (entry + ".tmp", entry + ".tmp.4242", "tmp" + entry + ".tmp"):
                (broken / name).write_bytes(data[: len(data) // 2])
    (broken / "store.tmp12345").write_bytes(b"\x00" * 100)
    again = load("utkface", mini, tmp_path, cache="broken")
    for split in reference:
        np.testing.assert_array_equal(again[split].images, reference[split].images)
        np.testing.assert_array_equal(again[split].labels, reference[split].labels)
        np.testing.assert_array_equal(again[split].indices, reference[split].indices)


# ----------------------------------------------------------------------------------------------
# Missing files and bad content

MAIN_FILE = {
    "celeba": "list_attr_celeba.txt",
    "fairface": "fairface_label_train.csv",
    "facet": os.path.join("annotations", "annotations.csv"),
    "ham10000": "HAM10000_metadata.csv",
    "fitz17k": "fitzpatrick17k.csv",
    "waterbirds": "metadata.csv",
    "celeba_cf": "pairs.csv",
    "lfw_cf": "pairs.csv",
}


@pytest.mark.parametrize("name", ALL)
def test_missing_root_names_the_path(name, tmp_path):
    missing = str(tmp_path / "nowhere" / ("manifest.csv" if name == "csv" else name))
    with pytest.raises(FileNotFoundError, match=re.escape(missing)):
        get_sources(name, missing, image_size=SIZE, cache_dir=str(tmp_path / "cache"))


@pytest.mark.parametrize("name", sorted(MAIN_FILE))
def test_missing_metadata_file_names_it(name, tmp_path):
    mini = build(name, tmp_path)
    missing = os.path.join(mini.folder, MAIN_FILE[name])
    os.remove(missing)
    with pytest.raises(FileNotFoundError, match=re.escape(missing)):
        load(name, mini, tmp_path)


def test_celeba_missing_image_folder_names_it(tmp_path):
    mini = build("celeba", tmp_path)
    shutil.rmtree(os.path.join(mini.folder, "img_align_celeba"))
    with pytest.raises(FileNotFoundError, match="img_align_celeba"):
        load("celeba", mini, tmp_path)


def test_celeba_official_partition_needs_the_partition_file(tmp_path):
    mini = build("celeba", tmp_path)
    os.remove(os.path.join(mini.folder, "list_eval_partition.txt"))
    with pytest.raises(FileNotFoundError, match="list_eval_partition.txt"):
        load("celeba", mini, tmp_path, partition="official")


def test_utkface_missing_image_folder_names_it(tmp_path):
    root = tmp_path / "data" / "utkface"
    root.mkdir(parents=True)
    with pytest.raises(FileNotFoundError, match="UTKFace"):
        get_sources("utkface", str(root), image_size=SIZE, cache_dir=str(tmp_path / "cache"))


def test_celeba_missing_single_image_names_the_file(tmp_path):
    mini = build("celeba", tmp_path)
    os.remove(os.path.join(mini.folder, mini.examples[7].file))
    with pytest.raises((FileNotFoundError, DataError), match="000008.jpg"):
        load("celeba", mini, tmp_path)


@pytest.mark.parametrize("name,csv_file,column", [
    ("fairface", "fairface_label_train.csv", "race"),
    ("facet", os.path.join("annotations", "annotations.csv"), "visible_face"),
    ("ham10000", "HAM10000_metadata.csv", "dx"),
    ("fitz17k", "fitzpatrick17k.csv", "three_partition_label"),
    ("waterbirds", "metadata.csv", "place"),
    ("celeba_cf", "pairs.csv", "counterfactual"),
    ("csv", "manifest.csv", "label"),
])
def test_missing_column_is_a_data_error_naming_it(name, csv_file, column, tmp_path):
    mini = build(name, tmp_path)
    path = os.path.join(mini.folder, csv_file)
    pd.read_csv(path).drop(columns=[column]).to_csv(path, index=False)
    with pytest.raises(DataError, match=re.escape(column)):
        load(name, mini, tmp_path)


@pytest.mark.parametrize("kw", [{"target": "Purple_Hair"}, {"sensitive": "Purple_Hair"}])
def test_celeba_unknown_attribute_is_a_data_error_naming_it(kw, tmp_path):
    mini = build("celeba", tmp_path)
    with pytest.raises(DataError, match="Purple_Hair"):
        load("celeba", mini, tmp_path, **kw)


def _set_csv_value(path, row, column, value):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df.loc[row, column] = value
    df.to_csv(path, index=False)


def _celeba_zero(mini):
    path = os.path.join(mini.folder, "list_attr_celeba.txt")
    lines = open(path).read().splitlines()
    lines[5] = lines[5][:-2] + " 0"   # last attribute (Young) of the fourth row
    open(path, "w").write("\n".join(lines) + "\n")


BAD_VALUES = {
    # name: (edit the miniature, file the message must name, value the message must name)
    "celeba": (_celeba_zero, "list_attr_celeba.txt", "0"),
    "fairface_race": (lambda m: _set_csv_value(os.path.join(m.folder, "fairface_label_train.csv"),
                                               3, "race", "Martian"),
                      "fairface_label_train.csv", "Martian"),
    "fairface_gender": (lambda m: _set_csv_value(os.path.join(m.folder, "fairface_label_val.csv"),
                                                 2, "gender", "Unknown"),
                        "fairface_label_val.csv", "Unknown"),
    "fitz17k": (lambda m: _set_csv_value(os.path.join(m.folder, "fitzpatrick17k.csv"), 4,
                                         "three_partition_label", "semi-malignant"),
                "fitzpatrick17k.csv", "semi-malignant"),
    "celeba_cf": (lambda m: _set_csv_value(os.path.join(m.folder, "pairs.csv"), 1, "target", "7"),
                  "pairs.csv", "7"),
    "lfw_cf": (lambda m: _set_csv_value(os.path.join(m.folder, "pairs.csv"), 2, "sensitive",
                                        "-3"), "pairs.csv", "-3"),
}


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
def test_value_outside_the_documented_set_is_a_data_error_naming_file_and_value(case, tmp_path):
    name = case.split("_")[0] if case.startswith("fairface") else case
    mini = build(name, tmp_path)
    edit, file_name, value = BAD_VALUES[case]
    edit(mini)
    with pytest.raises(DataError) as info:
        load(name, mini, tmp_path)
    assert file_name in str(info.value) and value in str(info.value), str(info.value)


def test_csv_unknown_target_column_is_a_data_error_naming_it(tmp_path):
    mini = build("csv", tmp_path)
    with pytest.raises(DataError, match="diagnosis"):
        load("csv", mini, tmp_path, target="diagnosis")


@pytest.mark.parametrize("name,kind", [("celeba", "truncated"), ("fairface", "garbage"),
                                       ("csv", "truncated")])
def test_unreadable_image_is_a_data_error_naming_the_file(name, kind, tmp_path):
    mini = build(name, tmp_path)
    bad = mini.examples[5]
    corrupt(os.path.join(mini.folder, bad.file), kind)
    with pytest.raises(DataError, match=re.escape(os.path.basename(bad.file))):
        load(name, mini, tmp_path)


@pytest.mark.parametrize("name,kind", [("celeba", "truncated"), ("fairface", "garbage"),
                                       ("waterbirds", "truncated")])
def test_unreadable_image_skipped_when_asked_is_counted_and_reported(name, kind, tmp_path):
    mini = build(name, tmp_path)
    bad = mini.examples[5]
    corrupt(os.path.join(mini.folder, bad.file), kind)
    with pytest.warns(Warning) as record:
        sources = load(name, mini, tmp_path, on_bad_image="skip")
    assert any(os.path.basename(bad.file) in str(w.message) or re.search(r"\b1\b", str(w.message))
               for w in record), [str(w.message) for w in record]
    skipped = [list(src.skipped) for src in sources.values()]
    assert all(s == skipped[0] for s in skipped), "each split must carry the same skipped list"
    assert len(skipped[0]) == 1 and str(skipped[0][0]).endswith(os.path.basename(bad.file))
    bad.kept = False
    assert_exact(sources, mini)


# ----------------------------------------------------------------------------------------------
# Per data set


def test_celeba_other_attributes_by_name(tmp_path):
    mini = build("celeba", tmp_path)
    for target, sensitive in (("Smiling", "Young"), ("Blond_Hair", "Eyeglasses"),
                              ("5_o_Clock_Shadow", "Male")):
        sources = load("celeba", mini, tmp_path, cache=f"c_{target}",
                       target=target, sensitive=sensitive)
        assert_exact(sources, mini, label=lambda e: int(e.attrs[target] == 1),
                     group=lambda e: int(e.attrs[sensitive] == 1))


def test_celeba_intersectional_groups_first_attribute_most_significant(tmp_path):
    mini = build("celeba", tmp_path)
    sources = load("celeba", mini, tmp_path, sensitive=("Male", "Young"))
    assert all(src.num_groups == 4 and len(src.group_names) == 4 for src in sources.values())
    assert_exact(sources, mini, group=lambda e: 2 * int(e.attrs["Male"] == 1)
                 + int(e.attrs["Young"] == 1))


def test_celeba_header_has_the_forty_names(tmp_path):
    # Sanity of the miniature itself: the loader is fed the real header.
    mini = build("celeba", tmp_path)
    header = open(os.path.join(mini.folder, "list_attr_celeba.txt")).read().splitlines()[1].split()
    assert header == CELEBA_ATTRIBUTES


def test_utkface_unparsable_names_are_skipped_and_counted(tmp_path):
    mini = build("utkface", tmp_path)
    with pytest.warns(UserWarning) as record:
        sources = load("utkface", mini, tmp_path)
    n_bad_jpg = len(UTK_BAD_NAMES)  # 3 .jpg names that do not parse, plus notes.txt
    assert any(re.search(rf"\b({n_bad_jpg}|{n_bad_jpg + 1})\b", str(w.message)) for w in record), \
        [str(w.message) for w in record]
    assert_exact(sources, mini)
    assert {s: len(src) for s, src in sources.items()} == expected_sizes(len(mini.kept))


@pytest.mark.parametrize("sensitive,group", [
    ("age", lambda e: int(e.attrs["age"] >= 60)),
    (("race", "age"), lambda e: 2 * int(e.attrs["race"] != 0) + int(e.attrs["age"] >= 60)),
])
def test_utkface_age_and_intersectional_groups(sensitive, group, tmp_path):
    mini = build("utkface", tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sources = load("utkface", mini, tmp_path, sensitive=sensitive)
    n_groups = 4 if isinstance(sensitive, tuple) else 2
    assert all(src.num_groups == n_groups for src in sources.values())
    assert_exact(sources, mini, group=group)


def test_utkface_in_the_wild_folder(tmp_path):
    mini = make_utkface(str(tmp_path / "data" / "utkface"), folder="UTKface_inthewild",
                        bad_names=False)
    assert_exact(load("utkface", mini, tmp_path), mini)


def test_fairface_class_names_and_groups(tmp_path):
    mini = build("fairface", tmp_path)
    sources = load("fairface", mini, tmp_path)
    for src in sources.values():
        assert src.class_names == FAIRFACE_RACES
        assert src.num_classes == 7 and src.num_groups == 2
    labels = np.concatenate([s.labels for s in sources.values()])
    assert set(labels.tolist()) == set(range(7))


def test_fairface_default_split_mixes_both_csvs(tmp_path):
    mini = build("fairface", tmp_path)
    sources = load("fairface", mini, tmp_path)
    # 24 train-csv rows + 6 val-csv rows split 24/3/3 at random: the official val csv is not the
    # val split (that would be 24/6/0).
    assert {s: len(src) for s, src in sources.items()} == {"train": 24, "val": 3, "test": 3}


def test_facet_reads_whole_images_by_default():
    """The benchmark's code reads FACET's whole images (no person crop)."""
    import inspect

    from nhfair_jax.data.loaders.facet import load_facet

    assert inspect.signature(load_facet).parameters["crop"].default is False


def test_facet_whole_images_repeat_for_every_person_of_a_file(tmp_path):
    """One record per kept person, each holding its file's whole image: as many distinct images
    as files (several persons share one), unlike the crops."""
    mini = build("facet", tmp_path)
    whole = load("facet", mini, tmp_path, cache="whole", crop=False)
    cropped = load("facet", mini, tmp_path, cache="crop")
    files = {e.file for e in mini.kept}
    assert len(files) < len(mini.kept)  # the miniature has files with several persons
    distinct = lambda sources: len({im.tobytes() for s in sources.values()  # noqa: E731
                                    for im in s.images})
    assert sum(len(s) for s in whole.values()) == len(mini.kept)
    assert distinct(whole) == len(files) and distinct(cropped) == len(mini.kept)


def test_facet_drops_neither_and_both_and_crops_each_person(tmp_path):
    mini = build("facet", tmp_path)
    assert len(mini.kept) < len(mini.examples)  # the miniature holds rows to drop
    sources = load("facet", mini, tmp_path)
    # identify() matches the box colour of each person: the crop must be that person's box.
    assert_exact(sources, mini)
    seen = {int(i) for s in sources.values() for i in s.indices}
    assert len(seen) == len(mini.kept)


def test_ham10000_defaults_and_drops(tmp_path):
    mini = build("ham10000", tmp_path)
    assert len(mini.kept) < len(mini.examples)
    sources = load("ham10000", mini, tmp_path)
    assert_exact(sources, mini)
    files = {e.file.split("/")[0] for e in mini.kept}
    assert files == {"HAM10000_images_part_1", "HAM10000_images_part_2"}


def test_ham10000_include_bcc(tmp_path):
    mini = build("ham10000", tmp_path)
    sources = load("ham10000", mini, tmp_path, include_bcc=True)
    assert_exact(sources, mini, label=lambda e: int(e.attrs["dx"] in ("mel", "akiec", "bcc")))


def test_ham10000_sex_and_sex_by_age(tmp_path):
    mini = build("ham10000", tmp_path)
    by_sex = load("ham10000", mini, tmp_path, sensitive="sex")
    mapping = {}
    for split, exs in members(by_sex, mini).items():
        for e, g in zip(exs, by_sex[split].groups):
            assert mapping.setdefault(e.attrs["sex"], int(g)) == int(g), "sex must fix the group"
    assert sorted(mapping.values()) == [0, 1] and set(mapping) == {"male", "female"}
    both = load("ham10000", mini, tmp_path, sensitive=("sex", "age"))
    assert all(src.num_groups == 4 for src in both.values())
    assert_exact(both, mini,
                 group=lambda e: 2 * mapping[e.attrs["sex"]] + int(e.attrs["age"] > 60))  # old: over 60


def test_fitz17k_drops_unknown_skin_type(tmp_path):
    mini = make_fitz17k(str(tmp_path / "data" / "fitz17k"), n_unknown_scale=3)
    assert len(mini.kept) == len(mini.examples) - 3
    sources = load("fitz17k", mini, tmp_path)
    assert_exact(sources, mini)


def test_fitz17k_missing_images_are_reported_and_dropped(tmp_path):
    mini = make_fitz17k(str(tmp_path / "data" / "fitz17k"), n_unknown_scale=0,
                        n_missing_images=3)
    with pytest.warns(UserWarning) as record:
        sources = load("fitz17k", mini, tmp_path)
    assert any(re.search(r"\b3\b", str(w.message)) for w in record), \
        [str(w.message) for w in record]
    assert_exact(sources, mini)


def test_fitz17k_six_skin_types(tmp_path):
    mini = build("fitz17k", tmp_path)
    sources = load("fitz17k", mini, tmp_path, sensitive="skin6")
    mapping = {}
    for split, exs in members(sources, mini).items():
        assert sources[split].num_groups == 6
        for e, g in zip(exs, sources[split].groups):
            assert mapping.setdefault(e.attrs["scale"], int(g)) == int(g)
    assert set(mapping) == set(range(1, 7)) and sorted(mapping.values()) == list(range(6))


def test_waterbirds_place_y_groups(tmp_path):
    mini = build("waterbirds", tmp_path)
    sources = load("waterbirds", mini, tmp_path, sensitive="place_y")
    mapping = {}
    for split, exs in members(sources, mini).items():
        assert sources[split].num_groups == 4
        for e, g in zip(exs, sources[split].groups):
            key = (e.attrs["place"], e.attrs["y"])
            assert mapping.setdefault(key, int(g)) == int(g)
    assert sorted(mapping.values()) == [0, 1, 2, 3]


@pytest.mark.parametrize("name", PAIRS)
def test_pairs_are_test_only_with_the_counterfactual_image(name, tmp_path):
    mini = make_pairs(str(tmp_path / "data" / name))
    sources = load(name, mini, tmp_path)
    assert list(sources) == ["test"]
    src = sources["test"]
    assert len(src) == len(mini.examples)
    originals = identify(src.images, mini)
    cfs = identify(np.stack([src[i]["image_cf"] for i in range(len(src))]), mini, "colour_cf")
    assert [e.colour for e in originals] == [e.colour for e in cfs]  # each row keeps its pair
    assert_exact(sources, mini)
    with pytest.raises(DataError, match="test"):
        get_source(name, mini.root, "train", image_size=SIZE, cache_dir=str(tmp_path / "cache"))


def test_csv_string_values_keep_sorted_names(tmp_path):
    mini = build("csv", tmp_path)
    sources = load("csv", mini, tmp_path)
    for src in sources.values():
        assert src.class_names == ["cat", "dog"] and src.group_names == ["F", "M"]
    other = load("csv", mini, tmp_path, target="age_bin", image_col="path2")
    for src in other.values():
        assert src.class_names == ["mid", "old", "young"]
    assert_exact(other, mini, label=lambda e: ["mid", "old", "young"].index(e.attrs["age_bin"]))


def test_csv_intersectional_groups(tmp_path):
    mini = build("csv", tmp_path)
    sources = load("csv", mini, tmp_path, sensitive=("sensitive", "age_bin"))
    for src in sources.values():
        assert src.num_groups == 6 and len(src.group_names) == 6
    ages = ["mid", "old", "young"]
    assert_exact(sources, mini, group=lambda e: ["F", "M"].index(e.attrs["sensitive"]) * 3
                 + ages.index(e.attrs["age_bin"]))


def test_csv_paths_are_relative_to_the_manifest_folder(tmp_path, monkeypatch):
    mini = build("csv", tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    relative = os.path.relpath(mini.root, elsewhere)   # ../data/csv/manifest.csv
    sources = get_sources("csv", relative, image_size=SIZE, cache_dir=str(tmp_path / "cache"))
    assert_exact(sources, mini)


def test_images_behave_as_an_array(tmp_path):
    mini = build("fairface", tmp_path)
    src = load("fairface", mini, tmp_path)["train"]
    stacked = np.stack([src[i]["image"] for i in range(len(src))])
    full = np.asarray(src.images)
    assert full.dtype == np.uint8 and full.shape == (len(src), SIZE, SIZE, 3)
    np.testing.assert_array_equal(full, stacked)
    rows = np.array([5, 0, 17, 3, 3])
    np.testing.assert_array_equal(np.asarray(src.images[rows]), stacked[rows])
    np.testing.assert_array_equal(np.asarray(src.images[2:6]), stacked[2:6])
    np.testing.assert_array_equal(np.asarray(src.images[-1]), stacked[-1])
    batch = src.get_batch(rows)
    np.testing.assert_array_equal(np.asarray(batch["image"]), stacked[rows])
    np.testing.assert_array_equal(batch["label"], src.labels[rows])
    np.testing.assert_array_equal(batch["index"], src.indices[rows])
    sub = src.subset(np.array([4, 1]), "train")
    np.testing.assert_array_equal(np.asarray(sub.images), stacked[[4, 1]])


def test_grayscale_and_rgba_images_become_rgb(tmp_path):
    mini = build("csv", tmp_path)
    grey, rgba = mini.examples[0], mini.examples[1]
    from PIL import Image
    Image.new("L", (12, 12), 184).save(os.path.join(mini.folder, grey.file))
    Image.new("RGBA", (12, 12), (*rgba.colour, 255)).save(os.path.join(mini.folder, rgba.file))
    grey.colour = (184, 184, 184)
    sources = load("csv", mini, tmp_path)
    assert_exact(sources, mini)


def test_ham10000_images_in_one_part_folder_only(tmp_path):
    mini = build("ham10000", tmp_path)
    part1, part2 = (os.path.join(mini.folder, f"HAM10000_images_part_{k}") for k in (1, 2))
    for f in os.listdir(part2):
        shutil.move(os.path.join(part2, f), os.path.join(part1, f))
    os.rmdir(part2)
    for e in mini.examples:
        e.file = e.file.replace("part_2", "part_1")
    assert_exact(load("ham10000", mini, tmp_path), mini)


def test_a_skip_load_does_not_turn_the_default_into_a_skip(tmp_path):
    mini = build("celeba", tmp_path)
    bad = mini.examples[9]
    corrupt(os.path.join(mini.folder, bad.file), "truncated")
    with pytest.warns(Warning):
        load("celeba", mini, tmp_path, on_bad_image="skip")
    with pytest.raises(DataError, match=re.escape(os.path.basename(bad.file))):
        load("celeba", mini, tmp_path)  # same cache folder: still an error by default
