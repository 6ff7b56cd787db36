"""FSCL: the fair supervised contrastive loss against a direct loop, the two phases (what each
trains, which epochs may be selected), the linear phase on cached features, and learning on a
small data set."""

from __future__ import annotations

import math

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.methods import get_method
from nhfair_jax.methods.fscl import TwoViews, fair_supcon_loss
from nhfair_jax.training.loop import Run
from nhfair_jax.training.optim import set_learning_rate
from nhfair_jax.training.state import init_state
from nhfair_jax.training.step import make_mesh, make_train_step
from tests.helpers import tiny_config


def _loop_loss(z, labels, groups, temperature, group_norm):
    """The definition, one anchor at a time."""
    y, s = np.concatenate([labels, labels]), np.concatenate([groups, groups])
    n = len(y)
    losses, cells = [], []
    for i in range(n):
        pos = [p for p in range(n) if p != i and y[p] == y[i]]
        neg = [a for a in range(n) if y[a] != y[i] and s[a] == s[i]]
        if not pos or not neg:
            continue
        den = math.log(sum(math.exp(z[i] @ z[a] / temperature) for a in neg))
        losses.append(-np.mean([z[i] @ z[p] / temperature - den for p in pos]))
        cells.append((y[i], s[i]))
    losses = np.array(losses)
    if not group_norm:
        return losses.mean()
    weights = np.array([1.0 / cells.count(c) for c in cells])
    return (losses * weights).sum() / weights.sum()


@pytest.mark.parametrize("group_norm", [False, True])
def test_loss_matches_the_definition_anchor_by_anchor(group_norm):
    rng = np.random.default_rng(0)
    labels, groups = rng.integers(0, 2, 12), rng.integers(0, 3, 12)
    z = rng.normal(size=(24, 5))
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    got = jax.jit(lambda z, y, g: fair_supcon_loss(z, y, g, temperature=0.5,
                                                   group_norm=group_norm))(
        jnp.asarray(z, jnp.float32), jnp.asarray(labels), jnp.asarray(groups))
    assert float(got) == pytest.approx(_loop_loss(z, labels, groups, 0.5, group_norm), rel=1e-5)


@pytest.mark.slow
def test_an_anchor_never_sees_other_group_negatives():
    # Rows 0-2 and their second views 3-5. Image 2 (label 2, group 1) shares no label and no group
    # with anyone else: it is only ever an OTHER-group negative (of images 0 and 1), and no valid
    # anchor of its own (no same-group negative). The loss must not depend on it at all.
    labels, groups = jnp.array([0, 1, 2]), jnp.array([0, 0, 1])
    z = jax.random.normal(jax.random.key(1), (6, 4))
    z = z / jnp.linalg.norm(z, axis=1, keepdims=True)
    for group_norm in (False, True):
        g = jax.jit(jax.grad(lambda z: fair_supcon_loss(z, labels, groups, temperature=0.2,
                                                        group_norm=group_norm)))(z)
        np.testing.assert_array_equal(np.asarray(g)[[2, 5]], 0.0)
        assert float(np.abs(np.asarray(g)[[1, 4]]).sum()) > 0  # same-group negatives are pushed


@pytest.mark.slow
def test_other_group_negatives_are_not_pushed_and_gradients_stay_finite():
    labels, groups = jnp.array([0, 1, 0, 1]), jnp.array([0, 0, 1, 1])
    z = jax.random.normal(jax.random.key(0), (8, 4))
    z = z / jnp.linalg.norm(z, axis=1, keepdims=True)
    loss = lambda z: fair_supcon_loss(z, labels, groups, temperature=0.2, group_norm=False)
    # Anchor 0 (label 0, group 0): its only negatives are rows 1 and 5 (label 1, group 0);
    # rows 3 and 7 (label 1, group 1) appear nowhere in its term.
    g = jax.jit(jax.grad(loss))(z)  # jitted: one compilation, not one an op
    assert np.all(np.isfinite(np.asarray(g)))
    # Anchors with no positive or no same-group negative are left out, not NaN.
    lonely = jnp.array([0, 0, 0, 1])
    assert np.isfinite(float(fair_supcon_loss(z, jnp.array([0, 1, 0, 0]), lonely,
                                              temperature=0.2, group_norm=True)))


