"""LAFTR: the adversary's loss, and the min-max removing the group from the representation."""

from __future__ import annotations

import json

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.methods.base import epoch_scalars
from nhfair_jax.dispatch import run
from nhfair_jax.methods import get_method
from nhfair_jax.methods.laftr import adversary_loss
from nhfair_jax.training.state import init_state
from nhfair_jax.training.step import make_mesh, make_train_step
from tests.helpers import assert_learned, tiny_config


def test_adversary_loss_is_group_normalised_and_chance_is_one_minus_one_over_g():
    groups = jnp.array([0, 0, 0, 1, 2])
    uniform = jnp.zeros((5, 3))
    assert float(adversary_loss(uniform, groups, groups, 3)) == pytest.approx(2 / 3, abs=1e-6)
    # Right on every example of group 0 (3 rows), wrong on groups 1 and 2 (one row each):
    # per-group losses 0, 1, 1, so the group-normalised mean is 2/3, not the row mean 2/5.
    sure = jnp.full((5, 3), -30.0).at[jnp.arange(5), jnp.array([0, 0, 0, 0, 0])].set(30.0)
    assert float(adversary_loss(sure, groups, groups, 3)) == pytest.approx(2 / 3, abs=1e-6)


def test_unknown_variant_and_adversary_steps_are_errors():
    with pytest.raises(ValueError, match="method.variant"):
        get_method(method_config("laftr", variant="eop"))
    with pytest.raises(ValueError, match="method.adv_steps"):
        get_method(method_config("laftr", adv_steps=0))


class _MLP(nn.Module):
    """The backbone interface (features=True returns (logits, features)) on vectors."""

    @nn.compact
    def __call__(self, x, train=False, features=False):
        h = nn.relu(nn.Dense(16)(nn.relu(nn.Dense(32)(x))))
        logits = nn.Dense(2)(h)
        return (logits, h) if features else logits


def _data(n, rng):
    """The label and the group each drive three noisy features; they are independent, so a
    representation can forget the group and keep the label."""
    y, g = rng.integers(0, 2, n), rng.integers(0, 2, n)
    x = np.concatenate([(2 * y - 1)[:, None] + rng.normal(0, 1.0, (n, 3)),
                        (2 * g - 1)[:, None] + rng.normal(0, 0.5, (n, 3)),
                        rng.normal(0, 1, (n, 4))], 1).astype(np.float32)
    return x, y.astype(np.int32), g.astype(np.int32)


def _train_and_probe(fair_coef, steps=1500, seed=0):
    """Trains through the real jitted step; then a FRESH probe, fitted on the frozen
    representation of held-out data, predicts the group (cross-validated accuracy)."""
    from sklearn.model_selection import cross_val_score
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(seed)
    x, y, g = _data(4000, rng)
    method = get_method(method_config("laftr", fair_coef=fair_coef, adv_steps=20))
    model, tx = _MLP(), optax.adam(1e-3)
    state = init_state(model, tx, method, image_shape=(10,), init_key=jax.random.key(seed),
                       train_key=jax.random.key(seed + 1),
                       info={"num_classes": 2, "num_groups": 2, "num_train": len(x)})
    step = make_train_step(method, model.apply, tx, make_mesh(), num_groups=2, num_classes=2)
    for _ in range(steps):
        rows = rng.integers(0, len(x), 128)
        state, logged = step(state, {"image": jnp.asarray(x[rows]), "label": jnp.asarray(y[rows]),
                                     "group": jnp.asarray(g[rows])})
    x_test, y_test, g_test = _data(2000, rng)
    logits, z = model.apply({"params": state.params}, jnp.asarray(x_test), features=True)
    z = np.asarray(z)
    z = (z - z.mean(0)) / (z.std(0) + 1e-8)
    probe = cross_val_score(LogisticRegression(max_iter=1000), z, g_test,
                            cv=3).mean()
    acc = float((np.asarray(logits).argmax(1) == y_test).mean())
    summary = epoch_scalars(jax.device_get(logged), 1)  # the last batch's totals
    return acc, float(probe), summary["adv_balanced_acc"]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_the_group_becomes_unreadable_from_the_representation_as_fair_coef_grows():
    plain_acc, plain_probe, plain_adv = _train_and_probe(0.0)
    fair_acc, fair_probe, fair_adv = _train_and_probe(1.0)
    assert plain_probe > 0.9 and plain_adv > 0.85  # without the game the group is readable
    # The training adversary (the code's: linear) is beaten, to near chance (0.5) ...
    assert fair_adv < 0.65
    # ... and a fresh linear probe of the frozen representation reads the group clearly less
    # well: its accuracy falls by more than what refitting noise moves (a few points on 2000
    # rows), though not to chance, since a probe refitted after training is not the adversary
    # the encoder played against.
    assert fair_probe < plain_probe - 0.05
    assert fair_acc > plain_acc - 0.02  # the label survives: the two are independent here


