"""nhfair_jax/runtime.py: importing the package changes nothing in the process; the commands
(and a notebook that asks) turn the XLA flags and the compilation cache on with setup()."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.helpers import REPO


def _python(code: str, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items()  # as a user's shell: none of the tests' own
               if k not in ("XLA_FLAGS", "NHFAIR_COMPILE_CACHE") and not k.startswith("JAX_")}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=environ,
                          capture_output=True, text=True, timeout=300)


def test_the_metrics_import_neither_jax_nor_scipy_and_the_package_sets_nothing():
    out = _python("""
        import os, sys
        import nhfair_jax, nhfair_jax.metrics as metrics
        assert "jax" not in sys.modules, "jax imported"
        assert "scipy.stats" not in sys.modules, "scipy.stats imported"
        assert "XLA_FLAGS" not in os.environ, os.environ["XLA_FLAGS"]
        assert not any(k.startswith("JAX_") for k in os.environ), sorted(os.environ)
        r = metrics.fairness_report([0, 1, 1, 0], [0, 1, 0, 0], [0, 0, 1, 1],
                                    y_score=[.1, .9, .4, .2])
        assert "jax" not in sys.modules, "jax imported by fairness_report"
        print(r["acc"])
        """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0.75"


def test_setup_turns_the_flags_and_the_cache_on(tmp_path):
    out = _python(f"""
        import os
        from nhfair_jax import runtime, xla_flags
        done = runtime.setup({str(tmp_path / 'cache')!r})
        assert done["xla_flags"] == xla_flags.flags_to_add({{}}), done
        assert all(f in os.environ["XLA_FLAGS"] for f in done["xla_flags"])
        assert done["compile_cache"] == {str(tmp_path / 'cache')!r}, done
        assert runtime.setup({str(tmp_path / 'cache')!r})["xla_flags"] == []  # once a process
        import jax
        assert jax.config.jax_compilation_cache_dir == {str(tmp_path / 'cache')!r}
        """)
    assert out.returncode == 0, out.stderr


@pytest.mark.slow
def test_importing_every_command_leaves_jax_as_it_found_it():
    """The command modules import JAX but neither configure it nor start a backend: XLA still
    reads XLA_FLAGS set after the imports (an unknown flag then aborts the first computation,
    which it could not if a backend had started during the imports)."""
    out = _python("""
        import os
        import jax
        before = (jax.config.jax_compilation_cache_dir, jax.config.jax_enable_x64)
        import nhfair_jax.run, nhfair_jax.benchmark, nhfair_jax.evaluate, nhfair_jax.report
        import nhfair_jax.study.counterfactual, nhfair_jax.lvlm.run, nhfair_jax.dispatch
        assert "XLA_FLAGS" not in os.environ, os.environ["XLA_FLAGS"]
        assert (jax.config.jax_compilation_cache_dir, jax.config.jax_enable_x64) == before
        os.environ["XLA_FLAGS"] = "--xla_no_such_flag_nhfair=1"
        print("imports done", flush=True)
        jax.numpy.ones(2).block_until_ready()
        print("backend started before the flag")
        """)
    assert "imports done" in out.stdout, out.stderr
    assert "backend started before the flag" not in out.stdout
    assert out.returncode != 0 and "xla_no_such_flag_nhfair" in out.stderr, out.stderr[-2000:]
