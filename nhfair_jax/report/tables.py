"""The report's tables as lists of rows of strings (header first), and their markdown form.

Numbers are fractions with three decimals, or with `percent` percentages with one decimal (the
paper's Table 2 style); a cell with nothing to show says why in words, never NaN.
"""

from __future__ import annotations

import numpy as np

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


def cell(mean, std, better: bool, percent: bool = False, interval=None) -> str:
    """"mean ± std", with the bootstrap interval as "[lo, hi]" when given; bold when better."""
    if mean is None:
        return "n/a"
    text = f"{fmt(mean, percent)} ± {fmt(std, percent)}"
    if interval is not None:
        text += f" [{fmt(interval[0], percent)}, {fmt(interval[1], percent)}]"
    return f"**{text}**" if better else text


def table2(info: dict, percent: bool = False) -> list[list[str]]:
    """Header + rows: data set, metric, one mean ± std cell per method (test, over seeds); with
    bootstrap intervals, the 95% interval of the selected trial's own run (its first seed) after
    it."""
    methods = info["methods"]
    out = [["data set", "metric", *methods]]
    for dataset, per_method in info["data"].items():
        for metric in METRICS:
            stats = {m: mean_std([r["result"]["test"].get(metric) for r in e["runs"]])
                     for m, e in per_method.items()}
            erm_mean = stats["erm"][0]
            row = [dataset, metric]
            for m in methods:
                entry = per_method[m]
                mean, std = stats.get(m, (None, None))
                if m != "erm" and not entry["runs"]:
                    row.append("no selection (all unwanted)" if entry["selection"]["candidates"]
                               else "not run")
                    continue
                better = (m != "erm" and mean is not None and erm_mean is not None and
                          (mean < erm_mean if metric in LOWER_IS_BETTER else mean > erm_mean))
                selected = entry["selection"]["selected"]
                interval = (selected.get("interval") or {}).get(metric) if selected else None
                row.append(cell(mean, std, better, percent, interval))
            out.append(row)
    return out


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
    out = [["data set", "method", "rule", "test utility", "test worst", "test gap"]]
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


def versus_erm_table(comparisons: dict, percent: bool = False) -> list[list[str]]:
    """Per method and metric: the pairs, how many the method wins / ties / loses against ERM,
    the mean difference (method - ERM), the Wilcoxon p-value, Holm's, and the verdict.
    `comparisons`: {metric: paired_with_erm(...)}."""
    out = [["method", "metric", "pairs", "better / tie / worse", "mean difference",
            "Wilcoxon p", "Holm p", f"at alpha = {ALPHA}"]]
    methods = [e["method"] for e in next(iter(comparisons.values()), [])]
    for method in methods:
        for metric, entries in comparisons.items():
            e = next(x for x in entries if x["method"] == method)
            diff = "n/a" if e["mean"] is None else \
                (f"{100 * e['mean']:+.2f}" if percent else f"{e['mean']:+.4f}")
            verdict = e["verdict"]
            if verdict == "too few pairs":
                verdict = f"too few pairs (p >= {e['floor']:.3g})"
            out.append([method, metric, str(e["n"]),
                        f"{e['better']} / {e['ties']} / {e['worse']}", diff,
                        "n/a" if e["p"] is None else f"{e['p']:.3g}",
                        "n/a" if e["p_holm"] is None else f"{e['p_holm']:.3g}", verdict])
    return out


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
    from nhfair_jax.report import paper

    out = [["data set", "metric", "method", "ours", "paper", "(ours - paper) / paper's std"]]
    for dataset, per_method in info["data"].items():
        erm = per_method["erm"]["selection"]["selected"]
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
                out.append([f"{dataset} ({paper.paper_dataset(name)})", metric, method, ours,
                            f"{fmt(cell_[0], percent)} ± {fmt(cell_[1], percent)}", units])
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
