"""A tiny benchmark config for the tests (a module of its own: benchmark config files written by
the tests import it without importing the benchmark command's flags), and a stand-in for
training in the sweep's fast tests."""

from __future__ import annotations

import json
import os
import time
import types

import ml_collections

from tests.helpers import REPO

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


def config_file(tmp_path, **kw) -> str:
    """A configs/benchmark_*.py-style file building bench_config(**kw)."""
    import uuid

    path = tmp_path / f"bench_{uuid.uuid4().hex[:6]}.py"
    path.write_text(f"import sys\nsys.path.insert(0, {REPO!r})\n"
                    "from tests.bench_helpers import bench_config\n"
                    f"def get_config():\n    return bench_config(**{kw!r})\n")
    return str(path)


def worker_args(config: str, workdir: str, storage: str | None = None,
                report: bool = False) -> list[str]:
    """The command line of one benchmark worker."""
    import sys

    return [sys.executable, "-m", "nhfair_jax.benchmark", "--config", config, "--workdir",
            workdir, *(["--storage", storage] if storage else []),
            *([] if report else ["--no_report"])]


def postgres_url() -> str:
    """NHFAIR_PG_URL (a PostgreSQL server for the shared-study tests); skips the test without
    one, except on CI, which starts one (.ci/run)."""
    from tests.helpers import need

    return need("postgres")


class FakeTraining:
    """Stands in for training in the sweep's tests: writes a result whose validation numbers are
    a function of the run's parameters, and records every run it was asked to train."""

    def __init__(self, monkeypatch):
        from nhfair_jax import dispatch
        from nhfair_jax.sweep import runner

        self.calls = []
        monkeypatch.setattr(dispatch, "run", self)

        def alone(seconds):  # one worker: nobody else can finish a trial it waits for
            raise AssertionError(f"the sweep waited {seconds} s for other workers; it has none")

        monkeypatch.setattr(runner, "time", types.SimpleNamespace(
            sleep=alone, perf_counter=time.perf_counter, time=time.time))

    def __call__(self, config, workdir, progress=None, on_epoch=None):
        from nhfair_jax.rundir import RunDir, write_json

        # as dispatch.run: the directory prepared (config.json), a finished run read, not redone
        run_dir = RunDir(workdir)
        run_dir.prepare(config)
        if run_dir.finished:
            return run_dir.result()
        lr, wd = float(config.optim.lr), float(config.optim.weight_decay)
        self.calls.append((workdir, lr, wd, config.optim.name))
        val = {"utility": 0.5 + lr, "worst": 0.4 + lr, "gap": wd, "loss": 1.0 - lr}
        epochs = int(config.train.epochs)
        for epoch in range(1, epochs):  # as the loop: after every epoch but the last
            with open(os.path.join(workdir, "log.jsonl"), "a") as log:
                log.write(json.dumps({"epoch": epoch, "time_train_s": 1.0,
                                      "time_eval_s": 0.5}) + "\n")
            if on_epoch is not None:  # an exception (the pruner's) stops the run here
                on_epoch(epoch, {"epoch": epoch, "selectable": True,
                                 **{f"val_{k}": v for k, v in val.items()}})
        result = {"val": val, "test": dict(val)}
        write_json(os.path.join(workdir, "result.json"), result)
        return result


def findings(markdown: str) -> str:
    """A report's markdown without its "What the runs cost" section: seconds and compilations are
    measured, so they differ between two workdirs that hold the same runs; everything else is
    computed from the runs' results and must match."""
    head, sep, rest = markdown.partition("## What the runs cost")
    assert sep, "the report has no cost section: the helper no longer strips what it should"
    _, nxt, tail = rest.partition("\n## ")
    return head + (nxt + tail if nxt else "")
