"""The group-fairness baselines of the counterfactual study (ss, rw, cov, lbc, mfd): each one's
defining effect, any number of groups and classes, and bad input refused before training."""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.dispatch import run
from nhfair_jax.errors import UserError
from nhfair_jax.methods import get_method, search_space
from nhfair_jax.methods.cov import covariance_penalty, decision_scores, group_covariance
from nhfair_jax.methods.lbc import cell_weights, constraint_violations, update_multipliers
from nhfair_jax.methods.mfd import fair_mmd
from nhfair_jax.methods.rw import reweighing_weights
from nhfair_jax.methods.ss import subsample_rows
from tests.helpers import (assert_learned, assert_same_run, erm_config_file, interrupt_and_resume,
                           tiny_config, toy_apply, toy_student_and_teacher)

BASELINES = ("ss", "rw", "cov", "lbc")


def _biased(n=3000, num_classes=2, num_groups=2, seed=0):
    """Labels and groups with a strong class-dependent group skew (every cell present)."""
    rng = np.random.default_rng(seed)
    p = np.arange(num_classes, 0, -1) ** 2.0
    labels = rng.choice(num_classes, n, p=p / p.sum())
    shift = (rng.random(n) < 0.25) * rng.integers(1, num_groups, n)
    return labels, (labels + shift) % num_groups


def _info(labels, groups, num_classes, num_groups):
    return {"num_classes": num_classes, "num_groups": num_groups, "num_train": len(labels),
            "labels": np.asarray(labels), "groups": np.asarray(groups), "seed": 0, "epochs": 2,
            "feature_dim": 4}


class _Source:
    def __init__(self, labels, groups, num_classes, num_groups):
        self.labels, self.groups = np.asarray(labels), np.asarray(groups)
        self.num_classes, self.num_groups = num_classes, num_groups

    def __len__(self):
        return len(self.labels)


def _fixed_logits_model(logits):
    def apply_fn(variables, x, train=False, features=False, mutable=None):
        del variables, x, features
        return (logits, {"batch_stats": {}}) if train and mutable else logits

    return apply_fn


# ------------------------------------------------------------------------------------------ ss


@pytest.mark.parametrize("num_classes, num_groups", [(2, 2), (3, 4)])
@pytest.mark.parametrize("mode", ["group", "group_x_class"])
def test_ss_cuts_every_cell_to_the_smallest_once_per_run(mode, num_classes, num_groups):
    labels, groups = _biased(num_classes=num_classes, num_groups=num_groups)
    method = get_method(method_config("ss", mode=mode))
    source = _Source(labels, groups, num_classes, num_groups)
    rows = method.sample_indices(source, seed=7, epoch=1, method_state={})
    assert len(np.unique(rows)) == len(rows)  # without replacement
    cell = groups if mode == "group" else groups * num_classes + labels
    k = num_groups if mode == "group" else num_groups * num_classes
    full = np.bincount(cell, minlength=k)
    kept = np.bincount(cell[rows], minlength=k)
    assert (kept == full.min()).all() and full.max() > 1.5 * full.min()
    # The same subsample every epoch (drawn once per run), another one for another seed.
    assert np.array_equal(rows, method.sample_indices(source, seed=7, epoch=5, method_state={}))
    assert not np.array_equal(rows, method.sample_indices(source, seed=8, epoch=1,
                                                          method_state={}))


def test_ss_bad_mode_and_empty_cells_are_one_line_errors():
    with pytest.raises(UserError, match="method.mode must be one of"):
        get_method(method_config("ss", mode="cells"))
    labels, groups = np.array([0, 1, 0, 1, 0]), np.array([0, 0, 1, 1, 1])
    with pytest.raises(UserError, match="no example of group 2"):
        get_method(method_config("ss", mode="group")).setup(_info(labels, groups, 2, 3))
    with pytest.raises(UserError, match="no example of group 0 with class 1"):
        subsample_rows(np.array([0, 0, 1]), np.array([0, 0, 1]), 2, 2, "group_x_class",
                       np.random.default_rng(0))


# ------------------------------------------------------------------------------------------ rw


