"""Selection from run directories alone: the candidates of each (data set, method), the DTO
baseline, each method's fairness-without-harm choice, the M rule, and the seed re-runs.

Layout under the benchmark workdir:
  trials/<data set>/<method>/<hash>-s<seed>/   one directory per sweep trial
  seeds/<data set>/<method>/<trial dir>/s<k>/  re-runs of a selected trial with seed k
Every run directory holds config.json, params.json and (once finished) result.json; a trial
a sweep's pruner stopped holds pruned.json instead, and is never a candidate.
"""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.methods import spec
from nhfair_jax.methods.registry import BASELINE
from nhfair_jax.rundir import RunDir
from nhfair_jax.selection import dto_select, fwh_select, fwh_zone, max_utility_select


def load_run(run_dir: str) -> dict | None:
    """A finished run directory as a selection candidate (None while it is not finished)."""
    folder = RunDir(run_dir)
    result = folder.result()
    if result is None:
        return None
    params = folder.params()
    config = folder.config()
    utility = config["eval"]["utility"]
    return {"dir": folder.path, "name": folder.name, "params": params,
            "result": result, "utility": utility,
            "data_name": (config.get("data") or {}).get("name"),
            "group": {s: np.asarray([np.nan if v is None else v
                                     for v in result[s][f"group_{utility}"]], float)
                      for s in ("val", "test")}}


def candidates(workdir: str, dataset: str, method: str, *, base_run=None) -> list[dict]:
    """Finished trials of a method, ordered by directory name (the candidate id); post-fit
    methods keep only trials fitted on `base_run`."""
    folder = os.path.join(workdir, "trials", dataset, method)
    if not os.path.isdir(folder):
        return []
    runs = [load_run(os.path.join(folder, name)) for name in sorted(os.listdir(folder))]
    runs = [r for r in runs if r is not None]
    if base_run is not None:
        runs = [r for r in runs if r["params"].get("base_run") and
                os.path.basename(r["params"]["base_run"]) == os.path.basename(base_run)]
    return runs


def pruned_trials(workdir: str, dataset: str, method: str) -> list[dict]:
    """The trials a sweep's pruner stopped: {"dir", "epochs" (trained before it stopped),
    "seconds" (their training and validation)}, ordered by directory name."""
    folder = os.path.join(workdir, "trials", dataset, method)
    out = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        run = RunDir(os.path.join(folder, name))
        if run.pruned() is not None:
            log = run.log()
            out.append({"dir": run.path, "epochs": len(log),
                        "seconds": sum(e.get("time_train_s", 0.0) + e.get("time_eval_s", 0.0)
                                       for e in log)})
    return out


def select(workdir: str, dataset: str, methods) -> dict:
    """{method: selection} for one data set; ERM first (DTO), then every other method (FWH)."""
    erm = candidates(workdir, dataset, BASELINE)
    if not erm:
        return {}
    erm_perf = np.stack([r["group"]["val"] for r in erm])
    i = dto_select(erm_perf, utility=np.array([r["result"]["val"]["utility"] for r in erm]))
    baseline = erm[i]
    out = {BASELINE: {"selected": baseline, "candidates": erm, "zone": None,
                   "m_rule": erm[max_utility_select([r["result"]["val"]["utility"]
                                                     for r in erm])]}}
    for method in methods:
        if method == BASELINE:
            continue
        record = spec(method)
        runs = candidates(workdir, dataset, method, base_run=baseline["dir"]) \
            if record.fitted_on_base_run else candidates(workdir, dataset, method)
        if not runs:
            out[method] = {"selected": None, "candidates": [], "zone": None, "m_rule": None}
            continue
        perf = np.stack([r["group"]["val"] for r in runs])
        gaps = np.array([r["result"]["val"]["gap"] for r in runs])
        j, _ = fwh_select(baseline["group"]["val"], perf, gaps)
        for r in runs:
            r["zone"] = fwh_zone(baseline["group"]["val"], r["group"]["val"])
        if j is None and record.reported_when_unwanted:
            # A pretrained model is reported even when every candidate is unwanted (the
            # paper's Table 3); its zone says so. Among its candidates: DTO, as for ERM.
            j = dto_select(perf, utility=np.array([r["result"]["val"]["utility"] for r in runs]))
        out[method] = {
            "selected": None if j is None else runs[j], "candidates": runs,
            "zone": None if j is None else runs[j]["zone"],
            "m_rule": runs[max_utility_select([r["result"]["val"]["utility"] for r in runs])]}
    return out


def seed_runs(workdir: str, dataset: str, method: str, selected: dict) -> list[dict]:
    """The selected trial (its own seed) plus its finished seed re-runs, ordered by seed."""
    folder = os.path.join(workdir, "seeds", dataset, method, selected["name"])
    runs = [selected]
    if os.path.isdir(folder):
        runs += [r for r in (load_run(os.path.join(folder, n)) for n in sorted(os.listdir(folder)))
                 if r is not None]
    return sorted(runs, key=lambda r: r["params"]["seed"])
