"""The served backend end to end against an OpenAI-compatible stub on 127.0.0.1: exact statuses
and rates, the config contract through the CLI, resuming a killed run, FACET persons cropped,
and bad input."""

from __future__ import annotations

import collections
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from PIL import Image

from nhfair_jax import rundir
from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.config import lvlm_config
from nhfair_jax.lvlm.run import run
from tests.helpers import REPO, run_cli
from tests.lvlm_stub import Stub, image_hash
from tests.miniatures import corrupt, identify_colour, make_facet, make_utkface

BEHAVIOURS = ["Male", "Female", ["refusal", "I can't help with that."],
              "I'm sorry, I can't determine gender.", ["http", 500],
              "The person looks like a woman.", "male or female", ["sleep", 4.0]]


def _utk(tmp_path, n=24):
    mini = make_utkface(str(tmp_path / "utk"), n=n, bad_names=False)
    hashes = [image_hash(open(os.path.join(mini.root, e.file), "rb").read())
              for e in mini.examples]
    return mini, hashes


def _config(root, url, **overrides):
    c = lvlm_config("utkface_gender", root=root)
    c.backend.url, c.backend.model = url, "stub-model"
    # 1.5 s: far above a stub answer's latency even on a loaded machine (0.5 s timed out
    # plain answers under CI load), far below the "sleep" behaviour's 4 s
    c.backend.timeout_s, c.backend.retries, c.backend.backoff_s = 1.5, 1, 0.01
    for k, v in overrides.items():
        section, key = k.split(".")
        c[section][key] = v
    return c


@pytest.mark.slow
def test_statuses_and_rates_come_out_exactly(tmp_path):
    mini, hashes = _utk(tmp_path)
    script = {h: BEHAVIOURS[i % len(BEHAVIOURS)] for i, h in enumerate(hashes)}
    with Stub(script) as stub:
        result = run(_config(mini.root, stub.url), str(tmp_path / "run"), progress=False)
        n = len(hashes)  # 24: three of each behaviour
        retried = {h: 2 for i, h in enumerate(hashes)  # the HTTP 500s and timeouts: asked twice
                   if isinstance(BEHAVIOURS[i % 8], list) and BEHAVIOURS[i % 8][0] in ("http",
                                                                                    "sleep")}
        calls = stub.settle(n + len(retried), at_least=retried)
        prompts = list(stub.prompts)
    assert result["status_counts"] == {"parsed": 9, "refused": 6, "unparseable": 3,
                                       "error": 6}
    # the woman answer is parsed (Female) for examples of either gender: i % 8 == 5 -> gender 1
    by_gender = {"Male": [], "Female": []}
    for i, e in enumerate(mini.examples):
        by_gender[("Male", "Female")[e.label]].append(BEHAVIOURS[i % 8])
    expected_refusal = {g: sum(isinstance(b, list) and b[0] == "refusal" or
                               (isinstance(b, str) and "sorry" in b) for b in bs) / len(bs)
                        for g, bs in by_gender.items()}
    for g, rate in expected_refusal.items():
        assert result["refusal_rate"][g] == pytest.approx(rate)
    # retried: HTTP 500 and timeouts twice (retries=1), everything else once
    for i, h in enumerate(hashes):
        b = BEHAVIOURS[i % 8]
        assert calls[h] == (2 if isinstance(b, list) and b[0] in ("http", "sleep") else 1)
    assert {t for _, _, t in prompts} == {0.0}  # greedy
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    assert len(lines) == n
    errors = [x for x in lines if x["status"] == "error"]
    assert {x["error"].split(":")[0].split(" (")[0] for x in errors} == {"HTTP 500",
                                                                          "timed out after 1.5 s"}
    male_correct = sum(BEHAVIOURS[i % 8] == "Male" for i, e in enumerate(mini.examples)
                       if e.label == 0)
    # errors are missing answers: recall is over the answers received (issue 51)
    male_received = sum(not (isinstance(b, list) and b[0] in ("http", "sleep"))
                        for b in by_gender["Male"])
    assert result["recall"]["Male"] == pytest.approx(male_correct / male_received)
    assert result["missing"]["count"] == 6 and result["errors"] == 6
    with Stub(script) as stub:  # a rerun asks again only the questions that ended in error
        again = run(_config(mini.root, stub.url), str(tmp_path / "run"), progress=False)
        assert sum(stub.settle(2 * 6).values()) == 2 * 6 and again["asked_this_run"] == 6
    assert again["status_counts"] == result["status_counts"]


