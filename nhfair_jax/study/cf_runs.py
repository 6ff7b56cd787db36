"""The counterfactual study's runs: one run directory per (row, alpha, seed, hyperparameters,
teacher), trained on demand through nhfair_jax.dispatch.run, and the selection of each row's
hyperparameters on the first seed by the paper's rule (nhfair_jax.selection.bounded_select).

Run directories live under `WORKDIR/runs/`, named by method, alpha, seed and a hash of the
configuration, so a finished run is never trained again, a killed one resumes from its
checkpoint, and several workers can share a workdir (one trains a run, under its lock).
"""

from __future__ import annotations

import copy
import itertools
import os
import time

from nhfair_jax import rundir
from nhfair_jax.config import load_config_file, method_config
from nhfair_jax.dispatch import run
from nhfair_jax.errors import UserError
from nhfair_jax.methods import spec
from nhfair_jax.selection import accuracy_bound, bounded_select
from nhfair_jax.sweep.runner import config_hash
from nhfair_jax.training.teacher import restore_best


def candidates(row) -> list[dict]:
    """The grid of a row as a list of {hyperparameter: value} (one empty dict for none)."""
    grid = dict(row.grid)
    keys = sorted(grid)
    return [dict(zip(keys, values)) for values in itertools.product(*(grid[k] for k in keys))]


def row_order(study) -> list[str]:
    """The rows in an order where every row's teacher and params_from come before it, the
    reference first; a cycle or an unknown row is a UserError."""
    order, state = [], {}

    def visit(name, path):
        if name not in study.row:
            owner = f"row {path[-1]!r} names" if path else "the study names"
            raise UserError(f"{owner} row {name!r}, which the study does not have; it has "
                            f"{sorted(study.row)}")
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            raise UserError(f"rows depend on each other in a cycle: {' -> '.join(path + [name])}")
        state[name] = "visiting"
        r = study.row[name]
        for dep in (r.teacher, r.params_from):
            if dep:
                visit(dep, path + [name])
        state[name] = "done"
        order.append(name)

    for name in (study.reference, *study.rows):
        visit(name, [])
    return order


class StudyRuns:
    """Run directories of one study workdir, trained on demand."""

    def __init__(self, study, workdir: str, *, log=print):
        self.study, self.workdir, self.log = study, workdir, log
        self.trained = 0  # runs this session trained (or finished)

    def run_config(self, row, alpha, seed: int, params: dict, teacher=None):
        """The run config of `row` at `alpha` (None: the base's data) and `seed` with the
        hyperparameters `params` (the modifier's cf_lambda among them)."""

        c = copy.deepcopy(self.study.base)
        if alpha is not None:
            c.data.options.alpha = float(alpha)
        for key, value in row.data.items():
            c.data.options[key] = value
        c.seed = int(seed)
        if self.study.get("data_per_seed", False):  # the authors' code: data from the seed
            c.data.split_seed = int(seed)
            c.data.options.build_seed = int(seed)
        for key, value in row.get("train", {}).items():
            c.train[key] = value
        c.train.progress = False
        own = {k: v for k, v in params.items() if k != "cf_lambda"}
        if "teacher" in spec(row.method).needs:
            if teacher is None:
                raise UserError(f"row {row.label!r}: method {row.method} distils from a teacher; "
                                "give the row a `teacher` (a row of the study)")
            own.update(teacher_config="", teacher_workdir=os.path.abspath(teacher))
        c.method = method_config(row.method, **own)
        if row.cf:
            c.method.cf = row.cf
            c.method.cf_lambda = float(params.get("cf_lambda", 1.0))
        return c

    def run_dir(self, row, alpha, seed: int, params: dict, teacher=None) -> str:
        config = self.run_config(row, alpha, seed, params, teacher)
        key = {"config": rundir.config_to_json(config),
               "teacher": None if teacher is None else os.path.relpath(teacher, self.workdir)}
        key["config"]["method"].pop("teacher_workdir", None)  # the workdir may move
        tag = f"{row.method}{'+' + row.cf if row.cf else ''}"
        where = "" if alpha is None else f"-a{float(config.data.options.alpha):.2f}"
        return os.path.join(self.workdir, "runs", f"{tag}{where}-s{int(seed)}-{config_hash(key)}")

    def run(self, row, alpha, seed: int, params: dict, teacher=None) -> dict:
        """{"dir", "result", "params"} of one run, trained when not finished."""

        path = rundir.RunDir(self.run_dir(row, alpha, seed, params, teacher))
        if not path.finished:
            with path.lock():
                if not path.finished:
                    config = self.run_config(row, alpha, seed, params, teacher)
                    t0 = time.perf_counter()
                    run(config, path, progress=False)
                    self.trained += 1
                    via = "" if teacher is None else f" teacher {os.path.basename(teacher)}"
                    where = "" if alpha is None else f" alpha={alpha:g}"
                    self.log(f"{row.label}{where} seed={seed} {params or ''}{via}: trained in "
                             f"{time.perf_counter() - t0:.0f} s")
        return {"dir": path.path, "result": path.result(), "params": params}

    def teacher_rfp(self, teacher_dir: str, alpha) -> float | None:
        """The teacher's test RFP on the data of `alpha` (its own result when trained there;
        otherwise its best checkpoint evaluated on that data, cached in the workdir); None
        where the test split has no G-edited pairs."""

        teacher = rundir.RunDir(teacher_dir)
        config = load_config_file(teacher.file(teacher.CONFIG))
        own = teacher.result()["test"].get("rfp")
        if alpha is None or own is None or float(config.data.options.alpha) == float(alpha):
            return own
        cache = os.path.join(self.workdir, "teacher_eval",
                             f"{os.path.basename(teacher_dir)}-a{float(alpha):.2f}.json")
        if os.path.exists(cache):
            return rundir.read_json(cache)["rfp"]

        config.data.options.alpha = float(alpha)
        run, state = restore_best(config, teacher_dir)
        report, _ = run.evaluate_views(state, "test", edits=("image_gflip",))
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        rundir.write_json(cache, {"rfp": report["rfp"], "teacher": teacher_dir,
                                  "alpha": float(alpha)})
        return report["rfp"]


