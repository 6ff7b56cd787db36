"""Many small logistic regressions fitted at once, with liblinear's objective: DFR's tuning grid
(C values x class weights x balanced retrains) as one batched fit instead of hundreds of
separate liblinear calls.

The objective is the one scikit-learn's `LogisticRegression(solver="liblinear")` minimises, so
that the heads, and DFR's selections, are those of liblinear up to its stopping tolerance:

    L1:  ||w||_1       + sum_i C_i log(1 + exp(-s_i w.x_i))
    L2:  ||w||^2 / 2   + sum_i C_i log(1 + exp(-s_i w.x_i))

with x_i the features followed by a constant 1 (liblinear's intercept, `intercept_scaling=1`,
regularised like every other weight), s_i = +1 / -1 for the positive / negative class, and
C_i = C x the row's weight x the class weight. More than two classes are one-vs-rest, as
liblinear: the problem of class k weights its positive rows by class k's weight and its
negative rows by 1 (liblinear's `train`, which gives the rest `param->C`).

Solvers, vectorised over the batch of problems in float64 numpy (no program to compile; the
problems are a few hundred rows of a few dozen features): Newton's method with a backtracking
line search for L2, and for L1 proximal Newton with coordinate descent on the quadratic model
and a line search on the objective (the method of liblinear's own L1 solver, newGLMNET), each
run until the optimality conditions hold to `tol` (a gradient of the smooth part within `tol`
of the penalty's subgradient, relative to the first one). No library fits a batch of
L1-penalised logistic regressions on the CPU (scikit-learn fits one problem a call), hence this
module.
"""

from __future__ import annotations

import numpy as np

PENALTIES = ("l1", "l2")


def _log1pexp(z):
    return np.logaddexp(0.0, z)


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


class _Rows:
    """The row sets of a batch: x [R, m, d], problem b's rows x[of[b]] (the problems of a
    tuning grid share a retrain's rows), with their outer products for the Hessians."""

    def __init__(self, x, of):
        self.x, self.of = x, np.asarray(of)
        m, d = x.shape[1:]
        self.outer = (x[:, :, :, None] * x[:, :, None, :]).reshape(len(x), m, d * d)

    def groups(self, of):
        for r in np.unique(of):
            yield r, np.flatnonzero(of == r)

    def scores(self, of, w):
        """w_b.x_i over each problem's rows: [B, m]."""
        out = np.empty((len(w), self.x.shape[1]))
        for r, sel in self.groups(of):
            out[sel] = w[sel] @ self.x[r].T
        return out

    def smooth(self, of, w, sign, cost):
        """The loss term's gradient [B, d] and Hessian [B, d, d] at w [B, d]."""
        margin = sign * self.scores(of, w)
        dz = -cost * sign * _sigmoid(-margin)  # d loss / d (w.x_i)
        curv = cost * _sigmoid(margin) * _sigmoid(-margin)
        dim = w.shape[1]
        grad, hess = np.empty_like(w), np.empty((len(w), dim * dim))
        for r, sel in self.groups(of):
            grad[sel] = dz[sel] @ self.x[r]
            hess[sel] = curv[sel] @ self.outer[r]
        return grad, hess.reshape(len(w), dim, dim)

    def objective(self, of, w, sign, cost, penalty):
        loss = (cost * _log1pexp(-sign * self.scores(of, w))).sum(1)
        return loss + (np.abs(w).sum(1) if penalty == "l1" else 0.5 * (w * w).sum(1))


def _l1_violation(w, grad):
    """Per problem, the largest distance of -grad from the L1 norm's subdifferential at w."""
    nonzero = np.where(w > 0, np.abs(grad + 1.0), np.abs(grad - 1.0))
    zero = np.maximum(np.abs(grad) - 1.0, 0.0)
    return np.where(w != 0, nonzero, zero).max(1)


def _l1_direction(w, grad, hess, sweeps: int):
    """Coordinate descent on g.d + d'Hd/2 + ||w + d||_1, all problems at once: each coordinate
    moves to its minimiser, soft-thresholding, for at most `sweeps` passes, fewer when a pass
    moves nothing by more than a thousandth of the largest move."""
    # coordinate-major layout: a coordinate's values over the batch are one contiguous row
    z = np.ascontiguousarray(w.T)  # w + d
    z0 = z.copy()
    g = np.ascontiguousarray(grad.T)
    rows = np.ascontiguousarray(hess.transpose(1, 2, 0))  # [j, k, b]: row j of each Hessian
    diag = np.maximum(np.einsum("jjb->jb", rows), 1e-12)
    inv = 1.0 / diag
    hd = np.zeros_like(z)  # H d
    for _ in range(sweeps):
        largest = 0.0
        for j in range(len(z)):
            u = z[j] - (g[j] + hd[j]) * inv[j]
            new = np.sign(u) * np.maximum(np.abs(u) - inv[j], 0.0)
            step = new - z[j]
            z[j] = new
            hd += step * rows[j]
            largest = max(largest, float(np.abs(step).max()))
        if largest <= 1e-3 * max(float(np.abs(z - z0).max()), 1e-12):
            break
    return (z - z0).T


