"""The method registry and each method's defining effect on small data."""

from __future__ import annotations

import glob
import importlib.util
import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.config import digitsb_config, method_config
from nhfair_jax.data import get_sources
from nhfair_jax.methods import get_method, registered
from nhfair_jax.methods.decoupled import group_head_logits
from nhfair_jax.methods.mixup import mixup_partners
from nhfair_jax.methods.resampling import balanced_weights
from nhfair_jax.training import train_and_evaluate
from tests.conftest import REPO, tiny_config

SHIPPED = ("erm", "mixup", "resampling", "decoupled", "fis")


@pytest.fixture(scope="module")
def digits():
    return get_sources("digitsb", None)


def test_unknown_method_lists_the_registered_ones():
    with pytest.raises(ValueError, match="unknown method 'nope'; registered: .*decoupled.*erm"):
        method_config("nope")
    with pytest.raises(ValueError, match="has no hyperparameters \\['colour'\\]"):
        method_config("mixup", colour=1)


def test_a_method_config_without_its_hyperparameters_is_refused():
    import ml_collections

    with pytest.raises(ValueError, match="config.method lacks \\['alpha', 'coef'\\]"):
        get_method(ml_collections.ConfigDict({"name": "mixup"}))


def test_every_shipped_method_has_a_digitsb_config():
    names = {}
    for path in glob.glob(os.path.join(REPO, "configs", "*_digitsb.py")):
        spec = importlib.util.spec_from_file_location("cfg", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        names[module.get_config().method.name] = path
    assert set(SHIPPED) <= set(names) and set(SHIPPED) <= set(registered())


@pytest.mark.parametrize("mode", ["group", "group_x_class"])
def test_resampling_draws_cells_in_balance(digits, mode):
    train = digits["train"]
    method = get_method(method_config("resampling", mode=mode))
    rows = method.sample_indices(train, seed=0, epoch=1, method_state={})
    assert len(rows) == len(train)
    cell = train.groups[rows] if mode == "group" else train.groups[rows] * 2 + train.labels[rows]
    share = np.bincount(cell) / len(rows)
    cells = 2 if mode == "group" else 4
    np.testing.assert_allclose(share, 1 / cells, atol=0.04)
    # The data itself is far from balanced (skew 0.8), so this is the sampler's doing.
    raw = np.bincount(train.groups * 2 + train.labels) / len(train)
    assert raw.max() > 0.35
    again = method.sample_indices(train, seed=0, epoch=1, method_state={})
    assert np.array_equal(rows, again)


def test_balanced_weights_are_inverse_cell_counts():
    labels, groups = np.array([0, 0, 0, 1]), np.array([0, 0, 1, 1])
    np.testing.assert_allclose(balanced_weights(labels, groups, 2, "group"), [.25, .25, .25, .25])
    np.testing.assert_allclose(balanced_weights(labels, groups, 2, "group_x_class"),
                               [1 / 6, 1 / 6, 1 / 3, 1 / 3])


def test_mixup_partners_share_the_label_and_differ_in_group():
    labels = jnp.array([0, 0, 0, 1, 1, 1, 2])
    groups = jnp.array([0, 1, 2, 0, 0, 1, 0])
    seen = set()
    for seed in range(30):
        partner, has = mixup_partners(labels, groups, jax.random.key(seed))
        partner, has = np.asarray(partner), np.asarray(has)
        assert has.tolist() == [True] * 6 + [False]  # class 2 has one group only
        assert (labels[partner] == labels).all()
        assert (np.asarray(groups)[partner[has]] != np.asarray(groups)[has]).all()
        seen.add(int(partner[0]))
    assert seen == {1, 2}  # random among the valid partners


def test_decoupled_routes_each_example_to_its_groups_head():
    feats = jnp.ones((4, 3))
    heads = {"kernel": jnp.zeros((3, 3, 2)),
             "bias": jnp.array([[5.0, 0.0], [0.0, 5.0], [5.0, 0.0]])}
    groups = jnp.array([0, 1, 2, 1])
    logits = group_head_logits(heads, feats, groups)
    np.testing.assert_array_equal(np.argmax(logits, -1), [0, 1, 0, 1])
    # Only the heads of groups present receive gradient.
    grad = jax.grad(lambda h: group_head_logits(h, feats, jnp.array([1, 1, 1, 1])).sum())(heads)
    assert float(jnp.abs(grad["kernel"][0]).sum()) == 0.0
    assert float(jnp.abs(grad["kernel"][1]).sum()) > 0.0


@pytest.mark.parametrize("name", SHIPPED)
def test_every_method_trains_and_writes_a_run_directory(name, tmp_path):
    cfg = tiny_config(**{"train.epochs": 2})
    cfg.method = method_config(name, **({"warmup_epochs": 1} if name == "fis" else {}))
    result = train_and_evaluate(cfg, str(tmp_path))
    assert result["method"] == name
    assert 0.4 <= result["test"]["acc"] <= 1.0
    assert np.isfinite(json.loads(open(tmp_path / "log.jsonl").readline())["train_loss"])


def test_decoupled_run_predicts_with_the_group(tmp_path):
    cfg = tiny_config(**{"train.epochs": 1})
    cfg.method = method_config("decoupled")
    train_and_evaluate(cfg, str(tmp_path))
    pred = np.load(tmp_path / "predictions_test.npz")
    assert pred["logits"].shape[1] == 2
