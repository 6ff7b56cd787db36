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
cross-fitted heads, each predicting the half it did not see. The heads of the tuning grid are
fitted `workers` at a time, with the same result for any number of them: L2 heads in threads
(liblinear releases the GIL and its L2 solver draws nothing), L1 heads in worker processes
(joblib's loky pool, started once per process), because liblinear's L1 solver draws its
coordinate order from one process-wide generator that threads would interleave. Every fit seeds
that generator (sklearn's `random_state`) from the head's seed, so L1 heads are reproducible.

A grid of hundreds of small fits spends about a fifth of its time in scikit-learn's checks of
each call's arguments and arrays (fit_heads 22% faster without them on a DigitsB ERM run's
features, all four grids, one worker): the features are checked once per trial here (finite,
else a one-line error naming the split), and the heads are fitted under `sklearn.config_context(assume_finite=True, skip_parameter_validation=True)`, the same
solver on the same rows, so the same heads.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from nhfair_jax import metrics
from nhfair_jax.data.source import split_rng
from nhfair_jax.methods.base import PostFitMethod
from nhfair_jax.methods.registry import POST_FIT, register
from nhfair_jax.methods.space import Choice

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


def fit_rows(labels, groups, pool_size: int, rng: np.random.Generator, balance: str = "group"
             ) -> np.ndarray:
    """Rows of one `add_train` fit, over validation rows [0, N) followed by `pool_size`
    training rows: the balanced validation rows and as many training rows drawn at random
    without replacement (all of them when there are fewer). The benchmark's code adds "a random
    training subset the size of the balanced validation half" this way, not the whole
    training split."""
    rows = balanced_rows(labels, groups, rng, balance)
    extra = rng.choice(pool_size, min(len(rows), pool_size), replace=False)
    return np.sort(np.concatenate([rows, len(labels) + extra]))


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


def fit_workers(workers: int) -> int:
    """Heads fitted at once: `workers`, or every CPU this process may use when 0."""
    if workers < 0:
        raise ValueError(f"method.workers must be >= 0 (0: every CPU), got {workers}")
    if workers:
        return workers
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def parallel_map(fn, calls, workers: int, *, processes: bool) -> list:
    """[fn(*args) for args in calls], `workers` at a time: in threads, or in joblib's loky
    worker processes (started once, reused between calls; large array arguments reach them
    memory-mapped) when `processes`; in order either way."""
    calls = list(calls)
    if workers <= 1 or len(calls) <= 1:
        return [fn(*args) for args in calls]
    if processes:
        from joblib import Parallel, delayed

        return Parallel(n_jobs=min(workers, len(calls)), backend="loky")(
            delayed(fn)(*args) for args in calls)
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda args: fn(*args), calls))


def _fit(head, fit_set, pool):
    return head.fit(*fit_set, pool)


def class_weight_options(grid, num_classes: int) -> list[dict]:
    """Each class up-weighted by each grid value, the others at 1: both directions for a
    binary target ({0: 1, 1: w} and {0: w, 1: 1}, as the original DFR code); weight 1 once."""
    options = [{k: 1.0 for k in range(num_classes)}]
    for k in range(num_classes):
        for w in grid:
            if w != 1.0:
                options.append({j: (float(w) if j == k else 1.0) for j in range(num_classes)})
    return options


def check_features(feats: dict) -> None:
    """Raises a one-line ValueError naming the first split whose features hold a NaN or an
    infinity (a base run that diverged); the heads' fits then skip scikit-learn's own check."""
    for split, x in feats.items():
        bad = ~np.isfinite(x)
        if bad.any():
            rows = int(bad.any(axis=tuple(range(1, x.ndim))).sum())
            raise ValueError(
                f"DFR: the base run's {split} features hold NaN or infinite values in {rows} of "
                f"{len(x)} rows; the base run diverged: retrain it (a lower learning rate) "
                f"before fitting its last layer")


