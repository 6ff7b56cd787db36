"""Counterfactual-aware methods: Scratch+aug (`cf_aug`), counterfactual pairing (`cp`),
counterfactual knowledge distillation (`ckd`) and Hinton distillation + CP (`hkd_cp`), plus the
`method.cf = "aug" | "cp"` modifiers that add counterfactual augmentation or the CP term to ANY
registered method (GroupDRO+CP, Resampling+aug, ... are one config field).

Every batch carries `image_cf`, the same example with the sensitive attribute A edited (exact on
DigitsB / CIFAR-10B; the user's edited images on real data, `data.counterfactuals`), and
optionally `cf_mask` (0 for a training row without a counterfactual: its pair terms are left
out). Both views go through the network in one forward pass on the concatenated batch, so
BatchNorm statistics are those of originals and counterfactuals together (ours; the paper does
not say).

Squared distances follow the paper's code: `mean((a - b) ** 2)` over the pairs AND the
representation's elements (not the sum over elements). The cross-entropy of CP and CKD is on the
originals (`ce_on="original"`), as Eq. 6 writes it and as the authors' code computes it unless
`--ce-aug` is passed, which none of their published CKD runs do; `ce_on="both"` adds the
counterfactuals (CKD plus augmentation).

The modifiers build the paper's combinations of a group-fairness method with counterfactuals as
its code does (its App. 11.3): `cf="aug"` runs the method's own objective on the training batch
augmented with the counterfactuals, the fairness statistics that the code computes on the
originals only (RW's weights, COV's covariance, MFD's MMD) staying on the originals: the doubled
batch carries `cf_view` (0 for an original row, 1 for its counterfactual) for the methods to
read. `cf="cp"` adds lambda x the CP term to the method's own objective on the originals.

References:
  Russell et al., "When worlds collide: integrating different counterfactual assumptions in
  fairness", NeurIPS 2017 (counterfactual pairing; its logit-pairing form as in Garg et al.,
  "Counterfactual fairness in text classification through robustness", AIES 2019).
  The counterfactual fairness benchmark paper introducing CelebA-CF, LFW-CF, CIFAR-10B and CKD
  (its Eqs. 4-6; Table 4 for HKD+CP).
  Hinton et al., "Distilling the knowledge in a neural network", 2015 (HKD).
"""

from __future__ import annotations


import jax
import jax.numpy as jnp

from nhfair_jax.errors import UserError
from nhfair_jax.methods.base import (LossOutput, Method, cross_entropy, forward, model_params,
                                     teacher_forward, teacher_variables)
from nhfair_jax.methods.registry import Modifier, mixed_class, register, register_modifier
from nhfair_jax.methods.space import Choice, LogUniform

REPS = ("logits", "features")
CE_ON = ("both", "original")
PAIR_KEYS = ("image", "label", "group", "image_cf", "cf_mask")


def pair_mask(batch) -> jnp.ndarray:
    """[B] float: 1 for rows with a counterfactual (all rows when the batch has no cf_mask)."""
    if "cf_mask" in batch:
        return batch["cf_mask"].astype(jnp.float32)
    return jnp.ones(batch["label"].shape[0], jnp.float32)


def squared_distance(a, b, mask=None) -> jnp.ndarray:
    """mean over pairs (weighted by mask) of mean over elements of (a - b)^2: the paper code's
    `mean((a - b) ** 2)` when every row is paired."""
    per_pair = jnp.mean(jnp.square(a - b).reshape(a.shape[0], -1), axis=1)
    if mask is None:
        return per_pair.mean()
    return (per_pair * mask).sum() / jnp.maximum(mask.sum(), 1.0)


def paired_forward(apply_fn, params, batch_stats, batch, *, features: bool = False):
    """((out_x, out_cf), batch_stats): one training-mode forward pass on [x; x_cf]; with
    features, each out is (logits, penultimate features)."""
    n = batch["image"].shape[0]
    images = jnp.concatenate([batch["image"], batch["image_cf"]])
    out, batch_stats = forward(apply_fn, params, batch_stats, images, train=True,
                               features=features)
    return jax.tree.map(lambda v: (v[:n], v[n:]), out,
                        is_leaf=lambda v: isinstance(v, jnp.ndarray)), batch_stats


