"""The training-choice study: one knob at a time around a base configuration, every cell over the
configured seeds, and the report of the benchmark paper's Appendix C.

    python -m nhfair_jax.study.choices --config configs/choices_digitsb.py --workdir runs/choices

The base is the DTO-selected ERM of a finished benchmark workdir (`base_workdir`), or the data
sets, overrides and `base_params` of the study config. The knobs (`choices.*`; empty: not
studied): optimizer (each with its own learning-rate grid), batch size, weight-decay type (none /
l1 / l2, each with its own strength grid), depth (ResNet-18/34/50/101, or the small CNN's
widths), pretrained weights or not, RandAugment on or off; and `methods`: each listed method with
and without RandAugment. A value with a grid runs every grid point with the first seed, keeps the
point DTO selects on validation (as the benchmark selects ERM) and re-runs it with every seed.

Run directories are the benchmark's (Sweeper.train_run: a hash of data set, method, parameters and
seed; locks; resumption): a finished run is never trained again, and a cell whose parameters equal
a benchmark run's reads that run from `base_workdir` instead of training. Parameters equal to the
base configuration's are left out of a cell before hashing, so the base cell is the benchmark's.

References:
  "Benchmarking Bias Mitigation Toward Fairness Without Harm from Vision to LVLMs", Appendix C.1
  (Figures 6-10 and 12; Tables 9-13, whose "Std" rows are the population standard deviation of
  the values' means, as their numbers show) and Appendix F (Table 22).
"""

from __future__ import annotations

import os

import ml_collections
import numpy as np

from nhfair_jax.errors import UserError
from nhfair_jax.report.tables import METRICS, cell, fmt, mean_std
from nhfair_jax.sweep.runner import Sweeper, config_hash, finished, flatten, log_line

CHOICES = ("optimizer", "batch_size", "weight_decay", "depth", "pretrained", "randaugment")
TITLES = {"optimizer": "Optimizer (Table 9)", "batch_size": "Batch size (Table 10)",
          "weight_decay": "Weight decay (Table 11)", "depth": "Model size (Table 12)",
          "pretrained": "Pretrained weights (Figures 6-7)", "randaugment": "RandAugment"}


# --- cells ---------------------------------------------------------------------------------------

def _label(value) -> str:
    if isinstance(value, (tuple, list)):
        return "-".join(str(v) for v in value)
    return str(value)


def choice_values(study, base) -> dict:
    """{choice: [(value label, {key: value} set, {key: grid values})]} of the study config, checked
    against the resolved base config `base`; a value the base cannot take is a UserError."""
    from nhfair_jax.models import RESNET_NAMES
    from nhfair_jax.training.optim import OPTIMIZERS

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


def _check_config_file(spec) -> None:
    from nhfair_jax.config import load_config_file

    try:
        load_config_file(spec.config)
    except FileNotFoundError as e:
        raise UserError(str(e)) from e


class Study:
    """The cells of a study config: base parameters per data set, and their run directories."""

    def __init__(self, study, workdir: str):
        from nhfair_jax.report.gather import read_bench_config
        from nhfair_jax.sweep import collect

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
                                        ["erm", *study.methods])
                if not chosen or chosen["erm"]["selected"] is None:
                    raise UserError(f"{self.base_workdir} has no finished ERM trial for "
                                    f"{dataset}; finish the benchmark first")
                self.base_params[dataset] = dict(chosen["erm"]["selected"]["params"]["params"])
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
        for spec in bench.datasets.values():
            _check_config_file(spec)
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
        return next((d for d in (trial, re_run) if finished(d)), None)

    def run(self, dataset, method, params, seed) -> dict:
        """{"dir", "result", "trained", "reused"}: the benchmark's run, or the study's own."""
        from nhfair_jax.training import io

        found = self.benchmark_run(dataset, method, params, seed)
        if found:
            return {"dir": found, "result": io.read_json(os.path.join(found, "result.json")),
                    "trained": False, "reused": True}
        done = self.sweeper.train_run("runs", dataset, method, params, seed)
        return {**done, "reused": False}


def _canon(value):
    if isinstance(value, (tuple, list)):
        return [_canon(v) for v in value]
    return value


