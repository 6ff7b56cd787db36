"""Faults a cluster delivers (issue 52): a torn checkpoint, a log line cut short, a torn
params.json or result.json, and a full disk while a checkpoint, a result or the report is
written. Each is noticed, said in one line, and the rerun ends with an undisturbed run's
numbers; a failed write leaves nothing half-written behind."""

from __future__ import annotations

import errno
import os

import numpy as np
import pytest

from nhfair_jax import rundir as rundir_lib
from nhfair_jax.errors import UserError
from nhfair_jax.rundir import RunDir, WriteFailed
from nhfair_jax.training.checkpoint import Checkpoints, TornCheckpoint, frame, unframe
from tests.helpers import assert_same_run, log_without_timings, tiny_config


def _truncate(path, keep=0.5):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(int(size * keep))


def _state(value: float):
    return {"w": np.full((3, 4), value, np.float32), "b": np.arange(5, dtype=np.int32)}


def _save(ckpt, epoch, best):
    ckpt.save(epoch, _state(float(epoch)), {"epoch": epoch, "best_epoch": best,
                                            "history": [{"epoch": e} for e in
                                                        range(1, epoch + 1)]},
              is_best=epoch == best)


# --- the checkpoint's frame --------------------------------------------------------------


def test_a_frame_notices_a_cut_a_changed_byte_and_reads_an_old_file_as_it_is():
    payload = b"\x81\xa1a\x01" * 100
    data = frame(payload)
    assert unframe(data, "f") == payload
    for cut in (len(data) - 1, len(data) // 2, 10, 3):
        with pytest.raises(TornCheckpoint, match="f: "):
            unframe(data[:cut], "f")
    changed = bytearray(data)
    changed[-7] ^= 1
    with pytest.raises(TornCheckpoint, match="checksum"):
        unframe(bytes(changed), "f")
    assert unframe(payload, "f") == payload  # written before the header existed


def test_a_torn_newest_checkpoint_falls_back_to_the_best_one(tmp_path, capsys):
    ckpt = Checkpoints(str(tmp_path))
    for epoch in (1, 2, 3):
        _save(ckpt, epoch, best=2)
    assert ckpt.epochs() == [2, 3]
    _truncate(ckpt._path(3))
    state, meta = ckpt.restore_latest(_state(0.0))
    assert meta["epoch"] == 2 and float(state["w"][0, 0]) == 2.0
    assert ckpt.epochs() == [2]  # the torn file is gone
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("note: torn checkpoint ")
    assert "epoch_3.msgpack" in err[0] and err[0].endswith("resuming after epoch 2")


def test_a_torn_best_checkpoint_or_a_torn_only_one_starts_afresh(tmp_path, capsys):
    ckpt = Checkpoints(str(tmp_path / "a"))
    for epoch in (1, 2, 3):
        _save(ckpt, epoch, best=2)
    _truncate(ckpt._path(2), keep=0.9)  # the best: the latest cannot finish the run without it
    assert ckpt.restore_latest(_state(0.0)) is None and ckpt.epochs() == []
    assert capsys.readouterr().err.strip().endswith("starting the run afresh")
    only = Checkpoints(str(tmp_path / "b"))
    _save(only, 1, best=1)
    _truncate(only._path(1), keep=0.0)
    assert only.restore_latest(_state(0.0)) is None and only.epochs() == []


def test_intact_checkpoints_resume_without_a_word(tmp_path, capsys):
    ckpt = Checkpoints(str(tmp_path))
    for epoch in (1, 2):
        _save(ckpt, epoch, best=1)
    _, meta = ckpt.restore_latest(_state(0.0))
    assert meta["epoch"] == 2 and ckpt.epochs() == [1, 2]
    assert capsys.readouterr().err == ""


# --- the run directory's JSON files ------------------------------------------------------


def test_a_log_line_cut_short_is_left_out_and_a_damaged_middle_is_an_error(tmp_path, capsys):
    run = RunDir(tmp_path)
    run.write_log([{"epoch": 1, "loss": 0.5}, {"epoch": 2, "loss": 0.25}])
    _truncate(run.file(RunDir.LOG), keep=0.8)
    assert run.log() == [{"epoch": 1, "loss": 0.5}]
    assert "its last line is cut short" in capsys.readouterr().err
    with open(run.file(RunDir.LOG), "w") as f:
        f.write('{"epoch": 1\n{"epoch": 2}\n')
    with pytest.raises(UserError, match="line 1: not JSON"):
        run.log()


def test_a_torn_params_or_result_reads_as_absent(tmp_path, capsys):
    run = RunDir(tmp_path)
    run.write_params({"params": {"optim.lr": 0.001}, "seed": 0})
    run.write_result({"val": {"acc": 0.9}})
    for name in (RunDir.PARAMS, RunDir.RESULT):
        _truncate(run.file(name))
    assert run.params() is None
    assert run.result() is None and not run.finished  # removed: the run finishes again
    assert capsys.readouterr().err.count("is torn") == 2


def test_a_torn_config_of_a_started_run_is_refused(tmp_path):
    run = RunDir(tmp_path / "r")
    config = tiny_config()
    run.prepare(config)
    run.write_log([{"epoch": 1}])
    _truncate(run.file(RunDir.CONFIG))
    with pytest.raises(UserError, match="config.json is torn while .* holds work"):
        run.prepare(config)


# --- a full disk -------------------------------------------------------------------------


@pytest.fixture
def full_disk(monkeypatch):
    """Every write's final flush fails as on a full disk."""

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(rundir_lib.os, "fsync", fsync)


def _leftovers(folder):
    return [n for n in os.listdir(folder) if n.endswith(".tmp")]


def test_a_full_disk_names_the_file_and_leaves_nothing_half_written(tmp_path, monkeypatch):
    ckpt = Checkpoints(str(tmp_path))
    _save(ckpt, 1, best=1)
    run = RunDir(tmp_path)
    run.write_result({"val": {"acc": 0.5}})

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(rundir_lib.os, "fsync", fsync)
    with pytest.raises(WriteFailed) as info:
        _save(ckpt, 2, best=2)
    message = str(info.value)
    assert message.startswith(f"cannot write {ckpt._path(2)}: No space left on device")
    assert "\n" not in message and info.value.errno == errno.ENOSPC
    assert ckpt.epochs() == [1] and _leftovers(ckpt.folder) == []
    with pytest.raises(WriteFailed, match="result.json: No space left"):
        run.write_result({"val": {"acc": 0.75}})
    assert run.result() == {"val": {"acc": 0.5}}  # the earlier result, whole
    with pytest.raises(WriteFailed, match="report.md: No space left"):
        rundir_lib.write_text(str(tmp_path / "report.md"), "# report\n")
    assert not os.path.exists(tmp_path / "report.md") and _leftovers(tmp_path) == []


def test_a_full_disk_is_one_line_at_the_command_line(capsys):
    from nhfair_jax.cli import fail_with

    with pytest.raises(SystemExit):
        fail_with(WriteFailed(errno.ENOSPC, "cannot write /x/result.json: No space left on "
                                            "device; nothing of it was written"))
    assert capsys.readouterr().err == ("error: cannot write /x/result.json: No space left on "
                                       "device; nothing of it was written\n")


# --- end to end: the rerun ends with the undisturbed run's numbers ------------------------


class _Killed(Exception):
    pass


def _killed_at(epoch_to_kill, monkeypatch):
    from nhfair_jax.training.loop import Run

    original = Run.train_epoch

    def train_epoch(self, state, epoch, progress):
        if epoch == epoch_to_kill:
            raise _Killed
        return original(self, state, epoch, progress)

    monkeypatch.setattr(Run, "train_epoch", train_epoch)
    return lambda: monkeypatch.setattr(Run, "train_epoch", original)


@pytest.mark.slow
def test_a_torn_newest_checkpoint_and_a_cut_log_end_as_the_undisturbed_run(
        tiny_erm, tmp_path, monkeypatch, capsys):
    """Killed as epoch 2 starts; then the newest (only) checkpoint and the log's last line are
    torn: the rerun says so, starts afresh and ends with the reference run's log, line by line,
    and its states bit for bit."""
    from nhfair_jax.dispatch import run

    ref_dir, reference = tiny_erm
    workdir = tmp_path / "torn"
    restore = _killed_at(2, monkeypatch)
    with pytest.raises(_Killed):
        run(tiny_config(), str(workdir))
    restore()
    ckpt = Checkpoints(str(workdir))
    assert ckpt.epochs() == [1]
    _truncate(ckpt._path(1), keep=0.6)
    _truncate(workdir / "log.jsonl", keep=0.7)
    capsys.readouterr()
    result = run(tiny_config(), str(workdir))
    err = capsys.readouterr().err
    assert "note: torn checkpoint " in err and "starting the run afresh" in err
    assert_same_run(tiny_config(), str(workdir), ref_dir)
    assert result["val"] == reference["val"] and result["test"] == reference["test"]


@pytest.mark.slow
def test_a_full_disk_mid_run_then_the_rerun_ends_as_the_undisturbed_run(tiny_erm, tmp_path,
                                                                         monkeypatch):
    """The disk fills while epoch 2's checkpoint is written: an error naming that file,
    nothing half-written; with space again, the same command ends with the reference run."""
    from nhfair_jax.dispatch import run

    ref_dir, reference = tiny_erm
    workdir = str(tmp_path / "full")
    real_fsync, calls = os.fsync, []

    def fsync(fd):
        name = os.readlink(f"/proc/self/fd/{fd}")
        if ".epoch_2.msgpack." in name:
            calls.append(name)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_fsync(fd)

    monkeypatch.setattr(rundir_lib.os, "fsync", fsync)
    with pytest.raises(WriteFailed, match=r"cannot write .*checkpoints/epoch_2\.msgpack: No "):
        run(tiny_config(), workdir)
    assert calls and Checkpoints(workdir).epochs() == [1]
    assert _leftovers(os.path.join(workdir, "checkpoints")) == [] == _leftovers(workdir)
    assert [e["epoch"] for e in log_without_timings(workdir)] == [1]
    monkeypatch.setattr(rundir_lib.os, "fsync", real_fsync)
    result = run(tiny_config(), workdir)
    assert_same_run(tiny_config(), workdir, ref_dir)
    assert result["test"] == reference["test"]
    assert rundir_lib.read_json(os.path.join(workdir, "result.json"))["test"] == reference["test"]


@pytest.mark.slow
def test_kill_9_then_a_torn_newest_checkpoint_the_command_ends_as_the_undisturbed_run(tmp_path):
    """The issue's check at the command line: `nhfair_jax.run` killed -9 after its second
    epoch, its newest checkpoint then cut short; the same command again says so in one line
    and ends with the undisturbed command's log and numbers."""
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers import REPO, TINY_FLAGS, run_cli

    args = ["--config", "configs/erm_digitsb.py", "--config.train.epochs=3", *TINY_FLAGS]
    ref_dir, workdir = str(tmp_path / "ref"), str(tmp_path / "torn")
    assert run_cli(*args, "--workdir", ref_dir).returncode == 0
    proc = subprocess.Popen([sys.executable, "-m", "nhfair_jax.run", *args, "--workdir",
                             workdir], cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    log = os.path.join(workdir, "log.jsonl")
    deadline = time.time() + 300
    while not (os.path.exists(log) and len(rundir_lib.read_jsonl(log)) >= 2):
        assert proc.poll() is None and time.time() < deadline, "ended before the kill"
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ckpt = Checkpoints(workdir)
    newest = ckpt.epochs()[-1]
    assert newest == 2 and not os.path.exists(os.path.join(workdir, "result.json"))
    _truncate(ckpt._path(newest), keep=0.7)
    done = run_cli(*args, "--workdir", workdir)
    assert done.returncode == 0, done.stderr[-3000:]
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: torn")]
    assert len(notes) == 1 and "epoch_2.msgpack" in notes[0], done.stderr[-3000:]
    assert_same_run(tiny_config(**{"train.epochs": 3}), workdir, ref_dir)
    ref, got = (rundir_lib.read_json(os.path.join(d, "result.json")) for d in (ref_dir, workdir))
    assert got["best_epoch"] == ref["best_epoch"]
    assert got["val"] == ref["val"] and got["test"] == ref["test"]


def test_a_full_disk_while_answers_are_appended_names_the_log_and_keeps_what_was_there(
        tmp_path, monkeypatch):
    from nhfair_jax.lvlm import answers

    log = str(tmp_path / "answers.jsonl")
    answers.append(log, [{"key": "a", "id": 1}])
    real_write = answers.os.fsync

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(answers.os, "fsync", fsync)
    with pytest.raises(WriteFailed, match=r"cannot write .*answers.jsonl: No space left"):
        answers.append(log, [{"key": "b", "id": 2}])
    monkeypatch.setattr(answers.os, "fsync", real_write)
    assert set(answers.read(log)) >= {"a"}
