"""Optimizers as optax chains built from config.optim."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax

OPTIMIZERS = ("sgd", "adam", "adamw", "adagrad")
WEIGHT_DECAY_MODES = ("l2", "l1", "none")
SCHEDULES = ("auto", "constant", "step", "cosine")


def learning_rate(cfg, steps_per_epoch: int, epochs: int):
    """The schedule: SGD steps x gamma every step_epochs epochs ("auto"), others constant."""
    schedule = cfg.schedule
    if schedule not in SCHEDULES:
        raise ValueError(f"optim.schedule must be one of {SCHEDULES}, got {schedule!r}")
    if schedule == "auto":
        schedule = "step" if cfg.name == "sgd" else "constant"
    if schedule == "constant":
        return cfg.lr
    if schedule == "step":
        return optax.exponential_decay(cfg.lr, transition_steps=cfg.step_epochs * steps_per_epoch,
                                       decay_rate=cfg.gamma, staircase=True)
    return optax.cosine_decay_schedule(cfg.lr, decay_steps=max(1, epochs * steps_per_epoch))


def _l1_penalty(weight: float) -> optax.GradientTransformation:
    # The subgradient of weight * |p|, added to the gradient like PyTorch adds coupled L2.
    return optax.stateless(lambda g, p: jax.tree.map(lambda gi, pi: gi + weight * jnp.sign(pi),
                                                     g, p))


def make_optimizer(cfg, steps_per_epoch: int, epochs: int) -> optax.GradientTransformation:
    """sgd (momentum), adam, adamw (decoupled decay) or adagrad, with weight decay as coupled L2
    (PyTorch's `weight_decay`), L1, or none.

    Args:
      cfg: config.optim (name, lr, momentum, weight_decay, wd_mode, schedule, step_epochs, gamma).
      steps_per_epoch: optimizer steps in one epoch (for the step schedule).
      epochs: planned epochs (for the cosine schedule).
    """
    if cfg.name not in OPTIMIZERS:
        raise ValueError(f"optim.name must be one of {OPTIMIZERS}, got {cfg.name!r}")
    if cfg.wd_mode not in WEIGHT_DECAY_MODES:
        raise ValueError(f"optim.wd_mode must be one of {WEIGHT_DECAY_MODES}, got {cfg.wd_mode!r}")
    if cfg.lr <= 0:
        raise ValueError(f"optim.lr must be positive, got {cfg.lr}")
    lr = learning_rate(cfg, steps_per_epoch, epochs)
    if cfg.name == "adamw":
        # AdamW's decay is decoupled by definition; wd_mode does not apply.
        return optax.adamw(lr, weight_decay=cfg.weight_decay)
    base = {
        "sgd": lambda: optax.sgd(lr, momentum=cfg.momentum or None),
        "adam": lambda: optax.adam(lr),
        "adagrad": lambda: optax.adagrad(lr),
    }[cfg.name]()
    parts = []
    if cfg.weight_decay and cfg.wd_mode == "l2":
        parts.append(optax.add_decayed_weights(cfg.weight_decay))
    elif cfg.weight_decay and cfg.wd_mode == "l1":
        parts.append(_l1_penalty(cfg.weight_decay))
    return optax.chain(*parts, base)
