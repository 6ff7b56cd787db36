"""One training run, end to end: config -> run directory (described in the README).

The run directory holds config.json, log.jsonl (one line per epoch), result.json (val and test
metrics of the best epoch), predictions_val.npz / predictions_test.npz and checkpoints/. Every
file is written atomically. Calling `train` again on the same directory resumes from the last
finished epoch and ends with the same numbers (nhfair_jax.dispatch.run, the entry every command
uses, answers a finished run from its directory without training).
"""

from __future__ import annotations

import sys
import threading
import time

import jax
import numpy as np
from tqdm.auto import tqdm

from nhfair_jax import metrics as metrics_lib
from nhfair_jax.data.pipeline import (
    FEATURE_KEYS,
    TRAIN_KEYS,
    FeatureBatches,
    iterate,
    train_dataset,
)
from nhfair_jax.data.device_augment import device_prepare
from nhfair_jax.data.randaugment import RandAugment, chain
from nhfair_jax.errors import TrainingDiverged, UserError
from nhfair_jax.methods.base import HookContext, epoch_scalars
from nhfair_jax.methods.groups import balanced_indices
from nhfair_jax.methods.phases import in_phase, phase_of
from nhfair_jax.rundir import RunDir
from nhfair_jax.training import compiles, outcome, programs
from nhfair_jax.training.checkpoint import Checkpoints
from nhfair_jax.training.optim import epoch_learning_rate, set_learning_rate
from nhfair_jax.training.pairs import evaluate_gflip_pairs, evaluate_test_pairs
from nhfair_jax.training.setup import build, optimizer_for
from nhfair_jax.training.step import make_train_step, replicate, shard_batch

# val_loss_or_utility (the paper's protocol): patience restarts when validation loss OR utility
# improves; the kept checkpoint is the one of the best validation utility.
MONITORS = ("val_loss", "val_utility", "val_loss_or_utility")


