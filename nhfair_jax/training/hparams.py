"""A method's continuous hyperparameters as traced values of the train state, so that runs
differing only in them (a sweep's trials) run one compiled train step.

The registry names them (`traced_keys`: what the search space draws from a continuous
distribution). The train state carries them as float32 scalars (`TrainState.hparams`); inside
the jitted step the method reads `self.cfg.<name>` as usual and gets the traced value: the step
traces a shallow copy of the method whose `cfg` is a `TracedConfig` view. Everything else the
method reads from its config (variants, modes, integer counts) stays a Python value, and
changes the program as before.
"""

from __future__ import annotations

import copy

import numpy as np

from nhfair_jax.methods.registry import traced_keys


def initial(method_cfg) -> dict:
    """{name: float32 scalar} of the traced hyperparameters of config.method."""
    return {name: np.float32(method_cfg[name]) for name in traced_keys(method_cfg)}


class TracedConfig:
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


def traced(method, values: dict):
    """`method` seeing `values` for its traced hyperparameters (itself when there are none)."""
    if not values:
        return method
    view = copy.copy(method)
    view.cfg = TracedConfig(method.cfg, values)
    return view
