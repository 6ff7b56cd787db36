"""The CLI as a user runs it: end to end, overrides, bad input, and resume after a real kill."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import (
    REPO,
    TINY_FLAGS,
    assert_same_run,
    log_without_timings,
    run_cli,
    tiny_config,
)

CFG = ["--config", "configs/erm_digitsb.py"]
COMPARED = ("acc", "worst_acc", "gap_acc", "dp", "eqodd", "auc", "loss", "group_acc")


def _result(workdir):
    with open(os.path.join(workdir, "result.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted 3-epoch run to compare resumed runs against."""
    workdir = str(tmp_path_factory.mktemp("reference"))
    proc = run_cli(*CFG, "--workdir", workdir, "--config.train.epochs=3", *TINY_FLAGS)
    assert proc.returncode == 0, proc.stderr
    return workdir, proc


@pytest.mark.slow
def test_end_to_end_run_prints_a_summary_and_writes_the_run_directory(reference):
    workdir, proc = reference
    assert "erm on digitsb: best epoch" in proc.stdout
    assert "test accuracy by group: clean=" in proc.stdout
    for name in ("config.json", "log.jsonl", "result.json", "predictions_val.npz",
                 "predictions_test.npz"):
        assert os.path.exists(os.path.join(workdir, name)), name
    config = json.load(open(os.path.join(workdir, "config.json")))
    assert config["train"]["epochs"] == 3 and config["model"]["cnn_widths"] == [8, 16, 32]


@pytest.mark.slow
def test_finished_run_is_not_retrained(reference):
    workdir, _ = reference
    before = os.path.getmtime(os.path.join(workdir, "result.json"))
    # Progress bars back on: a presentation setting, not a different config.
    proc = run_cli(*CFG, "--workdir", workdir, "--config.train.epochs=3", TINY_FLAGS[0],
                   "--config.train.progress=True")
    assert proc.returncode == 0 and "already finished" in proc.stderr
    assert os.path.getmtime(os.path.join(workdir, "result.json")) == before


