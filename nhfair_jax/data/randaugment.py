"""RandAugment as the benchmark's code runs it (FixMatch's RandAugmentMC(n=2, m=10)), restricted
to the operations that leave colours alone.

The benchmark paper leaves out brightness, colour, contrast, equalize, posterize, solarize,
autocontrast and invert because skin tone is a sensitive attribute (docs/methods.md); its code's
pool (FixMatch's) holds no cutout. What remains, with the code's maxima: identity, rotate (30
degrees), shear x / y (0.3), translate x / y (0.3 of the side) and sharpness (0.9, offset
0.05). For each image, `num_ops` operations are drawn from these with replacement, each applied
with probability 0.5 at a level v drawn uniformly from {1, ..., m - 1} (the code's
`np.random.randint(1, m)`; m = 10 gives 1-9), that is v / 10 of the operation's maximum:

- rotate: int(3 v) degrees (3-27 at m = 10), random sign, about the centre;
- shear x / y: 0.03 v, random sign, about the top-left corner (PIL's affine transform);
- translate x / y: int(0.03 v x side) pixels, random sign;
- sharpness: PIL's enhance factor 0.09 v + 0.05 (0.14-0.86: always a blend toward the smoothed
  image, never sharper; the code's arithmetic, kept);

geometric operations sample the nearest pixel and fill with 0, as PIL does by default. Works on
whole uint8 batches [B, H, W, 3] inside the grain pipeline; every random choice comes from the
generator grain passes in. Where the paper is silent (the strength rule, the pool), this follows
its code.

References: Cubuk et al., "RandAugment: Practical automated data augmentation with a reduced
search space", CVPR Workshops 2020; Sohn et al., "FixMatch", NeurIPS 2020 (RandAugmentMC).
"""

from __future__ import annotations

import numpy as np

OPS = ("identity", "rotate", "shear_x", "shear_y", "translate_x", "translate_y", "sharpness")
MAX_LEVEL = 10  # the code's PARAMETER_MAX: a level v is v / 10 of an operation's maximum
_MAX = {"rotate": 30.0, "shear": 0.3, "translate": 0.3, "sharpness": 0.9}
SHARPNESS_OFFSET = 0.05  # the code's bias: enhance(0.9 v / 10 + 0.05)


def sample_positions(matrices: np.ndarray, size: tuple[int, int]) -> tuple:
    """(x, y) input positions [k, H, W] of each output pixel's centre (x + 0.5, y + 0.5),
    top-left origin, under `matrices` [k, 2, 3] (input-from-output, as PIL's affine data)."""
    h, w = size
    ys, xs = np.meshgrid(np.arange(h) + 0.5, np.arange(w) + 0.5, indexing="ij")
    coords = np.stack([xs.ravel(), ys.ravel(), np.ones(h * w)])  # [3, HW]
    src = (matrices @ coords).reshape(len(matrices), 2, h, w)
    return src[:, 0], src[:, 1]


def _affine(images: np.ndarray, matrices: np.ndarray) -> np.ndarray:
    """Nearest-neighbour warp as PIL's: each output pixel reads the input pixel its centre maps
    into (0 outside the input). On a position exactly on a pixel's edge PIL's fixed-point
    arithmetic may pick the neighbour; such ties are the only differences."""
    k, h, w, _ = images.shape
    xin, yin = sample_positions(matrices, (h, w))
    sx, sy = np.floor(xin).astype(np.int64), np.floor(yin).astype(np.int64)
    inside = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
    flat = images.reshape(k, h * w, 3)
    index = (np.clip(sy, 0, h - 1) * w + np.clip(sx, 0, w - 1)).reshape(k, h * w, 1)
    gathered = np.take_along_axis(flat, index, axis=1).reshape(images.shape)
    return np.where(inside[..., None], gathered, 0).astype(images.dtype)


