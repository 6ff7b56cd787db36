"""The counterfactual study's tables as rows: which methods each table of the paper compares,
with which hyperparameter candidates, selected by which measure, distilled from which teacher.

A study config (configs/cf_study.py builds them) holds `rows` (the row names, in the table's
order) and `row.<name>`, each a ConfigDict:

- `label`: the row's name in the report (the paper's: "Scratch+aug", "RW+CP", "CKD (λ=0)");
- `method`, `cf`: the registered method and its counterfactual modifier ("", "aug" or "cp");
- `params`: fixed hyperparameters; `grid`: {hyperparameter: candidates} searched on the first
  seed (the modifier's `cf_lambda` too);
- `select`: "cd" (counterfactual-aware methods and the combinations: the lowest validation CD),
  "deo" (group-fairness methods alone, the paper's Sec. 6) or "none" (one candidate);
- `teacher`: the row whose run (same alpha, same seed) a distilling method learns from;
- `params_from`: a row whose selected hyperparameters this row starts from (the teacher and
  mu studies vary one thing of the selected CKD);
- `data`: data.options overrides of the row (the de-biased teacher's alpha 0.5, the
  non-curated share of the App. 14.3 study); `train`: config.train overrides (the group x
  class balanced sampler, `sampling`).

The reference row (`reference`, Scratch) sets the accuracy bound and is every default teacher.
Studies (`STUDIES`): `alpha` (Figure 3 over alpha, Scratch / CP / CKD), `table3` (every method
and combination), `table1` (Scratch, Scratch+aug, CP, plus any registered individual-fairness
method of INDIVIDUAL_FAIRNESS: SenSeI and LASSI join it once registered), `teachers` (Table 2 /
App. 14.2), `table4` (HKD+CP against CKD), `rep` (CKD on logits vs features, App. 14.3), `mu`
(mu sensitivity), `noncurated` (incomplete training counterfactuals), `cf_images` (accuracy
and DEO on the counterfactual images, App. 14.4) and `sampling` (CP and CKD with and without the
group x class balanced sampler the authors' published CKD runs use, `--sampling gcBal`: the
paper does not mention it; the balanced rows keep the unbalanced rows' teacher, Scratch, so that
only the student's batches differ).

References: the counterfactual fairness benchmark paper, Tables 1-4, Figure 3 and App. 14.
"""

from __future__ import annotations

import copy

import ml_collections

from nhfair_jax.methods.space import Choice, LogUniform, Uniform

STUDIES = ("alpha", "table3", "table1", "teachers", "table4", "rep", "mu", "noncurated",
           "cf_images", "sampling")
SELECT = ("cd", "deo", "none")
GF_METHODS = ("ss", "rw", "cov", "mfd", "lbc")  # the paper's group-fairness baselines
GF_LABELS = {"ss": "SS", "rw": "RW", "cov": "COV", "mfd": "MFD", "lbc": "LBC"}
# Individual-fairness methods of Table 1: rows of their own once registered, over the part of
# their record's search space that the paper searched (App. 11.3: SenSeI's rho, LASSI's
# adversarial weight; the rest at the methods' defaults), `space_points` values per range.
INDIVIDUAL_FAIRNESS = {"sensei": "SenSeI", "lassi": "LASSI"}
TABLE1_SEARCHED = {"sensei": ("method.rho",), "lassi": ("method.adv_weight",)}
# The table columns of each study (result keys; cd is the study's cd_metric).
COLUMNS = {"alpha": ("acc", "deo", "cd", "rfp"), "table3": ("acc", "deo", "cd"),
           "table1": ("acc", "deo", "cd", "certified"),
           "teachers": ("rfp_teacher", "acc", "deo", "cd", "rfp"),
           "table4": ("acc", "deo", "cd"), "rep": ("acc", "deo", "cd"),
           "mu": ("acc", "deo", "cd"), "noncurated": ("acc", "cd", "deo"),
           "cf_images": ("acc_cf", "deo_cf"), "sampling": ("acc", "deo", "cd", "rfp")}


