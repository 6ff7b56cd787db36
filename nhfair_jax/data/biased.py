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

Where the authors' code departs from the paper's text: the text is the default
(`roles="paper"`); `roles="code"` builds the code's construction (make_biased_code):
- it swaps the roles: its sensitive attribute A is the contrast change and its latent attribute G
  the Gaussian noise. The counterfactual edit of A is then the contrast change itself,
  `(c - 1) * (x - m)`, which depends on the image (its pixels and its channel means), not one
  direction in pixel space;
- it seeds the noise generator with the run's seed before every image, so every image with
  G = 1 carries the same noise pattern: one pattern per seed (`np.random.seed(seed)` then
  `np.random.normal(size=image.shape, scale=0.04)`, reproduced here with the same legacy
  generator);
- it assigns A and G by exact counts: in each class, in the seeded shuffled order, the first
  `int(n * skew)` images get A = Y; in each (A, class) cell the first `tot * alpha` get G = A;
- it truncates to uint8 after each corruption (contrast, then noise on the contrasted image).
Under the paper's roles the noise is drawn for each image (shared by its three views), A and G
are drawn independently per example with the same probabilities ("randomly injecting", the
paper's words), and the image is rounded to uint8 once. `noise_pattern="shared"` (paper roles
only) puts one noise pattern in every image of A = 1: the noise is then A's edit and one
direction, which is not the code's construction (there the shared pattern is G's).

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
ROLES = ("paper", "code")


