"""The training-choice study: one knob at a time around a base configuration, every cell over the
configured seeds, and the report of the benchmark paper's Appendix C.

    python -m nhfair_jax.study.choices --config configs/choices_digitsb.py --workdir runs/choices

The base is the DTO-selected ERM of a finished benchmark workdir (`base_workdir`), or the data
sets, overrides and `base_params` of the study config. The knobs (`choices.*`; empty: not
studied): optimizer (each with its own learning-rate grid), batch size, weight-decay type (none /
l1 / l2, each with its own strength grid), depth (ResNet-18/34/50/101, or the small CNN's
widths), pretrained weights or not, RandAugment on or off; and `methods`: each listed method with
and without RandAugment, on the data sets of `method_datasets` (empty: every one). A value with a grid runs every grid point with the first seed, keeps the
point DTO selects on validation (as the benchmark selects ERM) and re-runs it with every seed.

Run directories are the benchmark's (Sweeper.train_run: a hash of data set, method, parameters and
seed; locks; resumption): a finished run is never trained again, and a cell whose parameters equal
a benchmark run's reads that run from `base_workdir` instead of training. Parameters equal to the
base configuration's are left out of a cell before hashing, so the base cell is the benchmark's.

The report (nhfair_jax/study/choices_report.py) has the paper's Tables 9-13 and 22 and Figures
6-10 and 12.

References:
  "Benchmarking Bias Mitigation Toward Fairness Without Harm from Vision to LVLMs", Appendix C.1
  and Appendix F (Table 22).
"""

from __future__ import annotations

import os

import ml_collections
import numpy as np

from nhfair_jax import rundir
from nhfair_jax.cli import describe_error, fail
from nhfair_jax.config import load_config_file
from nhfair_jax.config_schema import CHOICES as STUDY_SCHEMA
from nhfair_jax.config_schema import check_config, check_run
from nhfair_jax.data import reused_sources
from nhfair_jax.errors import UserError
from nhfair_jax.methods import BASELINE, registered, spec
from nhfair_jax.models import RESNET_NAMES
from nhfair_jax.report.gather import read_bench_config
from nhfair_jax.rundir import RunDir, config_to_json
from nhfair_jax.selection import dto_select
from nhfair_jax.study.choices_report import CHOICES, write_report
from nhfair_jax.sweep import collect
from nhfair_jax.sweep.runner import Sweeper, config_hash, flatten, log_line
from nhfair_jax.training.optim import OPTIMIZERS

# --- cells ---------------------------------------------------------------------------------------

def _label(value) -> str:
    if isinstance(value, (tuple, list)):
        return "-".join(str(v) for v in value)
    return str(value)


