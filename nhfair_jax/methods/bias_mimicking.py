"""Bias Mimicking: class-conditioned subsampling so that, in each class's one-vs-rest problem,
every other class's distribution of the sensitive attribute mimics that class's own.

The representation is trained by one binary head per class, each on its own mimicked subset
(redrawn every epoch); a final linear head is trained on the detached features with the chosen
sampling mode and is the head used for evaluation (it is saved with the model's parameters).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax

from nhfair_jax.methods.base import LossOutput, Method, cross_entropy, forward
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice

MODES = ("none", "us", "uw", "os")


def mimic_masks(labels, groups, num_classes: int, num_groups: int,
                rng: np.random.Generator) -> np.ndarray:
    """[C, N] 0/1 masks: row c keeps every example of class c and, for each other class c', the
    largest random subset whose group distribution equals P(A | Y = c)."""
    labels, groups = np.asarray(labels), np.asarray(groups)
    counts = np.zeros((num_classes, num_groups), np.int64)
    np.add.at(counts, (labels, groups), 1)
    masks = np.zeros((num_classes, len(labels)), np.float32)
    for c in range(num_classes):
        masks[c, labels == c] = 1.0
        target = counts[c] / max(counts[c].sum(), 1)
        for other in range(num_classes):
            if other == c:
                continue
            have = counts[other]
            # The largest total that every group of `other` can supply at the target shares.
            total = min((have[a] / target[a] for a in range(num_groups) if target[a] > 0),
                        default=0.0)
            for a in range(num_groups):
                rows = np.flatnonzero((labels == other) & (groups == a))
                keep = min(len(rows), int(np.floor(total * target[a] + 1e-9)))
                masks[c, rng.choice(rows, keep, replace=False)] = 1.0
    return masks


def final_head_weights(labels, groups, num_classes: int, num_groups: int, mode: str,
                       rng: np.random.Generator) -> np.ndarray:
    """Per-example weights of the final head's loss: none (1), us (undersample every group x
    class cell to the smallest), uw (1 / cell count), os (largest / cell count)."""
    if mode not in MODES:
        raise ValueError(f"method.mode must be one of {MODES}, got {mode!r}")
    labels, groups = np.asarray(labels), np.asarray(groups)
    cell = groups * num_classes + labels
    counts = np.bincount(cell, minlength=num_classes * num_groups)
    present = counts[counts > 0]
    if mode == "none":
        return np.ones(len(labels), np.float32)
    if mode == "uw":
        w = 1.0 / counts[cell]
        return (w * len(w) / w.sum()).astype(np.float32)
    if mode == "os":
        return (present.max() / counts[cell]).astype(np.float32)
    keep = np.zeros(len(labels), np.float32)
    for k in np.flatnonzero(counts):
        rows = np.flatnonzero(cell == k)
        keep[rng.choice(rows, present.min(), replace=False)] = 1.0
    return keep


def _linear(key, d, c):
    return {"kernel": jax.nn.initializers.lecun_normal()(key, (d, c)), "bias": jnp.zeros(c)}


@register("bias_mimicking", space={"method.mode": Choice(("none", "us", "uw", "os"))})
class BiasMimicking(Method):
    """Binary mimicking heads train the features; a final head (mode none / us / uw / os) on
    detached features predicts. The final head reads L2-normalised features
    (`normalize_head=True`), as the original Bias Mimicking code; the paper does not say.

    References: Qraitem et al., "Bias Mimicking: A Simple Sampling Approach for Bias
    Mitigation", CVPR 2023.
    """

    defaults = {"mode": "none", "normalize_head": True}
    batch_keys = ("image", "label", "group", "row")

    def head_input(self, feats):
        if not self.cfg.normalize_head:
            return feats
        return feats / jnp.maximum(jnp.linalg.norm(feats, axis=-1, keepdims=True), 1e-12)

    def init_params(self, model_params, key, info):
        k1, k2 = jax.random.split(key)
        d, c = info["feature_dim"], info["num_classes"]
        return {"model": model_params, "mimic_heads": _linear(k1, d, c), "head": _linear(k2, d, c)}

    def init_state(self, info):
        n, c = info["num_train"], info["num_classes"]
        return {"mimic": jnp.zeros((c, n), jnp.float32), "final": jnp.zeros(n, jnp.float32)}

    def on_epoch_start(self, ctx, state, epoch):
        train = ctx.sources["train"]
        rng = np.random.default_rng([ctx.data_seed, epoch, 0xB1A5])
        mimic = mimic_masks(train.labels, train.groups, train.num_classes, train.num_groups, rng)
        final = final_head_weights(train.labels, train.groups, train.num_classes,
                                   train.num_groups, self.cfg.mode, rng)
        return state.replace(method_state={"mimic": jnp.asarray(mimic),
                                           "final": jnp.asarray(final)})

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        (_, feats), batch_stats = forward(apply_fn, params["model"], batch_stats, batch["image"],
                                          train=True, features=True)
        heads = params["mimic_heads"]
        binary_logits = feats @ heads["kernel"] + heads["bias"]  # [B, C]: class c vs the rest
        targets = jax.nn.one_hot(batch["label"], binary_logits.shape[1])
        include = method_state["mimic"][:, batch["row"]].T  # [B, C]
        per_head = (optax.sigmoid_binary_cross_entropy(binary_logits, targets) * include).sum(0)
        mimic_loss = (per_head / jnp.maximum(include.sum(0), 1.0)).mean()
        head = params["head"]
        logits = self.head_input(jax.lax.stop_gradient(feats)) @ head["kernel"] + head["bias"]
        head_loss = cross_entropy(logits, batch["label"], method_state["final"][batch["row"]])
        return LossOutput(mimic_loss + head_loss, logits, batch_stats, method_state,
                          {"mimic_loss": mimic_loss, "head_loss": head_loss})

    def predict(self, apply_fn, params, batch_stats, batch):
        (_, feats), _ = forward(apply_fn, params["model"], batch_stats, batch["image"],
                                train=False, features=True)
        return self.head_input(feats) @ params["head"]["kernel"] + params["head"]["bias"]
