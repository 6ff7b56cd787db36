"""The trainer in-process: run-directory contract, determinism, early stopping, NaN handling."""

from __future__ import annotations

import json
import os

import jax
import numpy as np
import pytest

from nhfair_jax import metrics
from nhfair_jax.dispatch import run
from nhfair_jax.errors import TrainingDiverged
from nhfair_jax.training import evaluator as evaluator_module
from tests.helpers import assert_same_run, interrupt_and_resume, log_without_timings, \
    tiny_config

METRIC_KEYS = ("acc", "worst_acc", "gap_acc", "dp", "eqodd", "auc", "loss")


@pytest.fixture(scope="module")
def finished_run(tiny_erm):
    return tiny_erm


@pytest.mark.slow
def test_run_directory_contract(finished_run):
    workdir, result = finished_run
    names = set(os.listdir(workdir))
    assert {"log.jsonl", "result.json", "predictions_val.npz", "predictions_test.npz",
            "checkpoints"} <= names
    log = [json.loads(line) for line in open(os.path.join(workdir, "log.jsonl"))]
    assert [e["epoch"] for e in log] == [1, 2]
    assert {"train_loss", "val_loss", "val_acc", "val_worst_acc", "time_train_s"} <= set(log[0])
    for split in ("val", "test"):
        assert set(METRIC_KEYS) <= set(result[split])
        assert len(result[split]["group_acc"]) == 2 == len(result[split]["group_size"])
    assert result["seed"] == 0 and result["version"]
    assert set(result["timings_s"]) >= {"data", "train", "final_eval"}
    assert sum(result["split_sizes"].values()) == 1797


def test_predictions_reproduce_the_reported_metrics(finished_run):
    workdir, result = finished_run
    for split in ("val", "test"):
        pred = np.load(os.path.join(workdir, f"predictions_{split}.npz"))
        assert set(pred.files) >= {"index", "label", "group", "score", "logits"}
        assert len(pred["index"]) == result["split_sizes"][split]  # nothing dropped by padding
        rep = metrics.fairness_report(pred["label"], pred["score"].argmax(1), pred["group"],
                                      y_score=pred["score"][:, 1])
        for key in ("acc", "worst_acc", "dp", "eqodd", "auc"):
            assert rep[key] == pytest.approx(result[split][key], abs=1e-6)


def test_best_epoch_is_the_one_evaluated(finished_run):
    workdir, result = finished_run
    log = [json.loads(line) for line in open(os.path.join(workdir, "log.jsonl"))]
    best = max(log, key=lambda e: e["val_utility"])  # monitor: val_utility; first on ties
    assert result["best_epoch"] == best["epoch"]
    assert result["val"]["acc"] == pytest.approx(best["val_acc"], abs=1e-9)


@pytest.mark.slow
def test_same_config_and_seed_give_identical_metrics(finished_run, tmp_path):
    _, first = finished_run
    second = run(tiny_config(), str(tmp_path))
    for split in ("val", "test"):
        for key in METRIC_KEYS:
            assert second[split][key] == first[split][key], (split, key)


def test_finished_run_is_not_retrained(finished_run):
    workdir, result = finished_run
    mtime = os.path.getmtime(os.path.join(workdir, "result.json"))
    again = run(tiny_config(), workdir)
    assert again["test"]["acc"] == result["test"]["acc"]
    assert os.path.getmtime(os.path.join(workdir, "result.json")) == mtime


@pytest.mark.slow
def test_early_stopping_after_patience_epochs(tmp_path):
    # A zero learning rate never improves after epoch 1, so the run stops after 1 + patience.
    cfg = tiny_config(**{"train.epochs": 10, "train.patience": 2, "optim.name": "adam",
                         "optim.lr": 1e-12, "train.monitor": "val_loss"})
    result = run(cfg, str(tmp_path))
    assert result["epochs_run"] == 3 and result["stopped_early"]
    assert result["best_epoch"] == 1


def test_patience_restarts_when_loss_or_utility_improves_and_the_best_utility_is_kept():
    from nhfair_jax.training.loop import early_stopping_update

    # epoch: (val loss, val utility); utility peaks at epoch 1, the loss keeps falling to 4.
    history = [(0.9, 0.80), (0.8, 0.79), (0.7, 0.78), (0.6, 0.77), (0.65, 0.76), (0.7, 0.75)]

    def stops(monitor, patience=2):
        meta = {"best_epoch": None, "best_value": None, "best_loss": None, "bad_epochs": 0}
        for epoch, (loss, utility) in enumerate(history, 1):
            _, meta = early_stopping_update(monitor, meta, {"loss": loss, "utility": utility},
                                            epoch, True)
            if meta["bad_epochs"] >= patience:
                return epoch, meta["best_epoch"]
        return None, meta["best_epoch"]

    assert stops("val_utility") == (3, 1)
    assert stops("val_loss_or_utility") == (6, 1)  # the falling loss kept it going
    assert stops("val_loss") == (6, 4)
    assert tiny_config().train.monitor == "val_loss_or_utility"


