"""The method registry: one record per method, made where the method is defined.

A record says what the method is: its name, its kind (trained by gradient steps, post-fit on a
finished ERM run, or zero-shot), its class and defaults, its search space, and what it needs
(counterfactual pairs, a teacher run, a base run). Every other module asks the record what it
needs, and only the dispatcher (nhfair_jax/dispatch.py) acts on the kind, so adding a method is
writing its module under nhfair_jax/methods/ with `@register(...)` on its class (every module of
the package is imported when the registry is first asked; there is no list to keep):

    @register("gapreg", space={"method.coef": Uniform(0.01, 5.0)})
    class GapReg(Method): ...

Methods of your own outside the package: name their modules in the environment variable
NHFAIR_METHODS (comma-separated import paths, e.g. `NHFAIR_METHODS=mylab.smooth_erm`); they are
imported with the package's own, in every process (benchmark workers included).

Modifiers that change any trained method (`method.cf = "aug" | "cp"`) register themselves with
`register_modifier`.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field

from nhfair_jax.errors import UnknownName, UserError
from nhfair_jax.methods.space import COMMON, LogUniform, Uniform, draw

TRAINED, POST_FIT, ZERO_SHOT = "trained", "post_fit", "zero_shot"
# The baseline every other method is selected and compared against (DTO selects it; the
# fairness-without-harm zones and the report measure the others from it).
BASELINE = "erm"
KINDS = (TRAINED, POST_FIT, ZERO_SHOT)
NEEDS = ("pairs", "teacher", "base_run")



def method_modules() -> list[str]:
    """The modules of the methods package, found by the package (importing one that defines a
    method registers it; the shared ones register nothing)."""
    import pkgutil

    folder = os.path.dirname(os.path.abspath(__file__))  # this module's own package
    return sorted(m.name for m in pkgutil.iter_modules([folder]) if m.name != "registry")


_REGISTRY: dict[str, "MethodSpec"] = {}
_MODIFIERS: dict[str, "Modifier"] = {}
_loaded = False


@dataclass(frozen=True)
class MethodSpec:
    """What a method is.

    Attributes:
      name: `config.method.name`.
      kind: TRAINED, POST_FIT or ZERO_SHOT.
      cls: the class built with config.method (its `defaults` are the hyperparameters).
      space: its own search space {dotted key: distribution} (methods/space.py).
      conditional: (key, {value: sub-space}): parameters searched only for one value of another.
      joint: {key: (key_a, key_b)}: a categorical of "a/b" values that sets two keys (the valid
        combinations only).
      needs: what a run of it needs besides its data: "pairs" (counterfactual images in the
        training batches), "teacher" (a finished run to distil from), "base_run" (the ERM run
        it is fitted on).
    """

    name: str
    kind: str
    cls: type
    space: dict = field(default_factory=dict)
    conditional: tuple | None = None
    joint: dict = field(default_factory=dict)
    needs: frozenset = frozenset()

    @property
    def defaults(self) -> dict:
        return dict(self.cls.defaults)

    @property
    def trains(self) -> bool:
        """Trained by gradient steps here: it searches the common space (learning rate, weight
        decay, optimizer), takes the trainer's options (RandAugment, the `method.cf`
        modifiers) and can be a teacher."""
        return self.kind == TRAINED

    @property
    def fitted_on_base_run(self) -> bool:
        """Fitted on a finished ERM run (DFR, OxonFair): a sweep and the seeds fit it on the
        selected ERM run of the same data set and seed, never before ERM's sweep is done."""
        return "base_run" in self.needs

    @property
    def reported_when_unwanted(self) -> bool:
        """A pretrained model is a row of the tables even when every candidate is Unwanted (its
        zone says so); a method trained here then has no selected model."""
        return self.kind == ZERO_SHOT

    @property
    def search_space(self) -> dict:
        """The space the sweep searches: the common part for a trained method, then its own."""
        return {**COMMON, **self.space} if self.trains else dict(self.space)


@dataclass(frozen=True)
class Modifier:
    """A config field under `config.method` that changes any trained method.

    Attributes:
      key: the field (e.g. "cf"); "" or "none" leaves the method as it is.
      mixins: {value: a class mixed in before the method's class}: the modified method is an
        instance of the mixed class (built once per trained method and value, when the
        method or the modifier registers, whichever comes second), configured by the same
        config.method; its __init__ reads what the value needs from the config.
      needs: {value: what a run needs with it}.
      space: {value: the search space it adds}.
    """

    key: str
    mixins: dict
    needs: dict
    space: dict


def register(name: str, *, kind: str = TRAINED, space: dict | None = None,
             conditional: tuple | None = None, joint: dict | None = None, needs=()):
    """Class decorator: records the method `name` (see MethodSpec)."""
    if kind not in KINDS:
        raise ValueError(f"method {name!r}: kind must be one of {KINDS}, got {kind!r}")
    unknown = sorted(set(needs) - set(NEEDS))
    if unknown:
        raise ValueError(f"method {name!r}: unknown needs {unknown}; known: {NEEDS}")

    def wrap(cls):
        if name in _REGISTRY and _REGISTRY[name].cls is not cls:
            raise ValueError(f"method {name!r} is registered twice")
        cls.name = name
        _REGISTRY[name] = MethodSpec(name, kind, cls, dict(space or {}), conditional,
                                     dict(joint or {}), frozenset(needs))
        if kind == TRAINED:
            for modifier in _MODIFIERS.values():
                _mix(cls, modifier)
        return cls

    return wrap


