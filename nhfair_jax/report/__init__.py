"""The benchmark report, rebuilt from the run directories of a benchmark workdir alone.

    python -m nhfair_jax.report --workdir runs/bench [--percent] [--bootstrap 1000]

Writes into the workdir:
  report.md     the paper's Table 2 layout (data set x metric x method, mean ± std over seeds
                on test, in bold where the paired comparison with ERM calls the method
                better), the selected trial's own test run with its bootstrap interval, the
                fairness-without-harm zone counts on validation and test, the M rule (maximal
                validation utility) as a comparison, the Friedman test and Nemenyi post-hoc
                on each of the five metrics (or a sentence saying why they cannot be
                computed), the average ranks with their tie groups, each method's paired
                comparison with ERM at the seed and the data-set level (Wilcoxon, Holm-
                corrected), the benchmark paper's own cells beside ours for its seven data
                sets, and the figures
  report.html   the same content in one file that opens offline (plots inline)
  results.csv   one row per (data set, method, rule, seed, split) with every metric as a fraction
                (and `<metric>_lo` / `<metric>_hi` bootstrap bounds on the selected runs' test
                rows)
  comparisons.csv  one row per (method, metric, level) of the comparison with ERM: method,
                metric, level (seed | dataset), n_pairs, wins, ties, losses, mean_diff, p,
                p_holm, test (exact | permutation | approx | none), verdict; the report's
                tables are rendered from it (nhfair_jax.report.comparisons)
  plots/*.png   the paper's Figure 2 per data set, utility against gap of every candidate,
                per-group utility of the selected models, critical-difference diagrams

Modules: gather (run directories in), tables, stats (Friedman / Nemenyi), comparisons (each
method against ERM: comparisons.csv), plots, html.
"""

from __future__ import annotations

import os

from nhfair_jax.errors import UserError
from nhfair_jax.metrics.direction import LEGEND, marked
from nhfair_jax.report import html as html_lib
from nhfair_jax.report import plots as plots_lib
from nhfair_jax.report.comparisons import (
    COLUMNS,
    LEVELS,
    comparison_rows,
    level_sentence,
)
from nhfair_jax.report.compute import compute_table
from nhfair_jax.report.gather import gather, read_bench_config, results_rows
from nhfair_jax.report.stats import ALPHA, friedman
from nhfair_jax.report.tables import (
    METRICS,
    ZONES,
    fmt,
    interval_table,
    m_rule_table,
    md_table,
    mean_std,
    nemenyi_table,
    paper_table,
    rank_table,
    table2,
    versus_erm_table,
    zone_table,
)
from nhfair_jax.rundir import RunDir, write_csv, write_text

__all__ = ["build_report", "gather", "read_bench_config", "results_rows", "friedman", "table2",
           "zone_table", "m_rule_table", "to_markdown", "METRICS", "ZONES"]

BOOTSTRAP_RESAMPLES = 1000


def _write_text(path: str, text: str) -> None:
    write_text(path, text)


def data_warnings(workdir: str) -> list[str]:
    """The distinct warnings the finished runs of a workdir repeat from their data, sorted."""

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


def summary_lines(info: dict) -> list[str]:
    """A few lines for the end of a benchmark: per data set, ERM's test utility, worst group
    and gap (seed means) and, for each other method, the same figures (the report has the
    statistics and the verdicts)."""

    keys = ("utility", "worst", "gap")
    out = [f"{len(info['data'])} data set(s) x {len(info['methods'])} method(s); test, mean over "
           "seeds: " + ", ".join(marked(k) for k in keys)]
    for dataset, per_method in info["data"].items():
        cells = []
        for method, entry in per_method.items():
            runs = entry["runs"]
            if not runs:
                cells.append(f"{method} no selection")
                continue
            vals = [mean_std([r["result"]["test"].get(k) for r in runs])[0] for k in keys]
            cells.append(f"{method} {'/'.join(fmt(v) for v in vals)}")
        out.append(f"  {dataset}: " + "; ".join(cells))
    return out


def write_comparisons(info: dict, workdir: str):
    """Writes comparisons.csv (nhfair_jax.report.comparisons) and returns it as read back: the
    report's tables are rendered from the file's own rows."""
    import pandas as pd

    path = os.path.join(workdir, "comparisons.csv")
    pd.DataFrame(comparison_rows(info, METRICS), columns=COLUMNS).to_csv(path + ".tmp",
                                                                         index=False)
    os.replace(path + ".tmp", path)
    return read_comparisons(workdir)


def read_comparisons(workdir: str):
    """comparisons.csv as a DataFrame (strings kept as written: "none" is a test's name)."""
    import pandas as pd

    return pd.read_csv(os.path.join(workdir, "comparisons.csv"), keep_default_na=False,
                       na_values=[""])


