"""The CPU-fast convolution and max pooling agree with XLA's convolution and flax's max_pool:
values, gradients (reverse mode), forward-mode derivatives and per-example gradients, to 1e-5
on random inputs; and the models give the same logits and gradients with either implementation."""

from __future__ import annotations

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.models import create_model
from nhfair_jax.models.layers import TAPS_MAX, BatchNorm, Conv, batch_norm, conv_patches, \
    conv_tap_matmuls, conv_taps, conv_xla, forward_mode_convolutions, max_pool, \
    per_example_convolutions, resolve_conv_impl

_MORE = pytest.mark.slow  # each case compiles for ~3 s; three run in the quick loop
CONV_CASES = [  # (H, W, c_in, c_out, kernel, stride, padding)
    (9, 9, 3, 5, 3, 1, "SAME"), (2, 2, 8, 8, 3, 1, 1), (11, 7, 3, 4, 7, 2, 3),
    pytest.param((8, 8, 4, 6, 3, 2, 1), marks=_MORE),
    pytest.param((6, 6, 5, 3, 1, 2, 0), marks=_MORE),
    pytest.param((5, 6, 2, 3, 3, 2, "SAME"), marks=_MORE),
    pytest.param((7, 7, 2, 3, 3, 1, "VALID"), marks=_MORE),
    pytest.param((1, 1, 4, 4, 3, 1, 1), marks=_MORE),
]


def _close(a, b, tol=1e-5):
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.abs(b).max()))
    np.testing.assert_allclose(a, b, atol=tol * scale, rtol=0)


@pytest.mark.slow
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: "x".join(map(str, c)))
def test_patch_and_tap_convolutions_match_xla_in_value_gradient_and_jvp(case):
    h, w, c_in, c_out, k, s, p = case
    kx, kw_, kt1, kt2, kr = jax.random.split(jax.random.key(sum(case[:4])), 5)
    x = jax.random.normal(kx, (3, h, w, c_in))
    kernel = jax.random.normal(kw_, (k, k, c_in, c_out))
    tangents = (jax.random.normal(kt1, x.shape), jax.random.normal(kt2, kernel.shape))

    @jax.jit
    def everything(x, kernel, tangents, r):
        """value, reverse-mode gradients of a nonlinear loss, forward-mode derivative"""
        out = {}
        for name, fn in (("xla", conv_xla), ("patches", conv_patches), ("taps", conv_taps),
                         ("tap_matmuls", conv_tap_matmuls)):
            conv = lambda a, b, fn=fn: fn(a, b, (s, s), p)  # noqa: E731
            grads = jax.grad(lambda a, b: jnp.sum(jnp.sin(conv(a, b)) * r), (0, 1))(x, kernel)
            out[name] = (conv(x, kernel), *grads, jax.jvp(conv, (x, kernel), tangents)[1])
        return out

    shape = jax.eval_shape(lambda: conv_xla(x, kernel, (s, s), p)).shape
    out = everything(x, kernel, tangents, jax.random.normal(kr, shape))
    for impl in ("patches", "taps", "tap_matmuls"):
        assert out[impl][0].shape == shape
        for a, b in zip(out[impl], out["xla"]):
            _close(a, b)


def test_tap_convolution_under_vmap_of_its_gradient_equals_a_loop():
    """Per-example kernel gradients through the custom JVP (vmap of grad), as FIS would take
    them, equal single-example gradients one at a time."""
    x = jax.random.normal(jax.random.key(7), (5, 8, 8, 3))
    kernel = jax.random.normal(jax.random.key(8), (3, 3, 3, 4))
    grad = jax.grad(lambda k, xi: jnp.sum(jnp.tanh(conv_taps(xi[None], k)) ** 2))
    batched = jax.jit(jax.vmap(grad, (None, 0)))(kernel, x)
    for i in range(len(x)):
        _close(batched[i], grad(kernel, x[i]))


