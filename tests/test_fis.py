"""FIS: the fairness relaxation, the selection rule, the three scoring paths on a real model,
and a selection round end to end."""

from __future__ import annotations

import json

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.methods.fis import count_qualified, fairness_violation, select_from_pool
from nhfair_jax.dispatch import run
from nhfair_jax.training.loop import Run
from tests.helpers import tiny_config


def _probs(p1):
    p1 = jnp.asarray(p1, jnp.float32)
    return jnp.stack([1 - p1, p1], axis=1)


@pytest.mark.parametrize("constraint", ["dp", "eop", "eod"])
def test_violation_is_zero_for_identical_groups_and_grows_with_the_shift(constraint):
    labels = jnp.array([0, 1, 0, 1, 0, 1])
    groups = jnp.array([0, 0, 1, 1, 2, 2])
    same = fairness_violation(_probs([.2, .7, .2, .7, .2, .7]), labels, groups, num_groups=3,
                              constraint=constraint)
    assert float(same) == pytest.approx(0.0, abs=1e-6)
    small = fairness_violation(_probs([.2, .7, .3, .8, .2, .7]), labels, groups, num_groups=3,
                               constraint=constraint)
    large = fairness_violation(_probs([.2, .7, .6, .95, .2, .7]), labels, groups, num_groups=3,
                               constraint=constraint)
    assert 0 < float(small) < float(large)


def test_eop_looks_at_positives_only_and_dp_at_everyone():
    labels = jnp.array([0, 1, 0, 1])
    groups = jnp.array([0, 0, 1, 1])
    # Groups differ on negatives only.
    probs = _probs([.1, .8, .5, .8])
    assert float(fairness_violation(probs, labels, groups, num_groups=2, constraint="eop")) == 0
    dp = fairness_violation(probs, labels, groups, num_groups=2, constraint="dp")
    # |E[p1|a] - E[p1]| summed over 2 groups x 2 classes: 4 x 0.1
    assert float(dp) == pytest.approx(0.4, abs=1e-6)


def test_empty_cells_are_skipped():
    labels = jnp.array([1, 1, 0])
    groups = jnp.array([0, 0, 1])  # group 1 has no positive
    v = fairness_violation(_probs([.9, .7, .2]), labels, groups, num_groups=2, constraint="eop")
    assert float(v) == pytest.approx(0.0, abs=1e-6)


def test_selection_takes_only_fairness_improving_harmless_examples_best_first():
    acc = np.array([0.5, -0.1, 0.2, 0.0, 0.3, -2.0, 0.4])
    fair = np.array([0.1, 9.0, 0.7, 0.3, -0.2, 5.0, 0.0])
    np.testing.assert_array_equal(select_from_pool(acc, fair, 3), [2, 3, 0])
    # Fewer than the budget qualify: example 4 would worsen fairness, 6 leaves it unchanged.
    np.testing.assert_array_equal(select_from_pool(acc, fair, 10), [2, 3, 0])
    assert count_qualified(acc, fair) == 3


def test_the_schedule_is_the_codes_six_epochs_then_up_to_len_val_each_epoch():
    """The code: `fis_warm` 5 with epochs counted from 0 and a selection after validating epoch
    `epoch >= fis_warm`, so six epochs train on the labelled subset before the first round,
    then one round per epoch, each adding up to `num_samples` = len(val) examples out of at
    most 100 x len(val) scored."""
    from nhfair_jax.methods import get_method

    method = get_method(method_config("fis"))
    assert (method.cfg.warmup_epochs, method.cfg.budget, method.cfg.scan) == (6, 1.0, 100.0)
    rounds = [method._round_number(e) for e in range(1, 11)]  # epochs, 1-based, at their start
    code = [None if e - 2 < 5 else e - 2 - 5 + 1 for e in range(1, 11)]  # after 0-based e - 2
    assert rounds == code == [None] * 6 + [1, 2, 3, 4]


def test_default_scoring_uses_the_pools_true_labels():
    from nhfair_jax.methods import get_method

    method = get_method(method_config("fis"))
    assert method.cfg.pool_labels == "true"
    logits = jnp.array([[2.0, -1.0], [0.5, 1.5]])
    labels = jnp.array([1, 0])  # both disagree with the prediction
    apply_fn = lambda variables, x, train, features: x
    losses = method._example_losses(apply_fn, {}, {}, logits, labels)
    expected = -jax.nn.log_softmax(logits)[jnp.arange(2), labels]
    np.testing.assert_allclose(losses, expected, rtol=1e-6)


def test_auto_scoring_is_the_closed_form_on_the_cpu_and_jvp_on_accelerators():
    from nhfair_jax.methods import get_method
    from nhfair_jax.methods.fis import resolve_scoring

    assert get_method(method_config("fis")).cfg.scoring == "auto"
    assert resolve_scoring("auto", "cpu") == "per_layer"
    assert resolve_scoring("auto", "gpu") == resolve_scoring("auto", "tpu") == "jvp"
    for chosen in ("jvp", "per_example", "per_layer"):
        assert resolve_scoring(chosen, "cpu") == resolve_scoring(chosen, "gpu") == chosen


