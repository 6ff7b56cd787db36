"""The fairness report of a file of predictions: every figure with its bootstrap interval, per
grouping (the intersection, then each attribute alone), and its markdown, JSON and CSV forms."""

from __future__ import annotations

import csv
import io as _stringio
import os

import numpy as np

from nhfair_jax import rundir
from nhfair_jax.errors import UserError
from nhfair_jax.evaluate.predictions import MIN_GROUP, Predictions
from nhfair_jax.metrics import bootstrap, demographic_parity_ratio
from nhfair_jax.metrics.bootstrap import bootstrap_rate
from nhfair_jax.metrics.direction import LEGEND, marked


def _groupings(p: Predictions) -> list[tuple[str, np.ndarray, list]]:
    """(name, codes of observed groups, names): the intersection, then each attribute alone."""
    # here, not at the top: the data package imports JAX, which evaluate does not need
    from nhfair_jax.data.store import combine_groups

    out = []
    if len(p.attributes) > 1:
        combined, names = combine_groups(p.attribute_codes, p.attribute_names)
        observed, codes = np.unique(combined, return_inverse=True)
        out.append((" & ".join(p.attributes), codes.astype(np.int64),
                    [names[a] for a in observed]))
    out += list(zip(p.attributes, p.attribute_codes, p.attribute_names))
    return out


def _empty_cells(y_true, groups, group_names, class_names, scores: bool) -> list[str]:
    """Which (group, class) cells hold no example, and the figures that leave them out."""
    counts = np.zeros((len(group_names), len(class_names)), np.int64)
    np.add.at(counts, (groups, y_true), 1)
    out = []
    for a, c in zip(*np.nonzero(counts == 0)):
        uses = ["eqodd", "deo", "eqodd_ovr"]
        uses += ["eqopp"] if len(class_names) == 2 and c == 1 else []
        uses += ["the group's AUC"] if scores else []
        out.append(f"group {group_names[a]!r} has no example of class {class_names[c]!r}: that "
                   f"cell is left out of {', '.join(uses)}")
    return out


def evaluate(p: Predictions, *, n: int = 1000, seed: int = 0, confidence: float = 0.95,
             min_group: int = MIN_GROUP) -> dict:
    """The report of one predictions file: figures with intervals, per-group rows, warnings.

    Returns:
      {"figures": {metric: {"value", "lo", "hi"}} of the first grouping (the intersection when
      several group columns are given), "groupings": {name: {"figures", "groups"}} for every
      grouping, "warnings", "left_out", "input", "bootstrap"}.
    """
    c = len(p.class_names)
    groupings, warnings, left_out = {}, [], []
    for name, codes, names in _groupings(p):
        g = len(names)
        ci = bootstrap(None, p.y_true, p.y_pred, codes, y_score=p.score, n=max(n, 1), seed=seed,
                       confidence=confidence, num_classes=c, num_groups=g)
        ci = {k: v for k, v in ci.items() if k not in ("class_names", "group_names")}
        if n == 0:
            ci = {k: _no_interval(v) for k, v in ci.items()}
        per_group = [{"group": names[a], "size": int(ci["group_size"][a]["value"]),
                      "acc": ci["group_acc"][a]} for a in range(g)]
        if "group_auc" in ci:
            for a in range(g):
                per_group[a]["auc"] = ci["group_auc"][a]
        figures = {k: v for k, v in ci.items() if isinstance(v, dict)}
        if c == 2:  # what explains dp and eqodd: each group's rates of the positive class
            figures["dp_ratio"] = _dp_ratio(p, codes, g, n, seed, confidence)
            chosen = p.y_pred == 1
            for key, rows in (("selection_rate", slice(None)), ("tpr", p.y_true == 1),
                              ("fpr", p.y_true == 0)):
                rates = bootstrap_rate(chosen[rows], codes[rows], n=max(n, 1), seed=seed,
                                       confidence=confidence, num_groups=g)["group_rate"]
                for a in range(g):
                    per_group[a][key] = rates[a] if n else _no_interval(rates[a])
        for metric, (col, codes_cf) in p.paired.items():
            has = codes_cf >= 0
            flips = bootstrap_rate(p.y_pred[has] != codes_cf[has], codes[has], n=max(n, 1),
                                   seed=seed, confidence=confidence, num_groups=g)
            figures[metric] = flips["rate"] if n else _no_interval(flips["rate"])
            for a in range(g):
                per_group[a][metric] = (flips["group_rate"][a] if n
                                        else _no_interval(flips["group_rate"][a]))
        groupings[name] = {"figures": figures, "groups": per_group}
        for row in per_group:
            if row["size"] < min_group:
                warnings.append(f"{name}: group {row['group']!r} has {row['size']} examples "
                                f"(under {min_group}): its figures are noisy")
        if g < 2:
            warnings.append(f"{name}: only one group ({names[0]!r}); gaps and parity are "
                            "undefined")
        left_out += [f"{name}: {m}" for m in _empty_cells(p.y_true, codes, names, p.class_names,
                                                          p.score is not None)]
    first = next(iter(groupings.values()))
    return {
        "figures": first["figures"], "groupings": groupings, "warnings": warnings,
        "left_out": left_out,
        "input": {"predictions": p.source, "rows": int(p.y_true.size), "classes": p.class_names,
                  "group_columns": p.attributes, "score": p.score is not None,
                  "paired": {m: col for m, (col, _) in p.paired.items()}},
        "bootstrap": {"resamples": n, "seed": seed, "confidence": confidence,
                      "stratified_by": "group", "interval": "percentile"},
    }