def test_forward_mode_tap_convolution_pushes_tangents_through_its_own_loop_and_stays_exact():
    """Under forward_mode_convolutions the few-tap convolution's tangent is its multiply-add
    loop (no XLA convolution in the linearised program), equal to XLA's; a gradient of that
    derivative (transposing the loop) is still XLA's too."""
    x = jax.random.normal(jax.random.key(3), (4, 9, 9, 3))
    kernel = jax.random.normal(jax.random.key(4), (3, 3, 3, 5))
    dx, dk = jax.random.normal(jax.random.key(5), x.shape), jax.random.normal(jax.random.key(6),
                                                                             kernel.shape)

    def tangent(conv, dx, dk):
        return jax.jvp(lambda a, b: jnp.tanh(conv(a, b, (1, 1), "SAME")), (x, kernel),
                       (dx, dk))[1]

    def forward_only(dx, dk):
        with forward_mode_convolutions():
            return tangent(conv_taps, dx, dk)

    jaxpr = str(jax.make_jaxpr(forward_only)(dx, dk))
    assert "conv_general_dilated" not in jaxpr
    assert "conv_general_dilated" in str(jax.make_jaxpr(lambda a, b: tangent(conv_taps, a, b))(
        dx, dk))
    _close(jax.jit(forward_only)(dx, dk), tangent(conv_xla, dx, dk))
    _close(jax.jit(forward_only)(jnp.zeros_like(dx), dk),
           tangent(conv_xla, jnp.zeros_like(dx), dk))
    grads = jax.grad(lambda a, b: jnp.sum(forward_only(a, b) ** 2), (0, 1))(dx, dk)
    expected = jax.grad(lambda a, b: jnp.sum(tangent(conv_xla, a, b) ** 2), (0, 1))(dx, dk)
    for a, b in zip(grads, expected):
        _close(a, b)


@pytest.mark.parametrize("window,strides,padding", [((2, 2), (2, 2), "VALID"),
                                                    ((3, 3), (2, 2), ((1, 1), (1, 1))),
                                                    ((2, 2), (1, 1), "VALID"),
                                                    ((3, 3), (2, 2), "SAME")])
