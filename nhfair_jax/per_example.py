"""Per-example gradients and their dot products with fixed directions.

Two ways to get g_i . v for every example i of a batch (g_i the gradient of example i's loss):
- `per_example_dots`: per-example gradients by vmap of grad, then dot products. Also gives the
  gradients themselves (`per_example_grads`). Memory is bounded by a budget in bytes: the batch
  is cut into the largest chunks whose traced intermediates fit (`chunk_size`), and the chunks
  run as an unrolled loop of vmaps inside the one jit (`lax.map` over chunks measured 5x slower
  than one vmap on the CPU; the unrolled loop costs nothing when one chunk holds the batch).
- `jvp_dots`: one forward-mode derivative of the per-example loss VECTOR in direction v
  (jax.linearize), since d/dt L(theta + t v) = [g_1 . v, ..., g_B . v]; about one forward pass
  per direction, with no per-example gradient ever materialised.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

DEFAULT_MEMORY_BUDGET = 1 << 30  # bytes of per-example intermediates held at once (1 GiB)


def _select(params, wrt: Sequence[str] | None):
    sub = params
    for key in wrt or ():
        sub = sub[key]
    return sub


def _replace(params, wrt: Sequence[str] | None, sub):
    if not wrt:
        return sub
    head, *rest = wrt
    return {**params, head: _replace(params[head], rest, sub)}


def _loss_of_subtree(example_loss: Callable, params, wrt: Sequence[str] | None):
    """f(subtree, example) -> scalar: the example's loss as a function of the `wrt` subtree."""
    return lambda sub, example: example_loss(_replace(params, wrt, sub), example)


def tree_dot(a, b) -> jnp.ndarray:
    """Sum over leaves of elementwise products (leading axes of `a` kept)."""
    leaves_a, leaves_b = jax.tree.leaves(a), jax.tree.leaves(b)
    return sum(jnp.tensordot(x, y, axes=y.ndim) if x.ndim > y.ndim else jnp.vdot(x, y)
               for x, y in zip(leaves_a, leaves_b))


def _jaxpr_bytes(jaxpr) -> int:
    """Bytes of every value a jaxpr (and the jaxprs inside it) computes: an upper bound on what
    evaluating it holds at once."""
    total = 0
    for eqn in jaxpr.eqns:
        for v in eqn.outvars:
            aval = getattr(v, "aval", None)
            if hasattr(aval, "shape") and hasattr(aval, "dtype"):
                total += math.prod(aval.shape) * np.dtype(aval.dtype).itemsize
        for param in eqn.params.values():
            for sub in (param if isinstance(param, (tuple, list)) else (param,)):
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    total += _jaxpr_bytes(inner)
    return total


def bytes_per_example(example_loss: Callable, params, batch, *,
                      wrt: Sequence[str] | None = None) -> int:
    """Traced bytes of one example's gradient computation (intermediates and the gradient)."""
    one = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape[1:], x.dtype), batch)
    closed = jax.make_jaxpr(jax.grad(_loss_of_subtree(example_loss, params, wrt)))(
        _select(params, wrt), one)
    return max(1, _jaxpr_bytes(closed.jaxpr))


def chunk_size(example_loss: Callable, params, batch, *, wrt: Sequence[str] | None = None,
               memory_budget: int = DEFAULT_MEMORY_BUDGET) -> int:
    """Examples per vmapped chunk: as many as fit in `memory_budget` bytes (at least one, at most
    the batch)."""
    n = jax.tree.leaves(batch)[0].shape[0]
    per = bytes_per_example(example_loss, params, batch, wrt=wrt)
    return int(min(n, max(1, memory_budget // per)))


def per_example_grads(example_loss: Callable, params, batch, *, wrt: Sequence[str] | None = None,
                      memory_budget: int = DEFAULT_MEMORY_BUDGET, chunk: int | None = None):
    """Gradients of each example's loss.

    Args:
      example_loss: f(params, example) -> scalar, where `example` is one row of `batch` (a
        pytree whose leaves have no batch axis).
      params: the parameters (a nested dict).
      batch: a pytree of arrays with a leading batch axis.
      wrt: a key path selecting the subtree to differentiate (e.g. ("fc",)); default all.
      memory_budget: bytes the per-example intermediates of one chunk may take; the chunk size
        follows from it (`chunk_size`). Ignored when `chunk` is given.
      chunk: examples per vmapped chunk, when set explicitly (the last chunk may be smaller).

    Returns:
      The gradient subtree with a leading batch axis on every leaf.
    """
    sub = _select(params, wrt)
    grad_one = jax.vmap(jax.grad(_loss_of_subtree(example_loss, params, wrt)), in_axes=(None, 0))
    n = jax.tree.leaves(batch)[0].shape[0]
    if chunk is None:
        chunk = chunk_size(example_loss, params, batch, wrt=wrt, memory_budget=memory_budget)
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    if chunk >= n:
        return grad_one(sub, batch)
    parts = [grad_one(sub, jax.tree.map(lambda x, a=start: x[a:a + chunk], batch))
             for start in range(0, n, chunk)]
    return jax.tree.map(lambda *g: jnp.concatenate(g), *parts)


def per_example_dots(example_loss: Callable, params, batch, directions: Sequence, *,
                     wrt: Sequence[str] | None = None,
                     memory_budget: int = DEFAULT_MEMORY_BUDGET, chunk: int | None = None):
    """[K, B] array of g_i . v_k from per-example gradients (directions: K pytrees like the
    `wrt` subtree); memory as in `per_example_grads`."""
    grads = per_example_grads(example_loss, params, batch, wrt=wrt, memory_budget=memory_budget,
                              chunk=chunk)
    return jnp.stack([tree_dot(grads, v) for v in directions])


def jvp_dots(batch_losses: Callable, params, batch, directions: Sequence, *,
             wrt: Sequence[str] | None = None):
    """[K, B] array of g_i . v_k by forward-mode differentiation of the loss vector.

    Args:
      batch_losses: f(params, batch) -> [B] per-example losses (one batched forward pass).
      params, batch, wrt: as in per_example_grads.
      directions: K tangent pytrees shaped like the `wrt` subtree.
    """
    sub = _select(params, wrt)
    _, lin = jax.linearize(lambda s: batch_losses(_replace(params, wrt, s), batch), sub)
    # One pass per tangent. vmap over the tangents measured no faster on CPU
    # (benchmarks/README.md), and the loop keeps peak memory at one tangent.
    return jnp.stack([lin(v) for v in directions])
