"""The statistics of the report: the Friedman test over data sets with the Nemenyi post-hoc (the
benchmark paper's Figure 4, over its five metrics) and the groups of methods whose ranks cannot
be told apart. Each method's paired comparison with ERM is in `comparisons`.

The Friedman statistic is undefined with fewer than three methods, with fewer than two data sets
(nothing to rank across), and when every data set ties all methods (the tie correction divides by
zero); scipy would answer NaN with a RuntimeWarning, so those cases are caught here first and
reported in words. A method without a result on some data set is left out of the test (the
paper leaves OxonFair out, which has no FairFace result), not the data set.

References:
  Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7 (2006): the
  Friedman test, the Nemenyi post-hoc and the critical difference
  CD = q_alpha * sqrt(k (k + 1) / (6 N)).
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.methods.registry import BASELINE

LOWER_IS_BETTER = {"gap"}
ALPHA = 0.05
_TIE = 1e-12


def metric_table(info: dict, metric: str):
    """[data sets, methods] seed-mean test values of `metric` and the methods left out: a method
    without a finite value on some data set (no run, or no selection there) is left out, not the
    data set. Returns (DataFrame, {left-out method: [data sets without its value]})."""
    import pandas as pd

    methods = info["methods"]
    rows, missing = {}, {}
    for dataset, per_method in info["data"].items():
        values = []
        for m in methods:
            runs = per_method[m]["runs"] if m in per_method else []
            v = [r["result"]["test"].get(metric) for r in runs]
            v = np.asarray([x for x in v if x is not None], float)
            ok = v.size and np.isfinite(v).all()
            values.append(float(v.mean()) if ok else np.nan)
            if not ok:
                missing.setdefault(m, []).append(dataset)
        rows[dataset] = values
    table = pd.DataFrame.from_dict(rows, orient="index", columns=methods, dtype=float)
    kept = [m for m in methods if m not in missing]
    return table[kept], missing


def friedman(info: dict, metric: str) -> dict:
    """The Friedman test on the test `metric` over data sets, with the Nemenyi post-hoc.

    Returns:
      {"text": one sentence for the report, "ok": whether the test was computed}; when ok also
      "stat", "p", "ranks" (average rank per method, 1 = best, a pandas Series), "nemenyi"
      (pairwise p-values, a DataFrame), "n" (data sets used), "cd" (critical difference at
      ALPHA).
    """
    label = f"test {metric}"
    table, missing = metric_table(info, metric)
    methods = list(table.columns)
    k, n = len(methods), len(table)
    left_out = "".join(f" {m} is left out (no result on {', '.join(d)})." if m != BASELINE else
                       f" erm has no result on {', '.join(d)}."
                       for m, d in missing.items())
    if k < 3:
        return {"ok": False, "text": f"Friedman test on {label}: undefined for {k} methods "
                                     f"(it needs three or more); not computed.{left_out}"}
    if n < 2:
        return {"ok": False, "text": f"Friedman test on {label}: only one data set "
                                     f"({table.index[0]}) has results for every method; it needs "
                                     "two or more data sets to rank methods across; not "
                                     f"computed.{left_out}"}
    values = table.to_numpy()
    if np.all(np.abs(values - values[:, :1]) <= _TIE):
        return {"ok": False, "text": f"All methods tie on {label}; the Friedman test is "
                                     "undefined."}
    import scikit_posthocs as sp
    from scipy import stats

    if metric in LOWER_IS_BETTER:
        table = -table
    stat, p = stats.friedmanchisquare(*[table[m].to_numpy() for m in methods])
    ranks = table.rank(axis=1, ascending=False).mean()
    nemenyi = sp.posthoc_nemenyi_friedman(table.to_numpy())
    nemenyi.index = nemenyi.columns = methods
    cd = critical_difference(k, n)
    ranks_text = ", ".join(f"{m} {r:.2f}" for m, r in ranks.sort_values().items())
    groups = cliques(ranks, nemenyi)
    groups_text = ("; ".join("{" + ", ".join(g) + "}" for g in groups) if groups else
                   "none (every pair differs)")
    text = (f"Friedman test on {label}: chi2 = {stat:.3f}, p = {p:.4f} (over {n} data "
            f"sets); average ranks (1 = best): {ranks_text}; Nemenyi critical difference "
            f"at alpha = {ALPHA}: {cd:.2f}; methods whose ranks cannot be told apart: "
            f"{groups_text}.{left_out}")
    return {"ok": True, "text": text, "stat": float(stat), "p": float(p), "ranks": ranks,
            "nemenyi": nemenyi, "n": n, "cd": cd, "groups": groups, "left_out": missing}


def critical_difference(k: int, n: int, alpha: float = ALPHA) -> float:
    """Nemenyi's critical difference of average ranks for k methods over n data sets."""
    from scipy import stats

    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n)))


def cliques(ranks, nemenyi, alpha: float = ALPHA) -> list[list[str]]:
    """Maximal runs of methods (in rank order) whose pairwise Nemenyi p-values are all >= alpha:
    the groups a critical-difference diagram joins with a bar."""
    order = list(ranks.sort_values().index)
    out = []
    for i in range(len(order)):
        j = i
        while j + 1 < len(order) and all(nemenyi.loc[a, order[j + 1]] >= alpha
                                         for a in order[i:j + 1]):
            j += 1
        run = order[i:j + 1]
        if len(run) > 1 and not any(set(run) <= set(o) for o in out):
            out.append(run)
    return out


def letters(ranks, groups) -> dict:
    """{method: letters}: a compact letter display of the tie groups (methods sharing a letter
    cannot be told apart); a method in no group gets a letter of its own."""
    order = list(ranks.sort_values().index)
    groups = [list(g) for g in groups]
    groups += [[m] for m in order if not any(m in g for g in groups)]
    groups.sort(key=lambda g: min(order.index(m) for m in g))
    out = dict.fromkeys(order, "")
    for i, group in enumerate(groups):
        for m in group:
            out[m] += chr(ord("a") + i) if i < 26 else f"[{i}]"
    return out