def test_max_pool_matches_flax_in_value_and_gradient(window, strides, padding):
    x = jax.random.normal(jax.random.key(0), (2, 8, 10, 3))
    np.testing.assert_array_equal(max_pool(x, window, strides, padding),
                                  nn.max_pool(x, window, strides, padding))
    r = jax.random.normal(jax.random.key(1), nn.max_pool(x, window, strides, padding).shape)
    g_fast = jax.grad(lambda a: jnp.sum(max_pool(a, window, strides, padding) * r))(x)
    g_flax = jax.grad(lambda a: jnp.sum(nn.max_pool(a, window, strides, padding) * r))(x)
    if jax.default_backend() == "cpu":
        np.testing.assert_array_equal(g_fast, g_flax)
    else:  # a GPU adds overlapping windows' cotangents in another order (seen: 1-2 ulp)
        _close(g_fast, g_flax, tol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("window,strides,padding", [((2, 2), (2, 2), "VALID"),
                                                    ((3, 3), (2, 2), ((1, 1), (1, 1)))])
def test_max_pool_routes_a_tie_to_the_first_maximum_like_flax_and_torch(window, strides, padding):
    # rounded normals: most windows hold exact ties, as a constant image background does
    x = jnp.round(jax.random.normal(jax.random.key(2), (2, 9, 9, 4)))
    if window == (2, 2):
        x = x[:, :8, :8]
    r = jax.random.normal(jax.random.key(3), nn.max_pool(x, window, strides, padding).shape)
    g_fast = jax.grad(lambda a: jnp.sum(max_pool(a, window, strides, padding) * r))(x)
    g_flax = jax.grad(lambda a: jnp.sum(nn.max_pool(a, window, strides, padding) * r))(x)
    np.testing.assert_array_equal(g_fast, g_flax)
    # each window hands its whole cotangent to one element (overlapping windows may share it)
    np.testing.assert_allclose(float(g_fast.sum()), float(r.sum()), rtol=1e-5)
    if window == strides:
        assert int((np.asarray(g_fast) != 0).sum()) == r.size


def test_conv_module_has_flax_conv_parameters_and_numbers():
    x = jax.random.normal(jax.random.key(3), (2, 6, 6, 3))
    ours = Conv(4, (3, 3), strides=2, padding=1, use_bias=True, conv_impl="patches")
    theirs = nn.Conv(4, (3, 3), strides=2, padding=1, use_bias=True)
    v_ours = ours.init(jax.random.key(4), x)
    v_theirs = theirs.init(jax.random.key(4), x)
    assert jax.tree.map(jnp.shape, v_ours) == jax.tree.map(jnp.shape, v_theirs)
    _close(ours.apply(v_theirs, x), theirs.apply(v_theirs, x))


def test_auto_picks_tap_matmuls_for_maps_smaller_than_the_kernel_and_taps_for_few_taps(
        monkeypatch):
    monkeypatch.setattr(jax, "default_backend", lambda: "cpu")  # the CPU's choices, anywhere
    assert resolve_conv_impl("auto", (2, 2), (3, 3)) == "tap_matmuls"
    assert resolve_conv_impl("auto", (1, 4), (3, 3)) == "tap_matmuls"
    xla = "xla"
    assert resolve_conv_impl("auto", (4, 4), (3, 3)) == xla
    assert resolve_conv_impl("auto", (1, 1), (1, 1)) == xla
    assert resolve_conv_impl("auto", (4, 4), (3, 3), 27) == "taps"  # an image's first layer
    assert resolve_conv_impl("auto", (4, 4), (3, 3), TAPS_MAX + 1) == xla
    assert resolve_conv_impl("auto", (2, 2), (3, 3), 27) == "tap_matmuls"
    assert resolve_conv_impl("auto", (1, 1), (3, 3), 4608) == "tap_matmuls"
    assert resolve_conv_impl("auto", (1, 1), (1, 1), 512) == xla
    assert resolve_conv_impl("xla", (1, 1), (3, 3)) == "xla"
    with pytest.raises(ValueError, match="conv_impl"):
        resolve_conv_impl("cudnn")
    with per_example_convolutions():  # FIS's per-example path: patches everywhere on the CPU
        assert resolve_conv_impl("auto", (4, 4), (3, 3)) == "patches"
        assert resolve_conv_impl("auto", (4, 4), (3, 3), 27) == "patches"
        assert resolve_conv_impl("xla", (4, 4), (3, 3)) == "xla"  # a forced choice stays
    assert resolve_conv_impl("auto", (4, 4), (3, 3)) == xla


def test_accelerators_take_xla_convolutions_and_patches_for_per_example_gradients(monkeypatch):
    """On an accelerator "auto" is XLA's convolution whatever the shapes, and patches under
    per_example_convolutions (vmap(grad) of ResNet-18 on an H200: 5.5x XLA's grouped kernel
    gradient); the models build the same `Conv` modules there, with flax's pooling."""
    monkeypatch.setattr(jax, "default_backend", lambda: "gpu")
    for shapes in [((2, 2), (3, 3)), ((4, 4), (3, 3), 27), ((1, 1), (3, 3), 4608)]:
        assert resolve_conv_impl("auto", *shapes) == "xla"
        with per_example_convolutions():
            assert resolve_conv_impl("auto", *shapes) == "patches"
            assert resolve_conv_impl("xla", *shapes) == "xla"
    model = create_model("small_cnn", 2)
    x = jnp.ones((2, 16, 16, 3))
    variables = model.init(jax.random.key(0), x, train=False)

    def loss(p, xx):
        logits = model.apply({"params": p, "batch_stats": variables["batch_stats"]}, xx,
                             train=False)
        return jnp.sum(logits ** 2)

    def primitives(fn, *args):
        return {e.primitive.name for e in jax.make_jaxpr(fn)(*args).eqns
                for e in _all_eqns(e)}

    def per_example():  # a new function each time: JAX caches a function's traces
        return jax.vmap(jax.grad(lambda p, xx: loss(p, xx[None])), in_axes=(None, 0))

    assert "conv_general_dilated" in primitives(jax.grad(loss), variables["params"], x)
    assert "conv_general_dilated" in primitives(per_example(), variables["params"], x)
    with per_example_convolutions():
        assert "conv_general_dilated" not in primitives(per_example(), variables["params"], x)


def _all_eqns(eqn):
    """An equation and those of the jaxprs nested in it (jit, custom_jvp, ...)."""
    yield eqn
    for param in eqn.params.values():
        inner = getattr(param, "jaxpr", param)
        for sub in getattr(inner, "eqns", ()):
            yield from _all_eqns(sub)


def _program(module, x):
    """The StableHLO of value_and_grad of sum(module(x)^2), locations stripped."""
    import re

    variables = module.init(jax.random.key(0), x)
    text = jax.jit(jax.value_and_grad(lambda v, xx: jnp.sum(module.apply(v, xx) ** 2))).lower(
        variables, x).as_text()
    text = re.sub(r"loc\([^)]*\)", "", text)
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#loc")]


@pytest.mark.parametrize("strides,padding,use_bias", [(1, "SAME", False), (2, "SAME", True),
                                                      (2, ((1, 1), (1, 1)), False),
                                                      (1, "VALID", True)])
def test_xla_conv_lowers_to_flax_convs_program_in_value_and_gradient(strides, padding, use_bias):
    """`Conv` with XLA's convolution (accelerators' "auto") is flax's Conv op for op, so the
    models' accelerator train step is flax's: the same program, not merely the same numbers."""
    x = jnp.ones((2, 16, 16, 8))
    kwargs = dict(strides=strides, padding=padding, use_bias=use_bias)
    assert _program(Conv(4, (3, 3), conv_impl="xla", **kwargs), x) == \
        _program(nn.Conv(4, (3, 3), **kwargs), x)


@pytest.mark.parametrize("name,size", [("small_cnn", 32),
                                       pytest.param("resnet18", 32, marks=pytest.mark.slow)])
def test_models_give_the_same_logits_and_gradients_with_either_convolution(name, size):
    x = jax.random.normal(jax.random.key(5), (4, size, size, 3))
    y = jnp.array([0, 1, 1, 0])
    models = {impl: create_model(name, 2, conv_impl=impl) for impl in ("xla", "patches", "auto")}
    variables = models["xla"].init(jax.random.key(6), x, train=False)

    def loss(model):
        def f(params):
            # eval-mode batch norm: train mode on 4 images divides by the spread of 4 numbers
            # in ResNet's 1x1 last stage, which turns float rounding into 1e-4 differences
            logits = model.apply({**variables, "params": params}, x)
            return jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(4), y])
        return f

    @jax.jit
    def logits_and_grads(params):
        return {impl: (model.apply({**variables, "params": params}, x),
                       jax.grad(loss(model))(params)) for impl, model in models.items()}

    out = logits_and_grads(variables["params"])
    for impl in ("patches", "auto"):
        for a, b in zip(jax.tree.leaves(out[impl]), jax.tree.leaves(out["xla"])):
            _close(a, b)