@pytest.mark.parametrize("num_classes, num_groups", [(2, 2), (3, 4)])
def test_rw_weighted_joint_makes_group_and_label_independent(num_classes, num_groups):
    labels, groups = _biased(num_classes=num_classes, num_groups=num_groups)
    w = reweighing_weights(labels, groups, num_classes, num_groups)[groups, labels]
    joint = np.zeros((num_groups, num_classes))
    np.add.at(joint, (groups, labels), w)
    joint /= w.sum()
    raw = np.zeros_like(joint)
    np.add.at(raw, (groups, labels), 1.0)
    raw /= len(labels)
    # Dependent before, independent after; marginals unchanged; weights average 1.
    assert np.abs(raw - np.outer(raw.sum(1), raw.sum(0))).max() > 0.05
    np.testing.assert_allclose(joint, np.outer(joint.sum(1), joint.sum(0)), atol=1e-6)
    np.testing.assert_allclose(joint.sum(1), raw.sum(1), atol=1e-6)
    np.testing.assert_allclose(joint.sum(0), raw.sum(0), atol=1e-6)
    assert w.mean() == pytest.approx(1.0, abs=1e-5)


def test_rw_loss_is_the_weighted_cross_entropy():
    labels, groups = np.array([0, 0, 0, 1, 1, 0]), np.array([0, 0, 1, 1, 1, 1])
    method = get_method(method_config("rw"))
    info = _info(labels, groups, 2, 2)
    method.setup(info)
    state = method.init_state(info)
    # P(a=0) = 1/3, P(y=0) = 2/3; cells (0,0), (1,0), (1,1) hold 1/3 each, (0,1) none.
    np.testing.assert_allclose(state["weights"], [[2 / 3, 0.0], [4 / 3, 2 / 3]], rtol=1e-6)
    logits = jnp.array([[1., 0.], [0., 1.], [2., 0.], [0., 2.], [1., 1.], [0., 3.]])
    batch = {"image": jnp.zeros((6, 2, 2, 3)), "label": jnp.asarray(labels),
             "group": jnp.asarray(groups)}
    out = method.loss(_fixed_logits_model(logits), {}, {}, state, batch, None)
    ce = -jax.nn.log_softmax(logits)[np.arange(6), labels]
    w = np.asarray(state["weights"])[groups, labels]
    assert float(out.loss) == pytest.approx(float((ce * w).mean()), rel=1e-6)
    with pytest.raises(UserError, match="no example of group 1"):
        get_method(method_config("rw")).setup(_info(labels, np.zeros(6, int), 2, 2))


# ------------------------------------------------- +aug as the counterfactual study's code


def _aug_toy(seed=0, b=8):
    params, teacher = toy_student_and_teacher(seed, 12, 5, 2)
    k = jax.random.split(jax.random.key(seed), 6)
    labels = np.array([0, 0, 0, 1, 1, 1, 0, 1])[:b]
    groups = np.array([0, 0, 1, 1, 1, 0, 1, 1])[:b]
    batch = {"image": jax.random.normal(k[4], (b, 2, 2, 3)),
             "image_cf": jax.random.normal(k[5], (b, 2, 2, 3)),
             "label": jnp.asarray(labels), "group": jnp.asarray(groups)}
    return params, teacher, batch, labels, groups


def _views(params, batch):
    """(logits, features) of the originals and of the counterfactuals, in numpy."""
    out = [toy_apply({"params": params}, batch[k], features=True)
           for k in ("image", "image_cf")]
    return [(np.asarray(lo, np.float64), np.asarray(fe, np.float64)) for lo, fe in out]


def _np_ce(logits, labels):
    z = logits - logits.max(1, keepdims=True)
    return -(z[np.arange(len(labels)), labels] - np.log(np.exp(z).sum(1)))


def _aug(name, info, **kw):
    cfg = method_config(name, **kw)
    cfg.cf = "aug"
    method = get_method(cfg)
    method.setup(info)
    return method


@pytest.mark.slow
def test_rw_aug_is_the_codes_average_of_weighted_originals_and_plain_counterfactuals():
    """The study's rw.py on an augmented batch: loss = (mean(w[:bs] * ce[:bs]) +
    mean(ce[bs:])) / 2, with the weights of the originals' cells."""
    params, _, batch, labels, groups = _aug_toy()
    info = _info(labels, groups, 2, 2)
    method = _aug("rw", info)
    state = method.init_state(info)
    out = method.loss(toy_apply, params, {}, state, batch, None)
    (lx, _), (lcf, _) = _views(params, batch)
    w = np.asarray(state["weights"])[groups, labels]
    expected = (np.mean(w * _np_ce(lx, labels)) + np.mean(_np_ce(lcf, labels))) / 2
    assert float(out.loss) == pytest.approx(expected, rel=1e-5)
    # plain RW is the weighted mean over the originals alone
    plain = get_method(method_config("rw"))
    plain.setup(info)
    out = plain.loss(toy_apply, params, {}, state, batch, None)
    assert float(out.loss) == pytest.approx(np.mean(w * _np_ce(lx, labels)), rel=1e-5)


