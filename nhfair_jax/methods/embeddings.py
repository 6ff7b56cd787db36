"""From embeddings to zero-shot logits: cosine similarity times the model's logit scale.

The scale matters: CLIP was trained with logits = logit_scale x cosine (logit_scale = 100 for the
released models), so a softmax of the bare cosines (what the benchmark's reference code does) gives
probabilities within a few percent of uniform, and losses, calibration and any score-based metric
computed from them describe a model nobody trained.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

EPS = 1e-12


def normalize(x):
    """Rows (last axis) scaled to unit L2 norm; an all-zero row stays zero."""
    x = jnp.asarray(x, jnp.float32)
    return x / jnp.maximum(jnp.linalg.norm(x, axis=-1, keepdims=True), EPS)


def class_embeddings(text_embeddings, counts) -> jnp.ndarray:
    """One unit vector per class from its captions: the mean of the captions' normalised
    embeddings, normalised again (CLIP's prompt ensembling).

    Args:
      text_embeddings: [T, D], the captions of all classes in class order.
      counts: captions per class (summing to T).
    """
    text = normalize(text_embeddings)
    bounds = np.cumsum([0, *counts])
    if bounds[-1] != text.shape[0]:
        raise ValueError(f"{text.shape[0]} caption embeddings for {bounds[-1]} captions")
    return normalize(jnp.stack([text[a:b].mean(axis=0) for a, b in zip(bounds[:-1], bounds[1:])]))


def zero_shot_logits(image_embeddings, class_embeddings_, logit_scale: float) -> np.ndarray:
    """logit_scale x cosine(image, class caption), [N, C] float32.

    Image embeddings [N, D] (CLIP) or [N, Q, D] (BLIP-2 query tokens: the score of a pair is
    the best-matching query token's cosine, as BLIP-2's contrastive head scores it).
    """
    img = normalize(image_embeddings)
    txt = normalize(class_embeddings_)
    if img.ndim == 3:
        cos = jnp.einsum("nqd,cd->nqc", img, txt).max(axis=1)
    else:
        cos = img @ txt.T
    return np.asarray(float(logit_scale) * cos, np.float32)
