"""DigitsB, CIFAR-10B and Fashion-MNIST-B: the controllable-bias recipe (data/biased.py) on
scikit-learn's bundled digits (embedded, no download) and on any ten-class image set in its
official release format (data/tenclass.py): CIFAR-10's python batches (`cifar10b`), the MNIST
family's IDX files (`fashion_mnist_b`; Debian's `dataset-fashion-mnist` installs them under
/usr/share/datasets/fashion-mnist).

Every split carries exact pairs: `image_cf` (the sensitive attribute A flipped, class, G and noise
draws kept) for counterfactual disparity and the counterfactual-aware methods, `image_gflip` (the
latent attribute G flipped) for the rate of flipped predictions, and `attr_g` (G). Options:
`skew` = P(A = Y) (0.8), `alpha` = P(G = A) (0.8; the paper varies it over 0.5..0.9),
`noise_std` and `contrast` (the corruptions' strengths: the paper code's severity-1 settings,
0.04 and 0.75, on CIFAR-10B and Fashion-MNIST-B; DigitsB's own 0.2 and 0.45), `noncurated`
(the share of incomplete training counterfactuals, the paper's App. 14.3; 0 by default) and
`noise_pattern` ("per_image", default: a Gaussian pattern drawn for each image, as the paper's
text; "shared": one pattern in every noised image, which makes A's edit one direction; it is
not the authors' construction), `roles` ("paper", default: A the noise and G the contrast, as
the paper's text; "code": the authors' code, A the contrast change and G the Gaussian noise, one
pattern per `build_seed`, exact counts, at the code's strengths 0.04 and 0.75 on every set,
DigitsB included: data/biased.py) and `build_seed` (the construction's seed, 0; the
counterfactual study sets it and `data.split_seed` to each run's seed with `data_per_seed`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from nhfair_jax.data.biased import (
    CONTRAST,
    NOISE_STD,
    ROLES,
    make_biased,
    noncurated_counterfactuals,
)
from nhfair_jax.data.source import ArraySource, kept_build, random_split, split_rng
from nhfair_jax.data.tenclass import read_cifar_release, read_ten_class

# DigitsB's own strengths (ours): 8 x 8 digits upsampled are not photographs, and on its 180
# test images the severity-1 settings of the photographic sets leave the shortcut too faint for
# a few points of CD or DEO to be told from noise; these keep the digit readable while the
# noise and the contrast are plain to see.
DIGITSB_NOISE_STD = 0.2
DIGITSB_CONTRAST = 0.45
CLASS_NAMES = ("digit_0_4", "digit_5_9")
TEN_CLASS_NAMES = ("classes_0_4", "classes_5_9")
CIFAR_CLASS_NAMES = TEN_CLASS_NAMES
GROUP_NAMES = ("clean", "gaussian_noise")
CODE_GROUP_NAMES = ("full_contrast", "low_contrast")  # roles="code": A is the contrast change


def strengths(roles: str, noise_std, contrast, default_noise: float, default_contrast: float):
    """(noise_std, contrast): the given ones, else the code's severity-1 settings under
    roles="code" and the data set's own defaults under roles="paper"."""

    if roles not in ROLES:
        raise ValueError(f"data.options.roles must be one of {ROLES}, got {roles!r}")
    if roles == "code":
        default_noise, default_contrast = NOISE_STD, CONTRAST
    return (default_noise if noise_std is None else float(noise_std),
            default_contrast if contrast is None else float(contrast))
SPLITS_TEN_CLASS = ("paper", "official")
SPLITS_CIFAR10B = SPLITS_TEN_CLASS


def resize(images: np.ndarray, size: int, chunk: int = 1024) -> np.ndarray:
    """Bilinear resize of float images [N, h, w, 3] to [N, size, size, 3], in chunks."""
    if images.shape[1:3] == (size, size):
        return images.astype(np.float32)
    out = [np.asarray(jax.image.resize(jnp.asarray(images[i:i + chunk], jnp.float32),
                                       (len(images[i:i + chunk]), size, size, 3), "bilinear"))
           for i in range(0, len(images), chunk)]
    return np.concatenate(out)


def _biased_sources(name, base, classes, splits, *, skew, alpha, build_seed, class_names,
                    eval_skew=None, noise_std=NOISE_STD, contrast=CONTRAST, noncurated=0.0,
                    noise_pattern="per_image", roles="paper", base_key=None):
    """Sources of the biased construction. With `eval_skew`, validation and test follow their
    own P(A = Y) (0.5: the shortcut breaks there, as in Waterbirds); each example keeps its
    noise draws, only whether it carries the noise changes. With `noncurated` > 0 that share of
    the training split's counterfactuals is incomplete (`cf_kind` 1: unchanged, 2: target
    altered too); validation and test keep exact pairs. `base_key` names `base` (the data set
    and its size): the construction, which no split changes, is then built once while sources
    are reused (source.kept_build), for every seed's split."""

    def full(skew_):
        if base_key is None:
            return build(skew_)
        return kept_build((name, base_key, skew_, alpha, build_seed, noise_std, contrast,
                           noncurated > 0, noise_pattern, roles), lambda: build(skew_))

    def build(skew_):
        built = make_biased(base, classes, skew=skew_, alpha=alpha, seed=build_seed,
                            noise_std=noise_std, contrast=contrast, keep_noise=noncurated > 0,
                            noise_pattern=noise_pattern, roles=roles)
        source = ArraySource(images=built["image"], labels=built["label"], groups=built["group"],
                             indices=np.arange(len(base)), class_names=class_names,
                             group_names=CODE_GROUP_NAMES if roles == "code" else GROUP_NAMES,
                             name=name,
                             extras={"image_cf": built["image_cf"],
                                     "image_gflip": built["image_gflip"],
                                     "attr_g": built["attr_g"]})
        return source, built

    train, built = full(skew)
    evaluation = train if eval_skew is None or eval_skew == skew else full(eval_skew)[0]
    out = {split: (train if split == "train" else evaluation).subset(rows, split)
           for split, rows in splits.items()}
    if noncurated > 0:
        cf, kind = noncurated_counterfactuals(base, built, splits["train"], noncurated,
                                              build_seed, contrast)
        out["train"].extras["image_cf"], out["train"].extras["cf_kind"] = cf, kind
    return out


