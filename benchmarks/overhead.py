"""What each method costs over ERM (the benchmark paper's Table 15): wall time per epoch and per
run, with data loading, training, validation, testing and compilation reported apart, peak
memory and extra parameters, on the same data, model and epochs.

    python benchmarks/overhead.py --config configs/overhead_digitsb.py \
        --json benchmarks/results/overhead.json

Every registered trained method (or the config's `methods`) runs in a fresh subprocess of its
own, one after another in one process tree: ERM again after every `erm_every` methods of each
round (ERM interleaved, so a change of machine load reaches both sides), `repeats` rounds, and
each figure is the best (smallest) of its runs. Ratios divide a method's best by the best of the
ERM runs just before its runs (as many as it has, at the same machine load).
Post-fit methods (fitted on a finished ERM run) and zero-shot methods (never trained) are listed
as skipped with the reason, as are methods that need a teacher run unless
`method_overrides.<method>` supplies one, and methods whose first run fails (counterfactual pairs
on a data set without them), with the run's one-line error.

Parameters: "extra params" are elements of the parameters the run's optimizer trains (per-group
heads, a projection head) beyond ERM's; "extra state" are those of the method's own state
(LAFTR's adversary, trained by its own optimizer whose moments are not counted; also per-row or
per-group bookkeeping such as FIS's selection or GroupDRO's group weights).

Compilation: the seconds JAX spends tracing, lowering and compiling (its monitoring events),
attributed to the phase that triggered them and subtracted from it; "per epoch" is training plus
validation without compilation, over the epochs run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PHASES = ("data", "train", "val", "test")
COMPILE_EVENTS = ("/jax/core/compile/jaxpr_trace_duration",
                  "/jax/core/compile/jaxpr_to_mlir_module_duration",
                  "/jax/core/compile/backend_compile_duration")
# The benchmark paper's Table 15 (PyTorch, seconds per run averaged over CelebA, UTKFace, FairFace
# and Facet), as ratios to its ERM average of 58.34 s.
PAPER_SECONDS = {"erm": 58.34, "randaug": 59.42, "mixup": 58.13, "resampling": 58.21,
                 "bias_mimicking": 59.12, "fis": 73.54, "decoupled": 58.76, "laftr": 84.93,
                 "fscl": 62.09, "gapreg": 58.59, "mcdp": 58.59, "groupdro": 58.69}
PAPER_PARAMS = {"bias_mimicking": 1024, "decoupled": 1024, "laftr": 65921}


def load_overhead_config(path: str):
    from nhfair_jax.errors import UserError
    from nhfair_jax.config import load_config_file

    try:
        c = load_config_file(path)
    except FileNotFoundError as e:
        raise UserError(str(e)) from e
    for key in ("config", "overrides", "methods", "method_overrides", "repeats", "erm_every"):
        if key not in c:
            raise UserError(f"{path}: the overhead config lacks {key!r} (see "
                            "configs/overhead_digitsb.py)")
    if int(c.repeats) < 1 or int(c.erm_every) < 1:
        raise UserError(f"{path}: repeats and erm_every must be >= 1, got {c.repeats} and "
                        f"{c.erm_every}")
    plan_methods(c)  # unknown methods: named with the registered ones
    from nhfair_jax.config_schema import OVERHEAD, check_config

    check_config(c, OVERHEAD, what=path)
    return c


def plan_methods(c) -> tuple[list[str], dict]:
    """(methods to time, ERM excluded; {skipped method: reason})."""
    from nhfair_jax.errors import UserError
    from nhfair_jax.methods import registered, spec

    names = list(c.methods) or registered()
    unknown = [m for m in names if m not in registered()]
    if unknown:
        raise UserError(f"unknown method(s) {unknown} in methods; registered: "
                        f"{', '.join(registered())}")
    supplied = dict(c.method_overrides)
    timed, skipped = [], {}
    for m in names:
        record = spec(m)
        if m == "erm":
            continue
        if "base_run" in record.needs:
            skipped[m] = ("post-fit: fitted on a finished ERM run, so its cost is ERM's plus "
                          "the fit (left out of Table 15 in the paper too)")
        elif not record.trains:
            skipped[m] = "zero-shot: evaluated with a pretrained checkpoint, never trained"
        elif "teacher" in record.needs and m not in supplied:
            skipped[m] = ("needs a teacher run: give method_overrides."
                          f"{m}.method.teacher_config / teacher_workdir to time it")
        else:  # methods needing pairs run when the data set has them (DigitsB: built in)
            timed.append(m)
    return timed, skipped


def run_config(c, method: str, seed: int = 0):
    """The run config of one method: c.config with c.overrides, the method's defaults, then
    method_overrides.<method> (method.* keys go to the method)."""
    from nhfair_jax.config import load_config_file, method_config
    from nhfair_jax.sweep.runner import flatten, set_dotted

    config = load_config_file(c.config)
    for key, value in flatten(c.overrides).items():
        set_dotted(config, key, value)
    own = flatten(dict(c.method_overrides).get(method, {}))
    config.method = method_config(method, **{k[7:]: v for k, v in own.items()
                                             if k.startswith("method.")})
    for key, value in own.items():
        if not key.startswith("method."):
            set_dotted(config, key, value)
    config.seed = int(seed)
    config.train.progress = False
    return config


# --- the worker: one timed run in its own process ----------------------------------------------

def worker(config_path: str, method: str, out_path: str) -> None:
    import jax
    import jax.monitoring

    from nhfair_jax import rundir
    from nhfair_jax.dispatch import teacher_of
    from nhfair_jax.training import loop

    c = load_overhead_config(config_path)
    config = run_config(c, method, int(c.get("seed", 0)))
    phase = ["data"]
    compiled = dict.fromkeys(PHASES, 0.0)

    def listen(event, duration, **kw):
        if event in COMPILE_EVENTS:
            compiled[phase[0]] += duration

    jax.monitoring.register_event_duration_secs_listener(listen)

    def in_phase(name, fn, when=lambda *a: True):
        def wrapped(*args, **kw):
            before = phase[0]
            if when(*args, **kw):
                phase[0] = name
            try:
                return fn(*args, **kw)
            finally:
                phase[0] = before
        return wrapped

    # Attribution of compilation: patched in this throw-away process only (a hook the trainer no
    # longer has leaves its compilation to the enclosing phase).
    if hasattr(loop.Run, "train_epoch"):
        loop.Run.train_epoch = in_phase("train", loop.Run.train_epoch)
    try:  # the class that evaluates: its own since the trainer was taken apart
        from nhfair_jax.training.evaluator import Evaluator as evaluator
    except ImportError:
        evaluator = loop.Run
    if hasattr(evaluator, "evaluate"):
        evaluator.evaluate = in_phase("val", evaluator.evaluate, lambda self, state, split, *a,
                                      **kw: split == "val" and phase[0] != "test")
    if hasattr(loop, "_finish"):
        loop._finish = in_phase("test", loop._finish)
    # A distilling method's teacher run is trained or loaded before the clock starts.
    teacher = teacher_of(config)
    with tempfile.TemporaryDirectory() as workdir:
        t0 = time.perf_counter()
        result = loop.train(config, workdir, teacher=teacher)
        wall = time.perf_counter() - t0
        with open(os.path.join(workdir, "log.jsonl")) as f:
            log = [json.loads(x) for x in f if x.strip()]
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    device = jax.devices()[0]
    try:
        stats = device.memory_stats() or {}
    except Exception:  # noqa: BLE001 - backends without memory statistics
        stats = {}
    t = result["timings_s"]
    seconds = {"data": t["data"], "train": t["train"], "val": t["eval_per_epoch"],
               "test": t["final_eval"]}
    run = loop.Run(config, None, teacher=teacher)  # the parameter count (untimed)
    params = count_elements(run.state.params)
    state = count_elements(run.state.method_state, skip_optimizer_states=True)
    rundir.write_json(out_path, {
        "method": method, "wall_s": wall, "epochs": len(log), "seconds": seconds,
        "compile_s": compiled, "peak_rss_bytes": peak_rss,
        "peak_device_bytes": stats.get("peak_bytes_in_use"), "params": params,
        "state": state,
        "device": device.platform, "test_utility": result["test"]["utility"]})


def count_elements(tree, *, skip_optimizer_states: bool = False) -> int:
    """Elements of a pytree's arrays; with skip_optimizer_states, optax's states (named tuples:
    an adversary's Adam moments kept in a method state) are left out."""
    import jax

    def is_opt_state(x):
        return skip_optimizer_states and isinstance(x, tuple) and hasattr(x, "_fields")

    return sum(int(getattr(x, "size", 1)) for x in jax.tree.leaves(tree, is_leaf=is_opt_state)
               if not is_opt_state(x))


# --- the parent: rounds, best of N, the table ---------------------------------------------------

def schedule(methods: list[str], repeats: int, erm_every: int) -> list[str]:
    """The order of runs: in each round ERM before every erm_every methods, and ERM once more at
    the end, so that every method has an ERM run near it."""
    if not methods:
        return ["erm"] * repeats
    order = []
    for _ in range(repeats):
        for i, m in enumerate(methods):
            if i % erm_every == 0:
                order.append("erm")
            order.append(m)
    return order + ["erm"]


def run_one(config_path: str, method: str) -> dict:
    from nhfair_jax import rundir

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", method,
                               "--config", config_path, "--out", out], cwd=REPO,
                              capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            return {"method": method, "error": tail[0]}
        return rundir.read_json(out)


