"""The Friedman test over data sets and the Nemenyi post-hoc, or a sentence saying why not.

The Friedman statistic is undefined with fewer than three methods, with fewer than two data sets
(nothing to rank across), and when every data set ties all methods (the tie correction divides by
zero); scipy would answer NaN with a RuntimeWarning, so those cases are caught here first and
reported in words.

References:
  Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7 (2006): the
  Friedman test, the Nemenyi post-hoc and the critical difference
  CD = q_alpha * sqrt(k (k + 1) / (6 N)).
"""

from __future__ import annotations

import numpy as np

LOWER_IS_BETTER = {"gap"}
ALPHA = 0.05
_TIE = 1e-12


def metric_table(info: dict, metric: str):
    """[data sets, methods] seed-mean test values of `metric`; data sets where some method has
    no finite value are left out."""
    import pandas as pd

    methods = info["methods"]
    rows = {}
    for dataset, per_method in info["data"].items():
        values = []
        for m in methods:
            runs = per_method[m]["runs"]
            v = [r["result"]["test"].get(metric) for r in runs]
            v = np.asarray([x for x in v if x is not None], float)
            values.append(float(v.mean()) if v.size and np.isfinite(v).all() else np.nan)
        if np.isfinite(values).all():
            rows[dataset] = values
    return pd.DataFrame.from_dict(rows, orient="index", columns=methods, dtype=float)


def friedman(info: dict, metric: str) -> dict:
    """The Friedman test on the test `metric` over data sets, with the Nemenyi post-hoc.

    Returns:
      {"text": one sentence for the report, "ok": whether the test was computed}; when ok also
      "stat", "p", "ranks" (average rank per method, 1 = best, a pandas Series), "nemenyi"
      (pairwise p-values, a DataFrame), "n" (data sets used), "cd" (critical difference at
      ALPHA).
    """
    methods = info["methods"]
    k = len(methods)
    label = f"test {metric}"
    if k < 3:
        return {"ok": False, "text": f"Friedman test on {label}: undefined for {k} methods "
                                     "(it needs three or more); not computed."}
    table = metric_table(info, metric)
    n = len(table)
    if n < 2:
        which = (f"only one data set ({table.index[0]}) has" if n == 1
                 else "no data set has")
        return {"ok": False, "text": f"Friedman test on {label}: {which} results for every "
                                     "method; it needs two or more data sets to rank methods "
                                     "across; not computed."}
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
    left_out = len(info["data"]) - n
    note = (f" ({left_out} data set(s) without results for every method left out)"
            if left_out else "")
    text = (f"Friedman test on {label}: chi2 = {stat:.3f}, p = {p:.4f} (over {n} data "
            f"sets{note}); average ranks (1 = best): {ranks_text}; Nemenyi critical difference "
            f"at alpha = {ALPHA}: {cd:.2f}.")
    return {"ok": True, "text": text, "stat": float(stat), "p": float(p), "ranks": ranks,
            "nemenyi": nemenyi, "n": n, "cd": cd}


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
