"""The benchmark report, rebuilt from the run directories of a benchmark workdir alone.

    python -m nhfair_jax.report --workdir runs/bench

Writes into the workdir:
  report.md, report.html  the paper's Table 2 layout (data set x metric x method, mean +- std
                          over seeds on test, cells better than ERM marked), the FWH zone counts
                          on validation and test, and the M rule (maximal validation utility) as a
                          comparison; with two or more data sets, the Friedman test and Nemenyi
                          post-hoc with a critical-difference diagram
  results.csv             one row per (data set, method, seed, split, rule) with every metric
  plots/*.png             utility against gap of every candidate (ERM's with the utopia point and
                          the DTO choice; each method's coloured by zone), per-group utility of
                          the selected models, critical-difference diagrams
"""

from __future__ import annotations

import html
import os

import numpy as np

from nhfair_jax.training import io

METRICS = ("utility", "worst", "gap", "eqodd", "dp")  # Table 2's rows per data set
LOWER_IS_BETTER = {"gap"}
CSV_METRICS = ("utility", "worst", "gap", "acc", "worst_acc", "gap_acc", "auc", "worst_auc",
               "gap_auc", "dp", "eqodd", "dp_mean", "eqodd_ovr", "eqopp", "loss")
ZONES = ("optimal", "sub_optimal", "degradation", "unwanted")


def _mean_std(values):
    values = np.asarray([v for v in values if v is not None and np.isfinite(v)], float)
    if values.size == 0:
        return None, None
    return float(values.mean()), float(values.std(ddof=1)) if values.size > 1 else 0.0


def _cell(mean, std, better: bool) -> str:
    if mean is None:
        return "n/a"
    text = f"{mean:.3f} ± {std:.3f}"
    return f"**{text}**" if better else text


def gather(workdir: str) -> dict:
    """Everything the report shows, recomputed from the run directories."""
    from nhfair_jax.selection import fwh_zone
    from nhfair_jax.sweep import collect

    bench = io.read_json(os.path.join(workdir, "benchmark_config.json"))
    methods = ["erm", *[m for m in bench["methods"] if m != "erm"]]
    data = {}
    for dataset in bench["datasets"]:
        selection = collect.select(workdir, dataset, methods)
        if not selection:
            continue
        per_method = {}
        erm_test = None
        for method in methods:
            sel = selection.get(method, {"selected": None, "candidates": [], "m_rule": None,
                                         "zone": None})
            runs = collect.seed_runs(workdir, dataset, method, sel["selected"]) \
                if sel["selected"] is not None else []
            test_group = np.nanmean(np.stack([r["group"]["test"] for r in runs]), 0) \
                if runs else None
            if method == "erm":
                erm_test = test_group
            per_method[method] = {"selection": sel, "runs": runs, "test_group": test_group}
        for method, entry in per_method.items():
            entry["test_zone"] = (fwh_zone(erm_test, entry["test_group"])
                                  if method != "erm" and entry["test_group"] is not None
                                  and erm_test is not None else None)
        data[dataset] = per_method
    return {"bench": bench, "methods": methods, "data": data}


def results_rows(info: dict) -> list[dict]:
    rows = []
    for dataset, per_method in info["data"].items():
        for method, entry in per_method.items():
            sel = entry["selection"]
            runs = [("selected", r) for r in entry["runs"]]
            if sel["m_rule"] is not None:
                runs.append(("m_rule", sel["m_rule"]))
            for rule, run in runs:
                for split in ("val", "test"):
                    res = run["result"][split]
                    row = {"dataset": dataset, "method": method, "rule": rule,
                           "seed": run["params"]["seed"], "split": split,
                           "run": os.path.relpath(run["dir"], info["workdir"]),
                           "zone_val": sel["zone"] if rule == "selected" else None}
                    row.update({k: res.get(k) for k in CSV_METRICS})
                    rows.append(row)
    return rows


