"""benchmarks/conv_layers.py --smoke: every layer runs in both frameworks and the JSON names the
implementation `conv_impl="auto"` picks for it on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import REPO
from tests.helpers import need


@pytest.mark.slow
def test_conv_layers_benchmark_smoke_writes_every_layer(tmp_path):
    need("torch")  # the PyTorch column of every row
    out = tmp_path / "conv_layers.json"
    proc = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks", "conv_layers.py"),
                           "--smoke", "--json", str(out)], capture_output=True, text=True,
                          timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 9
    impls = [r["jax_impl"] for r in rows]
    assert impls[0] == "taps" and impls[-1] == "tap_matmuls"
    assert impls[4] == "xla"
    for r in rows:  # XLA's own beside every other choice
        assert (r["jax_impl"] == "xla") == ("xla_dw" not in r)
    for r in rows:
        assert all(r[f"jax_{key}"] > 0 for key in ("fwd", "dx", "dw"))
    assert all(r["dw_jax_over_torch"] > 0 and r["torch_fwd"] > 0 for r in rows)