def _dp_ratio(p, codes, g: int, n: int, seed: int, confidence: float) -> dict:
    """The demographic-parity ratio (smallest / largest group selection rate of the positive
    class) with its group-stratified bootstrap interval."""
    def ratio(y_true, y_pred, groups, num_classes, num_groups):
        return {"dp_ratio": demographic_parity_ratio(y_true, y_pred, groups,
                                                     num_classes=num_classes,
                                                     num_groups=num_groups)}

    ci = bootstrap(ratio, p.y_true, p.y_pred, codes, n=max(n, 1), seed=seed,
                   confidence=confidence, num_classes=2, num_groups=g)["dp_ratio"]
    return ci if n else _no_interval(ci)


def _no_interval(v):
    if isinstance(v, list):
        return [_no_interval(x) for x in v]
    return {**v, "lo": float("nan"), "hi": float("nan")}


# --- writing -------------------------------------------------------------------------------

# Figures in the order a reader looks for them; any other figure follows.
ORDER = ("acc", "worst_acc", "gap_acc", "auc", "worst_auc", "gap_auc", "dp", "dp_ratio", "eqodd",
         "eqopp", "deo", "deo_mean", "dp_mean", "eqodd_ovr", "cd", "rfp", "count")
GROUP_FIGURES = ("acc", "auc", "selection_rate", "tpr", "fpr", "cd", "rfp")


def format_figure(fig: dict) -> str:
    v, lo, hi = fig["value"], fig["lo"], fig["hi"]
    if v is None or v != v:
        return "undefined"
    if lo is None or lo != lo:
        return f"{v:.4f}"
    return f"{v:.4f} [{lo:.4f}, {hi:.4f}]"


def ordered_figures(figures: dict) -> list[str]:
    return [k for k in ORDER if k in figures] + sorted(k for k in figures if k not in ORDER)


def to_json(report: dict) -> dict:
    """report.json: every figure of the first grouping under its metric name, then the rest."""
    first, *others = report["groupings"].items()
    return {**report["figures"], "groups": first[1]["groups"],
            "groupings": {name: g for name, g in others},
            "warnings": report["warnings"], "left_out": report["left_out"],
            "input": report["input"], "bootstrap": report["bootstrap"]}


def to_csv(report: dict) -> str:
    """One row per (grouping, group): size and each per-group figure with its bounds."""
    keys = [k for k in GROUP_FIGURES
            if any(k in row for g in report["groupings"].values() for row in g["groups"])]
    buf = _stringio.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["grouping", "group", "size",
                *(f"{k}{s}" for k in keys for s in ("", "_lo", "_hi"))])
    for name, g in report["groupings"].items():
        for row in g["groups"]:
            cells = []
            for k in keys:
                fig = row.get(k) or {}
                cells += [_csv_num(fig.get(s)) for s in ("value", "lo", "hi")]
            w.writerow([name, row["group"], row["size"], *cells])
    return buf.getvalue()


def _csv_num(v) -> str:
    return "" if v is None or v != v else repr(float(v))


def to_markdown(report: dict) -> str:
    b, inp = report["bootstrap"], report["input"]
    ci = (f"{b['confidence']:.0%} percentile bootstrap intervals, {b['resamples']} resamples "
          f"stratified by group, seed {b['seed']}" if b["resamples"] else "no intervals "
          "(--bootstrap 0)")

    positive = (f" The positive class (selection rate, TPR, FPR, eqopp, dp_ratio) is "
                f"{inp['classes'][-1]!r}." if len(inp["classes"]) == 2 else "")
    lines = ["# Fairness report", "",
             f"{inp['predictions']}: {inp['rows']} rows, classes {', '.join(inp['classes'])}; "
             f"groups from {', '.join(inp['group_columns'])}. Values are fractions; {ci}."
             f"{positive}", "", f"{LEGEND}; dp_ratio is the 80% rule's ratio (at least 0.8 "
             "passes it).", ""]
    for name, g in report["groupings"].items():
        figs = g["figures"]
        lines += [f"## Groups: {name}", "", "| figure | value [lo, hi] |", "|---|---|"]
        lines += [f"| {marked(k)} | {format_figure(figs[k])} |" for k in ordered_figures(figs) if k != "count"]
        keys = [k for k in GROUP_FIGURES if k in g["groups"][0]]
        lines += ["", "| group | size | " + " | ".join(marked(k) for k in keys) + " |",
                  "|---|---|" + "---|" * len(keys)]
        lines += [f"| {row['group']} | {row['size']} | " + " | ".join(format_figure(row[k]) for k in keys)
                  + " |" for row in g["groups"]]
        lines.append("")
    if report["warnings"]:
        lines += ["## Warnings", ""] + [f"- {w}" for w in report["warnings"]] + [""]
    if report["left_out"]:
        lines += ["## Empty cells left out", ""] + [f"- {m}" for m in report["left_out"]] + [""]
    return "\n".join(lines)


def write_report(report: dict, out: str) -> list[str]:
    """Writes report.md, report.json and groups.csv atomically; returns their paths."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise UserError(f"--out {out}: cannot create it ({e.strerror or e})") from None
    paths = [os.path.join(out, f) for f in ("report.md", "report.json", "groups.csv")]
    rundir.atomic_write(paths[0], lambda f: f.write(to_markdown(report)))
    rundir.write_json(paths[1], to_json(report))
    rundir.atomic_write(paths[2], lambda f: f.write(to_csv(report)))
    return paths
