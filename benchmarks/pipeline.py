"""Input pipeline against the train step: can a cached epoch be read faster than the small CNN
consumes it?

Builds a synthetic uint8 store of N images (default 200,000 at 64 px, ~2.5 GB) in the cache
format the loaders write (images.npy, memory-mapped), then measures side by side, in one run:

- pipeline: one full epoch through the training pipeline (shuffle, gather from the memory map,
  random flip, ImageNet normalisation), images per second, with and without RandAugment;
- train step: the small CNN's jitted ERM train step on batches of the same shape (after
  compilation), images per second;
- device augmentation: RandAugment, flip and normalisation as the train step runs them with
  `train.augment_on="device"`, jitted, on a resident uint8 batch, images per second.

    python benchmarks/pipeline.py --json benchmarks/results/pipeline.json
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import print_table, write_json  # noqa: E402


def make_store(folder: str, n: int, size: int) -> np.ndarray:
    path = os.path.join(folder, "images.npy")
    out = np.lib.format.open_memmap(path + ".tmp.npy", mode="w+", dtype=np.uint8,
                                    shape=(n, size, size, 3))
    rng = np.random.default_rng(0)
    chunk = 10_000
    for i in range(0, n, chunk):
        out[i:i + chunk] = rng.integers(0, 255, (min(chunk, n - i), size, size, 3), np.uint8)
    out.flush()
    del out
    os.replace(path + ".tmp.npy", path)
    return np.load(path, mmap_mode="r")


def pipeline_rate(source, batch_size: int, augment, max_batches=None) -> tuple[float, int]:
    from nhfair_jax.data.pipeline import iterate, train_dataset

    ds = train_dataset(source, batch_size=batch_size, seed=0, epoch=1, augment=augment)
    t0 = time.perf_counter()
    seen = 0
    for k, batch in enumerate(iterate(ds, prefetch=4)):
        seen += len(batch["label"])
        if max_batches and k + 1 >= max_batches:
            break
    return seen / (time.perf_counter() - t0), seen


def train_rate(size: int, batch_size: int, steps: int) -> float:
    import jax

    from nhfair_jax.config import base_config, method_config
    from nhfair_jax.methods import get_method
    from nhfair_jax.models import create_model
    from nhfair_jax.training.optim import make_optimizer
    from nhfair_jax.training.state import init_state
    from nhfair_jax.training.step import make_mesh, make_train_step, replicate, shard_batch

    cfg = base_config()
    method = get_method(method_config("erm"))
    model = create_model("small_cnn", 2)
    tx = make_optimizer(cfg.optim)
    mesh = make_mesh()
    state = replicate(init_state(model, tx, method, image_shape=(size, size, 3),
                                 init_key=jax.random.key(0), train_key=jax.random.key(1),
                                 info={"num_classes": 2, "num_groups": 2, "num_train": 1000}),
                      mesh)
    step = make_train_step(method, model.apply, tx, mesh, num_groups=2, num_classes=2)
    rng = np.random.default_rng(0)
    batch = shard_batch({"image": rng.normal(size=(batch_size, size, size, 3)).astype(np.float32),
                         "label": rng.integers(0, 2, batch_size).astype(np.int32),
                         "group": rng.integers(0, 2, batch_size).astype(np.int32)}, mesh,
                        ("image", "label", "group"))
    state, out = step(state, batch)  # compile
    jax.block_until_ready(out["loss"])
    t0 = time.perf_counter()
    for _ in range(steps):
        state, out = step(state, batch)
    jax.block_until_ready(out["loss"])
    return steps * batch_size / (time.perf_counter() - t0)


def device_augment_rate(size: int, batch_size: int, steps: int) -> float:
    """The train step's own augmentation (data/device_augment.py: RandAugment(2, 10), flip,
    normalisation) on a uint8 batch already on the device, jitted, images per second."""
    import jax

    from nhfair_jax.data.device_augment import DevicePrepare

    prepare = jax.jit(DevicePrepare(True, True, (0.5,) * 3, (0.5,) * 3))
    images = jax.device_put(np.random.default_rng(0).integers(
        0, 256, (batch_size, size, size, 3), dtype=np.uint8))
    out = prepare({"image": images}, jax.random.key(0))  # compile
    jax.block_until_ready(out["image"])
    t0 = time.perf_counter()
    for i in range(steps):
        out = prepare({"image": images}, jax.random.key(i))
    jax.block_until_ready(out["image"])
    return steps * batch_size / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=200_000)
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--train-steps", type=int, default=30)
    p.add_argument("--randaugment-batches", type=int, default=100)
    p.add_argument("--dir", default=None, help="where the synthetic store goes (default: tmp)")
    p.add_argument("--json", default=None)
    a = p.parse_args()

    from nhfair_jax.data.randaugment import RandAugment
    from nhfair_jax.data.source import ArraySource

    with tempfile.TemporaryDirectory(dir=a.dir) as folder:
        t0 = time.perf_counter()
        images = make_store(folder, a.n, a.size)
        t_build = time.perf_counter() - t0
        rng = np.random.default_rng(1)
        source = ArraySource(images=images, labels=rng.integers(0, 2, a.n),
                             groups=rng.integers(0, 2, a.n), indices=np.arange(a.n),
                             class_names=["0", "1"], group_names=["a", "b"], name="synthetic")
        plain, seen = pipeline_rate(source, a.batch, None)
        augmented, _ = pipeline_rate(source, a.batch, RandAugment(2, 10.0),
                                     max_batches=a.randaugment_batches)
        train = train_rate(a.size, a.batch, a.train_steps)
        device_aug = device_augment_rate(a.size, a.batch, a.train_steps)
    rows = [
        {"what": "pipeline, full epoch (flip + normalise)", "images_per_s": plain,
         "images": seen},
        {"what": "pipeline + RandAugment(2, 10)", "images_per_s": augmented,
         "images": a.randaugment_batches * a.batch},
        {"what": "small-CNN ERM train step", "images_per_s": train,
         "images": a.train_steps * a.batch},
        {"what": "RandAugment(2, 10) + flip + normalise in a jitted program (train.augment_on="
                 "'device')", "images_per_s": device_aug, "images": a.train_steps * a.batch},
    ]
    print(f"store: {a.n} images at {a.size} px, {images.nbytes / 2**30:.2f} GiB, built in "
          f"{t_build:.1f} s; batch {a.batch}")
    print_table(rows, ["what", "images_per_s", "images"])
    print(f"pipeline / train step: {plain / train:.2f}x (with RandAugment "
          f"{augmented / train:.2f}x)")
    write_json(a.json, {"n": a.n, "size": a.size, "batch": a.batch,
                        "pipeline_images_per_s": plain,
                        "pipeline_randaugment_images_per_s": augmented,
                        "train_step_images_per_s": train,
                        "device_augment_images_per_s": device_aug,
                        "pipeline_over_train": plain / train,
                        "pipeline_randaugment_over_train": augmented / train,
                        "store_build_s": t_build})


if __name__ == "__main__":
    main()
