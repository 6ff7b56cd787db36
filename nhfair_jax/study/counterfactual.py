"""The counterfactual-vs-group fairness study as the paper runs it, one table per command: does
counterfactual pairing (CP) lower counterfactual disparity (CD) but raise the group-fairness gap
DEO as the correlation alpha between the sensitive attribute A and a latent attribute G grows,
and does counterfactual knowledge distillation (CKD) lower both?

    python -m nhfair_jax.study.counterfactual --config configs/cf_study.py:digitsb,alpha \
        --workdir runs/cf_alpha

`configs/cf_study.py:DATASET[,STUDY[,SCALE]]` picks the data set (digitsb, digitsb_shared,
fashion_mnist_b, cifar10b, celeba, lfw) and the study (nhfair_jax/study/cf_tables.py): `alpha`
(Figure 3, the default), `table3`, `table1`, `teachers` (Table 2, App. 14.2), `table4`, `rep`,
`mu`, `noncurated`, `cf_images`, `sampling`. `--config.KEY=VALUE` overrides one field of the
study config (e.g. `--config.base.data.options.roles=code`, the authors' construction of the
synthetic sets). For each alpha of the config (the data set's `alpha` option; real data
has none) and each row of the table:

1. every candidate of the row's grid trains with the first seed; the candidate kept is the
   paper's rule: the lowest validation CD (counterfactual-aware rows and combinations; balanced
   CD on the synthetic sets, the paper's App. 11.2) or DEO (group-fairness methods alone, its
   Sec. 6) among the candidates whose validation accuracy is at least 98% of Scratch's (its
   footnote: 95.0 -> 93.1). When none reaches the bound, the most accurate one is kept and the
   selection says so;
2. the kept candidate re-runs with every other seed; a distilling row learns from its teacher
   row's run of the same alpha and seed.

The workdir then holds `report.md` / `report.html` (the same content; the HTML opens offline with
the plots inline), `results.csv` (one line per alpha, row, seed and split of the selected models:
alpha, row, label, method, cf, seed, split, acc, cd, cd_balanced, deo, deo_mean, rfp, acc_cf,
deo_cf, worst_acc, rfp_teacher, params, run), `selection.json` and, for the alpha study,
`plots/figure3_<name>.png` and `claims.json` (every claim of the paper the study's rows can
test, with its one-sided bound over paired seeds and its verdict: nhfair_jax/study/cf_claims.py),
which the report's claims block renders.

References:
  The counterfactual fairness benchmark paper (CelebA-CF, LFW-CF, CIFAR-10B, CKD): Tables 1-4,
  Figure 3, the selection rule of its Sec. 3.1 and Sec. 6, App. 11 and 14.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from nhfair_jax import rundir, runtime
from nhfair_jax.config import load_config_file
from nhfair_jax.config_schema import CF_STUDY, check_config, check_run
from nhfair_jax.data import reused_sources
from nhfair_jax.errors import UserError
from nhfair_jax.methods import method_class, registered, search_space
from nhfair_jax.methods.space import Choice, LogUniform, Uniform
from nhfair_jax.study.cf_report import write_outputs
from nhfair_jax.study.cf_runs import StudyRuns, row_order, select_rows
from nhfair_jax.study.cf_tables import SELECT, STUDIES

FIELDS = ("name", "study", "base", "alphas", "seeds", "rows", "row", "reference", "acc_ratio",
          "cd_metric")
CD_METRICS = ("cd", "cd_balanced")


def _in_space(dist, value) -> bool:
    if isinstance(dist, (LogUniform, Uniform)):
        return dist.low - 1e-12 <= float(value) <= dist.high + 1e-12
    return not isinstance(dist, Choice) or value in dist.options


def _validate_row(name: str, row) -> None:
    if row.method not in registered():
        raise UserError(f"row.{name}.method {row.method!r} is not registered; registered: "
                        f"{', '.join(registered())}")
    if row.cf not in ("", "aug", "cp"):
        raise UserError(f"row.{name}.cf must be '', 'aug' or 'cp', got {row.cf!r}")
    if row.select not in SELECT:
        raise UserError(f"row.{name}.select must be one of {SELECT}, got {row.select!r}")
    own = set(method_class(row.method).defaults) | ({"cf_lambda"} if row.cf else set())
    space = search_space(row.method, row.cf)
    for kind, values in (("grid", row.grid), ("params", row.params)):
        for key, value in values.items():
            if key not in own:
                raise UserError(f"row.{name}.{kind}.{key}: {row.method} has no hyperparameter "
                                f"{key!r}; it has {sorted(own)}")
            for v in (value if kind == "grid" else (value,)):
                dist = space.get(f"method.{key}")
                if kind == "grid" and dist is not None and not _in_space(dist, v):
                    raise UserError(f"row.{name}.grid.{key}: {v} lies outside {row.method}'s "
                                    f"search range {dist}")
            if kind == "grid" and not values[key]:
                raise UserError(f"row.{name}.grid.{key} is empty")


def validate(study) -> None:
    """UserError for a study config that cannot run (before anything trains)."""

    for key in FIELDS:
        if key not in study:
            raise UserError(f"the study config has no field {key!r}")
    check_config(study, CF_STUDY, what="the study config")
    check_run(study.base)
    if study.study not in STUDIES:
        raise UserError(f"study {study.study!r} unknown; choose from {', '.join(STUDIES)}")
    if study.cd_metric not in CD_METRICS:
        raise UserError(f"cd_metric must be one of {CD_METRICS}, got {study.cd_metric!r}")
    if not 0.0 < float(study.acc_ratio) <= 1.0:
        raise UserError(f"acc_ratio must be in (0, 1], got {study.acc_ratio}")
    for a in study.alphas:
        if not 0.0 <= float(a) <= 1.0:
            raise UserError(f"alpha {a} is not a probability")
    if not study.seeds:
        raise UserError("study.seeds is empty")
    if study.reference not in study.row:
        raise UserError(f"reference {study.reference!r} is not a row of the study")
    if study.row[study.reference].select != "none":
        raise UserError(f"the reference row {study.reference!r} is one configuration (select "
                        "'none'): it sets the accuracy bound of the others")
    for name in study.rows:
        if name not in study.row:
            raise UserError(f"rows lists {name!r}, which row does not define")
    for name in study.row:
        _validate_row(name, study.row[name])
    row_order(study)  # cycles and unknown teachers


def run_study(study, workdir: str, *, plots: bool = True, log=print) -> dict:
    """Trains what is missing, selects, and writes the report; returns the summary
    ({"rows", "selection", "claims", "trained_this_session", "wall_s"})."""

    validate(study)
    t0 = time.perf_counter()
    runs = StudyRuns(study, workdir, log=log)
    selected = {}
    for alpha in [float(a) for a in study.alphas] or [None]:
        for name, sel in select_rows(runs, alpha).items():
            selected[(alpha, name)] = sel
    summary = write_outputs(runs, selected, plots=plots)
    summary["trained_this_session"] = runs.trained
    summary["wall_s"] = time.perf_counter() - t0
    rundir.write_json(os.path.join(workdir, "session.json"),
                      {"trained_this_session": runs.trained, "wall_s": summary["wall_s"]})
    return summary


def check_workdir(workdir: str, study, force: bool) -> None:
    """Writes study.json; a workdir of another study config is refused unless force
    (rundir.claim_workdir)."""
    rundir.claim_workdir(workdir, study, name="study.json", force=force,
                         what="holds a study of another config",
                         remedy="choose another --workdir or pass --force")


def apply_overrides(study, overrides: list[str]) -> None:
    """Applies `--config.KEY=VALUE` arguments to the study config: KEY an existing field (dotted),
    VALUE parsed as a Python literal (a bare word is a string) of the field's type."""
    import ast

    for arg in overrides:
        if not arg.startswith("--config.") or "=" not in arg:
            raise UserError(f"unknown argument {arg!r}; overrides read --config.KEY=VALUE")
        key, _, text = arg[len("--config."):].partition("=")
        *path, leaf = key.split(".")
        node = study
        for part in path:
            if part not in node:
                raise UserError(f"--config.{key}: no such config key {part!r}")
            node = node[part]
        if leaf not in node:
            raise UserError(f"--config.{key}: no such config key {leaf!r}")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = text
        old = node[leaf]
        if isinstance(old, bool) and not isinstance(value, bool):
            raise UserError(f"--config.{key}: expected True or False, got {text!r}")
        if isinstance(old, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if old is not None and type(value) is not type(old) and not (
                isinstance(old, (tuple, list)) and isinstance(value, (tuple, list))):
            raise UserError(f"--config.{key}: expected a {type(old).__name__}, got {text!r}")
        node[leaf] = value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nhfair_jax.study.counterfactual",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True,
                        help="configs/cf_study.py:DATASET[,STUDY[,SCALE]] or a file like it")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--force", action="store_true",
                        help="take over a workdir made by another study config")
    parser.add_argument("--no_plots", action="store_true")
    args, overrides = parser.parse_known_args(argv)

    runtime.setup()
    try:
        study = load_config_file(args.config)
        apply_overrides(study, overrides)
        validate(study)
        check_workdir(args.workdir, study, args.force)
        with reused_sources():  # the study's runs of one data setting read the same arrays
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


__all__ = ["check_workdir", "main", "run_study", "validate"]
