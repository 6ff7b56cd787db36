"""The controllable-bias construction of CIFAR-10B (counterfactual-fairness paper), shared by
DigitsB, CIFAR-10B and Fashion-MNIST-B.

label Y = class >= 5 (binary); sensitive attribute A = Gaussian noise present, with
P(A = Y) = skew; third attribute G = reduced contrast, with P(G = A) = alpha (the paper's roles:
its Sec. 5.2 sets "A and G ... with the presence of Gaussian and Contrast noise, respectively").
Three images of each example are built from the same clean image and the same noise draws: the
example itself, its counterfactual `image_cf` (A flipped; class and G kept: G is correlated with
A but not caused by it) and `image_gflip` (G flipped, A kept), so CD pairs (x, x with A edited)
and RFP pairs (x, x with G edited) are exact.

Strengths: the paper names the corruptions but not their strength; its code applies both at
severity 1 of the CIFAR-10-C protocol, which is what we use by default: Gaussian noise of standard
deviation 0.04 on [0, 1] pixels (`NOISE_STD`), and contrast `(x - m) * 0.75 + m` with m the
image's mean per colour channel (`CONTRAST`); contrast first, then the noise, as the code
applies them (we round to uint8 once, at the end; the code truncates after each corruption).

Where the authors' code departs from the paper's text (we follow the text):
- it swaps the roles: its sensitive attribute is the contrast corruption and its latent
  attribute the Gaussian noise;
- it seeds the noise generator with the run's seed before every image, so every image carries
  the same noise pattern; ours draws one pattern per image (shared by its three views) by
  default, and `noise_pattern="shared"` draws one pattern for every image, as the code (the
  edit A is then one direction in pixel space, which a method that learns a single attribute
  direction, as LASSI, can see; per image it has none);
- it assigns A and G by exact counts per class (the first 80% of each class in its shuffled
  order); ours draws them independently per example with the same probabilities ("randomly
  injecting", the paper's words).

References:
  Counterfactual fairness benchmark paper (CelebA-CF, LFW-CF, CIFAR-10B): Sec. 5.2 and App. 11.1
  (Gaussian noise for A, contrast for G, P(A = Y) = 0.8, P(G = A) = alpha in 0.5..0.9); App. 14.3
  (non-curated counterfactuals); Hendrycks and Dietterich, "Benchmarking neural network
  robustness to common corruptions and perturbations", ICLR 2019 (the severity-1 settings).
"""

from __future__ import annotations

import numpy as np

NOISE_STD = 0.04  # severity 1 of the protocol's Gaussian noise, on [0, 1] pixels (the code's)
CONTRAST = 0.75  # severity 1 of its contrast: (x - channel mean) * 0.75 + channel mean
NOISE_PATTERNS = ("per_image", "shared")


