"""GroupDRO: group weights move toward the worst group; the btl variant's alpha matters."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.methods import get_method
from nhfair_jax.methods.groupdro import exponentiated_gradient, worst_fraction_weights
from nhfair_jax.dispatch import run
from tests.helpers import tiny_config


def _fixed_logits_model(logits):
    def apply_fn(variables, x, train=False, features=False, mutable=None):
        del variables, x, features
        return (logits, {"batch_stats": {}}) if train and mutable else logits

    return apply_fn


def _batch():
    labels = jnp.array([0, 1, 0, 1])
    groups = jnp.array([0, 0, 1, 1])
    # Group 1 is misclassified, group 0 right.
    logits = jnp.array([[3., 0.], [0., 3.], [0., 3.], [3., 0.]])
    return {"image": jnp.zeros((4, 2, 2, 3)), "label": labels, "group": groups}, logits


def _info(**kw):
    return {"num_classes": 2, "num_groups": 2, "labels": np.array([0, 1, 0, 1] * 5),
            "groups": np.array([0, 0, 1, 1] * 5), **kw}


def test_weights_move_toward_the_worst_group():
    batch, logits = _batch()
    method = get_method(method_config("groupdro", step_size=0.5))
    state = method.init_state(_info())
    apply_fn = _fixed_logits_model(logits)
    for _ in range(5):
        out = method.loss(apply_fn, {}, {}, state, batch, None)
        state = out.method_state
    q = np.asarray(state["q"])
    assert q[1] > 0.8 and q.sum() == pytest.approx(1.0)
    # The robust loss weights the bad group's loss by q.
    assert float(out.loss) > 0.8 * float(out.metrics["worst_group_loss"])


def test_exponentiated_gradient_and_the_generalisation_adjustment():
    q = exponentiated_gradient(jnp.array([.5, .5]), jnp.array([1.0, 0.0]),
                               jnp.array([True, True]), 1.0)
    np.testing.assert_allclose(q, [np.e / (np.e + 1), 1 / (np.e + 1)], rtol=1e-6)
    absent = exponentiated_gradient(jnp.array([.5, .5]), jnp.array([9.0, 0.0]),
                                    jnp.array([False, True]), 1.0)
    np.testing.assert_allclose(absent, [.5, .5], rtol=1e-6)  # no loss seen, no move
    method = get_method(method_config("groupdro", adjustment=2.0))
    adjust = np.asarray(method.init_state(_info(groups=np.array([0] * 16 + [1] * 4)))["adjust"])
    np.testing.assert_allclose(adjust, [2 / 4, 2 / 2], rtol=1e-6)  # C / sqrt(n_g)


def test_worst_fraction_weights_keep_the_worst_groups_holding_alpha_of_the_data():
    loss = jnp.array([0.1, 0.9, 0.5])
    frac = jnp.array([0.5, 0.2, 0.3])
    np.testing.assert_allclose(worst_fraction_weights(loss, frac, 0.2), [0, 1, 0], atol=1e-6)
    # alpha 0.35: all of group 1 (0.2) and 0.15 of group 2.
    np.testing.assert_allclose(worst_fraction_weights(loss, frac, 0.35), [0, .2 / .35, .15 / .35],
                               rtol=1e-6)
    np.testing.assert_allclose(worst_fraction_weights(loss, frac, 1.0), frac, rtol=1e-6)


def _logits_after_training(tmp_path, **kw):
    cfg = tiny_config(**{"train.epochs": 1})
    cfg.method = method_config("groupdro", **kw)
    run(cfg, str(tmp_path))
    return np.load(tmp_path / "predictions_test.npz")["logits"]


@pytest.mark.slow
def test_alpha_changes_the_model_in_the_btl_variant_only(tmp_path):
    btl_a = _logits_after_training(tmp_path / "a", variant="btl", alpha=0.1)
    btl_b = _logits_after_training(tmp_path / "b", variant="btl", alpha=0.9)
    assert not np.allclose(btl_a, btl_b)
    std_a = _logits_after_training(tmp_path / "c", variant="standard", alpha=0.1)
    std_b = _logits_after_training(tmp_path / "d", variant="standard", alpha=0.9)
    np.testing.assert_array_equal(std_a, std_b)


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="method.alpha must be in"):
        get_method(method_config("groupdro", alpha=0.0))
    with pytest.raises(ValueError, match="method.variant"):
        get_method(method_config("groupdro", variant="greedy"))


@pytest.mark.parametrize("grouping", ["group", "group_x_class"])
def test_batches_come_from_a_group_balanced_sampler_unless_turned_off(grouping):
    class Source:
        rng = np.random.default_rng(0)
        labels = rng.integers(0, 2, 1000)
        groups = (rng.random(1000) < np.where(labels == 1, 0.9, 0.3)).astype(int)  # imbalanced
        num_classes = 2

        def __len__(self):
            return 1000

    train = Source()
    method = get_method(method_config("groupdro", groups=grouping))
    rows = method.sample_indices(train, 0, 1, None)
    cell = train.groups if grouping == "group" else train.groups * 2 + train.labels
    natural = np.bincount(cell) / len(cell)
    drawn = np.bincount(cell[rows], minlength=len(natural)) / len(rows)
    k = len(natural)
    assert natural.min() < 0.8 / k  # DigitsB is imbalanced in these cells
    np.testing.assert_allclose(drawn, np.full(k, 1 / k), atol=0.05)
    off = get_method(method_config("groupdro", balanced_sampling=False))
    assert off.sample_indices(train, 0, 1, None) is None


def test_the_sweep_searches_both_variants_each_with_only_what_it_reads():
    import optuna

    from nhfair_jax.methods import suggest

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=0))
    drawn = [suggest(study.ask(), "groupdro") for _ in range(40)]
    by_variant = {v: [d for d in drawn if d["method.variant"] == v] for v in ("standard", "btl")}
    assert all(by_variant.values())
    for d in by_variant["standard"]:
        assert "method.step_size" in d and "method.alpha" not in d and "method.gamma" not in d
    for d in by_variant["btl"]:
        assert "method.alpha" in d and "method.gamma" in d and "method.step_size" not in d
    for d in drawn:
        assert "method.adjustment" in d
