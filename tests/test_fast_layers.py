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
from nhfair_jax.models.layers import TAPS_MAX, Conv, conv_patches, conv_tap_matmuls, \
    conv_taps, conv_xla, max_pool, per_example_convolutions, resolve_conv_impl

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
    np.testing.assert_array_equal(g_fast, g_flax)


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


def test_auto_picks_tap_matmuls_for_maps_smaller_than_the_kernel_and_taps_for_few_taps():
    assert jax.default_backend() == "cpu"
    assert resolve_conv_impl("auto", (2, 2), (3, 3)) == "tap_matmuls"
    assert resolve_conv_impl("auto", (1, 4), (3, 3)) == "tap_matmuls"
    assert resolve_conv_impl("auto", (4, 4), (3, 3)) == "xla"
    assert resolve_conv_impl("auto", (1, 1), (1, 1)) == "xla"
    assert resolve_conv_impl("auto", (4, 4), (3, 3), 27) == "taps"  # an image's first layer
    assert resolve_conv_impl("auto", (4, 4), (3, 3), TAPS_MAX + 1) == "xla"
    assert resolve_conv_impl("auto", (2, 2), (3, 3), 27) == "tap_matmuls"
    assert resolve_conv_impl("auto", (1, 1), (3, 3), 4608) == "tap_matmuls"
    assert resolve_conv_impl("auto", (1, 1), (1, 1), 512) == "xla"
    assert resolve_conv_impl("xla", (1, 1), (3, 3)) == "xla"
    with pytest.raises(ValueError, match="conv_impl"):
        resolve_conv_impl("cudnn")
    with per_example_convolutions():  # FIS's per-example path: patches everywhere on the CPU
        assert resolve_conv_impl("auto", (4, 4), (3, 3)) == "patches"
        assert resolve_conv_impl("auto", (4, 4), (3, 3), 27) == "patches"
        assert resolve_conv_impl("xla", (4, 4), (3, 3)) == "xla"  # a forced choice stays
    assert resolve_conv_impl("auto", (4, 4), (3, 3)) == "xla"


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
