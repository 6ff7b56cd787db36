"""RW: reweighing. Each training example's loss is weighted by P(a) P(y) / P(a, y), estimated
on the training split, so that under the weighted distribution the label is independent of the
sensitive group."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import optax

from nhfair_jax.methods.base import LossOutput, Method, forward
from nhfair_jax.methods.groups import cell_counts, original_rows, require_examples
from nhfair_jax.methods.registry import register


def reweighing_weights(labels, groups, num_classes: int, num_groups: int) -> np.ndarray:
    """[G, C] weights w(a, y) = P(a) P(y) / P(a, y) from the given split (0 for empty cells,
    which no example uses). Under these weights the joint distribution of (A, Y) is the product
    of its marginals, and the weights average 1 over the split."""
    counts = cell_counts(labels, groups, num_classes, num_groups).astype(np.float64)
    n = counts.sum()
    p_a, p_y = counts.sum(1) / n, counts.sum(0) / n
    p_ay = counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(counts > 0, np.outer(p_a, p_y) / p_ay, 0.0)
    return w.astype(np.float32)


@register("rw")
class RW(Method):
    """Cross-entropy with per-example weights w(a, y) = P(a) P(y) / P(a, y) from the training
    split; the batch loss is mean_i w_i CE_i, an unbiased estimate of the weighted risk (the
    weights average 1 over the training split).

    With the `cf="aug"` modifier (RW+aug) the weights stay on the originals and the
    counterfactual rows weigh 1: (mean_i w_i CE(x_i) + mean_i CE(x_i^cf)) / 2, as the
    counterfactual study's code computes its RW on an augmented batch. Its weights are
    |a| |y| / |a, y| (counts, N times ours), which leaves the counterfactual half with about 1/N
    of the gradient; ours average 1, so both halves count as the code's `/ 2` says.

    References: Kamiran and Calders, "Data preprocessing techniques for classification without
    discrimination", Knowledge and Information Systems 33, 2012 (reweighing).
    """

    defaults: dict = {}

    def setup(self, info):
        super().setup(info)
        require_examples(cell_counts(info["labels"], info["groups"], info["num_classes"],
                                     info["num_groups"]), self.name)

    def init_state(self, info):
        return {"weights": jnp.asarray(reweighing_weights(
            info["labels"], info["groups"], info["num_classes"], info["num_groups"]))}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        per_example = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"])
        w = method_state["weights"][batch["group"], batch["label"]]
        original = original_rows(batch)
        w = original * w + (1.0 - original)  # +aug: counterfactual rows weigh 1
        return LossOutput((per_example * w).mean(), logits, batch_stats, method_state,
                          {"mean_weight": w.mean()})
