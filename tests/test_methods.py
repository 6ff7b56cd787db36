"""The method registry and each method's defining effect on small data."""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.data import get_sources
from nhfair_jax.dispatch import run
from nhfair_jax.methods import get_method, registered
from nhfair_jax.methods.bias_mimicking import final_head_weights, mimic_masks
from nhfair_jax.methods.decoupled import group_head_logits
from nhfair_jax.methods.mixup import mixup_partners
from nhfair_jax.methods.resampling import balanced_weights
from tests.helpers import REPO, assert_same_run, interrupt_and_resume, tiny_config

SHIPPED = ("erm", "randaug", "mixup", "resampling", "bias_mimicking", "fis", "decoupled",
           "gapreg", "mcdp", "groupdro", "dfr", "laftr", "fscl", "oxonfair")
# post-fit methods: tests/test_dfr.py, tests/test_oxonfair.py
TRAINED = tuple(m for m in SHIPPED if m not in ("dfr", "oxonfair"))


@pytest.fixture(scope="module")
def digits():
    return get_sources("digitsb", None)


def test_unknown_method_lists_the_registered_ones():
    with pytest.raises(ValueError, match="unknown method 'nope'; known: .*decoupled.*erm"):
        method_config("nope")
    with pytest.raises(ValueError, match="has no hyperparameters \\['colour'\\]"):
        method_config("mixup", colour=1)


def test_a_method_config_without_its_hyperparameters_is_refused():
    import ml_collections

    with pytest.raises(ValueError, match="config.method lacks \\['alpha', 'coef'\\]"):
        get_method(ml_collections.ConfigDict({"name": "mixup"}))


def test_every_shipped_method_runs_from_the_digitsb_config():
    from nhfair_jax.config import load_config_file

    assert set(SHIPPED) <= set(registered())
    for name in SHIPPED:
        config = load_config_file(os.path.join(REPO, "configs", f"digitsb.py:{name}"))
        assert config.method.name == name and config.data.name == "digitsb"
        get_method(config.method)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["group", "group_x_class"])
def test_resampling_draws_cells_in_balance(digits, mode):
    train = digits["train"]
    method = get_method(method_config("resampling", mode=mode))
    rows = method.sample_indices(train, seed=0, epoch=1, method_state={})
    assert len(rows) == len(train)
    cell = train.groups[rows] if mode == "group" else train.groups[rows] * 2 + train.labels[rows]
    share = np.bincount(cell) / len(rows)
    cells = 2 if mode == "group" else 4
    np.testing.assert_allclose(share, 1 / cells, atol=0.04)
    # The data itself is far from balanced (skew 0.8), so this is the sampler's doing.
    raw = np.bincount(train.groups * 2 + train.labels) / len(train)
    assert raw.max() > 0.35
    again = method.sample_indices(train, seed=0, epoch=1, method_state={})
    assert np.array_equal(rows, again)


def test_balanced_weights_are_inverse_cell_counts():
    labels, groups = np.array([0, 0, 0, 1]), np.array([0, 0, 1, 1])
    np.testing.assert_allclose(balanced_weights(labels, groups, 2, "group"), [.25, .25, .25, .25])
    np.testing.assert_allclose(balanced_weights(labels, groups, 2, "group_x_class"),
                               [1 / 6, 1 / 6, 1 / 3, 1 / 3])


@pytest.mark.slow
def test_mixup_partners_share_the_label_and_differ_in_group_or_are_the_example_itself():
    """The code's draw: multinomial over {same label, other group} plus the example itself."""
    labels = jnp.array([0, 0, 0, 1, 1, 1, 2])
    groups = jnp.array([0, 1, 2, 0, 0, 1, 0])
    drawn = []
    for seed in range(300):
        partner, has = mixup_partners(labels, groups, jax.random.key(seed))
        partner, has = np.asarray(partner), np.asarray(has)
        assert has.tolist() == [True] * 6 + [False]  # class 2 has one group only
        assert (labels[partner] == labels).all()
        other = partner != np.arange(7)
        assert (np.asarray(groups)[partner[other]] != np.asarray(groups)[other]).all()
        assert partner[6] == 6  # no valid partner: itself
        drawn.append(int(partner[0]))
    counts = np.bincount(drawn, minlength=3)
    assert (counts > 60).all()  # example 0: itself, 1 or 2, each about a third


