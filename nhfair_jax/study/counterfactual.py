"""The counterfactual-vs-group fairness study: does counterfactual pairing (CP) lower
counterfactual disparity (CD) but raise the group-fairness gap DEO as the correlation alpha between
the sensitive attribute A and a latent attribute G grows, and does counterfactual knowledge
distillation (CKD) lower both?

    python -m nhfair_jax.study.counterfactual --config configs/cf_study_digitsb.py --workdir runs/cf

For each alpha = P(G = A) of the config (the data set's `alpha` option) and each method (`erm`,
the paper's Scratch; `cp`; `ckd` with the ERM run of the same alpha and seed as its teacher):

1. every candidate of the method's grid (`grid.<method>.<hyperparameter>`) trains with the first
   seed; the candidate kept is the paper's rule: the lowest validation CD among candidates whose
   validation accuracy is at least ERM's minus `acc_tolerance` (the paper's "lower bound of the
   accuracy"; 0.01 by default). When none reaches the bound, the most accurate one is kept and the
   selection says so;
2. the kept candidate re-runs with every other seed.

The teacher study (the paper's Table 2) distils, at `teacher_study.alpha`, the selected CKD
configuration from four teachers: CP, Scratch (ERM), CKD (itself taught by Scratch) and a
de-biased Scratch trained at alpha `teacher_study.debiased_alpha` (0.5: A and G independent); each
teacher's own RFP is measured on the student's test data.

Run directories live under `WORKDIR/runs/`, named by method, alpha, seed and a hash of the
configuration, so a finished run is never trained again, a killed one resumes from its
checkpoint, and several workers can share a workdir (one trains a run, under its lock). The
workdir then holds `report.md` / `report.html` (the same content; the HTML opens offline with the
plots inline), `results.csv` (one row per alpha, method, seed and split of the selected models:
alpha, method, seed, split, acc, cd, cd_balanced, deo, deo_mean, rfp, worst_acc, params, run),
`teachers.csv`, `selection.json` and `plots/figure3_<name>.png` (CD, DEO and RFP against alpha per
method, the paper's Figure 3).

References:
  The counterfactual fairness benchmark paper (CelebA-CF, LFW-CF, CIFAR-10B, CKD): Section 5.2
  and Figure 3 (alpha sweep), Table 2 (teachers), Table 3 (methods), the selection rule of its
  Section 3.
"""

from __future__ import annotations

import argparse
import copy
import csv
import io as _io
import json
import os
import sys
import time

import ml_collections
import numpy as np

from nhfair_jax import rundir
from nhfair_jax.errors import UserError

METHODS = ("erm", "cp", "ckd")
METRICS = ("acc", "cd", "cd_balanced", "deo", "deo_mean", "rfp", "worst_acc")
CSV_COLUMNS = ("alpha", "method", "seed", "split", *METRICS, "params", "run")
TEACHERS = ("cp", "erm", "ckd", "debiased")
TEACHER_NAMES = {"cp": "CP", "erm": "Scratch", "ckd": "CKD", "debiased": "De-biased"}
METHOD_NAMES = {"erm": "Scratch (erm)", "cp": "CP", "ckd": "CKD"}


# --- the config --------------------------------------------------------------------------------


def validate(study) -> None:
    """UserError for a study config that cannot run (before anything trains)."""
    from nhfair_jax.methods import method_class

    for key in ("name", "base", "alphas", "methods", "seeds", "grid", "acc_tolerance"):
        if key not in study:
            raise UserError(f"the study config has no field {key!r}")
    if "erm" not in study.methods:
        raise UserError("study.methods must include 'erm': it is the selection's accuracy "
                        "reference and CKD's teacher")
    unknown = [m for m in study.methods if m not in METHODS]
    if unknown:
        raise UserError(f"study.methods {unknown} are not part of this study; choose from "
                        f"{METHODS}")
    for a in (*study.alphas, *([study.teacher_study.alpha, study.teacher_study.debiased_alpha]
                               if study.teacher_study.enabled else [])):
        if not 0.0 <= float(a) <= 1.0:
            raise UserError(f"alpha {a} is not a probability")
    if not study.seeds:
        raise UserError("study.seeds is empty")
    for method, grid in study.grid.items():
        defaults = method_class(method).defaults
        for key, values in grid.items():
            if key not in defaults:
                raise UserError(f"grid.{method}.{key}: {method} has no hyperparameter {key!r}; "
                                f"it has {sorted(defaults)}")
            if not values:
                raise UserError(f"grid.{method}.{key} is empty")
    if study.teacher_study.enabled:
        if float(study.teacher_study.alpha) not in [float(a) for a in study.alphas]:
            raise UserError(f"teacher_study.alpha {study.teacher_study.alpha} must be one of "
                            f"study.alphas {tuple(study.alphas)}")
        if not {"cp", "ckd"} <= set(study.methods):
            raise UserError("the teacher study needs cp and ckd in study.methods")
        bad = [t for t in study.teacher_study.teachers if t not in TEACHERS]
        if bad:
            raise UserError(f"teacher_study.teachers {bad} unknown; choose from {TEACHERS}")