def plan(study, workdir: str) -> tuple[Study, list[dict]]:
    """Every cell of the study, checked before anything trains: [{"dataset", "choice", "value",
    "method", "points": [params of each grid point]}]."""
    from nhfair_jax.methods import method_class, registered

    for m in study.methods:
        if m not in registered():
            raise UserError(f"methods: unknown method {m!r}; registered: "
                            f"{', '.join(registered())}")
        cls = method_class(m)
        if getattr(cls, "post_fit", False) or getattr(cls, "zeroshot", False):
            raise UserError(f"methods: {m!r} is not trained (post-fit or zero-shot), so "
                            "RandAugment cannot change it; list trained methods only")
    s = Study(study, workdir)
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
        for m in study.methods:
            own = s.method_params.get((dataset, m)) or {
                **base, **{f"method.{k}": v for k, v in
                           flatten(dict(study.method_params).get(m, {})).items()}}
            for on in (False, True):
                cells.append({"dataset": dataset, "choice": "method_randaug",
                              "value": "+RA" if on else "base", "method": m,
                              "points": [s.cell_params(dataset, m, own,
                                                       {"train.randaugment": on})]})
        for c in cells:  # every run config builds (bad keys, types) before anything trains
            for p in c["points"]:
                s.config(c["dataset"], c["method"], p)
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
    from nhfair_jax.rundir import config_to_json
    from nhfair_jax.selection import dto_select
    from nhfair_jax.sweep import collect
    from nhfair_jax.training import io

    s, cells = plan(study, workdir)
    os.makedirs(workdir, exist_ok=True)
    io.write_json(os.path.join(workdir, "study_config.json"), config_to_json(study))
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
        if len(first) > 1:
            j = dto_select(np.stack([r["group"]["val"] for r in first]), utility=[r["result"]["val"]["utility"]
                                                      for r in first])
        else:
            j = 0
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
    io.write_json(os.path.join(workdir, "study.json"),
                  {"cells": summary, "trained": trained, "reused": reused})
    if report:
        out.update(write_report(out, workdir, plots=plots))
    return out


# --- report ----------------------------------------------------------------------------------

def results_rows(out: dict, workdir: str) -> list[dict]:
    """One row per (cell, run, split); "selected" marks the runs the tables use (a grid's other
    points have selected=False)."""
    rows = []
    for c in out["cells"]:
        chosen = {r["dir"] for r in c["runs"]}
        runs = c["runs"] + [r for r in c["grid_runs"] if r["dir"] not in chosen]
        for r in runs:
            for split in ("val", "test"):
                res = r["result"][split]
                rows.append({"dataset": c["dataset"], "choice": c["choice"], "value": c["value"],
                             "method": c["method"], "seed": r["result"]["seed"],
                             "split": split, "selected": r["dir"] in chosen,
                             "reused": r["reused"], "run": r["dir"],
                             **{m: res.get(m) for m in METRICS},
                             "group_utility": ";".join(fmt(v) for v in r["group"][split])})
    return rows


def _means(cell_: dict) -> dict:
    return {m: mean_std([r["result"]["test"].get(m) for r in cell_["runs"]]) for m in METRICS}


def choice_table(out: dict, choice: str, percent: bool) -> list[list[str]]:
    """Tables 9-12: data set, value, mean ± std per metric (test, over seeds), then the Std row
    (population std of the values' means); bold: the best value of each metric."""
    rows = [["data set", choice, "utility", "worst", "gap", "eqodd", "dp"]]
    for dataset, cells in _by_dataset(out, choice).items():
        means = [_means(c) for c in cells]
        best = {m: _best([x[m][0] for x in means], m) for m in METRICS}
        for i, (c, x) in enumerate(zip(cells, means)):
            rows.append([dataset if i == 0 else "", c["value"],
                         *(cell(*x[m], best[m] == i and len(cells) > 1, percent)
                           for m in METRICS)])
        rows.append(["", "Std", *(fmt(s, percent) for s in _std_row(means))])
    return rows


def std_table(out: dict, percent: bool) -> list[list[str]]:
    """Table 13: the Std row of every choice per data set; bold: the largest per metric."""
    rows = [["data set", "choice", "utility", "worst", "gap", "eqodd", "dp"]]
    for dataset in dict.fromkeys(c["dataset"] for c in out["cells"]):
        stds = {ch: _std_row([_means(c) for c in _by_dataset(out, ch).get(dataset, [])])
                for ch in CHOICES if _by_dataset(out, ch).get(dataset)}
        names = list(stds)
        top = {m: _best([stds[ch][i] for ch in names], "utility") for i, m in enumerate(METRICS)}
        top = {m: None if i is None else names[i] for m, i in top.items()}
        for i, (ch, row) in enumerate(stds.items()):
            rows.append([dataset if i == 0 else "", ch, *(
                f"**{fmt(v, percent)}**" if top.get(m) == ch and len(stds) > 1 else
                fmt(v, percent) for m, v in zip(METRICS, row))])
    return rows


