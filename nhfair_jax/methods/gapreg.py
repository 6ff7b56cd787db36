"""GapReg: cross-entropy plus a penalty on the gap of softmax probabilities between groups."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.groups import group_gap, group_means
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice, Uniform

OBJECTIVES = ("dp", "eop", "eod")


def probability_gap(probs, labels, groups, num_groups: int, objective: str):
    """The batch's gap of mean softmax probabilities between groups (0 = parity).

    dp: max over classes c of gap_a E[p_c | a] (Denis et al. for multi-class; the positive class
    for binary). eop: gap_a E[p_1 | a, Y = 1] for binary targets, the largest per-class
    gap_a E[p_y | a, Y = y] otherwise. eod: the sum over classes y of gap_a E[p_y | a, Y = y],
    as the benchmark's original code sums its per-class terms (the paper does not say; a mean
    would divide the searched coefficient by the number of classes).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"method.objective must be one of {OBJECTIVES}, got {objective!r}")
    c = probs.shape[1]
    if objective == "dp":
        return group_gap(*group_means(probs, groups, num_groups)).max()
    per_class = []
    for y in range(c):
        means, present = group_means(probs[:, y:y + 1], groups, num_groups,
                                     weights=(labels == y).astype(probs.dtype))
        per_class.append(group_gap(means, present)[0])
    per_class = jnp.stack(per_class)
    if objective == "eod":
        return per_class.sum()
    return per_class[1] if c == 2 else per_class.max()


@register("gapreg", space={"method.objective": Choice(("dp", "eop", "eod")),
                           "method.coef": Uniform(0.01, 5.0)})
class GapReg(Method):
    """CE + coef * probability_gap(objective).

    References: Chuang & Mroueh, "Fair Mixup: Fairness via interpolation", ICLR 2021 (the gap
    regulariser baseline); Denis et al., "Fairness guarantees in multi-class classification
    with demographic parity", JMLR 2024.
    """

    defaults = {"objective": "dp", "coef": 1.0}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        gap = probability_gap(jax.nn.softmax(logits), batch["label"], batch["group"],
                              self.info["num_groups"], self.cfg.objective)
        ce = cross_entropy(logits, batch["label"])
        return LossOutput(ce + hp.coef * gap, logits, batch_stats, method_state,
                          {"ce": ce, "gap": gap})
