"""The individual-fairness baselines at their defaults on DigitsB against ERM, by the rule they
are held to: test accuracy within 5 points of ERM's and CD no worse than ERM's at each seed, DEO
no worse on the mean over the seeds (DEO on DigitsB's 179 test images moves with the seed alone).

    python benchmarks/if_defaults.py --workdir runs/if_defaults \
        --json benchmarks/results/if_defaults.json

Each run is `configs/digitsb.py:<method>` at its defaults (the small CNN at 32 px, up to 30
epochs) with the seed changed, and LASSI's certificate with 100 votes instead of 1,000 (it
changes no prediction). Run directories are kept: a rerun trains nothing new. ERM's and
SenSeI's runs take under a minute each on a 2-core CPU, LASSI's about ten (its flow's 10 epochs
on top), so it is a measurement, not a test; tests/test_if_defaults.py holds SenSeI's half.
`--set KEY=VALUE` (repeatable) changes a field of every run's config, ERM's too, e.g.
`--set data.options.roles=code` for DigitsB built as the counterfactual study's authors' code
builds it (give it a workdir of its own: run directories are reused by method and seed).
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402

ACC_MARGIN = 0.05
CHEAP_CERTIFICATE = {"lassi": {"cert_n": 100, "cert_n0": 10}}


def verdict(method: dict, erm: dict, acc_margin: float = ACC_MARGIN) -> dict:
    """The rule on test results by seed ({seed: {"acc", "cd", "deo"}}, the same seeds for both):
    {"acc": [per seed], "cd": [per seed], "deo_mean": bool, "holds": bool}."""
    seeds = sorted(erm)
    acc = [method[s]["acc"] >= erm[s]["acc"] - acc_margin for s in seeds]
    cd = [method[s]["cd"] <= erm[s]["cd"] for s in seeds]
    deo = float(np.mean([method[s]["deo"] for s in seeds])) <= float(
        np.mean([erm[s]["deo"] for s in seeds]))
    return {"acc": acc, "cd": cd, "deo_mean": deo, "holds": all(acc) and all(cd) and deo}


def run_at_defaults(workdir: str, method: str, seed: int, sets: tuple = ()) -> dict:
    import ast

    from nhfair_jax.config import load_config_file
    from nhfair_jax.dispatch import run
    from nhfair_jax.sweep.runner import set_dotted

    c = load_config_file(f"configs/digitsb.py:{method}")
    c.train.progress, c.seed = False, seed
    for item in sets:
        key, _, text = item.partition("=")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = text  # a bare word: a string
        set_dotted(c, key, value)
    for key, value in CHEAP_CERTIFICATE.get(method, {}).items():
        c.method[key] = value
    test = run(c, os.path.join(workdir, f"{method}_{seed}"))["test"]
    return {k: float(test[k]) for k in ("acc", "cd", "deo")}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workdir", default="runs/if_defaults")
    p.add_argument("--methods", default="sensei,lassi")
    p.add_argument("--seeds", default="0,1")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a config field of every run, e.g. data.options.roles=code")
    p.add_argument("--json")
    args = p.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    results = {m: {s: run_at_defaults(args.workdir, m, s, tuple(args.set)) for s in seeds}
               for m in ["erm", *args.methods.split(",")]}
    rows, verdicts = [], {}
    for m, by_seed in results.items():
        for s, r in by_seed.items():
            rows.append({"method": m, "seed": s, **r})
        if m != "erm":
            verdicts[m] = verdict(by_seed, results["erm"])
    print_table(rows, ["method", "seed", "acc", "cd", "deo"])
    for m, v in verdicts.items():
        print(f"{m}: the rule {'holds' if v['holds'] else 'FAILS'} (accuracy within "
              f"{ACC_MARGIN:.0%} by seed {v['acc']}, CD no worse by seed {v['cd']}, mean DEO no "
              f"worse {v['deo_mean']})")
    write_json(args.json, {"seeds": seeds, "set": args.set, "results": results,
                           "verdicts": verdicts})


if __name__ == "__main__":
    main()
