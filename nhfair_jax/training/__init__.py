"""Training: train state, the generic step, optimizers, checkpoints, the epoch loop, and
post-fit methods fitted on a finished run."""

import os

from nhfair_jax import rundir
from nhfair_jax.methods import method_class
from nhfair_jax.training import loop, postfit, teacher
from nhfair_jax.training.loop import split_metrics


def train_and_evaluate(config, workdir: str, **kwargs) -> dict:
    """Trains (or resumes) one run and writes its run directory; a post-fit method (DFR,
    OxonFair) is fitted on its ERM run instead, and a distilling method (CKD, HKD+CP, MFD) gets
    its teacher first. Returns result.json's content.

    Args:
      config: a resolved ConfigDict.
      workdir: the run directory.
      **kwargs: mesh, progress (see training.loop.train_and_evaluate).
    """
    result_path = os.path.join(workdir, "result.json")
    if os.path.exists(result_path):  # finished: never trained or fitted again
        return rundir.read_json(result_path)
    if getattr(method_class(config.method.name), "post_fit", False):
        return postfit.post_fit_and_evaluate(config, workdir)
    return loop.train_and_evaluate(config, workdir, teacher=teacher.teacher_of_config(
        config, kwargs.get("mesh")), **kwargs)


__all__ = ["split_metrics", "train_and_evaluate"]
