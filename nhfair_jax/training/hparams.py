"""A method's continuous hyperparameters as traced values of the train state, so that runs
differing only in them (a sweep's trials) run one compiled train step.

The registry names them (`traced_keys`: what the search space draws from a continuous
distribution). The train state carries them as float32 scalars (`TrainState.hparams`); the
jitted step hands the method's loss a `Hyperparameters` view as its `hp` argument, in which
they are the step's values. Everything else the loss reads (variants, modes, integer counts)
stays a Python value of the config, and changes the program as before.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.methods.registry import traced_keys


def initial(method_cfg) -> dict:
    """{name: float32 scalar} of the traced hyperparameters of config.method."""
    return {name: np.float32(method_cfg[name]) for name in traced_keys(method_cfg)}


class Hyperparameters:
    """A read-only view of config.method in which the traced hyperparameters are the step's
    values; any other key reads the config."""

    def __init__(self, cfg, values: dict):
        object.__setattr__(self, "_cfg", cfg)
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        return getattr(object.__getattribute__(self, "_cfg"), name)

    def __getitem__(self, name):
        values = object.__getattribute__(self, "_values")
        return values[name] if name in values else self._cfg[name]

    def __contains__(self, name) -> bool:
        return name in self._cfg

    def get(self, name, default=None):
        return self[name] if name in self else default

    def keys(self):
        return self._cfg.keys()

    def __setattr__(self, name, value):
        raise AttributeError("config.method is read-only inside the train step")


def view(method_cfg, values: dict):
    """The `hp` a loss gets: config.method with `values` for its traced hyperparameters (the
    config itself when there are none)."""
    return Hyperparameters(method_cfg, values) if values else method_cfg
