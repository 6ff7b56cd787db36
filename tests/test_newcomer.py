"""What a new user meets first: one-line errors that say what is allowed, the resolved config
printed without running, the benchmark's progress lines, a raised trial budget accepted."""

from __future__ import annotations


import pytest

from nhfair_jax import cli
from nhfair_jax.benchmark import budget_raised
from nhfair_jax.benchmark.progress import Progress
from nhfair_jax.errors import UnknownName, UserError
from nhfair_jax.rundir import config_diff
from tests.helpers import REPO


def test_unknown_names_suggest_the_closest_and_list_the_rest():
    e = UnknownName("method", "gaprg", ["erm", "gapreg", "mixup"])
    assert str(e) == "unknown method 'gaprg' (did you mean 'gapreg'?); known: erm, gapreg, mixup"
    assert isinstance(e, UserError) and isinstance(e, ValueError)
    assert "did you mean" not in str(UnknownName("data set", "zzz", ["celeba", "digitsb"]))
    from nhfair_jax.methods import spec

    with pytest.raises(UnknownName, match="did you mean 'mixup'"):
        spec("mixpu")


def test_a_missing_config_file_is_named_with_the_folder_s_configs(monkeypatch):
    monkeypatch.chdir(REPO)
    msg = cli.missing_config_file(["prog", "--config", "configs/nope.py", "--workdir", "w"])
    assert msg.startswith("--config configs/nope.py: no such file; configs/ has ")
    assert "erm_digitsb.py" in msg and "\n" not in msg
    assert cli.missing_config_file(["prog", "--config=configs/digitsb.py:mixup"]) is None
    assert cli.missing_config_file(["prog", "--config=configs/nope.py:mixup"]).startswith(
        "--config configs/nope.py: no such file")


def test_the_config_file_s_own_error_is_found_under_the_wrappers():
    try:
        try:
            raise UnknownName("data set", "nosuch", ["celeba"])
        except ValueError as inner:
            raise ValueError("Error whilst parsing config file:\nTraceback ...") from inner
    except ValueError as outer:
        assert isinstance(cli.root_cause(outer), UnknownName)


def test_print_config_marks_what_an_override_changed(monkeypatch):
    from nhfair_jax.config import load_config_file

    monkeypatch.chdir(REPO)
    config = load_config_file("configs/erm_digitsb.py")
    config.optim.lr = 0.5
    lines = cli.config_lines(config, load_config_file("configs/erm_digitsb.py"))
    changed = [line for line in lines if "(default:" in line]
    assert changed == ["optim.lr = 0.5  (default: 0.002)"], changed
    assert "method.name = 'erm'" in lines and len(lines) > 20


def test_an_embedded_data_set_refuses_a_data_root():
    from nhfair_jax.data import get_sources

    with pytest.raises(ValueError, match="digitsb is generated in memory.*leave data.root empty"):
        get_sources("digitsb", "/some/folder")


@pytest.mark.parametrize("after, raised", [
    ({"trials": 6, "trials_per_method": {}, "seeds": [0, 1]}, True),
    ({"trials": 4, "trials_per_method": {"dfr": 8}, "seeds": [0, 1]}, True),
    ({"trials": 3, "trials_per_method": {}, "seeds": [0, 1]}, False),  # lower: finished trials
    ({"trials": 4, "trials_per_method": {"dfr": 2}, "seeds": [0, 1]}, False),
    ({"trials": 6, "trials_per_method": {}, "seeds": [0, 1, 2]}, False),  # not only a budget
])
def test_only_a_raised_trial_budget_takes_over_a_started_workdir(after, raised):
    before = {"trials": 4, "trials_per_method": {}, "seeds": [0, 1]}
    assert budget_raised(before, after, config_diff(before, after)) is raised


def test_progress_lines_count_runs_estimate_the_rest_and_summarise_earlier_ones():
    lines = []
    p = Progress(10, enabled=False, write=lines.append)
    p.finished_earlier(4)
    p.log("first")
    p._t0 -= 120  # two minutes for the two runs done here
    p.update(2)
    p.log("second")
    p.close()
    assert lines[0] == "[4/10 runs] first"  # no estimate before a run is done here
    assert lines[1] == "[6/10 runs, about 4 min left] second"
    assert lines[2] == "4 of the 10 runs were finished by an earlier invocation: read, not re-run"
