"""The grain input pipeline: shuffled fixed-size training batches, padded evaluation batches.

Batches are gathered by index (one fancy-indexing read per batch, not per image), then
augmented and normalised as whole arrays. Everything random depends on (seed, epoch) alone, so
an epoch reads the same batches whether the run was interrupted or not.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Iterator, Sequence

import grain
import numpy as np

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


TRAIN_KEYS = ("image", "label", "group", "index")


def _gather(source, keys=None):
    """rows -> batch dict; `row` (the position in the source) lets methods keep per-example
    state."""
    def gather(rows):
        rows = np.asarray(rows)
        if hasattr(source, "get_batch"):
            batch = source.get_batch(rows, keys)
        else:
            records = [source[int(i)] for i in rows]
            batch = {k: np.stack([r[k] for r in records]) for k in (keys or records[0])}
        return {**batch, "row": rows.astype(np.int32)}

    return gather


class Normalize:
    """uint8 images -> float32 (x / 255 - mean) / std, for every image-valued key.

    Computed as x * scale - shift in float32 over rows of width x channels, with scale and
    shift repeated along the row: numpy's broadcast of a 3-vector over the channel axis runs
    an inner loop of length 3 (DigitsB's batch of 64 at 32 px: 627 against 111 us), with the
    same operations, so the same values."""

    def __init__(self, mean: Sequence[float], std: Sequence[float], keys=("image",)):
        self.scale = (1.0 / (255.0 * np.asarray(std, np.float32)))
        self.shift = (np.asarray(mean, np.float32) / np.asarray(std, np.float32))
        self.keys = keys
        self._rows = {}  # (width, channels) -> scale and shift repeated along a row

    def _row(self, width: int, channels: int):
        if (width, channels) not in self._rows:
            self._rows[(width, channels)] = tuple(
                np.tile(np.broadcast_to(v, (channels,)), width) for v in (self.scale, self.shift))
        return self._rows[(width, channels)]

    def __call__(self, batch: dict) -> dict:
        out = dict(batch)
        for k in self.keys:
            if k in out:
                x = out[k]
                if x.ndim < 2:
                    out[k] = x.astype(np.float32) * self.scale - self.shift
                    continue
                scale, shift = self._row(*x.shape[-2:])
                y = x.astype(np.float32).reshape(-1, scale.size)
                y *= scale
                y -= shift
                out[k] = y.reshape(x.shape)
        return out


PAIRED_IMAGE_KEYS = ("image", "image_cf", "image_gflip")  # views of one example


def random_flip(batch: dict, rng: np.random.Generator, keys=PAIRED_IMAGE_KEYS) -> dict:
    """Horizontal flip of each example with probability 1/2 (paired images flip together)."""
    out = dict(batch)
    n = len(batch["label"])
    flip = rng.random(n) < 0.5
    for k in keys:
        if k in out:
            x = out[k]
            out[k] = x.copy()  # the flipped rows written over a copy: 4.6x np.where's speed
            out[k][flip] = x[flip][:, :, ::-1]
    return out


def epoch_seed(seed: int, epoch: int) -> int:
    return int(np.random.SeedSequence([int(seed), int(epoch)]).generate_state(1)[0])


SHUFFLE_ROUNDS = 4  # grain's `MapDataset.shuffle` draws its permutation with 4 rounds
SHUFFLE_CACHE_BYTES = 64 << 20  # shuffled orders kept for later epochs, newest first

_orders: collections.OrderedDict = collections.OrderedDict()  # (n, seed) -> int64[n], -1: unread
_orders_lock = threading.Lock()


def _order_array(n: int, seed: int) -> np.ndarray:
    with _orders_lock:
        order = _orders.get((n, seed))
        if order is None:
            order = _orders[(n, seed)] = np.full(n, -1, np.int64)
            while len(_orders) > 1 and sum(a.nbytes for a in _orders.values()) > \
                    SHUFFLE_CACHE_BYTES:
                _orders.popitem(last=False)
        else:
            _orders.move_to_end((n, seed))
        return order


def shuffle_positions(n: int, seed: int, start: int = 0, stop: int | None = None) -> np.ndarray:
    """Positions start..stop of grain's shuffled order of range(n) for `seed`: position i of
    `grain.MapDataset.source(rows).shuffle(seed=seed)` reads rows[shuffle_positions(n, seed)[i]].

    Each position costs about 30 us of `grain.experimental.index_shuffle`, holding the
    interpreter (43 ms of an epoch of DigitsB's 1,438 training images, a seventh of the epoch,
    position by position in grain's own shuffle). The pipeline's threads compute a batch's
    positions when they read it, and the positions are kept per (n, seed) for later epochs
    (`SHUFFLE_CACHE_BYTES`): the trials and seed runs of a sweep share the data seed, so they
    share their epochs' orders."""
    n, seed = int(n), int(seed) % 2**32
    stop = n if stop is None else min(int(stop), n)
    order = _order_array(n, seed)
    part = order[start:stop]
    for i in np.flatnonzero(part < 0):  # threads may fill the same position: the same value
        part[i] = grain.experimental.index_shuffle(start + int(i), max_index=n - 1, seed=seed,
                                                   rounds=SHUFFLE_ROUNDS)
    return part.copy()


def train_dataset(source, *, batch_size: int, seed: int, epoch: int, indices=None,
                  flip: bool = True, augment=None, mean=IMAGENET_MEAN,
                  std=IMAGENET_STD, keys=TRAIN_KEYS, normalize: bool = True
                  ) -> grain.MapDataset:
    """One epoch of fixed-size training batches (the last partial batch is dropped).

    Args:
      source: a random-access source (ArraySource or anything with len and indexing).
      batch_size: examples per batch.
      seed, epoch: the shuffling and augmentation depend on these alone.
      indices: rows to draw this epoch (a method's sampler may repeat rows); default all rows.
      flip: random horizontal flip.
      augment: optional extra batch transform `f(batch, rng) -> batch` on uint8 images.
      mean, std: normalisation.
      keys: the fields each batch carries (a method may ask for more, e.g. `image_cf`).
      normalize: False ships the uint8 images (the train step augments and normalises them
        on the device: data/device_augment.py).
    """
    rows = np.arange(len(source)) if indices is None else np.asarray(indices, np.int64)
    if len(rows) < batch_size:
        raise ValueError(f"{len(rows)} training examples cannot fill one batch of {batch_size}; "
                         "lower train.batch_size")
    s = epoch_seed(seed, epoch)
    # grain's shuffle and batch, a batch's rows computed at once (`shuffle_positions`)
    ds = grain.MapDataset.range(len(rows) // batch_size).map(
        lambda i: rows[shuffle_positions(len(rows), s, i * batch_size, (i + 1) * batch_size)])
    ds = ds.map(_gather(source, keys))
    if augment is not None:
        ds = ds.random_map(augment, seed=s + 1)
    if flip:
        ds = ds.random_map(random_flip, seed=s + 2)
    if not normalize:
        return ds
    return ds.map(Normalize(mean, std, keys=("image", "image2", "image_cf", "image_gflip")))


FEATURE_KEYS = ("features", "label", "group")


class FeatureBatches:
    """One epoch of fixed-size batches of precomputed features [N, D] (a head trained on a
    frozen backbone): the rows shuffled by (seed, epoch) alone, the last partial batch dropped,
    as `train_dataset` does with images. Batches are gathered as they are iterated."""

    def __init__(self, features: np.ndarray, source, *, batch_size: int, seed: int, epoch: int,
                 indices=None):
        rows = np.arange(len(source)) if indices is None else np.asarray(indices, np.int64)
        if len(rows) < batch_size:
            raise ValueError(f"{len(rows)} training examples cannot fill one batch of "
                             f"{batch_size}; lower train.batch_size")
        self.features, self.batch_size = features, batch_size
        self.labels, self.groups = np.asarray(source.labels), np.asarray(source.groups)
        self.order = np.random.default_rng(epoch_seed(seed, epoch)).permutation(rows)

    def __len__(self) -> int:
        return len(self.order) // self.batch_size

    def __iter__(self):
        for i in range(len(self)):
            r = self.order[i * self.batch_size:(i + 1) * self.batch_size]
            yield {"features": self.features[r], "label": self.labels[r],
                   "group": self.groups[r]}


def _pad(batch: dict, batch_size: int) -> dict:
    n = len(batch["label"])
    out = {k: np.concatenate([v, np.zeros((batch_size - n, *v.shape[1:]), v.dtype)])
           for k, v in batch.items()}
    out["mask"] = np.arange(batch_size) < n
    return out


def eval_dataset(source, *, batch_size: int, mean=IMAGENET_MEAN, std=IMAGENET_STD,
                 keys=TRAIN_KEYS) -> grain.MapDataset:
    """Every example once, in order, in batches of exactly batch_size; the last batch is padded
    and `mask` marks real rows, so nothing is dropped and nothing recompiles."""
    n = len(source)
    ds = grain.MapDataset.range(-(-n // batch_size)).map(
        lambda i: np.arange(i * batch_size, min(n, (i + 1) * batch_size)))
    ds = ds.map(_gather(source, keys))
    ds = ds.map(lambda b: _pad(b, batch_size))
    return ds.map(Normalize(mean, std, keys=("image", "image_cf", "image_gflip")))


def iterate(ds: grain.MapDataset, prefetch: int = 2) -> Iterator[dict]:
    """Iterates a dataset with background threads reading ahead."""
    options = grain.ReadOptions(num_threads=prefetch, prefetch_buffer_size=prefetch)
    return iter(ds.to_iter_dataset(options))
