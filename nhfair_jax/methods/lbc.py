"""LBC: label bias correction. Lagrange multipliers, one per group x class cell, move against
the constraint violations of the model's training-set predictions between rounds of epochs; the
multipliers set each cell's loss weight (sigmoid of the multiplier, as the counterfactual
study's code)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import LossOutput, Method, forward
from nhfair_jax.methods.groups import cell_counts, require_examples
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import LogUniform

CONSTRAINTS = ("dp", "eop", "eod")


def constraint_violations(preds, labels, groups, num_classes: int, num_groups: int,
                          constraint: str) -> np.ndarray:
    """[G, C] violations of the hard predictions `preds`:

    dp: P(pred = c | a = g) - P(pred = c).
    eod: P(pred = c | a = g, y = c) - P(pred = c | y = c), the true positive rate of every
      class (the study's code; for two classes, equalized odds).
    eop: as eod for the positive class of a binary target (column 0 is zero); every class for
      more classes, which have no single positive class.
    Positive: group g gets class c more often than everyone does.
    """
    if constraint not in CONSTRAINTS:
        raise UserError(f"method.constraint must be one of {CONSTRAINTS}, got {constraint!r}")
    preds, labels, groups = (np.asarray(x) for x in (preds, labels, groups))
    hit = np.eye(num_classes, dtype=np.float64)[preds]  # [N, C]: pred == c
    group = np.eye(num_groups, dtype=np.float64)[groups]  # [N, G]
    if constraint == "dp":
        rate_g = group.T @ hit / np.maximum(group.sum(0), 1)[:, None]
        return rate_g - hit.mean(0)[None]
    own = np.eye(num_classes, dtype=np.float64)[labels]  # [N, C]: y == c
    tp = group.T @ (hit * own)  # [G, C]
    cell = group.T @ own
    rate_g = tp / np.maximum(cell, 1)
    rate = (hit * own).sum(0) / np.maximum(own.sum(0), 1)
    out = rate_g - rate[None]
    if constraint == "eop" and num_classes == 2:
        out[:, 0] = 0.0
    return out


def update_multipliers(multipliers, violations, eta: float):
    """lambda <- lambda - eta * violation: a cell predicted too often loses weight."""
    return multipliers - eta * violations


def cell_weights(multipliers):
    """[G, C] loss weights sigmoid(lambda), the study's code's (0.5 everywhere at lambda = 0)."""
    return jax.nn.sigmoid(multipliers)


@register("lbc", space={"method.eta": LogUniform(1e-1, 1e3)})
class LBC(Method):
    """Cross-entropy weighted per group x class cell by sigmoid(lambda); every
    `epochs_per_round` epochs the model predicts the training split and the multipliers take a
    step of size `eta` against the violations of `constraint` (dp, eop, or eod: see
    constraint_violations).

    As the study's code: the weights are sigmoid(lambda) of each cell, the default constraint is
    eod (its violations are every class's true positive rate per group against all groups'),
    and its parameters are the multipliers' learning rate `eta` (searched log-uniformly on
    [1e-1, 1e3], the study's App. 11.4) and the round length (the study: 5 epochs per round, 14
    rounds). Jiang and Nachum retrain from scratch after each multiplier update; the study's
    code (and this method) keeps training the same model between rounds. With the `cf="aug"`
    modifier each row is weighted by its own (flipped) cell and the violations are those of the
    augmented training set, originals and counterfactuals, as the code computes them.

    References: Jiang and Nachum, "Identifying and correcting label bias in machine learning",
    AISTATS 2020.
    """

    defaults = {"eta": 1.0, "constraint": "eod", "epochs_per_round": 5}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.constraint not in CONSTRAINTS:
            raise UserError(f"method.constraint must be one of {CONSTRAINTS}, got "
                            f"{cfg.constraint!r}")
        if not cfg.eta >= 0:
            raise UserError(f"method.eta must be >= 0, got {cfg.eta}")
        if cfg.epochs_per_round < 1:
            raise UserError(f"method.epochs_per_round must be >= 1, got {cfg.epochs_per_round}")

    def setup(self, info):
        super().setup(info)
        require_examples(cell_counts(info["labels"], info["groups"], info["num_classes"],
                                     info["num_groups"]), self.name,
                         cells=self.cfg.constraint != "dp")

    def init_state(self, info):
        shape = (info["num_groups"], info["num_classes"])
        return {"multipliers": jnp.zeros(shape, jnp.float32),
                "violations": jnp.zeros(shape, jnp.float32)}

    def on_epoch_start(self, ctx, state, epoch):
        if epoch == 1 or (epoch - 1) % self.cfg.epochs_per_round:
            return state
        train = ctx.sources["train"]
        preds = ctx.predict(state, "train").argmax(1)
        labels, groups = train.labels, train.groups
        if self.cf_mode == "aug":  # the augmented set: counterfactuals with A flipped
            cf_preds = ctx.predict(state, "train", image_key="image_cf").argmax(1)
            paired = np.asarray(train.extras.get("cf_mask", np.ones(len(train)))) > 0
            preds = np.concatenate([preds, cf_preds[paired]])
            labels = np.concatenate([labels, labels[paired]])
            groups = np.concatenate([groups, 1 - groups[paired]])
        violations = constraint_violations(preds, labels, groups, train.num_classes,
                                           train.num_groups, self.cfg.constraint)
        s = jax.device_get(state.method_state)
        multipliers = update_multipliers(np.asarray(s["multipliers"], np.float64), violations,
                                         self.cfg.eta)
        new = {"multipliers": jnp.asarray(multipliers, jnp.float32),
               "violations": jnp.asarray(violations, jnp.float32)}
        return state.replace(method_state=new)

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        w_cells = cell_weights(method_state["multipliers"])
        w = w_cells[batch["group"], batch["label"]]
        ce = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"])
        return LossOutput(jnp.mean(w * ce), logits, batch_stats, method_state,
                          {"max_violation": jnp.abs(method_state["violations"]).max(),
                           "weight_ratio": w_cells.max() / w_cells.min()})