def _nonlinear(y, r):
    return jnp.sum(jnp.sin(y) * r)


def _bn_pair(x, **kw):
    """flax's BatchNorm and ours over x, with the same (perturbed) parameters."""
    ours, theirs = BatchNorm(**kw), nn.BatchNorm(**kw)
    variables = theirs.init(jax.random.key(1), x)
    assert jax.tree.map(jnp.shape, ours.init(jax.random.key(1), x)) == \
        jax.tree.map(jnp.shape, variables)  # the same names and shapes: checkpoints load
    params = jax.tree.map(lambda a: a + 0.3 * jax.random.normal(jax.random.key(2), a.shape),
                          variables["params"])
    return ours, theirs, {**variables, "params": params}


@pytest.mark.slow
def test_batch_norm_matches_flax_in_values_statistics_gradients_and_jvp():
    x = jax.random.normal(jax.random.key(0), (6, 5, 4, 3)) * 3.0 + 1.5
    ours, theirs, variables = _bn_pair(x, use_running_average=False, momentum=0.9)
    r = jax.random.normal(jax.random.key(3), x.shape)
    tangents = (jax.random.normal(jax.random.key(4), x.shape),
                jax.tree.map(lambda a: jax.random.normal(jax.random.key(5), a.shape),
                             variables["params"]))

    @jax.jit
    def everything(x, params):
        out = {}
        for key, model in (("ours", ours), ("flax", theirs)):
            def apply(x, p, model=model):
                return model.apply({**variables, "params": p}, x, mutable=["batch_stats"])
            (y, stats) = apply(x, params)
            grads = jax.grad(lambda x, p: _nonlinear(apply(x, p)[0], r), (0, 1))(x, params)
            jvp = jax.jvp(lambda x, p: apply(x, p)[0], (x, params), tangents)[1]
            # forward over reverse (a Hessian-vector product) through the custom rule
            hvp = jax.jvp(lambda x: jax.grad(lambda x: _nonlinear(apply(x, params)[0], r))(x),
                          (x,), (tangents[0],))[1]
            out[key] = (y, stats, grads, jvp, hvp)
        return out

    out = everything(x, variables["params"])
    np.testing.assert_array_equal(out["ours"][0], out["flax"][0])  # same operations, same order
    for a, b in zip(jax.tree.leaves(out["ours"][1:]), jax.tree.leaves(out["flax"][1:])):
        _close(a, b)
    eval_ours = ours.clone(use_running_average=True).apply(variables, x)
    np.testing.assert_array_equal(eval_ours,
                                  theirs.clone(use_running_average=True).apply(variables, x))


