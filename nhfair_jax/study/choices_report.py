"""The training-choice study's report: the benchmark paper's Tables 9-13 and 22 and Figures 6-10
and 12 from the cells `nhfair_jax.study.choices.run_study` ran.

References:
  "Benchmarking Bias Mitigation Toward Fairness Without Harm from Vision to LVLMs", Appendix C.1
  (Figures 6-10 and 12; Tables 9-13, whose "Std" rows are the population standard deviation of
  the values' means, as their numbers show) and Appendix F (Table 22).
"""

from __future__ import annotations

import os

import numpy as np

from nhfair_jax.report import html as html_lib
from nhfair_jax.report import to_markdown
from nhfair_jax.report.plots import _plt, save
from nhfair_jax.report.tables import METRICS, cell, fmt, mean_std
from nhfair_jax.rundir import RunDir, write_csv, write_text

CHOICES = ("optimizer", "batch_size", "weight_decay", "depth", "pretrained", "randaugment")
TITLES = {"optimizer": "Optimizer (Table 9)", "batch_size": "Batch size (Table 10)",
          "weight_decay": "Weight decay (Table 11)", "depth": "Model size (Table 12)",
          "pretrained": "Pretrained weights (Figures 6-7)", "randaugment": "RandAugment"}


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


def knob_summary(out: dict) -> str:
    """Per data set, the choice with the largest Std in most metrics (Table 13's reading)."""
    parts = []
    for dataset in dict.fromkeys(c["dataset"] for c in out["cells"]):
        stds = {ch: _std_row([_means(c) for c in _by_dataset(out, ch)[dataset]])
                for ch in CHOICES if _by_dataset(out, ch).get(dataset)}
        if len(stds) < 2:
            continue
        names = list(stds)
        wins = [_best([stds[ch][i] for ch in names], "utility") for i in range(len(METRICS))]
        counts = {ch: sum(w == k for w in wins) for k, ch in enumerate(names)}
        top = max(counts, key=counts.get)
        parts.append(f"{dataset}: {top} ({counts[top]} of {len(METRICS)} metrics)")
    return ("Largest spread: " + "; ".join(parts) + ".") if parts else ""


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

    percent = bool(out.get("percent", False))
    rows = results_rows(out, workdir)
    write_csv(os.path.join(workdir, "results.csv"), pd.DataFrame(rows))
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
        if knob_summary(out):
            blocks.append(("p", knob_summary(out)))
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
            fig.tight_layout()
            figures.append(("figure", save(fig, workdir, f"curves_{choice}.png"),
                            f"Each test metric (seed mean) against {choice}, one curve per data "
                            f"set (Figure {9 if choice == 'batch_size' else 10})."))
    for dataset in datasets:
        figures += _intersectional(out, dataset, workdir)
    return figures


def _intersectional(out, dataset, workdir) -> list:
    """Figure 12: with data.sensitive naming two attributes, each setting's per-group test utility
    (one colour per intersectional group) against its overall test utility."""

    cells = [c for c in out["cells"] if c["dataset"] == dataset]
    config = RunDir(cells[0]["runs"][0]["dir"]).config()
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
