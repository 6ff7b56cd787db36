"""Counting XLA compilations, so that each epoch's log line says how many happened in it.

A compilation after the first epoch means a shape or a Python value that changes between
epochs reached a jitted function (a last batch of a new size, a growing pool, a hyperparameter
closed over as a constant); it costs seconds per epoch on the CPU and minutes on large models.
The count comes from JAX's own monitoring event around each backend compilation (a program
read from a persistent compilation cache counts too: it is still a program the epoch had not
run before), gathered process-wide.
"""

from __future__ import annotations

import collections
import threading

import jax

# The monitoring event JAX records around every backend compilation.
BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"

_lock = threading.Lock()
_counts: collections.Counter = collections.Counter()


def _listener(event: str, duration: float, **kwargs) -> None:
    del duration
    if event == BACKEND_COMPILE_EVENT:
        with _lock:
            _counts[kwargs.get("fun_name", "?")] += 1


jax.monitoring.register_event_duration_secs_listener(_listener)


def snapshot() -> collections.Counter:
    """Compilations so far in this process, by function name."""
    with _lock:
        return collections.Counter(_counts)


def since(before: collections.Counter) -> dict[str, int]:
    """{function name: compilations} since `before` (a `snapshot()`)."""
    return dict(snapshot() - before)
