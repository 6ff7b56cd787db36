"""FIS speed: influence-scoring throughput of the three JAX paths (and torch.func when torch is
installed), and FIS total wall time over ERM's on the same DigitsB config and epochs.

    python benchmarks/fis.py --json benchmarks/results/fis.json
    python benchmarks/fis.py --training-only --train-repeats 5 --baseline DIR   # DIR: another head

Scoring: g_i . v for K = 2 directions (validation loss and fairness gradients) for every example
of a batch, eval mode, for the small CNN (16-32-64-128, 32 px, batch 64) and ResNet-18 (32 px,
batch 32). "jvp" linearises the per-example loss vector (forward mode); "per_example" takes
vmap(grad) in chunks that fit FIS's memory budget, then dot products; "plain_vmap" is one
vmap(grad) over the whole batch; "torch_func_vmap_grad" and "torch_func_jvp" are torch.func on
the same architecture, batch and input size (benchmarks/_torch_models.py).
"""

from __future__ import annotations

import argparse
import os
import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(__file__))
from _common import best_of, print_table, write_json  # noqa: E402

from nhfair_jax import per_example  # noqa: E402
from nhfair_jax.config import method_config  # noqa: E402
from nhfair_jax.methods import get_method  # noqa: E402
from nhfair_jax.models import create_model  # noqa: E402

SCORING_CASES = [("small_cnn", 32, 64), ("resnet18", 32, 32)]


def jax_scoring(name: str, size: int, batch_size: int, repeats: int, conv_impl: str = "auto",
                paths=None) -> dict:
    """Examples/s of each JAX scoring path (`paths`: a subset of them; default all), the model's
    convolutions as `conv_impl` chooses."""
    model = create_model(name, 2, conv_impl=conv_impl)
    key = jax.random.key(0)
    images = jax.random.normal(key, (batch_size, size, size, 3))
    labels = jax.random.randint(key, (batch_size,), 0, 2)
    variables = model.init(key, images[:1], train=False)
    params, batch_stats = variables["params"], variables["batch_stats"]
    directions = [jax.tree.map(lambda p, k=k: jax.random.normal(k, p.shape), params)
                  for k in jax.random.split(key, 2)]
    batch = {"image": images, "label": labels}
    fns = {}
    for scoring in ("jvp", "per_example", "per_layer"):
        method = get_method(method_config("fis", scoring=scoring, pool_labels="true"))
        fns[scoring] = jax.jit(
            lambda p, b, d, m=method: m.score_batch(model.apply, p, batch_stats, b, d))
    # the same per-example gradients as one plain vmap(grad), never chunked: the reference the
    # default (memory-budgeted) path must not fall behind
    method = get_method(method_config("fis", scoring="per_example", pool_labels="true",
                                      memory_mb=1 << 20))
    fns["plain_vmap"] = jax.jit(
        lambda p, b, d: method.score_batch(model.apply, p, batch_stats, b, d))

    # the closed form with every per-example gradient materialised (as vmap(grad) does), then
    # the same dot products: the like-for-like comparison with torch.func vmap(grad)
    def materialised(p, b, d):
        def losses(q, bb):
            return method._example_losses(model.apply, q, batch_stats, bb["image"], bb["label"])

        grads = per_example.per_layer_grads(losses, p, b)
        return jnp.stack([per_example.tree_dot(grads, v) for v in d])

    fns["per_layer_grads"] = jax.jit(materialised)
    if paths is not None:
        fns = {k: f for k, f in fns.items() if k in paths}
    # Round robin: every path timed once per round, best of `repeats` rounds, so that no path
    # gets the machine's quieter moments (paths timed one after another drifted by 10-15%).
    calls = {k: (lambda f=f: jax.block_until_ready(f(params, batch, directions)))
             for k, f in fns.items()}
    best = {k: best_of(call, 0) for k, call in calls.items()}  # compiles and warms up
    for _ in range(repeats):
        for k, call in calls.items():
            best[k] = min(best[k], best_of(call, 1, warmup=False))
    return {k: batch_size / seconds for k, seconds in best.items()}


