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
    model = models.create_model("small_cnn", 2, widths=(8, 16, 32))
    method = get_method(c.method)
    batches = list(iterate(train_dataset(train, batch_size=64, seed=0, epoch=1)))[:8]

    def run(devices):
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
    np.testing.assert_allclose(l4, l1, atol=1e-5, rtol=1e-5)
    for a, b in zip(jax.tree.leaves(four.params), jax.tree.leaves(one.params)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=1e-5, rtol=1e-5)
    for a, b in zip(jax.tree.leaves(four.batch_stats), jax.tree.leaves(one.batch_stats)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=1e-5, rtol=1e-5)
    # Counts summed over the sharded batch cover every example; at most a prediction sitting on
    # the decision boundary may move between cells with float reordering.
    assert c4.sum() == c1.sum() == 8 * 64
    assert np.abs(c4 - c1).sum() <= 2
    print("ok", float(np.abs(l4 - l1).max()))
""")


@pytest.mark.slow
def test_four_simulated_devices_match_one_device_to_1e_5():
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4",
           "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("ok")
