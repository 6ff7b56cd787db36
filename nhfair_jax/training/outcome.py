"""The one writer of a run's outcome, for every kind of run (trained, post-fit, zero-shot): the
predictions of each split and result.json, whose keys are the same for every kind
(`OUTCOME_KEYS`; a kind adds its own beside them), so selection and the reports read any run
alike."""

from __future__ import annotations

import numpy as np

import nhfair_jax
from nhfair_jax.metrics import softmax

# What every result.json holds, whatever trained (or fitted, or scored) the model.
OUTCOME_KEYS = ("val", "test", "method", "dataset", "seed", "version", "num_classes",
                "num_groups", "class_names", "group_names", "split_sizes", "train_group_size",
                "best_epoch", "epochs_run", "stopped_early", "monitor", "timings_s",
                "warnings")


def write_predictions(rundir, split: str, source, logits, rows=None, **views) -> None:
    """predictions_<split>.npz: index, label, group, logits, the softmax score and any edited
    views (logits_cf, ...), of the source's rows (`rows`: a subset, in that order)."""
    take = (lambda a: a) if rows is None else (lambda a: np.asarray(a)[rows])
    logits = np.asarray(logits)
    rundir.write_predictions(split, index=take(source.indices), label=take(source.labels),
                             group=take(source.groups), logits=logits.astype(np.float32),
                             score=softmax(logits.astype(np.float64)).astype(np.float32),
                             **views)


def write_result(rundir, config, sources: dict, reports: dict, **fields) -> dict:
    """Writes result.json: the val and test `reports`, what identifies the run and its data
    (from `config` and the training source), and the kind's `fields` (best_epoch, epochs_run,
    stopped_early, monitor and timings_s among them; `split_sizes` when not every row of a
    source was evaluated). Returns it."""
    train = sources["train"]
    num_groups = train.num_groups
    result = {
        "val": reports["val"], "test": reports["test"],
        "method": config.method.name, "dataset": config.data.name,
        "seed": config.seed, "version": nhfair_jax.__version__,
        "num_classes": train.num_classes, "num_groups": num_groups,
        "class_names": train.class_names, "group_names": train.group_names,
        "split_sizes": {s: len(src) for s, src in sources.items()},
        "train_group_size": np.bincount(train.groups, minlength=num_groups).tolist(),
        # what the data's checks said (a one-member group, an image of another size)
        "warnings": sorted({w for s in sources.values() for w in getattr(s, "warnings", ())}),
        **fields,
    }
    missing = [k for k in OUTCOME_KEYS if k not in result]
    if missing:
        raise ValueError(f"a run's outcome lacks {missing}")
    rundir.write_result(result)
    return result
