"""Training: train state, the generic step, optimizers, checkpoints, the epoch loop, and
post-fit methods fitted on a finished run."""

from nhfair_jax.methods import method_class
from nhfair_jax.training import loop, postfit
from nhfair_jax.training.loop import split_metrics


def train_and_evaluate(config, workdir: str, **kwargs) -> dict:
    """Trains (or resumes) one run and writes its run directory; a post-fit method (DFR,
    OxonFair) is fitted on its ERM run instead. Returns result.json's content.

    Args:
      config: a resolved ConfigDict.
      workdir: the run directory.
      **kwargs: mesh, progress (see training.loop.train_and_evaluate).
    """
    if getattr(method_class(config.method.name), "post_fit", False):
        return postfit.post_fit_and_evaluate(config, workdir)
    return loop.train_and_evaluate(config, workdir, **kwargs)


__all__ = ["split_metrics", "train_and_evaluate"]
