"""The benchmark report, rebuilt from the run directories of a benchmark workdir alone.

    python -m nhfair_jax.report --workdir runs/bench [--percent] [--bootstrap 1000]

Writes into the workdir:
  report.md     the paper's Table 2 layout (data set x metric x method, mean ± std over seeds
                on test, cells better than ERM in bold, with the bootstrap interval of the
                selected trial's own test predictions), the fairness-without-harm zone
                counts on validation and test, the M rule (maximal validation utility) as a
                comparison, the Friedman test and Nemenyi post-hoc on each of the five
                metrics (or a sentence saying why they cannot be computed), the average
                ranks with their tie groups, each method's paired comparison with ERM
                (Wilcoxon, Holm-corrected), the benchmark paper's own cells beside ours for
                its seven data sets, and the figures
  report.html   the same content in one file that opens offline (plots inline)
  results.csv   one row per (data set, method, rule, seed, split) with every metric as a fraction
                (and `<metric>_lo` / `<metric>_hi` bootstrap bounds on the selected runs' test
                rows)
  plots/*.png   the paper's Figure 2 per data set, utility against gap of every candidate,
                per-group utility of the selected models, critical-difference diagrams

Modules: gather (run directories in), tables, stats (Friedman / Nemenyi), plots, html.
"""

from __future__ import annotations

import os

from nhfair_jax.errors import UserError
from nhfair_jax.rundir import write_csv
from nhfair_jax.report import html as html_lib
from nhfair_jax.report import plots as plots_lib
from nhfair_jax.report.compute import compute_table
from nhfair_jax.report.gather import gather, read_bench_config, results_rows
from nhfair_jax.report.stats import ALPHA, friedman, paired_with_erm
from nhfair_jax.report.tables import (
    METRICS,
    ZONES,
    m_rule_table,
    md_table,
    nemenyi_table,
    paper_table,
    rank_table,
    table2,
    versus_erm_table,
    zone_table,
)

__all__ = ["build_report", "gather", "read_bench_config", "results_rows", "friedman", "table2",
           "zone_table", "m_rule_table", "to_markdown", "METRICS", "ZONES"]

BOOTSTRAP_RESAMPLES = 1000


def _write_text(path: str, text: str) -> None:
    from nhfair_jax.rundir import write_text

    write_text(path, text)


def data_warnings(workdir: str) -> list[str]:
    """The distinct warnings the finished runs of a workdir repeat from their data, sorted."""
    from nhfair_jax.rundir import RunDir

    out = set()
    for kind in ("trials", "seeds"):
        for folder, _, files in os.walk(os.path.join(workdir, kind)):
            if RunDir.RESULT in files:
                out.update((RunDir(folder).result() or {}).get("warnings") or ())
    return sorted(out)


def to_markdown(blocks) -> str:
    """Markdown of the report's blocks (see `html.render` for the block kinds)."""
    out = []
    for kind, *rest in blocks:
        if kind == "h1":
            out.append(f"# {rest[0]}")
        elif kind == "h2":
            out.append(f"## {rest[0]}")
        elif kind == "p":
            out.append(rest[0])
        elif kind == "table":
            out.append(md_table(rest[0]))
        elif kind == "figure":
            out.append(f"![{os.path.basename(rest[0])}]({rest[0]})\n\n*{rest[1]}*")
        else:
            raise ValueError(f"unknown report block {kind!r}")
    return "\n\n".join(out)


