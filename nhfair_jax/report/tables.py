"""The report's tables as lists of rows of strings (header first), and their markdown form.

Numbers are fractions with three decimals, or with `percent` percentages with one decimal (the
paper's Table 2 style); a cell with nothing to show says why in words, never NaN.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.methods.registry import BASELINE
from nhfair_jax.metrics.direction import marked
from nhfair_jax.report import paper
from nhfair_jax.report.stats import ALPHA, LOWER_IS_BETTER, letters

METRICS = ("utility", "worst", "gap", "eqodd", "dp")  # Table 2's rows per data set
ZONES = ("optimal", "sub_optimal", "degradation", "unwanted")


def fmt(value, percent: bool = False) -> str:
    """One figure: 0.9123 -> "0.912", or with percent "91.2"; None or non-finite -> "n/a"."""
    if value is None or not np.isfinite(value):
        return "n/a"
    return f"{100 * value:.1f}" if percent else f"{value:.3f}"


def mean_std(values):
    """(mean, sample std) of the finite values; (None, None) when there are none."""
    values = np.asarray([v for v in values if v is not None and np.isfinite(v)], float)
    if values.size == 0:
        return None, None
    return float(values.mean()), float(values.std(ddof=1)) if values.size > 1 else 0.0


def cell(mean, std, better: bool, percent: bool = False) -> str:
    """"mean ± std"; bold when the comparison with ERM calls it better."""
    if mean is None:
        return "n/a"
    text = f"{fmt(mean, percent)} ± {fmt(std, percent)}"
    return f"**{text}**" if better else text


def verdicts(frame, level: str = "seed") -> dict:
    """{(method, metric): verdict} of comparisons.csv's rows at `level`."""
    rows = frame[frame["level"] == level]
    return {(r.method, r.metric): r.verdict for r in rows.itertuples()}


def bold_cells(info: dict, frame) -> set:
    """The (data set, metric, method) cells of Table 2 to set in bold: the seed-level verdict of
    (method, metric) is "better" (comparisons.csv, Holm over the methods) and on this data set
    the method's seed mean is on ERM's better side (a method better over all data sets is not
    marked where it trails ERM)."""
    said = verdicts(frame)
    out = set()
    for dataset, per_method in info["data"].items():
        for metric in METRICS:
            erm = mean_std([r["result"]["test"].get(metric) for r in per_method[BASELINE]["runs"]])[0]
            for method, entry in per_method.items():
                if method == BASELINE or said.get((method, metric)) != "better" or erm is None:
                    continue
                mean = mean_std([r["result"]["test"].get(metric) for r in entry["runs"]])[0]
                if mean is None:
                    continue
                d = round(mean - erm, 12)
                if (d < 0) if metric in LOWER_IS_BETTER else (d > 0):
                    out.add((dataset, metric, method))
    return out


def _not_shown(entry) -> str | None:
    if entry["runs"]:
        return None
    return "no selection (all unwanted)" if entry["selection"]["candidates"] else "not run"


def _method_grid(info: dict, text) -> list[list[str]]:
    """Header + rows: data set, metric, one cell per method: `text(dataset, metric, method,
    entry)`, or what `_not_shown` says of a method other than the baseline."""
    methods = info["methods"]
    out = [["data set", "metric", *methods]]
    for dataset, per_method in info["data"].items():
        for metric in METRICS:
            row = [dataset, marked(metric)]
            for m in methods:
                entry = per_method[m]
                missing = _not_shown(entry) if m != BASELINE else None
                row.append(missing or text(dataset, metric, m, entry))
            out.append(row)
    return out


def table2(info: dict, percent: bool = False, frame=None) -> list[list[str]]:
    """Header + rows: data set, metric, one mean ± std cell per method (test, over seeds), bold
    where `bold_cells` says (none without comparisons.csv's `frame`)."""
    bold = bold_cells(info, frame) if frame is not None else set()

    def text(dataset, metric, m, entry):
        mean, std = mean_std([r["result"]["test"].get(metric) for r in entry["runs"]])
        return cell(mean, std, (dataset, metric, m) in bold, percent)

    return _method_grid(info, text)


def interval_table(info: dict, percent: bool = False) -> list[list[str]]:
    """Header + rows: data set, metric, per method the selected trial's own test value (one run,
    its first seed) with its bootstrap interval, "value [lo, hi]"."""

    def text(dataset, metric, m, entry):
        selected = entry["selection"]["selected"]
        if selected is None:
            return "n/a"
        value = selected["result"]["test"].get(metric)
        interval = (selected.get("interval") or {}).get(metric)
        out = fmt(value, percent)
        if interval is not None:
            out += f" [{fmt(interval[0], percent)}, {fmt(interval[1], percent)}]"
        return out

    return _method_grid(info, text)


def zone_table(info: dict) -> list[list[str]]:
    """Per method and split: how many data sets put its selected model in each zone."""
    out = [["method", "split", *ZONES, "no selection"]]
    for method in info["methods"][1:]:
        for split in ("val", "test"):
            counts = dict.fromkeys((*ZONES, None), 0)
            for per_method in info["data"].values():
                entry = per_method[method]
                counts[entry["selection"]["zone"] if split == "val" else entry["test_zone"]] += 1
            out.append([method, split, *(str(counts[z]) for z in ZONES), str(counts[None])])
    return out