def make_biased(base: np.ndarray, classes: np.ndarray, *, skew: float, alpha: float,
                seed: int, num_base_classes: int = 10, noise_std: float = NOISE_STD,
                contrast: float = CONTRAST, keep_noise: bool = False,
                noise_pattern: str = "per_image") -> dict:
    """Builds the biased data set from clean images.

    Args:
      base: float images in [0, 1], [N, H, W, 3].
      classes: the original class of each image in [0, num_base_classes).
      skew: P(A = Y).
      alpha: P(G = A).
      seed: construction seed (a local generator; the data set depends on it alone).
      noise_std: the Gaussian noise's standard deviation (A = 1), on [0, 1] pixels.
      contrast: the contrast factor of G = 1 (1 leaves the image as it is).
      keep_noise: also return `noise`, each example's float noise pattern (for rendering further
        views, e.g. noncurated_counterfactuals).
      noise_pattern: "per_image" (one Gaussian pattern drawn for each image, the paper's
        "randomly injecting") or "shared" (one pattern for all images, the authors' code).

    Returns:
      dict with `image`, `image_cf` (A flipped) and `image_gflip` (G flipped) (uint8
      [N, H, W, 3]), `label` (Y), `group` (A), `attr_g` (G), `base_class` (and `noise`).
    """
    for name, p in (("skew", skew), ("alpha", alpha)):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{name} is a probability, got {p}")
    if noise_pattern not in NOISE_PATTERNS:
        raise ValueError(f"noise_pattern must be one of {NOISE_PATTERNS}, got {noise_pattern!r}")
    if not noise_std >= 0 or not 0 <= contrast <= 1:
        raise ValueError(f"noise_std must be >= 0 and contrast in [0, 1], got {noise_std} and "
                         f"{contrast}")
    rng = np.random.default_rng(seed)
    n = len(base)
    label = (np.asarray(classes) >= num_base_classes // 2).astype(np.int32)
    group = np.where(rng.random(n) < skew, label, 1 - label).astype(np.int32)
    attr_g = np.where(rng.random(n) < alpha, group, 1 - group).astype(np.int32)
    if noise_pattern == "shared":
        pattern = rng.standard_normal(size=base.shape[1:], dtype=np.float32)
        noise = np.broadcast_to(pattern * np.float32(noise_std), base.shape)
    else:
        noise = rng.standard_normal(size=base.shape, dtype=np.float32)
        noise *= np.float32(noise_std)
    out = {
        "image": render(base, group, attr_g, noise, contrast),
        "image_cf": render(base, 1 - group, attr_g, noise, contrast),
        "image_gflip": render(base, group, 1 - attr_g, noise, contrast),
        "label": label, "group": group, "attr_g": attr_g,
        "base_class": np.asarray(classes, np.int32),
    }
    if keep_noise:
        out["noise"] = noise
    return out


def render(base, group, attr_g, noise, contrast: float = CONTRAST, chunk: int = 4096
           ) -> np.ndarray:
    """uint8 images of clean `base` [N, H, W, 3] in [0, 1] with G (contrast toward each
    channel's mean) and then A (the example's `noise` added) where they are 1; in chunks of
    rows, so that large sets need little float memory."""
    out = np.empty(base.shape, np.uint8)
    group, attr_g = np.asarray(group), np.asarray(attr_g)
    for i in range(0, len(base), chunk):
        x = np.asarray(base[i:i + chunk], np.float32)
        mean = x.mean(axis=(1, 2), keepdims=True)  # per image and colour channel, as the code
        g = attr_g[i:i + chunk, None, None, None].astype(bool)
        x = np.clip(np.where(g, mean + np.float32(contrast) * (x - mean), x), 0.0, 1.0)
        x = x + noise[i:i + chunk] * group[i:i + chunk, None, None, None]
        out[i:i + chunk] = np.clip(np.round(x * 255.0), 0, 255)
    return out


def noncurated_counterfactuals(base, built: dict, rows: np.ndarray, fraction: float, seed: int,
                               contrast: float = CONTRAST) -> tuple[np.ndarray, np.ndarray]:
    """Training counterfactuals with `fraction` of them incomplete, as the paper's study of
    non-curated edits (its App. 14.3): half of the incomplete ones nearly unchanged (the
    original image itself), the other half with the target and the sensitive attribute both
    altered (the A-flipped rendering of a random image of the other class, with the row's own G
    and noise pattern).

    Args:
      base: the clean float images the construction was built from.
      built: make_biased's output for `base`.
      rows: the training split's rows of `base`.
      fraction: the share of incomplete counterfactuals, in [0, 1].
      seed: the draw of which rows are incomplete and of the other-class images.

    Returns:
      (image_cf of the rows, kind of each row: 0 exact, 1 unchanged, 2 target altered too).
    """
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"the share of non-curated counterfactuals is a fraction, got {fraction}")
    rows = np.asarray(rows)
    rng = np.random.default_rng([int(seed), 0x14C3])
    out = np.array(built["image_cf"][rows])
    kind = np.zeros(len(rows), np.int32)
    chosen = rng.permutation(len(rows))[:int(round(fraction * len(rows)))]
    half = len(chosen) // 2
    unchanged, altered = chosen[:half], chosen[half:]
    kind[unchanged], kind[altered] = 1, 2
    out[unchanged] = built["image"][rows[unchanged]]
    label = built["label"]
    for k in altered:  # an image of the other class, A flipped, the row's own G and noise
        r = rows[k]
        pool = rows[label[rows] != label[r]]
        j = pool[rng.integers(len(pool))] if len(pool) else r
        out[k] = render(base[j:j + 1], 1 - built["group"][r:r + 1], built["attr_g"][r:r + 1],
                        built["noise"][r:r + 1], contrast)[0]
    return out, kind