@pytest.mark.slow
def test_contract_through_the_cli_and_rerun_asks_nothing(tmp_path):
    mini, hashes = _utk(tmp_path, n=12)
    script = {h: ("Male", "Female", "I'm sorry, I can't.")[i % 3] for i, h in enumerate(hashes)}
    workdir = str(tmp_path / "run")
    with Stub(script) as stub:
        args = ["--config", os.path.join(REPO, "configs", "lvlm.py") + ":utkface_gender",
                "--workdir", workdir, "--config.backend.name=openai",
                f"--config.backend.url={stub.url}", "--config.backend.model=stub-model",
                f"--config.data.root={mini.root}", "--progress=false"]
        proc = run_cli(*args, module="nhfair_jax.lvlm", timeout=300)
        assert proc.returncode == 0, proc.stderr
        first = sum(stub.calls.values())
        again = run_cli(*args, module="nhfair_jax.lvlm", timeout=300)
        assert again.returncode == 0, again.stderr
        assert sum(stub.calls.values()) == first == 12
        checked = run_cli(*args, "--check", "--check_n=5", module="nhfair_jax.lvlm",
                          timeout=300)
        assert checked.returncode == 0, checked.stderr
        assert sum(stub.calls.values()) == 12 + 5  # asked again, one at a time
    assert "asked 0 question(s)" in again.stdout
    assert "0 of 5 answer(s) changed when asked one at a time" in checked.stdout
    lines = [json.loads(x) for x in open(os.path.join(workdir, "answers.jsonl"))]
    assert len(lines) == 12
    for line in lines:
        assert {"id", "group", "label", "raw", "status", "parsed"} <= set(line)
    metrics = json.load(open(os.path.join(workdir, "metrics.json")))
    for key in ("recall", "gd", "status_counts", "refusal_rate"):
        assert key in metrics
    assert set(metrics["recall"]) == {"Male", "Female"} and "Male-Female" in metrics["gd"]
    for name in ("report.md", "report.html", "results.csv"):
        assert os.path.getsize(os.path.join(workdir, name)) > 0


@pytest.mark.slow
def test_killed_run_resumes_asking_only_what_is_missing(tmp_path):
    mini, hashes = _utk(tmp_path, n=24)
    workdir = str(tmp_path / "run")
    with Stub({}, delay=0.25) as stub:
        args = [sys.executable, "-m", "nhfair_jax.lvlm", "--config",
                os.path.join(REPO, "configs", "lvlm.py") + ":utkface_gender", "--workdir", workdir,
                f"--config.backend.url={stub.url}", "--config.backend.model=stub-model",
                f"--config.data.root={mini.root}", "--config.backend.concurrency=1",
                "--config.backend.batch_size=1", "--progress=false"]
        proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        log = os.path.join(workdir, "answers.jsonl")
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None:
            if os.path.exists(log) and sum(1 for _ in open(log)) >= 2:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        time.sleep(0.6)  # the request in flight at the kill reaches the stub and ends
        recorded = {json.loads(x)["id"] for x in open(log) if x.strip()}
        assert 2 <= len(recorded) < 24
        before = dict(stub.calls)
        result = run(_config(mini.root, stub.url, **{"backend.concurrency": 1}), workdir,
                     progress=False)
        after = dict(stub.calls)
    ids = [os.path.relpath(e.file, "UTKFace") for e in mini.examples]
    assert result["asked_this_run"] == 24 - len(recorded)
    for i, h in zip(ids, hashes):
        asked_again = after.get(h, 0) - before.get(h, 0)
        assert asked_again == (0 if i in recorded else 1), i
    assert result["status_counts"]["parsed"] == 24


def _facet_with_occupations(tmp_path):
    import pandas as pd

    mini = make_facet(str(tmp_path / "facet"), n_images=8)
    path = os.path.join(mini.root, "annotations", "annotations.csv")
    frame = pd.read_csv(path)
    jobs = ("guitarist", "nurse", "dancer", "gardener")
    frame["class1"] = [jobs[i % len(jobs)] for i in range(len(frame))]
    frame.to_csv(path, index=False)
    by_colour = {}
    for e, job in zip(mini.examples, frame.sort_index()["class1"]):
        by_colour[e.colour] = job
    return mini, by_colour