def m_rule_table(info: dict, percent: bool = False) -> list[list[str]]:
    """FWH/DTO (seed mean) against the M rule (one run) on test utility, worst group and gap."""
    keys = ("utility", "worst", "gap")
    out = [["data set", "method", "rule", *(f"test {marked(k)}" for k in keys)]]
    for dataset, per_method in info["data"].items():
        for method, entry in per_method.items():
            if entry["runs"]:
                vals = [mean_std([r["result"]["test"].get(k) for r in entry["runs"]])[0]
                        for k in keys]
                out.append([dataset, method, "FWH/DTO (seed mean)",
                            *(fmt(v, percent) for v in vals)])
            else:
                out.append([dataset, method, "FWH/DTO (seed mean)", *["no selection"] * 3])
            run = entry["selection"]["m_rule"]
            if run is not None:
                out.append([dataset, method, "M rule (one run)",
                            *(fmt(run["result"]["test"].get(k), percent) for k in keys)])
    return out


def rank_table(results: dict) -> list[list[str]]:
    """Average rank (1 = best) of every method on each metric with its tie-group letters
    (methods sharing a letter cannot be told apart by the Nemenyi test); `results`:
    {metric: friedman(...)}. A metric without the test reads "not computed"; a method the test
    left out, "left out"."""
    metrics = list(results)
    methods = []
    for r in results.values():
        for m in (list(r["ranks"].index) if r["ok"] else []):
            if m not in methods:
                methods.append(m)
    out = [["method", *metrics]]
    marks = {m: letters(r["ranks"], r["groups"]) for m, r in results.items() if r["ok"]}
    for method in methods:
        row = [method]
        for metric in metrics:
            r = results[metric]
            if not r["ok"]:
                row.append("not computed")
            elif method not in r["ranks"].index:
                row.append("left out")
            else:
                row.append(f"{r['ranks'][method]:.2f} ({marks[metric][method]})")
        out.append(row)
    return out


def versus_erm_table(frame, percent: bool = False) -> list[list[str]]:
    """comparisons.csv's rows as a table, per method and metric its two levels: the pairs, how
    many the method wins / ties / loses against ERM, the mean difference (method - ERM), the
    Wilcoxon p-value and which variant ran, Holm's, and the verdict."""
    out = [["method", "metric", "level", "pairs", "wins / ties / losses", "mean difference",
            "Wilcoxon p", "test", "Holm p", f"at alpha = {ALPHA}"]]
    for r in frame.itertuples():
        diff = "n/a" if not np.isfinite(r.mean_diff) else \
            (f"{100 * r.mean_diff:+.2f}" if percent else f"{r.mean_diff:+.4f}")
        out.append([r.method, marked(r.metric), r.level, str(r.n_pairs),
                    f"{r.wins} / {r.ties} / {r.losses}", diff, _p_value(r.p), r.test,
                    _p_value(r.p_holm), r.verdict])
    return out


def _p_value(value) -> str:
    return f"{value:.3g}" if value is not None and np.isfinite(value) else "n/a"


# The paper's DP and EqOdd are its code's: for a multi-class target the mean over classes of
# one-vs-rest terms (our dp_mean, eqodd_ovr; docs/metrics.md), for a two-class one our dp and
# eqodd, which the variants then equal.
PAPER_KEYS = {"dp": "dp_mean", "eqodd": "eqodd_ovr"}


def _as_the_paper(test: dict, metric: str):
    """A run's test value of `metric` as the paper's table defines it (the plain key for a run
    written before the variants existed)."""
    value = test.get(PAPER_KEYS.get(metric, metric))
    return test.get(metric) if value is None else value


def paper_table(info: dict, percent: bool = False) -> list[list[str]]:
    """Our test mean ± std beside the benchmark paper's cell (its Table 2 mean, Table 20 std) for
    every data set of the report that is one of the paper's seven, and the difference in units
    of the paper's std; dp and eqodd as the paper's code defines them (PAPER_KEYS). Header only
    when no data set is."""

    out = [["data set", "metric", "method", "ours", "paper", "(ours - paper) / paper's std"]]
    for dataset, per_method in info["data"].items():
        erm = per_method[BASELINE]["selection"]["selected"]
        name = erm.get("data_name") if erm else None
        if paper.paper_dataset(name or "") is None:
            continue
        for metric in METRICS:
            for method, entry in per_method.items():
                cell_ = paper.cell(name, metric, method)
                if cell_ is None:
                    continue
                mean, std = mean_std([_as_the_paper(r["result"]["test"], metric)
                                      for r in entry["runs"]])
                ours = "no selection" if mean is None else \
                    f"{fmt(mean, percent)} ± {fmt(std, percent)}"
                units = "n/a" if mean is None or cell_[1] == 0 else \
                    f"{(mean - cell_[0]) / cell_[1]:+.1f}"
                out.append([f"{dataset} ({paper.paper_dataset(name)})", marked(metric), method,
                            ours, f"{fmt(cell_[0], percent)} ± {fmt(cell_[1], percent)}",
                            units])
    return out


def nemenyi_table(nemenyi) -> list[list[str]]:
    """Pairwise Nemenyi p-values as a square table."""
    return [["", *nemenyi.columns]] + [[str(i), *(_p(v) for v in row)]
                                       for i, row in zip(nemenyi.index, nemenyi.to_numpy())]


def _p(value) -> str:
    return f"{value:.3f}" if np.isfinite(value) else "n/a"


def md_table(rows) -> str:
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)
