"""Each method against ERM, at two levels, with the Wilcoxon signed-rank test and Holm's
correction over the methods: what `comparisons.csv` holds and the report's tables show.

Levels:
  seed     one pair per (data set, seed): the method's seed-s run against ERM's seed-s run on
           the same data set (both the selected configurations). It asks whether the methods'
           differences on these data sets are beyond the noise of training seeds (and, with
           splits per seed, of the data split).
  dataset  one pair per data set: the mean over seeds of that data set's seed-level
           differences (the method's seed mean minus ERM's over the seeds both have). It asks
           the question of the benchmark paper's claims: does the method beat ERM across data
           sets? With N data sets the test has N pairs whatever the number of seeds.

Within a level and metric the p-values of the methods are adjusted with Holm's step-down
procedure (capped at 1). A method whose differences are all zero, or that has fewer than two
non-zero differences, gets no test and does not count in the family.

The test: differences are rounded to 12 decimals (so that differences equal up to floating
point noise tie), zero differences are dropped (Wilcoxon's own treatment), and the two-sided
signed-rank test runs on the rest as scipy's `method="auto"` would choose it, said in the
`test` column:
  exact        no ties among |d| and at most 50 pairs: the exact null distribution;
  permutation  ties and at most 13 pairs: every sign pattern enumerated (2^13 < scipy's 9999
               resamples, so the p-value is deterministic); run as `scipy.stats.
               permutation_test` with the signed-rank statistic vectorised (the same p-value
               as `wilcoxon`'s own permutation branch, which evaluates the statistic one sign
               pattern at a time: 1.7 s for 13 pairs where this takes 0.06 s);
  approx       otherwise: the normal approximation with tie and continuity corrections.
With n non-zero pairs no test can go below 2 / 2^n (every sign the same); with m methods in
the family Holm's smallest adjusted p-value is m times the smallest raw one. When even that
cannot reach ALPHA the verdict is "too few pairs", and the report says so of the whole level.

References: Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1
(1945); Demšar, JMLR 7 (2006), Sec. 3.1.3 (the signed-rank test over data sets); Holm, Scand.
J. Statist. 6 (1979).
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.methods.registry import BASELINE
from nhfair_jax.report.stats import ALPHA, LOWER_IS_BETTER

LEVELS = ("seed", "dataset")
COLUMNS = ["method", "metric", "level", "n_pairs", "wins", "ties", "losses", "mean_diff", "p",
           "p_holm", "test", "verdict"]
DECIMALS = 12  # differences are rounded to this many decimals before ranking
VERDICTS = ("better", "worse", "not told apart", "too few pairs", "identical")


def _finite(value) -> bool:
    return value is not None and np.isfinite(value)


def seed_differences(info: dict, method: str, metric: str) -> dict:
    """{data set: {seed: method - ERM}} of the test `metric`, pairing each data set's runs with
    that data set's own ERM run of the same seed (seeds where either has no finite value are
    left out)."""
    out = {}
    for dataset, per_method in info["data"].items():
        erm = {r["params"]["seed"]: r["result"]["test"].get(metric)
               for r in per_method[BASELINE]["runs"]}
        pairs = {}
        for run in per_method.get(method, {}).get("runs", []):
            seed = run["params"]["seed"]
            a, b = run["result"]["test"].get(metric), erm.get(seed)
            if _finite(a) and _finite(b):
                pairs[seed] = float(a) - float(b)
        if pairs:
            out[dataset] = pairs
    return out


def differences(info: dict, method: str, metric: str, level: str) -> np.ndarray:
    """The paired differences (method - ERM, rounded to DECIMALS) at `level` ("seed": one per
    data set and seed; "dataset": one per data set, the mean of its seed differences)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    per_dataset = seed_differences(info, method, metric)
    if level == "seed":
        d = [v for pairs in per_dataset.values() for v in pairs.values()]
    else:
        d = [float(np.mean(list(pairs.values()))) for pairs in per_dataset.values()]
    return np.round(np.asarray(d, float), DECIMALS)


def wilcoxon(d) -> tuple[float | None, str]:
    """(two-sided p, test) of the signed-rank test on the non-zero entries of `d` (already
    rounded), the variant chosen as scipy's "auto" chooses it (module docstring); (None,
    "none") with fewer than two non-zero differences."""
    from scipy import stats

    d = np.asarray(d, float)
    d = d[d != 0]
    if d.size < 2:
        return None, "none"
    _, counts = np.unique(np.abs(d), return_counts=True)
    ties = bool((counts > 1).any())
    if d.size > 50 or (ties and d.size > 13):
        return float(stats.wilcoxon(d, method="asymptotic").pvalue), "approx"
    if ties:
        return float(stats.permutation_test((d,), _rank_sum_plus, permutation_type="samples",
                                            vectorized=True, alternative="two-sided",
                                            n_resamples=9999).pvalue), "permutation"
    return float(stats.wilcoxon(d, method="exact").pvalue), "exact"


