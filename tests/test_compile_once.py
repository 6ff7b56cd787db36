"""Compile once, train many: hyperparameters enter the jitted steps as traced values, so runs
that differ only in them share their programs, and JAX's persistent compilation cache (on by
default, nhfair_jax/compile_cache.py) answers every run after the first."""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax import compile_cache
from nhfair_jax.config import method_config
from nhfair_jax.dispatch import run
from nhfair_jax.methods import get_method
from nhfair_jax.methods.registry import traced_keys
from nhfair_jax.training import compiles, hparams, programs
from tests.helpers import TINY_FLAGS, run_cli, tiny_config


def test_traced_keys_are_the_continuous_hyperparameters_of_the_search_space():
    assert traced_keys(method_config("erm")) == ()
    assert traced_keys(method_config("gapreg")) == ("coef",)  # objective is a choice: a program
    assert set(traced_keys(method_config("laftr"))) == {"class_coef", "fair_coef"}
    # a conditional space's branches count (GroupDRO's variants draw different coefficients)
    dro = set(traced_keys(method_config("groupdro")))
    assert dro and all(isinstance(method_config("groupdro")[k], float) for k in dro)
    assert traced_keys(method_config("dfr")) == ()  # post-fit: nothing is jitted per trial
    # a modifier's coefficient too: CP's lambda on any method (+CP)
    plus_cp = method_config("rw")
    plus_cp.cf, plus_cp.cf_lambda = "cp", 2.0
    assert traced_keys(plus_cp) == ("cf_lambda",)


def _linear_apply(variables, images, *, train, features=False, mutable=()):
    logits = images.reshape(images.shape[0], -1) @ variables["params"]["w"]
    out = (logits, images.reshape(images.shape[0], -1)) if features else logits
    return (out, {"batch_stats": {}}) if train else out


@pytest.mark.slow
def test_a_traced_coefficient_gives_the_constant_loss_and_one_program():
    """GapReg's loss with its coefficient traced equals the loss with the coefficient a Python
    constant, for two values, and the jitted loss compiles once for both."""
    rng = np.random.default_rng(0)
    batch = {"image": jnp.asarray(rng.normal(size=(16, 3, 2)), jnp.float32),
             "label": jnp.asarray(rng.integers(0, 2, 16)),
             "group": jnp.asarray(rng.integers(0, 2, 16))}
    params = {"w": jnp.asarray(rng.normal(size=(6, 2)), jnp.float32)}

    def method_with(**kw):
        m = get_method(method_config("gapreg", objective="eod", **kw))
        m.setup({"num_groups": 2, "num_classes": 2})
        return m

    def loss_of(method, hp=None):
        return method.loss(_linear_apply, params, {}, {}, batch, jax.random.key(1), hp).loss

    method = method_with()

    @jax.jit
    def traced_loss_for_the_compile_once_test(values):
        return loss_of(method, hparams.view(method.cfg, values))

    values = [{"coef": jnp.float32(c)} for c in (0.5, 4.0)]
    before = compiles.snapshot()
    losses = [traced_loss_for_the_compile_once_test(v) for v in values]
    assert compiles.since(before) == {"jit(traced_loss_for_the_compile_once_test)": 1}
    for coef, loss in zip((0.5, 4.0), losses):
        assert float(loss) == pytest.approx(float(loss_of(method_with(coef=coef))), rel=1e-6)
    assert float(losses[1]) > float(losses[0])  # the value reached the loss
    assert hparams.initial(method.cfg) == {"coef": np.float32(1.0)}


def test_the_default_cache_folder_and_its_switches(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    folder = compile_cache.default_dir(env)
    assert folder.startswith(str(tmp_path / "nhfair-jax" / "xla-jax"))
    assert folder.endswith(jax.__version__)  # versions never share a folder
    assert compile_cache.default_dir({**env, "NHFAIR_COMPILE_CACHE": "off"}) is None
    assert compile_cache.default_dir({**env, "NHFAIR_COMPILE_CACHE": str(tmp_path / "c")}) \
        == str(tmp_path / "c")
    # a cache the user set up for JAX itself is left alone
    assert compile_cache.default_dir({**env, "JAX_COMPILATION_CACHE_DIR": "/x"}) is None


def _first_epoch(workdir):
    return json.loads(open(os.path.join(workdir, "log.jsonl")).readline())


@pytest.mark.slow
def test_runs_differing_in_hyperparameters_compile_nothing_after_the_first(tmp_path):
    """A second GapReg run with another learning rate, weight decay, coefficient and seed finds
    every program of its first epoch in the persistent cache (compile requests only, each one
    a cache hit), and so does a third in another process; a run with another model width (a
    new shape) does compile."""
    cache = tmp_path / "cache"
    names = ("jax_compilation_cache_dir", "jax_persistent_cache_min_compile_time_secs",
             "jax_persistent_cache_min_entry_size_bytes", "jax_compilation_cache_max_size")
    before = {name: getattr(jax.config, name) for name in names}
    # the process's kept programs dropped: an earlier test of this worker that ran the same
    # static configuration would hand its program to the first run, which would then compile
    # (and write to the new cache) nothing of it, and the third run's process would miss it
    programs.clear()
    compile_cache.use(str(cache))
    try:
        first = tiny_config(**{"train.epochs": 1, "optim.lr": 1e-3, "seed": 0})
        first.method = method_config("gapreg", coef=1.0)
        run(first, str(tmp_path / "a"))
        second = tiny_config(**{"train.epochs": 1, "optim.lr": 3e-3, "optim.weight_decay": 1e-4,
                                "seed": 1})
        second.method = method_config("gapreg", coef=2.5)
        run(second, str(tmp_path / "b"))
        entry = _first_epoch(tmp_path / "b")
        assert entry["compiles"] > 0 and entry["cache_hits"] == entry["compiles"], entry
    finally:  # the session's own cache settings back
        from jax.experimental.compilation_cache import compilation_cache as jax_cache

        for name, value in before.items():
            jax.config.update(name, value)
        jax_cache.reset_cache()
    proc = run_cli("--config", "configs/digitsb.py:gapreg", f"--workdir={tmp_path / 'c'}",
                   *TINY_FLAGS, "--config.train.epochs=1", "--config.optim.lr=0.005",
                   "--config.method.coef=0.2", "--config.seed=2",
                   f"--compile_cache={cache}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    entry = _first_epoch(tmp_path / "c")
    assert entry["compiles"] > 0 and entry["cache_hits"] == entry["compiles"], entry
    proc = run_cli("--config", "configs/digitsb.py:gapreg", f"--workdir={tmp_path / 'd'}",
                   "--config.model.cnn_widths=(8, 16, 24)", "--config.train.progress=False",
                   "--config.train.epochs=1", f"--compile_cache={cache}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    entry = _first_epoch(tmp_path / "d")
    assert entry["cache_hits"] < entry["compiles"], entry
    assert np.isfinite(entry["compile_s"]) and entry["compile_s"] > 0