def _split_views(out, features: bool):
    """(logits_x, logits_cf, rep_x, rep_cf) from paired_forward's output."""
    if features:
        (lx, lcf), (fx, fcf) = out
        return lx, lcf, fx, fcf
    lx, lcf = out
    return lx, lcf, lx, lcf


def paired_cross_entropy(logits_x, logits_cf, labels, mask, ce_on: str):
    """CE on the originals, or on originals and (paired) counterfactuals together."""
    if ce_on == "original":
        return cross_entropy(logits_x, labels)
    weights = jnp.concatenate([jnp.ones_like(mask), mask])
    return cross_entropy(jnp.concatenate([logits_x, logits_cf]),
                         jnp.concatenate([labels, labels]), weights)


def _check(cfg, key, allowed):
    if cfg[key] not in allowed:
        raise UserError(f"method.{key} must be one of {allowed}, got {cfg[key]!r}")


class PairedMethod(Method):
    """Base of the methods trained on (x, x_cf) pairs."""

    batch_keys = PAIR_KEYS

    def setup(self, info):
        super().setup(info)
        for key, allowed in (("rep", REPS), ("ce_on", CE_ON)):
            if key in self.defaults:
                _check(self.cfg, key, allowed)

    def views(self, apply_fn, params, batch_stats, batch):
        """((logits x, logits x_cf, rep x, rep x_cf), batch_stats) from one training-mode pass
        over both views; rep is the logits or the penultimate features (`method.rep`)."""
        features = self.cfg.rep == "features"
        out, batch_stats = paired_forward(apply_fn, params, batch_stats, batch,
                                          features=features)
        return _split_views(out, features), batch_stats


@register("cf_aug", needs=("pairs",))
class CFAug(PairedMethod):
    """Scratch+aug: cross-entropy on the originals and their counterfactuals (the training set
    augmented with the counterfactuals; rows without one count once).

    References: the counterfactual fairness benchmark paper (Scratch+aug).
    """

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        (lx, lcf), batch_stats = paired_forward(apply_fn, params, batch_stats, batch)
        ce = paired_cross_entropy(lx, lcf, batch["label"], pair_mask(batch), "both")
        return LossOutput(ce, lx, batch_stats, method_state, {})


@register("cp", space={"method.lam": LogUniform(1e-2, 1e2)}, needs=("pairs",))
class CP(PairedMethod):
    """Counterfactual pairing: CE + lam x mean ||f(x) - f(x_cf)||^2, f the logits
    (`rep="logits"`, the paper code's choice) or the penultimate features (`rep="features"`).
    `ce_on="original"` (default: the paper's Eq. 4) or "both".

    References: Russell et al. 2017; Garg et al. 2019; the benchmark paper's Eq. 4.
    """

    defaults = {"lam": 1.0, "rep": "logits", "ce_on": "original"}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        (lx, lcf, rx, rcf), batch_stats = self.views(apply_fn, params, batch_stats, batch)
        mask = pair_mask(batch)
        ce = paired_cross_entropy(lx, lcf, batch["label"], mask, self.cfg.ce_on)
        cp = squared_distance(rx, rcf, mask)
        return LossOutput(ce + hp.lam * cp, lx, batch_stats, method_state,
                          {"ce": ce, "cp": cp})


class TeacherMethod(PairedMethod):
    """A paired method that distils from a frozen teacher run (training/teacher.py): the
    teacher's variables ride in the method state and are never updated."""

    def init_state(self, info):
        return {"teacher": teacher_variables(info, self.name)}


@register("ckd", needs=("pairs", "teacher"),
          space={"method.mu": LogUniform(1e-1, 1e3), "method.lam": LogUniform(1e-2, 1e2)})
