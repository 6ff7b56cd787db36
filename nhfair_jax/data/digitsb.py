"""DigitsB and CIFAR-10B: the controllable-bias recipe on scikit-learn's bundled digits (embedded,
no download) and on a local CIFAR-10 python release.

Every split carries exact pairs: `image_cf` (the sensitive attribute A flipped, class, G and noise
draws kept) for counterfactual disparity and the counterfactual-aware methods, `image_gflip` (the
latent attribute G flipped) for the rate of flipped predictions, and `attr_g` (G). Options:
`skew` = P(A = Y) (0.8) and `alpha` = P(G = A) (0.8; the paper varies it over 0.5..0.9).
"""

from __future__ import annotations

import os
import pickle

import jax
import jax.numpy as jnp
import numpy as np

from nhfair_jax.data.biased import make_biased
from nhfair_jax.data.source import ArraySource, random_split, split_rng

CLASS_NAMES = ("digit_0_4", "digit_5_9")
CIFAR_CLASS_NAMES = ("classes_0_4", "classes_5_9")
GROUP_NAMES = ("clean", "gaussian_noise")


def resize(images: np.ndarray, size: int, chunk: int = 1024) -> np.ndarray:
    """Bilinear resize of float images [N, h, w, 3] to [N, size, size, 3], in chunks."""
    if images.shape[1:3] == (size, size):
        return images.astype(np.float32)
    out = [np.asarray(jax.image.resize(jnp.asarray(images[i:i + chunk], jnp.float32),
                                       (len(images[i:i + chunk]), size, size, 3), "bilinear"))
           for i in range(0, len(images), chunk)]
    return np.concatenate(out)


def _biased_sources(name, base, classes, splits, *, skew, alpha, build_seed, class_names,
                    eval_skew=None):
    """Sources of the biased construction. With `eval_skew`, validation and test follow their
    own P(A = Y) (0.5: the shortcut breaks there, as in Waterbirds); each example keeps its
    noise draws, only whether it carries the noise changes."""

    def full(skew_):
        built = make_biased(base, classes, skew=skew_, alpha=alpha, seed=build_seed)
        return ArraySource(images=built["image"], labels=built["label"], groups=built["group"],
                           indices=np.arange(len(base)), class_names=class_names,
                           group_names=GROUP_NAMES, name=name,
                           extras={"image_cf": built["image_cf"],
                                   "image_gflip": built["image_gflip"],
                                   "attr_g": built["attr_g"]})

    train = full(skew)
    evaluation = train if eval_skew is None or eval_skew == skew else full(eval_skew)
    return {split: (train if split == "train" else evaluation).subset(rows, split)
            for split, rows in splits.items()}


def digitsb_sources(root=None, *, split_seed=0, image_size=32, skew=0.8, alpha=0.8,
                    build_seed=0, eval_skew=None) -> dict[str, ArraySource]:
    """DigitsB: 1,797 digits, label = digit >= 5, A = Gaussian noise; seeded 8:1:1 split
    (`eval_skew`: another P(A = Y) for validation and test)."""
    del root  # embedded: ships with scikit-learn
    from sklearn.datasets import load_digits

    digits = load_digits()
    base = (digits.images / 16.0).astype(np.float32)[..., None].repeat(3, axis=-1)
    base = np.clip(resize(base, image_size), 0.0, 1.0)
    splits = random_split(len(base), "digitsb", split_seed)
    return _biased_sources("digitsb", base, digits.target, splits, skew=skew, alpha=alpha,
                           build_seed=build_seed, class_names=CLASS_NAMES, eval_skew=eval_skew)


def _read_cifar_batch(path: str):
    if not os.path.exists(path):
        raise FileNotFoundError(f"CIFAR-10 batch not found at {path}; expected the python release "
                                "'cifar-10-batches-py/' (see data/README.md)")
    try:
        with open(path, "rb") as f:
            batch = pickle.load(f, encoding="bytes")
        data = np.asarray(batch[b"data"], np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        labels = np.asarray(batch[b"labels"], np.int64)
    except Exception as e:  # a truncated pickle or a foreign file
        raise ValueError(f"cannot read CIFAR-10 batch {path}: {e}") from e
    if len(data) != len(labels) or labels.min(initial=0) < 0 or labels.max(initial=0) > 9:
        raise ValueError(f"{path}: expected labels in 0..9, one per image")
    return data, labels


SPLITS_CIFAR10B = ("paper", "official")


def cifar10b_sources(root, *, split_seed=0, image_size=32, skew=0.8, alpha=0.8, build_seed=0,
                     split="paper", val_fraction=0.1) -> dict[str, ArraySource]:
    """CIFAR-10B from the CIFAR-10 python release.

    `split="paper"` (default): all 60,000 images pooled and split 64:16:20 (seeded), as the
    counterfactual fairness paper does (its appendix: "train-validation-test sets with a ratio of
    64:16:20"); `split="official"`: CIFAR's test batch as test, `val_fraction` of train as val.
    """
    folder = os.path.join(root, "cifar-10-batches-py")
    if not os.path.isdir(folder):
        folder = root
    parts = [_read_cifar_batch(os.path.join(folder, f"data_batch_{i}")) for i in range(1, 6)]
    test_x, test_y = _read_cifar_batch(os.path.join(folder, "test_batch"))
    return cifar10b_from_arrays(np.concatenate([p[0] for p in parts]),
                                np.concatenate([p[1] for p in parts]), test_x, test_y,
                                split_seed=split_seed, image_size=image_size, skew=skew,
                                alpha=alpha, build_seed=build_seed, split=split,
                                val_fraction=val_fraction)


def cifar10b_from_arrays(train_x, train_y, test_x, test_y, *, split_seed=0, image_size=32,
                         skew=0.8, alpha=0.8, build_seed=0, split="paper", val_fraction=0.1):
    """The CIFAR-10B construction on CIFAR-10 arrays (uint8 [N, 32, 32, 3], classes 0..9),
    whichever release they were read from; `split` as in cifar10b_sources."""
    if split not in SPLITS_CIFAR10B:
        raise ValueError(f"data.options.split must be one of {SPLITS_CIFAR10B}, got {split!r}")
    images = np.concatenate([train_x, test_x])
    classes = np.concatenate([train_y, test_y])
    n_train = len(train_x)
    if split == "paper":
        splits = random_split(len(images), "cifar10b", split_seed, (0.64, 0.16, 0.20))
    else:
        perm = split_rng("cifar10b", split_seed).permutation(n_train)
        n_val = int(round(val_fraction * n_train))
        splits = {"train": np.sort(perm[n_val:]), "val": np.sort(perm[:n_val]),
                  "test": np.arange(n_train, len(images))}
    base = resize(images.astype(np.float32) / 255.0, image_size)
    return _biased_sources("cifar10b", np.clip(base, 0.0, 1.0), classes, splits, skew=skew,
                           alpha=alpha, build_seed=build_seed, class_names=CIFAR_CLASS_NAMES)
