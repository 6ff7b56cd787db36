"""Training: train state, the generic step, optimizers, checkpoints and the epoch loop."""

from nhfair_jax.training.loop import split_metrics, train_and_evaluate

__all__ = ["split_metrics", "train_and_evaluate"]