def test_facet_study_asks_whole_images_of_one_person_over_52_classes(tmp_path):
    import pandas as pd

    mini = make_facet(str(tmp_path / "facet"), n_images=8)
    path = os.path.join(mini.root, "annotations", "annotations.csv")
    frame = pd.read_csv(path)
    first = ~frame["filename"].duplicated()
    images = frame["filename"].drop_duplicates().tolist()
    single = {images[i] for i in (0, 2, 6)}  # their first persons have a gender presentation
    frame = frame[first | ~frame["filename"].isin(single)].copy()
    frame["class1"] = "guitarist"
    frame.loc[frame["filename"] == images[2], "class1"] = "doctor"  # not one of the 13
    frame.loc[frame["filename"] == images[6], "class1"] = "nurse"
    frame.to_csv(path, index=False)
    job_of = {image_hash(open(os.path.join(mini.root, "images", f), "rb").read()): job
              for f, job in zip(frame["filename"], frame["class1"])}
    seen = []

    def respond(data, prompt):
        seen.append((np.asarray(Image.open(io.BytesIO(data))).shape[:2], prompt))
        job = job_of[image_hash(data)]  # the whole file, byte for byte
        return '"doctor"' if job == "nurse" else f'"{job}"'  # a wrong class of the 52

    with Stub(responder=respond) as stub:
        c = lvlm_config("facet_occupation", root=mini.root)
        c.backend.url, c.backend.model = stub.url, "stub-model"
        result = run(c, str(tmp_path / "run"), progress=False)
    assert len(seen) == 2 and all(shape == (16, 48) for shape, _ in seen)
    prompt = seen[0][1]
    assert prompt.count(", ") == 51 and "[astronaut, backpacker," in prompt
    assert result["status_counts"]["parsed"] == 2
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    assert sorted((x["label"], x["parsed"]) for x in lines) == [("guitarist", "guitarist"),
                                                                 ("nurse", "doctor")]
    assert result["report_abstain_wrong"]["acc"] == pytest.approx(0.5)
    notes = result["notes"]
    assert notes["persons in images of more than one annotated person, excluded "
                 "(data.persons='single')"] > 0
    assert notes["examples whose occupation is not one of the task's asked classes, "
                 "excluded"] == 1


@pytest.mark.slow
def test_facet_persons_are_cropped_and_single_choice_asks_true_and_wrong_class(tmp_path):
    mini, job_of = _facet_with_occupations(tmp_path)
    palette = list(job_of)
    seen = []

    def respond(data, prompt):
        img = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
        colour = identify_colour(img, palette)  # the whole image would be grey: no colour
        job = job_of.get(colour, "nobody")
        seen.append((img.shape[:2], colour))
        if "Please choose" in prompt:
            return "A. Yes" if f"is a {job}?" in prompt else "B. No"
        return f'"{job}"'

    with Stub(responder=respond) as stub:
        c = lvlm_config("facet_occupation", "direct,single_choice", root=mini.root)
        c.backend.url, c.backend.model = stub.url, "stub-model"
        c.data.persons, c.data.options.crop = "all", True  # every person, cropped to its box
        result = run(c, str(tmp_path / "run"), progress=False)
    kept = [e for e in mini.examples if e.kept]
    assert all(shape == (16, 8) and colour is not None for shape, colour in seen)
    assert len(seen) == 3 * len(kept)  # direct once, single choice twice per person
    direct, single = result["by_prompt"]["direct"], result["by_prompt"]["single_choice"]
    assert direct["status_counts"]["parsed"] == len(kept)
    assert all(v == 1.0 for v in direct["recall"].values())
    assert all(v == 1.0 for v in single["recall"].values())
    assert all(v == 0.0 for v in single["fpr"].values())
    assert single["report_abstain_wrong"]["count"] == 2 * len(kept)
    assert {"Male", "Female"} <= set(direct["recall"]) and "Male-Female" in direct["gd"]


def test_unreadable_image_is_an_error_with_the_reason(tmp_path):
    mini, hashes = _utk(tmp_path, n=8)
    bad = os.path.join(mini.root, mini.examples[3].file)
    corrupt(bad, "garbage")
    with Stub({}) as stub:
        result = run(_config(mini.root, stub.url), str(tmp_path / "run"), progress=False)
        assert sum(stub.calls.values()) == 7
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    errors = [x for x in lines if x["status"] == "error"]
    assert len(lines) == 8 and len(errors) == 1
    assert errors[0]["error"].startswith(f"cannot read image {bad}")
    assert result["status_counts"]["error"] == 1


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_bad_input_fails_before_the_run(tmp_path):
    mini, _ = _utk(tmp_path, n=4)
    workdir = tmp_path / "run"
    with pytest.raises(UserError, match=r"cannot reach the endpoint http://127\.0\.0\.1:\d+/v1"):
        run(_config(mini.root, f"http://127.0.0.1:{_free_port()}/v1"), str(workdir),
            progress=False)
    assert not (workdir / "answers.jsonl").exists()
    c = _config(mini.root, "http://127.0.0.1:1/v1")
    c.backend.name = "ollama"
    with pytest.raises(UserError, match="unknown backend 'ollama'; choose one of openai, "
                                        "transformers"):
        run(c, str(workdir), progress=False)
    c = _config(mini.root, "http://127.0.0.1:1/v1")
    c.task = "utkface_height"
    with pytest.raises(UserError, match="unknown LVLM task 'utkface_height'; known: "):
        run(c, str(workdir), progress=False)
    c = _config(mini.root, "http://127.0.0.1:1/v1")
    c.prompts = "origin"
    with pytest.raises(UserError, match="task utkface_gender has no prompt set 'origin'"):
        run(c, str(workdir), progress=False)
    with Stub({}) as stub:
        c = _config(mini.root, stub.url)
        c.backend.model = "Qwen/Qwen2.5-VL-7B-Instruct"
        with pytest.raises(UserError, match=r"backend.model 'Qwen/Qwen2.5-VL-7B-Instruct' is "
                                            r"not served at http://127.0.0.1:\d+/v1; it serves: "
                                            r"stub-model \(set backend.model"):
            run(c, str(workdir), progress=False)
        assert not (workdir / "answers.jsonl").exists()
    c = _config(mini.root, "ftp://x")
    with pytest.raises(UserError, match="backend.url must be an http"):
        run(c, str(workdir), progress=False)
    with pytest.raises(FileNotFoundError, match="data not found at"):
        run(_config(str(tmp_path / "absent"), "http://127.0.0.1:1/v1"), str(workdir),
            progress=False)