@pytest.mark.slow
def test_laftr_eqodd_trains_on_digitsb_and_logs_the_game(tmp_path):
    """The eqodd variant (label fed to the adversary, loss normalised per group x label) on
    images; the dp variant runs in the test above."""
    cfg = tiny_config(**{"train.epochs": 1})
    cfg.method = method_config("laftr", variant="eqodd", adv_steps=2)
    result = run(cfg, str(tmp_path / "run"))
    assert result["method"] == "laftr"
    assert_learned(tmp_path / "run")
    logged = json.loads(open(tmp_path / "run" / "log.jsonl").readline())
    assert {"train_ce", "train_adv_loss", "train_adv_balanced_acc"} <= set(logged)
    assert np.isfinite(logged["train_adv_loss"]) and logged["train_adv_loss"] > 0


def test_eqodd_feeds_the_label_and_weighs_every_group_label_cell_equally():
    from nhfair_jax.methods.laftr import adversary_loss

    dp = get_method(method_config("laftr", variant="dp"))
    eqodd = get_method(method_config("laftr", variant="eqodd"))
    for m in (dp, eqodd):
        m.setup({"num_classes": 2, "num_groups": 2, "feature_dim": 3})
    batch = {"label": jnp.array([0, 0, 0, 1, 1, 0]), "group": jnp.array([0, 0, 0, 0, 1, 1])}
    feats = jax.random.normal(jax.random.key(0), (6, 3))
    assert dp.adversary_input(feats, batch["label"]).shape == (6, 3)
    z = eqodd.adversary_input(feats, batch["label"])
    np.testing.assert_array_equal(z[:, 3:], jax.nn.one_hot(batch["label"], 2))
    # 1 - p(true group) per row; cells of eqodd: (0,0) rows 0-2, (0,1) row 3, (1,1) row 4,
    # (1,0) row 5; dp's: group 0 rows 0-3, group 1 rows 4-5.
    logits = jnp.log(jnp.array([[.9, .1], [.9, .1], [.9, .1], [.1, .9], [.5, .5], [.3, .7]]))
    miss = np.array([.1, .1, .1, .9, .5, .3])
    cells, k = eqodd._cells(batch)
    np.testing.assert_allclose(adversary_loss(logits, batch["group"], cells, k),
                               np.mean([miss[:3].mean(), miss[3], miss[4], miss[5]]), rtol=1e-5)
    cells, k = dp._cells(batch)
    np.testing.assert_allclose(adversary_loss(logits, batch["group"], cells, k),
                               np.mean([miss[:4].mean(), miss[4:].mean()]), rtol=1e-5)


def test_adversary_width_and_searched_variants_are_the_codes():
    """The code: LAFTRModel(backbone, adversary_size=128) with Linear layers applied in turn (no
    activation), its sweep's model_var over laftr-dp, laftr-eqodd, laftr-eqopp1."""
    from nhfair_jax.methods import spec

    method = get_method(method_config("laftr"))
    method.setup({"num_classes": 2, "num_groups": 2, "feature_dim": 6})
    params = method.adversary.init(jax.random.key(0), jnp.zeros((1, 6)))["params"]
    w0, w1 = params["hidden"], params["out"]
    assert (w0["kernel"].shape, w1["kernel"].shape) == ((6, 128), (128, 2))
    z = jax.random.normal(jax.random.key(1), (5, 6))
    linear = (z @ w0["kernel"] + w0["bias"]) @ w1["kernel"] + w1["bias"]
    np.testing.assert_allclose(method.adversary.apply({"params": params}, z), linear,
                               rtol=1e-5, atol=1e-6)
    assert spec("laftr").space["method.variant"].options == ("dp", "eqodd", "eqopp")


def test_eqopp_counts_only_the_positive_labels_cells():
    """laftr-eqopp1: the adversary loss weighs the (group, Y = 1) cells only."""
    method = get_method(method_config("laftr", variant="eqopp"))
    method.setup({"num_classes": 2, "num_groups": 2, "feature_dim": 3})
    batch = {"group": jnp.array([0, 1, 0, 1]), "label": jnp.array([1, 1, 0, 0])}
    cells, num_cells = method._cells(batch)
    assert num_cells == 2 and cells.tolist() == [0, 1, 2, 2]  # 2: no cell
    from nhfair_jax.methods.laftr import cell_means

    assert float(cell_means(jnp.array([0.2, 0.4, 9.0, 9.0]), cells, num_cells)) == \
        pytest.approx(0.3)
    with pytest.raises(ValueError, match="binary target"):
        get_method(method_config("laftr", variant="eqopp")).setup(
            {"num_classes": 3, "num_groups": 2, "feature_dim": 3})


def test_epoch_scalars_average_scalars_and_derive_cell_ratios_once():
    """The adversary's balanced accuracy comes from per-cell totals of the whole epoch (not an
    average of per-batch ratios); a cell never seen is left out, none seen at all is NaN."""
    totals = {"ce": np.float32(3.0), "adv_balanced_acc:num": np.array([9.0, 1.0, 0.0]),
              "adv_balanced_acc:den": np.array([10.0, 4.0, 0.0])}
    out = epoch_scalars(totals, 2)
    assert out == {"ce": 1.5, "adv_balanced_acc": (0.9 + 0.25) / 2}
    empty = epoch_scalars({"x:num": np.zeros(2), "x:den": np.zeros(2)}, 1)
    assert np.isnan(empty["x"])

