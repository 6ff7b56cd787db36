"""The training augmentation (horizontal flip and RandAugment) as JAX operations on uint8
batches, to run inside a jitted program on an accelerator instead of in the host pipeline.

The operations, levels and probabilities are those of the host's (nhfair_jax/data/randaugment.py
and `pipeline.random_flip`): for each image and each of `num_ops` slots, one operation of the
pool drawn uniformly with replacement, applied with probability `prob` at a level drawn
uniformly from {1, ..., magnitude - 1}, with a random sign where the operation has one; paired
views of an example (`image_cf`, `image_gflip`) get the same draws. The arithmetic is the
host's: the same amounts per level (from the host's function), the same input-from-output maps sampled at pixel centres (nearest pixel, 0
outside), the same 3x3 smoothing and float32 blend for sharpness. Positions are computed in
float32 where the host uses float64, so a pixel whose centre maps within about 1e-5 of an
input pixel's edge may read the neighbour; every other pixel is the host's (tests/
test_device_augment.py). The draws come from JAX's generator, not NumPy's: the same
distribution, not the same images as the host pipeline for a seed.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from nhfair_jax.data.pipeline import Normalize
from nhfair_jax.data.randaugment import MAX_LEVEL, OPS, op_amount
from nhfair_jax.errors import UserError

GEOMETRIC = ("rotate", "shear_x", "shear_y", "translate_x", "translate_y")


def op_amounts(op: str, level, sign, size: int):
    """The host's `op_amount` at integer levels [B] with signs [B]: degrees, a shear, pixels or
    an enhance factor. Read from a table the host's own function computes (in float64) for
    every level, so that an amount such as int(5 x 0.03 x 20) = 3 is not float32's 2."""
    table = np.asarray([op_amount(op, v, size, 1.0) for v in range(MAX_LEVEL + 1)],
                       np.float32)
    amount = jnp.asarray(table)[jnp.asarray(level)]
    return amount if op == "sharpness" else jnp.asarray(sign, jnp.float32) * amount


def op_matrices(op: str, amount, size: tuple[int, int]):
    """[B, 2, 3] input-from-output maps of a geometric operation at `amount` [B] (the host's
    `_matrices`): PIL's rotation about the centre, the code's shears and translations."""
    h, w = size
    one, zero = jnp.ones_like(amount), jnp.zeros_like(amount)
    if op == "rotate":
        t = -jnp.deg2rad(amount)
        cos, sin = jnp.cos(t), jnp.sin(t)
        cx, cy = w / 2.0, h / 2.0
        rows = ((cos, sin, cx - cos * cx - sin * cy), (-sin, cos, cy + sin * cx - cos * cy))
    elif op == "shear_x":
        rows = ((one, amount, zero), (zero, one, zero))
    elif op == "shear_y":
        rows = ((one, zero, zero), (amount, one, zero))
    elif op == "translate_x":
        rows = ((one, zero, amount), (zero, one, zero))
    elif op == "translate_y":
        rows = ((one, zero, zero), (zero, one, amount))
    else:
        raise ValueError(f"{op!r} is not a geometric operation")
    return jnp.stack([jnp.stack(r, -1) for r in rows], 1)


def affine(images, matrices):
    """Nearest-neighbour warp of uint8 images [B, H, W, C] by input-from-output maps
    [B, 2, 3], each output pixel's centre mapped into the input; 0 outside."""
    _, h, w, _ = images.shape
    ys, xs = jnp.meshgrid(jnp.arange(h, dtype=jnp.float32) + 0.5,
                          jnp.arange(w, dtype=jnp.float32) + 0.5, indexing="ij")
    coords = jnp.stack([xs.ravel(), ys.ravel(), jnp.ones(h * w, jnp.float32)])  # [3, HW]
    src = jnp.einsum("bij,jn->bin", matrices.astype(jnp.float32), coords)
    sx, sy = jnp.floor(src[:, 0]).astype(jnp.int32), jnp.floor(src[:, 1]).astype(jnp.int32)
    inside = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
    index = jnp.clip(sy, 0, h - 1) * w + jnp.clip(sx, 0, w - 1)  # [B, HW]
    flat = images.reshape(images.shape[0], h * w, -1)
    gathered = jnp.take_along_axis(flat, index[..., None], axis=1)
    return jnp.where(inside[..., None], gathered, 0).astype(images.dtype).reshape(images.shape)