def _register_nan_method(monkeypatch):
    """A method whose loss turns NaN after 30 steps, registered for this test only (the
    registry is process-wide: test_docs checks that every registered method is documented)."""
    import jax.numpy as jnp

    from nhfair_jax.methods import CrossEntropy, registry

    class NanAfter(CrossEntropy):
        name = "test_nan_after_30_steps"

        def init_state(self, info):
            return {"count": jnp.zeros((), jnp.int32)}

        def loss(self, apply_fn, params, batch_stats, method_state, batch, rng, hp=None):
            out = super().loss(apply_fn, params, batch_stats, method_state, batch, rng, hp)
            count = method_state["count"]
            loss = jnp.where(count >= 30, jnp.nan, out.loss)
            return out._replace(loss=loss, method_state={"count": count + 1})

    monkeypatch.setitem(registry._REGISTRY, NanAfter.name,
                        registry.MethodSpec(NanAfter.name, registry.TRAINED, NanAfter))


@pytest.mark.slow
def test_nan_loss_stops_naming_the_epoch_and_keeps_the_last_good_checkpoint(tmp_path,
                                                                            monkeypatch):
    _register_nan_method(monkeypatch)
    cfg = tiny_config(**{"train.epochs": 3})
    cfg.method.name = "test_nan_after_30_steps"
    with pytest.raises(TrainingDiverged, match=r"non-finite loss at epoch 2, step 9 of 22; the "
                                               r"last good checkpoint \(epoch 1\) is kept"):
        run(cfg, str(tmp_path))
    assert not os.path.exists(os.path.join(tmp_path, "result.json"))
    log = [json.loads(line) for line in open(os.path.join(tmp_path, "log.jsonl"))]
    assert [e["epoch"] for e in log] == [1]
    assert os.listdir(os.path.join(tmp_path, "checkpoints")) == ["epoch_1.msgpack"]


@pytest.mark.slow
def test_default_digitsb_config_reaches_085_test_accuracy(tmp_path):
    """The README's main job, in-process: the default config as shipped (about a minute)."""
    import sys

    from tests.helpers import REPO

    sys.path.insert(0, os.path.join(REPO, "configs"))
    from erm_digitsb import get_config

    cfg = get_config()
    cfg.train.progress = False
    result = run(cfg, str(tmp_path))
    assert result["test"]["acc"] >= 0.85, result["test"]
    # The bias the data set is built with shows: the model leans on the noise shortcut.
    assert result["test"]["dp"] < 0.8


def test_bad_trainer_settings_fail_before_training(tmp_path):
    from nhfair_jax.errors import UserError

    with pytest.raises(UserError, match="bad config value train.monitor='val_auc': allowed one "
                                        "of 'val_loss', "):
        run(tiny_config(**{"train.monitor": "val_auc"}), str(tmp_path / "a"))
    with pytest.raises(UserError, match="train.batch_size=5000 .*cannot fill one batch|"
                                        "cannot fill one batch of 5000"):
        run(tiny_config(**{"train.batch_size": 5000,
                                          "train.eval_batch_size": 64}), str(tmp_path / "b"))
    assert not os.path.exists(tmp_path / "a" / "log.jsonl")


@pytest.mark.slow
def test_an_interrupted_run_resumes_to_the_same_log_and_parameters_epoch_by_epoch(
        finished_run, tmp_path, monkeypatch):
    """Killed as epoch 2 starts, resumed: every log line (all but the timings) and the final
    parameters, batch statistics and optimizer state equal the uninterrupted run's, bit for
    bit. Comparing best-epoch metrics alone would miss a resume that dropped the restored
    weights whenever the best epoch came before the kill."""
    from nhfair_jax.training.loop import Run

    ref_dir, reference = finished_run
    workdir = str(tmp_path / "cut")

    def cut_after_one_epoch():
        assert len(log_without_timings(workdir)) == 1
        assert not os.path.exists(os.path.join(workdir, "result.json"))

    resumed = interrupt_and_resume(tiny_config(), workdir, monkeypatch, Run, "train_epoch", 2,
                                   after_interrupt=cut_after_one_epoch)

    assert_same_run(tiny_config(), workdir, ref_dir)
    for split in ("val", "test"):
        assert {k: resumed[split][k] for k in METRIC_KEYS} == {
            k: reference[split][k] for k in METRIC_KEYS}