class Run:
    """A run being trained: its setup (setup.build: data, model, state), its evaluator, and the
    epochs' phases, steps and learning rates.

    Args:
      config: a resolved ConfigDict.
      mesh: the device mesh (None: all local devices).
      teacher: the teacher's {"params", "batch_stats"} for a distilling method.
    """

    def __init__(self, config, mesh, *, teacher=None):
        c = config
        if c.train.monitor not in MONITORS:
            raise UserError(f"train.monitor must be one of {MONITORS}, got {c.train.monitor!r}")
        if c.eval.utility not in metrics_lib.UTILITIES:
            raise UserError(f"eval.utility must be one of {metrics_lib.UTILITIES}, got "
                            f"{c.eval.utility!r}")
        built = build(config, mesh, teacher=teacher)
        self.config, self.method, self.mesh, self.sources = c, built.method, built.mesh, \
            built.sources
        self.num_classes, self.num_groups = built.num_classes, built.num_groups
        self.model, self.tx, self.state = built.model, built.tx, built.state
        self.data_seed, self.time_data = built.data_seed, built.time_data
        self.epochs = built.epochs
        self.epochs_before = self.epochs - c.train.epochs
        train = self.sources["train"]
        self.steps_per_epoch = len(train) // c.train.batch_size
        if self.steps_per_epoch == 0:
            raise UserError(f"{len(train)} training examples cannot fill one batch of "
                            f"{c.train.batch_size}; lower train.batch_size")
        self.evaluator = built.evaluator()
        self._train_steps = {}
        self._hook_programs = {}  # the epoch hooks' jitted programs (HookContext.programs)
        self._warming = None  # the thread running the method's warm_up during epoch 2
        self.augment = self.method.augment
        if c.train.randaugment:  # the protocol's augmentation, on top of any method's own

            self.augment = chain(RandAugment(2, 10), self.method.augment)
        self.norm = self.evaluator.norm
        # the protocol's flip and RandAugment in the train step, on an accelerator
        self.prepare = device_prepare(
            c.train.augment_on, flip=c.train.flip, randaugment=c.train.randaugment,
            host_augment=self.method.augment, platform=self.mesh.devices.flat[0].platform,
            **self.norm)

    @property
    def context(self) -> HookContext:
        """What the method's epoch hooks see of this run."""
        return HookContext(apply_fn=self.model.apply, sources=self.sources,
                           eval_batches=self.evaluator.eval_batches,
                           predict=self.evaluator.predict, data_seed=self.data_seed,
                           eval_batch_size=self.config.train.eval_batch_size,
                           programs=self._hook_programs)

    def optimizer_for(self, phase: str):
        return optimizer_for(self.config, self.method, phase)

    def phase(self, epoch: int):
        return phase_of(self.method, epoch, self.epochs)

    def cached_phase(self, epoch: int) -> bool:
        """Whether the epoch's steps read cached backbone features instead of images: its phase
        trains a head on the frozen backbone and the step needs no counterfactual pair."""
        return self.phase(epoch).cached_features and "image_cf" not in self.method.batch_keys

    def train_step_for(self, epoch: int):
        """The jitted step of this epoch's phase (compiled once per phase)."""
        name = self.phase(epoch).name
        if name not in self._train_steps:
            method = in_phase(self.method, name)
            # a program of this process with the same key is this one (training/programs.py)
            found = programs.method_key(method)
            key = None if found is None else (
                found, name, self.model, programs.optimizer_key(self.config.optim, method),
                programs.mesh_key(self.mesh), self.num_groups, self.num_classes, self.prepare)
            self._train_steps[name] = programs.program("train_step", key, lambda: make_train_step(
                method, self.model.apply, self.optimizer_for(name), self.mesh,
                num_groups=self.num_groups, num_classes=self.num_classes,
                prepare=self.prepare))
        return self._train_steps[name]

    def with_epoch_learning_rate(self, state, epoch: int):
        """The state with this epoch's learning rate in the optimizer state: schedules follow
        epochs whatever an epoch's length (FIS and subsampling train on fewer rows)."""
        lr = epoch_learning_rate(self.config.optim, max(epoch - self.epochs_before, 1),
                                 self.config.train.epochs)
        return state.replace(opt_state=set_learning_rate(
            state.opt_state, replicate(np.float32(lr), self.mesh))), lr

    def join_background(self) -> None:
        """Waits for the method's warm-up thread, if one runs."""
        if self._warming is not None:
            self._warming.join()
            self._warming = None

    def train_epoch(self, state, epoch: int, progress: bool):
        """One epoch (1-based number); returns (state, log entries)."""
        c = self.config
        state, lr = self.with_epoch_learning_rate(state, epoch)
        self.join_background()
        state = self.method.on_epoch_start(self.context, state, epoch)
        if epoch == 2:  # the first epoch traced the train step: the method's warm-up overlaps
            work = self.method.warm_up(self.context, state)  # the second's training
            if work is not None:
                self._warming = threading.Thread(target=work, name="warm-up", daemon=True)
                self._warming.start()
        # A hook returns host arrays; placing them on the devices is the trainer's job.
        state = state.replace(method_state=replicate(state.method_state, self.mesh))
        indices = self.method.sample_indices(self.sources["train"], self.data_seed, epoch,
                                             jax.device_get(state.method_state))
        indices = balanced_indices(c.train.get("sampling", "uniform"), self.sources["train"],
                                   self.data_seed, epoch, indices, c.method.name)
        train = self.sources["train"]
        if self.cached_phase(epoch):
            # a head on a frozen backbone: the features once, then batches of them
            ds = FeatureBatches(self.evaluator.cached_features(state, "train"), train,
                                batch_size=c.train.batch_size, seed=self.data_seed,
                                epoch=epoch, indices=indices)
            batches, step_keys = ds, FEATURE_KEYS
        else:
            self.evaluator.forget_features()  # the backbone may change
            keys = (*TRAIN_KEYS, *(k for k in self.method.batch_keys  # e.g. image_cf, cf_mask
                                   if k not in TRAIN_KEYS and k in train.extras))
            host = self.prepare is None  # else uint8 batches, augmented in the step
            ds = train_dataset(train, batch_size=c.train.batch_size,
                               seed=self.data_seed, epoch=epoch, indices=indices,
                               flip=c.train.flip and host, augment=self.augment if host else None,
                               keys=keys, normalize=host, **self.norm)
            batches, step_keys = iterate(ds, c.train.prefetch), self.method.batch_keys
        train_step = self.train_step_for(epoch)
        outputs = []
        bar = tqdm(batches, total=len(ds), desc=f"epoch {epoch}",
                   leave=False, disable=None if progress else True, file=sys.stderr)
        for batch in bar:
            state, out = train_step(state, shard_batch(batch, self.mesh, step_keys))
            outputs.append(out)
        # One transfer per epoch: no host sync inside the step loop.
        outputs = jax.device_get(outputs)
        losses = np.array([o["loss"] for o in outputs], np.float64)
        bad = np.flatnonzero(~np.isfinite(losses))
        if bad.size:
            raise TrainingDiverged(
                f"non-finite loss at epoch {epoch}, step {bad[0] + 1} of {len(losses)}; the last "
                f"good checkpoint (epoch {epoch - 1}) is kept; lower optim.lr or check the data")
        counts = np.sum([o["confusion"] for o in outputs], axis=0)
        train_report = metrics_lib.fairness_from_counts(counts)
        entry = {"lr": lr, "train_loss": float(losses.mean()), "train_acc": train_report["acc"],
                 "train_worst_acc": train_report["worst_acc"]}
        totals = {key: np.sum([np.asarray(o[key]) for o in outputs], axis=0)
                  for key in outputs[0] if key not in ("loss", "confusion")}
        entry.update({f"train_{k}": v for k, v in epoch_scalars(totals, len(outputs)).items()})
        return state, entry