class LastLayer:
    """A logistic-regression head averaged over several group-balanced fits (as DFR does)."""

    def __init__(self, *, penalty: str, c: float, class_weight: dict | None, retrains: int,
                 seed, balance: str = "group"):
        self.penalty, self.c, self.class_weight = penalty, c, class_weight
        self.retrains, self.seed, self.balance = retrains, seed, balance

    def fit(self, feats, labels, groups, pool=None):
        """Fits the averaged head on balanced rows of (feats, labels, groups); with `pool` (the
        training split's (feats, labels, groups), `add_train`), each fit also takes as many
        random training rows as it has balanced ones (`fit_rows`)."""
        import sklearn

        # the arrays are checked once per trial (`check_features`); every call's checks here
        # would cost a fifth of a grid's time (module docstring)
        with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
            return self._fit(feats, labels, groups, pool)

    def _fit(self, feats, labels, groups, pool):
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        if pool is not None:
            n = len(labels)
            feats, labels, groups = (np.concatenate([a, b]) for a, b in
                                     zip((feats, labels, groups), pool))
        self.scaler = StandardScaler().fit(feats)
        x = self.scaler.transform(feats)
        rng = np.random.default_rng(self.seed)
        # liblinear's L1 solver visits coordinates in a random order: seeded per fit, from a
        # stream of its own (the balanced rows stay those of the seed), so refits are identical
        solver_seeds = np.random.default_rng([*np.atleast_1d(self.seed), 0x11B]).integers(
            2**31 - 1, size=self.retrains)
        coefs, intercepts = [], []
        for solver_seed in solver_seeds:
            rows = (balanced_rows(labels, groups, rng, self.balance) if pool is None else
                    fit_rows(labels[:n], groups[:n], len(labels) - n, rng, self.balance))
            present = np.unique(labels[rows])
            weight = {int(c): (self.class_weight or {}).get(int(c), 1.0) for c in present}

            def liblinear(target, class_weight):
                model = LogisticRegression(**penalty_arguments(self.penalty), C=self.c,
                                           solver="liblinear", class_weight=class_weight,
                                           max_iter=1000, random_state=int(solver_seed))
                return model.fit(x[rows], target)

            if len(present) <= 2:
                model = liblinear(labels[rows], weight)
                coefs.append(model.coef_)
                intercepts.append(model.intercept_)
                continue
            # More classes: one-vs-rest, as liblinear's own multi-class scheme (scikit-learn 1.8
            # and later refuse liblinear for a multi-class target): class k against the rest,
            # its rows weighted by its class weight, the rest by 1
            heads = [liblinear((labels[rows] == k).astype(int), {1: weight[int(k)], 0: 1.0})
                     for k in present]
            coefs.append(np.concatenate([m.coef_ for m in heads]))
            intercepts.append(np.concatenate([m.intercept_ for m in heads]))
        self.coef, self.intercept = np.mean(coefs, 0), np.mean(intercepts, 0)
        return self

    def logits(self, feats) -> np.ndarray:
        z = self.scaler.transform(feats) @ self.coef.T + self.intercept
        return np.concatenate([np.zeros_like(z), z], axis=1) if z.shape[1] == 1 else z


@register("dfr", kind=POST_FIT, needs=("base_run",),
          space={"method.tune_class_weights": Choice((False, True)),
                 "method.add_train": Choice((False, True)),
                 "method.penalty": Choice(("l1", "l2"))})
class DFR(PostFitMethod):
    """Last-layer retraining on group-balanced validation features of a frozen ERM model.

    References: Kirichenko et al., "Last layer re-training is sufficient for robustness to
    spurious correlations", ICLR 2023.
    """

    defaults = {**PostFitMethod.base_defaults, "penalty": "l1",
                "c_grid": (3.0, 1.0, 0.7, 0.3, 0.1, 0.07, 0.03, 0.01, 0.003),
                "tune_class_weights": False,
                "class_weight_grid": (1.0, 2.0, 3.0, 10.0, 100.0, 300.0, 1000.0),
                "add_train": False, "retrains": 5, "balance": "group", "workers": 0}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.penalty not in PENALTIES:
            raise ValueError(f"method.penalty must be one of {PENALTIES}, got {cfg.penalty!r}")
        if cfg.balance not in BALANCES:
            raise ValueError(f"method.balance must be one of {BALANCES}, got {cfg.balance!r}")
        fit_workers(cfg.workers)

    def input_splits(self) -> tuple:
        return ("val", "test", "train") if self.cfg.add_train else ("val", "test")

    def _fit_set(self, feats, sources, val_rows):
        """(feats, labels, groups) of the validation rows, and the training pool (add_train)."""
        val = sources["val"]
        pool = None
        if self.cfg.add_train:
            train = sources["train"]
            pool = (feats["train"], train.labels, train.groups)
        return (feats["val"][val_rows], val.labels[val_rows], val.groups[val_rows]), pool

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
        check_features(feats)

        val = sources["val"]
        perm = split_rng("dfr", seed).permutation(len(val))
        halves = (np.sort(perm[:len(val) // 2]), np.sort(perm[len(val) // 2:]))
        weights = (class_weight_options(self.cfg.class_weight_grid, val.num_classes)
                   if self.cfg.tune_class_weights else [None])
        fit_a = self._fit_set(feats, sources, halves[0])
        grid = [(c, w) for c in self.cfg.c_grid for w in weights]
        # liblinear's L1 solver draws from one process-wide generator: L1 heads are fitted in
        # processes of their own (threads would interleave its draws); L2's solver draws nothing
        workers, processes = fit_workers(self.cfg.workers), self.cfg.penalty == "l1"
        heads = parallel_map(_fit, [(self._head(*cw, [seed, 1]), *fit_a) for cw in grid],
                             workers, processes=processes)
        best, best_key = None, None
        for cw, head in zip(grid, heads):
            pred = head.logits(feats["val"][halves[1]]).argmax(1)
            rep = metrics.fairness_report(val.labels[halves[1]], pred, val.groups[halves[1]],
                                          num_classes=val.num_classes,
                                          num_groups=val.num_groups)
            key = (rep["worst_acc"], rep["acc"])
            if best_key is None or key > best_key:  # ties: the first (grid order)
                best, best_key = cw, key
        # the final head on all of validation, and the two cross-fitted ones
        jobs = [(np.arange(len(val)), [seed, 2])] + [(halves[h], [seed, 3, h]) for h in (0, 1)]
        final, *cross = parallel_map(
            _fit, [(self._head(*best, head_seed), *self._fit_set(feats, sources, rows))
                   for rows, head_seed in jobs], workers, processes=processes)
        val_logits = np.zeros((len(val), val.num_classes))
        for head, other in zip(cross, (1, 0)):
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
