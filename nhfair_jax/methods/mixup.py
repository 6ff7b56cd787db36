"""Mixup across groups, as the benchmark's code trains it: each example is mixed with a partner
of the same label from another group, and the loss is computed on the mixed batch."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Uniform


def mixup_partners(labels, groups, key):
    """A random in-batch partner for each example, drawn uniformly from the examples of the same
    label in another group and the example itself (the code's multinomial over its pair mask,
    whose diagonal it sets: an example with no valid partner is mixed with itself).

    Returns:
      (partner index [B], has_partner bool [B]: a partner other than itself was possible).
    """
    valid = (labels[:, None] == labels[None, :]) & (groups[:, None] != groups[None, :])
    candidates = valid | jnp.eye(labels.shape[0], dtype=bool)
    noise = jax.random.gumbel(key, valid.shape)
    partner = jnp.argmax(jnp.where(candidates, noise, -jnp.inf), axis=1)
    return partner, valid.any(axis=1)


@register("mixup", space={"method.coef": Uniform(0.1, 10.0)})
class GroupMixup(Method):
    """loss = CE(f(x_mix), y) + coef * [lam CE(f(x_mix), y) + (1 - lam) CE(f(x_mix), y_partner)],
    x_mix = lam x + (1 - lam) x_partner, one lam ~ Beta(alpha, alpha) per batch.

    The benchmark's paper names only a "Mixup loss coefficient" U(0.1, 10) (its Table 7) and
    says it blends data from different groups; this is its code's loss (`mixup_data_by_sensitive`
    and the training step): both terms on the mixed output, one lambda per batch, partners of
    the same label (so y_partner = y and the loss is (1 + coef) x CE of the mix), alpha 1.0.
    The training confusion counts are those of the mixed batch, as the code's.

    References: Zhang et al., "mixup: Beyond empirical risk minimization", ICLR 2018; the group
    variant as in the NH-Fair benchmark (Dehdashtian et al. 2025).
    """

    defaults = {"alpha": 1.0, "coef": 1.0}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        x, y = batch["image"], batch["label"]
        k_partner, k_lam = jax.random.split(rng)
        partner, has_partner = mixup_partners(y, batch["group"], k_partner)
        lam = jax.random.beta(k_lam, self.cfg.alpha, self.cfg.alpha)
        mixed = lam * x + (1.0 - lam) * x[partner]
        logits, batch_stats = forward(apply_fn, params, batch_stats, mixed, train=True)
        plain = cross_entropy(logits, y)
        mix_loss = lam * plain + (1.0 - lam) * cross_entropy(logits, y[partner])
        return LossOutput(plain + hp.coef * mix_loss, logits, batch_stats, method_state,
                          {"mix_loss": mix_loss, "partner_rate": has_partner.mean()})
