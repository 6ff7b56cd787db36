"""FSCL: fair supervised contrastive learning, then a linear classifier on frozen features.

Phase 1 (the first `contrastive_fraction` of the epochs) trains the encoder and a projection
head with the fair supervised contrastive loss on two different augmented views of each image.
Phase 2 trains only a linear head on the frozen encoder's features (evaluation-mode BatchNorm)
with cross-entropy. By default (`linear_features="cached"`) those features are computed once,
from the training images without augmentation, when phase 2 starts (the trainer's
cached-features path of a phase), so a phase-2 epoch costs a pass of the head over a [N, D] matrix; the
benchmark paper says only that the last 40 of 100 epochs train the classifier.
`linear_features="augmented"` is the original FSCL code's linear stage (as SupCon's): every
phase-2 step puts an augmented view through the frozen encoder. Each phase is its own compiled
step (a lax.cond between the two ran 18x slower on CPU), and each phase's optimizer
freezes what the phase does not train (`frozen`), so weight decay and optimizer momentum cannot
move a frozen part either. Phase 2 has its own optimizer at a constant learning rate, as the
original code's linear stage. Epochs of phase 1 are never candidates for the best checkpoint or
counted by early stopping: their head is untrained.
"""

from __future__ import annotations

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

from nhfair_jax.data.pipeline import random_flip
from nhfair_jax.data.randaugment import RandAugment
from nhfair_jax.methods.base import LossOutput, backbone_features, cross_entropy, forward
from nhfair_jax.methods.phases import Phase, PhasedMethod, split_by_key
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice

LINEAR_FEATURES = ("cached", "augmented")


def fair_supcon_loss(z, labels, groups, *, temperature: float, group_norm: bool):
    """The fair supervised contrastive loss of Park et al. (2022).

    Args:
      z: [2B, D] L2-normalised projections, view-major (rows i and B + i are one image).
      labels, groups: [B].
      temperature: the softmax temperature.
      group_norm: weight each anchor by 1 / (its label x group cell's anchor count), so every
        cell of the batch weighs the same (FSCL+); otherwise a plain mean over anchors.

    For anchor i, every other row with its label is a positive. The denominator runs over the
    negatives (another label) of the anchor's own group only: pushing same-group negatives
    apart, but not other-group ones, keeps the group from organising the embedding. Anchors
    without a positive or a same-group negative in the batch are left out.
    """
    y = jnp.concatenate([labels, labels])
    s = jnp.concatenate([groups, groups])
    n = z.shape[0]
    sim = (z @ z.T) / temperature
    not_self = ~jnp.eye(n, dtype=bool)
    same_y = y[:, None] == y[None, :]
    positive = same_y & not_self
    negative = ~same_y & (s[:, None] == s[None, :])
    has_negative = negative.any(1)
    log_den = jax.nn.logsumexp(jnp.where(negative, sim, -jnp.inf), axis=1)
    log_den = jnp.where(has_negative, log_den, 0.0)  # finite everywhere: safe gradients
    log_prob = jnp.where(positive, sim - log_den[:, None], 0.0)
    n_pos = positive.sum(1)
    per_anchor = -log_prob.sum(1) / jnp.maximum(n_pos, 1)
    valid = ((n_pos > 0) & has_negative).astype(z.dtype)
    if group_norm:
        cell = y * (jnp.max(s) + 1) + s
        same_cell = (cell[:, None] == cell[None, :]).astype(z.dtype)
        valid = valid / jnp.maximum(same_cell @ valid, 1.0)
    return (per_anchor * valid).sum() / jnp.maximum(valid.sum(), 1e-12)


class TwoViews:
    """The input-pipeline transform: `image` and `image2`, two independent RandAugment draws
    of each image; `image2` gets its own horizontal flip (the pipeline flips `image`)."""

    def __init__(self, num_ops: int, magnitude: int):
        self.randaugment = RandAugment(num_ops, magnitude, keys=("image",))

    def __call__(self, batch: dict, rng: np.random.Generator) -> dict:
        second = self.randaugment({"image": batch["image"]}, rng)["image"]
        second = random_flip({"image": second, "label": batch["label"]}, rng)["image"]
        first = self.randaugment({"image": batch["image"]}, rng)["image"]
        return {**batch, "image": first, "image2": second}


