"""oneDNN's CPU convolution inside jit: three JAX primitives over an XLA FFI library.

XLA's CPU convolutions (Eigen's) run at 0.5-0.85x of oneDNN's on the 2-core CPU, kernel
gradients and ResNet-18's 7x7 stem most (benchmarks/README.md, `benchmarks/conv_layers.py`):
XLA computes a kernel gradient as a forward convolution with batch and channels swapped, after
transposing the input and the output gradient. oneDNN, which PyTorch uses on the CPU, has
native forward, backward-data and backward-weights kernels. This module calls them from
compiled JAX code: `nhfair_jax/models/onednn_conv.cc` is compiled on first use (a C++ compiler,
the oneDNN headers and library of the `onednn` extra, XLA's FFI headers from jaxlib) into a
cache folder, and each convolution is one of three primitives:

- `forward(x, k)`: the convolution, NHWC x HWIO -> NHWC (lax.conv's cross-correlation);
- `backward_data(dy, k)`: its transpose in x, the input gradient;
- `backward_weights(x, dy)`: its transpose in k, the kernel gradient.

Each is bilinear and the transpose of each in either argument is another of the three, so
reverse mode, forward mode (FIS's jvp influence scores) and every higher order follow from
JAX's own rules (`ad.defbilinear`). Under vmap they compute with XLA's convolution instead
(oneDNN's take one batch of images, not a batch of batches; per-example gradients use patches
anyway, see `layers.per_example_convolutions`). float32 only; other dtypes use XLA's.

`Conv(conv_impl="auto")` uses it on the CPU wherever it would use XLA's convolution, when
`available()`: the `onednn` extra is installed (`pip install -e ".[onednn]"`), a C++ compiler
is on the PATH (or in `CXX`), and `NHFAIR_ONEDNN` is not "0". Otherwise everything runs as
before, on XLA's convolution; `status()` says which and why. A failed build warns once, with
the compiler's message. The library lands in `$NHFAIR_CACHE_DIR` (default
~/.cache/nhfair_jax), named by a hash of the source, jaxlib's and oneDNN's versions, written to
a temporary file and renamed, so concurrent processes (pytest workers) never load half a file.

Numbers: oneDNN's sums run in another order than XLA's, so results agree with XLA's to float32
rounding (relative 1e-6 on the layers of the small CNN and ResNet-18, tests/test_onednn.py),
not bit for bit; a run is reproducible with itself (same machine, same thread count).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import importlib.metadata
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax.interpreters import ad, batching, mlir

from jax._src import dispatch  # apply_primitive: the eager rule of a primitive
from jax.core import ShapedArray

try:  # jax >= 0.4.36
    from jax.extend.core import Primitive
except ImportError:  # pragma: no cover - older jax
    from jax.core import Primitive

SOURCE = pathlib.Path(__file__).with_name("onednn_conv.cc")
LIBRARY_DIST, HEADERS_DIST = "onednn-cpu-gomp", "onednn-devel-cpu-gomp"
OFF_VALUES = ("0", "off", "false", "no")
TARGETS = {"forward": "nhfair_onednn_conv_forward",
           "backward_data": "nhfair_onednn_conv_backward_data",
           "backward_weights": "nhfair_onednn_conv_backward_weights"}

_lock = threading.Lock()
_state: dict = {}  # "ok": bool, "reason": str, "lib": the loaded library (kept alive)


def cache_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("NHFAIR_CACHE_DIR")
                        or pathlib.Path.home() / ".cache" / "nhfair_jax")


def _onednn_paths() -> tuple[pathlib.Path, pathlib.Path]:
    """(the folder of libdnnl.so.3, the include folder) of the installed `onednn` extra."""
    def find(dist_name, suffix):
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            raise FileNotFoundError(f"{dist_name} is not installed (pip install -e \".[onednn]\")")
        for file in dist.files or ():
            if str(file).replace("\\", "/").endswith(suffix):
                return pathlib.Path(dist.locate_file(file)).resolve(), dist.version
        raise FileNotFoundError(f"{dist_name} {dist.version} has no {suffix}")

    (library, _), (header, _) = find(LIBRARY_DIST, "libdnnl.so.3"), find(
        HEADERS_DIST, "oneapi/dnnl/dnnl.hpp")
    return library.parent, header.parents[2]


def _compiler() -> str:
    for candidate in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    raise FileNotFoundError("no C++ compiler (set CXX, or install g++)")


def _build() -> pathlib.Path:
    """Compiles onednn_conv.cc into the cache folder (once per source and versions)."""
    libdir, include = _onednn_paths()
    cxx = _compiler()
    flags = ["-O2", "-std=c++17", "-shared", "-fPIC", "-w"]
    versions = (importlib.metadata.version("jaxlib"), importlib.metadata.version(LIBRARY_DIST),
                importlib.metadata.version(HEADERS_DIST), str(libdir), " ".join(flags))
    digest = hashlib.sha256(SOURCE.read_bytes() + repr(versions).encode()).hexdigest()[:16]
    target = cache_dir() / f"onednn_conv-{digest}.so"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
    os.close(fd)
    command = [cxx, *flags, f"-I{jax.ffi.include_dir()}", f"-I{include}", str(SOURCE),
               f"-L{libdir}", "-l:libdnnl.so.3", f"-Wl,-rpath,{libdir}", "-o", tmp]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
        os.replace(tmp, target)  # atomic: another process sees the old state or the whole file
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def _load() -> None:
    path = _build()
    lib = ctypes.cdll.LoadLibrary(str(path))
    for name in TARGETS.values():
        jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(getattr(lib, name)), platform="cpu")
    _state["lib"] = lib


def status() -> tuple[bool, str]:
    """(whether `Conv(conv_impl="auto")` uses oneDNN on the CPU, why / why not). Builds and
    loads the library on the first call."""
    if os.environ.get("NHFAIR_ONEDNN", "1").strip().lower() in OFF_VALUES:
        return False, "turned off by NHFAIR_ONEDNN"
    with _lock:
        if "ok" not in _state:
            try:
                _load()
                _state.update(ok=True, reason=f"oneDNN {importlib.metadata.version(LIBRARY_DIST)}")
            except FileNotFoundError as e:  # the extra or a compiler missing: XLA's, quietly
                _state.update(ok=False, reason=str(e))
            except Exception as e:  # a failed build: say so once
                _state.update(ok=False, reason=f"build failed: {e}")
                warnings.warn(f"nhfair_jax: oneDNN convolutions unavailable, XLA's used instead "
                              f"(slower on the CPU): {e}", RuntimeWarning, stacklevel=2)
        return _state["ok"], _state["reason"]


def available() -> bool:
    return status()[0]


# ---------------------------------------------------------------------------------------------
# The primitives. Parameters: strides (sh, sw), pads ((pt, pb), (pl, pr)), and the shapes of the
# input and the kernel (a backward pass cannot tell the input's size from the others under
# strides, and transposes see undefined operands without shapes).

def _out_shape(x_shape, k_shape, strides, pads):
    (n, h, w, _), (kh, kw, _, co) = x_shape, k_shape
    (sh, sw), ((pt, pb), (pl, pr)) = strides, pads
    return (n, (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1, co)


forward_p = Primitive("nhfair_onednn_conv")
backward_data_p = Primitive("nhfair_onednn_conv_backward_data")
backward_weights_p = Primitive("nhfair_onednn_conv_backward_weights")


def forward(x, k, **geometry):
    """F(x, k): the convolution."""
    return forward_p.bind(x, k, **geometry)


def backward_data(dy, k, **geometry):
    """D(dy, k): F's transpose in x, the input gradient."""
    return backward_data_p.bind(dy, k, **geometry)