@pytest.mark.slow
def test_typed_overrides_reach_the_resolved_config_in_a_relative_workdir(tmp_path):
    # As in the README: a workdir relative to where the command runs.
    proc = run_cli("--config", os.path.join(REPO, "configs", "erm_digitsb.py"), "--workdir",
                   "runs/rel", "--config.optim.name=sgd", "--config.optim.lr=3e-4",
                   "--config.train.epochs=1", *TINY_FLAGS, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    workdir = tmp_path / "runs" / "rel"
    config = json.load(open(workdir / "config.json"))
    assert config["optim"] == {**config["optim"], "name": "sgd", "lr": 3e-4}
    assert len(open(workdir / "log.jsonl").readlines()) == 1
    assert os.listdir(workdir / "checkpoints") == ["epoch_1.msgpack"]  # latest and best


@pytest.mark.slow
@pytest.mark.parametrize("flag, message", [
    ("--config.optim.lrr=1", '--config.optim.lrr: no such config key; Did you mean "lr"'),
    ("--config.nope.x=1", "--config.nope.x: no such config key"),
    ("--config.train.epochs=abc", "--config.train.epochs=abc: invalid literal for int()"),
    ("--config.method.name=fancy", "unknown method 'fancy'; known: bias_mimicking, "),
])
def test_bad_overrides_are_one_line_errors_naming_the_key(tmp_path, flag, message):
    proc = run_cli(*CFG, "--workdir", str(tmp_path / "w"), flag)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not os.path.exists(tmp_path / "w" / "result.json")


@pytest.mark.slow
def test_real_data_config_without_data_says_where_to_look(tmp_path):
    proc = run_cli("--config", "configs/dataset.py:celeba", "--workdir", str(tmp_path),
                   "--config.data.root=/no/such/celeba")
    assert proc.returncode != 0
    assert proc.stderr.strip() == "error: data not found at /no/such/celeba; see data/README.md"


@pytest.mark.slow
def test_unwritable_workdir_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    proc = run_cli(*CFG, "--workdir", str(blocker / "run"))
    assert proc.returncode != 0
    assert f"cannot write to workdir {blocker / 'run'}" in proc.stderr
    assert blocker.read_text() == "not a folder"


@pytest.mark.slow
def test_a_different_config_is_refused_and_overwrite_starts_afresh(reference, tmp_path):
    ref_dir, _ = reference
    workdir = str(tmp_path / "copy")
    shutil.copytree(ref_dir, workdir)
    proc = run_cli(*CFG, "--workdir", workdir, "--config.train.epochs=3",
                   "--config.optim.lr=0.5", *TINY_FLAGS)
    assert proc.returncode != 0 and "holds a run of a different config" in proc.stderr
    assert "optim.lr" in proc.stderr
    assert os.path.exists(os.path.join(workdir, "result.json"))  # nothing lost
    proc = run_cli(*CFG, "--workdir", workdir, "--config.train.epochs=1", "--config.optim.lr=0.5",
                   "--overwrite", *TINY_FLAGS)
    assert proc.returncode == 0, proc.stderr
    assert json.load(open(os.path.join(workdir, "config.json")))["optim"]["lr"] == 0.5
    assert len(open(os.path.join(workdir, "log.jsonl")).readlines()) == 1
    assert _result(workdir)["epochs_run"] == 1


def _start(workdir):
    return subprocess.Popen([sys.executable, "-m", "nhfair_jax.run", *CFG, "--workdir", workdir,
                             "--config.train.epochs=3", *TINY_FLAGS], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for_epochs(workdir, proc, n, timeout=300):
    log = os.path.join(workdir, "log.jsonl")
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(log) and len(open(log).readlines()) >= n:
            return
        assert proc.poll() is None, "the run ended before it could be killed"
        time.sleep(0.05)
    raise TimeoutError(f"no epoch {n} within {timeout}s")


@pytest.mark.slow
def test_killed_run_resumes_and_ends_with_the_same_numbers(reference, tmp_path):
    ref_dir, _ = reference
    workdir = str(tmp_path / "killed")
    # SIGKILL just after epoch 1 is logged (possibly mid-checkpoint of nothing, mid-epoch 2).
    proc = _start(workdir)
    _wait_for_epochs(workdir, proc, 1)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not os.path.exists(os.path.join(workdir, "result.json"))
    # SIGTERM partway through epoch 3 of the resumed run.
    proc = _start(workdir)
    _wait_for_epochs(workdir, proc, 2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    proc = run_cli(*CFG, "--workdir", workdir, "--config.train.epochs=3", *TINY_FLAGS)
    assert proc.returncode == 0, proc.stderr
    ref, got = _result(ref_dir), _result(workdir)
    assert got["best_epoch"] == ref["best_epoch"]
    for split in ("val", "test"):
        for key in COMPARED:
            assert got[split][key] == ref[split][key], (split, key)
    assert [e["epoch"] for e in log_without_timings(workdir)] == [1, 2, 3]
    # every epoch's log line and the checkpoints' parameters, as the uninterrupted run's
    assert_same_run(tiny_config(**{"train.epochs": 3}), workdir, ref_dir)


def _path_manifest(tmp_path, n=80):
    """A user's CSV manifest whose image column is called `path`, not `image`."""
    from tests.test_store import _images

    names = _images(tmp_path / "pics", n)
    rows = ["path,label,group"] + [f"pics/{name},{'cat' if i % 3 else 'dog'},"
                                   f"{'dark' if i % 2 else 'light'}"
                                   for i, name in enumerate(names)]
    (tmp_path / "m.csv").write_text("\n".join(rows) + "\n")
    return str(tmp_path / "m.csv")


@pytest.mark.slow
def test_a_failed_start_does_not_lock_the_run_directory(tmp_path):
    manifest = _path_manifest(tmp_path)
    workdir = str(tmp_path / "mine")
    args = ["--config", "configs/dataset.py:csv", "--workdir", workdir,
            f"--config.data.root={manifest}",
            "--config.data.sensitive=group", f"--config.data.cache_dir={tmp_path / 'cache'}",
            "--config.data.image_size=16", "--config.train.batch_size=16",
            "--config.train.eval_batch_size=16", "--config.train.epochs=1", *TINY_FLAGS]
    proc = run_cli(*args)
    assert proc.returncode != 0 and "image" in proc.stderr
    assert os.listdir(workdir) == ["config.json"]  # the failed start left only its config
    proc = run_cli(*args, "--config.data.options.image_col=path")
    assert proc.returncode == 0, proc.stderr
    assert "held no trained epoch; it now belongs to this config" in proc.stderr
    assert "data.options.image_col" in proc.stderr
    config = json.load(open(os.path.join(workdir, "config.json")))
    assert config["data"]["options"]["image_col"] == "path"
    assert _result(workdir)["dataset"] == "csv"


def test_a_directory_with_a_finished_epoch_stays_protected(tmp_path):
    from nhfair_jax.errors import UserError
    from nhfair_jax.rundir import RunDir
    from tests.helpers import tiny_config

    workdir = str(tmp_path / "w")
    RunDir(workdir).prepare(tiny_config())
    assert not RunDir(workdir).has_started()
    RunDir(workdir).prepare(tiny_config(**{"optim.lr": 0.1}))  # taken over: nothing trained
    with open(os.path.join(workdir, "log.jsonl"), "w") as f:
        f.write('{"epoch": 1}\n')
    assert RunDir(workdir).has_started()
    with pytest.raises(UserError, match="holds a run of a different config .*optim.lr"):
        RunDir(workdir).prepare(tiny_config(**{"optim.lr": 0.2}))
    assert json.load(open(os.path.join(workdir, "config.json")))["optim"]["lr"] == 0.1
    os.remove(os.path.join(workdir, "log.jsonl"))
    os.makedirs(os.path.join(workdir, "checkpoints", "latest"))
    with pytest.raises(UserError, match="different config"):
        RunDir(workdir).prepare(tiny_config(**{"optim.lr": 0.2}))


def test_a_bug_prints_its_traceback_and_a_mistake_stays_one_line(capsys):
    from nhfair_jax.cli import fail_with
    from nhfair_jax.errors import UserError

    with pytest.raises(SystemExit):
        fail_with(UserError("data not found at /x; see data/README.md"))
    err = capsys.readouterr().err
    assert err == "error: data not found at /x; see data/README.md\n"
    try:
        {}["missing"]
    except KeyError as e:
        with pytest.raises(SystemExit):
            fail_with(e)
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and 'KeyError: \'missing\'' in err
    assert err.strip().splitlines()[-1].startswith("error: KeyError: 'missing' (a bug?")


@pytest.mark.slow
@pytest.mark.parametrize("config, message", [
    ("configs/nope.py", "error: --config configs/nope.py: no such file; configs/ has "),
    ("configs/dataset.py:celeb", "error: --config: unknown data set 'celeb' (did you mean "
                                 "'celeba'?); known: celeba"),
    ("configs/digitsb.py:mixpu", "error: --config: unknown method 'mixpu' (did you mean "
                                 "'mixup'?)"),
])
def test_a_bad_config_argument_is_one_line_naming_what_is_allowed(tmp_path, config, message):
    proc = run_cli("--config", config, "--workdir", str(tmp_path / "w"))
    assert proc.returncode != 0
    assert proc.stderr.startswith(message), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not os.path.exists(tmp_path / "w")
