"""What post-fit methods (DFR, OxonFair) share: they are fitted on a finished ERM run.

A post-fit method is a pure fit. It names the ERM run (`method.base_config`, `method.base_workdir`)
and what it reads from it (`inputs`: the penultimate "features" or the "logits" of the best
checkpoint, for the splits `input_splits(num_classes)` returns); `fit(inputs, sources, seed,
info)` returns ({split: (rows, logits)}, what it tuned). Training the ERM run when it is missing,
computing (and caching) the inputs and writing the run directory are the trainer's side
(training/postfit.py).
"""

from __future__ import annotations

from nhfair_jax.methods.erm import ERM


class PostFitMethod(ERM):
    """Base of post-fit methods."""

    post_fit = True
    inputs = "features"  # or "logits"
    base_defaults = {"base_config": "configs/erm_digitsb.py", "base_workdir": "runs/erm_digitsb"}

    def input_splits(self) -> tuple:
        return ("val", "test")

    def fit(self, inputs: dict, sources: dict, seed: int, info: dict):
        """Args: inputs {split: [N, D] features or [N, C] logits}; sources {split: data source}
        (labels, groups); seed; info {num_classes, num_groups, dataset, utility}.

        Returns: ({split: (rows, logits)}, tuned parameters (JSON-able) or None).
        """
        raise NotImplementedError
