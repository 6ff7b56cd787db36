"""Train-step speed, JAX against PyTorch on the same model, side by side in one process.

    python benchmarks/train_step.py --json benchmarks/results/train_step.json

One train step = forward, backward and an SGD-momentum update, train-mode batch norm, state
donated (JAX) / updated in place (PyTorch), on random images. For each model, size and batch:
- `jax`: the package as it runs (`conv_impl="auto"` and its max pooling, models/layers.py,
  and the XLA CPU flags `runtime.setup()` sets, nhfair_jax/xla_flags.py);
- `jax_xla_conv`: the same with XLA's convolution everywhere (no tap loop for the first layer,
  no tap matmuls on maps smaller than the kernel: `conv_impl="xla"`);
- `jax_flax_bn`: the same with `flax.linen.BatchNorm` in place of the package's
  (models/layers.py `BatchNorm`, whose derivative XLA computes without writing x - mean);
- `jax_flax_pool`: the same with `flax.linen.max_pool` in place of the package's;
- `jax_xla_defaults`: the same as `jax`, with XLA's default flags (a subprocess with
  NHFAIR_XLA_CPU_FLAGS=0, run in the same invocation, so the two are side by side);
- `jax_xla`: every layer flax's or XLA's own (convolution, max pooling, batch norm), the path
  the models take on accelerators, and the one before the CPU-fast layers;
- `torch`: the same architecture in PyTorch (benchmarks/_torch_models.py), default threads, in a
  worker process of its own that times its steps when asked, in turn with the JAX variants.
- `jax_data_parallel`: with more than one JAX device, the same step with the batch split over
  all of them (as the trainer shards it). On the CPU,
  XLA_FLAGS=--xla_force_host_platform_device_count=N makes N host devices:

      XLA_FLAGS=--xla_force_host_platform_device_count=2 python benchmarks/train_step.py \
          --json benchmarks/results/train_step_2dev.json

Images per second, best of `--repeats` timings of `--steps` steps after a warm-up (compilation);
for each case the variants are timed in turn within each round (side by side), so that the
ratios do not depend on when the machine was busy.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

from nhfair_jax import xla_flags  # noqa: E402
from nhfair_jax.models import create_model  # noqa: E402

CASES = [("small_cnn", 32, 64), ("small_cnn", 64, 64), ("resnet18", 32, 32), ("resnet18", 64, 32)]


@contextlib.contextmanager
def flax_layers(norm: bool = False, pool: bool = False):
    """The models' batch norm (`norm`) and / or max pooling (`pool`) swapped for
    flax.linen.BatchNorm / flax.linen.max_pool while a step is built and compiled."""
    from nhfair_jax.models import layers

    saved = layers.BatchNorm, layers.max_pool
    if norm:
        layers.BatchNorm = nn.BatchNorm
    if pool:
        layers.max_pool = nn.max_pool
    try:
        yield
    finally:
        layers.BatchNorm, layers.max_pool = saved


def _warm(step):
    step().item()  # compilation
    return step


def _time_together(steps: dict, n: int, repeats: int) -> dict:
    """Seconds per step for each of `steps` (already warm; a step callable, or a `_RemoteStep`
    timed in its own process): best of `repeats` rounds, each round timing n steps of every
    variant in turn, so that drift of the machine's speed (frequent on a shared 2-core VM)
    falls on all of them alike."""
    best = dict.fromkeys(steps, float("inf"))
    for _ in range(repeats):
        for key, step in steps.items():
            if isinstance(step, _RemoteStep):
                best[key] = min(best[key], step.seconds(n))
                continue
            t0 = time.perf_counter()
            for _ in range(n):
                out = step()
            out.item()
            best[key] = min(best[key], (time.perf_counter() - t0) / n)
    return best


class _RemoteStep:
    """PyTorch's step for one case, built and timed in a worker process of its own
    (`--torch-worker`, no JAX work), one timing at a time on request: side by side with the JAX
    variants in time, but not in their process, so that neither framework's threads or memory
    slow the other's steps."""

    def __init__(self, worker, name, size, batch):
        self.worker, self.case = worker, f"{name} {size} {batch}"
        self.worker.ask(f"warm {self.case}")

    def seconds(self, n: int) -> float:
        return float(self.worker.ask(f"time {self.case} {n}"))