def test_two_views_differ_and_are_deterministic_for_a_seed():
    images = np.random.default_rng(0).integers(0, 255, (6, 16, 16, 3), dtype=np.uint8)
    batch = {"image": images, "label": np.zeros(6, np.int32)}
    views = TwoViews(2, 10.0)
    a = views(batch, np.random.default_rng(1))
    b = views(batch, np.random.default_rng(1))
    assert np.array_equal(a["image"], b["image"]) and np.array_equal(a["image2"], b["image2"])
    assert not np.array_equal(a["image"], a["image2"])


@pytest.mark.slow
def test_phase_one_trains_the_encoder_phase_two_only_the_head(tmp_path):
    cfg = tiny_config(**{"train.epochs": 3, "data.image_size": 16})  # contrastive epochs: 2
    cfg.method = method_config("fscl", magnitude=5.0)
    run = Run(cfg, None)
    method = run.method
    assert method.contrastive_epochs(3) == 2
    assert [method.phase(e, 3).name for e in (1, 2, 3)] == ["contrastive"] * 2 + ["linear"]
    assert [method.phase(e, 3).selectable for e in (1, 2, 3)] == [False, False, True]
    same = lambda a, b: all(np.array_equal(x, y) for x, y in
                            zip(jax.tree.leaves(a), jax.tree.leaves(b)))
    host = lambda s: jax.device_get({**s.params, "stats": s.batch_stats})  # the step donates
    state = run.state
    h0 = host(state)
    state, log1 = run.train_epoch(state, 1, False)
    h1 = host(state)
    state, log2 = run.train_epoch(state, 3, False)
    h2 = host(state)
    assert log1["train_phase"] == 0.0 and log2["train_phase"] == 1.0
    assert not same(h0["model"], h1["model"]) and same(h0["head"], h1["head"])
    assert same(h1["model"], h2["model"]) and same(h1["proj"], h2["proj"])
    assert same(h1["stats"], h2["stats"])  # evaluation-mode BatchNorm in phase 2
    assert not same(h1["head"], h2["head"])


@pytest.mark.slow
def test_the_linear_phase_has_its_own_optimizer_at_a_constant_rate():
    cfg = tiny_config(**{"train.epochs": 3, "data.image_size": 16, "optim.name": "sgd",
                         "optim.lr": 0.1, "optim.momentum": 0.0, "optim.weight_decay": 1e-3})
    cfg.method = method_config("fscl")
    run = Run(cfg, None)
    params = jax.device_get(run.state.params)
    grads = jax.tree.map(np.ones_like, params)
    for variant, trained in (("contrastive", ("model", "proj")), ("linear", ("head",))):
        tx = run.optimizer_for(variant)
        # The run's schedule has decayed the rate to 1e-4: only the encoder's optimizer follows.
        state = set_learning_rate(tx.init(params), 1e-4)
        updates, _ = tx.update(grads, state, params)
        for part in ("model", "proj", "head"):
            for u, p in zip(jax.tree.leaves(updates[part]), jax.tree.leaves(params[part])):
                if part not in trained:
                    np.testing.assert_array_equal(u, 0.0)  # frozen, weight decay included
                else:
                    lr = 0.1 if part == "head" else 1e-4
                    np.testing.assert_allclose(u, -lr * (1.0 + 1e-3 * p), rtol=1e-5)


class _MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train=False, features=False):
        h = nn.relu(nn.Dense(32)(nn.relu(nn.Dense(64)(x))))
        return (nn.Dense(2)(h), h) if features else nn.Dense(2)(h)


