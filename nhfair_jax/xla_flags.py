"""XLA flags the package sets for CPU runs, before JAX starts its backends.

`runtime.setup()` (which every command calls) appends these to the `XLA_FLAGS` environment
variable, which XLA reads once, when JAX first initialises a backend:

- `--xla_cpu_experimental_ynn_fusion_type=-individual_convolution,-individual_dot`: in jaxlib
  0.10, XLA's CPU backend hands a convolution with 16 or more input channels to YNNPACK, which
  runs it on one thread; without it the convolution goes to Eigen's, which uses every core.
  Measured on the 2-core CPU (benchmarks/HISTORY.md; `benchmarks/train_step.py` measures the
  train step with and without it side by side): up to 1.25x faster train steps. It also fixes
  numbers: with XLA's default route, ResNet-18's gradients at batch 8, 32 px differ by 1-7%
  from an independent computation (every convolution as a patch matmul, YNNPACK off) below its
  first strided convolution; each convolution alone is exact either way, so it is the fusion
  in the network. `-individual_dot` does the same for matrix products: with only
  `-individual_convolution`, ResNet-18's train-step gradients with every convolution as a
  patch matmul (`model.conv_impl = "patches"`) were 7% off layer2_0.conv1's kernel gradient
  on an AMD EPYC (each product alone exact to 2e-6). With both, every route agrees with
  YNNPACK off to float32 rounding (tests/test_xla_flags.py), and the train step is as fast
  (within noise; benchmarks/HISTORY.md).

A flag is set only where it is known to exist (jaxlib versions in `_VERIFIED`): XLA aborts the
process on a flag it does not know. A flag the user already set in `XLA_FLAGS` is left as it is,
and `NHFAIR_XLA_CPU_FLAGS=0` in the environment turns the package's flags off. The flags only
matter on the CPU (accelerator backends ignore `xla_cpu_*`) and only when set before the first
JAX computation; `applied()` says which were set in this process.
"""

from __future__ import annotations

import importlib.metadata
import os

CPU_FLAGS = {"xla_cpu_experimental_ynn_fusion_type": "-individual_convolution,-individual_dot"}
_VERIFIED = ((0, 10), (0, 11))  # jaxlib 0.10.x: measured here; later releases not yet seen
OFF_VALUES = ("0", "off", "false", "no")

_applied: list[str] = []


def _version(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit()) or "0"
        parts.append(int(digits))
    return tuple(parts)


def flags_to_add(environ=None, jaxlib_version: str | None = None) -> list[str]:
    """The `--name=value` flags `apply()` would append to `environ["XLA_FLAGS"]`."""
    environ = os.environ if environ is None else environ
    if environ.get("NHFAIR_XLA_CPU_FLAGS", "1").strip().lower() in OFF_VALUES:
        return []
    if jaxlib_version is None:
        try:
            jaxlib_version = importlib.metadata.version("jaxlib")
        except importlib.metadata.PackageNotFoundError:
            return []
    low, high = _VERIFIED
    if not low <= _version(jaxlib_version)[:2] < high:
        return []
    present = {token.split("=", 1)[0].lstrip("-") for token in environ.get("XLA_FLAGS", "").split()}
    return [f"--{name}={value}" for name, value in CPU_FLAGS.items() if name not in present]


def apply(environ=None) -> list[str]:
    """Appends the package's CPU flags to XLA_FLAGS (see the module docstring); returns those it
    appended. Called by `runtime.setup()`. XLA reads XLA_FLAGS once, when JAX starts its first
    backend: a flag appended after that (setup() called after a JAX computation) takes
    effect in subprocesses only. JAX has no public way to ask whether a backend has started, so
    the package does not try to (it imports nothing of JAX's internals)."""
    environ = os.environ if environ is None else environ
    added = flags_to_add(environ)
    if added:
        environ["XLA_FLAGS"] = " ".join([environ.get("XLA_FLAGS", "").strip(), *added]).strip()
        if environ is os.environ:
            _applied.extend(added)
    return added


def applied() -> list[str]:
    """The flags this process's `runtime.setup()` appended to XLA_FLAGS."""
    return list(_applied)