def torch_scoring(name: str, size: int, batch_size: int, repeats: int,
                  device: str = "cpu") -> dict:
    """torch.func on the same architecture, eval mode: vmap(grad) then dot products (the
    original FIS code's way), and jvp of the per-example loss vector."""
    try:
        import torch
        from _torch_models import build
        from torch.func import functional_call, grad, jvp, vmap
    except ImportError:
        return {}
    torch.manual_seed(0)
    net = build(name).eval().to(device)
    params = {k: v.detach() for k, v in net.named_parameters()}
    buffers = {k: v.detach() for k, v in net.named_buffers()}
    images = torch.randn(batch_size, 3, size, size, device=device)
    labels = torch.randint(0, 2, (batch_size,), device=device)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    directions = [{k: torch.randn_like(v) for k, v in params.items()} for _ in range(2)]
    ce = torch.nn.functional.cross_entropy

    def loss_one(p, x, y):
        return ce(functional_call(net, (p, buffers), (x[None],)), y[None])

    per_example = vmap(grad(loss_one), in_dims=(None, 0, 0))

    def by_grads():
        with torch.no_grad():
            grads = per_example(params, images, labels)
            out = [sum((grads[k] * d[k]).flatten(1).sum(1) for k in grads) for d in directions]
        sync()
        return out

    def losses(p):
        return ce(functional_call(net, (p, buffers), (images,)), labels, reduction="none")

    def by_jvp():
        with torch.no_grad():
            out = [jvp(losses, (params,), (d,))[1] for d in directions]
        sync()
        return out

    return {"torch_func_vmap_grad": batch_size / best_of(by_grads, repeats),
            "torch_func_jvp": batch_size / best_of(by_jvp, repeats)}


_RUN_ONE = """
import json, sys, tempfile, time
from nhfair_jax.config import digitsb_config
from nhfair_jax.dispatch import run
cfg = digitsb_config(sys.argv[1])
cfg.train.epochs = int(sys.argv[2])
cfg.train.patience = cfg.train.epochs + 1
cfg.train.progress = False
with tempfile.TemporaryDirectory() as workdir:
    t0 = time.perf_counter()
    result = run(cfg, workdir)
    seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "test_acc": result["test"]["acc"],
                  "test_dp": result["test"]["dp"]}))
"""


def training_times(epochs: int, repeats: int, trees: dict) -> dict:
    """{label: {method: run}}: total wall time of ERM and FIS (default settings) on DigitsB,
    same epochs, no early stop, for each checkout in `trees` ({label: a folder put first on
    PYTHONPATH, or None for the installed package}).

    Each run is a fresh process (the same cold start for both: compilation included); ERM and
    FIS alternate and the checkouts interleave, so that the machine's drifts reach them all
    alike; the fastest of `repeats` runs is kept, its median as "median_seconds".
    """
    import json
    import statistics
    import subprocess

    runs = {label: {"erm": [], "fis": []} for label in trees}
    for _ in range(repeats):
        for label, tree in trees.items():
            env = dict(os.environ)
            if tree:
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.abspath(tree),
                                                                  env.get("PYTHONPATH")]))
            for name in runs[label]:
                proc = subprocess.run([sys.executable, "-c", _RUN_ONE, name, str(epochs)],
                                      capture_output=True, text=True, check=True, env=env,
                                      cwd=os.path.abspath(tree) if tree else None)
                runs[label][name].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {label: {name: {**min(r, key=lambda x: x["seconds"]),
                           "median_seconds": statistics.median(x["seconds"] for x in r),
                           "all_seconds": [x["seconds"] for x in r]}
                    for name, r in by_method.items()}
            for label, by_method in runs.items()}