class _LooseScale(nn.Module):
    """A classifier with a parameter outside any leaf layer: no closed form layer by layer."""

    @nn.compact
    def __call__(self, x, train=False, features=False):
        scale = self.param("scale", nn.initializers.ones, (2,))
        return nn.Dense(2, name="fc")(x.mean(axis=(1, 2))) * scale


def test_auto_scoring_falls_back_to_jvp_where_the_closed_form_cannot_see_a_parameter():
    from nhfair_jax import per_example
    from nhfair_jax.methods import get_method

    model = _LooseScale()
    images = jax.random.normal(jax.random.key(0), (6, 4, 4, 3))
    batch = {"image": images, "label": jnp.array([0, 1, 1, 0, 1, 0])}
    params = model.init(jax.random.key(1), images)["params"]
    params = jax.tree.map(lambda p: p + 0.3, params)  # a scale that matters
    directions = [jax.tree.map(lambda p, k=k: jax.random.normal(k, p.shape), params)
                  for k in jax.random.split(jax.random.key(2), 2)]

    def scores(scoring):
        method = get_method(method_config("fis", scoring=scoring))
        return method.score_batch(model.apply, params, {}, batch, directions)

    expected = scores("per_example")
    assert expected.shape == (2, 6) and np.abs(expected).max() > 0
    with pytest.raises(per_example.NoClosedForm, match="scale"):
        scores("per_layer")
    np.testing.assert_allclose(scores("auto"), expected, rtol=1e-5, atol=1e-6)


@pytest.fixture(scope="module")
def fis_run():
    cfg = tiny_config()
    cfg.method = method_config("fis", warmup_epochs=0, budget=0.2)
    return Run(cfg, None)


@pytest.mark.slow
def test_the_three_scoring_paths_agree_on_a_real_model(fis_run):
    run = fis_run
    pool = np.arange(128)
    scores = {}
    for scoring in ("jvp", "per_example", "per_layer"):
        run.method.cfg.scoring = scoring
        run._hook_programs.clear()  # the round's programs of another scoring path
        scores[scoring] = run.method.pool_scores(run.context, run.state, pool)
    run.method.cfg.scoring = "auto"
    run._hook_programs.clear()
    acc_j, fair_j = scores["jvp"]
    assert acc_j.shape == (128,) and np.abs(fair_j).max() > 0
    for scoring in ("per_example", "per_layer"):
        acc_p, fair_p = scores[scoring]
        np.testing.assert_allclose(acc_p, acc_j, rtol=1e-4, atol=1e-4 * np.abs(acc_j).max())
        np.testing.assert_allclose(fair_p, fair_j, rtol=1e-4, atol=1e-4 * np.abs(fair_j).max())


@pytest.mark.slow
def test_influence_scores_predict_the_change_after_a_small_step_on_the_example(fis_run):
    """First-order influence: a step -eps g_i changes the validation loss by -eps acc_i and the
    validation fairness violation by -eps fair_i (checked by finite differences)."""
    from nhfair_jax import per_example
    from nhfair_jax.data.pipeline import eval_dataset, iterate

    run, method, state = fis_run, fis_run.method, fis_run.state
    val = run.sources["val"]

    # jitted, as the package runs them: op by op, each primitive compiles on its own (most of
    # this test's time on a cold compilation cache)
    softmax = jax.jit(lambda params, x: jax.nn.softmax(run.model.apply(
        {"params": params, "batch_stats": state.batch_stats}, x)))

    def val_loss_and_violation(params):
        probs = np.concatenate([
            np.asarray(softmax(params, d["image"]))[b["mask"]]
            for b, d in run.evaluator.eval_batches(val, ("image", "label", "mask"))]).astype(np.float64)
        v = fairness_violation(jnp.asarray(probs), jnp.asarray(val.labels),
                               jnp.asarray(val.groups), num_groups=2, constraint="dp")
        return -np.log(probs[np.arange(len(probs)), val.labels]).mean(), float(v)

    pool = np.arange(4)
    acc, fair = method.pool_scores(run.context, state, pool)
    batch = next(iterate(eval_dataset(run.sources["train"].subset(pool, "p"), batch_size=64,
                                      **run.norm)))
    grads = jax.jit(lambda params, examples: per_example.per_example_grads(
        lambda p, ex: method._example_losses(run.model.apply, p, state.batch_stats,
                                             ex["image"][None], ex["label"][None])[0],
        params, examples))(state.params, {"image": jnp.asarray(batch["image"][:4]),
                                          "label": jnp.asarray(batch["label"][:4])})
    loss0, v0 = val_loss_and_violation(state.params)
    eps = 1e-4
    for i in range(4):
        loss1, v1 = val_loss_and_violation(jax.tree.map(lambda p, g: p - eps * g[i],
                                                        state.params, grads))
        assert loss1 - loss0 == pytest.approx(-eps * acc[i], rel=0.1, abs=2e-7)
        assert v1 - v0 == pytest.approx(-eps * fair[i], rel=0.1, abs=2e-7)


