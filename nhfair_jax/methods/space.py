"""Search spaces: the distributions a method's record names (methods/registry.py), the common
part every trained method searches (learning rate, weight decay, optimizer), and `draw`, which
draws a space's values from an Optuna trial (the registry's `suggest` draws a method's whole
configuration).

A space is a dict {dotted config key: distribution}. Pure: the trial is anything with Optuna's
`suggest_float` / `suggest_categorical`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LogUniform:
    low: float
    high: float


@dataclass(frozen=True)
class Uniform:
    low: float
    high: float


@dataclass(frozen=True)
class Choice:
    options: tuple


# The benchmark paper's Table 7: every trained method searches these as well as its own.
COMMON = {
    "optim.lr": LogUniform(1e-5, 1e-2),
    "optim.weight_decay": Choice((0.0, 1e-5, 1e-4, 1e-3, 1e-2)),
    "optim.name": Choice(("adam", "sgd")),
}


def draw(trial, dists: dict) -> dict:
    """{key: value} drawn from each distribution of `dists` (Optuna names a parameter by key)."""
    out = {}
    for key, dist in dists.items():
        if isinstance(dist, LogUniform):
            out[key] = trial.suggest_float(key, dist.low, dist.high, log=True)
        elif isinstance(dist, Uniform):
            out[key] = trial.suggest_float(key, dist.low, dist.high)
        elif isinstance(dist, Choice):
            out[key] = trial.suggest_categorical(key, list(dist.options))
        else:
            raise TypeError(f"search space of {key!r}: {dist!r} is not a LogUniform, Uniform or "
                            "Choice")
    return out
