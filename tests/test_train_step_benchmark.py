"""benchmarks/train_step.py's torch worker: PyTorch's steps built and timed in a process of
their own, on request, in turn with steps timed in this process."""

from __future__ import annotations

import os
import sys

import pytest

from tests.helpers import REPO
from tests.helpers import need

sys.path.insert(0, os.path.join(REPO, "benchmarks"))


@pytest.mark.slow
def test_torch_worker_times_each_case_it_was_asked_to_warm():
    need("torch")
    import train_step

    worker = train_step._TorchWorker()
    try:
        small = train_step._RemoteStep(worker, "small_cnn", 16, 4)
        resnet = train_step._RemoteStep(worker, "resnet18", 16, 2)
        local = train_step._warm(train_step.jax_step("small_cnn", 16, 4))
        seconds = train_step._time_together({"jax": local, "small": small, "resnet": resnet},
                                            n=2, repeats=5)
        assert set(seconds) == {"jax", "small", "resnet"}
        assert all(0 < s < 60 for s in seconds.values())
        # each answer is its own case's step (ResNet-18 measured about 10x the small CNN; the
        # best of 5 rounds, as a stall of the shared cores once made a best of 2 small's 0.46 s)
        assert seconds["resnet"] > 3 * seconds["small"]
        with pytest.raises(RuntimeError, match="torch worker exited"):  # a case never warmed
            worker.ask("time small_cnn 8 4 1")
    finally:
        worker.proc.kill()
        worker.proc.wait()
