"""Training: train state, the generic step, optimizers, checkpoints, the epoch loop, teachers of
distillation methods, and post-fit methods fitted on a finished run. Runs start through
nhfair_jax.dispatch.run, which decides which of these a config needs."""

from nhfair_jax.training.loop import train
from nhfair_jax.training.postfit import post_fit

__all__ = ["post_fit", "train"]
