"""One training run, end to end: config -> run directory (described in the README).

The run directory holds config.json, log.jsonl (one line per epoch), result.json (val and test
metrics of the best epoch), predictions_val.npz / predictions_test.npz and checkpoints/. Every
file is written atomically. Calling `train` again on the same directory resumes from the last
finished epoch and ends with the same numbers (nhfair_jax.dispatch.run, the entry every command
uses, answers a finished run from its directory without training).
"""

from __future__ import annotations

import functools
import sys
import time

import jax
import numpy as np
from tqdm.auto import tqdm

import nhfair_jax
from nhfair_jax import data as data_lib
from nhfair_jax import metrics as metrics_lib
from nhfair_jax import models as models_lib
from nhfair_jax.data.pipeline import FEATURE_KEYS, TRAIN_KEYS, FeatureBatches, eval_dataset, \
    iterate, train_dataset
from nhfair_jax.errors import TrainingDiverged, UserError
from nhfair_jax.methods import get_method, method_needs
from nhfair_jax.methods.base import HookContext, backbone_features
from nhfair_jax.methods.groups import balanced_indices
from nhfair_jax.methods.phases import in_phase, optimizer_of, phase_of
from nhfair_jax.rundir import RunDir
from nhfair_jax.training import compiles
from nhfair_jax.training.checkpoint import Checkpoints
from nhfair_jax.training.optim import epoch_learning_rate, make_optimizer, set_learning_rate
from nhfair_jax.training.pairs import evaluate_gflip_pairs, evaluate_test_pairs
from nhfair_jax.training.state import init_state
from nhfair_jax.training.step import make_eval_step, make_mesh, make_train_step, replicate, \
    shard_batch

# Edited views evaluated where a split has them: {source key: predictions-file key}.
PAIRED_VIEWS = {"image_cf": "logits_cf", "image_gflip": "logits_gflip"}
# val_loss_or_utility (the paper's protocol): patience restarts when validation loss OR utility
# improves; the kept checkpoint is the one of the best validation utility.
MONITORS = ("val_loss", "val_utility", "val_loss_or_utility")


# `Run(..., teacher=RESTORING)`: a run built to restore a checkpoint into. A distilling method's
# state then holds stand-in teacher variables of the right shape; the checkpoint's replace them.
RESTORING = object()
# A split's evaluation batches (host and device arrays) are kept for the run's later passes up
# to this many bytes: evaluation reads them unchanged every epoch (no augmentation).
EVAL_CACHE_BYTES = 256 << 20