def _rank_sum_plus(d, axis):
    """The signed-rank statistic R+ (the ranks of |d| where d > 0), along `axis`: the ranks do
    not change when signs are flipped, only which of them count."""
    from scipy.stats import rankdata

    return (rankdata(np.abs(d), axis=axis) * (d > 0)).sum(axis=axis)


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values, each at most 1 (NaN entries stay NaN and do not
    count in the family)."""
    p = np.asarray(pvalues, float)
    out = np.full_like(p, np.nan)
    idx = np.flatnonzero(np.isfinite(p))
    order = idx[np.argsort(p[idx], kind="stable")]
    m, running = len(order), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * p[i]))
        out[i] = running
    return out


def paired_with_erm(info: dict, metric: str, level: str = "seed") -> list[dict]:
    """One entry per method other than ERM at `level`: the COLUMNS fields (n_pairs, wins /
    ties / losses counted in the metric's direction, `gap` lower is better; mean_diff = mean of
    method - ERM, in the metric's own units; p, p_holm, test, verdict) plus "floor" (the
    smallest p its non-zero pairs allow) and "holm_floor" (the smallest Holm-adjusted p any
    method of the family could reach)."""
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    out = []
    for method in info["methods"]:
        if method == BASELINE:
            continue
        d = differences(info, method, metric, level)
        nonzero = d[d != 0]
        p, test = wilcoxon(d)
        rank_sum = 0.0  # the direction of the signed-rank statistic: R+ - R- of sign x d
        if nonzero.size:
            from scipy.stats import rankdata

            rank_sum = float((np.sign(sign * nonzero) * rankdata(np.abs(nonzero))).sum())
        wins, losses = int((sign * d > 0).sum()), int((sign * d < 0).sum())
        out.append({"method": method, "metric": metric, "level": level, "n_pairs": int(d.size),
                    "wins": wins, "ties": int(d.size) - wins - losses, "losses": losses,
                    "mean_diff": round(float(d.mean()), DECIMALS) if d.size else None, "p": p, "test": test,
                    "rank_sum": rank_sum,
                    "floor": float(2.0 ** (1 - nonzero.size)) if nonzero.size else 1.0})
    adjusted = holm([np.nan if e["p"] is None else e["p"] for e in out])
    tested = [e for e in out if e["p"] is not None]
    holm_floor = min(1.0, len(tested) * min(e["floor"] for e in tested)) if tested else 1.0
    for e, ph in zip(out, adjusted):
        e["p_holm"] = float(ph) if np.isfinite(ph) else None
        e["holm_floor"] = holm_floor
        if e["n_pairs"] and e["ties"] == e["n_pairs"]:
            e["verdict"] = "identical"
        elif e["floor"] >= ALPHA or holm_floor >= ALPHA:
            e["verdict"] = "too few pairs"
        elif e["p_holm"] is not None and e["p_holm"] < ALPHA:
            e["verdict"] = "better" if e["rank_sum"] > 0 else "worse"
        else:
            e["verdict"] = "not told apart"
    return out


def comparison_rows(info: dict, metrics) -> list[dict]:
    """comparisons.csv: one row (COLUMNS) per (method, metric, level), methods in the report's
    order, then metrics, then levels."""
    entries = {(e["method"], metric, level): e for metric in metrics for level in LEVELS
               for e in paired_with_erm(info, metric, level)}
    return [{k: entries[(m, metric, level)][k] for k in COLUMNS}
            for m in info["methods"] if m != BASELINE for metric in metrics for level in LEVELS]


def level_sentence(frame, level: str) -> str | None:
    """A sentence for a level at which no method can be told apart from ERM on any metric
    (every tested row "too few pairs"), saying why; None when some row could reach ALPHA."""
    rows = frame[frame["level"] == level]
    tested = rows[rows["test"] != "none"]
    if rows.empty or not (tested["verdict"] == "too few pairs").all():
        return None
    n = int(rows["n_pairs"].max())
    m = int(tested.groupby("metric").size().max()) if len(tested) else 0
    what = {"seed": f"{n} (data set, seed) pairs", "dataset": f"{n} data sets"}[level]
    floor = 2.0 ** (1 - n)
    bound = min(1.0, m * floor)
    return (f"At the {level} level no method can be told apart from ERM at alpha = {ALPHA}, "
            f"whatever its results: {what} give at best p = 2 / 2^{n} = {floor:.3g}, and "
            f"Holm over {m} method{'s' * (m != 1)} at best min(1, {m} x {floor:.3g}) = "
            f"{bound:.3g}. This is what these runs can say, not a missing result.")