def candidates(study, method: str) -> list[dict]:
    """The grid of a method as a list of {hyperparameter: value} (one empty dict for none)."""
    grid = dict(study.grid.get(method, {}))
    out = [{}]
    for key in sorted(grid):
        out = [{**c, key: v} for c in out for v in grid[key]]
    return out


# --- run directories ---------------------------------------------------------------------------


class Study:
    """Run directories of one study workdir, trained on demand."""

    def __init__(self, study, workdir: str, *, log=print):
        self.study, self.workdir, self.log = study, workdir, log
        self.trained = 0  # runs this session trained (or finished)

    def run_config(self, method: str, alpha: float, seed: int, params: dict, teacher=None):
        from nhfair_jax.config import method_config

        c = copy.deepcopy(self.study.base)
        c.unlock() if hasattr(c, "unlock") else None
        c.data.options.alpha = float(alpha)
        c.seed = int(seed)
        c.train.progress = False
        extra = {} if teacher is None else {"teacher_config": "",
                                            "teacher_workdir": os.path.abspath(teacher)}
        c.method = method_config(method, **params, **extra)
        return c

    def run_dir(self, method: str, alpha: float, seed: int, params: dict, teacher=None) -> str:
        from nhfair_jax.sweep.runner import config_hash

        key = {"method": method, "alpha": float(alpha), "seed": int(seed), "params": params,
               "teacher": None if teacher is None else os.path.relpath(teacher, self.workdir),
               "base": rundir.config_to_json(self.study.base)}
        return os.path.join(self.workdir, "runs",
                            f"{method}-a{float(alpha):.2f}-s{int(seed)}-{config_hash(key)}")

    def run(self, method: str, alpha: float, seed: int, params: dict, teacher=None) -> dict:
        """{"dir", "result", "params"} of one run, trained when not finished."""
        from nhfair_jax.dispatch import run

        path = rundir.RunDir(self.run_dir(method, alpha, seed, params, teacher))
        if not path.finished:
            with path.lock():
                if not path.finished:
                    config = self.run_config(method, alpha, seed, params, teacher)
                    t0 = time.perf_counter()
                    run(config, path, progress=False)
                    self.trained += 1
                    via = "" if teacher is None else f" teacher {os.path.basename(teacher)}"
                    self.log(f"{method} alpha={alpha} seed={seed} {params or ''}{via}: trained "
                             f"in {time.perf_counter() - t0:.0f} s")
        return {"dir": path.path, "result": path.result(), "params": params}

    def teacher_rfp(self, teacher_dir: str, alpha: float) -> float:
        """The teacher's test RFP on the data of `alpha` (its own result when trained there;
        otherwise its best checkpoint evaluated on that data, cached in the workdir)."""
        from nhfair_jax.config import load_config_file

        teacher = rundir.RunDir(teacher_dir)
        config = load_config_file(teacher.file(teacher.CONFIG))
        if float(config.data.options.alpha) == float(alpha):
            return teacher.result()["test"]["rfp"]
        cache = os.path.join(self.workdir, "teacher_eval",
                             f"{os.path.basename(teacher_dir)}-a{float(alpha):.2f}.json")
        if os.path.exists(cache):
            return rundir.read_json(cache)["rfp"]
        from nhfair_jax.training.teacher import restore_best

        config.data.options.alpha = float(alpha)
        run, state = restore_best(config, teacher_dir)
        report, _ = run.evaluate_views(state, "test", edits=("image_gflip",))
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        rundir.write_json(cache, {"rfp": report["rfp"], "teacher": teacher_dir,
                                  "alpha": float(alpha)})
        return report["rfp"]