def choice_values(study, base) -> dict:
    """{choice: [(value label, {key: value} set, {key: grid values})]} of the study config, checked
    against the resolved base config `base`; a value the base cannot take is a UserError."""

    c, out = study.choices, {}
    unknown = sorted(set(c.keys()) - set(CHOICES))
    if unknown:
        raise UserError(f"unknown choice(s) {unknown} in choices; known: {', '.join(CHOICES)}")
    for name, grid in dict(c.get("optimizer") or {}).items():
        if name not in OPTIMIZERS:
            raise UserError(f"choices.optimizer: unknown optimizer {name!r}; known: "
                            f"{', '.join(OPTIMIZERS)}")
        out.setdefault("optimizer", []).append((name, {"optim.name": name},
                                                 {"optim.lr": tuple(grid)}))
    for size in c.get("batch_size") or ():
        out.setdefault("batch_size", []).append((str(size), {"train.batch_size": int(size)}, {}))
    for mode, grid in dict(c.get("weight_decay") or {}).items():
        if mode not in ("none", "l1", "l2"):
            raise UserError(f"choices.weight_decay: unknown type {mode!r}; known: none, l1, l2")
        strengths = (0.0,) if mode == "none" else tuple(grid)
        out.setdefault("weight_decay", []).append((mode, {"optim.wd_mode": mode},
                                                    {"optim.weight_decay": strengths}))
    model = base.model.name
    for value in c.get("depth") or ():
        if model == "small_cnn":
            if isinstance(value, str):
                raise UserError(f"choices.depth: {value!r} is a model name, but the base model "
                                "is small_cnn, whose depth is its widths: give width tuples such "
                                "as (8, 16) and (8, 16, 32)")
            out.setdefault("depth", []).append((_label(value), {"model.cnn_widths":
                                                                tuple(int(v) for v in value)}, {}))
            continue
        if value not in RESNET_NAMES:
            raise UserError(f"choices.depth: {value!r} is not a depth of {model}; give model "
                            f"names among {', '.join(RESNET_NAMES)}")
        params = {"model.name": value}
        if base.model.pretrained_path:  # each depth loads its own ImageNet weights
            path = dict(study.get("pretrained_paths") or {}).get(value)
            if value != model and not path:
                raise UserError(f"choices.depth: the base model is pretrained, but "
                                f"pretrained_paths names no weights for {value}")
            params["model.pretrained_path"] = path or base.model.pretrained_path
        out.setdefault("depth", []).append((value, params, {}))
    for on in c.get("pretrained") or ():
        if model == "small_cnn":
            raise UserError("choices.pretrained: the small CNN has no pretrained weights; study "
                            "pretraining with a ResNet base model (or leave choices.pretrained "
                            "empty)")
        path = base.model.pretrained_path or dict(study.get("pretrained_paths") or {}).get(model)
        if on and not path:
            raise UserError(f"choices.pretrained: no weights for {model}: set "
                            f"model.pretrained_path in the base or pretrained_paths.{model}")
        out.setdefault("pretrained", []).append(
            ("yes" if on else "no", {"model.pretrained_path": path if on else ""}, {}))
    for on in c.get("randaugment") or ():
        out.setdefault("randaugment", []).append(("on" if on else "off",
                                                  {"train.randaugment": bool(on)}, {}))
    for name, values in out.items():
        empty = [label for label, _, g in values if any(len(v) == 0 for v in g.values())]
        if empty:
            raise UserError(f"choices.{name}: empty grid for {empty}")
    return out


def _check_config_file(entry) -> None:
    try:
        load_config_file(entry.config)
    except FileNotFoundError as e:
        raise UserError(str(e)) from e


class Study:
    """The cells of a study config: base parameters per data set, and their run directories."""

    def __init__(self, study, workdir: str):
        self.study, self.workdir = study, workdir
        self.seeds = [int(s) for s in study.seeds]
        if not self.seeds:
            raise UserError("seeds is empty in the study config; give at least one seed")
        self.base_workdir = study.base_workdir or None
        bench = ml_collections.ConfigDict()
        self.base_params, self.bench_seed0, self.method_params = {}, None, {}
        if self.base_workdir:
            saved = read_bench_config(self.base_workdir)
            bench.datasets = ml_collections.ConfigDict(saved["datasets"])
            bench.overrides = ml_collections.ConfigDict(saved.get("overrides", {}))
            bench.method_overrides = ml_collections.ConfigDict(saved.get("method_overrides", {}))
            self.bench_seed0 = int(saved["seeds"][0])
            for dataset in bench.datasets:
                chosen = collect.select(self.base_workdir, dataset,
                                        [BASELINE, *study.methods])
                if not chosen or chosen[BASELINE]["selected"] is None:
                    raise UserError(f"{self.base_workdir} has no finished ERM trial for "
                                    f"{dataset}; finish the benchmark first")
                self.base_params[dataset] = dict(chosen[BASELINE]["selected"]["params"]["params"])
                for m in study.methods:  # the benchmark's selection of each method, if any
                    if chosen.get(m, {}).get("selected") is not None:
                        self.method_params[(dataset, m)] = dict(
                            chosen[m]["selected"]["params"]["params"])
        else:
            bench.datasets = study.datasets
            bench.overrides = study.overrides
            bench.method_overrides = ml_collections.ConfigDict()
            for dataset in bench.datasets:
                self.base_params[dataset] = flatten(study.base_params)
        if not bench.datasets:
            raise UserError("the study names no data set (datasets, or a base_workdir)")
        for entry in bench.datasets.values():
            _check_config_file(entry)
        self.sweeper = Sweeper(bench, workdir, None, log=log_line)
        self.base_sweeper = Sweeper(bench, self.base_workdir, None) if self.base_workdir else None

    def config(self, dataset, method, params, seed=0):
        return self.sweeper.run_config(dataset, method, params, seed)

    def cell_params(self, dataset: str, method: str, base: dict, change: dict) -> dict:
        """base + change, minus keys whose value the base configuration has already."""
        resolved = flatten(self.config(dataset, method, base).to_dict())
        params = dict(base)
        for key, value in change.items():
            same = key in resolved and _canon(resolved[key]) == _canon(value)
            if same and key not in base:
                continue
            params[key] = value
        return params

    def benchmark_run(self, dataset, method, params, seed) -> str | None:
        """The finished benchmark run of these parameters and seed, if base_workdir has one."""
        if not self.base_sweeper:
            return None
        trial = self.base_sweeper.run_dir("trials", dataset, method, params, seed)
        name = os.path.basename(self.base_sweeper.run_dir("trials", dataset, method, params,
                                                          self.bench_seed0))
        re_run = os.path.join(self.base_workdir, "seeds", dataset, method, name, f"s{seed}")
        return next((d for d in (trial, re_run) if RunDir(d).finished), None)

    def run(self, dataset, method, params, seed) -> dict:
        """{"dir", "result", "trained", "reused"}: the benchmark's run, or the study's own."""
        found = self.benchmark_run(dataset, method, params, seed)
        if found:
            return {"dir": found, "result": RunDir(found).result(), "trained": False,
                    "reused": True}
        done = self.sweeper.train_run("runs", dataset, method, params, seed)
        return {**done, "reused": False}