def _improved(lower_is_better: bool, value: float, best: float | None) -> bool:
    if value is None or not np.isfinite(value):
        return False
    if best is None:
        return True
    return value < best if lower_is_better else value > best


def early_stopping_update(monitor: str, meta: dict, val: dict, epoch: int, selectable: bool):
    """Whether this epoch is the new best checkpoint, and meta updated (best epoch and value,
    best validation loss, epochs without improvement).

    val_loss / val_utility: one monitor picks the checkpoint and restarts patience.
    val_loss_or_utility (the benchmark paper's protocol, its Appendix B.5: "early stopping is
    used if the validation loss or validation accuracy/AUC does not improve after 10 epochs"):
    patience restarts when either improves; the checkpoint kept is the best utility's.
    """
    meta = dict(meta)
    if not selectable:
        return False, meta
    by_loss = monitor == "val_loss"
    value = val["loss"] if by_loss else val["utility"]
    is_best = _improved(by_loss, value, meta["best_value"])
    loss_improved = _improved(True, val["loss"], meta.get("best_loss"))
    if loss_improved:
        meta["best_loss"] = val["loss"]
    if is_best:
        meta["best_epoch"], meta["best_value"] = epoch, value
    keeps_patience = is_best or (monitor == "val_loss_or_utility" and loss_improved)
    meta["bad_epochs"] = 0 if keeps_patience else meta["bad_epochs"] + 1
    return is_best, meta


def train(config, workdir, *, mesh=None, progress: bool | None = None, teacher=None,
          on_epoch=None) -> dict:
    """Trains (or resumes) one run of a trained method and writes its run directory; returns
    result.json's content. Runs start through nhfair_jax.dispatch.run, which answers a finished
    run from its directory and loads the teacher of a method that needs one.

    Args:
      config: a resolved ConfigDict (nhfair_jax/config.py).
      workdir: the run directory (a path or a RunDir).
      mesh: the device mesh; default all local devices.
      progress: show progress bars; default config.train.progress.
      teacher: the teacher's variables, for a method that distils from one.
      on_epoch: f(epoch, log entry), called after each epoch but the last is checkpointed and
        logged, the entry with "selectable" added (False in a phase whose epochs early stopping
        never keeps, e.g. a pretraining phase); an exception it raises stops the run there
        (resumable: nothing is lost).
    """
    t_start = time.perf_counter()
    rundir = RunDir(workdir)
    progress = config.train.progress if progress is None else progress
    compiled_before = compiles.snapshot()
    run = Run(config, mesh, teacher=teacher)
    ckpt = Checkpoints(rundir.path)
    # seconds by phase outside the epochs' own timings (result.json's timings_s)
    run.clock = {"setup": time.perf_counter() - t_start - run.time_data, "checkpoints": 0.0,
                 "compiled_before": compiled_before}
    run.on_epoch = on_epoch
    try:
        return _fit(run, ckpt, rundir, progress, t_start)
    finally:
        ckpt.close()


