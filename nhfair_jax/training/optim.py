"""Optimizers as optax chains built from config.optim."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import optax

OPTIMIZERS = ("sgd", "adam", "adamw", "adagrad")
EPS = 1e-7  # the benchmark code's eps of Adam, AdamW and Adagrad
WEIGHT_DECAY_MODES = ("l2", "l1", "none")
SCHEDULES = ("auto", "constant", "step", "cosine")


def _schedule_name(cfg) -> str:
    schedule = cfg.schedule
    if schedule not in SCHEDULES:
        raise ValueError(f"optim.schedule must be one of {SCHEDULES}, got {schedule!r}")
    if schedule == "auto":
        schedule = "step" if cfg.name == "sgd" else "constant"
    return schedule


def epoch_learning_rate(cfg, epoch: int, epochs: int) -> float:
    """The learning rate of a (1-based) epoch: SGD x gamma every step_epochs epochs ("auto"),
    others constant; "cosine" decays to 0 over the planned epochs.

    The schedule follows epochs, not optimizer steps, so a method whose epochs are shorter
    (FIS's labelled subset, subsampling) decays at the same epochs as ERM. The trainer sets this
    value into the optimizer state (optax.inject_hyperparams) before each epoch.
    """
    schedule = _schedule_name(cfg)
    if schedule == "constant":
        return float(cfg.lr)
    if schedule == "step":
        return float(cfg.lr * cfg.gamma ** ((epoch - 1) // cfg.step_epochs))
    return float(cfg.lr * 0.5 * (1.0 + math.cos(math.pi * (epoch - 1) / max(1, epochs))))


def set_learning_rate(opt_state, lr: float):
    """The optimizer state with every injected `learning_rate` set to lr."""
    return optax.tree_utils.tree_set(opt_state, learning_rate=jnp.asarray(lr, jnp.float32))


def _l1_penalty(weight: float) -> optax.GradientTransformation:
    # The subgradient of weight * |p|, added to the gradient like PyTorch adds coupled L2.
    return optax.stateless(lambda g, p: jax.tree.map(lambda gi, pi: gi + weight * jnp.sign(pi),
                                                     g, p))


def make_optimizer(cfg, *, scheduled: bool = True) -> optax.GradientTransformation:
    """sgd (momentum), adam, adamw (decoupled decay) or adagrad, with weight decay as coupled L2
    (PyTorch's `weight_decay`), L1, or none.

    Args:
      cfg: config.optim (name, lr, momentum, weight_decay, wd_mode, schedule, step_epochs, gamma).
      scheduled: the learning rate, weight decay and momentum are injected hyperparameters
        (values in the optimizer state; the trainer sets the learning rate per epoch,
        `epoch_learning_rate`); False: constants (e.g. a phase with its own optimizer).
    """
    if cfg.name not in OPTIMIZERS:
        raise ValueError(f"optim.name must be one of {OPTIMIZERS}, got {cfg.name!r}")
    if cfg.wd_mode not in WEIGHT_DECAY_MODES:
        raise ValueError(f"optim.wd_mode must be one of {WEIGHT_DECAY_MODES}, got {cfg.wd_mode!r}")
    if cfg.lr <= 0:
        raise ValueError(f"optim.lr must be positive, got {cfg.lr}")
    _schedule_name(cfg)  # a bad schedule name fails here, before training

    def build(learning_rate, weight_decay, momentum=None):
        # As the benchmark's code builds them (torch.optim with eps=1e-7 for Adam, AdamW and
        # Adagrad; Adagrad's accumulator starting at 0, PyTorch's default, not optax's 0.1).
        if cfg.name == "adamw":
            # AdamW's decay is decoupled by definition; wd_mode does not apply.
            return optax.adamw(learning_rate, eps=EPS, weight_decay=weight_decay)
        base = {
            "sgd": lambda: optax.sgd(learning_rate, momentum=momentum),
            "adam": lambda: optax.adam(learning_rate, eps=EPS),
            "adagrad": lambda: optax.adagrad(learning_rate, initial_accumulator_value=0.0,
                                             eps=EPS),
        }[cfg.name]()
        # The decay term is in the chain whatever its value (0 adds exactly 0), so that runs
        # differing only in weight decay share one compiled step.
        parts = []
        if cfg.wd_mode == "l2":
            parts.append(optax.add_decayed_weights(weight_decay))
        elif cfg.wd_mode == "l1":
            parts.append(_l1_penalty(weight_decay))
        return optax.chain(*parts, base)

    # SGD with momentum 0 has no momentum buffer at all: another program, as it should be.
    momentum = {"momentum": float(cfg.momentum)} if cfg.name == "sgd" and cfg.momentum else {}
    if not scheduled:
        return build(cfg.lr, cfg.weight_decay, **momentum)
    # learning rate, weight decay and momentum live in the optimizer state (traced values, not
    # constants of the compiled step)
    return optax.inject_hyperparams(build)(learning_rate=cfg.lr,
                                           weight_decay=float(cfg.weight_decay), **momentum)
