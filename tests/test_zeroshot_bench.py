"""Zero-shot rows in the benchmark: CLIP (one run, nothing to search) and SFID (swept and
selected like any method) next to ERM on DigitsB, in the same report."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.helpers import need

need("transformers")

from nhfair_jax.benchmark import run_benchmark  # noqa: E402
from tests.bench_helpers import bench_config  # noqa: E402
from tests.test_zeroshot import write_tiny_clip  # noqa: E402


def _bench(tmp_path, clip_dir):
    bench = bench_config(datasets=("digitsb",), methods=("erm", "clip", "sfid"), trials=2,
                         erm_trials=1, seeds=(0, 1))
    model = {"model": {"path": clip_dir, "embedding_cache": str(tmp_path / "cache")}}
    bench.method_overrides = {"clip": model, "sfid": model}
    return bench


@pytest.mark.slow
def test_zero_shot_rows_in_the_benchmark_report(tmp_path):
    clip_dir = write_tiny_clip(str(tmp_path / "clip"))
    workdir = str(tmp_path / "bench")
    out = run_benchmark(_bench(tmp_path, clip_dir), workdir)
    trials = os.path.join(workdir, "trials", "digitsb")
    assert len(os.listdir(os.path.join(trials, "clip"))) == 1  # nothing to search: one run
    assert len(os.listdir(os.path.join(trials, "sfid"))) == 2
    header = next(line for line in out["markdown"].splitlines() if "| erm" in line)
    assert "clip" in header and "sfid" in header
    rows = [line for line in out["markdown"].splitlines() if line.startswith("| digitsb")]
    assert rows, out["markdown"]
    for line in rows[:5]:  # utility, worst, gap, eqodd, dp: a number in every column
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert all("±" in c for c in cells[2:5]), line
    # the zero-shot run directory has the trainer's contract
    run = os.path.join(trials, "clip", os.listdir(os.path.join(trials, "clip"))[0])
    pred = np.load(os.path.join(run, "predictions_test.npz"))
    assert set(pred.files) == {"index", "label", "group", "logits", "score"}
    assert os.path.exists(os.path.join(run, "config.json"))
