"""Teacher runs for distillation methods (CKD, HKD+CP, MFD), on the trainer's side: which config
a teacher directory holds, whether it suits the student, and its best checkpoint's variables.

A distilling method's record needs a "teacher"; its config names `teacher_workdir` (the
teacher's run directory) and `teacher_config` (a configs/*.py file or a run directory's
config.json; "" for none). nhfair_jax.dispatch.run trains the teacher there first when it is not
finished (through the same `run`, so a killed teacher resumes), then calls `load_teacher`, whose
variables go to `info["teacher"]`. The method's `init_state(info)` returns
`{"teacher": teacher_variables(info, name), ...}` (methods/base.py): the teacher's variables
travel in the method state, so the jitted step computes the teacher's outputs on device, and
nothing differentiates or updates them (the loss returns the method state unchanged, so they
stay bit-identical). In `loss`, `teacher_forward(apply_fn, method_state["teacher"], images)` is
the teacher in evaluation mode under stop_gradient (the student's apply_fn: same architecture).

Errors (a teacher of another data set or architecture, a teacher directory without a finished
run and no `teacher_config`, a teacher whose parameters are not a plain model) are one-line
`UserError`s raised before any student training.
"""

from __future__ import annotations

import jax

from nhfair_jax.config import load_config_file
from nhfair_jax.errors import UserError
from nhfair_jax.rundir import RunDir
from nhfair_jax.training.setup import restore_best

# Config fields that must agree between teacher and student (the rest may differ: loader
# options such as alpha may; the paper's de-biased teacher is trained at alpha 0.5).
MATCH_KEYS = ("data.name", "data.image_size", "data.mean", "data.std", "data.target",
              "data.sensitive", "model.name", "model.cnn_widths")


def _get(config, dotted: str):
    node = config
    for part in dotted.split("."):
        if part not in node:
            return None
        node = node[part]
    return tuple(node) if isinstance(node, (list, tuple)) else node


def teacher_config_of(method_cfg):
    """(the teacher's config, its run directory): the finished run's own config.json, else
    method.teacher_config.

    Raises:
      UserError: no teacher_workdir, or a directory without a finished run and no config.
    """

    workdir = method_cfg.get("teacher_workdir", "")
    if not workdir:
        raise UserError(f"method {method_cfg.name!r} needs method.teacher_workdir (a finished "
                        "run directory, or where to train one from method.teacher_config)")
    teacher_dir = RunDir(workdir)
    if teacher_dir.finished and teacher_dir.config() is not None:
        return load_config_file(teacher_dir.file(RunDir.CONFIG)), teacher_dir
    if method_cfg.get("teacher_config", ""):
        try:
            return load_config_file(method_cfg.teacher_config), teacher_dir
        except FileNotFoundError as e:
            raise UserError(f"method.teacher_config: {e}") from e
    raise UserError(f"method.teacher_workdir {workdir} holds no finished run and "
                    "method.teacher_config is empty; train the teacher first or name its config")


def check_teacher(teacher_config, student_config, workdir) -> None:
    """UserError unless the teacher was trained on the student's data set and architecture."""
    for key in MATCH_KEYS:
        a, b = _get(teacher_config, key), _get(student_config, key)
        if a != b:
            raise UserError(f"teacher {workdir} has {key}={a!r}, the student {key}={b!r}; a "
                            "teacher must be trained on the same data set with the same "
                            "architecture (method.teacher_workdir / method.teacher_config)")


def load_teacher(config, workdir, mesh=None) -> dict:
    """The {"params", "batch_stats"} (host arrays) of the finished teacher run's best
    checkpoint."""
    _, state = restore_best(config, workdir, mesh)
    params = jax.device_get(state.params)
    if isinstance(params, dict) and "model" in params and len(params) > 1:
        raise UserError(f"teacher {RunDir(workdir).path} ({config.method.name}) has modules "
                        "beyond the network (per-group heads, an adversary); use a plainly "
                        "trained teacher")
    return {"params": params, "batch_stats": jax.device_get(state.batch_stats)}