class Projection(nn.Module):
    hidden: int
    dim: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.dim)(nn.relu(nn.Dense(self.hidden)(x)))
        return x / jnp.maximum(jnp.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


@register("fscl", space={"method.group_norm": Choice((False, True))})
class FSCL(PhasedMethod):
    """Phase 1: fair supervised contrastive loss on two views; phase 2: a linear head on frozen
    features.

    References: Park et al., "Fair contrastive learning for facial attribute classification",
    CVPR 2022; Khosla et al., "Supervised contrastive learning", NeurIPS 2020.
    """

    defaults = {"group_norm": False, "temperature": 0.1, "contrastive_fraction": 0.6,
                "proj_dim": 128, "num_ops": 2, "magnitude": 10, "linear_features": "cached"}
    batch_keys = ("image", "image2", "label", "group")

    def __init__(self, cfg):
        super().__init__(cfg)
        if not 0.0 < cfg.contrastive_fraction < 1.0:
            raise ValueError("method.contrastive_fraction must be in (0, 1), got "
                             f"{cfg.contrastive_fraction}")
        if cfg.linear_features not in LINEAR_FEATURES:
            raise ValueError(f"method.linear_features must be one of {LINEAR_FEATURES}, got "
                             f"{cfg.linear_features!r}")
        self.augment = TwoViews(int(cfg.num_ops), int(cfg.magnitude))

    def setup(self, info: dict) -> None:
        super().setup(info)
        self.projection = Projection(info["feature_dim"], int(self.cfg.proj_dim))
        self.head = nn.Dense(info["num_classes"])

    def init_params(self, model_params, key, info):
        d = jnp.zeros((1, info["feature_dim"]), jnp.float32)
        k1, k2 = jax.random.split(key)
        return {"model": model_params, "proj": self.projection.init(k1, d)["params"],
                "head": self.head.init(k2, d)["params"]}

    phase_name = "contrastive"

    def contrastive_epochs(self, epochs: int) -> int:
        """Phase 1's length: at least one epoch of each phase."""
        return int(min(max(round(self.cfg.contrastive_fraction * epochs), 1), epochs - 1))

    def phase(self, epoch: int, epochs: int) -> Phase:
        """Phase 1 ("contrastive") is never a candidate for the best checkpoint (its head is
        untrained); phase 2 ("linear") trains the head on cached features by default."""
        if epoch <= self.contrastive_epochs(epochs):
            return Phase("contrastive", selectable=False)
        return Phase("linear", cached_features=self.cfg.linear_features == "cached")

    def optimizer(self, make_tx):
        """Phase 1 trains encoder and projection with the run's (scheduled) optimizer, the head
        frozen; phase 2 trains the head alone with its own optimizer at the constant
        learning rate optim.lr (fresh state: it never moved in phase 1), the encoder frozen.
        Following the original FSCL code, which trains its linear classifier with a new
        optimizer: the head does not inherit phase 1's decayed rate."""
        return split_by_key("head", make_tx(scheduled=False), make_tx(),
                            train_own=self.phase_name == "linear")

    def _head(self, params, feats):
        return self.head.apply({"params": params["head"]}, feats)

    def _batch_features(self, apply_fn, params, batch_stats, batch):
        """The trainer's cached features when the batch carries them, else the encoder's."""
        feats = batch.get("features")
        if feats is None:
            feats = backbone_features(apply_fn, params, batch_stats, batch["image"])
        return feats

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        b = batch["label"].shape[0]

        def contrastive():
            images = jnp.concatenate([batch["image"], batch["image2"]])
            (_, feats), stats = forward(apply_fn, params["model"], batch_stats, images,
                                        train=True, features=True)
            z = self.projection.apply({"params": params["proj"]}, feats.astype(jnp.float32))
            loss = fair_supcon_loss(z, batch["label"], batch["group"],
                                    temperature=self.cfg.temperature,
                                    group_norm=bool(self.cfg.group_norm))
            logits = self._head(params, jax.lax.stop_gradient(feats[:b]))
            return loss, logits, stats

        def linear():
            feats = self._batch_features(apply_fn, params, batch_stats, batch)
            logits = self._head(params, jax.lax.stop_gradient(feats))
            return cross_entropy(logits, batch["label"]), logits, batch_stats

        phase2 = self.phase_name == "linear"
        loss, logits, stats = (linear if phase2 else contrastive)()
        return LossOutput(loss, logits.astype(jnp.float32), stats, method_state,
                          {"phase": jnp.asarray(float(phase2))})

    def predict(self, apply_fn, params, batch_stats, batch):
        return self._head(params, self._batch_features(apply_fn, params, batch_stats, batch))
