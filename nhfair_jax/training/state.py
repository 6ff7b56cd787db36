"""The train state: a pytree of arrays only (the model and optimizer live in closures), so it
can be donated to the jitted step, replicated over devices and checkpointed as it is."""

from __future__ import annotations

import functools
from typing import Any

import flax.struct
import jax
import jax.numpy as jnp


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


def init_state(model, tx, method, *, image_shape, init_key, train_key, info: dict,
               variables=None) -> TrainState:
    """Initialises (or takes) the model variables, then the method's parameters and state and
    the optimizer. `info` gains `feature_dim`, the width of the model's pooled features, and
    `image_shape`, the input's [H, W, C]."""
    from nhfair_jax.training import hparams

    dummy = jnp.zeros((1, *image_shape), jnp.float32)
    if variables is None:  # one compiled program (cached), not one per initialiser
        variables = jax.jit(functools.partial(model.init, train=False))(init_key, dummy)
    feats = jax.eval_shape(lambda v: model.apply(v, dummy, train=False, features=True)[1],
                           variables)
    info = {**info, "feature_dim": int(feats.shape[-1]), "image_shape": tuple(image_shape),
            "key": jax.random.fold_in(init_key, 2)}
    method.setup(info)
    params = method.init_params(variables["params"], jax.random.fold_in(init_key, 1), info)
    return TrainState(params=params, batch_stats=variables.get("batch_stats", {}),
                      opt_state=tx.init(params), method_state=method.init_state(info),
                      step=jnp.zeros((), jnp.int32), rng=jax.random.key_data(train_key),
                      hparams=hparams.initial(method.cfg))
