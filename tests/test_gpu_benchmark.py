"""benchmarks/gpu.sh: on a machine without an accelerator it says so and exits 0, writing
nothing; its --smoke mode runs every measured path (train step, also with the device
augmentation, all scoring paths with the torch.func twins, data parallel) with the small CNN
at 32 px and writes the JSON the README describes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers import REPO
from tests.helpers import need


@pytest.mark.slow
def test_without_an_accelerator_it_says_so_and_exits_0(tmp_path):
    out = tmp_path / "gpu.json"
    # The interpreter running the tests, however it was started (a virtual environment's
    # .venv/bin/python need not be the python on PATH): PATH holds only the one program the
    # script needs besides Python, so it runs only if it takes $PYTHON.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(shutil.which("dirname"), bin_dir / "dirname")
    proc = subprocess.run([shutil.which("bash"), os.path.join(REPO, "benchmarks", "gpu.sh"),
                           str(out)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHON": sys.executable, "PATH": str(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("no accelerator")
    assert not out.exists()


@pytest.mark.slow
def test_smoke_runs_every_path_and_writes_the_json(tmp_path):
    need("torch")  # the PyTorch rows need it (the torch extra)
    out = tmp_path / "gpu.json"
    proc = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks", "gpu.py"),
                           "--smoke", "--json", str(out)], capture_output=True, text=True,
                          timeout=900, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["smoke"] is True and result["train"]["px"] == 32
    assert result["train"]["model"] == "small_cnn"
    for key in ("jax", "torch", "jax_over_torch", "jax_device_augment",
                "device_augment_over_bare"):
        assert result["train"][key] > 0, key
    for key in ("jvp", "per_layer", "per_example", "per_example_xla", "per_layer_grads",
                "plain_vmap", "torch_func_vmap_grad", "torch_func_jvp"):
        assert result["scoring"][key] > 0, key
    assert result["data_parallel"]["devices"] >= 1
    assert result["data_parallel"]["efficiency"] > 0