def _code_cov(logits, labels, groups, num_groups=2):
    """The study's cov.py closures (closure_FPR + closure_FNR), written out."""
    d = logits[:, 1:] - logits[:, :1]  # torch.diff(outputs, dim=1)
    y = labels[:, None].astype(float)
    z = np.eye(num_groups)[groups]
    total = 0.0
    for d_new in (-(y - 1) * (2 * y - 1) * d, y * (2 * y - 1) * d):  # FPR, FNR
        g = np.minimum(d_new, 0.0)
        total += np.abs(((z - z.mean(0)) * g).mean(0)).sum()
    return total


@pytest.mark.slow
def test_cov_aug_is_ce_on_both_views_and_the_covariance_of_the_originals():
    params, _, batch, labels, groups = _aug_toy(seed=1)
    info = _info(labels, groups, 2, 2)
    out = _aug("cov", info, lam=3.0, constraint="mistreatment").loss(
        toy_apply, params, {}, {}, batch, None)
    (lx, _), (lcf, _) = _views(params, batch)
    ce = np.concatenate([_np_ce(lx, labels), _np_ce(lcf, labels)]).mean()
    cov = _code_cov(lx, labels, groups)
    assert cov > 1e-3  # the term is there to be seen
    assert float(out.loss) == pytest.approx(ce + 3.0 * cov, rel=1e-5)
    assert float(out.metrics["covariance"]) == pytest.approx(cov, rel=1e-5)


@pytest.mark.slow
def test_mfd_aug_is_ce_on_both_views_and_the_mmd_of_the_originals():
    params, teacher, batch, labels, groups = _aug_toy(seed=2)
    info = {**_info(labels, groups, 2, 2), "teacher": teacher}
    method = _aug("mfd", info, lam=4.0, teacher_workdir="t")
    out = method.loss(toy_apply, params, {}, method.init_state(info), batch, None)
    (lx, fx), (lcf, _) = _views(params, batch)
    _, t_fx = _views(teacher["params"], batch)[0]
    ce = np.concatenate([_np_ce(lx, labels), _np_ce(lcf, labels)]).mean()
    mmd, _ = _np_mmd(fx, t_fx, labels, groups, 2, 2)
    assert float(out.metrics["mmd"]) == pytest.approx(mmd, rel=1e-4)
    assert float(out.loss) == pytest.approx(ce + 0.5 * 4.0 * mmd, rel=1e-4)


def _cp(name, info, cf_lambda, **kw):
    cfg = method_config(name, **kw)
    cfg.cf, cfg.cf_lambda = "cp", cf_lambda
    method = get_method(cfg)
    method.setup(info)
    return method


def test_cov_cp_is_the_covariance_objective_on_the_originals_plus_the_pair_term():
    """The study's COV with CP: CE and the covariance on the originals alone, plus
    cf_lambda x mean over pairs and logits of (f(x) - f(x_cf))^2 (its cp term)."""
    params, _, batch, labels, groups = _aug_toy(seed=4)
    info = _info(labels, groups, 2, 2)
    out = _cp("cov", info, 2.5, lam=3.0, constraint="mistreatment").loss(
        toy_apply, params, {}, {}, batch, None)
    (lx, _), (lcf, _) = _views(params, batch)
    cp = np.mean((lx - lcf) ** 2)
    expected = _np_ce(lx, labels).mean() + 3.0 * _code_cov(lx, labels, groups) + 2.5 * cp
    assert cp > 1e-3 and float(out.loss) == pytest.approx(expected, rel=1e-5)
    assert float(out.metrics["cp"]) == pytest.approx(cp, rel=1e-5)


def test_rw_cp_is_the_weighted_originals_plus_the_pair_term_without_their_cross_entropy():
    """RW with CP as the paper's text combines them: RW's weighted CE on the originals plus the
    pair term. (The study's code also averages in the counterfactuals' plain CE, as RW+aug; the
    docstring of the modifier says we follow the text.)"""
    params, _, batch, labels, groups = _aug_toy(seed=5)
    info = _info(labels, groups, 2, 2)
    method = _cp("rw", info, 0.5)
    state = method.init_state(info)
    out = method.loss(toy_apply, params, {}, state, batch, None)
    (lx, _), (lcf, _) = _views(params, batch)
    w = np.asarray(state["weights"])[groups, labels]
    expected = np.mean(w * _np_ce(lx, labels)) + 0.5 * np.mean((lx - lcf) ** 2)
    assert float(out.loss) == pytest.approx(expected, rel=1e-5)
    with_cf_ce = (np.mean(w * _np_ce(lx, labels)) + np.mean(_np_ce(lcf, labels))) / 2
    assert abs(with_cf_ce + 0.5 * np.mean((lx - lcf) ** 2) - expected) > 1e-3


