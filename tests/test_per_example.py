"""Per-example gradients (vmap of grad) and forward-mode dot products agree with plain loops."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax import per_example


def _mlp():
    k = jax.random.split(jax.random.key(0), 4)
    params = {"hidden": {"w": jax.random.normal(k[0], (5, 8)), "b": jnp.zeros(8)},
              "fc": {"w": jax.random.normal(k[1], (8, 3)), "b": jnp.zeros(3)}}
    batch = {"x": jax.random.normal(k[2], (12, 5)), "y": jax.random.randint(k[3], (12,), 0, 3)}
    return params, batch


def _logits(params, x):
    h = jnp.tanh(x @ params["hidden"]["w"] + params["hidden"]["b"])
    return h @ params["fc"]["w"] + params["fc"]["b"]


def _example_loss(params, ex):
    return -jax.nn.log_softmax(_logits(params, ex["x"]))[ex["y"]]


def _batch_losses(params, batch):
    logp = jax.nn.log_softmax(_logits(params, batch["x"]))
    return -jnp.take_along_axis(logp, batch["y"][:, None], 1)[:, 0]


@pytest.mark.parametrize("chunk", [None, 4, 5, 1])
def test_per_example_grads_equal_a_loop_of_grads(chunk):
    params, batch = _mlp()
    grads = per_example.per_example_grads(_example_loss, params, batch, chunk=chunk)
    for i in range(12):
        ex = jax.tree.map(lambda a: a[i], batch)
        ref = jax.grad(_example_loss)(params, ex)
        for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(ref)):
            np.testing.assert_allclose(a[i], b, rtol=1e-5, atol=1e-6)


def test_subtree_gradients_and_bad_chunk():
    params, batch = _mlp()
    grads = per_example.per_example_grads(_example_loss, params, batch, wrt=("fc",))
    assert set(grads) == {"w", "b"} and grads["w"].shape == (12, 8, 3)
    full = per_example.per_example_grads(_example_loss, params, batch)
    np.testing.assert_allclose(grads["w"], full["fc"]["w"], rtol=1e-6)
    with pytest.raises(ValueError, match="chunk must be at least 1"):
        per_example.per_example_grads(_example_loss, params, batch, chunk=0)


def test_chunk_size_follows_the_memory_budget():
    params, batch = _mlp()
    per = per_example.bytes_per_example(_example_loss, params, batch)
    # at least the gradient itself (5*8 + 8 + 8*3 + 3 floats) and the hidden activations
    assert per >= 4 * (5 * 8 + 8 + 8 * 3 + 3 + 8)
    assert per_example.chunk_size(_example_loss, params, batch, memory_budget=3 * per) == 3
    assert per_example.chunk_size(_example_loss, params, batch, memory_budget=per - 1) == 1
    assert per_example.chunk_size(_example_loss, params, batch, memory_budget=1 << 40) == 12
    # the wrt subtree's gradient is smaller than the whole one's
    assert per_example.bytes_per_example(_example_loss, params, batch, wrt=("fc",)) < per
    # a budget for 5 examples gives chunks 5, 5, 2 and the same gradients
    chunked = per_example.per_example_grads(_example_loss, params, batch, memory_budget=5 * per)
    whole = per_example.per_example_grads(_example_loss, params, batch, memory_budget=1 << 40)
    for a, b in zip(jax.tree.leaves(chunked), jax.tree.leaves(whole)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("wrt", [None, ("fc",)])
def test_jvp_dots_equal_per_example_dots(wrt):
    params, batch = _mlp()
    sub = params if wrt is None else params["fc"]
    keys = jax.random.split(jax.random.key(1), 2)
    directions = [jax.tree.map(lambda p, k=k: jax.random.normal(k, p.shape), sub) for k in keys]
    a = per_example.per_example_dots(_example_loss, params, batch, directions, wrt=wrt)
    b = per_example.jvp_dots(_batch_losses, params, batch, directions, wrt=wrt)
    assert a.shape == (2, 12)
    np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)
    # And both equal the explicit dot of a per-example gradient with the direction.
    g0 = jax.grad(_example_loss)(params, jax.tree.map(lambda x: x[0], batch))
    g0 = g0 if wrt is None else g0["fc"]
    explicit = sum(float(jnp.vdot(x, y)) for x, y in
                   zip(jax.tree.leaves(g0), jax.tree.leaves(directions[0])))
    assert float(a[0, 0]) == pytest.approx(explicit, rel=1e-4)