@pytest.mark.slow
def test_mixup_loss_is_the_codes_on_the_mixed_batch_with_one_lambda():
    """The code: CE(f(mix), y) + coef * (lam CE(f(mix), y) + (1 - lam) CE(f(mix), y_b)), one
    lam per batch; with same-label partners (1 + coef) x CE of the mix, and no term on the
    unmixed images."""
    import optax

    method = get_method(method_config("mixup", coef=3.0, alpha=1.0))
    w = jax.random.normal(jax.random.key(1), (12, 2))
    apply_fn = lambda v, x, train, features=False, mutable=(): (  # noqa: E731
        (x.reshape(x.shape[0], -1) @ v["params"]["w"], {"batch_stats": {}}) if train
        else x.reshape(x.shape[0], -1) @ v["params"]["w"])
    batch = {"image": jax.random.normal(jax.random.key(2), (8, 2, 2, 3)),
             "label": jnp.array([0, 1, 0, 1, 0, 1, 0, 1]),
             "group": jnp.array([0, 0, 1, 1, 0, 0, 1, 1])}
    rng = jax.random.key(3)
    out = method.loss(apply_fn, {"w": w}, {}, {}, batch, rng)
    k_partner, k_lam = jax.random.split(rng)
    partner, _ = mixup_partners(batch["label"], batch["group"], k_partner)
    lam = float(jax.random.beta(k_lam, 1.0, 1.0))
    mixed = lam * batch["image"] + (1 - lam) * batch["image"][partner]
    logits = mixed.reshape(8, -1) @ w
    ce = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"]).mean()
    assert float(out.loss) == pytest.approx(4.0 * float(ce), rel=1e-5)
    np.testing.assert_allclose(out.logits, logits, rtol=1e-5)


def test_decoupled_logits_change_when_the_groups_are_permuted():
    feats = jax.random.normal(jax.random.key(0), (6, 3))
    heads = {"kernel": jax.random.normal(jax.random.key(1), (2, 3, 2)),
             "bias": jnp.zeros((2, 2))}
    groups = jnp.array([0, 1, 0, 1, 1, 0])
    logits = group_head_logits(heads, feats, groups)
    swapped = group_head_logits(heads, feats, 1 - groups)
    assert not np.allclose(logits, swapped)  # the head follows the group
    # ... and equals a shared linear head's output with the other group's weights
    np.testing.assert_allclose(swapped[0], feats[0] @ heads["kernel"][1], rtol=1e-5)


def test_decoupled_routes_each_example_to_its_groups_head():
    feats = jnp.ones((4, 3))
    heads = {"kernel": jnp.zeros((3, 3, 2)),
             "bias": jnp.array([[5.0, 0.0], [0.0, 5.0], [5.0, 0.0]])}
    groups = jnp.array([0, 1, 2, 1])
    logits = group_head_logits(heads, feats, groups)
    np.testing.assert_array_equal(np.argmax(logits, -1), [0, 1, 0, 1])
    # Only the heads of groups present receive gradient.
    grad = jax.grad(lambda h: group_head_logits(h, feats, jnp.array([1, 1, 1, 1])).sum())(heads)
    assert float(jnp.abs(grad["kernel"][0]).sum()) == 0.0
    assert float(jnp.abs(grad["kernel"][1]).sum()) > 0.0