def make_biased(base: np.ndarray, classes: np.ndarray, *, skew: float, alpha: float,
                seed: int, num_base_classes: int = 10, noise_std: float = NOISE_STD,
                contrast: float = CONTRAST, keep_noise: bool = False,
                noise_pattern: str = "per_image", roles: str = "paper") -> dict:
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
        "randomly injecting") or "shared" (one pattern for every image; paper roles only).
      roles: "paper" (A = noise, G = contrast, the text) or "code" (A = contrast, G = one noise
        pattern per seed, exact counts, the authors' code: make_biased_code).

    Returns:
      dict with `image`, `image_cf` (A flipped) and `image_gflip` (G flipped) (uint8
      [N, H, W, 3]), `label` (Y), `group` (A), `attr_g` (G), `base_class` (and `noise`).
    """
    for name, p in (("skew", skew), ("alpha", alpha)):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{name} is a probability, got {p}")
    if roles not in ROLES:
        raise ValueError(f"roles must be one of {ROLES}, got {roles!r}")
    if noise_pattern not in NOISE_PATTERNS:
        raise ValueError(f"noise_pattern must be one of {NOISE_PATTERNS}, got {noise_pattern!r}")
    if not noise_std >= 0 or not 0 <= contrast <= 1:
        raise ValueError(f"noise_std must be >= 0 and contrast in [0, 1], got {noise_std} and "
                         f"{contrast}")
    if roles == "code":
        if noise_pattern != "per_image":
            raise ValueError("noise_pattern applies to roles='paper' only (under roles='code' "
                             f"G's noise is one pattern per seed), got {noise_pattern!r}")
        return make_biased_code(base, classes, skew=skew, alpha=alpha, seed=seed,
                                num_base_classes=num_base_classes, noise_std=noise_std,
                                contrast=contrast, keep_noise=keep_noise)
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


def code_assignment(classes, label, skew: float, alpha: float, order: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(A, G) by the authors' code's exact counts: images taken in `order` (its seeded
    shuffle); in each class of n images the first int(n * skew) get A = Y (for Y = 0: the first
    int(n * skew) get A = 0; for Y = 1: the first n - int(n * skew) get A = 0, the rest A = 1);
    in each (A, class) cell of `tot` images the k-th (from 1) gets G = A when k <= tot * alpha,
    G = 1 - A otherwise (the code's `num <= tot_num * editing_bias_alpha`)."""
    classes, label = np.asarray(classes), np.asarray(label)
    group = np.zeros(len(classes), np.int32)
    attr_g = np.zeros(len(classes), np.int32)
    for c in np.unique(classes):
        rows = order[classes[order] == c]
        n = len(rows)
        skewed = int(n * skew)
        zeros = skewed if label[rows[0]] == 0 else n - skewed  # A = 0 comes first
        a = (np.arange(n) >= zeros).astype(np.int32)
        group[rows] = a
        for value in (0, 1):
            cell = rows[a == value]
            tot = len(cell)
            same = np.arange(1, tot + 1) <= tot * alpha
            attr_g[cell] = np.where(same, value, 1 - value)
    return group, attr_g


def code_noise_pattern(shape, seed: int, noise_std: float = NOISE_STD) -> np.ndarray:
    """The one Gaussian pattern of the authors' code for `seed`: it re-seeds NumPy's legacy
    generator with the run's seed before every image (`np.random.seed(seed)`;
    `np.random.normal(size=x.shape, scale=c)`), so every noised image gets this pattern."""
    return np.random.RandomState(int(seed)).normal(size=tuple(shape), scale=noise_std)


def render_code(base_u8, group, attr_g, pattern, contrast: float = CONTRAST, chunk: int = 4096
                ) -> np.ndarray:
    """uint8 images in the authors' code's arithmetic: A = 1 applies the contrast
    `clip((x - m) * c + m, 0, 1) * 255` (x in [0, 1], m each channel's mean) and truncates to
    uint8; then G = 1 adds the noise `pattern` to that image, `clip(x / 255 + n, 0, 1) * 255`,
    truncated again."""
    out = np.empty(base_u8.shape, np.uint8)
    group, attr_g = np.asarray(group), np.asarray(attr_g)
    for i in range(0, len(base_u8), chunk):
        x = np.asarray(base_u8[i:i + chunk], np.float64) / 255.0
        mean = x.mean(axis=(1, 2), keepdims=True)
        low = (np.clip((x - mean) * contrast + mean, 0, 1) * 255).astype(np.uint8)
        a = group[i:i + chunk, None, None, None].astype(bool)
        img = np.where(a, low, base_u8[i:i + chunk]).astype(np.float64)
        noised = (np.clip(img / 255.0 + pattern, 0, 1) * 255).astype(np.uint8)
        g = attr_g[i:i + chunk, None, None, None].astype(bool)
        out[i:i + chunk] = np.where(g, noised, img.astype(np.uint8))
    return out


def make_biased_code(base: np.ndarray, classes: np.ndarray, *, skew: float, alpha: float,
                     seed: int, num_base_classes: int = 10, noise_std: float = NOISE_STD,
                     contrast: float = CONTRAST, keep_noise: bool = False) -> dict:
    """The authors' code's construction (make_biased's `roles="code"`): A = the contrast
    change, G = the Gaussian noise, one pattern for `seed` (code_noise_pattern), exact counts
    (code_assignment, over a shuffle seeded by `seed`) and the code's arithmetic (render_code).
    `base` (floats in [0, 1]) is first rounded to uint8, the code's input. `image_cf` flips A
    (the other contrast, the same G and pattern): the code's `inv_image`; `image_gflip` flips G.
    """
    base_u8 = np.clip(np.round(np.asarray(base, np.float32) * 255.0), 0, 255).astype(np.uint8)
    label = (np.asarray(classes) >= num_base_classes // 2).astype(np.int32)
    order = np.random.RandomState(int(seed)).permutation(len(base))  # the code's shuffle
    group, attr_g = code_assignment(classes, label, skew, alpha, order)
    pattern = code_noise_pattern(base.shape[1:], seed, noise_std)
    out = {
        "image": render_code(base_u8, group, attr_g, pattern, contrast),
        "image_cf": render_code(base_u8, 1 - group, attr_g, pattern, contrast),
        "image_gflip": render_code(base_u8, group, 1 - attr_g, pattern, contrast),
        "label": label, "group": group, "attr_g": attr_g,
        "base_class": np.asarray(classes, np.int32), "roles": "code",
    }
    if keep_noise:
        out["noise"] = np.broadcast_to(pattern, base.shape)
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
        flip = 1 - built["group"][r:r + 1]
        if built.get("roles") == "code":
            base_u8 = np.clip(np.round(np.asarray(base[j:j + 1], np.float32) * 255.0), 0, 255
                              ).astype(np.uint8)
            out[k] = render_code(base_u8, flip, built["attr_g"][r:r + 1], built["noise"][r],
                                 contrast)[0]
        else:
            out[k] = render(base[j:j + 1], flip, built["attr_g"][r:r + 1],
                            built["noise"][r:r + 1], contrast)[0]
    return out, kind