class _TorchWorker:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--torch-worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command: str) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:
            if line.startswith("@@ "):
                return line[3:].strip()
        raise RuntimeError(f"the torch worker exited (code {self.proc.wait()}) on {command!r}")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _torch_worker():
    """The `--torch-worker` loop: `warm NAME SIZE BATCH` builds and warms that case's step,
    `time NAME SIZE BATCH N` answers the seconds per step of N of its steps (answers prefixed
    with '@@ ')."""
    steps = {}
    for line in sys.stdin:
        command, *words = line.split()
        case = tuple(words[:3])
        if command == "warm":
            steps[case] = _warm(torch_step(case[0], int(case[1]), int(case[2])))
            print("@@ ok", flush=True)
        elif command == "time":
            step, n = steps[case], int(words[3])
            t0 = time.perf_counter()
            for _ in range(n):
                out = step()
            out.item()
            print(f"@@ {(time.perf_counter() - t0) / n!r}", flush=True)


def _time(step, steps: int, repeats: int) -> float:
    step()  # warm-up: compilation
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            out = step()
        out.item()  # waits for the last step (JAX dispatches asynchronously)
        best = min(best, (time.perf_counter() - t0) / steps)
    return best


def jax_step(name: str, size: int, batch: int, conv_impl: str = "auto", devices=None,
             prepare=None):
    """A step closure over donated state; returns the loss. With `devices`, data parallel: the
    batch split over them, the state replicated (as the package's trainer does). With
    `prepare` (data/device_augment.py's DevicePrepare), the batch is uint8 and the step
    augments and normalises it first, as with `train.augment_on="device"`."""
    model = create_model(name, 2, conv_impl=conv_impl)
    key = jax.random.key(0)
    x = jax.random.normal(key, (batch, size, size, 3))
    if prepare is not None:
        x = jax.random.randint(key, (batch, size, size, 3), 0, 256).astype(jnp.uint8)
    y = jax.random.randint(key, (batch,), 0, 2)
    variables = model.init(key, x[:1], train=False)
    tx = optax.sgd(0.01, momentum=0.9)
    state = [variables["params"], variables["batch_stats"], tx.init(variables["params"])]
    if devices is not None:
        from jax.sharding import Mesh, NamedSharding, PartitionSpec

        mesh = Mesh(np.asarray(devices), ("data",))
        x, y = (jax.device_put(a, NamedSharding(mesh, PartitionSpec("data"))) for a in (x, y))
        state = jax.device_put(state, NamedSharding(mesh, PartitionSpec()))

    def step(params, batch_stats, opt_state, x, y):
        if prepare is not None:
            x = prepare({"image": x}, jax.random.fold_in(key, y[0]))["image"]

        def loss_fn(p):
            logits, updates = model.apply({"params": p, "batch_stats": batch_stats}, x,
                                          train=True, mutable=["batch_stats"])
            loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
            return loss, updates["batch_stats"]

        (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), new_stats, opt_state, loss

    compiled = jax.jit(step, donate_argnums=(0, 1, 2))

    def run():
        params, batch_stats, opt_state, loss = compiled(*state, x, y)
        state[:] = [params, batch_stats, opt_state]
        return loss

    return run


def torch_step(name: str, size: int, batch: int, device: str = "cpu"):
    import torch
    from _torch_models import build

    torch.manual_seed(0)
    net = build(name).train().to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(batch, 3, size, size, device=device)
    y = torch.randint(0, 2, (batch,), device=device)

    def run():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        return loss.detach()

    return run


