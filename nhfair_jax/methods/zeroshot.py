"""The zero-shot methods, registered by name like the trained ones: `clip` and `blip2` (plain
image-text matching), `fairerclip` and `sfid` (debiased CLIP embeddings).

They are evaluated, never trained: `nhfair_jax.zeroshot.evaluate` writes their run directory.
Their hyperparameters live under `config.method.*` like any method's, so the benchmark searches
and selects them the same way; the checkpoint is `config.model.*` (see nhfair_jax.zeroshot.config).
"""

from __future__ import annotations

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import Method
from nhfair_jax.methods.registry import register

PROMPTS = {"prompts": (), "prompt_file": ""}


class ZeroShotMethod(Method):
    """Base: the captions (`prompts` inline, one entry per class, alternatives separated by
    '||'; or `prompt_file`; default: the data set's Table 8 captions)."""

    zeroshot = True
    backbones = ("clip", "blip2")  # model.name values it works with
    defaults = dict(PROMPTS)

    def loss(self, *args, **kwargs):
        raise UserError(f"method {self.name!r} is zero-shot: it is evaluated by "
                        "nhfair_jax.zeroshot, not trained")


@register("clip")
class CLIPZeroShot(ZeroShotMethod):
    """CLIP: logit_scale x cosine between image and caption embeddings."""

    backbones = ("clip",)


@register("blip2")
class BLIP2ZeroShot(ZeroShotMethod):
    """BLIP-2: image-text contrastive scores (`head="itc"`, the best query token's cosine) or the
    image-text matching head's match log-odds (`head="itm"`, one pass per image and caption)."""

    backbones = ("blip2",)
    defaults = {**PROMPTS, "head": "itc"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.head not in ("itc", "itm"):
            raise ValueError(f"method.head must be 'itc' or 'itm', got {cfg.head!r}")


@register("fairerclip")
class FairerCLIPMethod(ZeroShotMethod):
    """FairerCLIP on CLIP embeddings (nhfair_jax.zeroshot.fairerclip): fitted on the training
    split with ground-truth labels (`labels="true"`) or the model's own predictions
    (`labels="pseudo"`, with `iters` rounds; the original uses 3).

    Defaults are the benchmark's reference code's (tau_i = tau_z_i = 0.7, tau_t = tau_z_t = 0.1,
    gamma 3e-5 / 3e-4, 4000 random features and bandwidth rows), except `dim_z`: that code keeps
    one dimension, so every debiased cosine is +-1 and the scores carry no ranking (AUC); 8 lets
    the energy threshold decide (it often keeps one for two classes anyway).
    """

    backbones = ("clip",)
    defaults = {**PROMPTS, "labels": "true", "iters": 1, "tau_i": 0.7, "tau_z_i": 0.7,
                "tau_t": 0.1, "tau_z_t": 0.1, "gamma_i": 3e-5, "gamma_t": 3e-4,
                "rff_dim": 4000, "sigma_rows": 4000, "dim_z": 8}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.labels not in ("true", "pseudo"):
            raise ValueError(f"method.labels must be 'true' or 'pseudo', got {cfg.labels!r}")
        for key in ("tau_i", "tau_z_i", "tau_t", "tau_z_t"):
            if not 0.0 <= cfg[key] < 1.0:
                raise ValueError(f"method.{key} must be in [0, 1), got {cfg[key]}")
        for key in ("rff_dim", "dim_z", "iters", "sigma_rows"):
            if cfg[key] < 1:
                raise ValueError(f"method.{key} must be at least 1, got {cfg[key]}")


@register("sfid")
class SFIDMethod(ZeroShotMethod):
    """SFID on CLIP embeddings (nhfair_jax.zeroshot.sfid): a seeded random forest's most
    important dimensions for the sensitive attribute, imputed with low-confidence means."""

    backbones = ("clip",)
    defaults = {**PROMPTS, "threshold": 0.7, "n_pruned": 50, "n_estimators": 100}

    def __init__(self, cfg):
        super().__init__(cfg)
        if not 0.0 < cfg.threshold <= 1.0:
            raise ValueError(f"method.threshold must be in (0, 1], got {cfg.threshold}")
        if cfg.n_pruned < 1 or cfg.n_estimators < 1:
            raise ValueError("method.n_pruned and method.n_estimators must be at least 1")