def friedman_not_computed(n: int) -> str:
    """The one sentence that stands for the Friedman / Nemenyi section with under three data
    sets."""
    sets = f"{n} data set{'s' * (n != 1)}"
    return (f"Friedman test and Nemenyi post-hoc: not computed. They rank the methods across "
            f"data sets and this report has {sets}; with fewer than three the Nemenyi test "
            f"cannot tell any pair of methods apart at alpha = {ALPHA} (its critical "
            "difference exceeds the largest possible difference of average ranks). The paired "
            "comparisons with ERM below are the report's statistics.")


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
    write_csv(os.path.join(workdir, "results.csv"), pd.DataFrame(rows), float_format=None)
    frame = write_comparisons(info, workdir)

    unit = "percent" if percent else "fractions"
    cells = ("Each cell: mean ± std over the seeds of the selected configuration on test. "
             "Bold: the paired comparison with ERM at the seed level (below; Wilcoxon, Holm "
             f"over the methods, alpha = {ALPHA}) calls the method better than ERM on this "
             "metric, and on this data set its mean is on ERM's better side. A cell that is "
             "higher than ERM's without bold is not told apart from it.")
    splits = bench.get("splits", "fixed")
    split_text = ("Each seed run re-splits the data with its training seed (splits = "
                  "per_seed), so ± std holds the split's variance as well as training's; data "
                  "sets with an official split keep it." if splits == "per_seed" else
                  "Every run uses the data config's one split (splits = fixed): ± std is the "
                  "variance of training alone.")
    blocks = [
        ("h1", "Benchmark report"),
        ("p", f"Data sets: {', '.join(info['data'])}. Methods: {', '.join(info['methods'])}. "
              f"Seeds: {', '.join(map(str, bench['seeds']))}. Sweep objective (validation): "
              f"{bench['objective']}. Selection on validation: DTO for ERM, fairness-without-"
              f"harm zones for the other methods. Figures in {unit}; {LEGEND}."),
        ("h2", "Test results of the selected models"),
        ("p", f"{cells} {split_text}"),
        ("table", table2(info, percent, frame)),
    ]
    if info["intervals"]:
        blocks += [
            ("h2", "The selected trial's own test run, with its bootstrap interval"),
            ("p", f"Each cell: the test value of one run, the selected trial itself (the "
                  f"sweep's seed), then in brackets its 95% bootstrap interval ({bootstrap} "
                  "resamples of its test predictions, percentile, stratified by group): the "
                  "noise of the test set, where the ± std above is the noise of training."),
            ("table", interval_table(info, percent))]
    blocks += [
        ("h2", "Fairness-without-harm zones of the selected models (counts over data sets)"),
        ("table", zone_table(info)),
        ("h2", "Selection rules compared: FWH/DTO against the M rule (maximal validation "
               "utility)"),
        ("table", m_rule_table(info, percent)),
        ("h2", "Statistics"),
    ]
    figures, cd_figures, results = [], [], {}
    if len(info["data"]) < 3:
        blocks.append(("p", friedman_not_computed(len(info["data"]))))
    else:
        for metric in METRICS:  # the paper's Figure 4: all five metrics
            result = results[metric] = friedman(info, metric)
            blocks.append(("p", result["text"]))
            if result["ok"]:
                blocks.append(("p", f"Nemenyi post-hoc p-values (test {metric}):"))
                blocks.append(("table", nemenyi_table(result["nemenyi"])))
                if plots:
                    fig, caption = plots_lib.cd_diagram(result, metric)
                    cd_figures.append(("figure", plots_lib.save(fig, workdir,
                                                                f"cd_{metric}.png"), caption))
    if any(r["ok"] for r in results.values()):
        blocks += [("p", "Average ranks over data sets (1 = best) with their tie groups: methods "
                         "sharing a letter cannot be told apart by the Nemenyi test at alpha = "
                         f"{ALPHA}."), ("table", rank_table(results))]
    if info["methods"][1:]:
        blocks += [("h2", "Better than ERM beyond noise? Paired comparisons"),
                   ("p", "Each method's selected configuration against ERM's on test, at two "
                         "levels. Seed level: one pair per data set and seed (the method's "
                         "seed-s run against ERM's seed-s run on the same data set): is the "
                         "difference beyond the noise of seeds on these data sets? Data-set "
                         "level: one pair per data set (the mean over its seeds): does the "
                         "method beat ERM across data sets, the question of the benchmark "
                         "paper's claims? Per row: the pairs the method wins, ties and loses, "
                         "the mean difference (method - ERM; for gap lower is better), the "
                         "two-sided Wilcoxon signed-rank p-value and which variant ran (exact; "
                         "permutation: ties among the differences, every sign pattern "
                         "enumerated; approx: the normal approximation), Holm's correction over "
                         f"the methods of each metric and level, and the verdict at alpha = "
                         f"{ALPHA}. Differences are rounded to 1e-12 before ranking; with n "
                         "pairs no test can go below 2 / 2^n. The rows are comparisons.csv's.")]
        blocks += [("p", text) for text in (level_sentence(frame, lv) for lv in LEVELS) if text]
        blocks.append(("table", versus_erm_table(frame, percent)))
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
