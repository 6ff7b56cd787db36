"""Per-example gradients (vmap of grad, and the closed form layer by layer) and forward-mode dot
products agree with plain loops."""

from __future__ import annotations

import flax.linen as nn
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


@pytest.mark.slow
@pytest.mark.parametrize("chunk", [None, 4, 5, 1])
def test_per_example_grads_equal_a_loop_of_grads(chunk):
    params, batch = _mlp()
    grads = per_example.per_example_grads(_example_loss, params, batch, chunk=chunk)
    one_grad = jax.jit(jax.grad(_example_loss))  # one compilation, not one per primitive
    for i in range(12):
        ex = jax.tree.map(lambda a: a[i], batch)
        ref = one_grad(params, ex)
        for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(ref)):
            np.testing.assert_allclose(a[i], b, rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_subtree_gradients_and_bad_chunk():
    params, batch = _mlp()
    grads = per_example.per_example_grads(_example_loss, params, batch, wrt=("fc",))
    assert set(grads) == {"w", "b"} and grads["w"].shape == (12, 8, 3)
    full = per_example.per_example_grads(_example_loss, params, batch)
    np.testing.assert_allclose(grads["w"], full["fc"]["w"], rtol=1e-6)
    with pytest.raises(ValueError, match="chunk must be at least 1"):
        per_example.per_example_grads(_example_loss, params, batch, chunk=0)


@pytest.mark.slow
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


class _Device:
    """A device as default_memory_budget sees it: a platform and, maybe, memory statistics."""

    def __init__(self, platform, stats=None, error=None):
        self.platform, self._stats, self._error = platform, stats, error

    def memory_stats(self):
        if self._error:
            raise self._error
        return self._stats


def test_default_memory_budget_is_a_gib_on_the_cpu_and_half_an_accelerator():
    gib = 1 << 30
    assert per_example.default_memory_budget(_Device("cpu", {"bytes_limit": 64 * gib})) == gib
    # the limit JAX may allocate, not what is free at trace time: the same chunks every trace
    assert per_example.default_memory_budget(
        _Device("gpu", {"bytes_limit": 100 * gib, "bytes_in_use": 90 * gib})) == 50 * gib
    # never below the CPU's budget, and the CPU's budget where the backend gives no figure
    assert per_example.default_memory_budget(_Device("gpu", {"bytes_limit": gib})) == gib
    assert per_example.default_memory_budget(_Device("tpu", None)) == gib
    assert per_example.default_memory_budget(
        _Device("gpu", error=NotImplementedError("no statistics"))) == gib
    if jax.devices()[0].platform == "cpu":  # this machine's first device, when it is a CPU
        assert per_example.default_memory_budget() == gib
    else:
        assert per_example.default_memory_budget() >= gib


@pytest.mark.slow
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


# --- the closed form, layer by layer (flax models) ------------------------------------------

class _Shared(nn.Module):
    """Our Conv with a bias, BatchNorm in evaluation mode, flax's Conv, and a Dense layer called
    twice (shared weights)."""

    @nn.compact
    def __call__(self, x):
        from nhfair_jax.models.layers import Conv

        h = nn.relu(Conv(4, (3, 3), strides=2, use_bias=True, name="conv_a")(x))
        h = nn.BatchNorm(use_running_average=True, name="bn")(h)
        h = nn.Conv(5, (3, 3), name="conv_b")(h).mean(axis=(1, 2))
        shared = nn.Dense(5, name="shared")
        h = shared(jnp.tanh(shared(h)))
        return nn.Dense(3, name="fc")(h)


def _flax_problem(model=None, n=9):
    model = model or _Shared()
    k = jax.random.split(jax.random.key(2), 5)
    x = jax.random.normal(k[0], (n, 8, 8, 2))
    variables = model.init(k[1], x[:1])
    if "batch_stats" in variables:  # statistics that are not the identity
        variables["batch_stats"] = jax.tree.map(
            lambda s: jax.random.uniform(k[2], s.shape, minval=0.5, maxval=1.5),
            variables["batch_stats"])
    others = {c: v for c, v in variables.items() if c != "params"}
    batch = {"x": x, "y": jax.random.randint(k[3], (n,), 0, 3)}

    def batch_losses(params, b):
        logits = model.apply({"params": params, **others}, b["x"])
        return -jnp.take_along_axis(jax.nn.log_softmax(logits), b["y"][:, None], 1)[:, 0]

    def example_loss(params, ex):
        return batch_losses(params, jax.tree.map(lambda a: a[None], ex))[0]

    return variables["params"], batch, batch_losses, example_loss


@pytest.mark.slow
@pytest.mark.parametrize("budget", [1 << 30, 2000])
def test_per_layer_grads_equal_a_loop_of_grads(budget):
    params, batch, batch_losses, example_loss = _flax_problem()
    grads = jax.jit(lambda p, b: per_example.per_layer_grads(
        batch_losses, p, b, memory_budget=budget))(params, batch)
    assert jax.tree.structure(grads) == jax.tree.structure(params)
    one_grad = jax.jit(jax.grad(example_loss))  # one compilation, not one per primitive
    for i in range(9):
        ref = one_grad(params, jax.tree.map(lambda a: a[i], batch))
        for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(ref)):
            np.testing.assert_allclose(a[i], b, rtol=1e-5, atol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("wrt", [None, ("shared",), ("bn",)])
def test_per_layer_dots_equal_the_other_paths(wrt):
    params, batch, batch_losses, example_loss = _flax_problem()
    sub = params if wrt is None else params[wrt[0]]
    keys = jax.random.split(jax.random.key(3), 2)
    directions = [jax.tree.map(lambda p, k=k: jax.random.normal(k, p.shape), sub) for k in keys]
    closed = jax.jit(lambda p, b, d: per_example.per_layer_dots(batch_losses, p, b, d, wrt=wrt))(
        params, batch, directions)
    by_vmap = jax.jit(lambda p, b, d: per_example.per_example_dots(example_loss, p, b, d, wrt=wrt))(
        params, batch, directions)
    by_jvp = jax.jit(lambda p, b, d: per_example.jvp_dots(batch_losses, p, b, d, wrt=wrt))(
        params, batch, directions)
    assert closed.shape == (2, 9) and float(jnp.abs(by_vmap).max()) > 1e-3
    np.testing.assert_allclose(closed, by_vmap, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(closed, by_jvp, rtol=1e-4, atol=1e-5)
    grads = jax.eval_shape(lambda p, b: per_example.per_layer_grads(batch_losses, p, b, wrt=wrt),
                           params, batch)
    assert jax.tree.structure(grads) == jax.tree.structure(sub)


@pytest.mark.slow
def test_per_layer_on_the_small_cnn_matches_vmap():
    from nhfair_jax.models import create_model

    model = create_model("small_cnn", 3, widths=(4, 8))
    params, batch, batch_losses, example_loss = _flax_problem(model, n=6)
    closed = jax.jit(lambda p, b: per_example.per_layer_grads(batch_losses, p, b))(params, batch)
    ref = jax.jit(lambda p, b: per_example.per_example_grads(example_loss, p, b))(params, batch)
    for a, b in zip(jax.tree.leaves(closed), jax.tree.leaves(ref)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_the_closed_form_traces_a_few_tap_convolution_as_patches():
    """On the CPU "auto" gives a first 3x3 layer over 3 channels the multiply-add loop; inside
    the closed form it becomes patches (XLA recomputed the loop in the backward pass's
    consumers), with the same dot products as the other paths."""
    from nhfair_jax.models import create_model
    from nhfair_jax.models.layers import closed_form_convolutions, resolve_conv_impl

    few_taps = ((8, 8), (3, 3), 18)  # the model's first layer: 3x3 over 2 channels
    with closed_form_convolutions():
        inside = resolve_conv_impl("auto", *few_taps)
    cpu = jax.default_backend() == "cpu"
    assert (resolve_conv_impl("auto", *few_taps), inside) == (("taps", "patches") if cpu
                                                              else ("xla", "xla"))
    params, batch, batch_losses, _ = _flax_problem(create_model("small_cnn", 3, widths=(4, 8)))
    directions = [jax.tree.map(lambda p, k=k: jax.random.normal(k, p.shape), params)
                  for k in jax.random.split(jax.random.key(5), 2)]
    closed = jax.jit(lambda p, b, d: per_example.per_layer_dots(batch_losses, p, b, d))(
        params, batch, directions)
    by_jvp = jax.jit(lambda p, b, d: per_example.jvp_dots(batch_losses, p, b, d))(
        params, batch, directions)
    assert float(jnp.abs(by_jvp).max()) > 1e-3
    np.testing.assert_allclose(closed, by_jvp, rtol=1e-4, atol=1e-5)


class _LooseParam(nn.Module):
    """A parameter outside any leaf layer: the closed form cannot see it."""

    @nn.compact
    def __call__(self, x):
        scale = self.param("scale", nn.initializers.ones, (3,))
        return nn.Dense(3, name="fc")(x.mean(axis=(1, 2))) * scale


@pytest.mark.slow
def test_per_layer_refuses_a_parameter_outside_leaf_layers():
    params, batch, batch_losses, _ = _flax_problem(_LooseParam())
    with pytest.raises(ValueError, match="1 parameter.*not: scale.*per_example_grads"):
        per_example.per_layer_grads(batch_losses, params, batch)
    # restricted to the leaf layer, it works
    assert per_example.per_layer_dots(batch_losses, params, batch, [params["fc"]],
                                      wrt=("fc",)).shape == (1, 9)


class _Doubling(nn.Dense):
    """A leaf layer whose __call__ calls its parent class's: one call, not two."""

    def __call__(self, x):
        return super().__call__(x) * 2.0


class _WithSubclass(nn.Module):
    @nn.compact
    def __call__(self, x):
        return _Doubling(3, name="fc")(jnp.tanh(_Doubling(4, name="hidden")(x.mean((1, 2)))))


@pytest.mark.slow
def test_a_leaf_layer_calling_its_parent_class_is_one_layer():
    params, batch, batch_losses, example_loss = _flax_problem(_WithSubclass())
    d = [jax.tree.map(lambda p: jax.random.normal(jax.random.key(5), p.shape), params)]
    closed = jax.jit(lambda p, b, d: per_example.per_layer_dots(batch_losses, p, b, d))
    by_vmap = jax.jit(lambda p, b, d: per_example.per_example_dots(example_loss, p, b, d))
    np.testing.assert_allclose(closed(params, batch, d), by_vmap(params, batch, d),
                               rtol=1e-4, atol=1e-5)


@pytest.mark.slow
def test_nested_wrt_gives_the_subtrees_per_example_gradients():
    params, batch, batch_losses, example_loss = _flax_problem()
    closed = jax.jit(lambda p, b: per_example.per_layer_grads(batch_losses, p, b, wrt=("shared",)))(
        params, batch)
    ref = jax.jit(lambda p, b: per_example.per_example_grads(example_loss, p, b, wrt=("shared",)))(
        params, batch)
    for a, b in zip(jax.tree.leaves(closed), jax.tree.leaves(ref)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


class _Tied(nn.Module):
    """Embedding weights reused as the output layer (Embed.attend)."""

    @nn.compact
    def __call__(self, x):
        embed = nn.Embed(3, 4, name="embed")
        h = embed(jnp.zeros(x.shape[0], jnp.int32)) + nn.Dense(4, name="fc")(x.mean((1, 2)))
        return embed.attend(h)


class _KeywordInput(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3, name="fc")(inputs=x.mean((1, 2)))


def test_what_the_closed_form_cannot_see_is_an_error():
    params, batch, batch_losses, _ = _flax_problem(_Tied())
    with pytest.raises(ValueError, match="'attend' outside its __call__"):
        per_example.per_layer_dots(batch_losses, params, batch, [params])
    params, batch, batch_losses, _ = _flax_problem(_KeywordInput())
    with pytest.raises(ValueError, match="first positional argument"):
        per_example.per_layer_grads(batch_losses, params, batch)
    params, batch, _, _ = _flax_problem()
    model = _Shared()
    jitted = jax.jit(model.apply)
    others = {}

    def jitted_losses(p, b):  # the model's apply jitted inside: invisible on a second trace
        logits = jitted({"params": p, **others}, b["x"])
        return -jax.nn.log_softmax(logits)[:, 0]

    others.update({c: v for c, v in model.init(jax.random.key(2), batch["x"][:1]).items()
                   if c != "params"})
    with pytest.raises(ValueError, match="second trace"):
        per_example.per_layer_grads(jitted_losses, params, batch)


@pytest.mark.slow
def test_the_public_per_example_path_traces_the_fast_convolutions():
    """per_example_grads is the fast path FIS uses: on the CPU the project's convolutions trace
    as patch matmuls inside it (no convolution primitive, whose kernel gradient under vmap is
    XLA's slow grouped convolution), and the gradients equal a loop of single-example ones."""
    from nhfair_jax.models import create_model

    model = create_model("small_cnn", 3, widths=(4, 8))
    params, batch, _, example_loss = _flax_problem(model, n=4)
    jaxpr = str(jax.make_jaxpr(lambda p: per_example.per_example_grads(example_loss, p, batch))(
        params))
    if jax.default_backend() == "cpu":
        assert "conv_general_dilated" not in jaxpr
    plain = str(jax.make_jaxpr(lambda p: jax.vmap(jax.grad(example_loss), (None, 0))(p, batch))(
        params))
    if jax.default_backend() == "cpu":
        assert "conv_general_dilated" in plain  # the same model outside it: XLA's convolution
    grads = jax.jit(lambda p, b: per_example.per_example_grads(example_loss, p, b))(params, batch)
    one_grad = jax.jit(jax.grad(example_loss))  # one compilation, not one per primitive
    for i in range(4):
        one = one_grad(params, jax.tree.map(lambda x, i=i: x[i], batch))
        for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(one)):
            np.testing.assert_allclose(a[i], b, rtol=1e-4, atol=1e-6)
