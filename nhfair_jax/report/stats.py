"""The statistics of the report: the Friedman test over data sets with the Nemenyi post-hoc (the
benchmark paper's Figure 4, over its five metrics), the groups of methods whose ranks cannot be
told apart, and each method's paired comparison with ERM over seeds and data sets.

The Friedman statistic is undefined with fewer than three methods, with fewer than two data sets
(nothing to rank across), and when every data set ties all methods (the tie correction divides by
zero); scipy would answer NaN with a RuntimeWarning, so those cases are caught here first and
reported in words. A method without a result on some data set is left out of the test (the
paper leaves OxonFair out, which has no FairFace result), not the data set.

The comparison with ERM pairs, on every data set, the method's seed-s run with ERM's seed-s run
(both the selected configurations) and tests the paired differences with the Wilcoxon
signed-rank test (two-sided; exact for small samples), Holm-corrected over the methods compared
on the same metric. With n pairs the exact test cannot go below 2 / 2^n, so with five seeds on
one data set (p >= 0.0625) no method can be told apart from ERM at 0.05; the report says so.

References:
  Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7 (2006): the
  Friedman test, the Nemenyi post-hoc and the critical difference
  CD = q_alpha * sqrt(k (k + 1) / (6 N)); Wilcoxon's signed-rank test for two classifiers.
  Holm, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6 (1979).
"""

from __future__ import annotations

import numpy as np

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
    left_out = "".join(f" {m} is left out (no result on {', '.join(d)})." if m != "erm" else
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


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN entries stay NaN and do not count)."""
    p = np.asarray(pvalues, float)
    out = np.full_like(p, np.nan)
    idx = np.flatnonzero(np.isfinite(p))
    order = idx[np.argsort(p[idx], kind="stable")]
    m, running = len(order), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * p[i]))
        out[i] = running
    return out


def paired_with_erm(info: dict, metric: str) -> list[dict]:
    """Per method other than ERM: the paired test-`metric` differences with ERM (same data set,
    same seed) and the Wilcoxon signed-rank test, Holm-corrected over the methods.

    Each entry: method, n (pairs), better / ties / worse (pairs where the method beats, equals,
    trails ERM; `gap` counts lower as better), mean (mean difference method - ERM, in the
    metric's own direction), p (Wilcoxon, two-sided; None without two non-zero differences),
    p_holm, verdict ("better", "worse", "not told apart", or "too few pairs" when even the most
    extreme sample could not reach ALPHA), floor (the smallest p n pairs allow).
    """
    from scipy import stats

    out = []
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    for method in info["methods"]:
        if method == "erm":
            continue
        diffs = []
        for per_method in info["data"].values():
            erm = {r["params"]["seed"]: r["result"]["test"].get(metric)
                   for r in per_method["erm"]["runs"]}
            for r in per_method.get(method, {}).get("runs", []):
                a, b = r["result"]["test"].get(metric), erm.get(r["params"]["seed"])
                if a is not None and b is not None and np.isfinite(a) and np.isfinite(b):
                    diffs.append(a - b)
        d = np.asarray(diffs, float)
        better = int((sign * d > _TIE).sum())
        worse = int((sign * d < -_TIE).sum())
        nonzero = d[np.abs(d) > _TIE]
        p, rank_sum = None, 0.0
        if nonzero.size:  # the signed-rank statistic's direction: R+ - R- of sign x d
            from scipy.stats import rankdata

            rank_sum = float((np.sign(sign * nonzero) * rankdata(np.abs(nonzero))).sum())
        if nonzero.size >= 2:
            p = float(stats.wilcoxon(nonzero, alternative="two-sided").pvalue)
        out.append({"method": method, "n": int(d.size), "better": better, "worse": worse,
                    "ties": int(d.size) - better - worse, "rank_sum": rank_sum,
                    "mean": float(d.mean()) if d.size else None, "p": p,
                    "floor": float(2.0 ** (1 - nonzero.size)) if nonzero.size else 1.0})
    adjusted = holm([np.nan if e["p"] is None else e["p"] for e in out])
    for e, ph in zip(out, adjusted):
        e["p_holm"] = None if not np.isfinite(ph) else float(ph)
        if e["n"] and e["ties"] == e["n"]:
            e["verdict"] = "identical"
        elif e["floor"] > ALPHA:
            e["verdict"] = "too few pairs"
        elif e["p_holm"] is not None and e["p_holm"] < ALPHA:
            e["verdict"] = "better" if e["rank_sum"] > 0 else "worse"
        else:
            e["verdict"] = "not told apart"
    return out