@pytest.mark.slow
def test_a_round_labels_the_selected_pool_examples(fis_run):
    run = fis_run
    state = run.state
    joined = np.asarray(state.method_state["joined"])
    assert (joined == 0).sum() == round(0.3 * len(joined))  # label_ratio
    pool = np.flatnonzero(joined < 0)
    acc, fair = run.method.pool_scores(run.context, state, pool)
    new = run.method.on_epoch_start(run.context, state, epoch=1)
    after = np.asarray(new.method_state["joined"])
    chosen = np.flatnonzero(after == 1)
    expected = pool[select_from_pool(acc, fair, round(0.2 * len(run.sources["val"])))]
    np.testing.assert_array_equal(np.sort(chosen), np.sort(expected))
    assert (acc[np.isin(pool, chosen)] >= 0).all()
    assert (after[joined >= 0] == joined[joined >= 0]).all()  # nobody leaves the labelled set
    rows = run.method.sample_indices(run.sources["train"], 0, 2, {"joined": after})
    np.testing.assert_array_equal(rows, np.flatnonzero(after >= 0))


@pytest.mark.slow
def test_fis_run_records_its_selection(tmp_path):
    cfg = tiny_config(**{"train.epochs": 3})
    cfg.method = method_config("fis", warmup_epochs=1)
    run(cfg, str(tmp_path))
    sel = json.load(open(tmp_path / "fis_selection.json"))
    initial = set(sel["initial"])
    added = [i for r in sel["rounds"] for i in r["selected"]]
    assert len(initial) == round(0.3 * 1438) and not initial & set(added)
    assert all(r["epoch"] in (2, 3) for r in sel["rounds"])
    assert sel["labelled"] == len(initial) + len(added)
    assert sel["labelled"] + sel["pool_left"] == 1438
    budget = 180  # len(val): the code's per-round budget
    for r in sel["rounds"]:  # no more than qualified, and no more than the budget
        assert len(r["selected"]) == min(budget, r["qualified"])


@pytest.mark.slow
def test_the_schedule_follows_epochs_when_epochs_train_on_a_subset(tmp_path):
    # FIS trains on 30% of the rows: a step-counting schedule would decay 3x too late.
    cfg = tiny_config(**{"train.epochs": 3, "optim.name": "sgd", "optim.lr": 0.01,
                         "optim.step_epochs": 1, "optim.gamma": 0.1})
    cfg.method = method_config("fis", warmup_epochs=5)
    run(cfg, str(tmp_path))
    log = [json.loads(line) for line in open(tmp_path / "log.jsonl")]
    np.testing.assert_allclose([e["lr"] for e in log], [1e-2, 1e-3, 1e-4], rtol=1e-6)


@pytest.mark.slow
def test_the_warm_up_epochs_prepare_the_rounds_programs_and_change_no_number(tmp_path,
                                                                              monkeypatch):
    """A thread traces and compiles the round's programs during the second epoch (the trainer
    runs FIS's warm_up), on
    stand-ins of the round's shapes: the rounds find them (each program is compiled once in the
    run), and every logged number is that of a run without the thread."""
    from nhfair_jax.methods.fis import FIS

    round_programs = ("jit(score)", "jit(add_grads)", "jit(fair_weights)")

    def fis_run(name):
        cfg = tiny_config(**{"train.epochs": 4})
        cfg.method = method_config("fis", warmup_epochs=2)  # rounds at epochs 3 and 4
        run(cfg, str(tmp_path / name))
        log = [json.loads(line) for line in open(tmp_path / name / "log.jsonl")]
        compiled = {e["epoch"]: {p: e["compiled"].get(p, 0) for p in round_programs}
                    for e in log}
        return log, compiled, json.load(open(tmp_path / name / "fis_selection.json"))

    log, compiled, selection = fis_run("threaded")
    assert [r["epoch"] for r in selection["rounds"]][:1] == [3]
    for p in round_programs:  # the thread's and the rounds' calls share one program
        assert sum(c[p] for c in compiled.values()) == 1, (p, compiled)

    warm_up = FIS.warm_up

    def waited(self, ctx, state):  # the same warm-up, done on the trainer's thread at once
        warm_up(self, ctx, state)()

    monkeypatch.setattr(FIS, "warm_up", waited)
    waited_log, compiled, waited_selection = fis_run("waited")
    assert compiled[2] == dict.fromkeys(round_programs, 1)  # the warm-up starts at epoch 2
    assert compiled[3] == compiled[4] == dict.fromkeys(round_programs, 0)

    monkeypatch.setattr(FIS, "warm_up", lambda self, ctx, state: None)
    cold_log, compiled, cold_selection = fis_run("cold")
    assert compiled[3] == dict.fromkeys(round_programs, 1)  # the first round's own
    assert cold_selection == waited_selection == selection
    timing = ("time_train_s", "time_eval_s", "compiles", "cache_hits", "compile_s", "compiled")
    numbers = [[{k: v for k, v in e.items() if k not in timing} for e in lg]
               for lg in (log, waited_log, cold_log)]
    assert numbers[0] == numbers[1] == numbers[2]
