"""Data that lies (issue 52): a manifest whose image paths escape its folder, an image of another
size than its neighbours, a class that training never holds, a group with one member. Each is a
clear error or a warning the run's result.json repeats, never a silent wrong number."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from PIL import Image

from nhfair_jax.data import DataError, get_sources


def _manifest(folder, rows, images=None):
    """A manifest.csv of `rows` (image, label, skin, split) with random 12x10 images."""
    rng = np.random.default_rng(0)
    os.makedirs(folder / "pics", exist_ok=True)
    for name, size in (images or {}).items():
        Image.fromarray(rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)).save(
            folder / "pics" / name)
    lines = ["image,label,skin,split"] + [",".join(r) for r in rows]
    (folder / "manifest.csv").write_text("\n".join(lines) + "\n")
    return str(folder / "manifest.csv")


def _rows(n=30):
    """Both labels and both groups in every split, several of each."""
    return [(f"pics/img_{i:03d}.png", "cat" if i % 3 else "dog", "dark" if i % 2 else "light",
             ("train", "val", "test")[(i // 2) % 3]) for i in range(n)]


def _load(path, tmp_path):
    return get_sources("csv", path, image_size=8, cache_dir=str(tmp_path / "cache"),
                       sensitive="skin", split_col="split", progress=False)


def _sizes(rows, odd=None):
    return {os.path.basename(r[0]): (odd or {}).get(os.path.basename(r[0]), (12, 10))
            for r in rows}


def test_a_manifest_path_leading_outside_its_folder_is_an_error(tmp_path):
    rows = _rows()
    path = _manifest(tmp_path / "d", rows, _sizes(rows))
    (tmp_path / "outside.png").write_bytes((tmp_path / "d" / "pics" / "img_000.png").read_bytes())
    rows[4] = ("../outside.png", *rows[4][1:])
    path = _manifest(tmp_path / "d", rows)
    with pytest.raises(DataError, match=r"manifest.csv row 6: image path '../outside.png' leads "
                                        "outside the manifest's folder"):
        _load(path, tmp_path)
    rows[4] = (str(tmp_path / "outside.png"), *rows[4][1:])  # absolute: the user's choice
    _load(_manifest(tmp_path / "d", rows), tmp_path)


def test_a_class_training_never_holds_is_an_error_naming_it(tmp_path):
    rows = _rows()
    rows += [(f"pics/bird_{i}.png", "bird", "dark", split) for i, split in
             enumerate(("val", "test", "test"))]
    path = _manifest(tmp_path, rows, _sizes(rows))
    with pytest.raises(DataError, match=r"class 'bird' of the target has 1 val example\(s\) but "
                                        "none in training"):
        _load(path, tmp_path)


def test_a_group_with_one_member_is_a_warning_the_sources_carry(tmp_path):
    rows = _rows()
    rows.append(("pics/img_lone.png", "cat", "pale", "test"))
    path = _manifest(tmp_path, rows, _sizes(rows))
    with pytest.warns(UserWarning, match="group 'pale' has one test example"):
        sources = _load(path, tmp_path)
    notes = sources["test"].warnings
    assert any("group 'pale' has one test example" in w for w in notes)
    assert not any("'dark'" in w or "'light'" in w for w in notes)


def test_an_image_of_another_size_than_its_neighbours_is_a_warning(tmp_path):
    rows = _rows()
    path = _manifest(tmp_path, rows, _sizes(rows, odd={"img_007.png": (300, 200)}))
    with pytest.warns(UserWarning, match=r"1 image\(s\) decode to another size than the 29 "
                                         r"others \(12x10\), first .*img_007.png \(300x200\)"):
        _load(path, tmp_path)
    even = tmp_path / "even"
    path = _manifest(even, rows, _sizes(rows))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sources = get_sources("csv", path, image_size=8, cache_dir=str(even / "cache"),
                              sensitive="skin", split_col="split", progress=False)
    assert sources["train"].warnings == []


@pytest.mark.slow
def test_a_trained_run_repeats_its_datas_warnings_in_result_json(tmp_path):
    from nhfair_jax.config import load_config_file
    from nhfair_jax.dispatch import run
    from tests.helpers import REPO

    rows = _rows(60)
    rows.append(("pics/img_lone.png", "cat", "pale", "test"))
    path = _manifest(tmp_path, rows, _sizes(rows))
    c = load_config_file(os.path.join(REPO, "configs", "dataset.py:csv"))
    c.data.root, c.data.sensitive, c.data.options.split_col = path, "skin", "split"
    c.data.image_size, c.data.cache_dir = 16, str(tmp_path / "cache")
    c.model.cnn_widths, c.train.epochs, c.train.progress = (8, 16), 1, False
    c.train.batch_size = c.train.eval_batch_size = 8
    with pytest.warns(UserWarning, match="group 'pale'"):
        result = run(c, str(tmp_path / "run"))
    assert result["warnings"] == ["csv: group 'pale' has one test example; its per-group "
                                  "figures (and the worst group's) rest on it"]
