"""The counterfactual paper's claims, each tested on the study's test numbers with a one-sided
bound over paired seeds and a verdict, written to the study's `claims.json`.

Each claim compares two rows on one metric (the first minus the second, seed by seed: the same
seed, hence the same data and the same initialisation draw) or, for
`cp_deo_rises_with_alpha`, fits CP's DEO on alpha by least squares within each seed and takes
the per-seed slopes as the paired values. With d the paired values over n seeds, mean m and
standard deviation s, the one-sided 95% bound is m + t(0.95, n - 1) s / sqrt(n) for a claim that
the difference is negative (it holds when that upper bound is below 0) and
m - t(0.95, n - 1) s / sqrt(n) for a claim that it is positive (it holds when that lower bound is
above 0). With one seed there is no bound and the verdict is None (undetermined). A claim whose
rows the study has is always written, whether it holds or not.

The claims (the paper's words, its Sec. 5.2 and Figure 3 for the alpha study, Sec. 6 for the
tables at alpha 0.8):

- `cp_cd_below_scratch`, every alpha: CP's CD below Scratch's;
- `cp_deo_rises_with_alpha`: the slope of CP's DEO on alpha above 0;
- `cp_deo_above_scratch`, alpha >= 0.8 (the tables' alpha and above): CP's DEO above Scratch's;
- `cp_rfp_above_scratch`, alpha > 0.7: CP's RFP above Scratch's (the teacher's justification);
- `ckd_deo_below_cp`, every alpha: CKD's DEO below CP's;
- `ckd_cd_below_scratch`, every alpha: CKD's CD below Scratch's;
- `ckd_deo_below_scratch`, every alpha: CKD's DEO below Scratch's.

CD is the study's `cd_metric` (balanced CD on the synthetic sets, the paper's App. 11.2).
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.report.tables import fmt

CONFIDENCE = 0.95
FIGURE3 = ("Sec. 5.2 (Figure 3): \"while CP and our CKD consistently achieve CF, CP fails to meet "
           "GF as α increases, potentially due to higher RFP\"")
RFP = ("Sec. 5.2 (Figure 3): \"RFP of Scratch is lower than that of CP when α is greater than "
       "0.7. This empirically justifies the use of vanilla-trained models as teacher models "
       "robust to G\"")
CKD_DEO = ("Sec. 5.2 (Figure 3): \"CKD significantly improves DEO regardless of the value of "
           "α\"; Sec. 6: \"CKD shows the best DEO for every evaluation dataset\"")
CP_DEO = ("Sec. 6 (Table 3): \"although CP (a CF-aware method) mostly performs the best on CD, it "
          "even shows worse DEO than Scratch\"; Sec. 1: \"they achieve CF but fail to satisfy "
          "GF\"")

# name: (statement, first row, second row, metric ("cd": the study's), sign, alphas)
# sign -1: the claim is first - second < 0; +1: > 0. alphas: "all", (">=", a) or (">", a).
PAIRED = {
    "cp_cd_below_scratch": (FIGURE3, "cp", "scratch", "cd", -1, "all"),
    "cp_deo_above_scratch": (CP_DEO, "cp", "scratch", "deo", +1, (">=", 0.8)),
    "cp_rfp_above_scratch": (RFP, "cp", "scratch", "rfp", +1, (">", 0.7)),
    "ckd_deo_below_cp": (CKD_DEO, "ckd", "cp", "deo", -1, "all"),
    "ckd_cd_below_scratch": (FIGURE3, "ckd", "scratch", "cd", -1, "all"),
    "ckd_deo_below_scratch": (CKD_DEO, "ckd", "scratch", "deo", -1, "all"),
}
SLOPE = {"cp_deo_rises_with_alpha": (FIGURE3, "cp", "deo", +1)}
NAMES = ("cp_cd_below_scratch", "cp_deo_rises_with_alpha", "cp_deo_above_scratch",
         "cp_rfp_above_scratch", "ckd_deo_below_cp", "ckd_cd_below_scratch",
         "ckd_deo_below_scratch")


def one_sided(values, sign: int, confidence: float = CONFIDENCE):
    """(mean, bound, holds) of paired values for a claim that their mean is below 0 (sign -1:
    the upper bound) or above 0 (sign +1: the lower bound); bound and holds None with fewer than
    two finite values."""
    from scipy import stats

    d = np.asarray([v for v in values if v is not None and np.isfinite(v)], float)
    if not len(d):
        return None, None, None
    mean = float(d.mean())
    if len(d) < 2:
        return mean, None, None
    half = float(stats.t.ppf(confidence, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
    bound = mean - sign * half
    return mean, bound, bool(bound < 0) if sign < 0 else bool(bound > 0)


def _values(rows, alpha, name, metric) -> dict:
    return {r["seed"]: r[metric] for r in rows if r["alpha"] == alpha and r["row"] == name
            and r["split"] == "test" and r.get(metric) is not None}


def _applies(alphas_rule, alpha) -> bool:
    if alphas_rule == "all":
        return True
    if alpha is None:
        return False
    op, edge = alphas_rule
    return alpha >= edge - 1e-9 if op == ">=" else alpha > edge + 1e-9


def paired_claims(rows, cd_metric: str) -> list[dict]:
    """The paired claims at every alpha they apply to, for the rows the study has."""
    names = {r["row"] for r in rows}
    alphas = sorted({r["alpha"] for r in rows}, key=lambda a: -1 if a is None else a)
    out = []
    for claim, (statement, a, b, metric, sign, rule) in PAIRED.items():
        if not {a, b} <= names:
            continue
        metric = cd_metric if metric == "cd" else metric
        for alpha in alphas:
            if not _applies(rule, alpha):
                continue
            va, vb = _values(rows, alpha, a, metric), _values(rows, alpha, b, metric)
            seeds = [s for s in sorted(va) if s in vb]
            mean, bound, holds = one_sided([va[s] - vb[s] for s in seeds], sign)
            out.append({"claim": claim, "statement": statement, "alpha": alpha,
                        "metric": metric, "compared": f"{a} - {b}",
                        "direction": "< 0" if sign < 0 else "> 0", "seeds": len(seeds),
                        "estimate": mean, "bound": bound, "holds": holds})
    return out


def slope_claims(rows) -> list[dict]:
    """The slope claims: per seed the least-squares slope of the row's metric on alpha (over the
    alphas that seed has), the slopes' one-sided bound."""
    names = {r["row"] for r in rows}
    alphas = sorted({r["alpha"] for r in rows if r["alpha"] is not None})
    out = []
    for claim, (statement, name, metric, sign) in SLOPE.items():
        if name not in names:
            continue
        by_alpha = {a: _values(rows, a, name, metric) for a in alphas}
        slopes = []
        for seed in sorted({s for v in by_alpha.values() for s in v}):
            xs = [a for a in alphas if seed in by_alpha[a]]
            if len(xs) >= 2:
                slopes.append(float(np.polyfit(xs, [by_alpha[a][seed] for a in xs], 1)[0]))
        mean, bound, holds = one_sided(slopes, sign)
        grid = ", ".join(f"{a:g}" for a in alphas)
        out.append({"claim": claim, "statement": statement, "alpha": None, "metric": metric,
                    "compared": f"slope of {name}'s {metric} on alpha ({grid})",
                    "direction": "< 0" if sign < 0 else "> 0", "seeds": len(slopes),
                    "estimate": mean, "bound": bound, "holds": holds})
    return out


