"""The one generic train step and the evaluation step, jitted data-parallel over a device mesh:
the batch is sharded over the `data` axis, the state replicated. Method-specific work comes in
through `method.loss` and `method.predict`; the step has no branch on the method."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from nhfair_jax.metrics.accumulate import GroupConfusion
from nhfair_jax.training import hparams


AUGMENT_STREAM = 0xA5  # the device augmentation's key: fold_in(step key, AUGMENT_STREAM)


def make_mesh(devices=None) -> Mesh:
    devices = jax.devices() if devices is None else devices
    return Mesh(np.asarray(devices), ("data",))


def shard_batch(batch: dict, mesh: Mesh, keys) -> dict:
    """Puts the arrays the step needs on the devices, split along the batch axis."""
    sharding = NamedSharding(mesh, P("data"))
    # one transfer call for the whole batch (a call per array cost ~30% more per step)
    return jax.device_put({k: batch[k] for k in keys if k in batch}, sharding)


def replicate(tree, mesh: Mesh):
    return jax.device_put(tree, NamedSharding(mesh, P()))


def make_train_step(method, apply_fn, tx, mesh: Mesh, *, num_groups: int, num_classes: int,
                    prepare=None):
    """train_step(state, batch) -> (state, metrics); the state is donated. The method's traced
    hyperparameters come from state.hparams (training/hparams.py) and reach its loss as its
    `hp` argument. `prepare` (data/device_augment.py's DevicePrepare, or None): the uint8
    batch's augmentation and normalisation, in the step, from a key of the step's own."""

    def train_step(state, batch):
        rng = jax.random.fold_in(jax.random.wrap_key_data(state.rng), state.step)
        if prepare is not None:  # a key apart from the loss's, which stays the host path's
            batch = prepare(batch, jax.random.fold_in(rng, AUGMENT_STREAM))
        hp = hparams.view(method.cfg, state.hparams)

        def loss_fn(params):
            out = method.loss(apply_fn, params, state.batch_stats, state.method_state, batch,
                              rng, hp)
            return out.loss, out

        (loss, out), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
        updates, opt_state = tx.update(grads, state.opt_state, state.params)
        new_state = state.replace(params=optax.apply_updates(state.params, updates),
                                  batch_stats=out.batch_stats, opt_state=opt_state,
                                  method_state=out.method_state, step=state.step + 1)
        confusion = GroupConfusion.from_batch(batch["label"], jnp.argmax(out.logits, -1),
                                              batch["group"], num_groups=num_groups,
                                              num_classes=num_classes)
        return new_state, {"loss": loss, "confusion": confusion.counts, **out.metrics}

    replicated = NamedSharding(mesh, P())
    return jax.jit(train_step, out_shardings=(replicated, replicated), donate_argnums=0)


def make_eval_step(method, apply_fn, mesh: Mesh):
    """eval_step(params, batch_stats, batch) -> logits [B, C] (float32)."""

    def eval_step(params, batch_stats, batch):
        return method.predict(apply_fn, params, batch_stats, batch).astype(jnp.float32)

    return jax.jit(eval_step, out_shardings=NamedSharding(mesh, P()))