def _with_xla_defaults(args):
    """The package path's images/s per case under XLA's default flags (NHFAIR_XLA_CPU_FLAGS=0),
    from a subprocess (XLA reads its flags once per process); None when the package set none."""
    if not xla_flags.applied():
        return None
    env = {**os.environ, "NHFAIR_XLA_CPU_FLAGS": "0"}
    for flag in xla_flags.applied():
        env["XLA_FLAGS"] = env.get("XLA_FLAGS", "").replace(flag, "").strip()
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--jax-only",
                          "--steps", str(args.steps), "--repeats", str(args.repeats)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--json", default=None)
    p.add_argument("--torch-worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--jax-only", action="store_true",
                   help="print the package path's images/s per case as JSON and exit (used to "
                        "measure it under other XLA flags in a subprocess)")
    args = p.parse_args(argv)
    if args.torch_worker:
        return _torch_worker()
    if args.jax_only:
        print(json.dumps([batch / _time(jax_step(name, size, batch), args.steps, args.repeats)
                          for name, size, batch in CASES]))
        return
    defaults = _with_xla_defaults(args)
    try:
        import torch
    except ImportError:
        torch = None
    worker = _TorchWorker() if torch is not None else None
    rows = []
    for name, size, batch in CASES:
        row = {"model": name, "px": size, "batch": batch}
        steps = {"jax": _warm(jax_step(name, size, batch, "auto"))}
        steps["jax_xla_conv"] = _warm(jax_step(name, size, batch, "xla"))
        with flax_layers(norm=True):
            steps["jax_flax_bn"] = _warm(jax_step(name, size, batch, "auto"))
        with flax_layers(pool=True):
            steps["jax_flax_pool"] = _warm(jax_step(name, size, batch, "auto"))
        with flax_layers(norm=True, pool=True):
            steps["jax_xla"] = _warm(jax_step(name, size, batch, "xla"))
        if len(jax.devices()) > 1:  # e.g. XLA_FLAGS=--xla_force_host_platform_device_count=2
            steps["jax_data_parallel"] = _warm(jax_step(name, size, batch,
                                                        devices=jax.devices()))
        if worker is not None:
            steps["torch"] = _RemoteStep(worker, name, size, batch)
        for key, seconds in _time_together(steps, args.steps, args.repeats).items():
            row[key] = batch / seconds
        if defaults is not None:
            row["jax_xla_defaults"] = defaults[len(rows)]
        if torch is not None:
            for key, ratio in (("jax", "jax_over_torch"),
                               ("jax_xla_conv", "xla_conv_over_torch"),
                               ("jax_flax_bn", "flax_bn_over_torch"),
                               ("jax_flax_pool", "flax_pool_over_torch"),
                               ("jax_xla_defaults", "xla_defaults_over_torch"),
                               ("jax_xla", "before_over_torch"),
                               ("jax_data_parallel", "data_parallel_over_torch")):
                if key in row:
                    row[ratio] = row[key] / row["torch"]
        rows.append(row)
        print(f"{name} {size}px done", file=sys.stderr)
    if worker is not None:
        worker.close()
    threads = torch.get_num_threads() if torch is not None else None
    print(f"train step (forward + backward + SGD momentum, train-mode BN), images/s, "
          f"{jax.default_backend()}, torch threads {threads}")
    print_table(rows, ["model", "px", "batch", "jax", "jax_xla_conv", "jax_flax_bn",
                       "jax_flax_pool", "jax_xla_defaults", "jax_xla", "jax_data_parallel",
                       "torch", "jax_over_torch", "xla_conv_over_torch", "flax_bn_over_torch",
                       "flax_pool_over_torch", "xla_defaults_over_torch", "before_over_torch",
                       "data_parallel_over_torch"])
    write_json(args.json, {"benchmark": "train_step", "backend": jax.default_backend(),
                           "devices": len(jax.devices()),
                           "torch_threads": threads, "steps": args.steps,
                           "xla_flags_set_by_package": xla_flags.applied(),
                           "repeats": args.repeats, "rows": rows,
                           "numpy": np.__version__, "jax": jax.__version__})


if __name__ == "__main__":
    main()
