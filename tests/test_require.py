"""The no-silent-skip rule: `need()` skips a test (or a whole test file) when an optional piece is
missing, fails it when NHFAIR_REQUIRE names the piece, and under NHFAIR_REQUIRE=all no test may
skip at all; `python tests/helpers.py` (what .ci/run calls) names every missing piece and exits 1.
Each case runs pytest in a child process on a small test file, with the repository's conftest
loaded as a plugin, as CI loads it."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.helpers import REPO

ABSENT = ('from tests import helpers\n'
          'helpers.PIECES["absent"] = ("module", "nhfair_no_such_module", "pip install it")\n')


def pytest_on(tmp_path, body: str, require: str | None):
    path = tmp_path / "test_child.py"
    path.write_text(body)
    (tmp_path / "test_other.py").write_text("def test_other():\n    pass\n")  # the session
    env = {k: v for k, v in os.environ.items()
           if k not in ("NHFAIR_REQUIRE", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    env["PYTHONPATH"] = REPO
    if require is not None:
        env["NHFAIR_REQUIRE"] = require
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "tests.conftest", str(tmp_path)], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300)
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (passed|skipped|failed|error)",
                                                      proc.stdout))
    return proc, counts


@pytest.mark.slow
def test_a_missing_piece_at_module_level_skips_the_file_not_the_session(tmp_path):
    proc, counts = pytest_on(tmp_path, ABSENT + 'helpers.need("absent")\n'
                             'def test_one():\n    pass\n', require=None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert counts == {"passed": 1, "skipped": 1}, proc.stdout
    proc, counts = pytest_on(tmp_path, ABSENT + 'def test_one():\n    helpers.need("absent")\n'
                             'def test_two():\n    pass\n', require="")
    assert counts == {"passed": 2, "skipped": 1}, proc.stdout


@pytest.mark.slow
def test_a_piece_named_in_nhfair_require_fails_instead_of_skipping(tmp_path):
    body = ABSENT + 'def test_one():\n    helpers.need("absent")\n'
    proc, counts = pytest_on(tmp_path, body, require="torch, absent")
    assert proc.returncode == 1 and counts == {"failed": 1, "passed": 1}, proc.stdout
    assert "NHFAIR_REQUIRE lists absent" in proc.stdout
    assert "pip install it" in proc.stdout
    # at module level the file's collection fails, which stops the session (exit status 2)
    proc, counts = pytest_on(tmp_path, ABSENT + 'helpers.need("absent")\n'
                             'def test_one():\n    pass\n', require="absent")
    assert proc.returncode == 2 and counts == {"error": 1}, proc.stdout
    assert "NHFAIR_REQUIRE lists absent" in proc.stdout


@pytest.mark.slow
def test_under_require_all_no_test_may_skip(tmp_path):
    body = ('import pytest\n'
            'def test_skips():\n    pytest.skip("no reason at all")\n'
            'def test_passes():\n    pass\n')
    proc, counts = pytest_on(tmp_path, body, require="all")
    assert proc.returncode == 1 and counts == {"failed": 1, "passed": 2}, proc.stdout
    assert "allows no skip: " in proc.stdout and "no reason at all" in proc.stdout
    proc, counts = pytest_on(tmp_path, body, require="torch")  # one piece named: skips allowed
    assert proc.returncode == 0 and counts == {"passed": 2, "skipped": 1}, proc.stdout


@pytest.mark.slow
def test_the_ci_check_names_each_missing_piece_and_fails(tmp_path):
    """torch made unimportable (a package of that name that raises), no chromium and no node on
    PATH, PostgreSQL's URL unset: each is one line, and the exit status is 1."""
    blocked = tmp_path / "blocked" / "torch"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text('raise ImportError("blocked by the test")\n')
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "NHFAIR_PG_URL"}
    env.update(PYTHONPATH=str(tmp_path / "blocked"), PATH=str(empty))
    proc = subprocess.run([sys.executable, os.path.join(REPO, "tests", "helpers.py")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    named = {line.split()[1] for line in lines}
    assert {"torch", "chromium", "node", "postgres"} <= named, proc.stderr
    assert all(line.startswith("ci: ") for line in lines), proc.stderr
    assert any("blocked by the test" in line and "torch==2.13.0" in line for line in lines)


def test_the_readme_test_command_is_the_one_ci_runs():
    readme = open(os.path.join(REPO, "README.md")).read()
    ci = open(os.path.join(REPO, ".ci", "run")).read().strip().splitlines()
    command = ci[-1].strip()
    assert command.startswith("python -m pytest"), command
    assert f"\n{command}\n" in readme, "README's test command differs from .ci/run's last line"