@pytest.mark.slow
@pytest.mark.parametrize("name", TRAINED)
def test_every_method_trains_and_writes_a_run_directory(name, tmp_path):
    cfg = tiny_config(**{"train.epochs": 3, "train.patience": 5})
    # FIS: a round every epoch from the first (the pool shrinks each epoch, which must not
    # recompile anything); MCDP and GapReg: their default coefficient 1 holds a short run near
    # the class prior (the tiny set's groups predict its labels), so a lighter one shows that
    # they learn at all; FSCL: one contrastive epoch, then
    # two of its head on cached features (the second must not recompile either).
    overrides = {"fis": {"warmup_epochs": 0}, "mcdp": {"coef": 0.1}, "gapreg": {"coef": 0.1},
                 "fscl": {"contrastive_fraction": 0.34}}.get(name, {})
    cfg.method = method_config(name, **overrides)
    result = run(cfg, str(tmp_path))
    assert result["method"] == name
    log = [json.loads(line) for line in open(tmp_path / "log.jsonl")]
    assert np.isfinite(log[0]["train_loss"])
    # No compilation after the first epoch, except in the first epoch of a new phase (a
    # method's second phase compiles its own step once).
    from nhfair_jax.methods.phases import phase_of

    variants = [phase_of(get_method(cfg.method), e, 3).name for e in (1, 2, 3)]
    for epoch, entry in enumerate(log[1:], start=2):
        if variants[epoch - 1] not in variants[:epoch - 1]:
            continue
        assert entry["compiles"] == 0, (name, epoch, entry["compiled"])
    test = np.load(tmp_path / "predictions_test.npz")
    acc = float((test["logits"].argmax(1) == test["label"]).mean())
    assert acc == pytest.approx(result["test"]["acc"])  # the file backs the reported number
    majority = np.bincount(test["label"]).max() / len(test["label"])
    assert acc > majority + 0.05, (name, acc, majority)  # it learned more than the prior


@pytest.mark.slow
def test_decoupled_run_predicts_with_the_group(tmp_path):
    cfg = tiny_config(**{"train.epochs": 1})
    cfg.method = method_config("decoupled")
    run(cfg, str(tmp_path))
    pred = np.load(tmp_path / "predictions_test.npz")
    assert pred["logits"].shape[1] == 2


@pytest.mark.parametrize("num_classes, num_groups", [(2, 2), (3, 3)])
def test_bias_mimicking_matches_each_class_group_distribution(num_classes, num_groups):
    rng = np.random.default_rng(0)
    labels = rng.integers(0, num_classes, 3000)
    # A strong, class-dependent bias in the group.
    groups = (labels + (rng.random(3000) < 0.3) * rng.integers(1, num_groups, 3000)) % num_groups
    masks = mimic_masks(labels, groups, num_classes, num_groups, np.random.default_rng(1))
    for c in range(num_classes):
        assert masks[c, labels == c].all()  # the class itself is kept whole
        own = np.bincount(groups[labels == c], minlength=num_groups) / (labels == c).sum()
        for other in range(num_classes):
            kept = (labels == other) & (masks[c] == 1)
            share = np.bincount(groups[kept], minlength=num_groups) / kept.sum()
            np.testing.assert_allclose(share, own, atol=0.01)
            # The largest such subset: some group of the other class is used up (up to the
            # rounding of one example).
            have = np.bincount(groups[labels == other], minlength=num_groups)
            used = np.bincount(groups[kept], minlength=num_groups)
            assert ((have - used <= 1) & (own > 0)).any()


def test_bias_mimicking_final_head_modes():
    labels = np.array([0, 0, 0, 1, 1, 0])
    groups = np.array([0, 0, 1, 1, 1, 1])  # cells (g, y): (0,0) x2, (1,0) x2, (1,1) x2
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(final_head_weights(labels, groups, 2, 2, "none", rng), 1)
    labels2 = np.array([0, 0, 0, 0, 1, 1])
    groups2 = np.array([0, 0, 0, 1, 1, 1])  # cells: 3, 1, 2
    os_w = final_head_weights(labels2, groups2, 2, 2, "os", rng)
    np.testing.assert_allclose(os_w, [1, 1, 1, 3, 1.5, 1.5])
    uw = final_head_weights(labels2, groups2, 2, 2, "uw", rng)
    assert uw[3] == pytest.approx(3 * uw[0]) and uw.sum() == pytest.approx(6)
    us = final_head_weights(labels2, groups2, 2, 2, "us", rng)
    assert us.sum() == 3 and us[3] == 1  # one per cell: the smallest cell's size
    with pytest.raises(ValueError, match="method.mode"):
        final_head_weights(labels2, groups2, 2, 2, "xx", rng)


