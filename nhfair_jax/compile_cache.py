"""JAX's persistent compilation cache, on by default: a program compiled once (a train step, an
evaluation step) is read back by every later run that builds the same program, in this process
or another (a sweep's next trial, a seed re-run, a worker, a rerun of the command).

Runs that differ only in hyperparameters build the same programs: the learning rate, weight
decay and a method's continuous coefficients enter the jitted steps as values in the train
state, not as constants in the trace (nhfair_jax/training/hparams.py), so the cache answers
them. A cache key covers the program, the JAX and jaxlib versions, the backend and the
compiler's flags, so a hit is the same executable; the folder also carries the JAX version in
its name, so that versions never share one.

Where: `$NHFAIR_COMPILE_CACHE` if set (a folder, or `off` to turn the cache off), else
`$XDG_CACHE_HOME/nhfair-jax/xla-jax<version>` (`~/.cache/...`). A cache the user configured
for JAX itself (`JAX_COMPILATION_CACHE_DIR`) is left as it is. The commands take
`--compile_cache=DIR|off` too. Programs that compile in under `MIN_COMPILE_TIME_S` are not
written (single operations run eagerly); the folder is kept under `MAX_SIZE_BYTES`, oldest
entries evicted first (JAX's own JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS,
JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES and JAX_COMPILATION_CACHE_MAX_SIZE, when set, win).
"""

from __future__ import annotations

import os
import sys

OFF_VALUES = ("0", "off", "false", "no", "none")
MIN_COMPILE_TIME_S = 0.1
MAX_SIZE_BYTES = 4 << 30

_state = {"dir": None}


def default_dir(environ=None) -> str | None:
    """The folder `apply` uses (None: the cache is off, or JAX's own setting is in force)."""
    environ = os.environ if environ is None else environ
    chosen = environ.get("NHFAIR_COMPILE_CACHE", "").strip()
    if chosen.lower() in OFF_VALUES:
        return None
    if chosen:
        return os.path.abspath(os.path.expanduser(chosen))
    if environ.get("JAX_COMPILATION_CACHE_DIR"):
        return None
    import importlib.metadata

    try:
        version = importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nhfair-jax", f"xla-jax{version}")


def use(folder: str | None) -> None:
    """Points JAX's persistent cache at `folder` (None or an OFF value: no persistent cache
    from the package). Takes effect for programs compiled after the call."""
    if folder is not None and folder.strip().lower() in OFF_VALUES:
        folder = None
    settings = {
        "jax_compilation_cache_dir": folder,
        "jax_persistent_cache_min_compile_time_secs": MIN_COMPILE_TIME_S,
        "jax_persistent_cache_min_entry_size_bytes": 0,
        "jax_compilation_cache_max_size": MAX_SIZE_BYTES,
    }
    # JAX's own environment settings of the thresholds stay in force
    settings = {name: value for name, value in settings.items()
                if name == "jax_compilation_cache_dir" or name.upper() not in os.environ}
    if "jax" in sys.modules:  # JAX already read its environment: set its config directly
        import jax
        from jax.experimental.compilation_cache import compilation_cache

        if folder is None:
            if _state["dir"] is not None:
                jax.config.update("jax_compilation_cache_dir", None)
        else:
            os.makedirs(folder, exist_ok=True)
            for name, value in settings.items():
                jax.config.update(name, value)
        compilation_cache.reset_cache()  # JAX opens its cache once: the new folder from now
    elif folder is not None:  # JAX reads these when it is imported
        os.makedirs(folder, exist_ok=True)
        for name, value in settings.items():
            os.environ[name.upper()] = str(value)
    _state["dir"] = folder


def apply(environ=None) -> str | None:
    """Turns the cache on in its default folder (see the module docstring); called by
    `runtime.setup()`. Returns the folder, or None when the package leaves the cache alone.
    A folder that cannot be created turns the cache off with a warning, never an error."""
    folder = default_dir(environ)
    if folder is None:
        return None
    try:
        use(folder)
    except OSError as e:
        import warnings

        warnings.warn(f"compilation cache off: cannot use {folder} ({e}); set "
                      "NHFAIR_COMPILE_CACHE to a writable folder or to off", stacklevel=2)
        return None
    return folder


def folder() -> str | None:
    """The folder this process's package set (None: none set by the package)."""
    return _state["dir"]