def digitsb_sources(root=None, *, split_seed=0, image_size=32, skew=0.8, alpha=0.8,
                    build_seed=0, eval_skew=None, noise_std=None, contrast=None, noncurated=0.0,
                    noise_pattern="per_image", roles="paper") -> dict[str, ArraySource]:
    """DigitsB: 1,797 digits, label = digit >= 5, A = Gaussian noise (std 0.2), G = contrast
    (x 0.45); seeded 8:1:1 split (`eval_skew`: another P(A = Y) for validation and test).
    `roles="code"`: A = contrast (x 0.75), G = one noise pattern (std 0.04), as the authors'
    code builds CIFAR-10B."""
    del root  # embedded: ships with scikit-learn
    noise_std, contrast = strengths(roles, noise_std, contrast, DIGITSB_NOISE_STD,
                                    DIGITSB_CONTRAST)
    base, target = kept_build(("digitsb", image_size), lambda: _digits(image_size))
    splits = random_split(len(base), "digitsb", split_seed)
    return _biased_sources("digitsb", base, target, splits, skew=skew, alpha=alpha,
                           build_seed=build_seed, class_names=CLASS_NAMES, eval_skew=eval_skew,
                           noise_std=noise_std, contrast=contrast, noncurated=noncurated,
                           noise_pattern=noise_pattern, roles=roles, base_key=image_size)


def _digits(image_size: int):
    """scikit-learn's 1,797 digits as [N, size, size, 3] floats in [0, 1], and their digits."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    base = (digits.images / 16.0).astype(np.float32)[..., None].repeat(3, axis=-1)
    return np.clip(resize(base, image_size), 0.0, 1.0), digits.target


def ten_class_biased_sources(name, train_x, train_y, test_x, test_y, *, split_seed=0,
                             image_size=32, skew=0.8, alpha=0.8, build_seed=0, split="paper",
                             val_fraction=0.1, noise_std=None, contrast=None,
                             noncurated=0.0, noise_pattern="per_image", roles="paper"):
    """The construction on a ten-class set's arrays (uint8 [N, H, W, 3], classes 0..9),
    whichever release they were read from.

    `split="paper"` (default): every image, train and test, pooled and split 64:16:20 (seeded),
    as the counterfactual fairness paper does (its App. 11.1: "train-validation-test sets with a
    ratio of 64:16:20"); `split="official"`: the release's test images as test, `val_fraction`
    of its training images as validation.
    """
    if split not in SPLITS_TEN_CLASS:
        raise ValueError(f"data.options.split must be one of {SPLITS_TEN_CLASS}, got {split!r}")
    noise_std, contrast = strengths(roles, noise_std, contrast, NOISE_STD, CONTRAST)
    images = np.concatenate([train_x, test_x])
    classes = np.concatenate([train_y, test_y])
    n_train = len(train_x)
    if split == "paper":
        splits = random_split(len(images), name, split_seed, (0.64, 0.16, 0.20))
    else:
        perm = split_rng(name, split_seed).permutation(n_train)
        n_val = int(round(val_fraction * n_train))
        splits = {"train": np.sort(perm[n_val:]), "val": np.sort(perm[:n_val]),
                  "test": np.arange(n_train, len(images))}
    base = np.concatenate([np.clip(resize(images[i:i + 8192].astype(np.float32) / 255.0,
                                          image_size), 0.0, 1.0)
                           for i in range(0, len(images), 8192)])
    return _biased_sources(name, base, classes, splits, skew=skew, alpha=alpha,
                           build_seed=build_seed, class_names=TEN_CLASS_NAMES,
                           noise_std=noise_std, contrast=contrast, noncurated=noncurated,
                           noise_pattern=noise_pattern, roles=roles)


def cifar10b_from_arrays(train_x, train_y, test_x, test_y, **options):
    """CIFAR-10B from CIFAR-10 arrays (ten_class_biased_sources's options)."""
    return ten_class_biased_sources("cifar10b", train_x, train_y, test_x, test_y, **options)


def cifar10b_sources(root, **options) -> dict[str, ArraySource]:
    """CIFAR-10B from the CIFAR-10 python release (options of ten_class_biased_sources)."""
    return cifar10b_from_arrays(*read_cifar_release(root), **options)


def fashion_mnist_b_sources(root, **options) -> dict[str, ArraySource]:
    """Fashion-MNIST-B: the construction on Fashion-MNIST's 70,000 greyscale photographs of
    clothes (28 x 28; classes 0-4 tops, trousers, pullovers, dresses, coats vs 5-9 sandals,
    shirts, sneakers, bags, ankle boots) from its IDX files, or on any ten-class release
    data/tenclass.py reads (options of ten_class_biased_sources)."""
    return ten_class_biased_sources("fashion_mnist_b", *read_ten_class(root), **options)