def register_modifier(modifier: Modifier) -> Modifier:
    _MODIFIERS[modifier.key] = modifier
    for record in _REGISTRY.values():
        if record.kind == TRAINED:
            _mix(record.cls, modifier)
    return modifier


_MIXED: dict = {}  # (method class, modifier key, value) -> the mixed class


def _mix(cls, modifier: Modifier) -> None:
    for value, mixin in modifier.mixins.items():
        _MIXED[cls, modifier.key, value] = type(f"{cls.__name__}_{modifier.key}_{value}",
                                                (mixin, cls), {})


def mixed_class(cls, key: str, value: str):
    """`cls` with the modifier `key`'s mixin for `value` before it: the class made when they
    registered (made now, once, for a class outside the registry, e.g. a test's)."""
    if (cls, key, value) not in _MIXED:
        _load()
        _mix(cls, _MODIFIERS[key])
    return _MIXED[cls, key, value]


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in method_modules():
        importlib.import_module(f"nhfair_jax.methods.{module}")
    extra = [m.strip() for m in os.environ.get("NHFAIR_METHODS", "").split(",") if m.strip()]
    for module in extra:
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise UserError(f"NHFAIR_METHODS names {module!r}, which cannot be imported ({e}); "
                            "put its folder on PYTHONPATH or fix the name") from e


def registered() -> list[str]:
    _load()
    return sorted(_REGISTRY)


def spec(name: str) -> MethodSpec:
    """The record of method `name`; an unknown name is an error naming every registered one."""
    _load()
    if name not in _REGISTRY:
        raise UnknownName("method", name, registered())
    return _REGISTRY[name]


def method_class(name: str):
    return spec(name).cls


def _active(cfg) -> list[tuple[Modifier, str]]:
    _load()
    out = []
    for modifier in _MODIFIERS.values():
        value = cfg.get(modifier.key, "") or ""
        if value in ("", "none"):
            continue
        if value not in modifier.needs:
            raise UserError(f"method.{modifier.key} must be one of "
                            f"{', '.join(map(repr, modifier.needs))} or 'none', got {value!r}")
        out.append((modifier, value))
    return out


def get_method(cfg):
    """An instance of the method named by cfg.name, configured by cfg (config.method), with the
    modifiers cfg sets (e.g. `cf = "cp"`) applied."""
    record = spec(cfg.name)
    missing = sorted(set(record.cls.defaults) - set(cfg.keys()))
    if missing:
        raise ValueError(f"config.method lacks {missing} for method {cfg.name!r}; start from a "
                         f"config of that method (configs/digitsb.py:{cfg.name}) or build "
                         f"config.method with nhfair_jax.config.method_config({cfg.name!r})")
    cls = record.cls
    for modifier, value in _active(cfg):
        if not record.trains:
            raise UserError(f"method.{modifier.key}={value!r} needs a method trained by "
                            f"gradient steps; {cfg.name!r} is not")
        cls = mixed_class(cls, modifier.key, value)
    return cls(cfg)


def method_needs(cfg) -> frozenset:
    """What a run of config.method needs: its record's needs and its modifiers'."""
    needs = set(spec(cfg.name).needs)
    for modifier, value in _active(cfg):
        needs |= set(modifier.needs[value])
    return frozenset(needs)


def modifier_space(values: dict) -> dict:
    """The search space the modifiers add, for {modifier key: value} (e.g. {"cf": "cp"})."""
    _load()
    out = {}
    for key, value in values.items():
        if key in _MODIFIERS and value:
            out.update(_MODIFIERS[key].space.get(value, {}))
    return out


def search_space(name: str, cf: str = "") -> dict:
    """The space of method `name` (with the `method.cf` modifier `cf`): the common part for a
    trained method, plus its own (before any conditional sub-space)."""
    return {**spec(name).search_space, **modifier_space({"cf": cf})}


def suggest(trial, name: str, cf: str = "") -> dict:
    """One configuration {dotted key: value} of method `name` (and of the `method.cf` modifier
    `cf`, when given) drawn from an Optuna trial."""
    record = spec(name)
    out = draw(trial, search_space(name, cf))
    if record.conditional is not None:
        key, branches = record.conditional
        out.update(draw(trial, branches[out[key]]))
    for joint, parts in record.joint.items():  # one categorical for the valid combinations
        if joint in out:
            out.update(zip(parts, out.pop(joint).split("/")))
    return out


def traced_keys(cfg) -> tuple:
    """The hyperparameters of config.method that a trained method's jitted step reads as traced
    values rather than constants: those its search space (and its modifiers', and any
    conditional branch's) draws from a continuous distribution. Trials that differ only in
    them then run one compiled program (nhfair_jax/training/hparams.py). Names without the
    "method." prefix."""

    record = spec(cfg.name)
    if not record.trains:
        return ()
    spaces = [record.search_space, modifier_space({m.key: v for m, v in _active(cfg)})]
    if record.conditional is not None:
        spaces += list(record.conditional[1].values())
    keys = []
    for space in spaces:
        for key, dist in space.items():
            name = key[len("method."):]
            if key.startswith("method.") and isinstance(dist, (Uniform, LogUniform)) \
                    and name in cfg and isinstance(cfg[name], (int, float)) \
                    and not isinstance(cfg[name], bool) and name not in keys:
                keys.append(name)
    return tuple(keys)
