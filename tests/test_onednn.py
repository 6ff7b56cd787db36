"""oneDNN's convolution inside jit (models/onednn.py) against XLA's: values, reverse mode, forward
mode, second order and vmap to float32 rounding on random inputs; the models' gradients with it;
the fallbacks (other dtypes, turned off, a failed build) and the availability CI requires."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.models import create_model, onednn
from nhfair_jax.models.layers import conv_onednn, conv_xla, resolve_conv_impl


def test_onednn_is_available_where_ci_requires_it():
    """.ci/run installs the `onednn` extra and sets NHFAIR_REQUIRE_ONEDNN=1, so that the tests
    below cannot all skip there unnoticed."""
    ok, reason = onednn.status()
    if os.environ.get("NHFAIR_REQUIRE_ONEDNN") == "1":
        assert ok, reason
    elif not ok:
        pytest.skip(reason)


needs_onednn = pytest.mark.skipif(not onednn.available(), reason=onednn.status()[1])

CASES = [  # (H, W, c_in, c_out, kernel, stride, padding)
    (9, 9, 3, 5, 3, 1, "SAME"), (11, 7, 3, 4, 7, 2, 3), (8, 8, 16, 8, 3, 2, 1),
    (6, 5, 4, 6, 1, 2, 0), (5, 6, 2, 3, 3, 2, "SAME"), (7, 7, 2, 3, 3, 1, "VALID"),
    (6, 6, 3, 2, 3, (2, 1), ((0, 2), (1, 0))),
]


def _close(a, b, tol=1e-5):
    a, b = np.asarray(a), np.asarray(b)
    np.testing.assert_allclose(a, b, atol=tol * max(1.0, float(np.abs(b).max())), rtol=0)


def _uses_onednn(fn, *args) -> bool:
    return "nhfair_onednn_conv" in str(jax.make_jaxpr(fn)(*args))


@needs_onednn
@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c)))
def test_values_gradients_forward_mode_and_second_order_match_xla(case):
    h, w, c_in, c_out, k, s, p = case
    strides = (s, s) if isinstance(s, int) else s
    kx, kk, kt1, kt2, kr = jax.random.split(jax.random.key(h * w + c_in), 5)
    x = jax.random.normal(kx, (3, h, w, c_in))
    kernel = jax.random.normal(kk, (k, k, c_in, c_out))
    tangents = (jax.random.normal(kt1, x.shape), jax.random.normal(kt2, kernel.shape))
    r = jax.random.normal(kr, jax.eval_shape(lambda: conv_xla(x, kernel, strides, p)).shape)

    def everything(fn):
        conv = lambda a, b: fn(a, b, strides, p)  # noqa: E731
        loss = lambda a, b: jnp.sum(jnp.sin(conv(a, b)) * r)  # noqa: E731
        grads = jax.grad(loss, (0, 1))(x, kernel)
        jvp = jax.jvp(conv, (x, kernel), tangents)[1]
        # forward over reverse and reverse over reverse: the transposes' own derivatives
        hvp = jax.jvp(lambda b: jax.grad(loss, 1)(x, b), (kernel,), (tangents[1],))[1]
        gg = jax.grad(lambda a: jnp.sum(jax.grad(loss, 1)(a, kernel) ** 2))(x)
        return conv(x, kernel), *grads, jvp, hvp, gg

    assert _uses_onednn(lambda a, b: conv_onednn(a, b, strides, p), x, kernel)
    ours, ref = jax.jit(lambda: everything(conv_onednn))(), jax.jit(lambda: everything(conv_xla))()
    for a, b in zip(ours, ref):
        assert a.shape == b.shape
        _close(a, b, 1e-4 if a is ours[-1] else 1e-5)
    # eagerly too (each primitive compiled on its own)
    _close(conv_onednn(x, kernel, strides, p), ref[0])


@needs_onednn
def test_vmap_computes_with_xla_and_matches_a_loop():
    """Per-example kernel gradients (vmap over the examples, the kernel not mapped) and a vmap
    over kernels (the input not mapped) agree with a loop of single calls."""
    x = jax.random.normal(jax.random.key(0), (4, 6, 6, 3))
    kernels = jax.random.normal(jax.random.key(1), (2, 3, 3, 3, 5))

    def loss(k, xi):
        return jnp.sum(conv_onednn(xi[None], k, (1, 1), "SAME") ** 2)

    per_example = jax.jit(jax.vmap(jax.grad(loss), (None, 0)))(kernels[0], x)
    for i in range(4):
        _close(per_example[i], jax.grad(loss)(kernels[0], x[i]))
    over_kernels = jax.vmap(lambda k: conv_onednn(x, k, (2, 2), 1))(kernels)
    for j in range(2):
        _close(over_kernels[j], conv_xla(x, kernels[j], (2, 2), 1))


@needs_onednn
def test_same_inputs_give_bitwise_the_same_numbers():
    """A resumed run must end with the same numbers: no run-to-run variation in oneDNN's sums."""
    x = jax.random.normal(jax.random.key(2), (8, 12, 12, 16))
    kernel = jax.random.normal(jax.random.key(3), (3, 3, 16, 16))
    f = jax.jit(jax.value_and_grad(lambda a, b: jnp.sum(jnp.tanh(conv_onednn(a, b))), (0, 1)))
    first, second = f(x, kernel), f(x, kernel)
    for a, b in zip(jax.tree.leaves(first), jax.tree.leaves(second)):
        np.testing.assert_array_equal(a, b)