def _fit(run: Run, ckpt: Checkpoints, rundir: RunDir, progress: bool, t_start: float) -> dict:
    c = run.config
    state = run.state
    meta = {"epoch": 0, "history": [], "best_epoch": None, "best_value": None, "best_loss": None,
            "bad_epochs": 0, "done": False}
    t_ckpt = time.perf_counter()
    restored = ckpt.restore_latest(state)
    run.clock["checkpoints"] += time.perf_counter() - t_ckpt
    if restored is not None:
        state, meta = restored
        if progress:
            print(f"resuming {rundir.path} after epoch {meta['epoch']}", file=sys.stderr)
    rundir.write_log(meta["history"])  # drops any line of an epoch not checkpointed

    epochs = tqdm(range(meta["epoch"] + 1, run.epochs + 1), initial=meta["epoch"],
                  total=run.epochs, desc="train",
                  disable=True if not progress or meta["done"] else None,  # None: a TTY only
                  file=sys.stderr)
    for epoch in epochs:
        if meta["done"]:
            break
        t0, compiled_before = time.perf_counter(), compiles.snapshot()
        state, entry = run.train_epoch(state, epoch, progress)
        t1 = time.perf_counter()
        val, _ = run.evaluator.evaluate(state, "val", edits=("image_cf",),
                                        frozen=run.cached_phase(epoch))
        t2, compiled = time.perf_counter(), compiles.summary_since(compiled_before)
        is_best, meta = early_stopping_update(c.train.monitor, meta, val, epoch,
                                              run.phase(epoch).selectable)
        stop = meta["bad_epochs"] >= c.train.patience or epoch == run.epochs
        entry = {"epoch": epoch, **entry,
                 **{f"val_{k}": val[k] for k in ("loss", "acc", "worst_acc", "gap_acc", "dp",
                                                 "eqodd", "utility", "worst", "gap")},
                 **({"val_cd": val["cd"]} if "cd" in val else {}),
                 "best": is_best, "time_train_s": t1 - t0, "time_eval_s": t2 - t1,
                 # XLA compilation requests in this epoch (training, hooks, validation), by
                 # function; how many the persistent cache answered; seconds in them
                 "compiles": sum(compiled["compiled_by"].values()),
                 "cache_hits": compiled["cache_hits"], "compile_s": compiled["compile_s"],
                 "compiled": compiled["compiled_by"]}
        meta = {**meta, "epoch": epoch, "history": [*meta["history"], entry], "done": stop}
        t_ckpt = time.perf_counter()
        ckpt.save(epoch, state, meta, is_best=is_best)
        run.clock["checkpoints"] += time.perf_counter() - t_ckpt
        rundir.write_log(meta["history"])
        epochs.set_postfix(loss=f"{entry['train_loss']:.3f}", val_acc=f"{val['acc']:.3f}",
                           val_worst=f"{val['worst']:.3f}")
        if run.on_epoch is not None and not stop:
            run.on_epoch(epoch, {**entry, "selectable": run.phase(epoch).selectable})
        if stop:
            break
    epochs.close()
    run.join_background()
    if meta["best_epoch"] is None:
        raise TrainingDiverged("no epoch produced a finite validation score; nothing to select")
    return _finish(run, ckpt, rundir, state, meta, t_start)


def _finish(run: Run, ckpt: Checkpoints, rundir: RunDir, state, meta: dict, t_start: float
            ) -> dict:
    """Evaluates the best epoch on val and test; writes predictions, the method's artifacts (from
    the last state) and result.json."""
    t0 = time.perf_counter()
    best_state, _ = ckpt.restore_best(state)
    run.clock["checkpoints"] += time.perf_counter() - t0
    t0 = time.perf_counter()
    splits, ev = {}, run.evaluator
    for split in ("val", "test"):
        splits[split], views = ev.evaluate_views(best_state, split)
        outcome.write_predictions(rundir, split, run.sources[split], views.pop("logits"),
                                  **views)
    for name, pairs in (("pairs", evaluate_test_pairs(ev, best_state)),
                        ("gflip", evaluate_gflip_pairs(ev, best_state))):
        if pairs is not None:  # the test pairs' numbers (a split with pairs of its own: theirs)
            splits["test"].update(pairs[0])
            rundir.write_predictions(name, **pairs[1])
    finish = run.method.on_finish(run.context, state, best_state)
    splits["test"].update(finish.get("test", {}))
    for name, payload in finish.get("files", {}).items():
        rundir.write_json(name, payload)
    history = meta["history"]
    compiled = compiles.summary_since(run.clock["compiled_before"])
    return outcome.write_result(
        rundir, run.config, run.sources, splits,
        best_epoch=meta["best_epoch"], epochs_run=meta["epoch"],
        stopped_early=meta["epoch"] < run.epochs, monitor=run.config.train.monitor,
        devices=int(run.mesh.devices.size),
        # seconds of this session by phase: loading data, building the model, state and steps
        # (setup), the epochs' training and validation, checkpoints written and read, the
        # final evaluation (predictions and artifacts written), and in all
        timings_s={
            "data": run.time_data,
            "setup": run.clock["setup"],
            "train": float(sum(h["time_train_s"] for h in history)),
            "eval_per_epoch": float(sum(h["time_eval_s"] for h in history)),
            "checkpoints": run.clock["checkpoints"],
            "final_eval": time.perf_counter() - t0,
            "this_session": time.perf_counter() - t_start,
        },
        # XLA compilation requests of this session (every phase), those the persistent cache
        # answered, and the seconds they took
        compiles={"requests": sum(compiled["compiled_by"].values()),
                  "cache_hits": compiled["cache_hits"], "seconds": compiled["compile_s"]})