@pytest.mark.slow
def test_cli_errors_are_one_line(tmp_path):
    mini, _ = _utk(tmp_path, n=4)
    base = ["--config", os.path.join(REPO, "configs", "lvlm.py") + ":utkface_gender", "--workdir",
            str(tmp_path / "run"), f"--config.data.root={mini.root}", "--progress=false"]
    for extra, message in (
            (["--config.backend.name=nope"], "unknown backend 'nope'"),
            (["--config.task=nope"], "unknown LVLM task 'nope'"),
            ([f"--config.backend.url=http://127.0.0.1:{_free_port()}/v1",
              "--config.backend.model=x"], "cannot reach the endpoint")):
        proc = run_cli(*base, *extra, module="nhfair_jax.lvlm", timeout=300)
        assert proc.returncode == 1
        lines = [x for x in proc.stderr.strip().splitlines() if x.startswith("error:")]
        assert len(lines) == 1 and message in lines[0], proc.stderr


@pytest.mark.slow
def test_report_over_models_and_prompt_sets(tmp_path):
    import pandas as pd

    from nhfair_jax.lvlm.report import main as report_main
    from tests.miniatures import make_celeba

    mini = make_celeba(str(tmp_path / "celeba"), n=30)
    runs = []
    for model, answer in (("model-a", "Yes"), ("model-b", "No, the hair is straight.")):
        with Stub(responder=lambda data, prompt, a=answer: a, models=[model]) as stub:
            c = lvlm_config("bench_celeba", "origin,variant1,variant2", root=mini.root)
            c.backend.url, c.backend.model = stub.url, model
            result = run(c, str(tmp_path / model), progress=False)
            n_test = sum(result["status_counts"].values())
            assert n_test == 3 and sum(stub.calls.values()) == 3 * n_test  # 3 prompt sets
        runs.append(str(tmp_path / model))
        assert list(result["by_prompt"]) == ["origin", "variant1", "variant2"]
        lines = [json.loads(x) for x in open(tmp_path / model / "answers.jsonl")]
        assert len(lines) == 9
        wavy = np.mean([x["label"] == "Yes" for x in lines])
        for figures in result["by_prompt"].values():
            assert figures["report_abstain_wrong"]["acc"] == pytest.approx(
                wavy if answer == "Yes" else 1 - wavy)
    out = tmp_path / "report"
    report_main(["--out", str(out), *runs])
    md = (out / "report.md").read_text()
    for model in ("openai:model-a", "openai:model-b"):
        for prompt in ("origin", "variant1", "variant2"):
            assert f"{model} / {prompt}" in md
    frame = pd.read_csv(out / "results.csv")
    assert len(frame) == 2 * 3 * 2  # models x prompt sets x (abstentions wrong, answered)
    assert (out / "plots" / "acc_vs_gap_bench_celeba.png").stat().st_size > 0


def test_workdir_of_another_model_is_refused(tmp_path):
    mini, _ = _utk(tmp_path, n=4)
    with Stub({}) as stub:
        run(_config(mini.root, stub.url), str(tmp_path / "run"), progress=False)
        c = _config(mini.root, stub.url)
        c.backend.model = "another-model"
        with pytest.raises(UserError, match="holds answers of another evaluation \\(differs in: "
                                            "backend.model\\)"):
            run(c, str(tmp_path / "run"), progress=False)


