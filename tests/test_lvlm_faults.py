"""Faults a user must see (issue 51): a partial outage is not a result, Ctrl-C is one line, a
wrong model name stops at the first 404; and structured replies where the server offers them,
against the stub that honours them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.__main__ import failure_line
from nhfair_jax.lvlm.run import run
from tests.helpers import REPO, run_cli
from tests.lvlm_stub import Stub
from tests.test_lvlm_served import _config, _records, _stub_process, _utk


def _failing_after(k: int):
    """A responder that answers "Male" to the first `k` requests and HTTP 503 afterwards: a
    server that went down mid-run."""
    lock, seen = threading.Lock(), [0]

    def responder(data, prompt):
        with lock:
            seen[0] += 1
            return "Male" if seen[0] <= k else ["http", 503]
    return responder


def test_a_partial_outage_is_missing_answers_not_wrong_ones(tmp_path):
    mini, _ = _utk(tmp_path, n=12)
    workdir = str(tmp_path / "run")
    c = _config(mini.root, "", **{"backend.retries": 0})
    with Stub(responder=_failing_after(5)) as stub:
        c.backend.url = stub.url
        result = run(c, workdir, progress=False)
    records = _records(workdir)
    received = [r for r in records if r["status"] != "error"]
    assert result["errors"] == 7 and len(received) == 5
    assert result["missing"] == {"count": 7, "of": 12, "by_group": result["missing"]["by_group"]}
    # recall over the answers received: every one of them is "Male"
    males = [r for r in received if r["label"] == "Male"]
    if males:
        assert result["recall"]["Male"] == 1.0
    assert result["report_abstain_wrong"]["count"] == 5
    line = failure_line(result, c, workdir)
    assert line.startswith("7 of 12 question(s) ended in error (the first with: HTTP 503")
    assert "run the same command again to ask only those 7" in line
    c.decoding.retry_errors = False
    assert "with --config.decoding.retry_errors=True to ask only those 7" in \
        failure_line(result, c, workdir)
    report = open(os.path.join(workdir, "report.md")).read()
    assert "INCOMPLETE" in report and "7 of 12 answers missing (ended in error)" in report
    import pandas as pd

    assert set(pd.read_csv(os.path.join(workdir, "results.csv"))["missing"]) == {7}
    with Stub({}) as stub:  # the rerun asks only the seven
        c = _config(mini.root, stub.url)
        again = run(c, workdir, progress=False)
        assert sum(stub.settle(7).values()) == 7
    assert again["asked_this_run"] == 7 and again["errors"] == 0
    assert failure_line(again, c, workdir) is None
    assert "INCOMPLETE" not in open(os.path.join(workdir, "report.md")).read()


def test_a_wrong_model_name_stops_at_the_first_404(tmp_path):
    mini, _ = _utk(tmp_path, n=12)
    with Stub({}, models=None, strict_model=True) as stub:  # no /models: the name is unchecked
        c = _config(mini.root, stub.url, **{"backend.concurrency": 2})
        c.backend.model = "no-such-model"
        with pytest.raises(UserError, match=r"chat/completions answered HTTP 404.*model "
                                            r"'no-such-model'.*no further question was asked"):
            run(c, str(tmp_path / "run"), progress=False)
        asked = sum(stub.calls.values())
    assert 1 <= asked <= 2  # the requests in flight at the first 404, never all twelve
    log = tmp_path / "run" / "answers.jsonl"
    assert not log.exists() or log.read_text() == ""  # nothing logged as an answer


@pytest.mark.parametrize("mode", ["json_schema", "choice"])
def test_structured_replies_are_asked_recorded_and_read(tmp_path, mode):
    mini, hashes = _utk(tmp_path, n=4)
    script = {hashes[0]: "Female, I would say.", hashes[1]: "I'm sorry, I can't tell.",
              hashes[2]: "Male", hashes[3]: "female"}
    with Stub(script) as stub:
        c = _config(mini.root, stub.url, **{"decoding.structured": mode})
        c.prompts = "direct,describe"
        run(c, str(tmp_path / "run"), progress=False)
        payloads = list(stub.payloads)
    closed = [p for p in payloads if p["max_tokens"] == 32]
    open_ = [p for p in payloads if p["max_tokens"] == 1000]
    assert len(closed) == len(open_) == 4
    for p in closed:
        if mode == "json_schema":
            schema = p["response_format"]["json_schema"]["schema"]
            assert schema["properties"]["answer"]["enum"] == ["Male", "Female"]
        else:
            assert p["guided_choice"] == ["Male", "Female"]
    assert not any("response_format" in p or "guided_choice" in p for p in open_)
    records = {(r["example"], r["prompt_set"]): r for r in _records(tmp_path / "run")}
    got = {}
    for (example, prompt_set), r in records.items():
        if prompt_set == "direct":
            assert r["structured"] == mode and mode in r["decoding"]
            assert r["status"] == "parsed"
            got[example] = r["parsed"]
        else:
            assert r["structured"] == "off"
    # held to the options: the refusal became the first option, as a constrained server does
    ids = [os.path.relpath(e.file, "UTKFace") for e in mini.examples]
    assert [got[i] for i in ids] == ["Female", "Male", "Male", "Female"]
    config = json.load(open(tmp_path / "run" / "config.json"))
    assert config["decoding"]["structured"] == mode


def test_free_text_is_the_default_and_structured_needs_a_served_model(tmp_path):
    mini, _ = _utk(tmp_path, n=2)
    with Stub({}) as stub:
        run(_config(mini.root, stub.url), str(tmp_path / "run"), progress=False)
        assert not any("response_format" in p or "guided_choice" in p for p in stub.payloads)
    assert all(r["structured"] == "off" for r in _records(tmp_path / "run"))
    c = _config(mini.root, "http://127.0.0.1:1/v1", **{"decoding.structured": "regex"})
    with pytest.raises(UserError, match="decoding.structured must be one of off, json_schema, "
                                        "choice, got 'regex'"):
        run(c, str(tmp_path / "bad"), progress=False)
    c = _config(mini.root, "", **{"decoding.structured": "choice", "backend.name":
                                  "transformers"})
    with pytest.raises(UserError, match="decoding.structured constrains a served model"):
        run(c, str(tmp_path / "bad2"), progress=False)


def _cli_args(mini, workdir, url, *extra):
    return [sys.executable, "-m", "nhfair_jax.lvlm", "--config",
            os.path.join(REPO, "configs", "lvlm.py") + ":utkface_gender", "--workdir", workdir,
            f"--config.backend.url={url}", "--config.backend.model=stub-model",
            f"--config.data.root={mini.root}", "--progress=false", *extra]


def _logged(workdir) -> int:
    path = os.path.join(workdir, "answers.jsonl")
    return sum(1 for x in open(path) if x.strip()) if os.path.exists(path) else 0


@pytest.mark.slow
def test_a_server_dying_mid_run_fails_the_command_and_the_rerun_asks_the_rest(tmp_path):
    mini, _ = _utk(tmp_path, n=24)
    workdir = str(tmp_path / "run")
    server, url, calls = _stub_process(tmp_path, "dies", delay=0.2)
    try:
        proc = subprocess.Popen(_cli_args(mini, workdir, url, "--config.backend.concurrency=1",
                                          "--config.backend.retries=0",
                                          "--config.backend.batch_size=1"),
                                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.time() + 120
        while _logged(workdir) < 4 and time.time() < deadline:
            time.sleep(0.05)
        server.kill()
        server.wait()
        out, err = proc.communicate(timeout=300)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    records = _records(workdir)
    errors = sum(r["status"] == "error" for r in records)
    assert len(records) == 24 and 1 <= errors <= 20, err
    assert proc.returncode == 1
    lines = [x for x in err.splitlines() if x.startswith("error:")]
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {errors} of 24 question(s) ended in error"), err
    assert "Traceback" not in err
    metrics = json.load(open(os.path.join(workdir, "metrics.json")))
    assert metrics["missing"]["count"] == errors
    assert "INCOMPLETE" in open(os.path.join(workdir, "report.md")).read()
    with Stub({}) as stub:
        again = run_cli(*_cli_args(mini, workdir, stub.url)[3:], module="nhfair_jax.lvlm",
                        timeout=300)
        assert again.returncode == 0, again.stderr
        assert sum(stub.settle(errors).values()) == errors


@pytest.mark.slow
def test_ctrl_c_is_one_line_saying_what_is_kept(tmp_path):
    mini, _ = _utk(tmp_path, n=24)
    workdir = str(tmp_path / "run")
    # Ctrl-C as in a terminal: the command's SIGINT at its default, also where this test runs
    # with SIGINT ignored (a job started in the background by a non-interactive shell, as CI
    # may be, ignores it, and a child inherits that: the run then ignored the interrupt,
    # finished and exited 0)
    with Stub({}, delay=0.25) as stub:
        inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:  # a handled signal is at its default after exec, an ignored one stays ignored
            proc = subprocess.Popen(_cli_args(mini, workdir, stub.url,
                                              "--config.backend.concurrency=1",
                                              "--config.backend.batch_size=1"),
                                    cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
        finally:
            signal.signal(signal.SIGINT, inherited)
        deadline = time.time() + 120
        while _logged(workdir) < 2 and time.time() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        kept = _logged(workdir)
        before = sum(stub.calls.values())
        again = run_cli(*_cli_args(mini, workdir, stub.url)[3:], module="nhfair_jax.lvlm",
                        timeout=300)
        asked_again = sum(stub.settle(before + 24 - kept).values()) - before
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    lines = [x for x in err.splitlines() if x.strip()]
    assert lines == [f"error: interrupted: {kept} answer(s) are kept in "
                     f"{os.path.join(workdir, 'answers.jsonl')} (the batch in flight is lost); "
                     "run the same command again to ask only the questions still missing"], err
    assert 2 <= kept < 24
    assert again.returncode == 0 and asked_again == 24 - kept
