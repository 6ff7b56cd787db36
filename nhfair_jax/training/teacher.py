"""Teacher runs for distillation methods (CKD, HKD+CP, MFD): one place that finds, trains when
missing, checks and loads a finished run directory whose model a student distils from.

API for a method (see methods/cf.py for CKD and HKD+CP):

- set the class attribute `needs_teacher = True` and put `teacher_config` (a configs/*.py file
  or a run directory's config.json; "" for none) and `teacher_workdir` (the teacher's run
  directory) in the method's `defaults`;
- `build_run(config)` (or training.train_and_evaluate) loads the teacher before the student's
  state is built, through `teacher_for(method, config)`: when
  `teacher_workdir` holds no finished run (no result.json) it is trained there from
  `teacher_config` (resuming a killed one); then the teacher's config is checked against the
  student's (same data set, image size and normalisation, same architecture and number of
  classes; loader options such as alpha may differ: the paper's de-biased teacher is trained at
  alpha 0.5), and its best checkpoint restored; its variables go to `info["teacher"]`;
- the method's `init_state(info)` returns `{"teacher": teacher_variables(info, name), ...}`
  (methods/base.py): the
  teacher's {"params", "batch_stats"} travel in the method state, so the jitted step computes
  the teacher's outputs on device, and nothing differentiates or updates them (the loss returns
  the method state unchanged, so they stay bit-identical);
- in `loss`, `teacher_forward(apply_fn, method_state["teacher"], images, features=...)`
  (methods/base.py) is the
  teacher in evaluation mode under stop_gradient (the student's apply_fn: same architecture).

Errors (a teacher of another data set or architecture, a teacher directory without a finished
run and no `teacher_config`, a teacher whose parameters are not a plain model) are one-line
`UserError`s raised before any student training.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import jax

from nhfair_jax.errors import UserError
from nhfair_jax.rundir import prepare_workdir
from nhfair_jax.training.checkpoint import Checkpoints
from nhfair_jax.training.loop import Run, train_and_evaluate

# Config fields that must agree between teacher and student (the rest may differ).
MATCH_KEYS = ("data.name", "data.image_size", "data.mean", "data.std", "data.target",
              "data.sensitive", "model.name", "model.cnn_widths")


class Teacher(NamedTuple):
    config: Any  # the teacher run's resolved config (ConfigDict)
    workdir: str
    result: dict  # its result.json
    variables: dict  # {"params": ..., "batch_stats": ...} of its best checkpoint (host arrays)


def _get(config, dotted: str):
    node = config
    for part in dotted.split("."):
        if part not in node:
            return None
        node = node[part]
    return tuple(node) if isinstance(node, (list, tuple)) else node


def teacher_config_of(method_cfg, workdir: str):
    """The teacher's config: from its run directory when finished, else from teacher_config
    (None when neither exists)."""
    from nhfair_jax.config import load_config_file

    run_config = os.path.join(workdir, "config.json")
    if os.path.exists(os.path.join(workdir, "result.json")) and os.path.exists(run_config):
        return load_config_file(run_config)
    if method_cfg.get("teacher_config", ""):
        try:
            return load_config_file(method_cfg.teacher_config)
        except FileNotFoundError as e:
            raise UserError(f"method.teacher_config: {e}") from e
    return None


def check_teacher(teacher_config, student_config, workdir: str) -> None:
    """UserError unless the teacher was trained on the student's data set and architecture."""
    for key in MATCH_KEYS:
        a, b = _get(teacher_config, key), _get(student_config, key)
        if a != b:
            raise UserError(f"teacher {workdir} has {key}={a!r}, the student {key}={b!r}; a "
                            "teacher must be trained on the same data set with the same "
                            "architecture (method.teacher_workdir / method.teacher_config)")
    from nhfair_jax.methods import method_class

    teacher_method = method_class(teacher_config.method.name)
    if getattr(teacher_method, "post_fit", False) or getattr(teacher_method, "zeroshot", False):
        raise UserError(f"teacher {workdir} is a {teacher_config.method.name!r} run; a teacher "
                        "must be a trained network (erm, cp, ckd, ...)")


def ensure_teacher_run(method_cfg, student_config):
    """(teacher config, teacher workdir): checked, and trained first when missing."""
    workdir = method_cfg.get("teacher_workdir", "")
    if not workdir:
        raise UserError(f"method {method_cfg.name!r} needs method.teacher_workdir (a finished "
                        "run directory, or where to train one from method.teacher_config)")
    config = teacher_config_of(method_cfg, workdir)
    if config is None:
        raise UserError(f"method.teacher_workdir {workdir} holds no finished run (no "
                        "result.json) and method.teacher_config is empty; train the teacher "
                        "first or name its config")
    check_teacher(config, student_config, workdir)
    if not os.path.exists(os.path.join(workdir, "result.json")):
        prepare_workdir(workdir, config)
        train_and_evaluate(config, workdir, teacher=teacher_of_config(config))
    return config, workdir


def load_teacher(method_cfg, student_config, mesh=None) -> Teacher:
    """The teacher named by a method's config: trained first when missing, checked, restored."""
    from nhfair_jax.rundir import read_json

    config, workdir = ensure_teacher_run(method_cfg, student_config)
    _, state = restore_best(config, workdir, mesh)
    params = jax.device_get(state.params)
    if isinstance(params, dict) and "model" in params and len(params) > 1:
        raise UserError(f"teacher {workdir} ({config.method.name}) has modules beyond the "
                        "network (per-group heads, an adversary); use a plainly trained teacher")
    variables = {"params": params, "batch_stats": jax.device_get(state.batch_stats)}
    return Teacher(config, workdir, read_json(os.path.join(workdir, "result.json")),
                   variables)


def restore_best(config, workdir: str, mesh=None):
    """(Run of `config`, the train state of the best checkpoint in `workdir`); `config` may
    differ from the run's own in its data options (to evaluate it on other data)."""
    run = build_run(config, mesh)
    ckpt = Checkpoints(workdir)
    try:
        state, _ = ckpt.restore_best(run.state)
    finally:
        ckpt.close()
    return run, state


def teacher_of_config(config, mesh=None):
    """The teacher variables a run of `config` needs (None for a method without a teacher)."""
    from nhfair_jax.methods import get_method
    from nhfair_jax.methods.cf import with_cf_modifier

    return teacher_for(with_cf_modifier(get_method(config.method), config.method), config, mesh)


def build_run(config, mesh=None) -> Run:
    """The trainer's Run of `config`, with its teacher loaded (trained first when missing) when
    the method distils from one."""
    return Run(config, mesh, teacher=teacher_of_config(config, mesh))


def teacher_for(method, student_config, mesh=None):
    """The teacher's variables when the method (or the method a modifier wraps) needs one, for
    `info["teacher"]`; None otherwise."""
    for m in (method, getattr(method, "inner", None)):
        if m is not None and getattr(m, "needs_teacher", False):
            return load_teacher(m.cfg, student_config, mesh).variables
    return None
