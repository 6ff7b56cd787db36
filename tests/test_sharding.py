"""Data-parallel training over 4 simulated CPU devices matches one device."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.helpers import REPO

SCRIPT = textwrap.dedent("""
    import jax, numpy as np
    jax.config.update("jax_enable_x64", True)  # for the float64 reference; float32 runs unchanged
    import jax.numpy as jnp
    assert jax.device_count() == 4, jax.devices()
    from nhfair_jax import models
    from nhfair_jax.data import get_sources
    from nhfair_jax.data.pipeline import iterate, train_dataset
    from nhfair_jax.methods import get_method
    from nhfair_jax.training.optim import make_optimizer
    from nhfair_jax.training.state import init_state
    from nhfair_jax.training.step import make_mesh, make_train_step, replicate, shard_batch
    from tests.helpers import tiny_config

    # SGD: Adam divides by sqrt(v), which turns float reordering in a near-zero gradient into
    # 2e-5 parameter differences after 8 steps on some CPUs; SGD's update is linear in it.
    c = tiny_config(**{"optim.name": "sgd", "optim.lr": 0.05})
    train = get_sources("digitsb", None)["train"]
    method = get_method(c.method)
    batches = list(iterate(train_dataset(train, batch_size=64, seed=0, epoch=1)))[:8]

    def run(devices, batches=batches, dtype=jnp.float32):
        model = models.create_model("small_cnn", 2, widths=(8, 16, 32), dtype=dtype)
        mesh = make_mesh(devices)
        tx = make_optimizer(c.optim)
        state = init_state(model, tx, method, image_shape=(32, 32, 3),
                           init_key=jax.random.key(0), train_key=jax.random.key(1), info={})
        state = replicate(state, mesh)
        step = make_train_step(method, model.apply, tx, mesh, num_groups=2, num_classes=2)
        losses, counts = [], 0
        for b in batches:
            sharded = shard_batch(b, mesh, method.batch_keys)
            assert len(sharded["image"].sharding.device_set) == len(devices)
            state, out = step(state, sharded)
            losses.append(float(out["loss"]))
            counts = counts + np.asarray(out["confusion"])
        return state, np.array(losses), counts

    one, l1, c1 = run(jax.devices()[:1])
    four, l4, c4 = run(jax.devices())
    start, _, _ = run(jax.devices()[:1], batches=[])
    exact, _, _ = run(jax.devices()[:1], dtype=jnp.float64)  # computed in float64
    np.testing.assert_allclose(l4, l1, atol=1e-5, rtol=1e-5)
    # Each run reproduces, to 1% of how far the 8 steps moved each leaf, the same training
    # computed in float64. Why not one run against the other to 1e-5: a device sums a channel's
    # BatchNorm statistics over its rows in float32, with a relative error up to N * 2^-24 =
    # 0.4% for the 65,536 activations (64 x 32 x 32) of one device, and XLA's CPU reductions
    # (used for 16 rows a device) are less exact than YNNPACK's (for 64 rows): on an AMD EPYC
    # four devices were 0.3% of the movement from float64 and one device 0.01%. A sharding
    # bug is far beyond 1%: training on the first device's rows alone moves leaves by 90%.
    for tree in ("params", "batch_stats"):
        runs = [jax.tree.leaves(getattr(s, tree)) for s in (one, four, start, exact)]
        for i, (a, b, z, ref) in enumerate(zip(*runs)):
            a, b, z, ref = (np.asarray(x, np.float64) for x in (a, b, z, ref))
            moved = np.abs(ref - z).max()
            for name, x in (("one device", a), ("four devices", b)):
                err = np.abs(x - ref).max()
                assert err <= 0.01 * moved, (name, tree, i, err, moved)
    # Counts summed over the sharded batch cover every example; at most a prediction sitting on
    # the decision boundary may move between cells with float reordering.
    assert c4.sum() == c1.sum() == 8 * 64
    assert np.abs(c4 - c1).sum() <= 2
    print("ok", float(np.abs(l4 - l1).max()))
""")


@pytest.mark.slow
def test_four_simulated_devices_train_as_one_device_does():
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4",
           "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("ok")