def best(runs: list[dict]) -> dict:
    """Per figure, the smallest over the method's runs (times and memory)."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return {"error": runs[-1]["error"]}
    # Compilation outside the phases (model and state initialisation) is in no phase's time.
    net = [{p: r["seconds"][p] - (r["compile_s"][p] if p != "data" else 0.0) for p in PHASES}
           for r in ok]
    per_epoch = [(n["train"] + n["val"]) / max(r["epochs"], 1) for n, r in zip(net, ok)]
    return {"runs": len(ok), "epochs": ok[0]["epochs"], "params": ok[0]["params"],
            "state": ok[0].get("state", 0),
            "run_s": min(r["wall_s"] for r in ok), "per_epoch_s": min(per_epoch),
            **{f"{p}_s": min(n[p] for n in net) for p in PHASES},
            "compile_s": min(sum(r["compile_s"].values()) for r in ok),
            "peak_rss_mb": min(r["peak_rss_bytes"] for r in ok) / 2**20,
            "peak_device_mb": (None if ok[0]["peak_device_bytes"] is None else
                               min(r["peak_device_bytes"] for r in ok) / 2**20),
            "device": ok[0]["device"]}


def measure(config_path: str, log=print, repeats: int | None = None) -> dict:
    from nhfair_jax.errors import UserError

    c = load_overhead_config(config_path)
    if repeats is not None:
        if repeats < 1:
            raise UserError(f"--repeats must be >= 1, got {repeats}")
        c.repeats = repeats
    methods, skipped = plan_methods(c)
    runs: dict[str, list] = {}
    paired: dict[str, list] = {}  # per method, the ERM run just before each of its runs
    load0 = os.getloadavg()[0]
    for m in schedule(methods, int(c.repeats), int(c.erm_every)):
        if m in skipped:
            continue
        r = run_one(config_path, m)
        if "error" in r and m == "erm" and not runs.get(m):
            raise UserError(f"the ERM run failed, so nothing can be compared: {r['error']}")
        if "error" in r and not runs.get(m):
            skipped[m] = f"could not run: {r['error']}"
            log(f"{m}: skipped: {r['error']}")
            continue
        runs.setdefault(m, []).append(r)
        if m != "erm" and "error" not in r:
            paired.setdefault(m, []).append(runs["erm"][-1])
        log(f"{m}: " + (f"error: {r['error']}" if "error" in r else
                        f"{r['wall_s']:.1f} s, {r['epochs']} epochs"))
    figures = {m: best(rs) for m, rs in runs.items()}
    erm = figures.get("erm", {})
    for m, f in figures.items():
        if "error" in f or "error" in erm:
            continue
        # Against the best of the ERM runs beside this method's: the same N on both sides and
        # the same machine load (the best of all ERM runs would favour ERM).
        near = best(paired[m]) if m != "erm" else erm
        f["erm_beside_run_s"] = near["run_s"]
        f["ratio_run"] = f["run_s"] / near["run_s"]
        f["ratio_epoch"] = f["per_epoch_s"] / near["per_epoch_s"]
        f["extra_params"] = f["params"] - erm["params"]
        f["extra_state"] = f["state"] - erm["state"]
        if m in PAPER_SECONDS:
            f["paper_ratio"] = PAPER_SECONDS[m] / PAPER_SECONDS["erm"]
    return {"config": config_path, "repeats": int(c.repeats), "erm_every": int(c.erm_every),
            "load_average": [load0, os.getloadavg()[0]], "methods": figures,
            "wall_s": {m: [r.get("wall_s") for r in rs] for m, rs in runs.items()},
            "skipped": skipped, "order": schedule(methods, int(c.repeats), int(c.erm_every))}


def table_rows(result: dict) -> list[dict]:
    rows = []
    for m, f in result["methods"].items():
        if "error" in f:
            rows.append({"method": m, "note": f"failed: {f['error']}"})
            continue
        rows.append({"method": m, "extra params": f.get("extra_params"),
                     "extra state": f.get("extra_state"),
                     "run s": f["run_s"], "x ERM": f.get("ratio_run"),
                     "epoch s": f["per_epoch_s"], "epoch x ERM": f.get("ratio_epoch"),
                     "data s": f["data_s"], "train s": f["train_s"], "val s": f["val_s"],
                     "test s": f["test_s"], "compile s": f["compile_s"],
                     "peak RSS MB": f["peak_rss_mb"], "paper x ERM": f.get("paper_ratio")})
    for m, why in result["skipped"].items():
        rows.append({"method": m, "note": f"skipped: {why}"})
    return rows


def table15(result: dict, per_block: int = 6) -> str:
    """The paper's Table 15 layout in markdown: methods as columns (blocks of `per_block`), rows
    extra parameters, time per run and per epoch, ratios to ERM, and the paper's ratio."""
    figures = {m: f for m, f in result["methods"].items() if "error" not in f}
    names = ["erm", *[m for m in figures if m != "erm"]]
    rows = [("Extra parameters (optimizer-trained)", lambda f: "–" if not f.get("extra_params")
             else f"{f['extra_params']:,}"),
            ("Extra method state", lambda f: "–" if not f.get("extra_state") else
             f"{f['extra_state']:,}"),
            ("Run, s (best)", lambda f: f"{f['run_s']:.1f}"),
            ("ERM beside it, s (best)", lambda f: f"{f['erm_beside_run_s']:.1f}"
             if "erm_beside_run_s" in f else "n/a"),
            ("Epoch, s (no compilation)", lambda f: f"{f['per_epoch_s']:.2f}"),
            ("Compilation, s", lambda f: f"{f['compile_s']:.1f}"),
            ("Run / ERM (ours)", lambda f: f"{f['ratio_run']:.2f}x"),
            ("Epoch / ERM (ours)", lambda f: f"{f['ratio_epoch']:.2f}x"),
            ("Run / ERM (paper, PyTorch)", lambda f: f"{f['paper_ratio']:.2f}x"
             if "paper_ratio" in f else "n/a")]
    blocks = []
    for i in range(0, len(names), per_block):
        chunk = names[i:i + per_block]
        lines = ["| | " + " | ".join(chunk) + " |", "|---" * (len(chunk) + 1) + "|"]
        lines += ["| " + label + " | " + " | ".join(show(figures[m]) for m in chunk) + " |"
                  for label, show in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


COLUMNS = ["method", "extra params", "extra state", "run s", "x ERM", "epoch s", "epoch x ERM", "data s",
           "train s", "val s", "test s", "compile s", "peak RSS MB", "paper x ERM", "note"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default=os.path.join(REPO, "configs", "overhead_digitsb.py"))
    p.add_argument("--json", default=None)
    p.add_argument("--repeats", type=int, default=None, help="rounds (default: the config's)")
    p.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    p.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    from nhfair_jax.errors import UserError

    try:
        if args.worker:
            worker(args.config, args.worker, args.out)
            return
        result = measure(args.config, log=lambda s: print(s, file=sys.stderr),
                         repeats=args.repeats)
    except (UserError, ValueError) as e:
        sys.exit(f"error: {e}")
    print_table(table_rows(result), COLUMNS)
    print()
    print(table15(result))
    print(f"load average (1 min) at start / end: {result['load_average'][0]:.1f} / "
          f"{result['load_average'][1]:.1f}")
    write_json(args.json, result)


if __name__ == "__main__":
    main()