class CKD(TeacherMethod):
    """Counterfactual knowledge distillation: CE + mu x L_CKD + lam x L_CP with
    L_CKD = (||f(x) - t||^2 + ||f(x_cf) - t||^2) / 2, t the frozen teacher's mean representation
    of the pair, (T(x) + T(x_cf)) / 2; f = logits (`rep="logits"`) or penultimate features;
    L_CP pairs logits (as the paper's code). CE on the originals (`ce_on="original"`: Eq. 6, and
    the code without `--ce-aug`); "both" adds the counterfactuals.

    Search space: mu log-uniform on [1e-1, 1e3] (the paper's "strength mu" row: Eq. 6's symbol;
    its README runs CKD with mu 1000 on CelebA), lam on CP's range [1e-2, 1e2] (its App. 11.4:
    "We use the same range as CP for lambda").

    The teacher is the finished run in `teacher_workdir`, trained first from `teacher_config`
    when missing; its outputs are computed inside the jitted step.

    References: the benchmark paper's Eqs. 5-6, App. 11.4 and its CKD trainer.
    """

    defaults = {"mu": 1.0, "lam": 1.0, "rep": "logits", "ce_on": "original",
                "teacher_config": "configs/erm_digitsb.py",
                "teacher_workdir": "runs/erm_digitsb"}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        (lx, lcf, rx, rcf), batch_stats = self.views(apply_fn, params, batch_stats, batch)
        n = lx.shape[0]
        features = self.cfg.rep == "features"
        t_out = teacher_forward(apply_fn, method_state["teacher"],
                                jnp.concatenate([batch["image"], batch["image_cf"]]),
                                features=features)
        t_rep = t_out[1] if features else t_out
        target = (t_rep[:n] + t_rep[n:]) / 2.0
        mask = pair_mask(batch)
        ce = paired_cross_entropy(lx, lcf, batch["label"], mask, self.cfg.ce_on)
        ckd = (squared_distance(rx, target) + squared_distance(rcf, target)) / 2.0
        cp = squared_distance(lx, lcf, mask)
        loss = ce + hp.mu * ckd + hp.lam * cp
        return LossOutput(loss, lx, batch_stats, method_state, {"ce": ce, "ckd": ckd, "cp": cp})


def hinton_kd(student_logits, teacher_logits, temperature: float, weights=None):
    """T^2 x KL(softmax(teacher / T) || softmax(student / T)), averaged over rows."""
    t = jax.nn.softmax(teacher_logits / temperature)
    log_s = jax.nn.log_softmax(student_logits / temperature)
    log_t = jax.nn.log_softmax(teacher_logits / temperature)
    per_row = jnp.sum(t * (log_t - log_s), axis=-1) * temperature ** 2
    if weights is None:
        return per_row.mean()
    return (per_row * weights).sum() / jnp.maximum(weights.sum(), 1e-12)


@register("hkd_cp", needs=("pairs", "teacher"),
          space={"method.mu": LogUniform(1e-2, 1e2), "method.lam": LogUniform(1e-2, 1e2),
                 "method.temperature": Choice((1.0, 2.0, 3.0, 4.0))})
class HKDCP(TeacherMethod):
    """Hinton distillation from the teacher + CP: CE + mu x T^2 KL(teacher || student at
    temperature T) + lam x L_CP (logits). CE and distillation on the originals
    (`ce_on="original"`) or on both views, each view toward the teacher's output on it.

    The paper does not give T; its authors' code runs Hinton distillation at `--kd-temp 3`, our
    default (searched over 1, 2, 3, 4).

    References: Hinton et al. 2015; the benchmark paper's HKD+CP ablation (its Table 4).
    """

    defaults = {"mu": 1.0, "lam": 1.0, "temperature": 3.0, "ce_on": "original",
                "teacher_config": "configs/erm_digitsb.py",
                "teacher_workdir": "runs/erm_digitsb"}

    def setup(self, info):
        super().setup(info)
        if not self.cfg.temperature > 0:
            raise UserError(f"method.temperature must be positive, got {self.cfg.temperature}")

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        del rng
        (lx, lcf), batch_stats = paired_forward(apply_fn, params, batch_stats, batch)
        n = lx.shape[0]
        t = teacher_forward(apply_fn, method_state["teacher"],
                            jnp.concatenate([batch["image"], batch["image_cf"]]))
        mask = pair_mask(batch)
        ce = paired_cross_entropy(lx, lcf, batch["label"], mask, self.cfg.ce_on)
        if self.cfg.ce_on == "original":
            kd = hinton_kd(lx, t[:n], self.cfg.temperature)
        else:
            kd = hinton_kd(jnp.concatenate([lx, lcf]), t, self.cfg.temperature,
                           jnp.concatenate([jnp.ones_like(mask), mask]))
        cp = squared_distance(lx, lcf, mask)
        loss = ce + hp.mu * kd + hp.lam * cp
        return LossOutput(loss, lx, batch_stats, method_state, {"ce": ce, "kd": kd, "cp": cp})


# --- the +aug / +cp modifiers of any method --------------------------------------------------


