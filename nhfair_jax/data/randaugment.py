"""RandAugment restricted to operations that leave colours alone.

Brightness, colour, contrast, equalize, posterize, solarize, autocontrast and invert are left
out because skin tone is a sensitive attribute (docs/methods.md). What remains: identity,
rotate, shear x / y, translate x / y, sharpness and cutout. Magnitudes follow torchvision's
scale (31 bins, m / 30 of each op's maximum); geometric ops sample with nearest neighbour and
fill with 0, as torchvision does. Works on whole uint8 batches [B, H, W, 3] inside the grain
pipeline; every random choice comes from the generator grain passes in.

References: Cubuk et al., "RandAugment: Practical automated data augmentation with a reduced
search space", CVPR Workshops 2020.
"""

from __future__ import annotations

import numpy as np

OPS = ("identity", "rotate", "shear_x", "shear_y", "translate_x", "translate_y", "sharpness",
       "cutout")
MAX_MAGNITUDE = 30.0
_MAX = {"rotate": 30.0, "shear": 0.3, "translate": 150.0 / 331.0, "sharpness": 0.9,
        "cutout": 0.5}


def _affine(images: np.ndarray, inverse: np.ndarray) -> np.ndarray:
    """Nearest-neighbour warp; inverse [k, 2, 3] maps output (x, y) about the centre to input."""
    k, h, w, _ = images.shape
    ys, xs = np.meshgrid(np.arange(h) - (h - 1) / 2, np.arange(w) - (w - 1) / 2, indexing="ij")
    coords = np.stack([xs.ravel(), ys.ravel(), np.ones(h * w)])  # [3, HW]
    src = inverse @ coords  # [k, 2, HW]
    sx = np.rint(src[:, 0] + (w - 1) / 2).astype(np.int64)
    sy = np.rint(src[:, 1] + (h - 1) / 2).astype(np.int64)
    inside = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
    flat = images.reshape(k, h * w, 3)
    gathered = np.take_along_axis(flat, (np.clip(sy, 0, h - 1) * w
                                         + np.clip(sx, 0, w - 1))[..., None], axis=1)
    return np.where(inside[..., None], gathered, 0).reshape(images.shape).astype(images.dtype)


def _matrices(op: str, amount: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    k = len(amount)
    m = np.zeros((k, 2, 3))
    m[:, 0, 0] = m[:, 1, 1] = 1.0
    if op == "rotate":
        t = np.deg2rad(amount)
        m[:, 0, 0], m[:, 0, 1], m[:, 1, 0], m[:, 1, 1] = np.cos(t), -np.sin(t), np.sin(t), np.cos(t)
    elif op == "shear_x":
        m[:, 0, 1] = amount
    elif op == "shear_y":
        m[:, 1, 0] = amount
    elif op == "translate_x":
        m[:, 0, 2] = -amount * size[1]
    elif op == "translate_y":
        m[:, 1, 2] = -amount * size[0]
    return m


def _sharpness(images: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """PIL's ImageEnhance.Sharpness: blend with a 3x3 smoothed copy (borders kept)."""
    x = images.astype(np.float32)
    smooth = x.copy()
    inner = sum(x[:, 1 + dy:x.shape[1] - 1 + dy, 1 + dx:x.shape[2] - 1 + dx]
                for dy in (-1, 0, 1) for dx in (-1, 0, 1)) + 4 * x[:, 1:-1, 1:-1]
    smooth[:, 1:-1, 1:-1] = inner / 13.0
    out = smooth + factor[:, None, None, None] * (x - smooth)
    return np.clip(np.rint(out), 0, 255).astype(images.dtype)


def _cutout(images: np.ndarray, side, rng: np.random.Generator) -> np.ndarray:
    k, h, w, _ = images.shape
    half = (np.broadcast_to(np.asarray(side), (k,)) // 2)[:, None, None]
    cy, cx = rng.integers(0, h, k), rng.integers(0, w, k)
    ys, xs = np.arange(h)[None, :, None], np.arange(w)[None, None, :]
    box = ((np.abs(ys - cy[:, None, None]) <= half)
           & (np.abs(xs - cx[:, None, None]) <= half))
    return np.where(box[..., None], 0, images).astype(images.dtype)


def apply_op(images: np.ndarray, op: str, magnitude, rng: np.random.Generator):
    """One operation on a batch at a magnitude (0-30; one for all, or one per image), each
    image with a random sign."""
    if op not in OPS:
        raise ValueError(f"unknown RandAugment op {op!r}; ops: {OPS}")
    k = len(images)
    level = np.broadcast_to(np.asarray(magnitude, np.float64), (k,)) / MAX_MAGNITUDE
    sign = np.where(rng.random(k) < 0.5, -1.0, 1.0)
    if op == "identity" or k == 0:
        return images
    if op == "sharpness":
        return _sharpness(images, 1.0 + sign * _MAX["sharpness"] * level)
    if op == "cutout":
        side = np.maximum(1, np.rint(_MAX["cutout"] * level * images.shape[1]).astype(int))
        return _cutout(images, side, rng)
    key = op.split("_")[0]
    amount = sign * _MAX[key] * level
    return _affine(images, _matrices(op, amount, images.shape[1:3]))


class RandAugment:
    """`num_ops` operations drawn uniformly per image; each is applied with probability `prob`
    at a strength drawn uniformly from [0, magnitude] (`random_magnitude`), or always at
    `magnitude` (prob 1, random_magnitude False: the fixed-strength RandAugment of Cubuk et al.).

    The defaults (prob 0.5, random strength up to 10 of 30) follow the benchmark's original
    code, since its paper does not give the magnitude rule.

    Called as a grain random map on a batch: f(batch, rng) -> batch, with `image` (and any
    paired `image_cf`) uint8 [B, H, W, 3]; paired images get the same operations.
    """

    def __init__(self, num_ops: int = 2, magnitude: float = 10.0, keys=("image", "image_cf"),
                 *, prob: float = 0.5, random_magnitude: bool = True):
        if not 0 <= magnitude <= MAX_MAGNITUDE:
            raise ValueError(f"RandAugment magnitude must be in [0, 30], got {magnitude}")
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandAugment prob must be in [0, 1], got {prob}")
        self.num_ops, self.magnitude, self.keys = num_ops, magnitude, keys
        self.prob, self.random_magnitude = prob, random_magnitude

    def __call__(self, batch: dict, rng: np.random.Generator) -> dict:
        out = dict(batch)
        keys = [k for k in self.keys if k in out]
        n = len(out[keys[0]])
        for _ in range(self.num_ops):
            choice = rng.integers(0, len(OPS), n)
            applied = rng.random(n) < self.prob
            strength = (rng.uniform(0.0, self.magnitude, n) if self.random_magnitude
                        else np.full(n, float(self.magnitude)))
            state = rng.bit_generator.state
            for key in keys:
                rng.bit_generator.state = state  # the same draws for paired images
                images = out[key].copy()
                for o, op in enumerate(OPS):
                    rows = np.flatnonzero((choice == o) & applied)
                    if rows.size:
                        images[rows] = apply_op(images[rows], op, strength[rows], rng)
                out[key] = images
        return out


def chain(*transforms):
    """One batch transform f(batch, rng) applying each non-None transform in turn."""
    steps = [t for t in transforms if t is not None]

    def apply(batch, rng):
        for t in steps:
            batch = t(batch, rng)
        return batch

    return apply