@pytest.mark.slow
def test_retry_after_is_honoured_and_capped(tmp_path):
    mini, hashes = _utk(tmp_path, n=2)
    gaps = {}
    for wait, cap in ((1, 120.0), (30, 0.3)):
        with Stub({h: ["retry_after", wait, "Female"] for h in hashes}) as stub:
            c = _config(mini.root, stub.url, **{"backend.max_retry_after_s": cap,
                                                "backend.timeout_s": 5.0})
            result = run(c, str(tmp_path / f"run{wait}"), progress=False)
            gaps[wait] = [t[1] - t[0] for t in stub.times.values()]
        assert result["status_counts"]["parsed"] == 2
    # backoff_s is 0.01: a wait of a second is the server's Retry-After; 30 s is capped
    assert len(gaps[1]) == 2 and all(g >= 0.95 for g in gaps[1])
    assert len(gaps[30]) == 2 and all(0.25 <= g < 3 for g in gaps[30])


@pytest.mark.slow
def test_max_completion_tokens_where_the_endpoint_wants_it(tmp_path):
    mini, _ = _utk(tmp_path, n=6)
    with Stub({}, wants="max_completion_tokens") as stub:
        result = run(_config(mini.root, stub.url), str(tmp_path / "auto"), progress=False)
        sent = [("max_tokens" in p, p.get("max_completion_tokens")) for p in stub.payloads]
    assert result["status_counts"]["parsed"] == 6
    assert sent[0][0] and sum(1 for has_old, _ in sent if has_old) <= 8  # in flight at once
    assert sent[-1] == (False, 32)  # the benchmark's closed budget, in the wanted parameter
    with Stub({}, wants="max_completion_tokens") as stub:
        c = _config(mini.root, stub.url, **{"backend.token_param": "max_tokens"})
        result = run(c, str(tmp_path / "pinned"), progress=False)
    assert result["status_counts"]["error"] == 6 and result["all_errors"]
    assert "Use 'max_completion_tokens' instead" in result["first_error"]


@pytest.mark.slow
def test_system_prompt_budget_and_truncation_are_sent_and_logged(tmp_path):
    from tests.miniatures import make_celeba

    mini = make_celeba(str(tmp_path / "celeba"), n=30)
    with Stub(responder=lambda data, prompt: ["length", "Yes, the"]) as stub:
        c = lvlm_config("bench_celeba", "origin,variant1", root=mini.root)
        c.backend.url, c.backend.model = stub.url, "stub-model"
        result = run(c, str(tmp_path / "run"), progress=False)
        payloads = list(stub.payloads)
    assert {p["messages"][0]["content"] for p in payloads} == {"You are a helpful assistant."}
    assert len(payloads) == 6 and {p["max_tokens"] for p in payloads} == {32}
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    assert {x["finish_reason"] for x in lines} == {"length"}
    assert result["truncated"]["count"] == result["truncated"]["by_status"]["parsed"] == 3
    mini_utk, _ = _utk(tmp_path, n=2)
    with Stub({}) as stub:  # the study's code sends no system message
        run(_config(mini_utk.root, stub.url), str(tmp_path / "study"), progress=False)
        assert all(p["messages"][0]["role"] == "user" for p in stub.payloads)


def test_check_reports_answers_that_change(tmp_path):
    from nhfair_jax.lvlm.run import check

    mini, _ = _utk(tmp_path, n=4)
    asked = collections.Counter()

    def fickle(data, prompt):
        asked[data] += 1
        return "Male" if asked[data] == 1 else "Female"

    with Stub(responder=fickle) as stub:
        c = _config(mini.root, stub.url)
        run(c, str(tmp_path / "run"), progress=False)
        out = check(c, str(tmp_path / "run"), n=3)
    assert out["asked"] == 3 and len(out["changed"]) == 3
    assert {(x["logged"], x["now"]) for x in out["changed"]} == {("Male", "Female")}
    with pytest.raises(UserError, match="--check needs answers in"):
        check(c, str(tmp_path / "absent"))


@pytest.mark.slow
def test_cli_exits_non_zero_when_every_question_ended_in_error(tmp_path):
    mini, hashes = _utk(tmp_path, n=3)
    workdir = str(tmp_path / "run")
    with Stub({h: ["http", 400] for h in hashes}) as stub:
        proc = run_cli("--config", os.path.join(REPO, "configs", "lvlm.py") + ":utkface_gender",
                       "--workdir", workdir, f"--config.backend.url={stub.url}",
                       "--config.backend.model=stub-model", f"--config.data.root={mini.root}",
                       "--progress=false", module="nhfair_jax.lvlm", timeout=300)
    assert proc.returncode == 1
    lines = [x for x in proc.stderr.splitlines() if x.startswith("error:")]
    assert len(lines) == 1 and "every question (3) ended in error, the first with: HTTP 400" \
        in lines[0], proc.stderr
    assert len(open(os.path.join(workdir, "answers.jsonl")).readlines()) == 3