def build_report(workdir: str, *, plots: bool = True, percent: bool | None = None,
                 bootstrap: int = BOOTSTRAP_RESAMPLES) -> dict:
    """Writes report.md, report.html, results.csv and plots/ into `workdir`.

    Args:
      workdir: a benchmark directory (with benchmark_config.json).
      plots: draw the figures (tables and statistics are written either way).
      percent: tables in percent with one decimal; None reads the benchmark config's
        `report_percent` (default False). results.csv always holds fractions.
      bootstrap: resamples for the test intervals (0: none).

    Returns:
      {"markdown", "html", "rows" (results.csv), "info" (see `gather`), "blocks"}.
    """
    import pandas as pd

    info = gather(workdir, bootstrap=bootstrap)
    if not info["data"]:
        raise UserError(f"no finished ERM trial under {workdir}/trials; run "
                        "`python -m nhfair_jax.benchmark` first")
    bench = info["bench"]
    if percent is None:
        percent = bool(bench.get("report_percent", False))
    rows = results_rows(info)
    write_csv(os.path.join(workdir, "results.csv"), pd.DataFrame(rows))

    unit = "percent" if percent else "fractions"
    cells = ("Each cell: mean ± std over the seeds of the selected configuration on test")
    if info["intervals"]:
        cells += (f", then in brackets the 95% bootstrap interval ({bootstrap} resamples, "
                  "percentile, stratified by group) of the selected trial's own run on test: "
                  "the noise of the test set, where ± std is the noise of training")
    cells += ". Bold: better than ERM."
    blocks = [
        ("h1", "Benchmark report"),
        ("p", f"Data sets: {', '.join(info['data'])}. Methods: {', '.join(info['methods'])}. "
              f"Seeds: {', '.join(map(str, bench['seeds']))}. Sweep objective (validation): "
              f"{bench['objective']}. Selection on validation: DTO for ERM, fairness-without-"
              f"harm zones for the other methods. Figures in {unit}."),
        ("h2", "Test results of the selected models"),
        ("p", cells),
        ("table", table2(info, percent)),
        ("h2", "Fairness-without-harm zones of the selected models (counts over data sets)"),
        ("table", zone_table(info)),
        ("h2", "Selection rules compared: FWH/DTO against the M rule (maximal validation "
               "utility)"),
        ("table", m_rule_table(info, percent)),
        ("h2", "Statistics"),
    ]
    figures, cd_figures, results = [], [], {}
    for metric in METRICS:  # the paper's Figure 4: all five metrics
        result = results[metric] = friedman(info, metric)
        blocks.append(("p", result["text"]))
        if result["ok"]:
            blocks.append(("p", f"Nemenyi post-hoc p-values (test {metric}):"))
            blocks.append(("table", nemenyi_table(result["nemenyi"])))
            if plots:
                fig, caption = plots_lib.cd_diagram(result, metric)
                cd_figures.append(("figure", plots_lib.save(fig, workdir, f"cd_{metric}.png"),
                                   caption))
    if any(r["ok"] for r in results.values()):
        blocks += [("p", "Average ranks over data sets (1 = best) with their tie groups: methods "
                         "sharing a letter cannot be told apart by the Nemenyi test at alpha = "
                         f"{ALPHA}."), ("table", rank_table(results))]
    comparisons = {metric: paired_with_erm(info, metric) for metric in METRICS}
    if info["methods"][1:]:
        blocks += [("h2", "Better than ERM beyond noise? Paired comparisons"),
                   ("p", "Each method's selected configuration against ERM's, paired by data set "
                         "and seed on test: how many pairs it wins, ties and loses, the mean "
                         "difference (method - ERM; for gap lower is better), the two-sided "
                         "Wilcoxon signed-rank p-value and Holm's correction over the methods "
                         f"of each metric. Verdicts at alpha = {ALPHA}; with n pairs the exact "
                         "test cannot go below 2 / 2^n, so a handful of seeds on one data set "
                         "cannot separate any method from ERM."),
                   ("table", versus_erm_table(comparisons, percent))]
    warned = data_warnings(workdir)
    if warned:  # what the data sets' checks said (nhfair_jax/data/store.py), once each
        blocks += [("h2", "Warnings about the data"),
                   ("p", "Said by the runs' data (each once; their result.json repeats them): "
                         + " ".join(f"({i}) {w}." for i, w in enumerate(warned, 1)))]
    blocks += [("h2", "What the runs cost"),
               ("p", "Per data set and method, over its trials and seed runs: the runs' own "
                     "seconds (all of each session, and its training epochs), XLA's "
                     "compilations (programs built, those read back from the persistent "
                     "compilation cache, the seconds both took), and the trained runs whose "
                     "first epoch compiled nothing (every program from an earlier run); "
                     "with --prune, the trials the pruner stopped (the epochs they trained, "
                     "and those epochs' seconds; they are not among the runs)."),
               ("table", compute_table(info))]
    beside = paper_table(info, percent)
    if len(beside) > 1:
        blocks += [("h2", "Beside the benchmark paper"),
                   ("p", "The paper's Table 2 (means) with its Table 20 (standard deviations over "
                         "its five seeds) for the data sets of this report that are among its "
                         "seven, and our mean's distance from the paper's in units of the paper's "
                         "std. The paper's cells are for its own setting (an ImageNet-pretrained "
                         "ResNet-18 at 224 px, its trial budgets). Our dp and eqodd here are "
                         "dp_mean and eqodd_ovr, the paper's code's definitions (the mean over "
                         "classes of one-vs-rest terms): equal to dp and eqodd for a two-class "
                         "target, usually higher for FairFace's seven classes."),
                   ("table", beside)]
    if plots:
        for dataset in info["data"]:
            for name, draw in (("figure2", plots_lib.figure2),
                               ("candidates", plots_lib.candidates_scatter),
                               ("groups", plots_lib.group_plot)):
                fig, caption = draw(info, dataset)
                figures.append(("figure", plots_lib.save(fig, workdir, f"{name}_{dataset}.png"),
                                caption))
    figures += cd_figures
    if figures:
        blocks += [("h2", "Plots"), *figures]
    md = to_markdown(blocks)
    doc = html_lib.render(blocks, workdir)
    _write_text(os.path.join(workdir, "report.md"), md + "\n")
    _write_text(os.path.join(workdir, "report.html"), doc)
    return {"markdown": md, "html": doc, "rows": rows, "info": info, "blocks": blocks}
