"""Counting XLA compilations, so that each epoch's log line says how many happened in it, how
many of those the persistent compilation cache answered, and the seconds they took.

A compilation after the first epoch means a shape or a Python value that changes between
epochs reached a jitted function (a last batch of a new size, a growing pool, a hyperparameter
closed over as a constant); it costs seconds per epoch on the CPU and minutes on large models.
A compilation in a run's first epoch that the persistent cache answers (compile_cache.py) cost
only the reading of the executable: the program is an earlier run's.

The counts come from JAX's own monitoring events (public `jax.monitoring` listeners): one around
each backend compilation request, whether compiled or read from the persistent cache, and one
for each persistent-cache hit. They are gathered process-wide.
"""

from __future__ import annotations

import collections
import threading

import jax

# The monitoring events JAX records around every backend compilation request and for each
# program read back from the persistent compilation cache.
BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
CACHE_HIT_EVENT = "/jax/compilation_cache/cache_hits"

_lock = threading.Lock()
_counts: collections.Counter = collections.Counter()
_totals = {"hits": 0, "seconds": 0.0}


def _duration_listener(event: str, duration: float, **kwargs) -> None:
    if event == BACKEND_COMPILE_EVENT:
        with _lock:
            _counts[kwargs.get("fun_name", "?")] += 1
            _totals["seconds"] += float(duration)


def _event_listener(event: str, **kwargs) -> None:
    del kwargs
    if event == CACHE_HIT_EVENT:
        with _lock:
            _totals["hits"] += 1


jax.monitoring.register_event_duration_secs_listener(_duration_listener)
jax.monitoring.register_event_listener(_event_listener)


class Snapshot(collections.namedtuple("Snapshot", "counts hits seconds")):
    """Process-wide totals at one moment: compilation requests by function name, persistent-
    cache hits, seconds in compilation requests."""


def snapshot() -> Snapshot:
    """Compilations so far in this process."""
    with _lock:
        return Snapshot(collections.Counter(_counts), _totals["hits"], _totals["seconds"])


def since(before: Snapshot) -> dict[str, int]:
    """{function name: compilation requests} since `before` (a `snapshot()`)."""
    return dict(snapshot().counts - before.counts)


def summary_since(before: Snapshot) -> dict:
    """What happened since `before`: "compiled" (programs XLA compiled), "cache_hits"
    (programs read from the persistent cache), "compile_s" (seconds in both), "compiled_by"
    ({function name: requests})."""
    now = snapshot()
    by = dict(now.counts - before.counts)
    hits = now.hits - before.hits
    return {"compiled": max(sum(by.values()) - hits, 0), "cache_hits": hits,
            "compile_s": round(now.seconds - before.seconds, 3), "compiled_by": by}