@pytest.mark.slow
def test_batch_norm_gradients_under_vmap_equal_a_loop_and_bfloat16_keeps_flax_dtypes():
    """vmap over independent batches (each its own statistics), as per-example or per-group
    gradients would take them, equals one batch at a time; bfloat16 in, bfloat16 out, float32
    statistics, as flax's."""
    xs = jax.random.normal(jax.random.key(6), (3, 4, 2, 2, 5)) + 0.5
    ours, _, variables = _bn_pair(xs[0], use_running_average=False)

    def loss(params, x):
        y, _ = ours.apply({**variables, "params": params}, x, mutable=["batch_stats"])
        return jnp.sum(jnp.tanh(y) ** 2)

    batched = jax.jit(jax.vmap(jax.grad(loss), (None, 0)))(variables["params"], xs)
    for i in range(len(xs)):
        for a, b in zip(jax.tree.leaves(jax.tree.map(lambda g: g[i], batched)),
                        jax.tree.leaves(jax.grad(loss)(variables["params"], xs[i]))):
            _close(a, b)
    half, _ = BatchNorm(use_running_average=False, dtype=jnp.bfloat16).apply(
        variables, xs[0].astype(jnp.bfloat16), mutable=["batch_stats"])
    flax_half, stats = nn.BatchNorm(use_running_average=False, dtype=jnp.bfloat16).apply(
        variables, xs[0].astype(jnp.bfloat16), mutable=["batch_stats"])
    assert half.dtype == flax_half.dtype == jnp.bfloat16
    assert stats["batch_stats"]["mean"].dtype == jnp.float32


def test_batch_norm_derivative_is_zero_through_a_clipped_variance():
    """A constant channel: E[x^2] - mean^2 rounds to <= 0 and is clipped; the derivative stays
    finite (dx = a (dx - mean dx) only) rather than dividing by a negative variance."""
    x = jnp.full((4, 3, 3, 1), 0.1)
    y, mean, var = batch_norm(x, jnp.ones((1,)), jnp.zeros((1,)), 1e-5)
    dx = jax.random.normal(jax.random.key(7), x.shape)
    _, (dy, dmean, dvar) = jax.jvp(lambda x: batch_norm(x, jnp.ones((1,)), jnp.zeros((1,)),
                                                        1e-5), (x,), (dx,))
    assert np.isfinite(np.asarray(dy)).all() and float(var.max()) >= 0
    _close(dy, (dx - dx.mean()) * jax.lax.rsqrt(var + 1e-5), tol=1e-4)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 8, 10, 3), (2, 9, 7, 3)])
def test_tiled_max_pool_forward_mode_and_vmap_match_flax(shape):
    """2x2 windows of stride 2 take the tiled path (its own derivative rule); rows and columns
    past the last window are dropped as flax drops them; ties as in flax."""
    x = jnp.round(jax.random.normal(jax.random.key(8), shape) * 2) / 2  # many exact ties
    jaxpr = str(jax.make_jaxpr(lambda a: max_pool(a, (2, 2), (2, 2)))(x))
    assert "custom_jvp_call" in jaxpr  # the tiled path, not the views
    ref = nn.max_pool(x, (2, 2), (2, 2))
    np.testing.assert_array_equal(max_pool(x, (2, 2), (2, 2)), ref)
    t = jax.random.normal(jax.random.key(9), shape)
    np.testing.assert_array_equal(jax.jvp(lambda a: max_pool(a, (2, 2), (2, 2)), (x,), (t,))[1],
                                  jax.jvp(lambda a: nn.max_pool(a, (2, 2), (2, 2)), (x,), (t,))[1])
    r = jax.random.normal(jax.random.key(10), ref.shape[1:])
    grad = jax.grad(lambda a: jnp.sum(jnp.cos(max_pool(a[None], (2, 2), (2, 2))[0]) * r))
    flax_grad = jax.grad(lambda a: jnp.sum(jnp.cos(nn.max_pool(a[None], (2, 2), (2, 2))[0]) * r))
    batched = jax.jit(jax.vmap(grad))(x)
    for i in range(shape[0]):
        np.testing.assert_array_equal(batched[i], flax_grad(x[i]))


