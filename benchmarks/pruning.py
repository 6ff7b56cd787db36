"""What pruning trials would save on a finished benchmark, replayed from its run directories.

    python benchmarks/pruning.py --workdir runs/bench --json benchmarks/results/pruning.json

The benchmark trains every trial to its early stop, as the paper does. This script replays each
trained method's study in trial order through Optuna's pruners, reporting to each trial the
validation value of the sweep's objective that its log.jsonl holds for every epoch: a trial a
pruner stops at epoch k would have trained k epochs instead of all of them. Then it selects
again on the trials no pruner stopped (DTO for ERM, fairness-without-harm for the others, against
the new ERM baseline) and says which selections change. Post-fit methods train no epochs and
are fitted on ERM's choice: where that changes they would be fitted again.

What the replay cannot see: with pruning the sampler would have proposed other trials after the
first pruned one, and a budget of finished trials would add trials for the pruned ones (here
they count as spent).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402


def pruners():
    """Name -> a new pruner: Optuna's median and successive-halving rules, and none (the
    check: nothing saved, nothing changed)."""
    import optuna

    return {
        "none": optuna.pruners.NopPruner,
        "median (Optuna's defaults: 5 start-up trials)": optuna.pruners.MedianPruner,
        "median, 2 start-up trials, 2 warm-up epochs": lambda: optuna.pruners.MedianPruner(
            n_startup_trials=2, n_warmup_steps=2),
        "successive halving (Optuna's defaults)": optuna.pruners.SuccessiveHalvingPruner,
    }


def study_trials(workdir: str, storage, dataset: str, method: str) -> list[dict]:
    """The complete trials of a study in trial order: {"dir", "log", "value"}."""
    import optuna

    from nhfair_jax.rundir import RunDir

    study = optuna.load_study(study_name=f"{dataset}/{method}", storage=storage)
    out = []
    for t in sorted(study.get_trials(deepcopy=False), key=lambda t: t.number):
        if t.state.name == "COMPLETE":
            run_dir = RunDir(os.path.join(workdir, t.user_attrs["run_dir"]))
            out.append({"dir": run_dir.path, "log": run_dir.log(), "value": t.value})
    return out


def replay(trials: list[dict], key: str, direction: str, make_pruner) -> dict:
    """{trial dir: (epochs it would have trained, whether it was pruned)} under one pruner."""
    import optuna

    study = optuna.create_study(direction=direction, pruner=make_pruner())
    out = {}
    for t in trials:
        trial = study.ask()
        out[t["dir"]] = (len(t["log"]), False)
        for entry in t["log"]:
            trial.report(float(entry[key]), int(entry["epoch"]))
            if trial.should_prune():
                out[t["dir"]] = (int(entry["epoch"]), True)
                break
        if out[t["dir"]][1]:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(trial, t["value"])
    return out


def reselect(workdir: str, dataset: str, methods, kept: set) -> dict:
    """{method: selected dir or None} on the candidates in `kept` (every method's, post-fit
    ones aside), with the module's own selection rules."""
    import numpy as np

    from nhfair_jax.methods import spec
    from nhfair_jax.selection import dto_select, fwh_select
    from nhfair_jax.sweep import collect

    erm = [r for r in collect.candidates(workdir, dataset, "erm") if r["dir"] in kept]
    base = erm[dto_select(np.stack([r["group"]["val"] for r in erm]),
                          utility=np.array([r["result"]["val"]["utility"] for r in erm]))]
    out = {"erm": base["dir"]}
    for method in methods:
        if method == "erm" or "base_run" in spec(method).needs:
            continue
        runs = [r for r in collect.candidates(workdir, dataset, method) if r["dir"] in kept]
        j = None
        if runs:
            j, _ = fwh_select(base["group"]["val"], np.stack([r["group"]["val"] for r in runs]),
                              np.array([r["result"]["val"]["gap"] for r in runs]))
        out[method] = None if j is None else runs[j]["dir"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", required=True, help="a finished benchmark's workdir")
    parser.add_argument("--storage", default=None, help="its study storage (default: the "
                        "workdir's own)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    import ml_collections

    from nhfair_jax.benchmark import dataset_methods
    from nhfair_jax.methods import spec
    from nhfair_jax.rundir import read_json
    from nhfair_jax.sweep import collect
    from nhfair_jax.sweep.runner import OBJECTIVES, open_storage, quiet_optuna, storage_url

    quiet_optuna()
    bench = ml_collections.ConfigDict(read_json(os.path.join(args.workdir,
                                                             "benchmark_config.json")))
    storage = open_storage(storage_url(args.storage, args.workdir), 60, 120)
    key, direction = f"val_{bench.objective}", OBJECTIVES[bench.objective]
    ran = {d: dataset_methods(bench, d) for d in bench.datasets}  # a data set's skip_methods out
    methods = sorted({m for d in ran for m in ran[d]
                      if spec(m).trains and "base_run" not in spec(m).needs},
                     key=list(bench.methods).index)
    studies = {(d, m): study_trials(args.workdir, storage, d, m)
               for d in bench.datasets for m in methods if m in ran[d]}
    rows = []
    for name, make in pruners().items():
        trained = {}
        for trials in studies.values():
            trained.update(replay(trials, key, direction, make))
        epochs = sum(len(t["log"]) for trials in studies.values() for t in trials)
        kept = {d for d, (_, pruned) in trained.items() if not pruned}
        changed = []
        for dataset in bench.datasets:
            before = collect.select(args.workdir, dataset, ran[dataset])
            after = reselect(args.workdir, dataset, ran[dataset], kept)
            for method, chosen in after.items():
                was = before[method]["selected"]
                if (was and was["dir"]) != chosen:
                    changed.append(f"{dataset}/{method}")
        rows.append({"pruner": name, "trials": len(trained),
                     "pruned": len(trained) - len(kept), "epochs": epochs,
                     "epochs_pruned": sum(n for n, _ in trained.values()),
                     "saved": round(1 - sum(n for n, _ in trained.values()) / epochs, 4),
                     "selections_changed": ", ".join(changed) or "none"})
    print(f"{args.workdir}: {sum(map(len, studies.values()))} trials of {', '.join(methods)} "
          f"replayed on {key}")
    print_table(rows, ["pruner", "trials", "pruned", "epochs", "epochs_pruned", "saved",
                       "selections_changed"])
    write_json(args.json, {"workdir": args.workdir, "objective": key, "rows": rows})


if __name__ == "__main__":
    main()
