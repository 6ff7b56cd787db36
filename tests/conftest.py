"""Shared fixtures: a tiny, fast DigitsB config and helpers to run the CLI as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A persistent XLA compilation cache for the tests, shared by pytest-xdist's workers and the CLI
# subprocesses and kept between runs: the tests compile the same tiny programs (the tiny
# config's train and eval steps) hundreds of times, and on two cores compilation is most of a
# short run. Set before JAX is imported. A cache key covers the program, the JAX version and the
# compiler's flags, so a hit is the same executable.
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", os.path.join(
    tempfile.gettempdir(), f"nhfair-jax-test-xla-cache-{os.getuid()}"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
os.environ.setdefault("JAX_COMPILATION_CACHE_MAX_SIZE", str(4 << 30))  # bytes, oldest go first

# The package's XLA CPU flags (nhfair_jax/xla_flags.py) in force for every test, as for a user:
# imported here, before any test module can start a JAX backend.
import nhfair_jax  # noqa: E402,F401
import pytest  # noqa: E402

from tests.helpers import strict  # noqa: E402


def _as_failure(report) -> None:
    """A skip under NHFAIR_REQUIRE=all (CI) becomes a failure that says why it skipped."""
    if report.skipped and not hasattr(report, "wasxfail") and strict():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under NHFAIR_REQUIRE=all, which allows no skip: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _as_failure(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _as_failure(outcome.get_result())


def tiny_config(**overrides):
    """DigitsB with a narrow small CNN: a few seconds per epoch on a 2-core CPU."""
    sys.path.insert(0, os.path.join(REPO, "configs"))
    from erm_digitsb import get_config

    c = get_config()
    c.model.cnn_widths = (8, 16, 32)
    c.train.epochs = 2
    c.train.batch_size = 64
    c.train.eval_batch_size = 64
    c.train.progress = False
    for key, value in overrides.items():
        node = c
        *parents, leaf = key.split(".")
        for p in parents:
            node = node[p]
        node[leaf] = value
    return c


TINY_FLAGS = ["--config.model.cnn_widths=(8, 16, 32)", "--config.train.progress=False"]


def run_cli(*args, env=None, timeout=600, module="nhfair_jax.run", cwd=REPO):
    """Runs `python -m <module> args...` in `cwd`; returns the CompletedProcess."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=timeout)


def erm_config_file(tmp_path, epochs: int = 1) -> str:
    """A configs/*.py-style file returning tiny_config for `epochs` (post-fit methods name one)."""
    path = tmp_path / f"erm_tiny_{epochs}.py"
    path.write_text(
        "import sys\n"
        f"sys.path.insert(0, {REPO!r})\n"
        "from tests.conftest import tiny_config\n"
        "def get_config():\n"
        f"    return tiny_config(**{{'train.epochs': {epochs}}})\n")
    return str(path)
