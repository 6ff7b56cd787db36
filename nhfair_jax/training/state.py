"""The train state: a pytree of arrays only (the model and optimizer live in closures), so it
can be donated to the jitted step, replicated over devices and checkpointed as it is."""

from __future__ import annotations

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

    @property
    def variables(self) -> dict:
        return {"params": self.params, "batch_stats": self.batch_stats}


def init_state(model, tx, method, *, image_shape, init_key, train_key, info: dict,
               variables=None) -> TrainState:
    """Initialises (or takes) the model variables, the optimizer and the method state."""
    if variables is None:
        dummy = jnp.zeros((1, *image_shape), jnp.float32)
        variables = model.init(init_key, dummy, train=False)
    params = variables["params"]
    return TrainState(params=params, batch_stats=variables.get("batch_stats", {}),
                      opt_state=tx.init(params), method_state=method.init_state(info),
                      step=jnp.zeros((), jnp.int32), rng=jax.random.key_data(train_key))