def table2(info: dict) -> list[list[str]]:
    """Header + rows: data set, metric, one mean +- std cell per method (test, over seeds)."""
    methods = info["methods"]
    out = [["data set", "metric", *methods]]
    for dataset, per_method in info["data"].items():
        for metric in METRICS:
            stats = {m: _mean_std([r["result"]["test"].get(metric) for r in e["runs"]])
                     for m, e in per_method.items()}
            erm_mean = stats["erm"][0]
            row = [dataset, metric]
            for m in methods:
                mean, std = stats.get(m, (None, None))
                if m != "erm" and not per_method[m]["runs"]:
                    row.append("no selection" if per_method[m]["selection"]["candidates"]
                               else "not run")
                    continue
                better = (m != "erm" and mean is not None and erm_mean is not None and
                          (mean < erm_mean if metric in LOWER_IS_BETTER else mean > erm_mean))
                row.append(_cell(mean, std, better))
            out.append(row)
    return out


def zone_table(info: dict) -> list[list[str]]:
    out = [["method", "split", *ZONES, "no selection"]]
    for method in info["methods"][1:]:
        for split, key in (("val", "zone"), ("test", "test_zone")):
            counts = dict.fromkeys((*ZONES, None), 0)
            for per_method in info["data"].values():
                entry = per_method[method]
                zone = entry["selection"]["zone"] if split == "val" else entry["test_zone"]
                counts[zone] += 1
            out.append([method, split, *(str(counts[z]) for z in ZONES), str(counts[None])])
    return out


def m_rule_table(info: dict) -> list[list[str]]:
    out = [["data set", "method", "rule", "test utility", "test worst", "test gap"]]
    for dataset, per_method in info["data"].items():
        for method, entry in per_method.items():
            sel = entry["selection"]
            for rule, run in (("FWH/DTO (seed mean)", None), ("M rule (one run)", sel["m_rule"])):
                if run is None and rule.startswith("FWH"):
                    runs = entry["runs"]
                    if not runs:
                        out.append([dataset, method, rule, "n/a", "n/a", "n/a"])
                        continue
                    vals = [_mean_std([r["result"]["test"][k] for r in runs])[0]
                            for k in ("utility", "worst", "gap")]
                elif run is None:
                    continue
                else:
                    vals = [run["result"]["test"][k] for k in ("utility", "worst", "gap")]
                out.append([dataset, method, rule, *(f"{v:.3f}" for v in vals)])
    return out


def friedman(info: dict, metric: str):
    """(statistic, p, average ranks, nemenyi p-value frame) over data sets, or None."""
    datasets = [d for d, pm in info["data"].items()
                if all(pm[m]["runs"] for m in info["methods"])]
    if len(datasets) < 2 or len(info["methods"]) < 3:
        return None
    import pandas as pd
    import scikit_posthocs as sp
    from scipy import stats

    table = pd.DataFrame(
        [[_mean_std([r["result"]["test"][metric] for r in info["data"][d][m]["runs"]])[0]
          for m in info["methods"]] for d in datasets], index=datasets, columns=info["methods"])
    if metric in LOWER_IS_BETTER:
        table = -table
    stat, p = stats.friedmanchisquare(*[table[m].to_numpy() for m in info["methods"]])
    ranks = table.rank(axis=1, ascending=False).mean()
    nemenyi = sp.posthoc_nemenyi_friedman(table.to_numpy())
    nemenyi.index = nemenyi.columns = info["methods"]
    return float(stat), float(p), ranks, nemenyi


def _md_table(rows) -> str:
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def _html_table(rows) -> str:
    head, *body = rows

    def cell(text, tag):
        text = html.escape(text)
        if text.startswith("**") and text.endswith("**"):
            text = f"<b>{text[2:-2]}</b>"
        return f"<{tag}>{text}</{tag}>"

    return ("<table>\n<tr>" + "".join(cell(h, "th") for h in head) + "</tr>\n" +
            "\n".join("<tr>" + "".join(cell(c, "td") for c in r) + "</tr>" for r in body) +
            "\n</table>")


