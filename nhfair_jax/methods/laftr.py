"""LAFTR: a representation learned against an adversary that predicts the sensitive group.

A real min-max with two optax optimizers. The encoder (the backbone up to its pooled features)
and the classifier (the backbone's head) are the trainable parameters, updated by the trainer's
optimizer. The adversary, an MLP on the representation, lives in the method state with its own
Adam optimizer. Each train step first updates the adversary `adv_steps` times on the frozen
representation, minimising its group-prediction loss. Then the encoder and classifier take one
step on class_coef x CE - fair_coef x (the updated adversary's loss).

The adversary's loss is LAFTR's group-normalised L1 loss, made multi-group. Per example it is
1 - p(true group), bounded in [0, 1]. It is averaged within each group (or, for the eqodd
variant, each group x label cell, and for eqopp each group's positive-label cell, with the
label fed to the adversary), then over cells, so chance is 1 - 1/G whatever the group sizes.
The adversary is the benchmark code's: two linear layers, 128 wide, with no activation between
them (the paper says nothing of it); the variant (dp, eqodd, eqopp, the code's laftr-dp,
laftr-eqodd and laftr-eqopp1) is searched as the code's sweep searches it (the paper's Table 7
lists only the two coefficients). A bounded loss matters: an unbounded one (CE) lets
the encoder win by making the adversary confidently wrong, which keeps the group decodable.
"""

from __future__ import annotations

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice, Uniform

VARIANTS = ("dp", "eqodd", "eqopp")


class Adversary(nn.Module):
    """The code's discriminator: Linear(width, hidden), then Linear(hidden, groups), applied in
    turn with no activation."""

    hidden: int
    num_groups: int

    @nn.compact
    def __call__(self, z):
        return nn.Dense(self.num_groups, name="out")(nn.Dense(self.hidden, name="hidden")(z))


def cell_means(values, cells, num_cells: int):
    """The mean of `values` in each non-empty cell, averaged over those cells."""
    onehot = jax.nn.one_hot(cells, num_cells, dtype=values.dtype)
    counts = onehot.sum(0)
    means = (onehot * values[:, None]).sum(0) / jnp.maximum(counts, 1.0)
    present = (counts > 0).astype(values.dtype)
    return (means * present).sum() / jnp.maximum(present.sum(), 1.0)


def adversary_loss(group_logits, groups, cells, num_cells: int):
    """Group-normalised L1 loss: 1 - p(true group), averaged per cell, then over cells."""
    p_true = jnp.take_along_axis(jax.nn.softmax(group_logits), groups[:, None], axis=1)[:, 0]
    return cell_means(1.0 - p_true, cells, num_cells)


@register("laftr", space={"method.class_coef": Uniform(0.1, 1.0),
                          "method.fair_coef": Uniform(0.1, 1.0),
                          "method.variant": Choice(VARIANTS)})
class LAFTR(Method):
    """class_coef x CE - fair_coef x adversary loss, against an adversary refitted every step.

    References: Madras et al., "Learning adversarially fair and transferable representations",
    ICML 2018.
    """

    defaults = {"variant": "dp", "class_coef": 1.0, "fair_coef": 0.5, "adv_lr": 1e-2,
                "adv_steps": 10, "adv_hidden": 128}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.variant not in VARIANTS:
            raise ValueError(f"method.variant must be one of {VARIANTS}, got {cfg.variant!r}")
        if int(cfg.adv_steps) < 1:
            raise ValueError(f"method.adv_steps must be at least 1, got {cfg.adv_steps}")
        self.adv_tx = optax.adam(cfg.adv_lr)

    def setup(self, info: dict) -> None:
        super().setup(info)
        if self.cfg.variant == "eqopp" and info["num_classes"] != 2:
            raise ValueError(f"method.variant='eqopp' needs a binary target (its positive "
                             f"class); this one has {info['num_classes']} classes")
        self.adversary = Adversary(int(self.cfg.adv_hidden), info["num_groups"])

    def init_state(self, info: dict):
        width = info["feature_dim"] + (info["num_classes"] if self.cfg.variant != "dp" else 0)
        key = jax.random.fold_in(info["key"], 7)  # the method's own key from the trainer
        adv = self.adversary.init(key, jnp.zeros((1, width), jnp.float32))["params"]
        return {"adv": adv, "adv_opt": self.adv_tx.init(adv)}

    def adversary_input(self, feats, labels):
        # Each feature standardised over the batch, as a probe would see it: the encoder cannot
        # hide the group by shrinking or offsetting its features.
        mean = feats.mean(0, keepdims=True)
        feats = (feats - mean) / jnp.sqrt(((feats - mean) ** 2).mean(0, keepdims=True) + 1e-6)
        if self.cfg.variant == "dp":
            return feats
        return jnp.concatenate([feats, jax.nn.one_hot(labels, self.info["num_classes"],
                                                      dtype=feats.dtype)], axis=1)

    def _cells(self, batch):
        if self.cfg.variant == "dp":
            return batch["group"], self.info["num_groups"]
        c, g = self.info["num_classes"], self.info["num_groups"]
        if self.cfg.variant == "eqopp":  # the positive label's cells only (the rest: no cell)
            return jnp.where(batch["label"] == 1, batch["group"], g), g
        return batch["group"] * c + batch["label"], g * c

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        (logits, feats), batch_stats = forward(apply_fn, params, batch_stats, batch["image"],
                                               train=True, features=True)
        z = self.adversary_input(feats.astype(jnp.float32), batch["label"])
        cells, num_cells = self._cells(batch)

        def adv_loss(adv_params, inputs):
            out = self.adversary.apply({"params": adv_params}, inputs)
            return adversary_loss(out, batch["group"], cells, num_cells), out

        adv, adv_opt = method_state["adv"], method_state["adv_opt"]
        frozen = jax.lax.stop_gradient(z)
        for _ in range(int(self.cfg.adv_steps)):  # the adversary's own minimisation
            grads = jax.grad(lambda a: adv_loss(a, frozen)[0])(adv)
            updates, adv_opt = self.adv_tx.update(grads, adv_opt, adv)
            adv = optax.apply_updates(adv, updates)
        # The encoder plays against the updated adversary; its parameters are constants here.
        fooled, group_logits = adv_loss(jax.lax.stop_gradient(adv), z)
        ce = cross_entropy(logits, batch["label"])
        total = hp.class_coef * ce - hp.fair_coef * fooled
        correct = (jnp.argmax(group_logits, -1) == batch["group"]).astype(jnp.float32)
        onehot = jax.nn.one_hot(cells, num_cells, dtype=jnp.float32)
        # Totals per cell, summed over the epoch's batches: the balanced accuracy is derived once.
        return LossOutput(total, logits, batch_stats, {"adv": adv, "adv_opt": adv_opt},
                          {"ce": ce, "adv_loss": fooled,
                           # the adversary's balanced accuracy over the epoch (epoch_scalars)
                           "adv_balanced_acc:num": correct @ onehot,
                           "adv_balanced_acc:den": onehot.sum(0)})
