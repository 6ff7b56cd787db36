"""The XLA CPU flags `runtime.setup()` sets (every command calls it): when, what, and that they keep
the numbers."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax import xla_flags
from nhfair_jax.models.layers import conv_xla

FLAG = "--xla_cpu_experimental_ynn_fusion_type=-individual_convolution,-individual_dot"
IN_RANGE = "0.10.2"


def test_flags_added_in_the_verified_jaxlib_range_only():
    assert xla_flags.flags_to_add({}, IN_RANGE) == [FLAG]
    assert xla_flags.flags_to_add({}, "0.10.0rc1") == [FLAG]
    for version in ("0.4.30", "0.8.1", "0.9.2", "0.11.0", "1.0.0"):
        assert xla_flags.flags_to_add({}, version) == [], version


def test_the_users_own_setting_and_the_opt_out_win():
    mine = {"XLA_FLAGS": "--xla_cpu_experimental_ynn_fusion_type= --xla_cpu_use_xnnpack=false"}
    assert xla_flags.flags_to_add(mine, IN_RANGE) == []
    for off in ("0", "off", "False", " no "):
        assert xla_flags.flags_to_add({"NHFAIR_XLA_CPU_FLAGS": off}, IN_RANGE) == []
    assert xla_flags.flags_to_add({"NHFAIR_XLA_CPU_FLAGS": "1"}, IN_RANGE) == [FLAG]


def test_apply_appends_and_keeps_other_flags(monkeypatch):
    monkeypatch.setattr(xla_flags, "flags_to_add",
                        lambda environ: [FLAG] if FLAG not in environ.get("XLA_FLAGS", "") else [])
    env = {"XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    assert xla_flags.apply(env) == [FLAG]
    assert env["XLA_FLAGS"] == f"--xla_force_host_platform_device_count=2 {FLAG}"
    assert xla_flags.apply(env) == []  # not twice
    empty = {}
    xla_flags.apply(empty)
    assert empty["XLA_FLAGS"] == FLAG


def test_the_pinned_jaxlib_is_in_the_flags_verified_range():
    """pyproject.toml pins jax and jaxlib to the minor release whose flags are verified, so the
    tests below run (and assert) on every install the project allows."""
    import importlib.metadata

    version = importlib.metadata.version("jaxlib")
    assert xla_flags.flags_to_add({}, version) == [FLAG], version


def test_the_flag_is_in_force_in_this_process():
    """What the flag is for: a 16-channel convolution and a matrix product are XLA's own
    (multi-threaded Eigen), not YNNPACK fusions. If XLA changes its routing this fails, and the
    flag's docstring needs a look."""
    assert FLAG in xla_flags.applied() or FLAG in os.environ.get("XLA_FLAGS", "")
    x, k = jnp.ones((4, 8, 8, 16)), jnp.ones((3, 3, 16, 32))
    assert "__ynn_fusion" not in jax.jit(conv_xla).lower(x, k).compile().as_text()
    a, b = jnp.ones((512, 288)), jnp.ones((288, 64))
    assert "__ynn_fusion" not in jax.jit(jnp.dot).lower(a, b).compile().as_text()


_GRADS = textwrap.dedent("""
    import sys
    import numpy as np
    from nhfair_jax import runtime
    runtime.setup()  # sets (or, with NHFAIR_XLA_CPU_FLAGS=0, does not set) the flags
    import jax, jax.numpy as jnp, optax
    from nhfair_jax.models import create_model
    name, size, batch, out, impl = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:]
    model = create_model(name, 2, conv_impl=impl)
    x = jax.random.normal(jax.random.key(0), (batch, size, size, 3))
    y = jax.random.randint(jax.random.key(1), (batch,), 0, 2)
    v = model.init(jax.random.key(2), x[:1], train=False)
    def loss(p):
        logits, _ = model.apply({"params": p, "batch_stats": v["batch_stats"]}, x, train=True,
                                mutable=["batch_stats"])
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    value, grads = jax.jit(jax.value_and_grad(loss))(v["params"])
    leaves = jax.tree_util.tree_leaves_with_path(grads)
    np.savez(out, loss=np.asarray(value),
             **{jax.tree_util.keystr(k): np.asarray(g) for k, g in leaves})
""")


NO_YNN = "--xla_cpu_experimental_ynn_fusion_type="  # no YNNPACK fusion of any kind


def _grads(tmp_path, name, size, batch, flags_on: bool, conv_impl: str = "auto",
           ynn: bool = True):
    out = tmp_path / f"{name}_{flags_on}_{conv_impl}_{ynn}.npz"
    own = [t for t in os.environ.get("XLA_FLAGS", "").split() if t != FLAG]
    env = {**os.environ, "NHFAIR_XLA_CPU_FLAGS": "1" if flags_on else "0",
           "XLA_FLAGS": " ".join(own + ([] if ynn else [NO_YNN]))}
    subprocess.run([sys.executable, "-c", _GRADS, name, str(size), str(batch), str(out), conv_impl],
                   env=env, check=True, capture_output=True, text=True, timeout=600)
    return dict(np.load(out))


def _assert_close(a, b, tol=1e-5):
    assert a.keys() == b.keys() and len(a) > 3
    for key in a:
        scale = max(float(np.abs(b[key]).max()), 1e-12)
        assert np.abs(a[key] - b[key]).max() <= tol * scale, key


@pytest.mark.slow
def test_small_cnn_train_step_gradients_are_the_same_with_and_without_the_flags(tmp_path):
    """With the flags, as with XLA's defaults and as with every convolution computed as a patch
    matmul instead (an independent route through the same arithmetic)."""
    on = _grads(tmp_path, "small_cnn", 32, 16, True)
    _assert_close(on, _grads(tmp_path, "small_cnn", 32, 16, False))
    _assert_close(on, _grads(tmp_path, "small_cnn", 32, 16, True, "patches"))


@pytest.mark.slow
def test_resnet18_train_step_gradients_with_the_flags_match_an_independent_computation(tmp_path):
    """ResNet-18 at batch 8, 32 px: with the flags, the gradients of the package's convolutions
    and those of every convolution as a patch matmul both equal a reference with every
    convolution as a patch matmul and no YNNPACK fusion at all, to 5e-5 of each leaf's largest
    entry (a 1e-7 relative change of the input moves them by about 1e-5, float32's floor
    through 20 layers: the problem is well conditioned). Neither held before the flags in
    jaxlib 0.10.2: with XLA's default route the package's gradients of the first strided
    convolution's kernel (layer2_0.conv1) and everything below it differed by 1-7% (each
    convolution alone is exact to 1e-6; it is the YNNPACK fusion in the network), and with
    `-individual_convolution` alone the patches' gradient of that kernel was 7% off on an AMD
    EPYC (YNNPACK's matrix products in the network; `-individual_dot` fixes it)."""
    reference = _grads(tmp_path, "resnet18", 32, 8, True, "patches", ynn=False)
    _assert_close(_grads(tmp_path, "resnet18", 32, 8, True), reference, tol=5e-5)
    _assert_close(_grads(tmp_path, "resnet18", 32, 8, True, "patches"), reference, tol=5e-5)
