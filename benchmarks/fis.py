"""FIS speed: influence-scoring throughput of the two JAX paths (and torch.func when torch is
installed), and FIS total wall time over ERM's on the same DigitsB config and epochs.

    python benchmarks/fis.py --json benchmarks/results/fis.json

Scoring: g_i . v for K = 2 directions (validation loss and fairness gradients) for every example
of a batch, small CNN (16-32-64-128) at 32 px, eval mode. "jvp" linearises the per-example loss
vector (forward mode); "per_example" takes vmap(grad) then dot products; "torch_func" is
torch.func.vmap(grad) on the same architecture, batch and input size, then dot products.
"""

from __future__ import annotations

import argparse
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import best_of, print_table, write_json  # noqa: E402

from nhfair_jax.config import digitsb_config, method_config  # noqa: E402
from nhfair_jax.methods import get_method  # noqa: E402
from nhfair_jax.models import SmallCNN  # noqa: E402

WIDTHS = (16, 32, 64, 128)


def jax_scoring(batch_size: int, repeats: int) -> dict:
    model = SmallCNN(num_classes=2, widths=WIDTHS)
    key = jax.random.key(0)
    images = jax.random.normal(key, (batch_size, 32, 32, 3))
    labels = jax.random.randint(key, (batch_size,), 0, 2)
    variables = model.init(key, images[:1], train=False)
    params, batch_stats = variables["params"], variables["batch_stats"]
    directions = [jax.tree.map(lambda p, k=k: jax.random.normal(k, p.shape), params)
                  for k in jax.random.split(key, 2)]
    batch = {"image": images, "label": labels}
    out = {}
    for scoring in ("jvp", "per_example"):
        method = get_method(method_config("fis", scoring=scoring, pool_labels="true",
                                          microbatch=16))
        fn = jax.jit(lambda p, b, d, m=method: m.score_batch(model.apply, p, batch_stats, b, d))
        seconds = best_of(lambda: jax.block_until_ready(fn(params, batch, directions)), repeats)
        out[scoring] = batch_size / seconds
    return out


def torch_scoring(batch_size: int, repeats: int) -> float | None:
    try:
        import torch
        from torch import nn
        from torch.func import functional_call, grad, vmap
    except ImportError:
        return None
    torch.manual_seed(0)
    layers, c_in = [], 3
    for i, width in enumerate(WIDTHS):
        layers += [nn.Conv2d(c_in, width, 3, padding=1, bias=False), nn.BatchNorm2d(width),
                   nn.ReLU()]
        if i < len(WIDTHS) - 1:
            layers.append(nn.MaxPool2d(2))
        c_in = width
    net = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c_in, 2)).eval()
    params = {k: v.detach() for k, v in net.named_parameters()}
    buffers = {k: v.detach() for k, v in net.named_buffers()}
    images = torch.randn(batch_size, 3, 32, 32)
    labels = torch.randint(0, 2, (batch_size,))
    directions = [{k: torch.randn_like(v) for k, v in params.items()} for _ in range(2)]

    def loss_one(p, x, y):
        logits = functional_call(net, (p, buffers), (x[None],))
        return nn.functional.cross_entropy(logits, y[None])

    per_example = vmap(grad(loss_one), in_dims=(None, 0, 0))

    def score():
        with torch.no_grad():
            grads = per_example(params, images, labels)
            return [sum((grads[k] * d[k]).flatten(1).sum(1) for k in grads) for d in directions]

    return batch_size / best_of(score, repeats)


_RUN_ONE = """
import json, sys, tempfile, time
from nhfair_jax.config import digitsb_config
from nhfair_jax.training import train_and_evaluate
cfg = digitsb_config(sys.argv[1])
cfg.train.epochs = int(sys.argv[2])
cfg.train.patience = cfg.train.epochs + 1
cfg.train.progress = False
with tempfile.TemporaryDirectory() as workdir:
    t0 = time.perf_counter()
    result = train_and_evaluate(cfg, workdir)
    seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "test_acc": result["test"]["acc"],
                  "test_dp": result["test"]["dp"]}))
"""


def training_times(epochs: int, repeats: int) -> dict:
    """Total wall time of ERM and FIS (default settings) on DigitsB, same epochs, no early stop.

    Each run is a fresh process (the same cold start for both: compilation included), ERM and
    FIS alternate, and the fastest of `repeats` runs of each is kept.
    """
    import json
    import subprocess

    runs = {"erm": [], "fis": []}
    for _ in range(repeats):
        for name in runs:
            proc = subprocess.run([sys.executable, "-c", _RUN_ONE, name, str(epochs)],
                                  capture_output=True, text=True, check=True)
            runs[name].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {name: {**min(r, key=lambda x: x["seconds"]),
                   "all_seconds": [x["seconds"] for x in r]} for name, r in runs.items()}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--train-repeats", type=int, default=2)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)

    rates = jax_scoring(args.batch_size, args.repeats)
    torch_rate = torch_scoring(args.batch_size, args.repeats)
    if torch_rate is not None:
        rates["torch_func"] = torch_rate
    rows = [{"scoring": k, "examples_per_s": v, "jvp_speedup": rates["jvp"] / v}
            for k, v in rates.items()]
    print(f"influence scoring, batch {args.batch_size}, K=2 directions, small CNN 32 px, "
          f"{jax.default_backend()}")
    print_table(rows, ["scoring", "examples_per_s", "jvp_speedup"])

    times = training_times(args.epochs, args.train_repeats)
    ratio = times["fis"]["seconds"] / times["erm"]["seconds"]
    print(f"\ntraining, DigitsB, {args.epochs} epochs each, fresh process per run, best of "
          f"{args.train_repeats}")
    print_table([{"method": k, **v} for k, v in times.items()],
                ["method", "seconds", "test_acc", "test_dp"])
    print(f"fis_over_erm_time = {ratio:.3f}")
    write_json(args.json, {"benchmark": "fis", "backend": jax.default_backend(),
                           "batch_size": args.batch_size, "scoring_examples_per_s": rates,
                           "jvp_over_per_example": rates["jvp"] / rates["per_example"],
                           "jvp_over_torch_func": (rates["jvp"] / rates["torch_func"]
                                                   if "torch_func" in rates else None),
                           "epochs": args.epochs, "train_repeats": args.train_repeats,
                           "training": times,
                           "fis_over_erm_time": ratio})


if __name__ == "__main__":
    main()
