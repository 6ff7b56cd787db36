"""One convolution at a time, JAX against PyTorch: forward, input gradient, kernel gradient.

    python benchmarks/conv_layers.py --json benchmarks/results/conv_layers.json

The layers of the small CNN at 64 px (batch 64) and of ResNet-18 at 64 px (batch 32), each in
isolation: `fwd` is the convolution, `dx` the gradient with respect to its input and `dw` with
respect to its kernel, for the package's convolution as `conv_impl="auto"` picks it on this
backend (`Conv`'s choice: the tap loop for a first layer; matmuls per tap on a map smaller
than the kernel; XLA's elsewhere), XLA's own beside it (`xla_*`) where the choice is another,
and for torch's (oneDNN on the CPU; `torch.nn.grad` for the gradients). Milliseconds, best of
`--repeats` rounds in which every variant runs once in turn (side by side); `*_jax_over_torch`
are speed ratios (torch's time over JAX's: above 1, JAX's is faster), as
benchmarks/train_step.py's. It says where the train step's time goes per layer;
benchmarks/train_step.py times the whole step, which is what counts (XLA fuses across layers).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import jax

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

from nhfair_jax.models import layers  # noqa: E402

# (model, batch, map, c_in, c_out, kernel, stride)
LAYERS = [("small_cnn", 64, 64, 3, 16, 3, 1), ("small_cnn", 64, 32, 16, 32, 3, 1),
          ("small_cnn", 64, 16, 32, 64, 3, 1), ("small_cnn", 64, 8, 64, 128, 3, 1),
          ("resnet18", 32, 64, 3, 64, 7, 2), ("resnet18", 32, 16, 64, 64, 3, 1),
          ("resnet18", 32, 8, 128, 128, 3, 1), ("resnet18", 32, 4, 256, 256, 3, 1),
          ("resnet18", 32, 2, 512, 512, 3, 1)]


def _jax_fns(batch, size, c_in, c_out, k, stride, impl=None):
    x = jax.random.normal(jax.random.key(0), (batch, size, size, c_in))
    w = jax.random.normal(jax.random.key(1), (k, k, c_in, c_out)) * 0.1
    pads = ((k // 2, k // 2),) * 2
    out_hw = ((size + 2 * (k // 2) - k) // stride + 1,) * 2
    impl = impl or layers.resolve_conv_impl("auto", out_hw, (k, k), k * k * c_in)
    conv = layers.CONV_FNS[impl]

    def fwd(x, w):
        return conv(x, w, (stride, stride), pads)

    g = jax.random.normal(jax.random.key(2), jax.eval_shape(fwd, x, w).shape)
    fns = {"fwd": (jax.jit(fwd), (x, w)),
           "dx": (jax.jit(lambda x, w, g: jax.vjp(lambda a: fwd(a, w), x)[1](g)[0]), (x, w, g)),
           "dw": (jax.jit(lambda x, w, g: jax.vjp(lambda b: fwd(x, b), w)[1](g)[0]), (x, w, g))}
    return impl, {key: (lambda f=f, a=a: jax.block_until_ready(f(*a))) for key, (f, a)
                  in fns.items()}


def _torch_fns(batch, size, c_in, c_out, k, stride):
    import torch

    x = torch.randn(batch, c_in, size, size)
    w = torch.randn(c_out, c_in, k, k) * 0.1
    p = k // 2
    out = (size + 2 * p - k) // stride + 1
    g = torch.randn(batch, c_out, out, out)
    return {"fwd": lambda: torch.nn.functional.conv2d(x, w, stride=stride, padding=p),
            "dx": lambda: torch.nn.grad.conv2d_input(x.shape, w, g, stride=stride, padding=p),
            "dw": lambda: torch.nn.grad.conv2d_weight(x, w.shape, g, stride=stride, padding=p)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--json", default=None)
    p.add_argument("--smoke", action="store_true",
                   help="every layer at batch 2, one round: checks the script, times nothing")
    args = p.parse_args(argv)
    if args.smoke:
        args.repeats = 1
    try:
        import torch
    except ImportError:
        torch = None
    rows = []
    for model, batch, size, c_in, c_out, k, stride in LAYERS:
        batch = 2 if args.smoke else batch
        impl, fns = _jax_fns(batch, size, c_in, c_out, k, stride)
        variants = {f"jax_{key}": fn for key, fn in fns.items()}
        if impl != "xla":  # XLA's own beside the package's choice
            variants.update({f"xla_{key}": fn for key, fn in
                             _jax_fns(batch, size, c_in, c_out, k, stride, "xla")[1].items()})
        if torch is not None:
            variants.update({f"torch_{key}": fn for key, fn in
                             _torch_fns(batch, size, c_in, c_out, k, stride).items()})
        for fn in variants.values():
            fn()  # compilation, first-call allocation
        best = dict.fromkeys(variants, float("inf"))
        for _ in range(args.repeats):
            for key, fn in variants.items():
                t0 = time.perf_counter()
                fn()
                best[key] = min(best[key], (time.perf_counter() - t0) * 1e3)
        row = {"model": model, "layer": f"{k}x{k}/{stride} {c_in}->{c_out} @{size}px B{batch}",
               "jax_impl": impl, **best}
        if torch is not None:
            for key in ("fwd", "dx", "dw"):
                # a speed ratio, as train_step.py's: above 1, JAX's is faster
                row[f"{key}_jax_over_torch"] = best[f"torch_{key}"] / best[f"jax_{key}"]
        rows.append(row)
    print(f"one convolution, milliseconds (lower is better), {jax.default_backend()}, "
          f"torch threads {torch.get_num_threads() if torch is not None else None}")
    print_table(rows, ["model", "layer", "jax_impl", "jax_fwd", "xla_fwd", "torch_fwd",
                       "jax_dx", "xla_dx", "torch_dx", "jax_dw", "xla_dw", "torch_dw",
                       "fwd_jax_over_torch",
                       "dx_jax_over_torch", "dw_jax_over_torch"])
    write_json(args.json, {"benchmark": "conv_layers", "backend": jax.default_backend(),
                           "repeats": args.repeats, "smoke": args.smoke, "rows": rows,
                           "jax": jax.__version__})


if __name__ == "__main__":
    main()