def backward_weights(x, dy, **geometry):
    """W(x, dy): F's transpose in k, the kernel gradient."""
    return backward_weights_p.bind(x, dy, **geometry)


for _p in (forward_p, backward_data_p, backward_weights_p):  # eager calls: compiled, cached
    _p.def_impl(functools.partial(dispatch.apply_primitive, _p))
forward_p.def_abstract_eval(lambda x, k, *, strides, pads, x_shape, k_shape: ShapedArray(
    _out_shape(x_shape, k_shape, strides, pads), jnp.float32))
backward_data_p.def_abstract_eval(
    lambda dy, k, *, x_shape, **_: ShapedArray(x_shape, jnp.float32))
backward_weights_p.def_abstract_eval(
    lambda x, dy, *, k_shape, **_: ShapedArray(k_shape, jnp.float32))


def _attrs(strides, pads):
    (sh, sw), ((pt, pb), (pl, pr)) = strides, pads
    return {name: np.int64(v) for name, v in zip(("sh", "sw", "pt", "pb", "pl", "pr"),
                                                  (sh, sw, pt, pb, pl, pr))}


def _lowering(target):
    rule = jax.ffi.ffi_lowering(target)

    def lower(ctx, a, b, *, strides, pads, x_shape, k_shape):
        return rule(ctx, a, b, **_attrs(strides, pads))
    return lower


