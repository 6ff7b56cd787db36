"""Optimizers from config.optim: names, schedules and the three weight-decay modes."""

from __future__ import annotations

import jax.numpy as jnp
import ml_collections
import numpy as np
import optax
import pytest

from nhfair_jax.config import base_config
from nhfair_jax.training.optim import learning_rate, make_optimizer


def _cfg(**kw) -> ml_collections.ConfigDict:
    c = base_config().optim
    c.update(kw)
    return c


def _one_step(cfg, params, grads):
    tx = make_optimizer(cfg, steps_per_epoch=10, epochs=100)
    updates, _ = tx.update(grads, tx.init(params), params)
    return optax.apply_updates(params, updates)


@pytest.mark.parametrize("name", ["sgd", "adam", "adamw", "adagrad"])
def test_every_optimizer_reduces_a_quadratic(name):
    cfg = _cfg(name=name, lr=0.1, weight_decay=0.0)
    tx = make_optimizer(cfg, steps_per_epoch=1, epochs=1)
    p = jnp.array([3.0, -2.0])
    state = tx.init(p)
    for _ in range(50):
        u, state = tx.update(2 * p, state, p)
        p = optax.apply_updates(p, u)
    assert float(jnp.sum(p**2)) < 0.5 * 13.0  # from 3^2 + 2^2


def test_coupled_l2_adds_wd_times_params_to_the_gradient_like_pytorch():
    p, g = jnp.array([1.0, -2.0]), jnp.array([0.5, 0.5])
    new = _one_step(_cfg(name="sgd", lr=0.1, momentum=0.0, weight_decay=0.01, wd_mode="l2"), p, g)
    np.testing.assert_allclose(new, p - 0.1 * (g + 0.01 * p), rtol=1e-6)


def test_l1_adds_the_sign_and_none_adds_nothing():
    p, g = jnp.array([1.0, -2.0]), jnp.array([0.5, 0.5])
    new = _one_step(_cfg(name="sgd", lr=0.1, momentum=0.0, weight_decay=0.01, wd_mode="l1"), p, g)
    np.testing.assert_allclose(new, p - 0.1 * (g + 0.01 * jnp.sign(p)), rtol=1e-6)
    new = _one_step(_cfg(name="sgd", lr=0.1, momentum=0.0, weight_decay=0.01, wd_mode="none"),
                    p, g)
    np.testing.assert_allclose(new, p - 0.1 * g, rtol=1e-6)


def test_sgd_steps_the_rate_down_tenfold_every_30_epochs_others_stay_constant():
    sched = learning_rate(_cfg(name="sgd", lr=0.1), steps_per_epoch=10, epochs=100)
    np.testing.assert_allclose([sched(0), sched(299), sched(300), sched(600)],
                               [0.1, 0.1, 0.01, 0.001], rtol=1e-5)
    assert learning_rate(_cfg(name="adam", lr=0.1), 10, 100) == 0.1


def test_bad_optimizer_settings_are_named():
    with pytest.raises(ValueError, match="optim.name must be one of .*'rmsprop'"):
        make_optimizer(_cfg(name="rmsprop"), 1, 1)
    with pytest.raises(ValueError, match="optim.wd_mode"):
        make_optimizer(_cfg(wd_mode="l3"), 1, 1)