@pytest.mark.slow
def test_runs_of_one_model_share_its_initialisation_trace_and_get_the_same_variables():
    """init_state traces model.init once per model (the model a static argument, flax modules
    comparing by their fields) and the features' width once per (model, image shape)."""
    from nhfair_jax.training import state as state_lib
    from nhfair_jax.training.loop import Run

    traces = []
    real = state_lib._init_variables.__wrapped__

    first = Run(tiny_config(), None)
    state_lib._feature_dim.cache_clear()
    try:
        state_lib._init_variables = jax.jit(lambda m, k, d: traces.append(1) or real(m, k, d),
                                            static_argnums=0)
        second, third = Run(tiny_config(), None), Run(tiny_config(), None)
    finally:
        state_lib._init_variables = jax.jit(real, static_argnums=0)
    assert len(traces) == 1  # the second run's model equals the first's: no new trace
    assert state_lib._feature_dim.cache_info().hits >= 1
    for other in (second, third):
        for a, b in zip(jax.tree.leaves(first.state.params), jax.tree.leaves(other.state.params)):
            np.testing.assert_array_equal(a, b)
    x = np.zeros((1, *first.sources["train"].image_shape), np.float32)
    feats = first.model.apply({"params": first.state.params,
                               "batch_stats": first.state.batch_stats}, x, train=False,
                              features=True)[1]
    assert state_lib._feature_dim(first.model, tuple(x.shape[1:])) == feats.shape[-1]


def test_eval_batches_of_a_split_are_read_once_and_kept_within_the_byte_budget(monkeypatch):
    """A split's evaluation batches are kept after the first whole pass (each epoch's
    validation reads them again), read only; another source (FIS's pool) and a split over the
    budget are read from the pipeline every time."""
    from nhfair_jax.training import loop

    trainer = loop.Run(tiny_config(), None)
    reads = []
    real = evaluator_module.iterate
    monkeypatch.setattr(evaluator_module, "iterate",
                        lambda ds, prefetch: reads.append(1) or real(ds, prefetch))
    val = trainer.sources["val"]
    first = list(trainer.evaluator.eval_batches(val))
    again = list(trainer.evaluator.eval_batches(val))
    assert len(reads) == 1 and len(again) == len(first)
    for (b1, d1), (b2, d2) in zip(first, again):
        assert b1 is b2 and d1 is d2
        assert not b1["image"].flags.writeable
    fresh = list(real(evaluator_module.eval_dataset(val, batch_size=trainer.config.train.eval_batch_size,
                                        **trainer.norm), 2))
    for (b, _), f in zip(again, fresh):
        np.testing.assert_array_equal(b["image"], f["image"])
    list(trainer.evaluator.eval_batches(val, ("image", "label", "mask")))  # other keys: their own pass
    assert len(reads) == 2
    next(iter(trainer.evaluator.eval_batches(trainer.sources["test"])))  # not read whole: not kept
    list(trainer.evaluator.eval_batches(trainer.sources["test"]))
    assert len(reads) == 4
    pool = trainer.sources["train"].subset(np.arange(20), "pool")
    list(trainer.evaluator.eval_batches(pool))
    list(trainer.evaluator.eval_batches(pool))
    assert len(reads) == 6
    monkeypatch.setattr(evaluator_module, "EVAL_CACHE_BYTES", 1000)
    small = loop.Run(tiny_config(), None)
    list(small.evaluator.eval_batches(small.sources["val"]))
    list(small.evaluator.eval_batches(small.sources["val"]))
    assert len(reads) == 8


@pytest.mark.slow
def test_predict_answers_a_split_again_from_the_same_parameters_and_recomputes_after_a_step():
    """Run.predict keeps the logits of each split and view predicted at the current parameters
    (FIS's rounds read the validation logits the epoch's evaluation just computed); a training
    step makes new parameters, and the logits are computed again from them."""
    from nhfair_jax.training.loop import Run

    trainer = Run(tiny_config(), None)
    state = trainer.state
    first = trainer.evaluator.predict(state, "val")
    calls = []
    step = trainer.evaluator.eval_step
    trainer.evaluator.eval_step = lambda *a: calls.append(1) or step(*a)
    again = trainer.evaluator.predict(state, "val")
    np.testing.assert_array_equal(again, first)
    again[:] = 0.0  # the caller's copy: the kept logits are unchanged
    np.testing.assert_array_equal(trainer.evaluator.predict(state, "val"), first)
    assert calls == []
    trainer.evaluator.predict(state, "test")  # another split does not evict the first
    assert calls
    calls.clear()
    trainer.evaluator.predict(state, "val")
    assert calls == []
    stepped, _ = trainer.train_epoch(state, 1, progress=False)
    moved = trainer.evaluator.predict(stepped, "val")
    assert calls  # new parameters: a pass over the split
    assert not np.allclose(moved, first)
    fresh = np.concatenate([np.asarray(step(stepped.params, stepped.batch_stats, d))[b["mask"]]
                            for b, d in trainer.evaluator.eval_batches(trainer.sources["val"])])
    np.testing.assert_array_equal(moved, fresh)