def build_report(workdir: str, *, plots: bool = True) -> dict:
    """Writes report.md, report.html, results.csv and plots/ into `workdir`; returns the parts."""
    import pandas as pd

    info = gather(workdir)
    info["workdir"] = workdir
    if not info["data"]:
        raise FileNotFoundError(f"no finished ERM trial under {workdir}/trials; run "
                                "`python -m nhfair_jax.benchmark` first")
    rows = results_rows(info)
    frame = pd.DataFrame(rows)
    tmp = os.path.join(workdir, "results.csv.tmp")
    frame.to_csv(tmp, index=False, float_format="%.6g")
    os.replace(tmp, os.path.join(workdir, "results.csv"))

    sections = [("Test results of the selected models (mean ± std over seeds; bold: better "
                 "than ERM)", table2(info)),
                ("Fairness-without-harm zones of the selected models (counts over data sets)",
                 zone_table(info)),
                ("Selection rules compared: FWH/DTO against the M rule (maximal validation "
                 "utility)", m_rule_table(info))]
    stats_text = []
    figures = []
    for metric in ("utility", "worst"):
        out = friedman(info, metric)
        if out is None:
            stats_text.append(f"Friedman test on test {metric}: needs two or more data sets "
                              "and three or more methods with results; skipped.")
            continue
        stat, p, ranks, nemenyi = out
        ranks_text = ", ".join(f"{m} {r:.2f}" for m, r in ranks.sort_values().items())
        stats_text.append(f"Friedman test on test {metric}: chi2 = {stat:.3f}, p = {p:.4f}; "
                          f"average ranks (1 = best): {ranks_text}.")
        sections.append((f"Nemenyi post-hoc p-values (test {metric})",
                         [["", *nemenyi.columns]] +
                         [[i, *(f"{v:.3f}" for v in row)] for i, row in
                          zip(nemenyi.index, nemenyi.to_numpy())]))
        if plots:
            figures.append(_cd_diagram(workdir, metric, ranks, nemenyi))
    if plots:
        for dataset in info["data"]:
            figures.append(_candidates_plot(workdir, info, dataset))
            figures.append(_group_plot(workdir, info, dataset))
    bench = info["bench"]
    header = (f"# Benchmark report\n\nData sets: {', '.join(info['data'])}. Methods: "
              f"{', '.join(info['methods'])}. Seeds: {', '.join(map(str, bench['seeds']))}. "
              f"Sweep objective (validation): {bench['objective']}. Selection on validation: "
              "DTO for ERM, fairness-without-harm zones for the other methods.")
    md = header + "\n\n" + "\n\n".join(f"## {title}\n\n{_md_table(t)}" for title, t in sections)
    md += "\n\n## Statistics\n\n" + "\n\n".join(stats_text)
    if figures:
        md += "\n\n## Plots\n\n" + "\n".join(f"![{f}]({f})" for f in figures)
    html_doc = ("<!doctype html><meta charset='utf-8'><title>Benchmark report</title>"
                "<style>body{font-family:sans-serif;max-width:70em;margin:auto}table{border-"
                "collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style>\n"
                f"<h1>Benchmark report</h1><p>{html.escape(header.split(chr(10))[-1])}</p>\n" +
                "\n".join(f"<h2>{html.escape(t)}</h2>\n{_html_table(rows)}"
                          for t, rows in sections) +
                "<h2>Statistics</h2>" + "".join(f"<p>{html.escape(s)}</p>" for s in stats_text) +
                "".join(f"<p><img src='{f}' style='max-width:100%'></p>" for f in figures))
    for name, text in (("report.md", md + "\n"), ("report.html", html_doc)):
        tmp = os.path.join(workdir, name + ".tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(workdir, name))
    return {"markdown": md, "rows": rows, "info": info}


# --- plots -----------------------------------------------------------------------------------

ZONE_COLOURS = {"optimal": "tab:green", "sub_optimal": "tab:orange", "degradation": "tab:gray",
                "unwanted": "tab:red"}


def _figure_path(workdir, name):
    os.makedirs(os.path.join(workdir, "plots"), exist_ok=True)
    return os.path.join("plots", name)


def _save(fig, workdir, rel):
    import matplotlib.pyplot as plt

    fig.savefig(os.path.join(workdir, rel), dpi=110, bbox_inches="tight",
                metadata={"Software": None})
    plt.close(fig)
    return rel


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _candidates_plot(workdir, info, dataset):
    """The paper's Figure 2: validation utility against gap of every candidate."""
    plt = _plt()
    per_method = info["data"][dataset]
    methods = info["methods"]
    fig, axes = plt.subplots(1, len(methods), figsize=(3.2 * len(methods), 3.2), squeeze=False,
                             sharex=True, sharey=True)
    erm_sel = per_method["erm"]["selection"]
    erm_cands = erm_sel["candidates"]
    utopia = np.nanmax(np.stack([r["group"]["val"] for r in erm_cands]), 0)
    base = erm_sel["selected"]["result"]["val"]
    for ax, method in zip(axes[0], methods):
        sel = per_method[method]["selection"]
        for r in sel["candidates"]:
            colour = "tab:blue" if method == "erm" else ZONE_COLOURS[r["zone"]]
            ax.scatter(r["result"]["val"]["gap"], r["result"]["val"]["utility"], s=18,
                       color=colour, alpha=0.8)
        if method == "erm":
            ax.scatter(np.nanmax(utopia) - np.nanmin(utopia), np.nanmean(utopia), marker="*",
                       s=120, color="gold", edgecolor="k", label="utopia")
        ax.scatter(base["gap"], base["utility"], marker="x", s=60, color="k",
                   label="ERM (DTO)")
        if method != "erm" and sel["selected"] is not None:
            v = sel["selected"]["result"]["val"]
            ax.scatter(v["gap"], v["utility"], s=90, facecolors="none", edgecolors="k",
                       label="selected")
        ax.set_title(method)
        ax.set_xlabel("validation gap")
    axes[0][0].set_ylabel("validation utility")
    handles = [plt.Line2D([], [], marker="o", ls="", color=c, label=z)
               for z, c in ZONE_COLOURS.items()]
    axes[0][-1].legend(handles=handles + axes[0][0].get_legend_handles_labels()[0],
                       fontsize=7, loc="lower right")
    fig.suptitle(f"{dataset}: candidates (validation)")
    return _save(fig, workdir, _figure_path(workdir, f"candidates_{dataset}.png"))


def _group_plot(workdir, info, dataset):
    plt = _plt()
    per_method = info["data"][dataset]
    methods = [m for m in info["methods"] if per_method[m]["runs"]]
    names = per_method["erm"]["runs"][0]["result"].get("group_names") or []
    groups = len(per_method["erm"]["test_group"])
    fig, ax = plt.subplots(figsize=(1.2 + 1.1 * len(methods), 3.2))
    width = 0.8 / groups
    for g in range(groups):
        values = [per_method[m]["test_group"][g] for m in methods]
        ax.bar(np.arange(len(methods)) + g * width, values, width,
               label=names[g] if g < len(names) else f"group {g}")
    ax.set_xticks(np.arange(len(methods)) + 0.4 - width / 2, methods, rotation=30)
    ax.set_ylabel("test utility (seed mean)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    ax.set_title(f"{dataset}: per-group utility of the selected models")
    return _save(fig, workdir, _figure_path(workdir, f"groups_{dataset}.png"))


def _cd_diagram(workdir, metric, ranks, nemenyi):
    import scikit_posthocs as sp

    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 2.2))
    sp.critical_difference_diagram(ranks, nemenyi, ax=ax)
    ax.set_title(f"critical difference (Nemenyi), test {metric}")
    return _save(fig, workdir, _figure_path(workdir, f"cd_{metric}.png"))