def _canon(value):
    if isinstance(value, (tuple, list)):
        return [_canon(v) for v in value]
    return value


def plan(study, workdir: str) -> tuple[Study, list[dict]]:
    """Every cell of the study, checked before anything trains: [{"dataset", "choice", "value",
    "method", "points": [params of each grid point]}]."""
    check_config(study, STUDY_SCHEMA, what="the study config")
    for m in study.methods:
        if m not in registered():
            raise UserError(f"methods: unknown method {m!r}; registered: "
                            f"{', '.join(registered())}")
        if not spec(m).trains:
            raise UserError(f"methods: {m!r} is not trained (post-fit or zero-shot), so "
                            "RandAugment cannot change it; list trained methods only")
    s = Study(study, workdir)
    method_datasets = tuple(study.get("method_datasets", ()) or ())
    unknown = [d for d in method_datasets if d not in s.sweeper.bench.datasets]
    if unknown:
        raise UserError(f"method_datasets: {unknown} are not data sets of the study; it has "
                        f"{', '.join(s.sweeper.bench.datasets)}")
    cells = []
    for dataset in s.sweeper.bench.datasets:
        base = s.base_params[dataset]
        base_config = s.config(dataset, "erm", base)
        cells.append({"dataset": dataset, "choice": "base", "value": "base", "method": "erm",
                      "points": [dict(base)]})
        for choice, values in choice_values(study, base_config).items():
            for label, change, grid in values:
                points = [{**change, **dict(zip(grid, combo))} for combo in _product(grid)]
                cells.append({"dataset": dataset, "choice": choice, "value": label,
                              "method": "erm",
                              "points": [s.cell_params(dataset, "erm", base, p) for p in points]})
        for m in (study.methods if not method_datasets or dataset in method_datasets else ()):
            own = s.method_params.get((dataset, m)) or {
                **base, **{f"method.{k}": v for k, v in
                           flatten(dict(study.method_params).get(m, {})).items()}}
            for on in (False, True):
                cells.append({"dataset": dataset, "choice": "method_randaug",
                              "value": "+RA" if on else "base", "method": m,
                              "points": [s.cell_params(dataset, m, own,
                                                       {"train.randaugment": on})]})
        for c in cells:  # every run config builds (bad keys, types, ranges) before anything trains
            for p in c["points"]:
                check_run(s.config(c["dataset"], c["method"], p))
    return s, cells


