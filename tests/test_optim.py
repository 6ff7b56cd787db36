"""Optimizers from config.optim: names, schedules and the three weight-decay modes."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import ml_collections
import numpy as np
import optax
import pytest

from nhfair_jax.config import base_config
from nhfair_jax.methods.phases import frozen
from nhfair_jax.training.optim import epoch_learning_rate, make_optimizer, set_learning_rate


def _cfg(**kw) -> ml_collections.ConfigDict:
    c = base_config().optim
    c.update(kw)
    return c


def _one_step(cfg, params, grads):
    tx = make_optimizer(cfg)
    updates, _ = tx.update(grads, tx.init(params), params)
    return optax.apply_updates(params, updates)


@pytest.mark.parametrize("name", ["sgd", "adam", "adamw", "adagrad"])
def test_every_optimizer_reduces_a_quadratic(name):
    cfg = _cfg(name=name, lr=0.1, weight_decay=0.0)
    tx = make_optimizer(cfg)
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
    sgd = _cfg(name="sgd", lr=0.1)
    np.testing.assert_allclose([epoch_learning_rate(sgd, e, 100) for e in (1, 30, 31, 61)],
                               [0.1, 0.1, 0.01, 0.001], rtol=1e-5)
    assert epoch_learning_rate(_cfg(name="adam", lr=0.1), 50, 100) == 0.1
    cosine = _cfg(name="adam", lr=0.1, schedule="cosine")
    np.testing.assert_allclose([epoch_learning_rate(cosine, e, 10) for e in (1, 6)], [0.1, 0.05])


def test_the_rate_set_into_the_state_is_the_one_the_update_uses():
    p, g = jnp.array([1.0, -2.0]), jnp.array([0.5, 0.5])
    tx = make_optimizer(_cfg(name="sgd", lr=0.1, momentum=0.0, weight_decay=0.0))
    state = set_learning_rate(tx.init(p), 0.001)
    updates, _ = tx.update(g, state, p)
    np.testing.assert_allclose(updates, -0.001 * g, rtol=1e-6)


def test_frozen_keeps_the_state_and_moves_nothing_weight_decay_included():
    p, g = jnp.array([1.0, -2.0]), jnp.array([0.5, 0.5])
    tx = make_optimizer(_cfg(name="adam", lr=0.1, weight_decay=0.01))
    state = tx.init(p)
    updates, after = frozen(tx).update(g, state, p)
    np.testing.assert_array_equal(updates, jnp.zeros(2))
    assert jax.tree.structure(after) == jax.tree.structure(state)
    for a, b in zip(jax.tree.leaves(after), jax.tree.leaves(state)):
        np.testing.assert_array_equal(a, b)


def test_bad_optimizer_settings_are_named():
    with pytest.raises(ValueError, match="optim.name must be one of .*'rmsprop'"):
        make_optimizer(_cfg(name="rmsprop"))
    with pytest.raises(ValueError, match="optim.wd_mode"):
        make_optimizer(_cfg(wd_mode="l3"))


@pytest.mark.parametrize("name", ["adagrad", "adam", "adamw", "sgd"])
def test_optimizers_take_the_steps_of_the_benchmark_codes_torch_optimizers(name):
    """The benchmark's code builds torch.optim.Adagrad / Adam / AdamW(lr, weight_decay,
    eps=1e-7) and SGD(lr, momentum, weight_decay): ten steps on the same gradients give the
    same parameters (Adagrad's accumulator starts at 0, as PyTorch's; optax's default is 0.1,
    which on these gradients moves the first steps by a fifth)."""
    from tests.helpers import need

    torch = need("torch")
    lr, wd = 0.05, 1e-3
    cfg = _cfg(name=name, lr=lr, weight_decay=wd, momentum=0.9)
    grads = np.random.default_rng(0).normal(size=(10, 3)).astype(np.float32)
    p = jnp.array([0.5, -1.0, 2.0])
    tx = make_optimizer(cfg, scheduled=False)
    state = tx.init(p)
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    opt = {"adagrad": lambda: torch.optim.Adagrad([w], lr=lr, weight_decay=wd, eps=1e-7),
           "adam": lambda: torch.optim.Adam([w], lr=lr, weight_decay=wd, eps=1e-7),
           "adamw": lambda: torch.optim.AdamW([w], lr=lr, weight_decay=wd, eps=1e-7),
           "sgd": lambda: torch.optim.SGD([w], lr=lr, momentum=0.9, weight_decay=wd)}[name]()
    for g in grads:
        u, state = tx.update(jnp.asarray(g), state, p)
        p = optax.apply_updates(p, u)
        w.grad = torch.tensor(g)
        opt.step()
    np.testing.assert_allclose(np.asarray(p), w.detach().numpy(), rtol=1e-4, atol=1e-6)