class _CFModifier:
    """What both counterfactual mixins set up from config.method: the modifier (`cf_mode`),
    the pair term's representation (`cf_rep`) and the counterfactuals in the step's batches."""

    cf_mode = ""

    def __init__(self, cfg):
        super().__init__(cfg)
        rep = cfg.get("cf_rep", "logits")
        if rep not in REPS:
            raise UserError(f"method.cf_rep must be one of {REPS}, got {rep!r}")
        self.cf_rep = rep
        self.batch_keys = (*self.batch_keys,
                           *(k for k in ("image_cf", "cf_mask") if k not in self.batch_keys))


class _Augmented(_CFModifier):
    """Mixed in before a method's class: its loss on the batch doubled with the counterfactuals
    (label kept, sensitive group flipped: the edit changed A; a row without a counterfactual
    appears twice as itself), so that GroupDRO's groups, resampling weights etc. see the
    augmented data, and `cf_view` (0 originals, 1 their counterfactuals) for the methods whose
    fairness statistics stay on the originals (RW, COV, MFD, as the paper's code). Every other
    hook is the method's own."""

    cf_mode = "aug"

    def setup(self, info):
        super().setup(info)
        if info["num_groups"] != 2:
            raise UserError(f"method.cf='aug' flips a binary sensitive attribute; this data set "
                            f"has {info['num_groups']} groups")

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        n = batch["label"].shape[0]
        doubled = {}
        for k, v in batch.items():
            if k in ("image_cf", "cf_mask"):
                continue
            if k == "image":
                doubled[k] = jnp.concatenate([v, batch["image_cf"]])
            elif k == "group":
                doubled[k] = jnp.concatenate([v, jnp.where(pair_mask(batch) > 0, 1 - v, v)
                                              .astype(v.dtype)])
            elif hasattr(v, "shape") and v.ndim >= 1 and v.shape[0] == n:
                doubled[k] = jnp.concatenate([v, v])
            else:
                doubled[k] = v
        doubled["cf_view"] = jnp.concatenate([jnp.zeros(n, jnp.float32),
                                              jnp.ones(n, jnp.float32)])
        out = super().loss(apply_fn, params, batch_stats, method_state, doubled, rng, hp)
        return out._replace(logits=out.logits[:n])


class _PairTerm(_CFModifier):
    """Mixed in before a method's class: its loss + `cf_lambda` x mean ||f(x) - f(x_cf)||^2 on
    the network's logits (`cf_rep="logits"`) or penultimate features, from one extra
    training-mode forward pass on [x; x_cf]; methods with heads of their own (decoupled,
    bias_mimicking) regularise the shared network's head. Every other hook is the method's
    own.

    The method's objective is its own on the originals, as the paper's App. 11.3 describes "+CP"
    ("the objective functions of GF methods combined by the CP regularization") and as its code
    runs COV, MFD and LBC with CP; its RW+CP also carries the counterfactuals' cross-entropy (its
    RW loss on an augmented batch), which we leave out, following the text."""

    cf_mode = "cp"

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        hp = self.hyper(hp)
        plain = {k: v for k, v in batch.items() if k not in ("image_cf", "cf_mask")}
        out = super().loss(apply_fn, params, batch_stats, method_state, plain, rng, hp)
        features = self.cf_rep == "features"
        views, _ = paired_forward(apply_fn, model_params(params), batch_stats, batch,
                                  features=features)
        _, _, rx, rcf = _split_views(views, features)
        cp = squared_distance(rx, rcf, pair_mask(batch))
        return out._replace(loss=out.loss + hp.get("cf_lambda", 1.0) * cp,
                            metrics={**out.metrics, "cp": cp})


def with_cf_modifier(method_cls, mode: str):
    """`method_cls` with the `method.cf` modifier ("aug" or "cp") mixed in: its loss wrapped,
    its batches carrying the counterfactuals, every other hook and attribute the method's own.
    The registry builds these classes when methods and the modifier register (get_method
    instantiates them when config.method.cf is set); this reaches the same classes."""
    return mixed_class(method_cls, "cf", mode)


register_modifier(Modifier(
    key="cf", mixins={"aug": _Augmented, "cp": _PairTerm}, needs={"aug": ("pairs",), "cp": ("pairs",)},
    space={"aug": {}, "cp": {"method.cf_lambda": LogUniform(1e-2, 1e2)}}))


__all__ = ["CFAug", "CKD", "CP", "HKDCP", "hinton_kd", "paired_forward", "squared_distance",
           "with_cf_modifier"]
