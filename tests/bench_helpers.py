"""A tiny benchmark config for the tests (a module of its own: benchmark config files written by
the tests import it without importing the benchmark command's flags)."""

from __future__ import annotations

import json
import os

import ml_collections

from tests.conftest import REPO

TINY = {"train": {"epochs": 1, "patience": 1, "progress": False, "batch_size": 64,
                  "eval_batch_size": 64},
        "model": {"cnn_widths": (8, 16, 32)}, "data": {"image_size": 16}}


def bench_config(datasets=("digitsb", "digitsb_skew95"), methods=("erm", "resampling", "dfr"),
                 trials=1, erm_trials=2, seeds=(0, 1), epochs=1):
    c = ml_collections.ConfigDict()
    specs = {"digitsb": {"config": os.path.join(REPO, "configs/erm_digitsb.py"),
                         "overrides": {}},
             "digitsb_skew95": {"config": os.path.join(REPO, "configs/erm_digitsb.py"),
                                "overrides": {"data": {"options": {"skew": 0.95}}}}}
    c.datasets = ml_collections.ConfigDict({d: specs[d] for d in datasets})
    c.methods = tuple(methods)
    c.trials = trials
    c.trials_per_method = ml_collections.ConfigDict({"erm": erm_trials})
    c.startup_trials = 50  # every trial random: a function of (seed, trial number) only
    c.seeds = tuple(seeds)
    c.objective = "worst"
    c.sampler_seed = 0
    tiny = json.loads(json.dumps(TINY))
    tiny["train"]["epochs"] = tiny["train"]["patience"] = epochs
    c.overrides = ml_collections.ConfigDict(tiny)
    c.heartbeat_s = 2
    c.grace_s = 6
    c.progress = False
    return c