def test_tiled_max_pool_gives_a_nan_window_nan_and_no_gradient():
    x = jnp.arange(32.0).reshape(1, 4, 4, 2).at[0, 0, 1, 0].set(jnp.nan)
    out = max_pool(x, (2, 2), (2, 2))
    assert np.isnan(out[0, 0, 0, 0]) and np.isfinite(np.asarray(out).ravel()[1:]).all()
    g = jax.grad(lambda a: jnp.nansum(max_pool(a, (2, 2), (2, 2))))(x)
    assert float(g[0, :2, :2, 0].sum()) == 0.0 and float(g.sum()) == out.size - 1


@pytest.mark.parametrize("name", ["small_cnn", pytest.param("resnet18", marks=pytest.mark.slow)])
def test_models_train_mode_gradients_match_flax_batch_norm_and_pooling(name):
    """The whole model in train mode: our BatchNorm and pooling against flax's, the same
    loss, gradients and updated statistics."""
    from nhfair_jax.models import layers

    x = jax.random.normal(jax.random.key(11), (8, 32, 32, 3))
    y = jnp.arange(8) % 2
    ours = create_model(name, 2, conv_impl="xla")
    variables = ours.init(jax.random.key(12), x, train=False)

    def loss(params):
        logits, updates = ours.apply({**variables, "params": params}, x, train=True,
                                     mutable=["batch_stats"])
        return jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(8), y]), updates

    ours_out = jax.jit(jax.grad(loss, has_aux=True))(variables["params"])
    saved = layers.BatchNorm, layers.max_pool
    try:
        layers.BatchNorm, layers.max_pool = nn.BatchNorm, nn.max_pool
        flax_out = jax.jit(jax.grad(loss, has_aux=True))(variables["params"])
    finally:
        layers.BatchNorm, layers.max_pool = saved
    for a, b in zip(jax.tree.leaves(ours_out), jax.tree.leaves(flax_out)):
        _close(a, b, tol=1e-4 if name == "resnet18" else 1e-5)


@pytest.mark.slow
def test_accelerators_get_flax_layers_with_the_same_parameter_tree(monkeypatch):
    """Off the CPU batch norm and pooling are flax's own (nn.BatchNorm, nn.max_pool) and the
    convolution `Conv` with XLA's convolution (flax's program: see above), with the parameters
    and statistics of the CPU layers, so one checkpoint serves both."""
    from nhfair_jax.models import layers

    x = jax.random.normal(jax.random.key(5), (2, 16, 16, 3))
    model = create_model("small_cnn", 2, widths=(4, 8))
    on_cpu = model.init(jax.random.key(6), x, train=False)
    cpu_out = model.apply(on_cpu, x, train=False)
    monkeypatch.setattr(jax, "default_backend", lambda: "gpu")
    assert isinstance(layers.conv_layer(4, (3, 3)), layers.Conv)
    assert layers.resolve_conv_impl("auto", (4, 4), (3, 3), 27) == "xla"
    assert isinstance(layers.norm_layer(), nn.BatchNorm)
    off_cpu = model.init(jax.random.key(6), x, train=False)
    assert jax.tree.map(jnp.shape, off_cpu) == jax.tree.map(jnp.shape, on_cpu)
    _close(model.apply(on_cpu, x, train=False), cpu_out)  # the CPU's weights, flax's layers
    pooled = layers.pool(x, (2, 2), (2, 2))
    _close(pooled, nn.max_pool(x, (2, 2), (2, 2)))