def study_claims(rows, cd_metric: str) -> list[dict]:
    """Every claim the study's rows can test, in NAMES order (then by alpha)."""
    claims = paired_claims(rows, cd_metric) + slope_claims(rows)
    order = {n: i for i, n in enumerate(NAMES)}
    return sorted(claims, key=lambda c: (order.get(c["claim"], len(order)),
                                         -1 if c["alpha"] is None else c["alpha"]))


def claims_blocks(claims) -> list:
    """The report's claims block: one table row per claim and alpha, and the verdicts in words."""

    table = [["Claim", "alpha", "compared", "seeds", "estimate", "95% one-sided bound",
              "holds"]]
    for c in claims:
        holds = "n/a (one seed)" if c["holds"] is None else ("yes" if c["holds"] else "NO")
        alpha = "all" if c["alpha"] is None else f"{c['alpha']:g}"
        table.append([c["claim"], alpha, f"{c['compared']} ({c['metric']}) {c['direction']}",
                      str(c["seeds"]), fmt(c["estimate"]), fmt(c["bound"]), holds])
    failed = [c for c in claims if c["holds"] is False]
    if failed:
        words = "Not holding: " + "; ".join(
            f"{c['claim']}" + ("" if c["alpha"] is None else f" at alpha {c['alpha']:g}")
            + f" (estimate {fmt(c['estimate'])}, bound {fmt(c['bound'])})" for c in failed) + "."
    elif claims and all(c["holds"] for c in claims):
        words = "Every claim holds."
    else:
        words = "Too few seeds to bound every claim."
    statements = {c["claim"]: c["statement"] for c in claims}
    return [("h2", "The paper's claims, with one-sided bounds over paired seeds"),
            ("p", "Paired test values per seed (the first row minus the second; for the slope, "
                  "each seed's least-squares slope on alpha). A claim of a negative difference "
                  "holds when the one-sided 95% t upper bound is below 0, of a positive one when "
                  f"the lower bound is above 0 (claims.json). {words}"),
            ("table", table),
            ("p", "The paper's words: " + " ".join(f"{k}: {v}." for k, v in statements.items()))]


__all__ = ["NAMES", "claims_blocks", "one_sided", "study_claims"]