class Run:
    """Everything built from the config that the epochs and the final evaluation share.

    Args:
      config: a resolved ConfigDict.
      mesh: the device mesh (None: all local devices).
      teacher: the teacher's {"params", "batch_stats"} for a distilling method, or RESTORING.
    """

    def __init__(self, config, mesh, *, teacher=None):
        t0 = time.perf_counter()
        self.config = config
        c = config
        if c.train.monitor not in MONITORS:
            raise UserError(f"train.monitor must be one of {MONITORS}, got {c.train.monitor!r}")
        if c.eval.utility not in metrics_lib.UTILITIES:
            raise UserError(f"eval.utility must be one of {metrics_lib.UTILITIES}, got "
                            f"{c.eval.utility!r}")
        # unknown names fail before any data is read; `method.cf` wraps any method (+aug / +cp)
        self.method = get_method(c.method)
        # train.epochs, plus the epochs a method trains first on top of them (LASSI's flow)
        self.epochs = c.train.epochs + int(self.method.epochs_before())
        self.epochs_before = self.epochs - c.train.epochs
        self.mesh = mesh or make_mesh()
        n_dev = self.mesh.devices.size
        for key in ("batch_size", "eval_batch_size"):
            if c.train[key] % n_dev:
                raise UserError(f"train.{key}={c.train[key]} must be a multiple of the "
                                f"{n_dev} devices")
        self.sources = data_lib.config_sources(c)
        # eval.cf_pairs / eval.gflip_pairs: read before any training
        self.test_pairs = data_lib.test_pairs(c)
        self.test_gflip = data_lib.test_pairs(c, "gflip_pairs")
        train = self.sources["train"]
        if "pairs" in method_needs(c.method) and "image_cf" not in train.extras:
            raise UserError(f"method {c.method.name!r}"
                            + (f" with method.cf={c.method.cf!r}" if c.method.get("cf") else "")
                            + f" needs counterfactual pairs; {c.data.name} has none in its "
                            "training split; set data.counterfactuals to a CSV or folder of "
                            "edited training images (data/README.md)")
        self.num_classes, self.num_groups = train.num_classes, train.num_groups
        if c.eval.utility == "auc" and self.num_classes != 2:
            raise UserError(f"eval.utility='auc' needs a binary target; {c.data.name} has "
                            f"{self.num_classes} classes; use eval.utility='acc'")
        self.steps_per_epoch = len(train) // c.train.batch_size
        if self.steps_per_epoch == 0:
            raise UserError(f"{len(train)} training examples cannot fill one batch of "
                            f"{c.train.batch_size}; lower train.batch_size")
        self.time_data = time.perf_counter() - t0

        root = jax.random.key(c.seed)
        self.data_seed = int(jax.random.bits(jax.random.fold_in(root, 2), dtype=np.uint32))
        self.model = models_lib.create_model(c.model.name, self.num_classes,
                                             **models_lib.model_options(c.model))
        self.tx = self.optimizer_for(phase_of(self.method, 1, self.epochs).name)
        variables = None
        if c.model.pretrained_path or teacher is RESTORING:
            dummy = np.zeros((1, *train.image_shape), np.float32)
            variables = self.model.init(jax.random.fold_in(root, 0), dummy, train=False)
        if c.model.pretrained_path:
            variables = models_lib.load_pretrained(c.model.name, variables,
                                                   c.model.pretrained_path)
        if teacher is RESTORING:  # stand-in variables of the teacher's shape (the same network)
            teacher = {"params": variables["params"],
                       "batch_stats": variables.get("batch_stats", {})}
        info = {"num_classes": self.num_classes, "num_groups": self.num_groups,
                "num_train": len(train), "labels": train.labels, "groups": train.groups,
                "seed": c.seed, "epochs": self.epochs,
                # distillation: the frozen teacher's variables (nhfair_jax.dispatch loads
                # them; None for other methods)
                "teacher": teacher}
        state = init_state(self.model, self.tx, self.method, image_shape=train.image_shape,
                           init_key=jax.random.fold_in(root, 0),
                           train_key=jax.random.fold_in(root, 1), info=info, variables=variables)
        self.state = replicate(state, self.mesh)
        self._train_steps = {}
        self.augment = self.method.augment
        if c.train.randaugment:  # the protocol's augmentation, on top of any method's own
            from nhfair_jax.data.randaugment import RandAugment, chain

            self.augment = chain(RandAugment(2, 10), self.method.augment)
        self.eval_step = make_eval_step(self.method, self.model.apply, self.mesh)
        self._frozen, self._features_fn = {}, None  # frozen-backbone features, by split
        # predict's logits by split and view, at the (params, batch_stats) in _kept_at
        self._kept_at, self._kept_logits = None, {}
        self._eval_cache = {}  # (split, keys, image_key) -> [(batch, device batch)]
        self.eval_keys = (*self.method.batch_keys, "mask")
        self.norm = {"mean": tuple(c.data.mean), "std": tuple(c.data.std)}

    @property
    def context(self) -> HookContext:
        """What the method's epoch hooks see of this run."""
        return HookContext(apply_fn=self.model.apply, sources=self.sources,
                           eval_batches=self.eval_batches, predict=self.predict,
                           data_seed=self.data_seed,
                           eval_batch_size=self.config.train.eval_batch_size)

    def eval_batches(self, source, keys=None, image_key: str = "image"):
        """Normalised, padded evaluation batches of a source, sharded over the mesh; yields
        (host batch, device batch), whose arrays are read only. `image_key` (e.g. "image_cf")
        is read as the image."""
        keys = tuple(keys or self.eval_keys)
        # A split's own source, read whole, is kept (up to EVAL_CACHE_BYTES) and answered from
        # memory by later passes (each epoch's validation): the batches are the same arrays.
        split = next((name for name, s in self.sources.items() if s is source), None)
        cache_key = (split, keys, image_key)
        if split is not None and cache_key in self._eval_cache:
            yield from self._eval_cache[cache_key]
            return
        gather = None if image_key == "image" else (image_key, "label", "group", "index")
        ds = eval_dataset(source, batch_size=self.config.train.eval_batch_size, **self.norm,
                          **({"keys": gather} if gather else {}))
        batches, size = ([] if split is not None else None), 0
        for batch in iterate(ds, self.config.train.prefetch):
            if gather:
                batch["image"] = batch.pop(image_key)
            pair = batch, shard_batch(batch, self.mesh, keys)
            if batches is not None:
                size += sum(v.nbytes for v in batch.values()) + sum(
                    v.nbytes for v in pair[1].values())
                if size <= EVAL_CACHE_BYTES:
                    for v in batch.values():
                        v.flags.writeable = False  # shared with later passes: read only
                    batches.append(pair)
                else:
                    batches = None
            yield pair
        if batches is not None:
            self._eval_cache[cache_key] = batches

    def cached_features(self, state, split: str) -> np.ndarray:
        """[N, D] backbone features of a split, for the epochs of a phase that trains a head on
        the frozen backbone (`Phase.cached_features`) and for post-fit methods: evaluation mode,
        without augmentation, computed once and kept until an epoch trains the backbone."""
        if split not in self._frozen:
            if self._features_fn is None:
                self._features_fn = jax.jit(functools.partial(backbone_features,
                                                              self.model.apply))
            parts = []
            for batch, device_batch in self.eval_batches(self.sources[split], ("image", "mask")):
                feats = self._features_fn(state.params, state.batch_stats, device_batch["image"])
                parts.append(np.asarray(feats, np.float32)[batch["mask"]])
            self._frozen[split] = np.concatenate(parts)
        return self._frozen[split]

    def _predict_features(self, state, split: str) -> np.ndarray:
        feats, size = self.cached_features(state, split), self.config.train.eval_batch_size
        out = []
        for start in range(0, len(feats), size):
            chunk = feats[start:start + size]
            padded = np.concatenate([chunk, np.zeros((size - len(chunk), chunk.shape[1]),
                                                     chunk.dtype)])
            logits = self.eval_step(state.params, state.batch_stats,
                                    shard_batch({"features": padded}, self.mesh, ("features",)))
            out.append(np.asarray(logits)[:len(chunk)])
        return np.concatenate(out)

    def predict(self, state, split: str, image_key: str = "image", *,
                frozen: bool = False, source=None) -> np.ndarray:
        """Logits of a split (or of `source`, e.g. the test pairs); `frozen`: from its
        frozen-backbone features (a frozen epoch's validation)."""
        if frozen and image_key == "image" and source is None:
            return self._predict_features(state, split)
        # The splits predicted at the current parameters, kept while the state's parameters
        # are the same objects (a step makes new ones): an epoch hook that reads the
        # validation logits (FIS's rounds) gets the previous epoch's evaluation instead of a
        # second pass over the split.
        key, own = (split, image_key), source is None
        at = self._kept_at  # the objects themselves, held: an id could be reused
        if at is None or at[0] is not state.params or at[1] is not state.batch_stats:
            self._kept_at, self._kept_logits = (state.params, state.batch_stats), {}
        if own and key in self._kept_logits:
            return self._kept_logits[key].copy()
        out = []
        for batch, device_batch in self.eval_batches(self.sources[split] if own else source,
                                                     image_key=image_key):
            logits = self.eval_step(state.params, state.batch_stats, device_batch)
            out.append(np.asarray(logits)[batch["mask"]])
        logits = np.concatenate(out)
        if own:
            self._kept_logits[key] = logits.copy()
        return logits

    def evaluate_views(self, state, split: str, edits=PAIRED_VIEWS, *, frozen: bool = False):
        """(report, {"logits": ..., "logits_cf": ..., "logits_gflip": ...}): the split's report
        with the paired metrics (cd, cd_balanced from `image_cf`; rfp from `image_gflip`) of
        the edited views in `edits` that the split has. `frozen`: the plain view's logits from
        the frozen-backbone features."""
        source = self.sources[split]
        views = {"logits": self.predict(state, split, frozen=frozen)}
        report = metrics_lib.split_metrics(source.labels, source.groups, views["logits"],
                               num_classes=self.num_classes, num_groups=self.num_groups,
                               utility=self.config.eval.utility)
        for key in edits:
            if key in source.extras:
                views[PAIRED_VIEWS[key]] = self.predict(state, split, image_key=key)
        if len(views) > 1:
            mask = source.extras.get("cf_mask")
            report.update(metrics_lib.paired_report(
                source.labels, source.groups, views["logits"], logits_cf=views.get("logits_cf"),
                logits_gflip=views.get("logits_gflip"),
                cf_mask=None if mask is None else np.asarray(mask)))
        return report, views

    def evaluate(self, state, split: str, edits=PAIRED_VIEWS, *, frozen: bool = False):
        report, views = self.evaluate_views(state, split, edits, frozen=frozen)
        return report, views["logits"]

    def optimizer_for(self, phase: str):
        """The optax transformation of a phase (the method decides; all phases share one
        optimizer-state structure)."""
        optim = self.config.optim
        return optimizer_of(in_phase(self.method, phase),
                            lambda scheduled=True: make_optimizer(optim, scheduled=scheduled))

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
            self._train_steps[name] = make_train_step(
                in_phase(self.method, name), self.model.apply, self.optimizer_for(name),
                self.mesh, num_groups=self.num_groups, num_classes=self.num_classes)
        return self._train_steps[name]

    def with_epoch_learning_rate(self, state, epoch: int):
        """The state with this epoch's learning rate in the optimizer state: schedules follow
        epochs whatever an epoch's length (FIS and subsampling train on fewer rows)."""
        lr = epoch_learning_rate(self.config.optim, max(epoch - self.epochs_before, 1),
                                 self.config.train.epochs)
        return state.replace(opt_state=set_learning_rate(
            state.opt_state, replicate(np.float32(lr), self.mesh))), lr

    def train_epoch(self, state, epoch: int, progress: bool):
        """One epoch (1-based number); returns (state, log entries)."""
        c = self.config
        state, lr = self.with_epoch_learning_rate(state, epoch)
        state = self.method.on_epoch_start(self.context, state, epoch)
        # A hook returns host arrays; placing them on the devices is the trainer's job.
        state = state.replace(method_state=replicate(state.method_state, self.mesh))
        indices = self.method.sample_indices(self.sources["train"], self.data_seed, epoch,
                                             jax.device_get(state.method_state))
        indices = balanced_indices(c.train.get("sampling", "uniform"), self.sources["train"],
                                   self.data_seed, epoch, indices, c.method.name)
        train = self.sources["train"]
        if self.cached_phase(epoch):
            # a head on a frozen backbone: the features once, then batches of them
            ds = FeatureBatches(self.cached_features(state, "train"), train,
                                batch_size=c.train.batch_size, seed=self.data_seed,
                                epoch=epoch, indices=indices)
            batches, step_keys = ds, FEATURE_KEYS
        else:
            self._frozen.clear()  # the backbone may change
            keys = (*TRAIN_KEYS, *(k for k in self.method.batch_keys  # e.g. image_cf, cf_mask
                                   if k not in TRAIN_KEYS and k in train.extras))
            ds = train_dataset(train, batch_size=c.train.batch_size,
                               seed=self.data_seed, epoch=epoch, indices=indices,
                               flip=c.train.flip, augment=self.augment, keys=keys, **self.norm)
            batches, step_keys = iterate(ds, c.train.prefetch), self.method.batch_keys
        train_step = self.train_step_for(epoch)
        outputs = []
        bar = tqdm(batches, total=len(ds), desc=f"epoch {epoch}",
                   leave=False, disable=not progress, file=sys.stderr)
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
        entry.update({f"train_{k}": v for k, v in
                      self.method.epoch_metrics(totals, len(outputs)).items()})
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
                  total=run.epochs, desc="train", disable=not progress or meta["done"],
                  file=sys.stderr)
    for epoch in epochs:
        if meta["done"]:
            break
        t0, compiled_before = time.perf_counter(), compiles.snapshot()
        state, entry = run.train_epoch(state, epoch, progress)
        t1 = time.perf_counter()
        val, _ = run.evaluate(state, "val", edits=("image_cf",), frozen=run.cached_phase(epoch))
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
    splits = {}
    for split in ("val", "test"):
        report, views = run.evaluate_views(best_state, split)
        logits = views["logits"]
        source = run.sources[split]
        score = metrics_lib.softmax(logits.astype(np.float64)).astype(np.float32)
        rundir.write_predictions(split, index=source.indices, label=source.labels,
                                 group=source.groups, logits=logits, score=score,
                                 **{k: v for k, v in views.items() if k != "logits"})
        splits[split] = report
    for name, pairs in (("pairs", evaluate_test_pairs(run, best_state)),
                        ("gflip", evaluate_gflip_pairs(run, best_state))):
        if pairs is not None:  # the test pairs' numbers (a split with pairs of its own: theirs)
            splits["test"].update(pairs[0])
            rundir.write_predictions(name, **pairs[1])
    splits["test"].update(run.method.test_metrics(run.context, best_state))
    for name, payload in run.method.artifacts(run.context, state).items():
        rundir.write_json(name, payload)
    history = meta["history"]
    compiled = compiles.summary_since(run.clock["compiled_before"])
    result = {
        "val": splits["val"], "test": splits["test"],
        "best_epoch": meta["best_epoch"], "epochs_run": meta["epoch"],
        "stopped_early": meta["epoch"] < run.epochs,
        "monitor": run.config.train.monitor,
        "seed": run.config.seed, "version": nhfair_jax.__version__,
        "method": run.config.method.name, "dataset": run.config.data.name,
        "num_classes": run.num_classes, "num_groups": run.num_groups,
        "class_names": run.sources["train"].class_names,
        "group_names": run.sources["train"].group_names,
        "split_sizes": {s: len(src) for s, src in run.sources.items()},
        "train_group_size": np.bincount(run.sources["train"].groups,
                                        minlength=run.num_groups).tolist(),
        "devices": int(run.mesh.devices.size),
        # seconds of this session by phase: loading data, building the model, state and steps
        # (setup), the epochs' training and validation, checkpoints written and read, the
        # final evaluation (predictions and artifacts written), and in all
        "timings_s": {
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
        "compiles": {"requests": sum(compiled["compiled_by"].values()),
                     "cache_hits": compiled["cache_hits"], "seconds": compiled["compile_s"]},
    }
    rundir.write_result(result)
    return result
