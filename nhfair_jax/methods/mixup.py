"""Mixup across groups: each example is mixed with a partner of the same label from another
group, and the mixed image keeps that label."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Uniform


def mixup_partners(labels, groups, key):
    """A random in-batch partner for each example: same label, different group.

    Returns:
      (partner index [B], has_partner bool [B]); rows without a partner point at themselves.
    """
    valid = (labels[:, None] == labels[None, :]) & (groups[:, None] != groups[None, :])
    noise = jax.random.gumbel(key, valid.shape)
    partner = jnp.argmax(jnp.where(valid, noise, -jnp.inf), axis=1)
    has_partner = valid.any(axis=1)
    return jnp.where(has_partner, partner, jnp.arange(labels.shape[0])), has_partner


@register("mixup", space={"method.coef": Uniform(0.1, 10.0)})
class GroupMixup(Method):
    """loss = CE(f(x), y) + coef * CE(f(lam x + (1 - lam) x_partner), y), lam ~ Beta(alpha, alpha).

    Examples without a partner in the batch contribute only the first term. alpha defaults to
    1.0 (lambda uniform on [0, 1]) as the benchmark's original code; its paper gives no value.
    Both images share the label, so the interpolated label of mixup is that label and the mixed
    term is a plain CE, weighted by coef, Table 7's "Mixup loss coefficient".

    References: Zhang et al., "mixup: Beyond empirical risk minimization", ICLR 2018; the group
    variant as in the NH-Fair benchmark (Dehdashtian et al. 2025).
    """

    defaults = {"alpha": 1.0, "coef": 1.0}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng) -> LossOutput:
        x, y = batch["image"], batch["label"]
        k_partner, k_lam = jax.random.split(rng)
        partner, has_partner = mixup_partners(y, batch["group"], k_partner)
        lam = jax.random.beta(k_lam, self.cfg.alpha, self.cfg.alpha, (x.shape[0], 1, 1, 1))
        mixed = lam * x + (1.0 - lam) * x[partner]
        both, batch_stats = forward(apply_fn, params, batch_stats,
                                    jnp.concatenate([x, mixed]), train=True)
        logits, mixed_logits = jnp.split(both, 2)
        mix_loss = cross_entropy(mixed_logits, y, weights=has_partner)
        loss = cross_entropy(logits, y) + self.cfg.coef * mix_loss
        return LossOutput(loss, logits, batch_stats, method_state,
                          {"mix_loss": mix_loss, "partner_rate": has_partner.mean()})
