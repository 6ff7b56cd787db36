"""Per-example gradients and their dot products with fixed directions.

Three ways to get g_i . v for every example i of a batch (g_i the gradient of example i's loss):
- `per_example_dots`: per-example gradients by vmap of grad, then dot products. Also gives the
  gradients themselves (`per_example_grads`). The project's convolutions trace as patches here,
  on every backend (models/layers.py `per_example_convolutions`: a kernel gradient under vmap is
  then one batched matmul, not XLA's grouped convolution; ResNet-18 against torch.func's
  vmap(grad): 5x on the 2-core CPU at 32 px, 4.3x on an H200 at 224 px; benchmarks/README.md).
  Memory is bounded by a budget in bytes (`default_memory_budget`): the batch
  is cut into the largest chunks whose traced intermediates fit (`chunk_size`), and the chunks
  run as an unrolled loop of vmaps inside the one jit (`lax.map` over chunks measured 5x slower
  than one vmap on the CPU; the unrolled loop costs nothing when one chunk holds the batch).
- `jvp_dots`: one forward-mode derivative of the per-example loss VECTOR in direction v
  (jax.linearize), since d/dt L(theta + t v) = [g_1 . v, ..., g_B . v]; about one forward pass
  per direction, with no per-example gradient ever materialised.
- `per_layer_dots`: the closed form, layer by layer (as Opacus and BackPACK compute per-example
  gradients): one batched forward and backward pass give every parametrised layer's input x_i
  and output gradient dy_i; example i's gradient of a layer's parameters is that layer's
  vector-Jacobian product at (x_i, dy_i), and its dot product with a direction v is
  <dy_i, J_i v>, one forward-mode pass of that layer alone. Nothing per-example is
  materialised, and the network itself runs batched, with its fast convolutions.
  `per_layer_grads` materialises the per-layer gradients instead (a vmap over examples of each
  layer's VJP only, not of the whole network). Both need a flax model whose parameters all live
  in leaf layers (a module with parameters and no parametrised submodules: Conv, Dense,
  BatchNorm) whose first argument carries the batch axis, and a loss that is a sum over
  independent examples (BatchNorm in evaluation mode). A layer must use its parameters only in
  its `__call__` (another method of it, e.g. tied embedding weights, is an error); parameters
  read around the layer (a parent reading `self.fc.variables`) are not seen, nor are layers
  inside lifted transforms (nn.scan, nn.remat). `wrt` must name whole layers (or modules of them).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

from nhfair_jax.models.layers import (
    closed_form_convolutions,
    forward_mode_convolutions,
    per_example_convolutions,
)

CPU_MEMORY_BUDGET = 1 << 30  # bytes of per-example intermediates held at once on the CPU (1 GiB)
ACCELERATOR_MEMORY_SHARE = 2  # on an accelerator: half the memory JAX may allocate


def default_memory_budget(device=None) -> int:
    """The budget in bytes that `memory_budget=None` means: 1 GiB on the CPU; on an accelerator,
    half the memory JAX may allocate on it (`memory_stats()["bytes_limit"]`, a fixed figure, so
    that the chunk size and the compiled program do not depend on what else is allocated at
    trace time), at least 1 GiB. The traced bytes `chunk_size` divides it by count every
    intermediate, more than is live at once: on an H200 (105 GiB for JAX) ResNet-18's batch of
    64 at 224 px traces 50 GiB with patches and ran whole, at 5,414 examples/s against 3,828 in
    chunks of 16; a fixed 1 GiB had cut it into chunks of 4 (benchmarks/HISTORY.md)."""
    device = jax.devices()[0] if device is None else device
    if device.platform == "cpu":
        return CPU_MEMORY_BUDGET
    try:
        limit = (device.memory_stats() or {}).get("bytes_limit", 0)
    except (AttributeError, NotImplementedError, RuntimeError):  # a backend without statistics
        limit = 0
    return max(CPU_MEMORY_BUDGET, int(limit) // ACCELERATOR_MEMORY_SHARE)


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
               memory_budget: int | None = None) -> int:
    """Examples per vmapped chunk: as many as fit in `memory_budget` bytes (at least one, at most
    the batch)."""
    n = jax.tree.leaves(batch)[0].shape[0]
    per = bytes_per_example(example_loss, params, batch, wrt=wrt)
    if memory_budget is None:
        memory_budget = default_memory_budget()
    return int(min(n, max(1, memory_budget // per)))


def _vmap_in_chunks(fn, args, chunk: int):
    """vmap(fn) over the leading axis of the pytree `args`, `chunk` examples at a time (an
    unrolled loop inside the caller's jit), the results concatenated."""
    n = jax.tree.leaves(args)[0].shape[0]
    if chunk >= n:
        return jax.vmap(fn)(*args)
    parts = [jax.vmap(fn)(*jax.tree.map(lambda x, a=start: x[a:a + chunk], args))
             for start in range(0, n, chunk)]
    return jax.tree.map(lambda *g: jnp.concatenate(g), *parts)


def per_example_grads(example_loss: Callable, params, batch, *, wrt: Sequence[str] | None = None,
                      memory_budget: int | None = None, chunk: int | None = None):
    """Gradients of each example's loss.

    Args:
      example_loss: f(params, example) -> scalar, where `example` is one row of `batch` (a
        pytree whose leaves have no batch axis).
      params: the parameters (a nested dict).
      batch: a pytree of arrays with a leading batch axis.
      wrt: a key path selecting the subtree to differentiate (e.g. ("fc",)); default all.
      memory_budget: bytes the per-example intermediates of one chunk may take; the chunk size
        follows from it (`chunk_size`). None: `default_memory_budget()` (1 GiB on the CPU, half
        an accelerator's memory). Ignored when `chunk` is given.
      chunk: examples per vmapped chunk, when set explicitly (the last chunk may be smaller).

    Returns:
      The gradient subtree with a leading batch axis on every leaf.
    """

    sub = _select(params, wrt)
    grad = jax.grad(_loss_of_subtree(example_loss, params, wrt))
    # the project's convolutions as patches while this traces: under vmap(grad), XLA's kernel
    # gradient becomes a grouped convolution (slow on the CPU), the patches' one batched matmul
    with per_example_convolutions():
        if chunk is None:
            chunk = chunk_size(example_loss, params, batch, wrt=wrt,
                               memory_budget=memory_budget)
        if chunk < 1:
            raise ValueError(f"chunk must be at least 1, got {chunk}")
        return _vmap_in_chunks(lambda example: grad(sub, example), (batch,), chunk)


def per_example_dots(example_loss: Callable, params, batch, directions: Sequence, *,
                     wrt: Sequence[str] | None = None,
                     memory_budget: int | None = None, chunk: int | None = None):
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
    # the tangents are pushed forward only: a few-tap convolution's tangent by its own
    # multiply-adds, not XLA's slow few-channel convolution
    with forward_mode_convolutions():
        _, lin = jax.linearize(lambda s: batch_losses(_replace(params, wrt, s), batch), sub)
        # One pass per tangent. vmap over the tangents measured 2.6x slower on the CPU (the
        # first layer's elementwise tangent, batched; benchmarks/HISTORY.md), and the loop
        # keeps peak memory at one tangent.
        return jnp.stack([lin(v) for v in directions])


# --- the closed form, layer by layer -------------------------------------------------------

class NoClosedForm(ValueError):
    """The model has what the closed form layer by layer cannot see (a parameter outside a leaf
    layer, a layer used through another method, an input without the batch axis first, ...);
    the message says which. Per-example gradients by vmap and `jvp_dots` still work."""


@dataclasses.dataclass(frozen=True)
class LayerCall:
    """One call of a leaf layer inside `batch_losses`: the (unbound) layer, the key path of its
    parameters in `params`, its non-array arguments after the first, and its output's shape."""
    module: nn.Module
    path: tuple
    args: tuple
    kwargs: dict
    out: Any


def _own_params(module):
    """The module's parameters when it is a leaf layer (parameters, no parametrised children),
    else None."""
    if module.scope is None:
        return None
    own = module.variables.get("params", {})
    if not own or any(hasattr(v, "items") for v in own.values()):
        return None
    return own


def _under(path: tuple, wrt: Sequence[str] | None) -> bool:
    return tuple(path[:len(wrt or ())]) == tuple(wrt or ())


def _leaf_paths(tree, prefix=()):
    if hasattr(tree, "items"):
        return [p for k, v in tree.items() for p in _leaf_paths(v, prefix + (k,))]
    return [prefix]


def layer_factors(batch_losses: Callable, params, batch, *, wrt: Sequence[str] | None = None):
    """Every call of a leaf layer under `wrt`, with its batched input and output gradient.

    Args:
      batch_losses: f(params, batch) -> [B] per-example losses, running a flax model's `apply`
        with `params` as its "params" collection.
      params, batch, wrt: as in `per_example_grads`.

    Returns:
      A list of (LayerCall, x [B, ...], the layer's other variable collections, dy [B, ...])
      where dy is the gradient of sum_i loss_i with respect to the layer's output, so that
      dy[i] is example i's own output gradient.

    Raises:
      NoClosedForm (a ValueError): a parameter under `wrt` is not in a leaf layer (or is never
        used), a layer's input or output lacks the batch axis or is not one array, a layer
        takes array arguments beyond its first or is used through another method than
        `__call__`, or `batch_losses` jits the model itself (its layers are then invisible on a
        second trace).
    """
    n = jax.tree.leaves(batch)[0].shape[0]
    calls, inputs, active = [], [], []

    def interceptor(perturb):
        def intercept(next_fun, args, kwargs, context):
            module = context.module
            if _own_params(module) is None:
                return next_fun(*args, **kwargs)
            path = tuple(module.scope.path)
            if path in active:  # inside the layer's own call (a subclass's super().__call__)
                return next_fun(*args, **kwargs)
            if context.method_name != "__call__":
                if context.method_name in ("setup", "__post_init__"):
                    return next_fun(*args, **kwargs)
                raise NoClosedForm(
                    f"layer {'/'.join(path)} is used through its method "
                    f"{context.method_name!r} outside its __call__ (e.g. tied embedding "
                    f"weights); closed-form per-layer gradients see only __call__: use "
                    f"per_example_grads / per_example_dots (vmap) or jvp_dots")
            active.append(path)
            try:
                out = next_fun(*args, **kwargs)
            finally:
                active.pop()
            if not _under(path, wrt):
                return out
            x = args[0] if args else None
            if not isinstance(x, (jax.Array, np.ndarray)) or not x.shape or x.shape[0] != n:
                raise NoClosedForm(f"layer {'/'.join(path)} must get its input as the first "
                                   f"positional argument, an array with the batch axis ({n}) "
                                   f"first; closed-form per-layer gradients need it")
            if not isinstance(out, jax.Array):
                raise NoClosedForm(f"layer {'/'.join(path)} returns {type(out).__name__}, not "
                                   f"one array; closed-form per-layer gradients need one")
            i = len(inputs)
            other = {k: v for k, v in module.variables.items() if k != "params"}
            inputs.append((path, x, other))
            if perturb is None:
                calls.append(LayerCall(module.clone(parent=None), path, tuple(args[1:]),
                                       dict(kwargs), jax.ShapeDtypeStruct(out.shape, out.dtype)))
                return out
            return out + perturb[i].astype(out.dtype)
        return intercept

    with nn.intercept_methods(interceptor(None)):
        jax.eval_shape(lambda: batch_losses(params, batch))
    _check_layer_calls(calls, params, wrt, n)

    def total_loss(perturb):
        inputs.clear()
        with nn.intercept_methods(interceptor(perturb)):
            losses = batch_losses(params, batch)
        return losses.sum(), list(inputs)

    zeros = [jnp.zeros(c.out.shape, c.out.dtype) for c in calls]
    douts, recorded = jax.grad(total_loss, has_aux=True)(zeros)
    if [r[0] for r in recorded] != [c.path for c in calls]:
        raise NoClosedForm(
            "batch_losses ran other layers on its second trace than on its first (a jitted "
            "apply inside batch_losses is cached after the first trace, so its layers cannot "
            "be seen): pass an un-jitted function; jit the caller instead")
    return [(c, x, other, dy) for c, (_, x, other), dy in zip(calls, recorded, douts)]


def _check_layer_calls(calls, params, wrt, n):
    covered = {c.path for c in calls}
    loose = [p for p in _leaf_paths(_select(params, wrt), tuple(wrt or ()))
             if not any(p[:len(c)] == c for c in covered)]
    if loose:
        names = ", ".join("/".join(map(str, p)) for p in loose[:5])
        raise NoClosedForm(
            f"closed-form per-layer gradients need every parameter inside a leaf flax layer (a "
            f"module with parameters and no parametrised submodules) that batch_losses calls; "
            f"{len(loose)} parameter(s) are not: {names}. Use per_example_grads / "
            f"per_example_dots (vmap) or jvp_dots for this model.")
    for c in calls:
        if any(isinstance(x, (jax.Array, np.ndarray)) for x in jax.tree.leaves((c.args,
                                                                                  c.kwargs))):
            raise NoClosedForm(f"layer {'/'.join(c.path)} takes array arguments beyond its "
                               f"input; closed-form per-layer gradients support one array "
                               f"argument")
        if not c.out.shape or c.out.shape[0] != n:
            raise NoClosedForm(f"layer {'/'.join(c.path)} returns shape {c.out.shape}, "
                               f"without the batch axis ({n}) first; closed-form per-layer "
                               f"gradients need it")


def _layer_fn(call: LayerCall, other):
    return lambda w, x: call.module.apply({"params": w, **other}, x, *call.args, **call.kwargs)


def _assemble(params, wrt, per_path):
    def build(sub, prefix):
        if prefix in per_path:
            return per_path[prefix]
        return {k: build(v, prefix + (k,)) for k, v in sub.items()}
    return build(_select(params, wrt), tuple(wrt or ()))


def per_layer_grads(batch_losses: Callable, params, batch, *, wrt: Sequence[str] | None = None,
                    memory_budget: int | None = None):
    """Per-example gradients in closed form: each leaf layer's VJP at (x_i, dy_i), vmapped over
    the examples of chunks that fit `memory_budget` bytes (per layer). Same result as
    `per_example_grads` (the `wrt` subtree with a leading batch axis on every leaf); the network
    runs batched once, only each layer's own VJP runs per example. A layer called twice (shared
    weights) gets the sum of its calls' gradients."""

    if memory_budget is None:
        memory_budget = default_memory_budget()
    per_path = {}
    for call, x, other, dy in layer_factors(batch_losses, params, batch, wrt=wrt):
        fn = _layer_fn(call, other)
        w = _select(params, call.path)

        def one(x1, dy1, fn=fn, w=w):
            return jax.vjp(lambda w_: fn(w_, x1[None]), w)[1](dy1[None])[0]

        with per_example_convolutions():  # a conv's kernel gradient as one batched matmul
            per = max(1, _jaxpr_bytes(jax.make_jaxpr(one)(x[0], dy[0]).jaxpr))
            g = _vmap_in_chunks(one, (x, dy), max(1, memory_budget // per))
        per_path[call.path] = (g if call.path not in per_path
                               else jax.tree.map(jnp.add, per_path[call.path], g))
    return _assemble(params, wrt, per_path)


def per_layer_dots(batch_losses: Callable, params, batch, directions: Sequence, *,
                   wrt: Sequence[str] | None = None):
    """[K, B] array of g_i . v_k in closed form: for every leaf layer, <dy_i, J_i v_k>, where
    J_i v_k is the layer's forward-mode derivative in its parameters' direction v_k (batched,
    one layer pass per direction); nothing per-example is materialised. Directions are pytrees
    like the `wrt` subtree. Same result as `per_example_dots` and `jvp_dots`. A few-tap
    convolution is traced as patches here (`closed_form_convolutions`)."""

    with closed_form_convolutions():
        return _per_layer_dots(batch_losses, params, batch, directions, wrt)


def _per_layer_dots(batch_losses, params, batch, directions, wrt):
    n = jax.tree.leaves(batch)[0].shape[0]
    total = jnp.zeros((len(directions), n), jnp.float32)
    base = tuple(wrt or ())
    for call, x, other, dy in layer_factors(batch_losses, params, batch, wrt=wrt):
        fn = _layer_fn(call, other)
        _, lin = jax.linearize(lambda w, fn=fn, x=x: fn(w, x), _select(params, call.path))
        dy32 = dy.astype(jnp.float32).reshape(n, -1)  # sums in float32 whatever the layer's dtype
        total = total + jnp.stack([
            jnp.sum(lin(_select(v, call.path[len(base):])).astype(jnp.float32).reshape(n, -1)
                    * dy32, axis=1) for v in directions])
    return total
