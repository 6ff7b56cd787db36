"""The demographic study's second answer mapper: an answer is embedded by a sentence encoder
beside each class name and takes the class of the highest softmax(100 x cosine) (its
eval_semantic_sim.py, with sentence-T5-xxl; CLIP's text tower is its alternative).

The study never abstains: every answer, refusals too, gets a class. We record the similarity
margin (the best cosine minus the second best) and the winning probability, and
`abstain_margin` > 0 turns answers whose margin is smaller into `unparseable` (stage
`embedding_abstain`); 0 reproduces the paper.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.bridge.text_encoder import TextEncoder
from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.parse import PARSED, UNPARSEABLE, Parse

LOGIT_SCALE = 100.0  # the study's `100.0 * predict_features @ gt_features.T`


def similarity_softmax(answers: np.ndarray, classes: np.ndarray):
    """(cosines, probabilities) of unit answer rows against unit class rows."""
    cos = np.asarray(answers, np.float64) @ np.asarray(classes, np.float64).T
    logits = LOGIT_SCALE * cos
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    return cos, probs / probs.sum(axis=1, keepdims=True)


class EmbeddingMapper:
    """Maps free-text answers to classes by sentence-encoder similarity.

    Args:
      encoder: an object with `encode(texts) -> (n, d)` unit rows (e.g.
        `nhfair_jax.bridge.text_encoder.TextEncoder`).
      abstain_margin: answers whose best cosine beats the second by less are unparseable;
        0 never abstains (the study).
    """

    def __init__(self, encoder, abstain_margin: float = 0.0):
        if abstain_margin < 0:
            raise UserError(f"parse.abstain_margin must be >= 0, got {abstain_margin}")
        self.encoder, self.abstain_margin = encoder, float(abstain_margin)

    @classmethod
    def from_config(cls, parse) -> "EmbeddingMapper":
        """The mapper of a config's `parse` section (loads `parse.encoder`)."""
        if not parse.encoder:
            raise UserError("parse.mapper='embedding' needs parse.encoder: a local sentence "
                            "encoder checkpoint folder (sentence-T5 or a CLIP model)")

        return cls(TextEncoder(parse.encoder, device=parse.encoder_device),
                   abstain_margin=float(parse.abstain_margin))

    def map(self, texts, class_texts, class_names) -> list[Parse]:
        """One Parse per text: the class of the highest probability, margin and probability."""
        if not texts:
            return []
        cos, probs = similarity_softmax(self.encoder.encode(list(texts)),
                                        self.encoder.encode(list(class_texts)))
        order = np.argsort(-cos, axis=1)
        out = []
        for i in range(len(texts)):
            best = int(probs[i].argmax())
            second = int(order[i, 1]) if cos.shape[1] > 1 else best
            margin = float(cos[i, best] - cos[i, second]) if cos.shape[1] > 1 else 1.0
            if self.abstain_margin and margin < self.abstain_margin:
                out.append(Parse(UNPARSEABLE, None, "embedding_abstain", margin=margin,
                                 prob=float(probs[i, best])))
            else:
                out.append(Parse(PARSED, best, "embedding", class_names[best], margin=margin,
                                 prob=float(probs[i, best])))
        return out