def select(candidates_runs: list[dict], erm_val_acc: float, tolerance: float) -> dict:
    """The paper's rule: lowest validation CD among candidates with validation accuracy >= ERM's
    minus `tolerance`; none within the bound: the most accurate. Returns the chosen run with
    `rule` ("cd_within_bound" or "no_candidate_within_bound")."""
    bound = erm_val_acc - tolerance
    eligible = [r for r in candidates_runs if r["result"]["val"]["acc"] >= bound - 1e-12]
    if eligible:
        best = min(eligible, key=lambda r: (r["result"]["val"].get("cd", np.inf),
                                            -r["result"]["val"]["acc"]))
        return {**best, "rule": "cd_within_bound", "bound": bound}
    best = max(candidates_runs, key=lambda r: r["result"]["val"]["acc"])
    return {**best, "rule": "no_candidate_within_bound", "bound": bound}


def run_study(study, workdir: str, *, plots: bool = True, log=print) -> dict:
    """Trains what is missing, selects, and writes the report; returns the selection summary."""
    validate(study)
    t0 = time.perf_counter()
    s = Study(study, workdir, log=log)
    first, seeds = int(study.seeds[0]), [int(x) for x in study.seeds]
    selected = {}  # (alpha, method) -> {"params", "rule", "runs": {seed: run}, "candidates"}
    for alpha in [float(a) for a in study.alphas]:
        erm = {seed: s.run("erm", alpha, seed, {}) for seed in seeds}
        selected[(alpha, "erm")] = {"params": {}, "rule": "single configuration", "runs": erm,
                                    "candidates": [erm[first]]}
        for method in [m for m in study.methods if m != "erm"]:
            teacher = (lambda seed: erm[seed]["dir"]) if method == "ckd" else (lambda seed: None)
            cands = [s.run(method, alpha, first, p, teacher(first))
                     for p in candidates(study, method)]
            chosen = select(cands, erm[first]["result"]["val"]["acc"],
                            float(study.acc_tolerance))
            runs = {first: chosen}
            for seed in seeds[1:]:
                runs[seed] = s.run(method, alpha, seed, chosen["params"], teacher(seed))
            selected[(alpha, method)] = {"params": chosen["params"], "rule": chosen["rule"],
                                         "bound": chosen["bound"], "runs": runs,
                                         "candidates": cands}
    teachers = teacher_study(s, study, selected, seeds) if study.teacher_study.enabled else []
    summary = write_outputs(s, study, selected, teachers, plots=plots)
    summary["trained_this_session"] = s.trained
    summary["wall_s"] = time.perf_counter() - t0
    rundir.write_json(os.path.join(workdir, "session.json"),
                      {"trained_this_session": s.trained, "wall_s": summary["wall_s"]})
    return summary


def teacher_study(s: Study, study, selected: dict, seeds) -> list[dict]:
    """Rows of the teacher table: CKD (the selected configuration at teacher_study.alpha) from
    each teacher, per seed, with the teacher's own RFP on the student's test data."""
    ts = study.teacher_study
    alpha = float(ts.alpha)
    params = selected[(alpha, "ckd")]["params"]
    rows = []
    for name in ts.teachers:
        for seed in seeds:
            if name == "debiased":
                t_dir = s.run("erm", float(ts.debiased_alpha), seed, {})["dir"]
            else:
                t_dir = selected[(alpha, name)]["runs"][seed]["dir"]
            student = s.run("ckd", alpha, seed, params, t_dir)
            rows.append({"teacher": name, "seed": seed, "teacher_dir": t_dir,
                         "rfp_teacher": s.teacher_rfp(t_dir, alpha),
                         "student_dir": student["dir"], "test": student["result"]["test"]})
    return rows


# --- outputs -----------------------------------------------------------------------------------


def _fmt(v):
    return "" if v is None else (f"{v:.6g}" if isinstance(v, float) else str(v))