def randaug_table(out: dict, percent: bool) -> list[list[str]]:
    """Table 22: data set, metric, the base ERM, then each method without and with RandAugment."""
    methods = list(dict.fromkeys(c["method"] for c in out["cells"]
                                 if c["choice"] == "method_randaug"))
    rows = [["data set", "metric", "ERM", *(f"{m} {v}" for m in methods for v in ("base", "+RA"))]]
    for dataset, cells in _by_dataset(out, "method_randaug").items():
        erm = _base_erm(out, dataset)
        for metric in METRICS:
            row = [dataset, metric, cell(*erm[metric], False, percent) if erm else "n/a"]
            for m in methods:
                for c in (x for x in cells if x["method"] == m):
                    mean, std = _means(c)[metric]
                    better = erm and mean is not None and erm[metric][0] is not None and (
                        mean < erm[metric][0] if metric == "gap" else mean > erm[metric][0])
                    row.append(cell(mean, std, bool(better), percent))
            rows.append(row)
    return rows


def _base_erm(out, dataset):
    """The base ERM cell's means."""
    cells = _by_dataset(out, "base").get(dataset)
    return _means(cells[0]) if cells else None


def _by_dataset(out, choice) -> dict:
    by = {}
    for c in out["cells"]:
        if c["choice"] == choice:
            by.setdefault(c["dataset"], []).append(c)
    return by


def _std_row(means: list[dict]) -> list:
    out = []
    for m in METRICS:
        vals = [x[m][0] for x in means if x[m][0] is not None]
        out.append(float(np.std(vals)) if vals else None)
    return out


def _best(values, metric) -> int | None:
    """The best value's index; None when there is nothing to tell apart (all equal or none)."""
    vals = np.array([np.nan if v is None else v for v in values], float)
    if np.all(np.isnan(vals)) or np.nanmax(vals) == np.nanmin(vals):
        return None
    return int(np.nanargmin(vals) if metric == "gap" else np.nanargmax(vals))


def write_report(out: dict, workdir: str, *, plots: bool = True) -> dict:
    """report.md, report.html, results.csv and plots/ of a finished study."""
    import pandas as pd

    from nhfair_jax.report import html as html_lib
    from nhfair_jax.report import to_markdown
    from nhfair_jax.rundir import write_text

    percent = bool(out.get("percent", False))
    rows = results_rows(out, workdir)
    tmp = os.path.join(workdir, "results.csv.tmp")
    pd.DataFrame(rows).to_csv(tmp, index=False, float_format="%.6g")
    os.replace(tmp, os.path.join(workdir, "results.csv"))
    blocks = [("h1", "Training-choice study"),
              ("p", f"One choice at a time around the base configuration; test metrics, mean ± "
                    f"std over seeds {', '.join(map(str, out['seeds']))}. A value with a grid "
                    "(learning rates, weight-decay strengths) shows the grid point DTO selects "
                    "on validation. Std rows: the population standard deviation of the values' "
                    f"means. {out['trained']} runs trained now, {out['reused']} read from the "
                    "benchmark workdir.")]
    for choice in CHOICES:
        if _by_dataset(out, choice):
            blocks += [("h2", TITLES[choice]), ("table", choice_table(out, choice, percent))]
    if any(_by_dataset(out, ch) for ch in CHOICES):
        blocks += [("h2", "Which knob moves fairness most (Table 13: Std per choice)"),
                   ("table", std_table(out, percent))]
    if _by_dataset(out, "method_randaug"):
        blocks += [("h2", "Methods with and without RandAugment (Table 22)"),
                   ("table", randaug_table(out, percent))]
    if plots:
        figures = draw_plots(out, workdir)
        if figures:
            blocks += [("h2", "Plots"), *figures]
    md = to_markdown(blocks)
    write_text(os.path.join(workdir, "report.md"), md + "\n")
    write_text(os.path.join(workdir, "report.html"), html_lib.render(blocks, workdir))
    return {"markdown": md, "rows": rows, "blocks": blocks}


