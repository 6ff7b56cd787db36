"""Per-example gradients and their dot products with fixed directions.

Two ways to get g_i . v for every example i of a batch (g_i the gradient of example i's loss):
- `per_example_dots`: per-example gradients by vmap of grad (microbatched to bound memory),
  then dot products. Also gives the gradients themselves (`per_example_grads`).
- `jvp_dots`: one forward-mode derivative of the per-example loss VECTOR in direction v
  (jax.linearize), since d/dt L(theta + t v) = [g_1 . v, ..., g_B . v]; about one forward pass
  per direction, with no per-example gradient ever materialised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp


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


def tree_dot(a, b) -> jnp.ndarray:
    """Sum over leaves of elementwise products (leading axes of `a` kept)."""
    leaves_a, leaves_b = jax.tree.leaves(a), jax.tree.leaves(b)
    return sum(jnp.tensordot(x, y, axes=y.ndim) if x.ndim > y.ndim else jnp.vdot(x, y)
               for x, y in zip(leaves_a, leaves_b))


def per_example_grads(example_loss: Callable, params, batch, *, wrt: Sequence[str] | None = None,
                      microbatch: int | None = None):
    """Gradients of each example's loss.

    Args:
      example_loss: f(params, example) -> scalar, where `example` is one row of `batch` (a
        pytree whose leaves have no batch axis).
      params: the parameters (a nested dict).
      batch: a pytree of arrays with a leading batch axis.
      wrt: a key path selecting the subtree to differentiate (e.g. ("fc",)); default all.
      microbatch: examples per vmapped chunk (bounds memory at microbatch x parameters).

    Returns:
      The gradient subtree with a leading batch axis on every leaf.
    """
    sub = _select(params, wrt)

    def loss_of_sub(s, example):
        return example_loss(_replace(params, wrt, s), example)

    grad_one = jax.vmap(jax.grad(loss_of_sub), in_axes=(None, 0))
    n = jax.tree.leaves(batch)[0].shape[0]
    if microbatch is None or microbatch >= n:
        return grad_one(sub, batch)
    if n % microbatch:
        raise ValueError(f"batch of {n} is not a multiple of microbatch {microbatch}")
    chunks = jax.tree.map(lambda x: x.reshape(n // microbatch, microbatch, *x.shape[1:]), batch)
    grads = jax.lax.map(lambda c: grad_one(sub, c), chunks)
    return jax.tree.map(lambda g: g.reshape(n, *g.shape[2:]), grads)


def per_example_dots(example_loss: Callable, params, batch, directions: Sequence, *,
                     wrt: Sequence[str] | None = None, microbatch: int | None = None):
    """[K, B] array of g_i . v_k from per-example gradients (directions: K pytrees like the
    `wrt` subtree)."""
    grads = per_example_grads(example_loss, params, batch, wrt=wrt, microbatch=microbatch)
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
