"""The train state: a pytree of arrays only (the model and optimizer live in closures), so it
can be donated to the jitted step, replicated over devices and checkpointed as it is."""

from __future__ import annotations

import functools
from typing import Any

import flax.struct
import jax
import jax.numpy as jnp

from nhfair_jax.training import hparams


@flax.struct.dataclass
class TrainState:
    params: Any
    batch_stats: Any
    opt_state: Any
    method_state: Any
    step: jnp.ndarray
    rng: jnp.ndarray  # the training key; step keys are fold_in(rng, step)
    # the method's continuous hyperparameters as traced scalars (training/hparams.py)
    hparams: Any = flax.struct.field(default_factory=dict)


@functools.partial(jax.jit, static_argnums=0)
def _init_variables(model, key, dummy):
    # the model a static argument (flax modules compare and hash by their fields): runs of one
    # model share this trace and program, where a new jit of model.init traced again each run
    return model.init(key, dummy, train=False)


@functools.lru_cache(maxsize=64)
def _feature_dim(model, image_shape: tuple) -> int:
    """The width of the model's pooled features for images of `image_shape`, traced once per
    (model, shape) in a process (about 70 ms of tracing a run otherwise)."""
    dummy = jax.ShapeDtypeStruct((1, *image_shape), jnp.float32)

    def features(key, x):
        variables = model.init(key, x, train=False)
        return model.apply(variables, x, train=False, features=True)[1]

    return int(jax.eval_shape(features, jax.random.key(0), dummy).shape[-1])


def init_state(model, tx, method, *, image_shape, init_key, train_key, info: dict,
               variables=None) -> TrainState:
    """Initialises (or takes) the model variables, then the method's parameters and state and
    the optimizer. `info` gains `feature_dim`, the width of the model's pooled features, and
    `image_shape`, the input's [H, W, C]."""

    dummy = jnp.zeros((1, *image_shape), jnp.float32)
    if variables is None:  # one compiled program, not one per initialiser
        variables = _init_variables(model, init_key, dummy)
    info = {**info, "feature_dim": _feature_dim(model, tuple(image_shape)),
            "image_shape": tuple(image_shape),
            "key": jax.random.fold_in(init_key, 2)}
    method.setup(info)
    params = method.init_params(variables["params"], jax.random.fold_in(init_key, 1), info)
    return TrainState(params=params, batch_stats=variables.get("batch_stats", {}),
                      opt_state=tx.init(params), method_state=method.init_state(info),
                      step=jnp.zeros((), jnp.int32), rng=jax.random.key_data(train_key),
                      hparams=hparams.initial(method.cfg))
