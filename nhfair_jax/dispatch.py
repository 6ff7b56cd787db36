"""One entry for every run: `run(config, workdir)` answers a finished run from its directory and
otherwise does what the method's kind asks, once, here:

- trained (ERM and every mitigation trained by gradient steps): the trainer, with the teacher's
  variables first when the method distils from one (the teacher run trained first, through
  this same `run`, when it is not finished);
- post-fit (DFR, OxonFair): its ERM base run made sure of (trained first, through `run`), then
  the fit on that run's features or logits;
- zero-shot (CLIP, BLIP-2, FairerCLIP, SFID): evaluated from its checkpoint.

The command line (`python -m nhfair_jax.run`), the benchmark's sweeps and seed runs, the
studies and the benchmarks call it; nothing else decides what kind of run a config is.
"""

from __future__ import annotations

from nhfair_jax.config import load_config_file, method_config
from nhfair_jax.config_schema import check_run
from nhfair_jax.errors import UserError
from nhfair_jax.methods import method_needs, spec
from nhfair_jax.methods.registry import BASELINE, POST_FIT, TRAINED, ZERO_SHOT
from nhfair_jax.rundir import RunDir
from nhfair_jax.training import post_fit, train
from nhfair_jax.training.loop import Run
from nhfair_jax.training.teacher import check_teacher, load_teacher, teacher_config_of
from nhfair_jax.zeroshot.config import as_zeroshot
from nhfair_jax.zeroshot.evaluate import evaluate_zeroshot


def run(config, workdir, *, progress: bool | None = None, mesh=None, on_epoch=None,
        overwrite: bool = False) -> dict:
    """Runs (or resumes) `config` in the run directory `workdir`; returns result.json's content.

    Args:
      config: a resolved ConfigDict (nhfair_jax/config.py; a zero-shot config from
        nhfair_jax/zeroshot/config.py).
      workdir: the run directory (a path or a RunDir); prepared here (config.json written, or
        checked against the config when it exists), before a finished run is answered from it.
      progress: progress bars; default the config's train.progress.
      mesh: the device mesh of a trained run; default all local devices.
      on_epoch: for a trained run, f(epoch, log entry) called after each epoch is checkpointed
        and logged; an exception it raises stops the run there, resumable (a sweep's pruner).
      overwrite: delete what the directory holds first (`nhfair_jax.run --overwrite`).

    Raises:
      UserError: the directory holds a run of another config, or the config cannot run (an
        unknown method, a teacher or base run that does not fit).
    """

    rundir = RunDir(workdir)
    record = spec(config.method.name)  # an unknown method fails before anything is written
    check_run(config)  # every value in its range, before anything is written
    rundir.prepare(config, overwrite=overwrite)  # a finished run of another config is refused
    result = rundir.result()  # None: not finished (or its result.json torn, then removed)
    if result is not None:
        return result
    if record.kind == ZERO_SHOT:
        return evaluate_zeroshot(config, rundir, progress=progress)
    if record.kind == POST_FIT:
        base_config, base_dir = base_run(config, mesh)
        return post_fit(config, rundir, base_config, base_dir.path)

    return train(config, rundir, mesh=mesh, progress=progress, teacher=teacher_of(config, mesh),
                 on_epoch=on_epoch)


def base_run(config, mesh=None):
    """(config, RunDir) of a post-fit method's ERM run (method.base_workdir), finished: a
    finished run's own config.json (as a teacher's), else method.base_config, trained first."""

    method_cfg = config.method
    base_dir = RunDir(method_cfg.base_workdir)
    source = base_dir.file(RunDir.CONFIG) if base_dir.finished and base_dir.config() else \
        method_cfg.base_config
    base = load_config_file(source)
    if base.method.name != BASELINE:
        raise ValueError(f"method.base_config must be an ERM config, {source} trains "
                         f"{base.method.name!r}")
    run(base, base_dir, mesh=mesh)
    return base, base_dir


def teacher_of(config, mesh=None):
    """The teacher's {"params", "batch_stats"} a run of `config` needs (None for a method that
    does not distil): its teacher run made sure of (trained first, through `run`), checked
    against the student, and restored from its best checkpoint."""
    if "teacher" not in method_needs(config.method):
        return None

    teacher_config, teacher_dir = teacher_config_of(config.method)
    check_teacher(teacher_config, config, teacher_dir.path)
    if spec(teacher_config.method.name).kind != TRAINED:
        raise UserError(f"teacher {teacher_dir.path} is a {teacher_config.method.name!r} run; a "
                        "teacher must be a trained network (erm, cp, ckd, ...)")
    run(teacher_config, teacher_dir, mesh=mesh)
    return load_teacher(teacher_config, teacher_dir, mesh)


def with_method(config, method: str, **overrides):
    """A run config of `method` (with hyperparameters `overrides`) on the data of `config`, a run
    config of any method: config.method replaced for a trained or post-fit method; for a
    zero-shot one, the data, evaluation and seed of `config` with the method's checkpoint
    settings (nhfair_jax/zeroshot/config.py). Returns a new config; `config` is unchanged."""
    import copy

    if spec(method).kind == ZERO_SHOT:
        return as_zeroshot(config, method, **overrides)
    config = copy.deepcopy(config)
    config.method = method_config(method, **overrides)
    return config


def build_run(config, mesh=None):
    """The trainer's Run of `config` (a trained method), with its teacher loaded (trained first
    when missing) when the method distils from one: for code that steps or evaluates a model
    outside `run` (benchmarks, tests)."""

    return Run(config, mesh, teacher=teacher_of(config, mesh))
