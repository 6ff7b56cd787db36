"""Plain image-text matching, evaluated zero-shot: `clip` and `blip2`.

They are never trained: nhfair_jax.zeroshot.evaluate writes their run directory from the
checkpoint in `config.model.*` (see nhfair_jax.zeroshot.config). Their settings live under
`config.method.*` like any method's: the captions (`prompts` inline, one entry per class,
alternatives separated by '||'; or `prompt_file`; default: the data set's Table 8 captions).
The debiased variants are their own modules (fairerclip, sfid).
"""

from __future__ import annotations

from nhfair_jax.methods.base import ZeroShotMethod
from nhfair_jax.methods.registry import ZERO_SHOT, register


@register("clip", kind=ZERO_SHOT)
class CLIPZeroShot(ZeroShotMethod):
    """CLIP: logit_scale x cosine between image and caption embeddings.

    References: Radford et al., "Learning transferable visual models from natural language
    supervision", ICML 2021.
    """

    backbones = ("clip",)


@register("blip2", kind=ZERO_SHOT)
class BLIP2ZeroShot(ZeroShotMethod):
    """BLIP-2: image-text contrastive scores (`head="itc"`, the best query token's cosine) or the
    image-text matching head's match log-odds (`head="itm"`, one pass per image and caption).

    References: Li et al., "BLIP-2: Bootstrapping language-image pre-training with frozen image
    encoders and large language models", ICML 2023.
    """

    backbones = ("blip2",)
    defaults = {**ZeroShotMethod.defaults, "head": "itc"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.head not in ("itc", "itm"):
            raise ValueError(f"method.head must be 'itc' or 'itm', got {cfg.head!r}")

    @property
    def matches_pairs(self) -> bool:
        return self.cfg.head == "itm"