@pytest.mark.slow
def test_bias_mimicking_evaluates_with_its_saved_final_head(tmp_path):
    cfg = tiny_config(**{"train.epochs": 1})
    cfg.method = method_config("bias_mimicking", mode="uw")
    run_result = run(cfg, str(tmp_path))
    from nhfair_jax.training.checkpoint import Checkpoints
    from nhfair_jax.training.loop import Run

    trainer = Run(cfg, None)
    ckpt = Checkpoints(str(tmp_path))
    best, _ = ckpt.restore_best(trainer.state)
    ckpt.close()
    assert set(best.params) == {"model", "mimic_heads", "head"}
    logits = trainer.evaluator.predict(best, "test")
    feats_head = np.load(tmp_path / "predictions_test.npz")["logits"]
    np.testing.assert_allclose(logits, feats_head, rtol=1e-5, atol=1e-5)
    # Zeroing the saved final head changes the predictions: it is the evaluation head.
    zeroed = best.replace(params={**best.params, "head": jax.tree.map(jnp.zeros_like,
                                                                      best.params["head"])})
    assert not np.allclose(trainer.evaluator.predict(zeroed, "test"), logits)
    assert run_result["method"] == "bias_mimicking"


@pytest.mark.parametrize("name, overrides", [("fis", {"warmup_epochs": 1}),
                                             ("bias_mimicking", {"mode": "us"}),
                                             # epochs 2-3 train the head on cached features:
                                             # the resumed epoch 3 computes them again
                                             ("fscl", {"contrastive_fraction": 0.34})])
@pytest.mark.slow
def test_interrupted_stateful_methods_resume_to_the_same_numbers(name, overrides, tmp_path,
                                                                  monkeypatch):
    from nhfair_jax.methods.registry import method_class

    cfg = tiny_config(**{"train.epochs": 3})
    cfg.method = method_config(name, **overrides)
    reference = run(cfg, str(tmp_path / "whole"))

    resumed = interrupt_and_resume(cfg, tmp_path / "cut", monkeypatch, method_class(name),
                                   "on_epoch_start", 3)
    assert_same_run(cfg, tmp_path / "cut", tmp_path / "whole")  # every epoch, every parameter
    for split in ("val", "test"):
        for key in ("acc", "worst_acc", "dp", "eqodd", "loss"):
            assert resumed[split][key] == reference[split][key], (name, split, key)
    if name == "fis":
        assert (json.load(open(tmp_path / "cut" / "fis_selection.json"))
                == json.load(open(tmp_path / "whole" / "fis_selection.json")))


def test_bias_mimicking_final_head_reads_normalised_features():
    method = get_method(method_config("bias_mimicking"))
    feats = jax.random.normal(jax.random.key(0), (4, 6))
    head = {"kernel": jax.random.normal(jax.random.key(1), (6, 2)), "bias": jnp.zeros(2)}
    apply_fn = lambda variables, x, train, features: (None, x)  # the "features" are the input
    params = {"model": {}, "head": head}
    scaled = method.predict(apply_fn, params, {}, {"image": 7.0 * feats})
    np.testing.assert_allclose(method.predict(apply_fn, params, {}, {"image": feats}), scaled,
                               rtol=1e-5)  # invariant to the features' scale
    raw = get_method(method_config("bias_mimicking", normalize_head=False))
    assert not np.allclose(raw.predict(apply_fn, params, {}, {"image": feats}), scaled)
