"""Ten-class image sets in their official release formats, read into arrays for the biased
construction (nhfair_jax/data/digitsb.py): CIFAR-10's python pickle batches
(`cifar-10-batches-py/data_batch_1..5`, `test_batch`) and the MNIST family's IDX files
(`train-images-idx3-ubyte`, `train-labels-idx1-ubyte`, `t10k-images-idx3-ubyte`,
`t10k-labels-idx1-ubyte`, each gzipped or not: MNIST, Fashion-MNIST, Kuzushiji-MNIST).

Every reader returns (train images, train classes, test images, test classes): uint8
[N, H, W, 3] (greyscale replicated to three channels) and int64 classes in 0..9. A missing file
is a FileNotFoundError naming the files expected; a file of another format (a wrong magic
number, a truncated file, counts that disagree, classes outside 0..9) a DataError naming it.
"""

from __future__ import annotations

import gzip
import os
import pickle

import numpy as np

from nhfair_jax.data.store import DataError

IDX_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
             "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
IDX_UBYTE = 0x08  # the IDX type code of unsigned bytes
CIFAR_FOLDER = "cifar-10-batches-py"


def _check_classes(classes: np.ndarray, n: int, path: str) -> None:
    if len(classes) != n:
        raise DataError(f"{path}: {len(classes)} labels for {n} images")
    if len(classes) and (classes.min() < 0 or classes.max() > 9):
        bad = int(classes[(classes < 0) | (classes > 9)][0])
        raise DataError(f"{path}: class {bad} outside 0..9; a ten-class set is expected")


def read_idx(path: str) -> np.ndarray:
    """The array of one IDX file (unsigned bytes; `.gz` read through gzip)."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = f.read()
    except (OSError, EOFError) as e:  # gzip raises these for a damaged file
        raise DataError(f"cannot read IDX file {path}: {e}") from e
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != IDX_UBYTE:
        raise DataError(f"{path} is not an IDX file of unsigned bytes (its first bytes are "
                        f"{data[:4].hex() or 'empty'}, expected 000008 and a dimension count)")
    ndim = data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise DataError(f"{path}: truncated IDX header")
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    size = int(np.prod(shape)) if shape else 0
    if len(data) - header != size:
        raise DataError(f"{path}: the header announces {shape} ({size} bytes), the file holds "
                        f"{len(data) - header}; the file is truncated or not of this format")
    return np.frombuffer(data, np.uint8, count=size, offset=header).reshape(shape)


def _find(root: str, name: str) -> str | None:
    for candidate in (name, f"{name}.gz"):
        path = os.path.join(root, candidate)
        if os.path.exists(path):
            return path
    return None


def is_idx_release(root: str) -> bool:
    return _find(root, IDX_FILES["train"][0]) is not None


def read_idx_release(root: str):
    """(train images, train classes, test images, test classes) of an MNIST-family folder."""
    out = []
    for split, (images_name, labels_name) in IDX_FILES.items():
        paths = [_find(root, images_name), _find(root, labels_name)]
        if None in paths:
            raise FileNotFoundError(
                f"{root} lacks the {split} IDX files; expected {images_name}[.gz] and "
                f"{labels_name}[.gz] (the MNIST family's release, see data/README.md)")
        images, classes = read_idx(paths[0]), read_idx(paths[1]).astype(np.int64)
        if images.ndim != 3:
            raise DataError(f"{paths[0]}: expected [N, rows, cols] images, got shape "
                            f"{images.shape}")
        _check_classes(classes, len(images), paths[1])
        out += [np.repeat(images[..., None], 3, axis=-1), classes]
    return tuple(out)


def read_cifar_batch(path: str):
    """(images uint8 [N, 32, 32, 3], classes) of one CIFAR-10 python batch."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"CIFAR-10 batch not found at {path}; expected the python release "
                                f"'{CIFAR_FOLDER}/' (see data/README.md)")
    try:
        with open(path, "rb") as f:
            batch = pickle.load(f, encoding="bytes")
        data = np.asarray(batch[b"data"], np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        classes = np.asarray(batch[b"labels"], np.int64)
    except Exception as e:  # a truncated pickle or a foreign file
        raise DataError(f"cannot read CIFAR-10 batch {path}: {e}") from e
    _check_classes(classes, len(data), path)
    return data, classes


def read_cifar_release(root: str):
    """(train images, train classes, test images, test classes) of CIFAR-10's python release
    (`root` is the folder holding `cifar-10-batches-py/`, or that folder itself)."""
    folder = os.path.join(root, CIFAR_FOLDER)
    if not os.path.isdir(folder):
        folder = root
    parts = [read_cifar_batch(os.path.join(folder, f"data_batch_{i}")) for i in range(1, 6)]
    test_x, test_y = read_cifar_batch(os.path.join(folder, "test_batch"))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            test_x, test_y)


def read_ten_class(root: str):
    """Either release, told apart by its files: IDX files, else CIFAR's python batches."""
    if is_idx_release(root):
        return read_idx_release(root)
    return read_cifar_release(root)
