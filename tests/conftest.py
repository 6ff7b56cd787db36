"""Test-session setup (the XLA compilation cache, the package's XLA flags, NHFAIR_REQUIRE's
no-skip rule) and the fixtures several test files share; helpers live in tests/helpers.py."""

from __future__ import annotations

import os
import tempfile

# A persistent XLA compilation cache for the tests, shared by pytest-xdist's workers and the CLI
# subprocesses and kept between runs: the tests compile the same tiny programs (the tiny
# config's train and eval steps) hundreds of times, and on two cores compilation is most of a
# short run. Set before JAX is imported. A cache key covers the program, the JAX version and the
# compiler's flags, so a hit is the same executable.
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", os.path.join(
    tempfile.gettempdir(), f"nhfair-jax-test-xla-cache-{os.getuid()}"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
os.environ.setdefault("JAX_COMPILATION_CACHE_MAX_SIZE", str(4 << 30))  # bytes, oldest go first

# The package's runtime settings (the XLA CPU flags of nhfair_jax/xla_flags.py) in force for
# every test, as for a user of the commands: set here, before any test module can start a JAX
# backend. The cache folder is the tests' own, set above (JAX's variable, which setup leaves).
from nhfair_jax import runtime  # noqa: E402

runtime.setup()
import pytest  # noqa: E402

from tests.helpers import strict  # noqa: E402


def _as_failure(report) -> None:
    """A skip under NHFAIR_REQUIRE=all (CI) becomes a failure that says why it skipped."""
    if report.skipped and not hasattr(report, "wasxfail") and strict():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under NHFAIR_REQUIRE=all, which allows no skip: {reason}"


def pytest_configure(config):
    import tests.helpers

    # before the test modules are imported: their Hypothesis settings read it
    tests.helpers.QUICK_SUITE = "not slow" in " ".join(config.getoption("markexpr").split())


# The files that take longest on a cold compilation cache (as in CI), longest first: run first,
# so that pytest-xdist's `--dist loadfile`, which hands out whole files one at a time in
# collection order (with `--no-loadscope-reorder`, set in pyproject.toml: by default it orders
# them by their number of tests, which put the few long tests last), does not leave one of them
# last on one worker while the other idles. From `--durations` on a fresh TMPDIR; a file not
# named keeps its place after these.
LONGEST_FIRST = (
    "test_xla_flags.py", "test_workers.py", "test_if_methods.py", "test_cf_study.py",
    "test_models_layers.py", "test_regularisers.py", "test_resnet.py", "test_programs.py",
    "test_device_augment.py", "test_methods.py", "test_laftr.py", "test_fis.py",
    "test_cf_methods.py", "test_cli.py", "test_overhead.py", "test_benchmark.py",
    "test_gf_baselines.py", "test_dfr.py", "test_per_example.py", "test_gpu_benchmark.py",
    "test_compile_once.py", "test_if_defaults.py", "test_conv_layers_benchmark.py",
    "test_training.py", "test_train_step_benchmark.py", "test_lvlm_served.py", "test_fscl.py",
    "test_zeroshot.py", "test_worker_kills.py", "test_faults.py", "test_architecture.py",
    "test_sharding.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's order kept


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _as_failure(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _as_failure(outcome.get_result())


@pytest.fixture(scope="session", autouse=True)
def _full_float32_products_on_accelerators():
    """On a GPU, float32 products at full precision: its default (TF32) rounds them to about
    1e-3 and the tests compare computations to 1e-5. The CPU's are full precision already, so
    its programs (and the compilation cache's keys) stay as they are."""
    import jax

    if jax.default_backend() != "cpu":
        jax.config.update("jax_default_matmul_precision", "highest")
    yield


@pytest.fixture(scope="session")
def tiny_erm(tmp_path_factory):
    """(run directory, result) of the tiny ERM run (tests.helpers.tiny_config(): 2 epochs of a
    narrow CNN), trained once per test process: the reference run of the trainer's tests, the
    base run of post-fit tests (`base_config` its config.json) and a finished teacher. Tests
    read it and must not change it."""
    from nhfair_jax.dispatch import run
    from tests.helpers import tiny_config

    workdir = tmp_path_factory.mktemp("tiny_erm") / "run"
    return str(workdir), run(tiny_config(), workdir)