def _matrices(op: str, amount: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The input-from-output maps of PIL's `rotate(angle)` (about the centre) and of the code's
    `transform(AFFINE, (1, v, 0, 0, 1, 0))` shears and translations."""
    h, w = size
    k = len(amount)
    m = np.zeros((k, 2, 3))
    m[:, 0, 0] = m[:, 1, 1] = 1.0
    if op == "rotate":  # PIL: counter-clockwise by `amount` degrees about (w / 2, h / 2)
        t = -np.deg2rad(amount)
        cos, sin = np.round(np.cos(t), 15), np.round(np.sin(t), 15)
        cx, cy = w / 2.0, h / 2.0
        m[:, 0, 0], m[:, 0, 1], m[:, 1, 0], m[:, 1, 1] = cos, sin, -sin, cos
        m[:, 0, 2] = cx - cos * cx - sin * cy
        m[:, 1, 2] = cy + sin * cx - cos * cy
    elif op == "shear_x":
        m[:, 0, 1] = amount
    elif op == "shear_y":
        m[:, 1, 0] = amount
    elif op == "translate_x":
        m[:, 0, 2] = amount
    elif op == "translate_y":
        m[:, 1, 2] = amount
    return m


def _sharpness(images: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """PIL's ImageEnhance.Sharpness: blend with the 3x3 smoothed copy (PIL's SMOOTH kernel, 1s
    around a centre of 5, over 13, rounded to uint8; borders kept)."""
    x = images.astype(np.float32)
    smooth = x.copy()
    inner = sum(x[:, 1 + dy:x.shape[1] - 1 + dy, 1 + dx:x.shape[2] - 1 + dx]
                for dy in (-1, 0, 1) for dx in (-1, 0, 1)) + 4 * x[:, 1:-1, 1:-1]
    smooth[:, 1:-1, 1:-1] = np.floor(inner / 13.0 + 0.5)
    alpha = np.asarray(factor, np.float32)[:, None, None, None]
    out = smooth + alpha * (x - smooth)  # in float32, as PIL's blend computes it
    return np.clip(np.trunc(out), 0, 255).astype(images.dtype)  # and truncates


def op_amount(op: str, level, size: int, sign) -> np.ndarray:
    """The code's parameter of `op` at integer level(s) v (of MAX_LEVEL), with its sign:
    degrees, a shear, pixels or an enhance factor."""
    v = np.asarray(level, np.float64)
    if op == "rotate":
        return sign * np.floor(v * _MAX["rotate"] / MAX_LEVEL)  # the code's _int_parameter
    if op.startswith("shear"):
        return sign * v * _MAX["shear"] / MAX_LEVEL
    if op.startswith("translate"):
        return sign * np.trunc(v * _MAX["translate"] / MAX_LEVEL * size)  # int(v * side)
    if op == "sharpness":
        return v * _MAX["sharpness"] / MAX_LEVEL + SHARPNESS_OFFSET  # no sign in the code
    return np.zeros_like(v)


def apply_op(images: np.ndarray, op: str, level, rng: np.random.Generator):
    """One operation on a batch at integer level(s) v (one for all, or one per image), each
    image with a random sign where the operation has one."""
    if op not in OPS:
        raise ValueError(f"unknown RandAugment op {op!r}; ops: {OPS}")
    k = len(images)
    level = np.broadcast_to(np.asarray(level, np.float64), (k,))
    sign = np.where(rng.random(k) < 0.5, -1.0, 1.0)
    if op == "identity" or k == 0:
        return images
    h, w = images.shape[1:3]
    if op == "sharpness":
        return _sharpness(images, op_amount(op, level, 0, sign))
    side = w if op.endswith("_x") else h
    return _affine(images, _matrices(op, op_amount(op, level, side, sign), (h, w)))


class RandAugment:
    """For each image, `num_ops` operations of `ops` drawn with replacement, each applied with
    probability `prob` (0.5) at a level drawn uniformly from {1, ..., magnitude - 1}: FixMatch's
    RandAugmentMC as the benchmark's code calls it (n = 2, m = 10).

    Called as a grain random map on a batch: f(batch, rng) -> batch, with `image` (and any
    paired `image_cf`) uint8 [B, H, W, 3]; paired images get the same operations.
    """

    def __init__(self, num_ops: int = 2, magnitude: int = 10, keys=("image", "image_cf"), *,
                 prob: float = 0.5, ops=OPS):
        if not 2 <= int(magnitude) <= MAX_LEVEL or int(magnitude) != magnitude:
            raise ValueError(f"RandAugment magnitude must be an integer in [2, {MAX_LEVEL}] (its "
                             f"levels are 1 .. magnitude - 1), got {magnitude}")
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandAugment prob must be in [0, 1], got {prob}")
        unknown = sorted(set(ops) - set(OPS))
        if unknown:
            raise ValueError(f"unknown RandAugment ops {unknown}; ops: {OPS}")
        self.num_ops, self.magnitude, self.keys = int(num_ops), int(magnitude), keys
        self.prob, self.ops = prob, tuple(ops)

    def __call__(self, batch: dict, rng: np.random.Generator) -> dict:
        out = dict(batch)
        keys = [k for k in self.keys if k in out]
        n = len(out[keys[0]])
        for _ in range(self.num_ops):
            choice = rng.integers(0, len(self.ops), n)
            applied = rng.random(n) < self.prob
            level = rng.integers(1, self.magnitude, n)
            state = rng.bit_generator.state
            for key in keys:
                rng.bit_generator.state = state  # the same draws for paired images
                images = out[key].copy()
                for o, op in enumerate(self.ops):
                    rows = np.flatnonzero((choice == o) & applied)
                    if rows.size:
                        images[rows] = apply_op(images[rows], op, level[rows], rng)
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