# The study's other prompts, answered per image as LLaVA / Qwen2-VL / Gemma answer them: (raw
# answer or stub behaviour, status, parsed class, stage the reader names for its rule).
STUDY_PROMPT_ANSWERS = {
    "describe": [
        ("The image shows a close-up of a young man with short dark hair. He is smiling.",
         "parsed", "Male", "lexicon"),
        ("The image shows a woman with long brown hair and small earrings, looking at the "
         "camera.", "parsed", "Female", "lexicon"),
        ("The picture shows a smiling person with short curly hair against a grey background.",
         "unparseable", None, "no_label"),
        ("I'm sorry, but I can't describe real people in images.", "refused", None, "refusal"),
        ("The image shows an elderly man with white hair.\n\nPlease note that gender "
         "presentation does not determine how a person identifies.", "parsed", "Male",
         "label_with_note"),
        ("The photo shows a man and a woman smiling together.", "unparseable", None,
         "several_labels"),
    ],
    "fill_blank": [
        ("this is a photo of a man.", "parsed", "Male", "lexicon"),
        ("Woman", "parsed", "Female", "exact"),
        ("This is a photo of a person.", "unparseable", None, "no_label"),
        (["refusal", "I can't help with that."], "refused", None, "endpoint_refusal"),
        ("boy", "parsed", "Male", "exact"),
        ("This is a photo of a woman or a man.", "unparseable", None, "several_labels"),
    ],
    "describe_persons": [
        ("**Person 1:** An older man with a grey moustache, looking straight at the camera.",
         "parsed", "Male", "lexicon"),
        ("**Person 1:** A young woman with long black hair. She is wearing a white blouse.",
         "parsed", "Female", "lexicon"),
        ("There is one person visible; their face is partly hidden by a scarf.", "unparseable",
         None, "no_label"),
        ("I'm sorry, I can't provide descriptions of real people.", "refused", None,
         "refusal"),
        ("**Person 1:**\n- Gender: Male\n- Age: Middle-aged\n- Clothing: A grey suit",
         "parsed", "Male", "lexicon"),
        ("**Person 1:** A woman with grey hair on a bench.\n\n**Person 2:** A man standing "
         "beside her.", "unparseable", None, "several_labels"),
    ],
}


@pytest.mark.slow
def test_study_prompt_sets_are_asked_read_and_logged_with_their_stage(tmp_path):
    from nhfair_jax.lvlm.prompts import STUDY_PROMPTS

    mini, hashes = _utk(tmp_path, n=6)
    index = {h: i for i, h in enumerate(hashes)}
    by_prompt = {text: name for name, text in STUDY_PROMPTS.items()}

    def respond(data, prompt):
        return STUDY_PROMPT_ANSWERS[by_prompt[prompt]][index[image_hash(data)]][0]

    with Stub(responder=respond) as stub:
        c = _config(mini.root, stub.url)
        c.prompts = "describe,fill_blank,describe_persons"
        result = run(c, str(tmp_path / "run"), progress=False)
        prompts = [p for _, p, _ in stub.prompts]
    assert sorted(prompts) == sorted(list(STUDY_PROMPTS.values()) * 6)  # verbatim, each once
    assert list(result["by_prompt"]) == ["describe", "fill_blank", "describe_persons"]
    example = {os.path.relpath(e.file, "UTKFace"): i for i, e in enumerate(mini.examples)}
    records = _records(tmp_path / "run")
    assert len(records) == 18
    got = {(r["prompt_set"], example[r["example"]]): r for r in records}
    for prompt_set, rows in STUDY_PROMPT_ANSWERS.items():
        for i, (answer, status, parsed, stage) in enumerate(rows):
            r = got[(prompt_set, i)]
            assert (r["status"], r["parsed"], r["stage"]) == (status, parsed, stage), \
                (prompt_set, answer, r["status"], r["parsed"], r["stage"])
            assert r["raw"] == (answer[1] if isinstance(answer, list) else answer)
    for figures in result["by_prompt"].values():
        assert figures["status_counts"] == {"parsed": 3, "refused": 1, "unparseable": 2,
                                            "error": 0}


# Answers to the direct gender question that each decide by one rule of the lexicon reader,
# and the stage nhfair_jax.lvlm.parse names for that rule.
STAGED_ANSWERS = [
    ('"male"', "parsed", "Male", "exact"),
    ("Male\n\nPlease note that I can't determine someone's gender identity from a photo.",
     "parsed", "Male", "label_despite_refusal"),
    ("I'm sorry, I can't determine gender. However, the person appears female.", "parsed",
     "Female", "label_despite_refusal"),
    ('"female"\n\nPlease note that this label is based only on visual appearance.', "parsed",
     "Female", "label_with_note"),
    ('It\'s hard to say, but I would say "female".', "parsed", "Female", "hedged"),
    ("The person does not appear to be female.", "parsed", "Male", "negation_other"),
    ("Female. Some might read the short hair as male.", "parsed", "Female", "label_first"),
    ('"male" or "female"', "unparseable", None, "several_labels"),
    ('"unknown"', "refused", None, "unknown"),
    ("The image shows a person standing outdoors in front of a building.", "unparseable", None,
     "no_label"),
]


