"""Post-fit methods (DFR, later OxonFair): fitted on a finished ERM run, written to a run
directory of their own with the same contract, so selection and reports treat them like any
other method."""

from __future__ import annotations

import os
import time

import numpy as np

import nhfair_jax
from nhfair_jax.methods import get_method
from nhfair_jax.training import io
from nhfair_jax.training.checkpoint import Checkpoints
from nhfair_jax.training.loop import Run, softmax, split_metrics


def post_fit_and_evaluate(config, workdir: str) -> dict:
    """Fits the post-fit method of `config` on its ERM run (trained first when missing)."""
    t0 = time.perf_counter()
    os.makedirs(workdir, exist_ok=True)
    method = get_method(config.method)
    base_config, base_dir = method.base_run()
    run = Run(base_config, None)
    ckpt = Checkpoints(base_dir)
    try:
        state, _ = ckpt.restore_best(run.state)
    finally:
        ckpt.close()
    fitted = method.fit_after(run, state, config.data.split_seed)
    reports = {}
    for split, (rows, logits) in fitted.items():
        source = run.sources[split]
        reports[split] = split_metrics(source.labels[rows], source.groups[rows], logits,
                                       num_classes=run.num_classes, num_groups=run.num_groups,
                                       utility=config.eval.utility)
        io.write_npz(os.path.join(workdir, f"predictions_{split}.npz"),
                     index=source.indices[rows], label=source.labels[rows],
                     group=source.groups[rows], logits=logits.astype(np.float32),
                     score=softmax(logits.astype(np.float64)).astype(np.float32))
    base_result = io.read_json(os.path.join(base_dir, "result.json"))
    result = {
        **reports, "method": config.method.name, "dataset": config.data.name,
        "seed": config.seed, "version": nhfair_jax.__version__, "base_run": base_dir,
        "base_test": {k: base_result["test"][k] for k in ("acc", "worst_acc", "gap_acc", "dp",
                                                         "eqodd")},
        "num_classes": run.num_classes, "num_groups": run.num_groups,
        "class_names": run.sources["train"].class_names,
        "group_names": run.sources["train"].group_names,
        "split_sizes": {s: len(rows) for s, (rows, _) in fitted.items()},
        "best_epoch": base_result["best_epoch"], "epochs_run": base_result["epochs_run"],
        "tuned": getattr(method, "tuned", None),
        "timings_s": {"post_fit": time.perf_counter() - t0},
    }
    io.write_json(os.path.join(workdir, "result.json"), result)
    return result
