"""Post-fit methods (DFR, OxonFair) on the trainer's side: their inputs from the finished ERM run
they are fitted on (penultimate features or logits of its best checkpoint, computed once per
base run and cached in it), and a run directory of their own with the same contract, so
selection and reports treat them like any other method. nhfair_jax.dispatch.run makes sure the
base run is finished (training it first) before it calls `post_fit`."""

from __future__ import annotations

import os
import time

import numpy as np

from nhfair_jax import rundir
from nhfair_jax.data import config_sources
from nhfair_jax.methods import get_method
from nhfair_jax.metrics import split_metrics
from nhfair_jax.rundir import RunDir
from nhfair_jax.training import outcome
from nhfair_jax.training.setup import restore_best

INPUTS = ("features", "logits")


def cache_path(base_dir: str, kind: str, split: str) -> str:
    """Where a base run caches a post-fit method's inputs of one split."""
    return os.path.join(base_dir, f"postfit_{kind}_{split}.npy")


def cached_inputs(base_dir: str, kind: str, splits) -> dict | None:
    """{split: array} when the base run's cache holds every split, else None."""
    paths = {split: cache_path(base_dir, kind, split) for split in splits}
    if not all(os.path.exists(p) for p in paths.values()):
        return None
    return {split: np.load(p) for split, p in paths.items()}


def base_inputs(evaluator, state, base_dir: str, kind: str, splits) -> dict:
    """{split: features [N, D] or logits [N, C]} of the best checkpoint, read from the base run's
    `postfit_<kind>_<split>.npy` cache when there (a finished run never changes), else computed
    once and cached (written atomically), so a sweep of many post-fit trials pays the forward
    passes once."""
    if kind not in INPUTS:
        raise ValueError(f"a post-fit method's inputs must be one of {INPUTS}, got {kind!r}")
    out = {}
    for split in splits:
        path = cache_path(base_dir, kind, split)
        if os.path.exists(path):
            out[split] = np.load(path)
            continue
        values = (evaluator.cached_features(state, split) if kind == "features"
                  else evaluator.predict(state, split))
        out[split] = np.asarray(values, np.float32)
        rundir.atomic_write(path, lambda f, a=out[split]: np.save(f, a), mode="wb")
    return out


def _inputs_and_sources(method, base_config, base_dir: str):
    """(inputs, sources) of the base run. With every input cached only the data's labels and
    groups are read: no model, no checkpoint, no forward pass (a sweep's later trials)."""
    splits = method.input_splits()
    inputs = cached_inputs(base_dir, method.inputs, splits)
    if inputs is not None:
        return inputs, config_sources(base_config)
    evaluator, state = restore_best(base_config, base_dir)
    return base_inputs(evaluator, state, base_dir, method.inputs, splits), evaluator.sources


def post_fit(config, workdir, base_config, base_dir: str) -> dict:
    """Fits the post-fit method of `config` on the finished ERM run `base_dir` (of config
    `base_config`) and writes the run directory `workdir`; returns result.json's content."""
    t0 = time.perf_counter()
    out = RunDir(workdir)
    os.makedirs(out.path, exist_ok=True)
    method = get_method(config.method)
    inputs, sources = _inputs_and_sources(method, base_config, base_dir)
    num_classes, num_groups = sources["train"].num_classes, sources["train"].num_groups
    info = {"num_classes": num_classes, "num_groups": num_groups,
            "dataset": config.data.name, "utility": config.eval.utility}
    # the method's own random draws follow the run's seed (a seed re-run draws anew), the data
    # split follows data.split_seed (the base run's, through its config)
    fitted, tuned = method.fit(inputs, sources, config.seed, info)
    reports = {}
    for split, (rows, logits) in fitted.items():
        source = sources[split]
        reports[split] = split_metrics(source.labels[rows], source.groups[rows], logits,
                                       num_classes=num_classes, num_groups=num_groups,
                                       utility=config.eval.utility)
        outcome.write_predictions(out, split, source, logits, rows=rows)
    base_result = RunDir(base_dir).result()
    # the model's epochs are the base run's: its early stopping, as it ran
    return outcome.write_result(
        out, config, sources, reports, base_run=base_dir,
        base_test={k: base_result["test"][k] for k in ("acc", "worst_acc", "gap_acc", "dp",
                                                      "eqodd")},
        split_sizes={s: len(rows) for s, (rows, _) in fitted.items()},
        best_epoch=base_result["best_epoch"], epochs_run=base_result["epochs_run"],
        stopped_early=base_result.get("stopped_early"), monitor=base_result.get("monitor"),
        tuned=tuned, timings_s={"post_fit": time.perf_counter() - t0})