def test_lexicon_stages_land_in_the_answer_log(tmp_path):
    mini, hashes = _utk(tmp_path, n=len(STAGED_ANSWERS))
    script = {h: row[0] for h, row in zip(hashes, STAGED_ANSWERS)}
    with Stub(script) as stub:
        result = run(_config(mini.root, stub.url), str(tmp_path / "run"), progress=False)
    example = {os.path.relpath(e.file, "UTKFace"): i for i, e in enumerate(mini.examples)}
    records = _records(tmp_path / "run")
    assert len(records) == len(STAGED_ANSWERS) and {r["prompt_set"] for r in records} == {
        "direct"}
    for r in records:
        answer, status, parsed, stage = STAGED_ANSWERS[example[r["example"]]]
        assert r["raw"] == answer
        assert (r["status"], r["parsed"], r["stage"]) == (status, parsed, stage), answer
    assert result["status_counts"] == {"parsed": 7, "refused": 1, "unparseable": 2,
                                       "error": 0}


# --- several endpoints -------------------------------------------------------------------------

def _records(workdir):
    return [json.loads(line) for line in open(os.path.join(workdir, "answers.jsonl"))]


@pytest.mark.slow
def test_requests_spread_over_endpoints_within_each_ones_concurrency(tmp_path):
    mini, hashes = _utk(tmp_path, n=24)
    with Stub({}, delay=0.15) as a, Stub({}, delay=0.15) as b:
        c = _config(mini.root, f"{a.url}, {b.url}", **{"backend.concurrency": 2})
        c.backend.timeout_s = 10.0
        result = run(c, str(tmp_path / "run"), progress=False)
        records = _records(tmp_path / "run")
        assert len(records) == 24 and result["asked_this_run"] == 24
        assert all(r["status"] != "error" for r in records), [r["error"] for r in records]
        by = collections.Counter(r["endpoint"] for r in records)
        assert set(by) == {a.url, b.url} and min(by.values()) >= 6, by  # both did their share
        asked = (sum(a.calls.values()), sum(b.calls.values()))
        assert (by[a.url], by[b.url]) == asked, (by, asked)  # each asked once, where it answered
        assert 1 <= a.most_in_flight <= 2 and 1 <= b.most_in_flight <= 2
        assert max(a.most_in_flight, b.most_in_flight) == 2  # the bound was reached, not lowered


@pytest.mark.slow
def test_an_endpoint_down_at_the_start_is_a_warning_and_all_of_them_an_error(tmp_path):
    mini, _ = _utk(tmp_path, n=6)
    dead = f"http://127.0.0.1:{_free_port()}/v1"
    with Stub({}, delay=0.2) as a:
        c = _config(mini.root, f"{dead},{a.url}", **{"backend.concurrency": 2})
        c.backend.timeout_s = 10.0
        with pytest.warns(UserWarning, match=f"the endpoint {dead} does not answer"):
            run(c, str(tmp_path / "run"), progress=False)
        records = _records(tmp_path / "run")
        assert {r["endpoint"] for r in records} == {a.url} and len(records) == 6
        assert all(r["status"] != "error" for r in records)
        assert a.most_in_flight == 2  # the other's threads do not pile onto it
        c = _config(mini.root, f"{a.url},{dead}")
        c.backend.model = "other-model"
        with pytest.raises(UserError, match=f"backend.model 'other-model' is not served at "
                                            f"{a.url}"):
            run(c, str(tmp_path / "run2"), progress=False)
    other = f"http://127.0.0.1:{_free_port()}/v1"
    with pytest.raises(UserError, match=rf"cannot reach the endpoint {dead} \(.*\) \(nor do 1 "
                                        r"other endpoints\); start the server"):
        run(_config(mini.root, f"{dead},{other}"), str(tmp_path / "run3"), progress=False)
    with pytest.raises(UserError, match="backend.url must be an http.* got 'ftp://x'"):
        run(_config(mini.root, f"{dead},ftp://x"), str(tmp_path / "run4"), progress=False)


def _stub_process(tmp_path, name, delay):
    """An OpenAI-compatible stub in a process of its own (so that it can be killed): (process,
    URL, path of its per-image request counts)."""
    spec = tmp_path / f"{name}.json"
    spec.write_text(json.dumps({"script": {}, "delay": delay, "lifetime": 300}))
    port_file = str(tmp_path / f"{name}.url")
    proc = subprocess.Popen([sys.executable, os.path.join(REPO, "tests", "lvlm_stub.py"),
                             str(spec), port_file], cwd=REPO)
    t0 = time.time()
    while not os.path.exists(port_file):
        assert proc.poll() is None and time.time() - t0 < 60, "the stub did not start"
        time.sleep(0.05)
    return proc, open(port_file).read().strip(), port_file + ".calls"


