"""The individual-fairness baselines of the counterfactual study: SenSeI's fair metric and
LASSI's certificate against hand-computed cases, the flow's exact inverse, and each method's
defining effect on DigitsB against Scratch."""

import json
import math
import os

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from scipy.stats import norm

from helpers import run_cli, tiny_config
from nhfair_jax.methods.lassi import attribute_vector, worst_of
from nhfair_jax.methods.sensei import (fair_distance, output_change, project_ball,
                                       sensitive_basis, worst_perturbation)
from nhfair_jax.methods.smoothing import ABSTAIN, certified_radius, certify_votes
from nhfair_jax.models.flow import Glow, latent_shapes, unwrap, wrap


def test_sensitive_basis_is_the_logistic_regression_direction():
    # The group is the sign of feature 0; the other features are noise: the one direction of
    # the regression (normalised) is e0, and the metric ignores moves along it.
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 5)).astype(np.float32)
    groups = (x[:, 0] > 0).astype(np.int64)
    basis = sensitive_basis(x, groups, 2)
    assert basis.shape == (5, 1)
    assert abs(basis[0, 0]) > 0.98
    b = np.zeros((1, 5), np.float32)
    b[0, 0] = 1.0  # the exact subspace span(e0): hand-computed distances
    a = jnp.zeros((2, 5))
    moved = jnp.asarray([[3.0, 0, 0, 0, 0], [3.0, 4.0, 0, 0, 0]])
    d = fair_distance(a, moved, jnp.asarray(b.T))
    np.testing.assert_allclose(np.asarray(d), [0.0, 4.0 / math.sqrt(5)], atol=1e-6)


def test_sensitive_basis_of_three_groups_is_orthonormal_and_refuses_one_group():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(600, 6)).astype(np.float32)
    groups = np.argmax(x[:, :3], axis=1)
    basis = sensitive_basis(x, groups, 3)
    assert basis.shape[1] in (2, 3)
    np.testing.assert_allclose(basis.T @ basis, np.eye(basis.shape[1]), atol=1e-5)
    with pytest.raises(ValueError, match="at least two groups"):
        sensitive_basis(x, np.zeros(600, np.int64), 2)


