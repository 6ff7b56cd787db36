"""Traced hyperparameters reach a loss through its `hp` argument (training/hparams.py): a loss
that read one from `self.cfg` would bake the first run's value into a program that later runs
share. Checked on the source of every registered method's losses (quick), and end to end, one
train step per value, in tests/test_programs.py (slow)."""

from __future__ import annotations

import inspect
import re

import ml_collections

from nhfair_jax.config import method_config
from nhfair_jax.methods import registry
from nhfair_jax.methods.registry import traced_keys
from nhfair_jax.training import hparams


def _loss_sources(cls):
    """The source of every `loss` in the class's method resolution order."""
    return [inspect.getsource(klass.__dict__["loss"]) for klass in cls.__mro__
            if "loss" in klass.__dict__]


def test_no_loss_reads_a_traced_hyperparameter_from_its_config():
    found = []
    for name in sorted(registry.registered()):
        for cf in ("", "cp"):
            try:
                cfg = method_config(name, **({"cf": cf} if cf else {}))
            except ValueError:  # no modifier for this method
                continue
            keys = traced_keys(cfg)
            cls = type(registry.get_method(cfg)) if keys else None
            for source in _loss_sources(cls) if cls else ():
                for key in keys:
                    pattern = (rf"self\.cfg\.{key}\b|self\.cfg\[['\"]{key}['\"]\]"
                               rf"|self\.cfg\.get\(['\"]{key}['\"]")
                    if re.search(pattern, source):
                        found.append((name, cf, key))
    assert not found, f"losses reading traced hyperparameters from self.cfg: {found}"
    assert any(traced_keys(method_config(n)) for n in registry.registered())  # checked some


def test_the_view_gives_the_steps_values_and_the_config_for_the_rest():
    cfg = ml_collections.ConfigDict({"name": "gapreg", "coef": 1.0, "objective": "dp"})
    hp = hparams.view(cfg, {"coef": 2.5})
    assert hp.coef == 2.5 and hp["coef"] == 2.5 and hp.get("coef") == 2.5
    assert hp.objective == "dp" and "objective" in hp and hp.get("missing", 7) == 7
    assert hparams.view(cfg, {}) is cfg  # nothing traced: the config itself
    try:
        hp.coef = 1.0
    except AttributeError:
        pass
    else:
        raise AssertionError("the view must be read-only")