def measure_of(study, row) -> str | None:
    """The validation measure a row is selected by: the study's CD (balanced on the synthetic
    sets) or DEO; None for a single configuration."""
    if row.select == "none":
        return None
    return study.cd_metric if row.select == "cd" else "deo"


def select_rows(runs: StudyRuns, alpha) -> dict:
    """{row: {"params", "rule", "bound", "measure", "runs": {seed: run}, "candidates"}} at one
    alpha: every row's candidates trained with the first seed, the paper's rule applied, the
    chosen configuration re-run with every other seed."""

    study = runs.study
    seeds = [int(s) for s in study.seeds]
    first = seeds[0]
    out = {}
    for name in row_order(study):
        row = study.row[name]
        start = dict(out[row.params_from]["params"]) if row.params_from else {}
        start.update(row.params)
        cands = [{**start, **c} for c in candidates(row)]

        def teacher(seed, row=row):
            return out[row.teacher]["runs"][seed]["dir"] if row.teacher else None

        tried = [runs.run(row, alpha, first, p, teacher(first)) for p in cands]
        measure = measure_of(study, row)
        bound = None
        if measure is None or len(tried) == 1:
            index, rule = 0, "single configuration"
        else:
            reference = out[study.reference]["runs"][first]["result"]["val"]["acc"]
            values = [t["result"]["val"].get(measure) for t in tried]
            if all(v is None for v in values):
                raise UserError(f"row {row.label!r} is selected by validation {measure}, which "
                                "its runs do not report: the validation split has no pairs; "
                                "give data.counterfactuals counterfactuals of the validation "
                                "split too (rows with split=val)")
            index, rule = bounded_select([t["result"]["val"]["acc"] for t in tried],
                                         [float("nan") if v is None else v for v in values],
                                         reference, float(study.acc_ratio))
            bound = accuracy_bound(reference, float(study.acc_ratio))
        chosen = tried[index]
        by_seed = {first: chosen}
        for seed in seeds[1:]:
            by_seed[seed] = runs.run(row, alpha, seed, chosen["params"], teacher(seed))
        out[name] = {"params": chosen["params"], "rule": rule, "bound": bound,
                     "measure": measure, "runs": by_seed, "candidates": tried}
    return out
