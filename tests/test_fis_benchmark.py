"""benchmarks/fis.py's training comparison: ERM and FIS alternate, the heads interleave, each
head's runs import its own checkout, and best and median come from the runs recorded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

from tests.helpers import REPO

sys.path.insert(0, os.path.join(REPO, "benchmarks"))
import fis as fis_benchmark  # noqa: E402


def test_heads_interleave_and_each_imports_its_own_checkout(monkeypatch, tmp_path):
    calls = []
    seconds = iter([5.0, 7.0, 6.0, 9.0, 4.0, 8.0, 5.5, 9.5, 6.0, 6.5, 7.0, 10.0])

    def fake_run(cmd, *, env, cwd, **kwargs):
        calls.append((cmd[-2], env.get("PYTHONPATH", ""), cwd))
        out = {"seconds": next(seconds), "test_acc": 0.9, "test_dp": 0.1}
        return types.SimpleNamespace(stdout="log line\n" + json.dumps(out) + "\n")

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    times = fis_benchmark.training_times(15, 3, {"this": None, "baseline": str(tmp_path)})
    assert [c[0] for c in calls] == ["erm", "fis"] * 6
    assert [c[1] == str(tmp_path) for c in calls] == [False, False, True, True] * 3
    assert all(c[2] == str(tmp_path) for c in calls if c[1])
    assert times["this"]["erm"]["all_seconds"] == [5.0, 4.0, 6.0]
    assert times["this"]["erm"]["seconds"] == 4.0 and times["this"]["erm"]["median_seconds"] == 5.0
    assert times["baseline"]["fis"]["all_seconds"] == [9.0, 9.5, 10.0]
    assert times["baseline"]["fis"]["seconds"] == 9.0
    assert times["baseline"]["fis"]["median_seconds"] == 9.5
    # each repeat's FIS over the ERM run beside it: 8/4, 7/5, 6.5/6 for this head
    assert fis_benchmark.paired_median(times["this"]["fis"]["all_seconds"],
                                       times["this"]["erm"]["all_seconds"]) == 7.0 / 5.0