def row(label, method, *, cf="", params=None, grid=None, select="cd", teacher="",
        params_from="", data=None, train=None) -> ml_collections.ConfigDict:
    """One row of a study (see the module docstring)."""
    return ml_collections.ConfigDict({
        "label": label, "method": method, "cf": cf, "params": dict(params or {}),
        "grid": {k: tuple(v) for k, v in (grid or {}).items()}, "select": select,
        "teacher": teacher, "params_from": params_from, "data": dict(data or {}),
        "train": dict(train or {})})


def _grid(grids, *keys) -> dict:
    """{hyperparameter: candidates} from the config's `grids` ("method.key" or "cf_lambda")."""
    return {key.rpartition(".")[2]: tuple(grids[key]) for key in keys if key in grids}


def _core_rows(grids) -> dict:
    """Scratch, CP and CKD: the rows of the alpha study and the start of every table."""
    return {
        "scratch": row("Scratch", "erm", select="none"),
        "cp": row("CP", "cp", grid=_grid(grids, "cp.lam")),
        "ckd": row("CKD", "ckd", grid=_grid(grids, "ckd.mu", "ckd.lam"), teacher="scratch"),
    }


def _table3_rows(grids) -> dict:
    rows = {"scratch": row("Scratch", "erm", select="none"),
            "scratch_aug": row("Scratch+aug", "cf_aug", select="none"),
            **{k: v for k, v in _core_rows(grids).items() if k != "scratch"},
            "ckd_lam0": row("CKD (λ=0)", "ckd", params={"lam": 0.0},
                            grid=_grid(grids, "ckd.mu"), teacher="scratch")}
    for name in GF_METHODS:
        own = _grid(grids, *(f"{name}.{k}" for k in ("lam", "eta")))
        teacher = "scratch" if name == "mfd" else ""
        label = GF_LABELS[name]
        rows[name] = row(label, name, grid=own, select="deo" if own else "none",
                         teacher=teacher)
        rows[f"{name}_aug"] = row(f"{label}+aug", name, cf="aug", grid=own,
                                  select="cd" if own else "none", teacher=teacher)
        rows[f"{name}_cp"] = row(f"{label}+CP", name, cf="cp",
                                 grid={**own, **_grid(grids, "cf_lambda")}, teacher=teacher)
    return rows


def _teacher_rows(grids, debiased_alpha) -> dict:
    rows = _core_rows(grids)
    rows["ckd"].label = "CKD (teacher: Scratch)"
    if debiased_alpha is not None:
        rows["debiased"] = row("De-biased Scratch", "erm", select="none",
                               data={"alpha": float(debiased_alpha)})
    for teacher, label in (("cp", "CP"), ("ckd", "CKD"), ("debiased", "De-biased")):
        if teacher in rows:
            rows[f"ckd_t_{teacher}"] = row(f"CKD (teacher: {label})", "ckd", select="none",
                                           teacher=teacher, params_from="ckd")
    return rows


