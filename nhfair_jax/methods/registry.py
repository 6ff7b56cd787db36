"""Methods registered by name; `config.method.name` picks one."""

from __future__ import annotations

_REGISTRY: dict[str, type] = {}


def register(name: str):
    def wrap(cls):
        if name in _REGISTRY and _REGISTRY[name] is not cls:
            raise ValueError(f"method {name!r} is registered twice")
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return wrap


def registered() -> list[str]:
    return sorted(_REGISTRY)


def method_class(name: str):
    if name not in _REGISTRY:
        raise ValueError(f"unknown method {name!r}; registered: {', '.join(registered())}")
    return _REGISTRY[name]


def get_method(cfg):
    """An instance of the method named by cfg.name, configured by cfg (config.method)."""
    cls = method_class(cfg.name)
    missing = sorted(set(cls.defaults) - set(cfg.keys()))
    if missing:
        raise ValueError(f"config.method lacks {missing} for method {cfg.name!r}; start from a "
                         f"config of that method (configs/{cfg.name}_*.py) or build config.method "
                         f"with nhfair_jax.config.method_config({cfg.name!r})")
    return cls(cfg)