@pytest.mark.slow
def test_contrastive_loss_falls_and_the_frozen_features_support_a_useful_head():
    rng = np.random.default_rng(0)
    n = 2000
    y, g = rng.integers(0, 2, n), rng.integers(0, 2, n)
    x = np.concatenate([(2 * y - 1)[:, None] + rng.normal(0, 1.5, (n, 4)),
                        (2 * g - 1)[:, None] + rng.normal(0, 0.5, (n, 2)),
                        rng.normal(0, 1, (n, 4))], 1).astype(np.float32)
    method = get_method(method_config("fscl"))
    model, tx = _MLP(), optax.adam(1e-3)
    state = init_state(model, tx, method, image_shape=(10,), init_key=jax.random.key(0),
                       train_key=jax.random.key(1),
                       info={"num_classes": 2, "num_groups": 2, "num_train": n})
    step = make_train_step(method, model.apply, tx, make_mesh(), num_groups=2, num_classes=2)

    def batch(rows):  # two noisy views of each vector
        view = lambda: jnp.asarray(x[rows] + rng.normal(0, 0.3, (len(rows), 10)), jnp.float32)
        return {"image": view(), "image2": view(), "label": jnp.asarray(y[rows]),
                "group": jnp.asarray(g[rows])}

    losses = []
    for _ in range(300):
        state, out = step(state, batch(rng.integers(0, n, 128)))
        losses.append(float(out["loss"]))
    assert np.mean(losses[-20:]) < np.mean(losses[:5]) - 1.0
    step = make_train_step(method.in_phase("linear"), model.apply, tx, make_mesh(),
                           num_groups=2, num_classes=2)
    for _ in range(300):
        state, out = step(state, batch(rng.integers(0, n, 128)))
    logits = method.predict(model.apply, state.params, {}, {"image": jnp.asarray(x)})
    assert float((np.asarray(logits).argmax(1) == y).mean()) > 0.85  # Bayes rate ~0.92


@pytest.mark.slow
def test_the_cached_linear_phase_reads_features_once_and_steps_like_the_image_path(monkeypatch):
    from nhfair_jax.data.pipeline import eval_dataset
    from nhfair_jax.training import loop
    from nhfair_jax.training.evaluator import Evaluator
    from nhfair_jax.training.step import shard_batch

    cfg = tiny_config(**{"train.epochs": 4, "data.image_size": 16})  # contrastive epochs: 2
    cfg.method = method_config("fscl", magnitude=5.0)
    run = Run(cfg, None)
    assert [run.cached_phase(e) for e in (1, 2, 3, 4)] == [False, False, True, True]
    state, _ = run.train_epoch(run.state, 1, False)
    calls = []
    original = Evaluator.cached_features

    def counted(self, state, split):
        calls.append((split, split in self._frozen))
        return original(self, state, split)

    monkeypatch.setattr(Evaluator, "cached_features", counted)
    monkeypatch.setattr(loop, "train_dataset", lambda *a, **k: pytest.fail("images read"))
    before = jax.device_get(state)
    state, log3 = run.train_epoch(state, 3, False)
    val_cached, val_full = (run.evaluator.predict(state, "val", frozen=True),
                           run.evaluator.predict(state, "val"))
    state, log4 = run.train_epoch(state, 4, False)
    # computed once per split, then read from the cache
    assert calls == [("train", False), ("val", False), ("train", True)]
    assert np.isfinite(log3["train_loss"]) and np.isfinite(log4["train_loss"])
    feats = run.evaluator._frozen["train"]
    assert feats.shape == (len(run.sources["train"]), run.method.info["feature_dim"])
    # validation from the cached features equals the full forward pass
    np.testing.assert_allclose(val_cached, val_full, rtol=1e-4, atol=1e-5)
    # One linear step on features equals one on the un-augmented images of the same rows.
    linear = run.method.in_phase("linear")
    step = run.train_step_for(3)
    rows = np.arange(cfg.train.batch_size)
    images = next(iter(eval_dataset(run.sources["train"].subset(rows, "b"),
                                         batch_size=len(rows), **run.norm)))
    on_images = {"image": images["image"], "label": images["label"], "group": images["group"]}
    on_feats = {"features": feats[rows], "label": images["label"], "group": images["group"]}
    outs = []
    for batch, keys in ((on_images, ("image", "label", "group")),
                        (on_feats, ("features", "label", "group"))):
        fresh = jax.tree.map(jnp.asarray, before)
        new, out = step(fresh, shard_batch(batch, run.mesh, keys))
        outs.append((jax.device_get(new.params), float(out["loss"])))
    assert linear.phase_name == "linear"
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-5)
    for a, b in zip(jax.tree.leaves(outs[1][0]["head"]), jax.tree.leaves(outs[0][0]["head"])):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    assert not np.allclose(jax.tree.leaves(outs[1][0]["head"])[0],
                           jax.tree.leaves(before.params["head"])[0])


