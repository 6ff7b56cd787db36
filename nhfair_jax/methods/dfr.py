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

The heads are scikit-learn's liblinear logistic regressions, as the original code's. By default
(`solver="batched"`) the whole tuning grid (C values x class weights x retrains) is one batched
fit of liblinear's objective (nhfair_jax/methods/logistic.py), solved to a tighter tolerance than
liblinear's: the same selections (tests/test_dfr.py) at a fraction of the cost, no worker
processes to start, and more than two classes fitted one-vs-rest as liblinear's own (which
scikit-learn 1.8 no longer offers). `solver="liblinear"` calls liblinear once per retrain,
`workers` heads at a time, with the same result for any number of them: L2 heads in threads
(liblinear releases the GIL and its L2 solver draws nothing), L1 heads in worker processes
(joblib's loky pool, started once per process), because liblinear's L1 solver draws its
coordinate order from one process-wide generator that threads would interleave. Every fit seeds
that generator (sklearn's `random_state`) from the head's seed, so L1 heads are reproducible.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from nhfair_jax import metrics
from nhfair_jax.data.source import split_rng
from nhfair_jax.methods import logistic
from nhfair_jax.methods.base import PostFitMethod
from nhfair_jax.methods.registry import POST_FIT, register
from nhfair_jax.methods.space import Choice

PENALTIES = ("l1", "l2")


BALANCES = ("group", "group_x_class")
SOLVERS = ("batched", "liblinear")


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


class LastLayer:
    """A logistic-regression head averaged over several group-balanced fits (as DFR does)."""

    def __init__(self, *, penalty: str, c: float, class_weight: dict | None, retrains: int,
                 seed, balance: str = "group"):
        self.penalty, self.c, self.class_weight = penalty, c, class_weight
        self.retrains, self.seed, self.balance = retrains, seed, balance

    def fit(self, feats, labels, groups, pool=None):
        """Fits the averaged head on balanced rows of (feats, labels, groups) with liblinear;
        with `pool` (the training split's (feats, labels, groups), `add_train`), each fit also
        takes as many random training rows as it has balanced ones (`fit_rows`)."""
        from sklearn.linear_model import LogisticRegression

        feats, labels, groups, rows_of = self.prepare(feats, labels, groups, pool)
        x = self.scaler.transform(feats)
        # liblinear's L1 solver visits coordinates in a random order: seeded per fit, from a
        # stream of its own (the balanced rows stay those of the seed), so refits are identical
        solver_seeds = np.random.default_rng([*np.atleast_1d(self.seed), 0x11B]).integers(
            2**31 - 1, size=self.retrains)
        coefs, intercepts = [], []
        for rows, solver_seed in zip(rows_of, solver_seeds):
            present = np.unique(labels[rows])
            weight = {int(c): (self.class_weight or {}).get(int(c), 1.0) for c in present}
            model = LogisticRegression(**penalty_arguments(self.penalty), C=self.c,
                                       solver="liblinear", class_weight=weight, max_iter=1000,
                                       random_state=int(solver_seed))
            model.fit(x[rows], labels[rows])
            coefs.append(model.coef_)
            intercepts.append(model.intercept_)
        self.coef, self.intercept = np.mean(coefs, 0), np.mean(intercepts, 0)
        return self

    def prepare(self, feats, labels, groups, pool=None):
        """The fit set (validation rows, then the training pool with `add_train`), its
        standardisation (set on the head) and each retrain's rows, drawn from the head's seed."""
        from sklearn.preprocessing import StandardScaler

        n = len(labels)
        if pool is not None:
            feats, labels, groups = (np.concatenate([a, b]) for a, b in
                                     zip((feats, labels, groups), pool))
        self.scaler = StandardScaler().fit(feats)
        rng = np.random.default_rng(self.seed)
        rows_of = [balanced_rows(labels, groups, rng, self.balance) if pool is None else
                   fit_rows(labels[:n], groups[:n], len(labels) - n, rng, self.balance)
                   for _ in range(self.retrains)]
        return feats, labels, groups, rows_of

    def logits(self, feats) -> np.ndarray:
        z = self.scaler.transform(feats) @ self.coef.T + self.intercept
        return np.concatenate([np.zeros_like(z), z], axis=1) if z.shape[1] == 1 else z


def fit_batched(heads: list[LastLayer], feats, labels, groups, pool=None, *,
                num_classes: int) -> list[LastLayer]:
    """Fits heads that share one fit set (a tuning grid: C values x class weights, each with
    its retrains) as one batched problem (nhfair_jax/methods/logistic.py: liblinear's
    objective, solved to a tighter tolerance than liblinear's stopping rule) instead of one
    liblinear call per retrain. Each head's retrains take the rows `LastLayer.fit` would (heads
    of one seed share them). Where a retrain's rows miss a class, every head is fitted by
    liblinear instead, whose fit then has fewer classes, as scikit-learn's."""
    drawn, of = {}, []
    for head in heads:
        key = (repr(head.seed), head.retrains, head.balance)
        if key not in drawn:
            drawn[key] = (len(drawn) * head.retrains, head.prepare(feats, labels, groups, pool))
        first, (all_feats, all_labels, _, rows_of) = drawn[key]
        of += range(first, first + head.retrains)
    rows = np.concatenate([np.stack(prepared[3]) for _, prepared in drawn.values()])
    if any(len(np.unique(all_labels[r])) < num_classes for r in rows):
        return [head.fit(feats, labels, groups, pool) for head in heads]
    penalties = {head.penalty for head in heads}
    if len(penalties) != 1:
        raise ValueError(f"heads of one batched fit share a penalty, got {sorted(penalties)}")
    scaler = heads[0].scaler
    cs = np.repeat([head.c for head in heads], [head.retrains for head in heads])
    class_weights = np.repeat(
        [[(head.class_weight or {}).get(k, 1.0) for k in range(num_classes)] for head in heads],
        [head.retrains for head in heads], axis=0)
    coef, intercept = logistic.fit_heads(scaler.transform(all_feats), all_labels, rows, of, cs,
                                         penalties.pop(), num_classes, class_weights)
    start = 0
    for head in heads:
        end = start + head.retrains
        head.scaler = scaler
        head.coef, head.intercept = coef[start:end].mean(0), intercept[start:end].mean(0)
        start = end
    return heads


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
                "add_train": False, "retrains": 5, "balance": "group", "solver": "batched",
                "workers": 0}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.penalty not in PENALTIES:
            raise ValueError(f"method.penalty must be one of {PENALTIES}, got {cfg.penalty!r}")
        if cfg.balance not in BALANCES:
            raise ValueError(f"method.balance must be one of {BALANCES}, got {cfg.balance!r}")
        if cfg.solver not in SOLVERS:
            raise ValueError(f"method.solver must be one of {SOLVERS}, got {cfg.solver!r}")
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

    def _fit_all(self, heads, fit_set, num_classes):
        """`heads` fitted on one fit set: as one batched problem (`solver="batched"`), or one
        liblinear call per retrain, `workers` heads at a time. liblinear's L1 solver draws
        from one process-wide generator: L1 heads are then fitted in processes of their own
        (threads would interleave its draws); its L2 solver draws nothing (threads)."""
        (x, labels, groups), pool = fit_set
        if self.cfg.solver == "batched":
            return fit_batched(heads, x, labels, groups, pool, num_classes=num_classes)
        return parallel_map(_fit, [(head, *fit_set) for head in heads],
                            fit_workers(self.cfg.workers),
                            processes=self.cfg.penalty == "l1")

    def fit_heads(self, feats, sources, seed):
        """Tunes (C, class weight) for worst-group accuracy on half B of validation with heads
        fitted on half A; then refits on all of validation (the final head) and cross-fits the
        two halves, so that every validation prediction comes from a head that did not see it.

        Returns:
          (final head, validation logits [N_val, C] from the cross-fitted heads, tuned params).
        """

        val = sources["val"]
        perm = split_rng("dfr", seed).permutation(len(val))
        halves = (np.sort(perm[:len(val) // 2]), np.sort(perm[len(val) // 2:]))
        weights = (class_weight_options(self.cfg.class_weight_grid, val.num_classes)
                   if self.cfg.tune_class_weights else [None])
        fit_a = self._fit_set(feats, sources, halves[0])
        grid = [(c, w) for c in self.cfg.c_grid for w in weights]
        heads = self._fit_all([self._head(*cw, [seed, 1]) for cw in grid], fit_a,
                              val.num_classes)
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
        final, *cross = (self._fit_all([self._head(*best, head_seed)],
                                       self._fit_set(feats, sources, rows), val.num_classes)[0]
                         for rows, head_seed in jobs)
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
