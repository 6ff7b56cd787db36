"""benchmarks/frozen_phase.py on a tiny FSCL config: both modes run, phase 2 is timed, and the
cached mode's phase-2 epochs do not put images through the encoder (they are faster)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import REPO


@pytest.mark.slow
def test_frozen_phase_benchmark_writes_both_modes(tmp_path):
    config = tmp_path / "fscl_tiny.py"
    config.write_text(
        "import sys\n"
        f"sys.path.insert(0, {REPO!r})\n"
        "from nhfair_jax.config import method_config\n"
        "from tests.helpers import tiny_config\n"
        "def get_config():\n"
        "    c = tiny_config(**{'train.epochs': 5, 'data.image_size': 16})\n"
        "    c.method = method_config('fscl', contrastive_fraction=0.4)\n"
        "    return c\n")
    out = tmp_path / "frozen.json"
    proc = subprocess.run([sys.executable, os.path.join(REPO, "benchmarks", "frozen_phase.py"),
                           "--config", str(config), "--json", str(out)], capture_output=True,
                          text=True, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    runs = {r["mode"]: r for r in result["runs"]}
    assert set(runs) == {"augmented", "cached"}
    for r in runs.values():
        assert r["epochs"] == 5 and r["phase2_epochs"] == 3 and r["phase2_train_s"] > 0
    assert result["phase2_train_augmented_over_cached"] > 1.0