def test_lbc_aug_weights_each_row_by_its_cell_and_reads_the_augmented_violations():
    """lbc.py on an augmented batch: mean(weights * ce) over both views, each row weighted by
    its own cell (the counterfactuals' groups flipped), violations of the augmented set."""
    params, _, batch, labels, groups = _aug_toy(seed=3)
    info = _info(labels, groups, 2, 2)
    method = _aug("lbc", info, epochs_per_round=1, eta=2.0)
    lam = np.array([[0.3, -0.5], [1.0, 0.2]], np.float32)
    state = {"multipliers": jnp.asarray(lam), "violations": jnp.zeros((2, 2))}
    out = method.loss(toy_apply, params, {}, state, batch, None)
    (lx, _), (lcf, _) = _views(params, batch)
    w = 1 / (1 + np.exp(-lam))
    expected = np.concatenate([w[groups, labels] * _np_ce(lx, labels),
                               w[1 - groups, labels] * _np_ce(lcf, labels)]).mean()
    assert float(out.loss) == pytest.approx(expected, rel=1e-5)

    class _Ctx:  # the trainer's context: predictions of the training split's two views
        sources = {"train": _Source(labels, groups, 2, 2)}
        sources["train"].extras = {}

        @staticmethod
        def predict(state, split, image_key="image"):
            return np.eye(2)[labels if image_key == "image" else 1 - labels]

    class _State:
        method_state = state

        def replace(self, method_state):
            self.method_state = method_state
            return self

    new = method.on_epoch_start(_Ctx, _State(), 2).method_state
    both = constraint_violations(np.concatenate([labels, 1 - labels]),
                                 np.concatenate([labels, labels]),
                                 np.concatenate([groups, 1 - groups]), 2, 2, "eod")
    np.testing.assert_allclose(new["violations"], both, atol=1e-6)
    assert not np.allclose(both, constraint_violations(labels, labels, groups, 2, 2, "eod"))


# ----------------------------------------------------------------------------------------- cov


def test_cov_is_the_covariance_of_group_indicator_and_decision_score():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(50, 3)).astype(np.float32)
    groups = rng.integers(0, 4, 50)
    d = np.asarray(decision_scores(jnp.asarray(logits)))
    for c in range(3):  # one-vs-rest margins
        np.testing.assert_allclose(d[:, c], logits[:, c] - np.delete(logits, c, 1).max(1),
                                   rtol=1e-6)
    cov = np.asarray(group_covariance(jnp.asarray(d), jnp.asarray(groups), 4))
    for g in range(4):
        for c in range(3):
            expected = np.cov((groups == g).astype(float), d[:, c], bias=True)[0, 1]
            assert cov[g, c] == pytest.approx(expected, abs=1e-5)
    binary = jnp.asarray(logits[:, :2])
    np.testing.assert_allclose(decision_scores(binary)[:, 0], logits[:, 1] - logits[:, 0],
                               rtol=1e-6)
    with pytest.raises(UserError, match="method.constraint"):
        covariance_penalty(binary, jnp.zeros(50, int), jnp.asarray(groups), 4, "parity")
    with pytest.raises(UserError, match="method.constraint"):
        get_method(method_config("cov", constraint="parity"))


@pytest.mark.parametrize("constraint", ["impact", "mistreatment"])
def test_cov_penalty_descends_to_zero_covariance(constraint):
    """Gradient descent on CE + a large coef x penalty, on a linear model over features that
    carry the group, ends with a covariance near zero; plain CE keeps a large one."""
    rng = np.random.default_rng(0)
    n = 400
    groups = rng.integers(0, 3, n)
    labels = (rng.random(n) < np.array([0.2, 0.5, 0.8])[groups]).astype(int)
    x = np.concatenate([rng.normal(size=(n, 2)) + labels[:, None],
                        np.eye(3)[groups] * 2.0], 1).astype(np.float32)
    x, y, g = jnp.asarray(x), jnp.asarray(labels), jnp.asarray(groups)

    def fit(coef):
        tx = optax.adam(0.05)
        w = jnp.zeros((5, 2))

        def loss(w):
            logits = x @ w
            ce = -jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1).mean()
            return ce + coef * covariance_penalty(logits, y, g, 3, constraint)

        @jax.jit
        def step(w, opt_state):
            updates, opt_state = tx.update(jax.grad(loss)(w), opt_state)
            return optax.apply_updates(w, updates), opt_state

        opt_state = tx.init(w)
        for _ in range(500):
            w, opt_state = step(w, opt_state)
        return float(covariance_penalty(x @ w, y, g, 3, constraint))

    plain, fair = fit(0.0), fit(100.0)
    assert plain > 0.05 and fair < 0.1 * plain