def paired_median(fis_seconds, erm_seconds) -> float:
    """The median over repeats of FIS's time over the ERM run beside it (the two run back to
    back in each repeat): the machine's drift over the repeats reaches both alike, where the
    best and the median of each method can come from different moments."""
    import statistics

    return statistics.median(f / e for f, e in zip(fis_seconds, erm_seconds))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--train-repeats", type=int, default=2)
    p.add_argument("--json", default=None)
    p.add_argument("--baseline", default=None, metavar="DIR",
                   help="a checkout of another head (e.g. `git worktree add DIR REV`): its ERM "
                        "and FIS runs interleave with this one's, ratios side by side")
    p.add_argument("--training-only", action="store_true",
                   help="skip the scoring throughput (and torch)")
    args = p.parse_args(argv)

    scoring = []
    for name, size, batch in ([] if args.training_only else SCORING_CASES):
        rates = {**jax_scoring(name, size, batch, args.repeats),
                 **torch_scoring(name, size, batch, args.repeats)}
        row = {"model": name, "px": size, "batch": batch, **rates}
        for other in ("per_example", "plain_vmap", "torch_func_vmap_grad", "torch_func_jvp"):
            if other in rates:
                row[f"jvp_over_{other}"] = rates["jvp"] / rates[other]
        for path in ("per_example", "per_layer", "per_layer_grads"):
            if "torch_func_vmap_grad" in rates:
                row[f"{path}_over_torch_func_vmap_grad"] = (rates[path]
                                                            / rates["torch_func_vmap_grad"])
            row[f"{path}_over_plain_vmap"] = rates[path] / rates["plain_vmap"]
        if "torch_func_jvp" in rates:
            row["per_layer_over_torch_func_jvp"] = rates["per_layer"] / rates["torch_func_jvp"]
        scoring.append(row)
        print(f"{name}: scored", file=sys.stderr)
    if scoring:
        print_scoring(scoring)
    trees = {"this": None, **({"baseline": args.baseline} if args.baseline else {})}
    by_tree = training_times(args.epochs, args.train_repeats, trees)
    rows = [{"head": label, "method": name, **v} for label, times in by_tree.items()
            for name, v in times.items()]
    ratios = {label: {"best": t["fis"]["seconds"] / t["erm"]["seconds"],
                      "median": t["fis"]["median_seconds"] / t["erm"]["median_seconds"],
                      "paired": paired_median(t["fis"]["all_seconds"], t["erm"]["all_seconds"])}
              for label, t in by_tree.items()}
    print(f"\ntraining, DigitsB, {args.epochs} epochs each, fresh process per run, "
          f"interleaved, {args.train_repeats} runs each")
    print_table(rows, ["head", "method", "seconds", "median_seconds", "test_acc", "test_dp"])
    for label, r in ratios.items():
        print(f"fis_over_erm_time[{label}] = {r['best']:.3f} (best), {r['median']:.3f} (median), "
              f"{r['paired']:.3f} (median of each repeat's FIS / ERM)")
    write_json(args.json, {"benchmark": "fis", "backend": jax.default_backend(),
                           "scoring": scoring, "epochs": args.epochs,
                           "train_repeats": args.train_repeats, "training": by_tree["this"],
                           "fis_over_erm_time": ratios["this"]["best"],
                           "fis_over_erm_time_median": ratios["this"]["median"],
                           "fis_over_erm_time_paired": ratios["this"]["paired"],
                           **({"baseline": {"dir": args.baseline,
                                            "training": by_tree["baseline"],
                                            "fis_over_erm_time": ratios["baseline"]["best"],
                                            "fis_over_erm_time_median":
                                                ratios["baseline"]["median"],
                                            "fis_over_erm_time_paired":
                                                ratios["baseline"]["paired"]}}
                              if args.baseline else {})})


def print_scoring(scoring):
    print(f"influence scoring, K=2 directions, examples/s, {jax.default_backend()}")
    print_table(scoring, ["model", "px", "batch", "jvp", "per_layer", "per_example",
                          "per_layer_grads", "plain_vmap", "torch_func_vmap_grad",
                          "torch_func_jvp"])
    print_table(scoring, ["model", "jvp_over_torch_func_jvp", "per_layer_over_torch_func_jvp",
                          "jvp_over_torch_func_vmap_grad", "per_layer_over_torch_func_vmap_grad",
                          "per_example_over_torch_func_vmap_grad",
                          "per_layer_grads_over_torch_func_vmap_grad",
                          "per_example_over_plain_vmap", "per_layer_grads_over_plain_vmap"])


if __name__ == "__main__":
    main()