def draw_plots(out: dict, workdir: str) -> list:
    """Figures 6-8 (utility against gap per choice), 9-10 (each metric against batch size and
    depth) and, for two sensitive attributes, Figure 12 (intersectional groups per setting)."""
    from nhfair_jax.report.plots import _plt, save

    plt, figures = _plt(), []
    datasets = list(dict.fromkeys(c["dataset"] for c in out["cells"]))
    for choice in (*CHOICES, "method_randaug"):
        by = _by_dataset(out, choice)
        for dataset, cells in by.items():
            fig, ax = plt.subplots(figsize=(5, 4))
            for c in cells:
                runs = c["grid_runs"] + c["runs"][1:]
                ax.scatter([r["result"]["test"]["gap"] for r in runs],
                           [r["result"]["test"]["utility"] for r in runs], s=18,
                           label=f"{c['method']} {c['value']}" if choice == "method_randaug"
                           else c["value"])
            ax.set_xlabel("test gap (lower: fairer)")
            ax.set_ylabel("test utility")
            ax.legend(fontsize=7, title=choice)
            figures.append(("figure", save(fig, workdir, f"{choice}_{dataset}.png"),
                            f"{dataset}: every run of the {choice} study (grid points and "
                            "seeds), utility against gap; left and up is better."))
        if choice in ("batch_size", "depth") and by:
            fig, axes = plt.subplots(1, len(METRICS), figsize=(3.2 * len(METRICS), 3))
            for dataset, cells in by.items():
                means = [_means(c) for c in cells]
                xs = [int(c["value"]) for c in cells] if choice == "batch_size" else \
                    list(range(len(cells)))
                for ax, m in zip(axes, METRICS):
                    ax.plot(xs, [x[m][0] for x in means], marker="o", label=dataset)
                    ax.set_title(m)
                    if choice == "batch_size":
                        ax.set_xscale("log", base=2)
                    ax.set_xticks(xs, [c["value"] for c in cells], fontsize=7)
            axes[0].legend(fontsize=7)
            figures.append(("figure", save(fig, workdir, f"curves_{choice}.png"),
                            f"Each test metric (seed mean) against {choice}, one curve per data "
                            f"set (Figure {9 if choice == 'batch_size' else 10})."))
    for dataset in datasets:
        figures += _intersectional(out, dataset, workdir)
    return figures


def _intersectional(out, dataset, workdir) -> list:
    """Figure 12: with data.sensitive naming two attributes, each setting's per-group test utility
    (one colour per intersectional group) against its overall test utility."""
    from nhfair_jax.report.plots import _plt, save
    from nhfair_jax.training import io

    cells = [c for c in out["cells"] if c["dataset"] == dataset]
    config = io.read_json(os.path.join(cells[0]["runs"][0]["dir"], "config.json"))
    if "," not in str(config["data"].get("sensitive", "")):
        return []
    plt = _plt()
    names = cells[0]["runs"][0]["result"].get("group_names") or []
    fig, ax = plt.subplots(figsize=(6, 4))
    for c in cells:
        util = np.mean([r["result"]["test"]["utility"] for r in c["runs"]])
        groups = np.stack([r["group"]["test"] for r in c["runs"]])
        for g, v in enumerate(np.nanmean(groups, axis=0)):
            ax.scatter(util, v, s=14, color=f"C{g % 10}",
                       label=(names[g] if g < len(names) else str(g)) if c is cells[0] else None)
        ax.vlines(util, np.nanmin(groups), np.nanmax(groups), color="#bbb", lw=0.6)
    ax.set_xlabel("overall test utility (one setting per column)")
    ax.set_ylabel("group test utility")
    ax.legend(fontsize=7, title=config["data"]["sensitive"])
    return [("figure", save(fig, workdir, f"intersectional_{dataset}.png"),
             f"{dataset}: intersectional groups ({config['data']['sensitive']}) under every "
             "setting of the study (Figure 12); a short column is a small gap.")]


def main(argv) -> None:
    del argv
    from absl import logging

    logging.set_verbosity(logging.WARNING)
    try:
        workdir = _WORKDIR.value or os.path.join("runs", "choices")
        out = run_study(_CONFIG.value, workdir)
        print(out["markdown"])
        print(f"{out['trained']} runs trained, {out['reused']} reused; report: "
              f"{os.path.join(workdir, 'report.md')} (and report.html, results.csv, plots/)")
    except Exception as e:  # noqa: BLE001 - every failure reaches the user as one line
        from nhfair_jax.cli import describe_error, fail

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