def test_feature_batches_keep_rows_aligned_and_shuffle_by_seed_and_epoch():
    from nhfair_jax.data.pipeline import FeatureBatches

    n = 50
    feats = np.arange(n, dtype=np.float32)[:, None] * np.ones((1, 4), np.float32)

    class Src:
        labels, groups = np.arange(n) % 3, np.arange(n) % 2

        def __len__(self):
            return n

    epoch = FeatureBatches(feats, Src(), batch_size=16, seed=7, epoch=2)
    batches = list(epoch)
    assert len(epoch) == len(batches) == 3  # 50 // 16, the remainder dropped
    rows = np.concatenate([b["features"][:, 0] for b in batches]).astype(int)
    assert len(set(rows)) == 48 and not np.array_equal(rows, np.sort(rows))
    for b in batches:
        r = b["features"][:, 0].astype(int)
        np.testing.assert_array_equal(b["label"], r % 3)
        np.testing.assert_array_equal(b["group"], r % 2)
    again = FeatureBatches(feats, Src(), batch_size=16, seed=7, epoch=2)
    assert all(np.array_equal(a["features"], b["features"]) for a, b in zip(batches, again))
    other = list(FeatureBatches(feats, Src(), batch_size=16, seed=7, epoch=3))
    assert not np.array_equal(other[0]["features"], batches[0]["features"])
    chosen = FeatureBatches(feats, Src(), batch_size=4, seed=0, epoch=1,
                             indices=np.array([3, 3, 9, 9, 9, 12, 40, 41]))
    used = sorted(np.concatenate([b["features"][:, 0] for b in chosen]).astype(int).tolist())
    assert used == [3, 3, 9, 9, 9, 12, 40, 41]
    with pytest.raises(ValueError, match="cannot fill one batch"):
        FeatureBatches(feats, Src(), batch_size=64, seed=0, epoch=1)


@pytest.mark.slow
def test_features_are_computed_again_after_an_epoch_that_trains_the_backbone(monkeypatch):
    """Frozen epochs need not be contiguous: a frozen epoch after one that moved the backbone
    reads features of the new backbone, not the cached ones."""
    from nhfair_jax.methods.fscl import FSCL
    from nhfair_jax.methods.phases import Phase

    cfg = tiny_config(**{"train.epochs": 4, "data.image_size": 16})
    cfg.method = method_config("fscl", magnitude=5.0)
    frozen_epochs = (2, 4)
    monkeypatch.setattr(FSCL, "phase", lambda self, e, n: Phase("linear", cached_features=True)
                        if e in frozen_epochs else Phase("contrastive", selectable=False))
    run = Run(cfg, None)
    state, _ = run.train_epoch(run.state, 1, False)
    state, _ = run.train_epoch(state, 2, False)
    first = run.evaluator._frozen["train"].copy()
    state, _ = run.train_epoch(state, 3, False)  # contrastive: the encoder moves
    assert not run.evaluator._frozen
    state, _ = run.train_epoch(state, 4, False)
    assert not np.allclose(run.evaluator._frozen["train"], first)
    kept = run.evaluator._frozen["train"]
    run.evaluator.forget_features()
    np.testing.assert_array_equal(run.evaluator.cached_features(state, "train"), kept)


@pytest.mark.slow
def test_with_a_counterfactual_modifier_the_linear_phase_runs_on_images():
    from nhfair_jax.training.loop import Run

    cfg = tiny_config(**{"train.epochs": 5})
    cfg.method = method_config("fscl")
    assert Run(cfg, None).cached_phase(5)
    cfg.method.cf = "cp"
    wrapped = Run(cfg, None)
    assert wrapped.method.phase(5, 5).cached_features  # FSCL's own phase, unchanged
    assert not wrapped.cached_phase(5)  # but the pair term needs each step's images
