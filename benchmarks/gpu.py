"""The accelerator benchmark: one command, one JSON, about 75 s on an H200.

    bash benchmarks/gpu.sh                 # or: python benchmarks/gpu.py --json OUT.json

Measures, on the accelerator JAX finds (nothing is installed; PyTorch rows appear when torch
with CUDA is already there):
- `train`: ResNet-18 at 224 px, batch 256, train step images/s (forward, backward, SGD
  momentum, train-mode batch norm; float32 weights, each framework's default matmul precision,
  i.e. TF32 on Ampere and newer for both), JAX and PyTorch on the same device;
- `scoring`: FIS influence scoring, ResNet-18 at 224 px, batch 64, K = 2 directions, examples/s:
  JAX jvp, the closed form layer by layer (`per_layer`; and `per_layer_grads`, its per-example
  gradients materialised), JAX per-example gradients (memory-budgeted chunks; convolutions as
  patches), the same with XLA's convolution forced (`per_example_xla`) and one plain
  vmap(grad), and torch.func vmap(grad) / jvp;
- `data_parallel`: when more than one device is present, the train step with the batch split
  over all of them (256 per device), against one device, and the scaling efficiency.
Without an accelerator it says so and exits 0. `--smoke` runs every path with the small CNN at
32 px and tiny batches on whatever backend there is (the test suite uses it on the CPU).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import jax

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402
from fis import jax_scoring, torch_scoring  # noqa: E402
from train_step import _time, jax_step, torch_step  # noqa: E402

from nhfair_jax.data.device_augment import DevicePrepare  # noqa: E402


def _torch_device():
    try:
        import torch
    except ImportError:
        return None
    return "cuda" if torch.cuda.is_available() else None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--json", default="benchmarks/results/gpu.json")
    p.add_argument("--smoke", action="store_true",
                   help="every path at 32 px with tiny batches, on any backend (a test)")
    args = p.parse_args(argv)
    backend = jax.default_backend()
    if backend == "cpu" and not args.smoke:
        print("no accelerator: JAX sees only the CPU, so there is nothing to measure here; run "
              "this on a machine with a GPU (benchmarks/train_step.py and benchmarks/fis.py "
              "measure the CPU)")
        return 0
    t_start = time.perf_counter()
    model, size, batch, score_batch, steps, repeats = ("small_cnn", 32, 8, 4, 1, 1) \
        if args.smoke else ("resnet18", 224, 256, 64, 10, 3)
    torch_device = "cpu" if args.smoke else _torch_device()
    devices = jax.devices()
    print(f"{backend}: {len(devices)} x {devices[0].device_kind}", file=sys.stderr)
    payload = {"benchmark": "gpu", "backend": backend, "smoke": args.smoke,
               "devices": [str(d.device_kind) for d in devices], "complete": False}

    def save(section, value):
        # after each section, so that a run stopped at a time limit keeps what it measured
        payload[section] = value
        payload["seconds"] = time.perf_counter() - t_start
        print(f"{section} done, {payload['seconds']:.0f} s", file=sys.stderr)
        write_json(args.json, payload)

    train = {"model": model, "px": size, "batch": batch}
    train["jax"] = batch / _time(jax_step(model, size, batch), steps, repeats)
    if torch_device is not None:
        train["torch"] = batch / _time(torch_step(model, size, batch, torch_device), steps,
                                       repeats)
        train["jax_over_torch"] = train["jax"] / train["torch"]
    # the protocol's augmentation in the step (train.augment_on="device"): uint8 batches,
    # RandAugment(2, 10), flip and normalisation before the forward pass
    prepare = DevicePrepare(True, True, (0.5,) * 3, (0.5,) * 3)
    train["jax_device_augment"] = batch / _time(jax_step(model, size, batch, prepare=prepare),
                                                steps, repeats)
    train["device_augment_over_bare"] = train["jax_device_augment"] / train["jax"]
    save("train", train)

    scoring = {"model": model, "px": size, "batch": score_batch,
               **jax_scoring(model, size, score_batch, repeats)}
    # the per-example path with XLA's convolution forced: its grouped kernel gradient under vmap,
    # the accelerators' route before per-example gradients took patches there
    scoring["per_example_xla"] = jax_scoring(model, size, score_batch, repeats, conv_impl="xla",
                                             paths=("per_example",))["per_example"]
    scoring["per_example_over_per_example_xla"] = (scoring["per_example"]
                                                   / scoring["per_example_xla"])
    if torch_device is not None:
        scoring.update(torch_scoring(model, size, score_batch, repeats, torch_device))
        for other in ("torch_func_vmap_grad", "torch_func_jvp"):
            if other in scoring:
                for path in ("jvp", "per_layer", "per_example", "per_layer_grads"):
                    scoring[f"{path}_over_{other}"] = scoring[path] / scoring[other]
    save("scoring", scoring)

    parallel = None
    if len(devices) > 1 or args.smoke:
        n = len(devices)
        one = batch / _time(jax_step(model, size, batch, devices=devices[:1]), steps, repeats)
        every = n * batch / _time(jax_step(model, size, n * batch, devices=devices), steps,
                                  repeats)
        parallel = {"devices": n, "one_device": one, "all_devices": every,
                    "efficiency": every / (n * one)}

    print(f"\n{backend}, {len(devices)} x {devices[0].device_kind}")
    print_table([train], ["model", "px", "batch", "jax", "torch", "jax_over_torch",
                          "jax_device_augment", "device_augment_over_bare"])
    print()
    print_table([scoring], ["model", "px", "batch", "jvp", "per_layer", "per_example",
                            "per_example_xla", "per_layer_grads", "plain_vmap",
                            "torch_func_vmap_grad", "torch_func_jvp"])
    if parallel:
        print()
        print_table([parallel], ["devices", "one_device", "all_devices", "efficiency"])
    payload["complete"] = True
    save("data_parallel", parallel)
    print(f"\n{payload['seconds']:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
