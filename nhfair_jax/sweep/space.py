"""The search spaces of docs/methods.md: the common part (learning rate, weight decay,
optimizer) for every trained method, plus each method's own hyperparameters.

A space is a dict {dotted config key: distribution}; `suggest` draws one configuration from an
Optuna trial. Post-fit methods (dfr, oxonfair) search only their own parameters: they reuse the
selected ERM model.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LogUniform:
    low: float
    high: float


@dataclass(frozen=True)
class Uniform:
    low: float
    high: float


@dataclass(frozen=True)
class Choice:
    options: tuple


COMMON = {
    "optim.lr": LogUniform(1e-5, 1e-2),
    "optim.weight_decay": Choice((0.0, 1e-5, 1e-4, 1e-3, 1e-2)),
    "optim.name": Choice(("adam", "sgd")),
}

OWN = {
    "erm": {},
    "randaug": {},
    "mixup": {"method.coef": Uniform(0.1, 10.0)},
    "resampling": {"method.mode": Choice(("group", "group_x_class"))},
    "bias_mimicking": {"method.mode": Choice(("none", "us", "uw", "os"))},
    "fis": {"method.label_ratio": Choice((0.1, 0.3, 0.5)),
            "method.constraint": Choice(("dp", "eop", "eod"))},
    "decoupled": {},
    "laftr": {"method.class_coef": Uniform(0.1, 1.0), "method.fair_coef": Uniform(0.1, 1.0)},
    "fscl": {"method.group_norm": Choice((False, True))},
    "gapreg": {"method.objective": Choice(("dp", "eop", "eod")),
               "method.coef": Uniform(0.01, 5.0)},
    "mcdp": {"method.coef": Uniform(0.01, 5.0),
             "method.temperature": Choice((5.0, 10.0, 20.0, 50.0, 100.0))},
    # The variant is searched; each variant's sub-space (CONDITIONAL) holds only what it reads:
    # step_size acts only in the standard variant, alpha and gamma only in btl.
    "groupdro": {"method.variant": Choice(("standard", "btl")),
                 "method.adjustment": Choice((0.0, 1.0, 2.0, 4.0))},
    # Group-fairness baselines of the counterfactual study (its table of search ranges).
    "ss": {},
    "rw": {},
    "cov": {"method.lam": LogUniform(1e-2, 1e2)},
    "lbc": {"method.eta": LogUniform(1e-1, 1e3), "method.mu": LogUniform(1e-1, 1e3)},
    "mfd": {"method.lam": LogUniform(1e-1, 1e6)},
    # Counterfactual-aware (pairs of images with the sensitive attribute edited).
    "cf_aug": {},
    "cp": {"method.lam": LogUniform(1e-2, 1e2)},
    "ckd": {"method.mu": LogUniform(1e-2, 1e2), "method.lam": LogUniform(1e-2, 1e2)},
    "hkd_cp": {"method.mu": LogUniform(1e-2, 1e2), "method.lam": LogUniform(1e-2, 1e2),
               "method.temperature": Choice((1.0, 2.0, 4.0))},
    "dfr": {"method.tune_class_weights": Choice((False, True)),
            "method.add_train": Choice((False, True)),
            "method.penalty": Choice(("l1", "l2"))},
    "oxonfair": {"method.combination": Choice((
        "accuracy/accuracy.diff", "accuracy.min/accuracy", "accuracy.diff/accuracy.min",
        "equalized_odds/accuracy", "demographic_parity/accuracy"))},
    # Zero-shot (evaluated, not trained): plain matching has nothing to search. Table 7 draws the
    # FairerCLIP trade-offs from U(0, 1); 0.99 caps them where tau / (1 - tau) stays finite.
    "clip": {},
    "blip2": {},
    "fairerclip": {"method.tau_i": Uniform(0.0, 0.99), "method.tau_z_i": Uniform(0.0, 0.99),
                   "method.tau_t": Uniform(0.0, 0.99), "method.tau_z_t": Uniform(0.0, 0.99),
                   "method.rff_dim": Choice((1000, 2000, 3000, 4000, 8000))},
    "sfid": {"method.threshold": Uniform(0.5, 1.0), "method.n_pruned": Choice((50, 75, 100))},
}


# Parameters searched only for one value of another: {method: (key, {value: sub-space})}.
CONDITIONAL = {
    "groupdro": ("method.variant", {
        "standard": {"method.step_size": LogUniform(1e-3, 1e-1)},
        "btl": {"method.alpha": Uniform(0.01, 1.0), "method.gamma": Uniform(0.01, 1.0)}}),
}


def space(method: str, *, post_fit: bool) -> dict:
    """The method's space; only its own part for post-fit and zero-shot methods (no training)."""
    from nhfair_jax.methods import method_class

    if method not in OWN:
        raise ValueError(f"no search space for method {method!r}; known: {sorted(OWN)}")
    trains = not (post_fit or getattr(method_class(method), "zeroshot", False))
    return {**COMMON, **OWN[method]} if trains else dict(OWN[method])


def _draw(trial, dists: dict) -> dict:
    out = {}
    for key, dist in dists.items():
        if isinstance(dist, LogUniform):
            out[key] = trial.suggest_float(key, dist.low, dist.high, log=True)
        elif isinstance(dist, Uniform):
            out[key] = trial.suggest_float(key, dist.low, dist.high)
        else:
            out[key] = trial.suggest_categorical(key, list(dist.options))
    return out


# What the `method.cf` modifiers (any method +aug / +cp) add to a method's space.
MODIFIER_SPACE = {"": {}, "none": {}, "aug": {},
                  "cp": {"method.cf_lambda": LogUniform(1e-2, 1e2)}}


def suggest(trial, method: str, *, post_fit: bool, cf: str = "") -> dict:
    """One configuration {dotted key: value} drawn from the method's space (plus the space of
    the `method.cf` modifier `cf`, when given)."""
    out = _draw(trial, {**space(method, post_fit=post_fit), **MODIFIER_SPACE[cf or ""]})
    if method in CONDITIONAL:
        key, branches = CONDITIONAL[method]
        out.update(_draw(trial, branches[out[key]]))
    if "method.combination" in out:  # oxonfair: one categorical for the valid pairs
        objective, constraint = out.pop("method.combination").split("/")
        out["method.objective"], out["method.constraint"] = objective, constraint
    return out