mlir.register_lowering(forward_p, _lowering(TARGETS["forward"]), platform="cpu")
mlir.register_lowering(backward_data_p, _lowering(TARGETS["backward_data"]), platform="cpu")
mlir.register_lowering(backward_weights_p, _lowering(TARGETS["backward_weights"]),
                       platform="cpu")

# Transposes: D is F's adjoint in x and W its adjoint in k, <F(x, k), c> = <x, D(c, k)> =
# <k, W(x, c)>; so D's adjoints are F (in dy) and W (in k), W's are D (in x) and F (in dy).
ad.defbilinear(forward_p,
               lambda ct, x, k, **g: backward_data(ct, k, **g),
               lambda ct, x, k, **g: backward_weights(x, ct, **g))
ad.defbilinear(backward_data_p,  # <D(dy, k), c> = <dy, F(c, k)> = <k, W(c, dy)>
               lambda ct, dy, k, **g: forward(ct, k, **g),
               lambda ct, dy, k, **g: backward_weights(ct, dy, **g))
ad.defbilinear(backward_weights_p,  # <W(x, dy), c> = <x, D(dy, c)> = <dy, F(x, c)>
               lambda ct, x, dy, **g: backward_data(dy, ct, **g),
               lambda ct, x, dy, **g: forward(x, ct, **g))


# Under vmap: XLA's convolution and its transposes, batched by JAX's own rules.
def _xla_conv(x, k, strides, pads):
    return jax.lax.conv_general_dilated(x, k, strides, pads,
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _xla_forward(x, k, *, strides, pads, x_shape, k_shape):
    return _xla_conv(x, k, strides, pads)


def _xla_backward_data(dy, k, *, strides, pads, x_shape, k_shape):
    spec = jax.ShapeDtypeStruct(x_shape, jnp.float32)
    return jax.linear_transpose(lambda x: _xla_conv(x, k, strides, pads), spec)(dy)[0]


def _xla_backward_weights(x, dy, *, strides, pads, x_shape, k_shape):
    spec = jax.ShapeDtypeStruct(k_shape, jnp.float32)
    return jax.linear_transpose(lambda k: _xla_conv(x, k, strides, pads), spec)(dy)[0]


def _batcher(xla_fn):
    def rule(args, dims, **params):
        fn = functools.partial(xla_fn, **params)
        axes = tuple(d if isinstance(d, int) else None for d in dims)  # None: not mapped
        return jax.vmap(fn, in_axes=axes)(*args), 0
    return rule


batching.primitive_batchers[forward_p] = _batcher(_xla_forward)
batching.primitive_batchers[backward_data_p] = _batcher(_xla_backward_data)
batching.primitive_batchers[backward_weights_p] = _batcher(_xla_backward_weights)


def conv(x, kernel, strides=(1, 1), pads=((0, 0), (0, 0))):
    """NHWC x HWIO -> NHWC convolution (explicit pads ((top, bottom), (left, right))) by
    oneDNN; XLA's for dtypes other than float32. Call only when `available()`."""
    strides = tuple(int(s) for s in strides)
    pads = tuple((int(lo), int(hi)) for lo, hi in pads)
    if x.dtype != jnp.float32 or kernel.dtype != jnp.float32:
        return _xla_conv(x, kernel, strides, pads)
    return forward(x, kernel, strides=strides, pads=pads, x_shape=tuple(x.shape),
                   k_shape=tuple(kernel.shape))