def _asked(calls_path) -> int:
    try:
        return sum(json.load(open(calls_path)).values())
    except (OSError, ValueError):
        return 0


@pytest.mark.slow
def test_an_endpoint_dying_mid_run_leaves_every_question_answered_and_logged(tmp_path):
    import threading

    mini, hashes = _utk(tmp_path, n=40)
    a, url_a, _ = _stub_process(tmp_path, "a", delay=0.1)
    b, url_b, calls_b = _stub_process(tmp_path, "b", delay=0.4)  # the slow one dies
    try:
        # No retries: the questions b held when it died must go to a without one.
        c = _config(mini.root, f"{url_a},{url_b}", **{"backend.concurrency": 3,
                                                      "backend.retries": 0})
        c.backend.timeout_s = 10.0
        taken = []

        def kill_b():  # once b has taken a few questions, with up to three in flight
            t0 = time.time()
            while _asked(calls_b) < 4 and time.time() - t0 < 60:
                time.sleep(0.02)
            b.send_signal(signal.SIGKILL)
            b.wait()
            taken.append(_asked(calls_b))  # its last count (written every 0.2 s: at most this)

        killer = threading.Thread(target=kill_b)
        killer.start()
        result = run(c, str(tmp_path / "run"), progress=False)
        killer.join()
        records = _records(tmp_path / "run")
        assert len(records) == 40 and len({r["id"] for r in records}) == 40
        assert result["asked_this_run"] == 40
        assert all(r["status"] != "error" and r["raw"] == "Male" for r in records), \
            [r["error"] for r in records if r["error"]]
        by = collections.Counter(r["endpoint"] for r in records)
        assert by[url_b] >= 1 and by[url_a] >= 30, by  # b answered before it died, a the rest
        assert by[url_a] + by[url_b] == 40
        assert taken[0] > by[url_b], (taken, by)  # b died holding questions: a answered them
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.slow
def test_a_reply_cut_mid_body_is_a_logged_error_or_goes_to_another_endpoint(tmp_path):
    """A server that dies after a reply's headers (the body shorter than its Content-Length):
    alone, each question ends as an error naming the cut, logged, and the run goes on; beside a
    healthy endpoint, the healthy one answers every question."""
    mini, hashes = _utk(tmp_path, n=6)
    cut = {h: ["cut"] for h in hashes}
    with Stub(cut) as bad:
        run(_config(mini.root, bad.url), str(tmp_path / "alone"), progress=False)
        records = _records(tmp_path / "alone")
        assert len(records) == 6 and all(r["status"] == "error" for r in records)
        assert all("IncompleteRead" in r["error"] and bad.url in r["error"] for r in records), \
            records[0]["error"]
        with Stub({}) as good:
            c = _config(mini.root, f"{bad.url},{good.url}", **{"backend.retries": 0})
            run(c, str(tmp_path / "two"), progress=False)
        records = _records(tmp_path / "two")
        assert len(records) == 6 and all(r["status"] != "error" for r in records), \
            [r["error"] for r in records]
        assert {r["endpoint"] for r in records} == {good.url}


@pytest.mark.slow
def test_an_answer_line_of_another_evaluation_is_left_out_and_named_in_the_report(tmp_path):
    """A line of another model's run pasted into answers.jsonl (issue 52): the figures stay
    those of this evaluation, a warning in metrics.json and report.md names it, and the
    rewritten log drops it."""
    mini, hashes = _utk(tmp_path, n=8)
    workdir = str(tmp_path / "run")
    with Stub({h: "Male" for h in hashes}) as stub:
        first = run(_config(mini.root, stub.url), workdir, progress=False)
        log = os.path.join(workdir, "answers.jsonl")
        lines = rundir.read_jsonl(log)
        alien = {**lines[0], "model": "other-model", "status": "refused", "parsed_index": None,
                 "key": json.dumps([lines[0]["id"], "other-model", "x", "{}"])}
        with open(log, "a") as f:
            f.write(json.dumps(alien) + "\n")
        again = run(_config(mini.root, stub.url), workdir, progress=False)
    assert again["asked_this_run"] == 0
    assert again["status_counts"] == first["status_counts"]
    assert first["status_counts"]["parsed"] == 8 and first["status_counts"]["refused"] == 0
    assert again["recall"] == first["recall"]
    (warning,) = [w for w in again["warnings"] if "another evaluation" in w]
    assert "1 answer(s)" in warning and "'other-model'" in warning
    with open(os.path.join(workdir, "report.md")) as f:
        assert warning in f.read()
    assert rundir.read_jsonl(log) == lines  # as before the paste