# ----------------------------------------------------------------------------------------- lbc


def test_lbc_violations_by_hand():
    preds = np.array([1, 1, 0, 0, 1, 0])
    labels = np.array([1, 1, 0, 1, 1, 0])
    groups = np.array([0, 0, 0, 1, 1, 1])
    dp = constraint_violations(preds, labels, groups, 2, 2, "dp")
    # P(pred=1 | g=0) = 2/3, P(pred=1 | g=1) = 1/3, P(pred=1) = 1/2.
    np.testing.assert_allclose(dp, [[-1 / 6, 1 / 6], [1 / 6, -1 / 6]], atol=1e-12)
    eop = constraint_violations(preds, labels, groups, 2, 2, "eop")
    # TPR of class 1: group 0 2/2, group 1 1/2, all 3/4; class 0: group 0 1/1, group 1 1/1.
    np.testing.assert_allclose(eop, [[0, 1 / 4], [0, -1 / 4]], atol=1e-12)
    # eod corrects the negative class's rate too; binary eop only the positive class's.
    two = (np.array([1, 0]), np.array([0, 0]), np.array([0, 1]), 2, 2)
    np.testing.assert_allclose(constraint_violations(*two, "eod")[:, 0], [-0.5, 0.5])
    np.testing.assert_allclose(constraint_violations(*two, "eop")[:, 0], [0.0, 0.0])
    lam = update_multipliers(np.zeros((2, 2)), eop, 2.0)
    np.testing.assert_allclose(lam, [[0, -0.5], [0, 0.5]])
    w = np.asarray(cell_weights(jnp.asarray(lam)))
    assert w[1, 1] > w[0, 0] > w[0, 1]  # the group with too few positives gains weight
    # the study code's weights: torch.sigmoid(extended_multipliers), 0.5 at the start
    np.testing.assert_allclose(w, 1 / (1 + np.exp(-lam)), rtol=1e-6)
    lbc = method_config("lbc")
    assert (lbc.constraint, lbc.epochs_per_round) == ("eod", 5)  # its DCA violations; 5 epochs
    assert "mu" not in lbc  # the paper's "strength mu" row is CKD's
    with pytest.raises(UserError, match="method.constraint"):
        get_method(method_config("lbc", constraint="parity"))
    with pytest.raises(UserError, match="group 1 with class 0"):
        get_method(method_config("lbc")).setup(_info(np.array([1, 0, 1, 1]),
                                                     np.array([0, 0, 1, 1]), 2, 2))


def test_lbc_violations_for_more_classes_and_groups():
    rng = np.random.default_rng(3)
    labels, groups = _biased(600, num_classes=3, num_groups=4)
    preds = np.where(rng.random(600) < 0.7, labels, rng.integers(0, 3, 600))
    dp = constraint_violations(preds, labels, groups, 3, 4, "dp")
    eop = constraint_violations(preds, labels, groups, 3, 4, "eop")
    for g in range(4):
        for c in range(3):
            assert dp[g, c] == pytest.approx((preds[groups == g] == c).mean()
                                             - (preds == c).mean())
            own = labels == c
            assert eop[g, c] == pytest.approx((preds[own & (groups == g)] == c).mean()
                                              - (preds[own] == c).mean())
    # No single positive class: eop corrects every class, as eod does.
    np.testing.assert_array_equal(eop, constraint_violations(preds, labels, groups, 3, 4, "eod"))


