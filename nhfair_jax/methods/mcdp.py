"""MCDP: cross-entropy plus the maximal disparity between groups of temperature-smoothed CDFs
of the model's score, taken over probe thresholds."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.groups import group_gap, group_means
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice, Uniform


def smoothed_cdf_disparity(scores, groups, num_groups: int, *, temperature: float,
                           num_probes: int = 100):
    """max over probes t of gap_a F_a(t), F_a(t) = mean over group a of sigmoid(T (t - s)).

    Args:
      scores: [B] scores in [0, 1], or [B, C] (one score per class; the max over classes).
      groups: [B] group indices.
      temperature: T; larger is closer to the hard CDF.
      num_probes: thresholds evenly spaced from the batch's lowest to its highest score (per
        score column), as the benchmark's code places them (`linspace(min, max, 100)` of the
        batch, taken as constants: no gradient flows through the probes).
    """
    scores = scores[:, None] if scores.ndim == 1 else scores
    lo = jax.lax.stop_gradient(scores.min(0))  # [C]
    hi = jax.lax.stop_gradient(scores.max(0))
    probes = lo[:, None] + (hi - lo)[:, None] * jnp.linspace(0.0, 1.0, num_probes)  # [C, P]
    cdf = jax.nn.sigmoid(temperature * (probes[None] - scores[:, :, None]))  # [B, C, P]
    b, c, p = cdf.shape
    means, present = group_means(cdf.reshape(b, c * p), groups, num_groups)
    return group_gap(means, present).max()


@register("mcdp", space={"method.coef": Uniform(0.01, 5.0),
                         "method.temperature": Choice((5.0, 10.0, 20.0, 50.0, 100.0))})
class MCDP(Method):
    """CE + coef * smoothed_cdf_disparity of the positive-class probability (every class's
    probability for multi-class targets).

    References: Jin et al., "On the maximal local disparity of fairness-aware classifiers",
    ICML 2024.
    """

    defaults = {"coef": 1.0, "temperature": 20.0, "num_probes": 100}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        probs = jax.nn.softmax(logits)
        scores = probs[:, 1] if probs.shape[1] == 2 else probs
        disparity = smoothed_cdf_disparity(scores, batch["group"], self.info["num_groups"],
                                           temperature=self.cfg.temperature,
                                           num_probes=self.cfg.num_probes)
        ce = cross_entropy(logits, batch["label"])
        return LossOutput(ce + hp.coef * disparity, logits, batch_stats, method_state,
                          {"ce": ce, "disparity": disparity})
