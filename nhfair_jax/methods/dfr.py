"""DFR, deep feature reweighting: retrain only the last layer of a finished ERM model, on
penultimate features of group-balanced subsets of the validation split.

Balanced across the sensitive groups, as the benchmark paper states ("a balanced distribution
across sensitive groups"); `balance="group_x_class"` balances group x class cells instead (the
original DFR code's Waterbirds groups are such cells). With `tune_class_weights`, each class is
up-weighted in turn by every value of the grid, both directions for a binary target, as the
original code's grid.

A post-fit method: it reads the ERM run directory named in its config (training it first from
the ERM config it names when it does not exist yet) and writes a run directory of its own with
the same contract. Half of validation tunes the regularisation on heads fitted on the other half;
the final head is refitted on all of validation, and validation numbers come from two
cross-fitted heads, each predicting the half it did not see.
"""

from __future__ import annotations

import numpy as np

from nhfair_jax.data.source import split_rng
from nhfair_jax.methods.posthoc import PostFitMethod
from nhfair_jax.methods.registry import register

PENALTIES = ("l1", "l2")


BALANCES = ("group", "group_x_class")


def balanced_rows(labels, groups, rng: np.random.Generator, balance: str = "group"
                  ) -> np.ndarray:
    """Every sensitive group (or group x class cell) subsampled to the size of the smallest
    non-empty one."""
    if balance not in BALANCES:
        raise ValueError(f"method.balance must be one of {BALANCES}, got {balance!r}")
    cell = np.asarray(groups)
    if balance == "group_x_class":
        cell = cell * (int(np.max(labels)) + 1) + np.asarray(labels)
    cells = np.unique(cell)
    size = min(int((cell == k).sum()) for k in cells)
    return np.sort(np.concatenate([rng.choice(np.flatnonzero(cell == k), size, replace=False)
                                   for k in cells]))


def penalty_arguments(penalty: str, sklearn_version: str | None = None) -> dict:
    """LogisticRegression's arguments for an L1 or L2 penalty. scikit-learn 1.8 spells it
    `l1_ratio` (1: L1, 0: L2) and deprecates `penalty`; older versions ignore `l1_ratio` unless
    penalty="elasticnet", so passing it there would silently fit L2."""
    if sklearn_version is None:
        import sklearn

        sklearn_version = sklearn.__version__
    major, minor = (int("".join(ch for ch in part if ch.isdigit()) or 0)
                    for part in sklearn_version.split(".")[:2])
    if (major, minor) >= (1, 8):
        return {"l1_ratio": 1.0 if penalty == "l1" else 0.0}
    return {"penalty": penalty}


def class_weight_options(grid, num_classes: int) -> list[dict]:
    """Each class up-weighted by each grid value, the others at 1: both directions for a
    binary target ({0: 1, 1: w} and {0: w, 1: 1}, as the original DFR code); weight 1 once."""
    options = [{k: 1.0 for k in range(num_classes)}]
    for k in range(num_classes):
        for w in grid:
            if w != 1.0:
                options.append({j: (float(w) if j == k else 1.0) for j in range(num_classes)})
    return options


class LastLayer:
    """A logistic-regression head averaged over several group-balanced fits (as DFR does)."""

    def __init__(self, *, penalty: str, c: float, class_weight: dict | None, retrains: int,
                 seed, balance: str = "group"):
        self.penalty, self.c, self.class_weight = penalty, c, class_weight
        self.retrains, self.seed, self.balance = retrains, seed, balance

    def fit(self, feats, labels, groups):
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        self.scaler = StandardScaler().fit(feats)
        x = self.scaler.transform(feats)
        rng = np.random.default_rng(self.seed)
        coefs, intercepts = [], []
        for _ in range(self.retrains):
            rows = balanced_rows(labels, groups, rng, self.balance)
            present = np.unique(labels[rows])
            weight = {int(c): (self.class_weight or {}).get(int(c), 1.0) for c in present}
            model = LogisticRegression(**penalty_arguments(self.penalty), C=self.c,
                                       solver="liblinear", class_weight=weight, max_iter=1000)
            model.fit(x[rows], labels[rows])
            coefs.append(model.coef_)
            intercepts.append(model.intercept_)
        self.coef, self.intercept = np.mean(coefs, 0), np.mean(intercepts, 0)
        return self

    def logits(self, feats) -> np.ndarray:
        z = self.scaler.transform(feats) @ self.coef.T + self.intercept
        return np.concatenate([np.zeros_like(z), z], axis=1) if z.shape[1] == 1 else z


