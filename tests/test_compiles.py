"""The compilation counter behind each epoch's `compiles` in log.jsonl: it sees a new shape's
compilation and not a cached call (the every-method test in test_methods.py uses it to fail on
a recompile after the first epoch)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.training import compiles


def test_counts_compilations_by_function_and_not_cached_calls():
    @jax.jit
    def scaled_sum_for_the_counter_test(x):
        return (2.0 * x).sum()

    before = compiles.snapshot()
    scaled_sum_for_the_counter_test(jnp.ones(3)).block_until_ready()
    first = compiles.since(before)
    assert first.get("jit(scaled_sum_for_the_counter_test)") == 1
    again = compiles.snapshot()
    scaled_sum_for_the_counter_test(jnp.zeros(3)).block_until_ready()  # same shape: cached
    assert "jit(scaled_sum_for_the_counter_test)" not in compiles.since(again)
    x = jnp.ones(4)
    scaled_sum_for_the_counter_test(x).block_until_ready()  # a new shape
    assert compiles.since(again)["jit(scaled_sum_for_the_counter_test)"] == 1