@needs_onednn
def test_other_dtypes_use_xla():
    x = jax.random.normal(jax.random.key(4), (2, 5, 5, 3), jnp.bfloat16)
    kernel = jax.random.normal(jax.random.key(5), (3, 3, 3, 4), jnp.bfloat16)
    assert not _uses_onednn(conv_onednn, x, kernel)
    np.testing.assert_array_equal(conv_onednn(x, kernel), conv_xla(x, kernel))


@needs_onednn
def test_auto_resolves_to_onednn_and_off_switch(monkeypatch):
    assert resolve_conv_impl("auto", (4, 4), (3, 3), 576) == "onednn"
    assert resolve_conv_impl("auto", (2, 2), (3, 3), 576) == "tap_matmuls"  # tiny maps stay
    assert resolve_conv_impl("auto", (4, 4), (3, 3), 27) == "taps"  # first layers stay
    monkeypatch.setenv("NHFAIR_ONEDNN", "0")
    assert onednn.status() == (False, "turned off by NHFAIR_ONEDNN")
    assert resolve_conv_impl("auto", (4, 4), (3, 3), 576) == "xla"
    with pytest.raises(ValueError, match="oneDNN is unavailable.*NHFAIR_ONEDNN.*'auto' or 'xla'"):
        resolve_conv_impl("onednn", (4, 4), (3, 3))


@needs_onednn
@pytest.mark.parametrize("name", ["small_cnn", pytest.param("resnet18", marks=pytest.mark.slow)])
def test_models_give_xla_s_logits_and_gradients(name):
    """A whole forward and gradient: conv_impl="auto" (oneDNN's where XLA's was) against
    conv_impl="xla" everywhere (eval-mode batch norm: train mode over 4 images divides by the
    spread of 4 numbers in ResNet's last stage, which turns float rounding into 1e-4)."""
    x = jax.random.normal(jax.random.key(6), (4, 32, 32, 3))
    y = jnp.array([0, 1, 1, 0])
    outs = {}
    for impl in ("auto", "xla"):
        model = create_model(name, 2, conv_impl=impl)
        variables = model.init(jax.random.key(0), x[:1], train=False)

        def loss(params):
            logits = model.apply({**variables, "params": params}, x)
            return jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(4), y]), logits

        fn = jax.jit(jax.value_and_grad(loss, has_aux=True))
        if impl == "auto":
            assert _uses_onednn(fn, variables["params"])
        outs[impl] = fn(variables["params"])
    for a, b in zip(jax.tree.leaves(outs["auto"]), jax.tree.leaves(outs["xla"])):
        _close(a, b)


def test_missing_extra_or_compiler_falls_back_quietly(monkeypatch, tmp_path):
    monkeypatch.setattr(onednn, "_state", {})
    monkeypatch.setenv("NHFAIR_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NHFAIR_ONEDNN", "1")
    monkeypatch.setattr(onednn, "LIBRARY_DIST", "no-such-onednn-dist")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ok, reason = onednn.status()
    assert not ok and "no-such-onednn-dist is not installed" in reason
    assert 'pip install -e ".[onednn]"' in reason
    assert resolve_conv_impl("auto", (4, 4), (3, 3), 576) == "xla"


@needs_onednn
def test_failed_build_warns_once_and_falls_back(monkeypatch, tmp_path):
    monkeypatch.setattr(onednn, "_state", {})
    monkeypatch.setenv("NHFAIR_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CXX", "false")  # a "compiler" that fails
    with pytest.warns(RuntimeWarning, match="oneDNN convolutions unavailable, XLA's used"):
        ok, reason = onednn.status()
    assert not ok and reason.startswith("build failed") and "false" in reason
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once: the second call is quiet
        assert onednn.status() == (ok, reason)
    assert list(tmp_path.iterdir()) == []  # no half-written library left behind


@pytest.mark.slow
@needs_onednn
def test_concurrent_first_builds_in_one_cache_both_succeed(tmp_path):
    """Two processes (pytest workers) building into an empty cache at once: each writes a
    temporary file and renames it, so both load a whole library."""
    code = ("from nhfair_jax.models import onednn, layers; import jax; "
            "ok, why = onednn.status(); assert ok, why; "
            "x = jax.numpy.ones((1, 4, 4, 2)); k = jax.numpy.ones((3, 3, 2, 2)); "
            "print(float(layers.conv_onednn(x, k).sum()))")
    env = {**os.environ, "NHFAIR_CACHE_DIR": str(tmp_path)}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err[-2000:] for _, err in outs]
    assert {out.strip() for out, _ in outs} == {"400.0"}  # (4 * 4 + 8 * 6 + 4 * 9) * 2 * 2
    assert [p.suffix for p in tmp_path.iterdir()] == [".so"]