@register("dfr")
class DFR(PostFitMethod):
    """Last-layer retraining on group-balanced validation features of a frozen ERM model.

    References: Kirichenko et al., "Last layer re-training is sufficient for robustness to
    spurious correlations", ICLR 2023.
    """

    defaults = {**PostFitMethod.base_defaults, "penalty": "l1",
                "c_grid": (3.0, 1.0, 0.7, 0.3, 0.1, 0.07, 0.03, 0.01, 0.003),
                "tune_class_weights": False,
                "class_weight_grid": (1.0, 2.0, 3.0, 10.0, 100.0, 300.0, 1000.0),
                "add_train": False, "retrains": 5, "balance": "group"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.penalty not in PENALTIES:
            raise ValueError(f"method.penalty must be one of {PENALTIES}, got {cfg.penalty!r}")
        if cfg.balance not in BALANCES:
            raise ValueError(f"method.balance must be one of {BALANCES}, got {cfg.balance!r}")

    def input_splits(self) -> tuple:
        return ("val", "test", "train") if self.cfg.add_train else ("val", "test")

    def _fit_set(self, feats, sources, val_rows):
        val = sources["val"]
        x, y, g = feats["val"][val_rows], val.labels[val_rows], val.groups[val_rows]
        if self.cfg.add_train:
            train = sources["train"]
            x = np.concatenate([x, feats["train"]])
            y = np.concatenate([y, train.labels])
            g = np.concatenate([g, train.groups])
        return x, y, g

    def _head(self, c, w, seed):
        return LastLayer(penalty=self.cfg.penalty, c=c, class_weight=w,
                         retrains=self.cfg.retrains, seed=seed, balance=self.cfg.balance)

    def fit_heads(self, feats, sources, seed):
        """Tunes (C, class weight) for worst-group accuracy on half B of validation with heads
        fitted on half A; then refits on all of validation (the final head) and cross-fits the
        two halves, so that every validation prediction comes from a head that did not see it.

        Returns:
          (final head, validation logits [N_val, C] from the cross-fitted heads, tuned params).
        """
        from nhfair_jax import metrics

        val = sources["val"]
        perm = split_rng("dfr", seed).permutation(len(val))
        halves = (np.sort(perm[:len(val) // 2]), np.sort(perm[len(val) // 2:]))
        weights = (class_weight_options(self.cfg.class_weight_grid, val.num_classes)
                   if self.cfg.tune_class_weights else [None])
        fit_a = self._fit_set(feats, sources, halves[0])
        best, best_key = None, None
        for c in self.cfg.c_grid:
            for w in weights:
                head = self._head(c, w, [seed, 1]).fit(*fit_a)
                pred = head.logits(feats["val"][halves[1]]).argmax(1)
                rep = metrics.fairness_report(val.labels[halves[1]], pred, val.groups[halves[1]],
                                              num_classes=val.num_classes,
                                              num_groups=val.num_groups)
                key = (rep["worst_acc"], rep["acc"])
                if best_key is None or key > best_key:  # ties: the first (grid order)
                    best, best_key = (c, w), key
        final = self._head(*best, [seed, 2]).fit(*self._fit_set(feats, sources,
                                                               np.arange(len(val))))
        val_logits = np.zeros((len(val), val.num_classes))
        for fit_half, other in ((0, 1), (1, 0)):
            head = self._head(*best, [seed, 3, fit_half]).fit(
                *self._fit_set(feats, sources, halves[fit_half]))
            val_logits[halves[other]] = head.logits(feats["val"][halves[other]])
        weight = None if best[1] is None else {str(k): v for k, v in best[1].items()}
        return final, val_logits, {"C": best[0], "class_weight": weight}

    def fit(self, inputs, sources, seed, info):
        """The post-fit fit: {split: (rows, logits)} (validation logits cross-fitted) and the
        tuned (C, class weight)."""
        del info
        feats = {split: np.asarray(x, np.float64) for split, x in inputs.items()}
        final, val_logits, tuned = self.fit_heads(feats, sources, seed)
        return {"val": (np.arange(len(sources["val"])), val_logits),
                "test": (np.arange(len(sources["test"])), final.logits(feats["test"]))}, tuned