def results_rows(selected: dict) -> list[dict]:
    rows = []
    for (alpha, method), sel in sorted(selected.items(), key=lambda kv: (kv[0][0],
                                                                        METHODS.index(kv[0][1]))):
        for seed, run in sorted(sel["runs"].items()):
            for split in ("val", "test"):
                rep = run["result"][split]
                rows.append({"alpha": alpha, "method": method, "seed": seed, "split": split,
                             **{m: rep.get(m) for m in METRICS},
                             "params": json.dumps(sel["params"], sort_keys=True),
                             "run": os.path.relpath(run["dir"], os.path.dirname(
                                 os.path.dirname(run["dir"])))})
    return rows


def _csv_text(rows, columns) -> str:
    buf = _io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(columns), extrasaction="ignore")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: _fmt(r.get(k)) for k in columns})
    return buf.getvalue()


def _stats(rows, metric):
    from nhfair_jax.report.tables import mean_std

    return mean_std([r[metric] for r in rows if r.get(metric) is not None])


def _cell(rows, metric):
    from nhfair_jax.report.tables import fmt

    m, sd = _stats(rows, metric)
    return "n/a" if m is None else f"{fmt(m)} ± {fmt(sd)}"


def figure3(rows: list[dict], methods, name: str):
    """CD, DEO and RFP (test, mean ± std over seeds) against alpha, one line per method."""
    from nhfair_jax.report.plots import _plt

    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    alphas = sorted({r["alpha"] for r in rows})
    for ax, metric, title in zip(axes, ("cd", "deo", "rfp"), ("CD ↓", "DEO ↓", "RFP ↓")):
        for method in methods:
            stats = [_stats([r for r in rows if r["alpha"] == a and r["method"] == method
                             and r["split"] == "test"], metric) for a in alphas]
            mean = np.array([np.nan if m is None else m for m, _ in stats])
            std = np.array([np.nan if sd is None else sd for _, sd in stats])
            ax.errorbar(alphas, mean, yerr=std, marker="o", capsize=3,
                        label=METHOD_NAMES.get(method, method))
        ax.set_title(f"{title} ({name}, test)")
        ax.set_xlabel("alpha = P(G = A)")
        ax.set_xticks(alphas)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def write_outputs(s: Study, study, selected: dict, teachers: list[dict], *, plots: bool) -> dict:
    workdir, name = s.workdir, str(study.name)
    rows = results_rows(selected)
    rundir.write_text(os.path.join(workdir, "results.csv"), _csv_text(rows, CSV_COLUMNS))
    t_rows = [{"teacher": t["teacher"], "seed": t["seed"], "rfp_teacher": t["rfp_teacher"],
               **{m: t["test"].get(m) for m in METRICS},
               "teacher_run": os.path.relpath(t["teacher_dir"], workdir),
               "student_run": os.path.relpath(t["student_dir"], workdir)} for t in teachers]
    if teachers:
        rundir.write_text(os.path.join(workdir, "teachers.csv"), _csv_text(
            t_rows, ("teacher", "seed", "rfp_teacher", *METRICS, "teacher_run", "student_run")))
    selection = [{"alpha": a, "method": m, "params": sel["params"], "rule": sel["rule"],
                  "bound": sel.get("bound"),
                  "candidates": [{"params": c["params"], "val_acc": c["result"]["val"]["acc"],
                                  "val_cd": c["result"]["val"].get("cd"),
                                  "run": os.path.relpath(c["dir"], workdir)}
                                 for c in sel["candidates"]]}
                 for (a, m), sel in selected.items()]
    rundir.write_json(os.path.join(workdir, "selection.json"), selection)

    methods = [m for m in METHODS if m in study.methods]
    alphas = sorted({r["alpha"] for r in rows})
    test = [r for r in rows if r["split"] == "test"]
    blocks = [("h1", f"Counterfactual vs group fairness: {name}"),
              ("p", f"alpha = P(G = A) in {', '.join(f'{a:g}' for a in alphas)}; methods "
                    f"{', '.join(methods)}; seeds {', '.join(str(x) for x in study.seeds)}. "
                    "Each method's hyperparameters are selected with the first seed: the lowest "
                    "validation CD among candidates whose validation accuracy is at least ERM's "
                    f"minus {float(study.acc_tolerance):g} (the paper's lower bound of the "
                    "accuracy). Figures are test mean ± std over seeds; lower is better for CD, "
                    "DEO and RFP.")]
    table_alpha = float(study.get("table_alpha", alphas[-1]))
    if table_alpha in alphas:
        blocks += [("h2", f"Methods at alpha {table_alpha:g} (the paper's Table 3 layout)"),
                   ("table", [["Method", f"{name} Acc ↑", "DEO ↓", "CD ↓"]]
                    + [[METHOD_NAMES[m]] + [_cell([r for r in test if r["method"] == m and
                                                   r["alpha"] == table_alpha], k)
                                            for k in ("acc", "deo", "cd")] for m in methods])]
    blocks += [("h2", "Every alpha (the numbers behind Figure 3)"),
               ("table", [["alpha", "Method", "Acc", "CD", "CD (cells)", "DEO", "RFP",
                           "selected"]]
                + [[f"{a:g}", METHOD_NAMES[m]]
                   + [_cell([r for r in test if r["method"] == m and r["alpha"] == a], k)
                      for k in ("acc", "cd", "cd_balanced", "deo", "rfp")]
                   + [_selected_text(selected[(a, m)])]
                   for a in alphas for m in methods])]
    if plots:
        from nhfair_jax.report.plots import save

        path = save(figure3(rows, methods, name), workdir, f"figure3_{name}.png")
        blocks.append(("figure", path, f"CD, DEO and RFP against alpha on {name} (test, mean "
                                       "± std over seeds): the paper's Figure 3."))
    if teachers:
        ta = float(study.teacher_study.alpha)
        blocks += [("h2", f"CKD with different teachers at alpha {ta:g} (the paper's Table 2)"),
                   ("p", "RFP^T: the teacher's own RFP on the student's test data; the other "
                         "columns are the CKD student's (test, mean ± std over seeds). The "
                         "de-biased teacher is ERM trained at alpha "
                         f"{float(study.teacher_study.debiased_alpha):g}."),
                   ("table", [["Teacher", "RFP^T ↓", "Acc ↑", "DEO ↓", "CD ↓", "RFP ↓"]]
                    + [[TEACHER_NAMES[t]]
                       + [_cell([r for r in t_rows if r["teacher"] == t], k)
                          for k in ("rfp_teacher", "acc", "deo", "cd", "rfp")]
                       for t in study.teacher_study.teachers])]
    from nhfair_jax.report import to_markdown
    from nhfair_jax.report.html import render

    rundir.write_text(os.path.join(workdir, "report.md"), to_markdown(blocks) + "\n")
    rundir.write_text(os.path.join(workdir, "report.html"), render(blocks, workdir))
    return {"rows": rows, "teachers": t_rows, "selection": selection}


