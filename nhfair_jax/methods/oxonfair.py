"""OxonFair: per-group thresholds on a finished ERM model's scores, fitted on validation with
the `oxonfair` package to optimise an objective under a constraint. Binary targets only.

A post-fit method. The five objective/constraint combinations of the benchmark are

  (accuracy, accuracy.diff)         maximise accuracy, accuracy gap between groups <= diff_bound
  (accuracy.min, accuracy)          maximise the worst group's accuracy, accuracy >= ERM - tolerance
  (accuracy.diff, accuracy.min)     minimise the gap, worst-group accuracy >= ERM's - tolerance
  (equalized_odds, accuracy)        minimise the equalized-odds gap, accuracy >= ERM - tolerance
  (demographic_parity, accuracy)    minimise the positive-rate gap, accuracy >= ERM - tolerance

where "ERM" is the ERM model's own validation value of that metric. The default tolerance is 0:
the benchmark paper's Table 7 reads each accuracy constraint as "without reducing" ERM's value. Data sets judged by AUC use balanced accuracy in place of accuracy. OxonFair's gaps
are its `.diff` (mean absolute difference over pairs of groups; the plain difference for two
groups). The thresholds are fitted on all of validation, so validation numbers are in-sample
(recorded in result.json as `val_is_fit_data`).

References: Delaney et al., "OxonFair: A flexible toolkit for algorithmic fairness", NeurIPS
2024.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import PostFitMethod
from nhfair_jax.methods.registry import POST_FIT, register
from nhfair_jax.methods.space import Choice

COMBINATIONS = (("accuracy", "accuracy.diff"), ("accuracy.min", "accuracy"),
                ("accuracy.diff", "accuracy.min"), ("equalized_odds", "accuracy"),
                ("demographic_parity", "accuracy"))


def _metric(name: str, balanced: bool):
    """The oxonfair group metric called `name` (accuracy -> balanced accuracy when asked)."""
    from oxonfair.utils import group_metrics as gm

    base, _, part = name.partition(".")
    if base == "accuracy":
        metric = gm.balanced_accuracy if balanced else gm.accuracy
        return getattr(metric, part) if part else metric
    return getattr(gm, base)


# One categorical over the valid objective / constraint pairs (the benchmark code's five).
@register("oxonfair", kind=POST_FIT, needs=("base_run",),
          space={"method.combination": Choice((
              "accuracy/accuracy.diff", "accuracy.min/accuracy", "accuracy.diff/accuracy.min",
              "equalized_odds/accuracy", "demographic_parity/accuracy"))},
          joint={"method.combination": ("method.objective", "method.constraint")})
class OxonFair(PostFitMethod):
    """Per-group decision thresholds on the ERM run's scores, fitted on validation."""

    defaults = {**PostFitMethod.base_defaults, "objective": "accuracy",
                "constraint": "accuracy.diff", "diff_bound": 0.02, "tolerance": 0.0}

    def __init__(self, cfg):
        super().__init__(cfg)
        if (cfg.objective, cfg.constraint) not in COMBINATIONS:
            options = ", ".join(f"({o}, {c})" for o, c in COMBINATIONS)
            raise ValueError(f"method.objective/method.constraint ({cfg.objective}, "
                             f"{cfg.constraint}) is not one of the combinations {options}")

    def bound(self, balanced: bool, labels, groups, logits) -> float:
        """The constraint's value: diff_bound for a gap, else ERM's value minus tolerance."""
        if self.cfg.constraint.endswith(".diff"):
            return float(self.cfg.diff_bound)
        metric = _metric(self.cfg.constraint, balanced)
        erm = float(np.ravel(metric(labels, logits.argmax(1), groups))[0])
        return erm - float(self.cfg.tolerance)

    inputs = "logits"

    def fit(self, inputs, sources, seed, info):
        """Thresholds fitted on the ERM run's validation logits; ({split: (rows, probs)},
        tuned)."""
        del seed  # the fit is deterministic
        try:
            from oxonfair import DeepDataDict, DeepFairPredictor
        except ImportError as e:
            raise UserError("method 'oxonfair' needs the oxonfair package: "
                            "pip install 'nhfair-jax[oxonfair]'") from e
        if info["num_classes"] != 2:
            raise UserError(f"OxonFair post-processing needs a binary target; {info['dataset']}"
                            f" has {info['num_classes']} classes")
        balanced = info["utility"] == "auc"
        val = sources["val"]
        val_logits = np.asarray(inputs["val"], np.float64)
        margin = lambda logits: (logits[:, 1] - logits[:, 0])[:, None]
        predictor = DeepFairPredictor(val.labels, margin(val_logits), val.groups,
                                      use_actual_groups=True)
        value = self.bound(balanced, val.labels, val.groups, val_logits)
        predictor.fit(_metric(self.cfg.objective, balanced), _metric(self.cfg.constraint, balanced),
                      value)
        tuned = {"objective": self.cfg.objective, "constraint": self.cfg.constraint,
                 "bound": value, "balanced_accuracy": balanced,
                 "offsets": np.asarray(predictor.offset, np.float64).tolist(),
                 "val_is_fit_data": True}
        out = {}
        for split in ("val", "test"):
            source = sources[split]
            data = DeepDataDict(source.labels, margin(np.asarray(inputs[split], np.float64)),
                                source.groups)
            proba = np.asarray(predictor.predict_proba(data), np.float64)
            out[split] = (np.arange(len(source)), proba)
        return out, tuned
