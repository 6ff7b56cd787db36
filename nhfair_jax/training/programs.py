"""A process's jitted programs, kept by what makes them differ, so that a run whose programs
exist already (a sweep's next trial, a seed re-run of the same configuration) starts training
at once instead of tracing and lowering them again (0.3-0.6 s a run on a 2-core CPU).

A program's key is what its trace reads: the method's class, its config without the traced
hyperparameters (those are values of the train state, training/hparams.py), every other
attribute the method holds (flax modules, widths, optimizers: compared by value where they
define equality), the number of classes and groups, the model (flax modules compare by their
fields), the optimizer's config and phase, and the devices. `info`, the run's data and seed as
the method's hooks see them, is left out: the hooks run on the host, and a method reads only
the number of classes and groups from it in its loss. A method holding something that cannot be
compared (an array, a function made for the run) gets no key, and its run builds its programs
afresh, as before. A cached program traces the first run's method object; the values that
differ between runs reach it through the train state.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict

from nhfair_jax.methods.phases import PhasedMethod
from nhfair_jax.methods.registry import traced_keys
from nhfair_jax.rundir import to_json_safe

LIMIT = 64  # programs kept (least recently used dropped): a benchmark holds a few dozen
_PROGRAMS: OrderedDict = OrderedDict()
# programs built and reused by this process (tests and the benchmarks read them)
COUNTS = {"built": 0, "reused": 0}


class _Unkeyable(Exception):
    pass


def _freeze(value):
    """A hashable stand-in for an attribute's value, or _Unkeyable."""
    if isinstance(value, dict):
        return ("dict", tuple((k, _freeze(v)) for k, v in sorted(value.items(), key=repr)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_freeze(v) for v in value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value).__eq__ is object.__eq__:  # compared by identity: made for this run
        raise _Unkeyable(type(value).__name__)
    try:
        hash(value)
    except TypeError as e:
        raise _Unkeyable(type(value).__name__) from e
    return value


def method_key(method, *, hparams_traced: bool = True):
    """What a method's programs read of it, or None when it holds something that cannot be
    compared (its run then builds its own programs). `hparams_traced`: the program reads the
    traced hyperparameters from the train state (the train step); False: from the config, as
    constants (the evaluation step), so their values are part of the key."""
    cfg = method.cfg
    traced = set(traced_keys(cfg)) if hparams_traced and "name" in cfg else set()
    static = {k: v for k, v in cfg.items() if k not in traced}
    try:
        attrs = tuple((name, _freeze(value)) for name, value in sorted(vars(method).items())
                      if name not in ("cfg", "info"))
    except _Unkeyable:
        return None
    info = getattr(method, "info", {}) or {}
    text = json.dumps(to_json_safe(static), sort_keys=True, default=repr)
    return (type(method), hashlib.sha256(text.encode()).hexdigest(), attrs,
            info.get("num_classes"), info.get("num_groups"))


def optimizer_key(optim, method) -> str:
    """What the train step's optimizer reads of config.optim: its learning rate, weight decay
    and momentum are values of the optimizer state (optax.inject_hyperparams) and left out,
    except whether there is momentum (SGD without it has no buffer); a phased method may build
    a phase's optimizer with constants, so all of its config counts."""

    values = dict(optim.to_dict() if hasattr(optim, "to_dict") else optim)
    if not isinstance(method, PhasedMethod):
        values.pop("lr", None)
        values.pop("weight_decay", None)
        values["momentum"] = bool(values.get("momentum"))
    return json.dumps(to_json_safe(values), sort_keys=True, default=repr)


def mesh_key(mesh) -> tuple:
    return tuple(int(d.id) for d in mesh.devices.flat), tuple(mesh.axis_names)


def program(kind: str, key, build):
    """The program `build()` makes, kept under (kind, key); `key` None: built, not kept."""
    if key is None:
        COUNTS["built"] += 1
        return build()
    full = (kind, *key)
    try:
        found = _PROGRAMS.get(full)
    except TypeError:  # an attribute whose hash failed after all: not kept
        COUNTS["built"] += 1
        return build()
    if found is not None:
        _PROGRAMS.move_to_end(full)
        COUNTS["reused"] += 1
        return found
    COUNTS["built"] += 1
    made = _PROGRAMS[full] = build()
    while len(_PROGRAMS) > LIMIT:
        _PROGRAMS.popitem(last=False)
    return made


def clear() -> None:
    _PROGRAMS.clear()