def _selected_text(sel) -> str:
    params = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in sorted(sel["params"].items()))
    flag = "" if sel["rule"] in ("cd_within_bound", "single configuration") else " (none within bound)"
    return (params or "-") + flag


# --- the command -------------------------------------------------------------------------------


def check_workdir(workdir: str, study, force: bool) -> None:
    """Writes study.json; a workdir of another study config is refused unless force."""
    path = os.path.join(workdir, "study.json")
    payload = rundir.config_to_json(study)
    try:
        os.makedirs(workdir, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot write to workdir {workdir}: {e.strerror or e}") from e
    if os.path.exists(path) and not force:
        old = rundir.read_json(path)
        diff = rundir.config_diff(old, payload)
        if diff:
            raise UserError(f"{workdir} holds a study of another config (differs in "
                            f"{', '.join(diff[:5])}); choose another --workdir or pass --force")
    rundir.write_json(path, payload)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nhfair_jax.study.counterfactual",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True, help="a configs/cf_study_*.py file")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--force", action="store_true",
                        help="take over a workdir made by another study config")
    parser.add_argument("--no_plots", action="store_true")
    args = parser.parse_args(argv)
    try:
        from nhfair_jax.config import load_config_file

        study = load_config_file(args.config)
        validate(study)
        check_workdir(args.workdir, study, args.force)
        summary = run_study(study, args.workdir, plots=not args.no_plots,
                            log=lambda m: print(m, file=sys.stderr, flush=True))
    except (UserError, FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{summary['trained_this_session']} run(s) trained this session in "
          f"{summary['wall_s']:.0f} s; report: {os.path.join(args.workdir, 'report.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["CSV_COLUMNS", "Study", "candidates", "main", "run_study", "select", "validate",
           "ml_collections"]
