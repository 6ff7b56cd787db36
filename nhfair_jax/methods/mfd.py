"""MFD: fair feature distillation. Cross-entropy plus an MMD term that pulls, within each class,
every group's student features toward the teacher's features of that class (all groups
together), so that no group's representation keeps what sets it apart."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import (LossOutput, Method, cross_entropy, forward, teacher_forward,
                                     teacher_variables)
from nhfair_jax.methods.groups import cell_counts, original_rows, require_examples
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import LogUniform


def squared_distances(a, b):
    """[Na, Nb] squared Euclidean distances between the rows of a and b (clipped at 0)."""
    d = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * a @ b.T
    return jnp.maximum(d, 0.0)


def fair_mmd(student, teacher, labels, groups, num_classes: int, num_groups: int,
             sigma: float = 1.0, rows=None):
    """Sum over classes c and groups g present in the batch of the squared MMD between the
    teacher's features of class c (every group) and the student's features of class c, group g.

    Gaussian kernel exp(-||u - v||^2 / (2 sigma s2)), s2 the mean squared distance between the
    batch's teacher and student rows (held constant for the gradient), as Jung et al.'s code
    sets the bandwidth; the counterfactual study describes it as the mean squared distance
    between all data points.

    Args:
      student, teacher: [B, D] features (the teacher's without gradient).
      labels, groups: [B] class and group indices.
      sigma: a factor on the bandwidth (1 in the study).
      rows: [B] 1 for the rows that take part (all by default; the originals under `cf="aug"`).
    Returns:
      (sum of the per-cell MMD^2, number of cells present).
    """
    teacher = jax.lax.stop_gradient(teacher)
    rows = (jnp.ones(student.shape[0], student.dtype) if rows is None
            else rows.astype(student.dtype))
    d_ts = squared_distances(teacher, student)
    pairs = rows[:, None] * rows[None, :]
    s2 = jax.lax.stop_gradient((d_ts * pairs).sum() / jnp.maximum(pairs.sum(), 1.0))
    scale = 1.0 / (2.0 * sigma * jnp.maximum(s2, 1e-12))
    k_tt = jnp.exp(-squared_distances(teacher, teacher) * scale)
    k_ss = jnp.exp(-squared_distances(student, student) * scale)
    k_ts = jnp.exp(-d_ts * scale)
    t = jax.nn.one_hot(labels, num_classes, dtype=student.dtype) * rows[:, None]  # [B, C]
    cell = groups * num_classes + labels
    s = jax.nn.one_hot(cell, num_classes * num_groups, dtype=student.dtype) * rows[:, None]
    n_t, n_s = t.sum(0), s.sum(0)
    tt = jnp.einsum("ic,ij,jc->c", t, k_tt, t) / jnp.maximum(n_t, 1.0) ** 2  # [C]
    ss = jnp.einsum("ik,ij,jk->k", s, k_ss, s) / jnp.maximum(n_s, 1.0) ** 2  # [G*C]
    ts = (t.T @ k_ts @ s) / jnp.maximum(n_t[:, None] * n_s[None, :], 1.0)  # [C, G*C]
    cell_class = jnp.arange(num_classes * num_groups) % num_classes
    mmd = tt[cell_class] + ss - 2.0 * ts[cell_class, jnp.arange(num_classes * num_groups)]
    present = n_s > 0
    return jnp.where(present, mmd, 0.0).sum(), present.sum()


@register("mfd", space={"method.lam": LogUniform(1e-1, 1e6)}, needs=("teacher",))
class MFD(Method):
    """CE + (lam / 2) * fair_mmd(student features, teacher features), on the penultimate
    features of the student and of a frozen teacher: the finished run in `teacher_workdir`
    (trained there first from `teacher_config` when it holds none; same data set and
    architecture, checked before training). The teacher's variables ride in the method state
    and its features are computed inside the jitted step, in evaluation mode.

    The 1/2 and the sum over (class, group) cells follow Jung et al.'s code. With the `cf="aug"`
    modifier (MFD+aug) the cross-entropy runs on originals and counterfactuals and the MMD on the
    originals, as the counterfactual study's code.

    References: Jung et al., "Fair feature distillation for visual recognition", CVPR 2021.
    """

    defaults = {"lam": 1.0, "sigma": 1.0, "teacher_config": "configs/erm_digitsb.py",
                "teacher_workdir": "runs/erm_digitsb"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.lam < 0:
            raise UserError(f"method.lam must be >= 0, got {cfg.lam}")
        if not cfg.sigma > 0:
            raise UserError(f"method.sigma must be > 0, got {cfg.sigma}")

    def setup(self, info):
        super().setup(info)
        require_examples(cell_counts(info["labels"], info["groups"], info["num_classes"],
                                     info["num_groups"]), self.name)

    def init_state(self, info):
        return {"teacher": teacher_variables(info, self.name)}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        (logits, feats), batch_stats = forward(apply_fn, params, batch_stats, batch["image"],
                                               train=True, features=True)
        teacher = method_state["teacher"]
        _, t_feats = teacher_forward(apply_fn, teacher, batch["image"], features=True)
        mmd, _ = fair_mmd(feats, t_feats, batch["label"], batch["group"], logits.shape[1],
                          self.info["num_groups"], self.cfg.sigma, original_rows(batch))
        ce = cross_entropy(logits, batch["label"])
        return LossOutput(ce + 0.5 * hp.lam * mmd, logits, batch_stats, method_state,
                          {"ce": ce, "mmd": mmd})