def test_projection_keeps_the_sensitive_part_and_clips_the_rest():
    basis = jnp.asarray([[1.0], [0.0], [0.0], [0.0]])
    delta = jnp.asarray([[5.0, 2.0, 0.0, 0.0], [5.0, 0.1, 0.0, 0.0]])
    out = np.asarray(project_ball(delta, basis, 0.5))  # radius 0.5 x sqrt(4) = 1 in L2
    np.testing.assert_allclose(out[0], [5.0, 1.0, 0.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(out[1], [5.0, 0.1, 0.0, 0.0], atol=1e-6)


def test_worst_perturbation_stays_in_the_ball_and_finds_the_open_direction():
    # f reads only feature 1 (outside the subspace): the ascent moves feature 1 to the ball's
    # edge, so the change reaches (w * radius * sqrt(D))^2, short of it only by the random
    # start's share of the radius left on the features f ignores.
    basis = jnp.asarray([[1.0], [0.0], [0.0], [0.0]])
    w = 3.0

    def logits_fn(x):
        return jnp.stack([w * x[:, 1], jnp.zeros(x.shape[0])], axis=1)

    x = jnp.zeros((3, 4))
    delta = worst_perturbation(logits_fn, x, basis, jax.random.key(0), eps=0.25, steps=5,
                               step_size=0.2)
    assert np.all(np.asarray(fair_distance(x, x + delta, basis)) <= 0.25 + 1e-6)
    change = np.asarray(output_change(logits_fn(x), logits_fn(x + delta)))
    bound = (w * 0.25 * 2.0) ** 2
    assert np.all(change <= bound * (1 + 1e-5)) and np.all(change >= 0.98 * bound), change


def test_certified_radius_by_hand():
    # 100 of 100 votes, alpha 0.001: Clopper-Pearson's lower bound is 0.001^(1/100).
    p = 0.001 ** (1 / 100)
    radius = certified_radius(np.array([100, 50, 0]), 100, sigma=0.5, alpha=0.001)
    assert radius[0] == pytest.approx(0.5 * norm.ppf(p), rel=1e-9)
    assert radius[0] == pytest.approx(0.7502, abs=1e-4)
    assert radius[1] == ABSTAIN and radius[2] == ABSTAIN
    # the class is chosen on the first votes and counted in the others
    top, r = certify_votes([[1, 9], [8, 2]], [[0, 100], [40, 60]], 0.5, 0.001)
    assert top.tolist() == [1, 0]
    assert r[0] == pytest.approx(radius[0]) and r[1] == ABSTAIN


def test_attribute_vector_and_worst_candidate():
    z = np.array([[0.0, 1.0], [2.0, 1.0], [4.0, 3.0], [6.0, 5.0]])
    np.testing.assert_allclose(attribute_vector(z, np.array([0, 0, 1, 1])), [4.0, 3.0])
    with pytest.raises(ValueError, match="groups 0 and 1"):
        attribute_vector(z, np.array([1, 1, 1, 1]))
    dist = jnp.asarray([[0.1, 5.0], [2.0, 1.0]])
    cands = jnp.asarray([[[10.0], [11.0]], [[20.0], [21.0]]])
    np.testing.assert_allclose(np.asarray(worst_of(dist, cands))[:, 0], [20.0, 11.0])


def test_flow_is_invertible_and_its_shapes_add_up():
    x = jax.random.normal(jax.random.key(0), (4, 8, 8, 3))
    flow = Glow(levels=2, steps=2, hidden=16)
    v = flow.init(jax.random.key(1), x)
    latents, log_prior, logdet = flow.apply(v, x)
    assert [z.shape[1:] for z in latents] == latent_shapes((8, 8, 3), 2)
    flat = wrap(latents)
    assert flat.shape == (4, 8 * 8 * 3)
    back = flow.apply(v, unwrap(flat, latent_shapes((8, 8, 3), 2)), reverse=True)
    np.testing.assert_allclose(np.asarray(back), np.asarray(x), atol=1e-4)
    assert np.all(np.isfinite(np.asarray(log_prior + logdet)))


def _digitsb_arrays():
    from nhfair_jax.data import get_sources

    c = tiny_config()
    sources = get_sources("digitsb", None, image_size=16, progress=False)
    mean, std = np.asarray(c.data.mean, np.float32), np.asarray(c.data.std, np.float32)

    def norm_images(s):
        return ((s.images.astype(np.float32) / 255.0 - mean) / std).astype(np.float32)

    return {k: (norm_images(s), s.labels, s.groups) for k, s in sources.items()}


def _train(method, data, seed: int, epochs: int = 6, batch: int = 64):
    """The method's loss on the small CNN with Adam, in process (no trainer): returns the
    evaluation logits function."""
    from nhfair_jax.models import create_model

    x, y, g = data
    model = create_model("small_cnn", 2, widths=(8, 16, 32))
    v = model.init(jax.random.key(seed), jnp.zeros((1, *x.shape[1:])), train=False)
    params, stats = v["params"], v.get("batch_stats", {})
    tx = optax.adam(2e-3)
    opt = tx.init(params)

    @jax.jit
    def step(params, stats, opt, state, bx, by, bg, key):
        def f(p):
            out = method.loss(model.apply, p, stats, state, {"image": bx, "label": by,
                                                            "group": bg}, key)
            return out.loss, out.batch_stats

        (_, stats), grads = jax.value_and_grad(f, has_aux=True)(params)
        updates, opt = tx.update(grads, opt, params)
        return optax.apply_updates(params, updates), stats, opt

    rng = np.random.default_rng(seed)
    state = method.state
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        for i in range(len(y) // batch):
            idx = order[i * batch:(i + 1) * batch]
            params, stats, opt = step(params, stats, opt, state, x[idx], y[idx], g[idx],
                                      jax.random.key(epoch * 1000 + i))

    def logits_fn(images):
        return model.apply({"params": params, "batch_stats": stats}, images, train=False)

    return logits_fn


@pytest.mark.slow
def test_sensei_changes_its_output_less_than_scratch_within_the_metric_ball():
    """On DigitsB, the worst perturbation within the fair metric's ball (the subspace of the
    training split's group regression free, radius 0.1 elsewhere, 10 ascent steps) changes
    SenSeI's logits (rho 10) by less than half of what it changes Scratch's, for each of two
    seeds; both learn the label."""
    from ml_collections import ConfigDict

    from nhfair_jax.config import method_config
    from nhfair_jax.methods.base import CrossEntropy
    from nhfair_jax.methods.sensei import SenSeI

    data = _digitsb_arrays()
    x, _, g = data["train"]
    basis = jnp.asarray(sensitive_basis(x.reshape(len(x), -1), g, 2))
    xt, yt, _ = data["test"]
    for seed in (0, 1):
        cfg = ConfigDict(dict(method_config("sensei")))
        cfg.rho = 10.0
        sensei = SenSeI(cfg)
        sensei.setup({"num_groups": 2, "seed": seed, "image_shape": x.shape[1:]})
        sensei.state = {"basis": basis}
        scratch = CrossEntropy(ConfigDict({}))
        scratch.state = {}
        changes, accs = {}, {}
        for name, method in (("sensei", sensei), ("scratch", scratch)):
            f = _train(method, data["train"], seed)
            delta = worst_perturbation(f, jnp.asarray(xt), basis, jax.random.key(7), eps=0.1,
                                       steps=10, step_size=0.05)
            changes[name] = float(output_change(f(xt), f(xt + delta)).mean())
            accs[name] = float((np.asarray(f(xt)).argmax(1) == yt).mean())
        assert changes["sensei"] < 0.5 * changes["scratch"], (seed, changes)
        assert min(accs.values()) > 0.65, (seed, accs)


@pytest.mark.slow
def test_lassi_certifies_more_with_more_noise(tmp_path):
    """A LASSI run on DigitsB certifies a non-zero share of the test points within eps = 1,
    and more at sigma 0.65 than at 0.45 (at fixed radius a larger noise certifies a larger
    radius for the same agreement: sigma x Phi^-1(p)); its result carries them beside acc."""
    workdir = tmp_path / "lassi"
    proc = run_cli("--config", "configs/digitsb.py:lassi", "--workdir", str(workdir),
                   "--config.data.image_size=16", "--config.model.cnn_widths=(8,16,32)",
                   "--config.train.epochs=3", "--config.train.batch_size=64",
                   "--config.train.eval_batch_size=64", "--config.train.progress=False",
                   "--config.method.cert_sigmas=(0.45,0.65)", "--config.method.cert_n=1000",
                   "--config.method.cert_n0=50")
    assert proc.returncode == 0, proc.stderr[-3000:]
    test = json.loads((workdir / "result.json").read_text())["test"]
    assert "acc" in test and test["certified"] == test["certified_s0.45"]
    assert test["certified_s0.45"] > 0.0
    assert test["certified_s0.65"] > test["certified_s0.45"], test
    assert 0.0 <= test["certified_acc"] <= test["certified_s0.45"]
    assert os.path.exists(workdir / "predictions_test.npz")
