"""The report's tables as lists of rows of strings (header first), and their markdown form.

Numbers are fractions with three decimals, or with `percent` percentages with one decimal (the
paper's Table 2 style); a cell with nothing to show says why in words, never NaN.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.report.stats import LOWER_IS_BETTER

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
