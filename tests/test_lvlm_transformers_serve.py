"""The served backend against a real OpenAI-compatible server: `transformers serve` (the
`transformers[serving]` extra) serving a tiny random LLaVA-NeXT written in the test. Every
question is answered (no error), finish reasons come back, a rerun asks nothing, and a model
name the server does not serve is a one-line error naming the one it does."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.config import lvlm_config
from nhfair_jax.lvlm.run import run
from tests.helpers import need
from tests.miniatures import make_utkface

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need("transformers")
    need("serving")
    from tests.lvlm_tiny import make_llava_next

    folder = make_llava_next(str(tmp_path_factory.mktemp("ckpt") / "llava_next"))
    port = _free_port()
    log = open(tmp_path_factory.mktemp("serve") / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "transformers.cli.transformers", "serve",
                             folder, "--host", "127.0.0.1", "--port", str(port), "--device",
                             "cpu"], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.time() + 120
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=2) as resp:
                    served = [m["id"] for m in json.loads(resp.read())["data"]]
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    log.flush()
                    pytest.fail("transformers serve did not start: "
                                + open(log.name).read()[-2000:])
                time.sleep(0.5)
        yield url, folder, served
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_every_question_answered_and_a_rerun_asks_nothing(server, tmp_path):
    url, folder, served = server
    assert served == [folder]  # the server answers to the name it lists: its path
    mini = make_utkface(str(tmp_path / "utk"), n=10, bad_names=False)
    c = lvlm_config("utkface_gender", "direct,single_choice", root=mini.root)
    c.backend.url, c.backend.model, c.backend.timeout_s = url, folder, 60.0
    c.decoding.max_new_tokens = 8
    first = run(c, str(tmp_path / "run"), progress=False)
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    assert len(lines) == 10 * 3 and first["asked_this_run"] == 30
    assert all(x["status"] != "error" for x in lines), [x["error"] for x in lines][:3]
    assert all(x["raw"] is not None and x["stage"] for x in lines)
    assert {x["finish_reason"] for x in lines} <= {"stop", "length"}
    again = run(c, str(tmp_path / "run"), progress=False)
    assert again["asked_this_run"] == 0
    assert again["status_counts"] == first["status_counts"]


def test_a_model_it_does_not_serve_is_a_one_line_error(server, tmp_path):
    url, folder, _ = server
    mini = make_utkface(str(tmp_path / "utk"), n=2, bad_names=False)
    c = lvlm_config("utkface_gender", root=mini.root)
    c.backend.url, c.backend.model = url, "llava-next-tiny"
    with pytest.raises(UserError, match=f"backend.model 'llava-next-tiny' is not served at "
                                        f"{url}; it serves: {folder} "):
        run(c, str(tmp_path / "run"), progress=False)
    assert not os.path.exists(tmp_path / "run" / "answers.jsonl")