def build_rows(study: str, grids, *, mus=(), noncurated=(), debiased_alpha=None,
               registered=(), space_points: int = 3, spaces=None, fixed=None,
               ckd_rep: str = "logits", omit=()) -> tuple[tuple, dict]:
    """(row order, {name: row}) of one study.

    Args:
      study: one of STUDIES.
      grids: {"cp.lam": candidates, "ckd.mu": ..., "ckd.lam": ..., "cf_lambda": ...,
        "cov.lam": ..., "mfd.lam": ..., "lbc.eta": ..., "hkd_cp.mu": ..., "hkd_cp.lam": ...}.
      mus: the mu values of the `mu` study; noncurated: the shares of the `noncurated` study.
      debiased_alpha: the alpha of the `teachers` study's de-biased teacher (None: no such
        teacher, e.g. on real data).
      registered: the registered method names (Table 1's individual-fairness rows join when
        theirs are among them); spaces: {name: the record's own search space} for those rows.
      fixed: {method: {hyperparameter: value}} set on every row of that method (e.g. LBC's
        round length at a small scale).
      ckd_rep: CKD's representation ("logits"; the paper's "features" on CelebA).
      omit: individual-fairness methods left out of Table 1 (the paper's LASSI on LFW).
    """
    if study not in STUDIES:
        raise ValueError(f"unknown study {study!r}; known: {', '.join(STUDIES)}")
    if study == "alpha":
        rows = _core_rows(grids)
    elif study == "table3":
        rows = _table3_rows(grids)
    elif study == "table1":
        rows = {"scratch": row("Scratch", "erm", select="none"),
                "scratch_aug": row("Scratch+aug", "cf_aug", select="none"),
                "cp": _core_rows(grids)["cp"]}
        for name, label in INDIVIDUAL_FAIRNESS.items():
            if name in registered and name not in omit:
                space = {k: v for k, v in (spaces or {}).get(name, {}).items()
                         if k in TABLE1_SEARCHED[name]}
                rows[name] = row(label, name, grid=space_grid(space, space_points))
    elif study == "teachers":
        rows = _teacher_rows(grids, debiased_alpha)
    elif study == "table4":
        rows = {**_core_rows(grids), "hkd_cp": row("HKD+CP", "hkd_cp", teacher="scratch",
                                                   grid=_grid(grids, "hkd_cp.mu",
                                                              "hkd_cp.lam"))}
        del rows["cp"]
    elif study == "rep":
        rows = _core_rows(grids)
        del rows["cp"]
        rows["ckd"].label = "CKD w/ logit"
        rows["ckd"].params["rep"] = "logits"
        rows["ckd_features"] = row("CKD w/ feature", "ckd", params={"rep": "features"},
                                   grid=_grid(grids, "ckd.mu", "ckd.lam"), teacher="scratch")
    elif study == "mu":
        rows = _core_rows(grids)
        del rows["cp"]
        for mu in mus:
            name = f"ckd_mu{mu:g}".replace(".", "p")  # no dots in a config key
            rows[name] = row(f"CKD (μ={mu:g})", "ckd", params={"mu": float(mu)}, select="none",
                             teacher="scratch", params_from="ckd")
    elif study == "noncurated":
        rows = _core_rows(grids)
        del rows["cp"]
        for share in noncurated:
            rows[f"ckd_nc{round(100 * share)}"] = row(
                f"CKD ({round(100 * share)}%)", "ckd", select="none", teacher="scratch",
                params_from="ckd", data={"noncurated": float(share)})
    elif study == "sampling":
        rows = _core_rows(grids)
        for name in ("cp", "ckd"):
            balanced = copy.deepcopy(rows[name])
            balanced.label = f"{balanced.label} (gcBal)"
            balanced.train = {"sampling": "group_x_class"}
            rows[f"{name}_gcbal"] = balanced
    else:  # cf_images: App. 14.4's methods
        base = _table3_rows(grids)
        rows = {k: base[k] for k in ("scratch", "ss", "rw", "lbc", "cp", "ckd")}
    for r in rows.values():
        if r.method == "ckd" and "rep" not in r.params:
            r.params["rep"] = ckd_rep
        for key, value in (fixed or {}).get(r.method, {}).items():
            if key not in r.params:
                r.params[key] = value
    return tuple(rows), rows


def space_grid(space: dict, points: int) -> dict:
    """A grid over a record's own search space: `points` log-spaced (or evenly spaced) values of
    each range, a Choice's options as they are."""
    import numpy as np

    grid = {}
    for key, dist in space.items():
        name = key.rpartition(".")[2]
        if isinstance(dist, LogUniform):
            grid[name] = tuple(float(v) for v in np.geomspace(dist.low, dist.high, points))
        elif isinstance(dist, Uniform):
            grid[name] = tuple(float(v) for v in np.linspace(dist.low, dist.high, points))
        elif isinstance(dist, Choice):
            grid[name] = tuple(dist.options)
    return grid