@pytest.mark.parametrize("constraint", ["dp", "eop"])
def test_lbc_multipliers_close_the_violated_constraint(constraint):
    """Jiang and Nachum's loop on label-biased data: group 1's positives were partly relabelled
    negative, so a model fitted to the labels predicts group 1 positive too rarely. Each round
    moves the multipliers against the violations, and the violation shrinks."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    n = 4000
    groups = rng.integers(0, 2, n)
    x = rng.normal(size=(n, 2))
    true = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(int)
    flipped = (groups == 1) & (true == 1) & (rng.random(n) < 0.5)
    labels = np.where(flipped, 0, true)
    feats = np.concatenate([x, groups[:, None]], 1)
    lam = np.zeros((2, 2))
    weights = np.ones(n)
    history = []
    for _ in range(15):
        preds = LogisticRegression().fit(feats, labels, sample_weight=weights).predict(feats)
        violations = constraint_violations(preds, labels, groups, 2, 2, constraint)
        history.append(np.abs(violations).max())
        new = update_multipliers(lam, violations, eta=2.0)
        moved = new - lam
        # Every multiplier steps against its own violation.
        assert (np.sign(moved) == -np.sign(violations))[np.abs(violations) > 1e-9].all()
        lam = new
        weights = np.asarray(cell_weights(jnp.asarray(lam)))[groups, labels]
    first = constraint_violations(LogisticRegression().fit(feats, labels).predict(feats),
                                  labels, groups, 2, 2, constraint)
    assert first[1, 1] < -0.1  # group 1 predicted positive too rarely at the start
    assert lam[1, 1] > 0  # ... so its positives gained weight
    assert history[-1] < 0.35 * history[0]


@pytest.mark.slow
def test_lbc_hook_steps_the_multipliers_through_the_method_state():
    from nhfair_jax.training.loop import Run

    cfg = tiny_config(**{"train.epochs": 2})
    cfg.method = method_config("lbc", eta=3.0, constraint="dp", epochs_per_round=1)
    run = Run(cfg, None)
    state, _ = run.train_epoch(run.state, 1, False)
    before = jax.device_get(state.method_state)
    assert not np.asarray(before["multipliers"]).any()
    train = run.sources["train"]
    preds = run.evaluator.predict(state, "train").argmax(1)
    expected = constraint_violations(preds, train.labels, train.groups, 2, 2, "dp")
    after = jax.device_get(run.method.on_epoch_start(run.context, state, 2).method_state)
    np.testing.assert_allclose(after["multipliers"], -3.0 * expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(after["violations"], expected, rtol=1e-5, atol=1e-6)
    assert run.method.on_epoch_start(run.context, state, 1) is state  # no round before training
    every2 = get_method(method_config("lbc", epochs_per_round=2))
    assert every2.on_epoch_start(run.context, state, 2) is state


@pytest.mark.slow
def test_interrupted_lbc_resumes_with_its_multipliers(tmp_path, monkeypatch):
    """The multipliers live in the checkpointed method state: a run killed before epoch 3's
    round ends with the numbers of an uninterrupted one."""
    from nhfair_jax.methods.lbc import LBC

    cfg = tiny_config(**{"train.epochs": 3})
    cfg.method = method_config("lbc", eta=5.0, constraint="dp", epochs_per_round=1)
    reference = run(cfg, str(tmp_path / "whole"))
    resumed = interrupt_and_resume(cfg, tmp_path / "cut", monkeypatch, LBC, "on_epoch_start", 3)
    for split in ("val", "test"):
        for key in ("acc", "worst_acc", "dp", "eqodd", "loss"):
            assert resumed[split][key] == reference[split][key], (split, key)
    # every epoch's log line (the multipliers' violations among them) and the checkpoints
    assert_same_run(cfg, str(tmp_path / "cut"), str(tmp_path / "whole"))


# ----------------------------------------------------------------------------------------- mfd


def _np_mmd(student, teacher, labels, groups, num_classes, num_groups, sigma=1.0):
    """The definition, cell by cell (an independent loop implementation)."""
    d_ts = ((teacher[:, None] - student[None]) ** 2).sum(-1)
    s2 = d_ts.mean()

    def k(a, b):
        return np.exp(-((a[:, None] - b[None]) ** 2).sum(-1) / (2 * sigma * s2))

    total, cells = 0.0, 0
    for c in range(num_classes):
        t = teacher[labels == c]
        for g in range(num_groups):
            st = student[(labels == c) & (groups == g)]
            if len(st) == 0:
                continue
            total += k(t, t).mean() + k(st, st).mean() - 2 * k(t, st).mean()
            cells += 1
    return total, cells


@pytest.mark.slow
def test_mfd_mmd_is_the_per_class_group_mmd_toward_the_teacher():
    rng = np.random.default_rng(0)
    labels, groups = rng.integers(0, 3, 40), rng.integers(0, 4, 40)
    groups[labels == 2] = 1  # some cells empty
    student, teacher = rng.normal(size=(40, 5)), rng.normal(size=(40, 5)) + 0.5
    mmd, cells = fair_mmd(jnp.asarray(student), jnp.asarray(teacher), jnp.asarray(labels),
                          jnp.asarray(groups), 3, 4, sigma=2.0)
    expected, expected_cells = _np_mmd(student, teacher, labels, groups, 3, 4, sigma=2.0)
    assert float(mmd) == pytest.approx(expected, rel=1e-4) and int(cells) == expected_cells
    # One group whose features are the teacher's: nothing to align.
    same, _ = fair_mmd(jnp.asarray(teacher), jnp.asarray(teacher), jnp.asarray(labels),
                       jnp.zeros(40, int), 3, 1)
    assert abs(float(same)) < 1e-5


@pytest.mark.slow
def test_mfd_gradient_pulls_every_groups_features_to_the_teachers():
    """Student features as free parameters: group 1's features of each class start shifted;
    descending the MMD brings both groups' class means to the teacher's."""
    rng = np.random.default_rng(1)
    n = 120
    labels, groups = rng.integers(0, 2, n), rng.integers(0, 2, n)
    centres = np.array([[2.0, 0.0], [-2.0, 0.0]])
    teacher = centres[labels] + 0.3 * rng.normal(size=(n, 2))
    student = teacher + np.where(groups[:, None] == 1, [0.0, 3.0], [0.0, 0.0])
    args = (jnp.asarray(labels), jnp.asarray(groups), 2, 2)
    grad = jax.jit(jax.grad(lambda s: fair_mmd(s, jnp.asarray(teacher), *args)[0]))
    s = jnp.asarray(student)
    before = float(fair_mmd(s, jnp.asarray(teacher), *args)[0])
    for _ in range(300):
        s = s - 2.0 * grad(s)
    after = float(fair_mmd(s, jnp.asarray(teacher), *args)[0])
    s = np.asarray(s)
    gap = [np.abs(s[(labels == c) & (groups == 1)].mean(0)
                  - s[(labels == c) & (groups == 0)].mean(0)).max() for c in range(2)]
    assert after < 0.1 * before and max(gap) < 0.5  # the shift of 3 is gone


def test_mfd_teacher_of_another_data_set_is_refused_before_training(tmp_path):
    from nhfair_jax import rundir
    from nhfair_jax.dispatch import build_run

    teacher = tmp_path / "teacher"
    teacher.mkdir()
    other = tiny_config()
    other.data.name = "cifar10b"
    rundir.write_json(str(teacher / "config.json"), json.loads(other.to_json()))
    rundir.write_json(str(teacher / "result.json"), {})
    cfg = tiny_config()
    cfg.method = method_config("mfd", teacher_workdir=str(teacher), teacher_config="")
    with pytest.raises(UserError, match="teacher .* has data.name='cifar10b'"):
        build_run(cfg)
    with pytest.raises(UserError, match="method.sigma must be > 0"):
        get_method(method_config("mfd", sigma=0.0))


@pytest.mark.slow
def test_mfd_trains_from_a_teacher_run_and_shrinks_the_mmd(tmp_path):
    teacher_config = erm_config_file(tmp_path, epochs=1)

    def last_mmd(lam):
        cfg = tiny_config(**{"train.epochs": 2})
        cfg.method = method_config("mfd", lam=lam, teacher_config=teacher_config,
                                   teacher_workdir=str(tmp_path / "teacher"))
        result = run(cfg, str(tmp_path / f"mfd{lam}"))
        assert result["method"] == "mfd"
        assert_learned(tmp_path / f"mfd{lam}")
        log = [json.loads(line) for line in open(tmp_path / f"mfd{lam}" / "log.jsonl")]
        return log[-1]["train_mmd"]

    plain, fair = last_mmd(0.0), last_mmd(100.0)
    assert (tmp_path / "teacher" / "result.json").exists()  # trained first from its config
    assert fair < 0.5 * plain, (plain, fair)


# ---------------------------------------------------------------------------------- all five


def test_every_baseline_has_its_search_space_and_a_config():
    from tests.helpers import REPO

    assert set(search_space("cov")) >= {"optim.lr", "method.lam"}
    assert search_space("cov")["method.lam"].low == 1e-2
    lbc = search_space("lbc")
    assert (lbc["method.eta"].low, lbc["method.eta"].high) == (1e-1, 1e3)
    assert "method.mu" not in lbc
    assert search_space("mfd")["method.lam"].high == 1e6
    from nhfair_jax.config import load_config_file

    for name in (*BASELINES, "mfd"):
        assert load_config_file(f"{REPO}/configs/digitsb.py:{name}").method.name == name


@pytest.mark.slow
@pytest.mark.parametrize("name", BASELINES)
def test_every_baseline_trains_and_writes_a_run_directory(name, tmp_path):
    # 6 epochs (132 steps); SS trains on the smallest group x class cell times four (about 290
    # of 1,437 images at skew 0.8, 4 steps an epoch), so 20 epochs give it 80 steps
    cfg = tiny_config(**{"train.epochs": 20 if name == "ss" else 6})
    cfg.method = method_config(name, **({"epochs_per_round": 2} if name == "lbc" else {}))
    result = run(cfg, str(tmp_path))
    assert result["method"] == name
    if name != "cov":  # its defining effect below: at lam 1 it trades the label for parity
        assert_learned(tmp_path)
    log = [json.loads(line) for line in open(tmp_path / "log.jsonl")]
    assert len(log) == cfg.train.epochs and log[-1]["train_loss"] < log[0]["train_loss"]
    if name == "lbc":  # the round after epochs 1-2 ran at the start of epoch 3
        assert log[1]["train_max_violation"] == 0 and log[2]["train_max_violation"] > 0


@pytest.mark.slow
def test_cov_large_coef_drives_the_validation_covariance_toward_zero(tmp_path):
    def val_covariance(coef):
        cfg = tiny_config(**{"train.epochs": 2})
        cfg.method = method_config("cov", lam=coef)
        run(cfg, str(tmp_path / str(coef)))
        pred = np.load(tmp_path / str(coef) / "predictions_val.npz")
        return float(covariance_penalty(jnp.asarray(pred["logits"]), jnp.asarray(pred["label"]),
                                        jnp.asarray(pred["group"]), 2))

    plain, fair = val_covariance(0.0), val_covariance(100.0)
    assert fair < 0.25 * plain, (plain, fair)


@pytest.mark.slow
@pytest.mark.parametrize("name, cf", [("ss", "cp"), ("rw", "aug"), ("cov", "cp"),
                                      ("lbc", "aug")])
def test_the_baselines_compose_with_the_counterfactual_modifiers(name, cf, tmp_path):
    """RW+aug, SS+CP, ... are one config field (method.cf), as the counterfactual study's
    Table 3 pairs them; the run records CD on the DigitsB pairs."""
    cfg = tiny_config(**{"train.epochs": 1})
    cfg.method = method_config(name)
    cfg.method.cf, cfg.method.cf_lambda = cf, 10.0
    result = run(cfg, str(tmp_path))
    pred = np.load(tmp_path / "predictions_val.npz")  # CD: the flip rate over the pairs
    flips = pred["logits"].argmax(1) != pred["logits_cf"].argmax(1)
    assert result["method"] == name and result["val"]["cd"] == pytest.approx(flips.mean())
    log = json.loads(open(tmp_path / "log.jsonl").readline())
    assert "val_cd" in log
    assert ("train_cp" in log) == (cf == "cp")  # the pair term ran inside the baseline's loss


def test_ss_with_aug_subsamples_the_augmented_set():
    """Issue 49: SS+aug balances the cells of the augmented set (each row with its
    counterfactual, A flipped, puts one example in each group of its class): every class keeps
    as many pairs as the smallest class, so every group x class cell of the augmented
    subsample holds that many; plain SS cuts the original cells instead."""
    labels, groups = _biased()
    src = _Source(labels, groups, 2, 2)
    plain = get_method(method_config("ss"))
    def with_aug(**kw):
        c = method_config("ss", **kw)
        c.cf = "aug"
        return get_method(c)

    aug = with_aug()
    rows = aug.sample_indices(src, 5, 1, None)
    size = np.bincount(labels).min()
    assert np.array_equal(np.bincount(labels[rows], minlength=2), [size, size])
    aug_groups = np.concatenate([groups[rows], 1 - groups[rows]])
    aug_labels = np.concatenate([labels[rows], labels[rows]])
    assert (np.bincount(aug_groups * 2 + aug_labels, minlength=4) == size).all()
    assert len(plain.sample_indices(src, 5, 1, None)) < len(rows)
    assert len(with_aug(mode="group").sample_indices(src, 5, 1, None)) == len(labels)