def _product(grid: dict):
    import itertools

    return itertools.product(*grid.values()) if grid else [()]


# --- running ---------------------------------------------------------------------------------

def run_study(study, workdir: str, *, report: bool = True, plots: bool = True) -> dict:
    """Runs (or reads) every cell; writes study.json and, with report, the report.

    Returns: {"cells": cells with "selected" (the chosen point) and "runs" (its runs by seed),
    "trained": runs trained by this call, "reused": runs read from base_workdir, and the
    report's "markdown" / "rows" when written}.
    """

    s, cells = plan(study, workdir)
    for c in cells:  # weights files, before the first run trains
        for p in c["points"]:
            path = s.config(c["dataset"], c["method"], p).model.pretrained_path
            if path and not os.path.isfile(path):
                raise UserError(f"{c['choice']}={c['value']} ({c['dataset']}): pretrained "
                                f"weights not found at {path}; put the torchvision .pth file "
                                "there or point pretrained_paths / model.pretrained_path at it")
    os.makedirs(workdir, exist_ok=True)
    rundir.write_json(os.path.join(workdir, "study_config.json"), config_to_json(study))
    trained = reused = 0
    memo = {}

    def run(dataset, method, params, seed):
        nonlocal trained, reused
        key = (dataset, method, config_hash(params), seed)
        if key not in memo:
            memo[key] = s.run(dataset, method, params, seed)
            memo[key]["group"] = collect.load_run(memo[key]["dir"])["group"]
            trained += memo[key]["trained"]
            reused += memo[key]["reused"]
        return memo[key]

    for c in cells:
        first = [run(c["dataset"], c["method"], p, s.seeds[0]) for p in c["points"]]
        j = 0 if len(first) == 1 else dto_select(
            np.stack([r["group"]["val"] for r in first]),
            utility=[r["result"]["val"]["utility"] for r in first])
        c["selected"] = c["points"][j]
        c["grid_runs"] = [{"params": p, **r} for p, r in zip(c["points"], first)]
        c["runs"] = [first[j]] + [run(c["dataset"], c["method"], c["selected"], seed)
                                  for seed in s.seeds[1:]]
        log_line(f"[{c['dataset']}] {c['choice']}={c['value']} ({c['method']}): "
                 f"{len(c['runs'])} seed runs")
    out = {"cells": cells, "trained": trained, "reused": reused, "seeds": s.seeds,
           "base_params": s.base_params, "percent": bool(study.get("report_percent", False))}
    summary = [{k: c[k] for k in ("dataset", "choice", "value", "method", "selected")} |
               {"runs": [os.path.relpath(r["dir"], workdir) if r["dir"].startswith(workdir)
                         else r["dir"] for r in c["runs"]]} for c in cells]
    rundir.write_json(os.path.join(workdir, "study.json"),
                  {"cells": summary, "trained": trained, "reused": reused})
    if report:
        out.update(write_report(out, workdir, plots=plots))
    return out


def main(argv) -> None:
    del argv
    from absl import logging

    logging.set_verbosity(logging.WARNING)
    try:
        workdir = _WORKDIR.value or os.path.join("runs", "choices")
        with reused_sources():  # the study's runs of a data setting read the same arrays
            out = run_study(_CONFIG.value, workdir)
        print(out["markdown"])
        print(f"{out['trained']} runs trained, {out['reused']} reused; report: "
              f"{os.path.join(workdir, 'report.md')} (and report.html, results.csv, plots/)")
    except Exception as e:  # noqa: BLE001 - every failure reaches the user as one line

        fail(describe_error(e))


if __name__ == "__main__":
    from absl import app, flags
    from ml_collections import config_flags

    from nhfair_jax.cli import parse_flags

    _CONFIG = config_flags.DEFINE_config_file("config", None, "A configs/choices_*.py file.",
                                              lock_config=True)
    _WORKDIR = flags.DEFINE_string("workdir", None, "Study directory (created if missing).")
    flags.mark_flags_as_required(["config"])
    app.run(main, flags_parser=parse_flags)
