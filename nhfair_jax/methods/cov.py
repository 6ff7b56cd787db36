"""COV: cross-entropy plus the absolute covariance between group membership and the model's
decision score, the decision-boundary fairness constraint of Zafar et al. as a penalty."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.groups import cell_counts, original_rows, require_examples
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import LogUniform

CONSTRAINTS = ("impact", "mistreatment")


def decision_scores(logits):
    """Signed distances to the decision boundary: [B, 1] z_1 - z_0 for two classes; [B, C]
    one-vs-rest margins z_c - max_{k != c} z_k for more."""
    c = logits.shape[1]
    if c == 2:
        return logits[:, 1:] - logits[:, :1]
    others = jnp.where(jnp.eye(c, dtype=bool)[None], -jnp.inf, logits[:, None, :])  # [B, C, C]
    return logits - others.max(-1)


def group_covariance(scores, groups, num_groups: int, rows=None):
    """[G, K] covariance over the batch of 1[a = g] with each score column:
    mean_i (1[a_i = g] - mean_j 1[a_j = g]) d_i (Zafar et al.'s estimate); over the rows with
    `rows` 1 only when it is given."""
    z = jax.nn.one_hot(groups, num_groups, dtype=scores.dtype)  # [B, G]
    if rows is None:
        rows = jnp.ones(scores.shape[0], scores.dtype)
    rows = rows.astype(scores.dtype)
    n = jnp.maximum(rows.sum(), 1.0)
    centred = z - (rows[:, None] * z).sum(0, keepdims=True) / n
    return (rows[:, None] * centred).T @ scores / n


def covariance_penalty(logits, labels, groups, num_groups: int, constraint: str = "impact",
                       rows=None):
    """sum over groups g (and score columns) of |cov(1[a = g], d(x))|, over the rows with `rows`
    1 (all rows by default).

    impact: d the decision score (disparate impact, the constraint the study's text names).
    mistreatment: the disparate-mistreatment form of the study's code, per one-vs-rest score:
      FPR part with d = min(0, -d) on negatives, FNR part with d = min(0, d) on positives (0 on
      the other rows), their absolute covariances added.
    """
    if constraint not in CONSTRAINTS:
        raise UserError(f"method.constraint must be one of {CONSTRAINTS}, got {constraint!r}")
    d = decision_scores(logits)
    if constraint == "impact":
        return jnp.abs(group_covariance(d, groups, num_groups, rows)).sum()
    c = logits.shape[1]
    positive = jax.nn.one_hot(labels, c, dtype=d.dtype)
    positive = positive[:, 1:] if c == 2 else positive  # the columns of d
    fpr = (1 - positive) * jnp.minimum(-d, 0.0)
    fnr = positive * jnp.minimum(d, 0.0)
    return (jnp.abs(group_covariance(fpr, groups, num_groups, rows)).sum()
            + jnp.abs(group_covariance(fnr, groups, num_groups, rows)).sum())


@register("cov", space={"method.lam": LogUniform(1e-2, 1e2)})
class COV(Method):
    """CE + lam * covariance_penalty: the covariance between each group's indicator and the
    decision score (the logit margin; one-vs-rest margins for more than two classes), taken over
    the batch and minimised by gradient descent with the network, as the study does instead of
    solving Zafar et al.'s constrained problem.

    `constraint="impact"` (default) is the text's covariance with the decision score;
    `"mistreatment"` the study's code, which penalises the covariances of the misclassified
    rows' distances (false positives and false negatives separately). Both sum the absolute
    covariances over groups. With the `cf="aug"` modifier (COV+aug) the cross-entropy runs on
    originals and counterfactuals and the covariance on the originals, as the study's code.

    References: Zafar et al., "Fairness constraints: Mechanisms for fair classification",
    AISTATS 2017; Zafar et al., "Fairness beyond disparate treatment & disparate impact", WWW
    2017 (the mistreatment form).
    """

    defaults = {"lam": 1.0, "constraint": "impact"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.constraint not in CONSTRAINTS:
            raise UserError(f"method.constraint must be one of {CONSTRAINTS}, got "
                            f"{cfg.constraint!r}")
        if cfg.lam < 0:
            raise UserError(f"method.lam must be >= 0, got {cfg.lam}")

    def setup(self, info):
        super().setup(info)
        require_examples(cell_counts(info["labels"], info["groups"], info["num_classes"],
                                     info["num_groups"]), self.name)

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        penalty = covariance_penalty(logits, batch["label"], batch["group"],
                                     self.info["num_groups"], self.cfg.constraint,
                                     original_rows(batch))
        ce = cross_entropy(logits, batch["label"])
        return LossOutput(ce + hp.lam * penalty, logits, batch_stats, method_state,
                          {"ce": ce, "covariance": penalty})
