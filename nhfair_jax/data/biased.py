"""The controllable-bias construction of CIFAR-10B (counterfactual-fairness seed paper), shared
by DigitsB and CIFAR-10B.

label Y = class >= 5 (binary); sensitive attribute A = Gaussian noise present, with
P(A = Y) = skew; third attribute G = contrast noise, with P(G = A) = alpha. Three images of each
example are built from the same clean image and the same noise draws: the example itself, its
counterfactual `image_cf` (A flipped; class and G kept: G is correlated with A but not caused by
it) and `image_gflip` (G flipped, A kept), so CD pairs (x, x with A edited) and RFP pairs (x, x
with G edited) are exact.

References:
  Counterfactual fairness benchmark paper (CelebA-CF, LFW-CF, CIFAR-10B): Gaussian noise for A,
  contrast noise for G, P(A = Y) = 0.8, P(G = A) = alpha in 0.5..0.9.
"""

from __future__ import annotations

import numpy as np

NOISE_STD = 0.2  # Gaussian noise on [0, 1] pixel values: visible, yet the digit stays readable.
CONTRAST = 0.45  # G = 1 shrinks pixel values toward the image mean by this factor.


def make_biased(base: np.ndarray, classes: np.ndarray, *, skew: float, alpha: float,
                seed: int, num_base_classes: int = 10) -> dict:
    """Builds the biased data set from clean images.

    Args:
      base: float images in [0, 1], [N, H, W, 3].
      classes: the original class of each image in [0, num_base_classes).
      skew: P(A = Y).
      alpha: P(G = A).
      seed: construction seed (a local generator; the data set depends on it alone).

    Returns:
      dict with `image`, `image_cf` (A flipped) and `image_gflip` (G flipped) (uint8
      [N, H, W, 3]), `label` (Y), `group` (A), `attr_g` (G) and `base_class`.
    """
    for name, p in (("skew", skew), ("alpha", alpha)):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{name} is a probability, got {p}")
    rng = np.random.default_rng(seed)
    n = len(base)
    label = (np.asarray(classes) >= num_base_classes // 2).astype(np.int32)
    group = np.where(rng.random(n) < skew, label, 1 - label).astype(np.int32)
    attr_g = np.where(rng.random(n) < alpha, group, 1 - group).astype(np.int32)
    noise = rng.normal(0.0, NOISE_STD, size=base.shape).astype(np.float32)
    return {
        "image": _render(base, group, attr_g, noise),
        "image_cf": _render(base, 1 - group, attr_g, noise),
        "image_gflip": _render(base, group, 1 - attr_g, noise),
        "label": label, "group": group, "attr_g": attr_g,
        "base_class": np.asarray(classes, np.int32),
    }


def _render(base, group, attr_g, noise) -> np.ndarray:
    x = base.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    contrast = attr_g[:, None, None, None].astype(bool)
    x = np.where(contrast, mean + CONTRAST * (x - mean), x)
    x = x + noise * group[:, None, None, None]
    return np.clip(np.round(x * 255.0), 0, 255).astype(np.uint8)