def fit_binary(x, of, sign, cost, penalty: str, *, tol: float = 1e-6, max_iter: int = 500,
               sweeps: int = 4):
    """Minimises the objective above for each of B problems: problem b fits the rows
    x[of[b]] (x [R, m, d]: R row sets of m rows) with sign [B, m] (+1 / -1) and cost [B, m]
    (C x weights). Returns w [B, d]."""
    if penalty not in PENALTIES:
        raise ValueError(f"penalty must be one of {PENALTIES}, got {penalty!r}")
    rows = _Rows(np.asarray(x, np.float64), of)
    of = rows.of
    batch, dim = cost.shape[0], x.shape[2]
    w = np.zeros((batch, dim))
    # the scale of optimality: the violation at w = 0, as liblinear's stopping rule
    grad0, _ = rows.smooth(of, w, sign, cost)
    scale = np.maximum(_l1_violation(w, grad0) if penalty == "l1" else np.abs(grad0).max(1),
                       1e-12)
    steps = 0.5 ** np.arange(1, 24)
    idx = np.arange(batch)
    for _ in range(max_iter):
        wa, oa, sa, ca = w[idx], of[idx], sign[idx], cost[idx]
        grad, hess = rows.smooth(oa, wa, sa, ca)
        if penalty == "l2":
            grad = grad + wa
            violation = np.abs(grad).max(1)
        else:
            violation = _l1_violation(wa, grad)
        keep = violation > tol * scale[idx]
        if not keep.any():
            break
        idx, wa, oa, sa, ca, grad, hess = (a[keep] for a in (idx, wa, oa, sa, ca, grad, hess))
        if penalty == "l2":
            d = -np.linalg.solve(hess + np.eye(dim), grad[..., None])[..., 0]
            decrease = (grad * d).sum(1)
        else:
            d = _l1_direction(wa, grad, hess, sweeps)
            decrease = (grad * d).sum(1) + np.abs(wa + d).sum(1) - np.abs(wa).sum(1)
        # Armijo backtracking: the full step first, then for the problems it does not
        # decrease enough every shorter one at once (the scores are linear in the step)
        start = rows.objective(oa, wa, sa, ca, penalty)
        step = np.ones(len(idx))
        found = rows.objective(oa, wa + d, sa, ca, penalty) <= start + 0.01 * decrease
        retry = np.flatnonzero(~found)
        if len(retry):
            xw, xd = rows.scores(oa[retry], wa[retry]), rows.scores(oa[retry], d[retry])
            margins = sa[retry, None] * (xw[:, None] + steps[None, :, None] * xd[:, None])
            trial = wa[retry, None] + steps[None, :, None] * d[retry, None]
            reg = (np.abs(trial).sum(2) if penalty == "l1" else 0.5 * (trial * trial).sum(2))
            values = (ca[retry, None] * _log1pexp(-margins)).sum(2) + reg
            ok = values <= start[retry, None] + 0.01 * steps[None] * decrease[retry, None]
            found[retry] = ok.any(1)
            step[retry] = steps[ok.argmax(1)]
        w[idx[found]] = (wa + step[:, None] * d)[found]
        idx = idx[found]  # no decrease left at float precision: as good as it gets
        if not len(idx):
            break
    return w


def fit_heads(x, labels, rows, of, c, penalty: str, num_classes: int, class_weight=None,
              **solver):
    """Heads for B problems on row sets of x [N, d] (standardised features; the intercept
    column is added here): rows [R, m] (indices into x), problem b fitting rows[of[b]], c [B],
    class_weight [B, num_classes] (None: all 1). Returns (coef [B, K, d], intercept [B, K]),
    K = 1 for two classes (the second class's score), else num_classes (one-vs-rest), as
    scikit-learn's liblinear fit."""
    x1 = np.concatenate([np.asarray(x, np.float64), np.ones((len(x), 1))], 1)
    rows, of = np.asarray(rows), np.asarray(of)
    xr, yb = x1[rows], np.asarray(labels)[rows][of]
    c = np.asarray(c, np.float64)[:, None]
    batch = len(of)
    cw = (np.ones((batch, num_classes)) if class_weight is None
          else np.asarray(class_weight, np.float64))
    if num_classes == 2:
        sign = np.where(yb == 1, 1.0, -1.0)
        cost = c * np.take_along_axis(cw, yb, 1)
        w = fit_binary(xr, of, sign, cost, penalty, **solver)[:, None]
    else:  # one-vs-rest: the rest at weight 1
        sign = np.concatenate([np.where(yb == k, 1.0, -1.0) for k in range(num_classes)])
        cost = np.concatenate([c * np.where(yb == k, cw[:, k:k + 1], 1.0)
                               for k in range(num_classes)])
        w = fit_binary(xr, np.tile(of, num_classes), sign, cost, penalty, **solver)
        w = w.reshape(num_classes, batch, -1).transpose(1, 0, 2)
    return w[..., :-1], w[..., -1]