def sharpness(images, factor):
    """PIL's ImageEnhance.Sharpness as the host's `_sharpness`: a float32 blend with the 3x3
    smoothed copy (1s around a centre of 5, over 13, rounded; borders kept), truncated."""
    x = images.astype(jnp.float32)
    h, w = x.shape[1:3]
    inner = sum(x[:, 1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx]
                for dy in (-1, 0, 1) for dx in (-1, 0, 1)) + 4 * x[:, 1:-1, 1:-1]
    smooth = x.at[:, 1:-1, 1:-1].set(jnp.floor(inner / 13.0 + 0.5))
    alpha = jnp.asarray(factor, jnp.float32)[:, None, None, None]
    out = smooth + alpha * (x - smooth)
    return jnp.clip(jnp.trunc(out), 0, 255).astype(images.dtype)


def draw(key, n: int, *, num_ops: int = 2, magnitude: int = 10, prob: float = 0.5,
         ops=OPS, flip: bool = True) -> dict:
    """The random choices of one batch of `n` images: per slot [num_ops, n] the operation's
    index in `ops`, whether it applies, its level and its sign; and [n] whether to flip."""
    k_op, k_apply, k_level, k_sign, k_flip = jax.random.split(key, 5)
    shape = (num_ops, n)
    return {"op": jax.random.randint(k_op, shape, 0, len(ops)),
            "applied": jax.random.uniform(k_apply, shape) < prob,
            "level": jax.random.randint(k_level, shape, 1, magnitude),
            "sign": jnp.where(jax.random.uniform(k_sign, shape) < 0.5, -1.0, 1.0),
            "flip": (jax.random.uniform(k_flip, (n,)) < 0.5) if flip
            else jnp.zeros((n,), bool)}


def apply_slot(images, op, applied, level, sign, ops=OPS):
    """One slot: each image's operation `ops[op]` at its level and sign where `applied`."""
    h, w = images.shape[1:3]
    out = images
    for o, name in enumerate(ops):
        if name == "identity":
            continue
        chosen = applied & (op == o)
        if name == "sharpness":
            done = sharpness(images, op_amounts(name, level, sign, 0))
        else:
            side = w if name.endswith("_x") else h
            done = affine(images, op_matrices(name, op_amounts(name, level, sign, side), (h, w)))
        out = jnp.where(chosen[:, None, None, None], done, out)
    return out


def augment(batch: dict, choices: dict, *, keys=("image", "image_cf", "image_gflip"),
            ops=OPS) -> dict:
    """RandAugment's slots, then the flip, on every key of `keys` the batch has (uint8
    [B, H, W, C]), with the draws of `choices` (`draw`): the host pipeline's order."""
    out = dict(batch)
    for key in keys:
        if key not in out:
            continue
        images = out[key]
        for s in range(choices["op"].shape[0]):
            images = apply_slot(images, choices["op"][s], choices["applied"][s],
                                choices["level"][s], choices["sign"][s], ops)
        out[key] = jnp.where(choices["flip"][:, None, None, None], images[:, :, ::-1], images)
    return out


AUGMENT_ON = ("auto", "host", "device")
IMAGE_KEYS = ("image", "image_cf", "image_gflip")


@dataclasses.dataclass(frozen=True)
class DevicePrepare:
    """What the train step does to a uint8 batch before the loss when the augmentation runs
    on the device: RandAugment(2, 10) if `randaugment`, the flip if `flip`, then the host's
    normalisation ((x / 255 - mean) / std in float32, as `pipeline.Normalize`). Hashable: part
    of the train step's program key."""

    flip: bool
    randaugment: bool
    mean: tuple
    std: tuple

    def __call__(self, batch: dict, key) -> dict:
        present = [k for k in IMAGE_KEYS if k in batch]
        if not present:  # batches of features (a frozen phase)
            return batch
        out = batch
        if self.flip or self.randaugment:
            choices = draw(key, batch[present[0]].shape[0], flip=self.flip,
                           num_ops=2 if self.randaugment else 0)
            out = augment(batch, choices, keys=present)
        norm = Normalize(self.mean, self.std)  # the host's constants
        return {**out, **{k: out[k].astype(jnp.float32) * norm.scale - norm.shift
                          for k in present}}


def device_prepare(where: str, *, flip: bool, randaugment: bool, mean, std,
                   host_augment=None, platform: str = "cpu"):
    """The `DevicePrepare` of a run, or None when its augmentation stays in the host pipeline:
    `where` "host"; "auto" on the CPU (the host pipeline keeps up with the CPU's step) or when
    the method augments on the host with a transform of its own; "device" always, an error
    for such a method."""
    if where not in AUGMENT_ON:
        raise UserError(f"train.augment_on must be one of {AUGMENT_ON}, got {where!r}")
    if where == "device" and host_augment is not None:
        raise UserError("this method augments its batches on the host with a transform of its "
                        "own; set train.augment_on='host' (or 'auto')")
    if where == "host" or (where == "auto" and (platform == "cpu" or host_augment is not None)):
        return None
    return DevicePrepare(bool(flip), bool(randaugment), tuple(mean), tuple(std))
