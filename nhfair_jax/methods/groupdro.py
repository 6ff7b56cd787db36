"""GroupDRO: minimise a weighted sum of per-group losses whose weights move toward the groups
with the highest (adjusted) loss."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax

from nhfair_jax.methods.base import LossOutput, Method, forward
from nhfair_jax.methods.groups import balanced_weights, group_means
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice, LogUniform, Uniform

GROUPINGS = ("group", "group_x_class")
VARIANTS = ("standard", "btl")


def dro_groups(labels, groups, num_classes: int, grouping: str):
    """The DRO group of each example: the sensitive group, or sensitive group x class."""
    if grouping not in GROUPINGS:
        raise ValueError(f"method.groups must be one of {GROUPINGS}, got {grouping!r}")
    return groups if grouping == "group" else groups * num_classes + labels


def exponentiated_gradient(q, group_loss, present, step_size: float):
    """q_g <- q_g exp(step_size * loss_g) for the groups in the batch, then normalised."""
    q = q * jnp.exp(step_size * jnp.where(present, group_loss, 0.0))
    return q / q.sum()


def worst_fraction_weights(adjusted_loss, frac, alpha: float):
    """The btl variant's weights: the worst groups (by adjusted loss) that together hold a
    fraction alpha of the data, each weighted by its share (the last one partially)."""
    order = jnp.argsort(-adjusted_loss)
    frac_sorted = frac[order]
    before = jnp.cumsum(frac_sorted) - frac_sorted  # data share of the worse groups
    take = jnp.clip(alpha - before, 0.0, frac_sorted)  # alpha > 0: the worst group always
    weights = jnp.zeros_like(frac).at[order].set(take)
    return weights / jnp.maximum(weights.sum(), 1e-12)


# The variant is searched; each variant's sub-space holds only what it reads: step_size acts
# only in the standard variant, alpha and gamma only in btl.
@register("groupdro",
          space={"method.variant": Choice(("standard", "btl")),
                 "method.adjustment": Choice((0.0, 1.0, 2.0, 4.0))},
          conditional=("method.variant", {
              "standard": {"method.step_size": LogUniform(1e-3, 1e-1)},
              "btl": {"method.alpha": Uniform(0.01, 1.0), "method.gamma": Uniform(0.01, 1.0)}}))
class GroupDRO(Method):
    """Robust loss sum_g w_g loss_g over DRO groups (sensitive attribute, or x class).

    standard: w = q, updated by exponentiated gradient with step_size on the group losses plus
    the generalisation adjustment C / sqrt(n_g). btl (the original code's variant that uses
    alpha and gamma): w puts its mass on the worst groups holding a fraction alpha of the data,
    ranked by an exponential moving average (rate gamma) of the group losses plus the
    adjustment. alpha and gamma change nothing in the standard variant.

    References: Sagawa et al., "Distributionally robust neural networks for group shifts",
    ICLR 2020.

    Batches come from a group-balanced sampler (rows drawn with replacement, weights 1 / count of
    the row's DRO group), as Sagawa et al. and their code (`--reweight_groups`) train it;
    `balanced_sampling=False` draws every row once per epoch instead.
    """

    defaults = {"step_size": 0.01, "adjustment": 0.0, "groups": "group", "variant": "standard",
                "alpha": 0.2, "gamma": 0.1, "balanced_sampling": True}

    def sample_indices(self, source, seed, epoch, method_state):
        del method_state
        if not self.cfg.balanced_sampling:
            return None
        p = balanced_weights(source.labels, source.groups, source.num_classes, self.cfg.groups)
        rng = np.random.default_rng([seed, epoch, 0xD120])
        return rng.choice(len(source), size=len(source), replace=True, p=p)

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.variant not in VARIANTS:
            raise ValueError(f"method.variant must be one of {VARIANTS}, got {cfg.variant!r}")
        if cfg.groups not in GROUPINGS:
            raise ValueError(f"method.groups must be one of {GROUPINGS}, got {cfg.groups!r}")
        for key in ("alpha", "gamma"):
            if not 0.0 < cfg[key] <= 1.0:
                raise ValueError(f"method.{key} must be in (0, 1], got {cfg[key]}")

    def init_state(self, info):
        c, g = info["num_classes"], info["num_groups"]
        k = g if self.cfg.groups == "group" else g * c
        ids = dro_groups(np.asarray(info["labels"]), np.asarray(info["groups"]), c,
                         self.cfg.groups)
        counts = np.bincount(ids, minlength=k).astype(np.float32)
        return {"q": jnp.full(k, 1.0 / k), "ema": jnp.zeros(k), "seen": jnp.zeros(k, bool),
                "adjust": jnp.asarray(self.cfg.adjustment / np.sqrt(np.maximum(counts, 1.0))),
                "frac": jnp.asarray(counts / counts.sum())}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        per_example = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"])
        s = method_state
        ids = dro_groups(batch["label"], batch["group"], logits.shape[1], self.cfg.groups)
        group_loss, present = group_means(per_example[:, None], ids, s["q"].shape[0])
        group_loss = group_loss[:, 0]
        detached = jax.lax.stop_gradient(group_loss)
        if self.cfg.variant == "standard":
            q = exponentiated_gradient(s["q"], detached + s["adjust"], present,
                                       hp.step_size)
            weights, ema, seen = q, s["ema"], s["seen"]
        else:
            rate = jnp.where(s["seen"], hp.gamma, 1.0) * present
            ema = s["ema"] * (1.0 - rate) + detached * rate
            seen = s["seen"] | present
            q = s["q"]
            # Groups not seen yet rank last (the original code starts their average at 0).
            weights = worst_fraction_weights(jnp.where(seen, ema, -jnp.inf) + s["adjust"],
                                             s["frac"], hp.alpha)
        robust = (weights * jnp.where(present, group_loss, 0.0)).sum()
        new_state = {**s, "q": q, "ema": ema, "seen": seen}
        worst = jnp.where(present, detached, -jnp.inf).max()
        return LossOutput(robust, logits, batch_stats, new_state,
                          {"worst_group_loss": worst, "max_weight": weights.max()})
