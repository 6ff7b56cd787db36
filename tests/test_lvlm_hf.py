"""The local transformers backend on tiny random checkpoints (Qwen2-VL, Qwen2.5-VL, LLaVA-NeXT,
Gemma 3, Mllama) written in the test and loaded as a downloaded checkpoint is: answers forced per
example by a logits processor run through the whole pipeline; batch sizes 1 and 8 agree, forced
and free; decoding is arg max decoding even where the checkpoint's generation config samples;
one BOS token per prompt; the system prompt; finish reasons and truncated answers; --check;
bad checkpoints."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.config import lvlm_config
from nhfair_jax.lvlm.run import run
from tests.helpers import need
from tests.miniatures import make_utkface, write_solid

FORCED = ["Male", "Female", "I cannot say", "Male or Female"]
FAMILIES = ["qwen2_vl", "qwen2_5_vl", "llava_next", "gemma3", "mllama"]
SIZES = [(12, 12), (12, 40), (40, 12), (50, 50)]


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    need("transformers")
    from tests.lvlm_tiny import make_gemma3, make_llava_next, make_mllama, make_qwen2_vl

    root = tmp_path_factory.mktemp("ckpt")
    return {"qwen2_vl": make_qwen2_vl(str(root / "qwen2_vl")),
            "qwen2_5_vl": make_qwen2_vl(str(root / "qwen2_5_vl"), qwen25=True),
            "llava_next": make_llava_next(str(root / "llava_next")),
            "gemma3": make_gemma3(str(root / "gemma3")),
            "mllama": make_mllama(str(root / "mllama"))}


def _forced_run(ckpt, data_root, workdir, batch_size, prompts="direct"):
    from nhfair_jax.lvlm.backends import make_backend
    from tests.lvlm_tiny import forcing_processor

    c = lvlm_config("utkface_gender", prompts, root=data_root)
    c.backend.name, c.backend.model, c.backend.batch_size = "transformers", ckpt, batch_size
    c.decoding.max_new_tokens = 6
    backend = make_backend(c)  # the path any checkpoint folder takes
    order = sorted(os.path.basename(f) for f in os.listdir(os.path.join(data_root, "UTKFace")))
    answer_of = {name: FORCED[i % len(FORCED)] for i, name in enumerate(order)}
    backend.factory = lambda requests: forcing_processor(
        backend.tokenizer, [answer_of[r.key.split("|")[0]] for r in requests])
    result = run(c, workdir, backend=backend, progress=False)
    lines = [json.loads(x) for x in open(os.path.join(workdir, "answers.jsonl"))]
    return result, lines, answer_of


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
def test_forced_answers_end_to_end_and_batch_sizes_agree(family, checkpoints, tmp_path):
    mini = make_utkface(str(tmp_path / "utk"), n=10, bad_names=False)
    for i, e in enumerate(mini.examples):  # several sizes: image token counts differ
        write_solid(os.path.join(mini.root, e.file), e.colour, size=SIZES[i % len(SIZES)])
    r1, lines1, answer_of = _forced_run(checkpoints[family], mini.root, str(tmp_path / "b1"), 1)
    r8, lines8, _ = _forced_run(checkpoints[family], mini.root, str(tmp_path / "b8"), 8)
    for a, b in zip(lines1, lines8):
        assert (a["id"], a["raw"], a["status"], a["parsed"]) == \
               (b["id"], b["raw"], b["status"], b["parsed"])
        np.testing.assert_allclose(a["scores"], b["scores"], atol=1e-4)
    for line in lines1:
        forced = answer_of[line["id"]]
        assert line["raw"] == forced  # only the generated tokens, no prompt
        expected = {"Male": "parsed", "Female": "parsed", "I cannot say": "refused",
                    "Male or Female": "unparseable"}[forced]
        assert line["status"] == expected
        assert line["parsed"] == (forced if expected == "parsed" else None)
        assert len(line["scores"]) == 2 and all(np.isfinite(line["scores"]))
        assert json.loads(line["decoding"])["do_sample"] is False
    truth = {e.file.split("/")[-1]: ("Male", "Female")[e.label] for e in mini.examples}
    for g in ("Male", "Female"):
        ids = [i for i, t in truth.items() if t == g]
        assert r1["recall"][g] == pytest.approx(np.mean([answer_of[i] == g for i in ids]))
    # AUC of the option scores, against scikit-learn on the logged log-likelihoods
    from sklearn.metrics import roc_auc_score

    margin = [line["scores"][1] - line["scores"][0] for line in lines1]
    y = [line["label_index"] for line in lines1]
    assert r1["scores"]["auc"] == pytest.approx(roc_auc_score(y, margin), abs=1e-9)
    assert r1["status_counts"] == r8["status_counts"]


@pytest.mark.slow
def test_single_choice_with_a_local_model_scores_yes_and_no(checkpoints, tmp_path):
    mini = make_utkface(str(tmp_path / "utk"), n=6, bad_names=False)
    result, lines, answer_of = _forced_run(checkpoints["qwen2_vl"], mini.root,
                                           str(tmp_path / "sc"), 4, prompts="single_choice")
    assert len(lines) == 12 and {x["asked"] is not None for x in lines} == {True}
    assert all(len(x["scores"]) == 2 for x in lines)
    assert result["report_abstain_wrong"]["count"] == 12


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
def test_left_padding_prompts_of_different_lengths(family, checkpoints):
    from PIL import Image

    from nhfair_jax.bridge.lvlm_hf import HFBackend
    from nhfair_jax.lvlm.backends import Request
    from tests.lvlm_tiny import forcing_processor

    rng = np.random.default_rng(0)
    prompts = ["Male or female?", "Is the person in the photo male or female? Only answer "
               "'Male' or 'Female'.", "Describe the person", "Is it a nurse?"]
    requests = [Request(key=str(i), prompt=prompts[i % 4], options=("Male", "Female"),
                        max_new_tokens=4, image=Image.fromarray(rng.integers(
                            0, 255, (*SIZES[(i // 2) % 4], 3), dtype=np.uint8)))
                for i in range(8)]
    backend = HFBackend(checkpoints[family], batch_size=1)
    answers = ["Female", "Male", "I cannot say", "Yes"]
    backend.factory = lambda rs: forcing_processor(backend.tokenizer,
                                                   [answers[int(r.key) % 4] for r in rs])
    one = backend.answer(requests)
    backend.batch_size = 8
    eight = backend.answer(requests)
    assert [r.text for r in one] == [r.text for r in eight] == [answers[i % 4] for i in range(8)]
    np.testing.assert_allclose([r.scores for r in one], [r.scores for r in eight], atol=1e-4)
    backend.factory = None  # unforced greedy decoding: batch composition changes nothing
    backend.batch_size = 1
    free_one = [r.text for r in backend.answer(requests)]
    backend.batch_size = 8
    assert free_one == [r.text for r in backend.answer(requests)]
    assert len(set(free_one)) > 1  # the answers differ, so the comparison means something


def test_bad_checkpoints_are_one_line_errors(tmp_path):
    from nhfair_jax.bridge.lvlm_hf import HFBackend

    with pytest.raises(UserError, match="checkpoint folder not found"):
        HFBackend(str(tmp_path / "absent"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UserError, match="is not a transformers checkpoint \\(no config.json\\)"):
        HFBackend(str(empty))
    bert = tmp_path / "bert"
    bert.mkdir()
    (bert / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(UserError, match="holds a bert checkpoint; supported LVLMs: llava_next, "
                                        "qwen2_vl, qwen2_5_vl, gemma3, mllama"):
        HFBackend(str(bert))


def _free_requests(n=4, budget=6):
    from PIL import Image

    from nhfair_jax.lvlm.backends import Request

    rng = np.random.default_rng(1)
    prompts = ["Is the person in the photo male or female?", "Describe the person",
               "Is it a nurse?", "Give me a one-word label"]
    return [Request(key=str(i), prompt=prompts[i % 4], options=None, max_new_tokens=budget,
                    system="You are a helpful assistant." if i % 2 else "",
                    image=Image.fromarray(rng.integers(0, 255, (*SIZES[i % 4], 3),
                                                       dtype=np.uint8)))
            for i in range(n)]


def _argmax_decode(backend, request):
    """Greedy decoding written out: the model's arg max token, one step at a time, no cache."""
    import torch

    inputs = dict(backend._inputs([backend._chat(request.prompt, request.system)],
                                  [request.image]))
    length = inputs["input_ids"].shape[1]
    out = []
    for _ in range(request.max_new_tokens):
        with torch.inference_mode():
            logits = backend.model(**inputs).logits[0, -1]
        token = int(logits.argmax())
        out.append(token)
        if token in backend.eos_ids:
            break
        for k, v in list(inputs.items()):
            if torch.is_tensor(v) and v.dim() == 2 and v.shape == (1, length):
                fill = token if k == "input_ids" else int(k == "attention_mask")
                inputs[k] = torch.cat([v, torch.full((1, 1), fill, dtype=v.dtype)], 1)
        length += 1
    return backend.tokenizer.decode(out, skip_special_tokens=True)


@pytest.mark.slow
@pytest.mark.parametrize("family", ["gemma3", "llava_sampling"])
def test_decoding_is_greedy_whatever_the_checkpoint_samples(family, checkpoints, tmp_path):
    from nhfair_jax.bridge.lvlm_hf import HFBackend
    from tests.lvlm_tiny import SAMPLING, make_llava_next

    folder = (checkpoints["gemma3"] if family == "gemma3"
              else make_llava_next(str(tmp_path / "llava"), sampling=True))
    with open(os.path.join(folder, "generation_config.json")) as f:
        shipped = json.load(f)
    assert {k: shipped[k] for k in SAMPLING} == SAMPLING  # the checkpoint asks to sample
    backend = HFBackend(folder, batch_size=4, score_options=False)
    requests = _free_requests()
    got = [r.text for r in backend.answer(requests)]
    assert got == [_argmax_decode(backend, r) for r in requests]
    assert got == [r.text for r in backend.answer(requests)]  # and again: nothing sampled


@pytest.mark.slow
@pytest.mark.parametrize("family", ["llava_next", "gemma3", "mllama", "qwen2_vl"])
def test_one_bos_token_and_the_system_prompt(family, checkpoints):
    from nhfair_jax.bridge.lvlm_hf import HFBackend

    backend = HFBackend(checkpoints[family], batch_size=2, score_options=False)
    request = _free_requests(2)[1]
    chat = backend._chat(request.prompt, request.system)
    assert "You are a helpful assistant." in chat
    assert "helpful" not in backend._chat(request.prompt, "")
    ids = backend._inputs([chat], [request.image])["input_ids"][0].tolist()
    bos = backend.tokenizer.bos_token_id
    if family == "qwen2_vl":
        assert bos is None or bos not in ids
    else:  # the tokenizer adds BOS on its own; the template may hold one already
        assert backend.tokenizer("x")["input_ids"][0] == bos
        assert ids.count(bos) == 1 and ids[0] == bos


@pytest.mark.slow
def test_finish_reason_and_truncated_answers_counted_apart(checkpoints, tmp_path):
    mini = make_utkface(str(tmp_path / "utk"), n=6, bad_names=False)
    from nhfair_jax.lvlm.backends import make_backend
    from tests.lvlm_tiny import forcing_processor

    c = lvlm_config("utkface_gender", root=mini.root)
    c.backend.name, c.backend.model = "transformers", checkpoints["qwen2_vl"]
    c.decoding.max_new_tokens = 3
    backend = make_backend(c)
    order = sorted(os.listdir(os.path.join(mini.root, "UTKFace")))
    long = {name: i % 2 for i, name in enumerate(order)}
    backend.factory = lambda requests: forcing_processor(
        backend.tokenizer, ["Male male male male" if long[r.key] else "Male" for r in requests])
    result = run(c, str(tmp_path / "run"), backend=backend, progress=False)
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    for line in lines:
        assert line["finish_reason"] == ("length" if long[line["id"]] else "stop")
        assert line["status"] == "parsed"  # "Male male male" still reads as Male
    n_long = sum(long.values())
    assert result["truncated"]["count"] == n_long
    assert result["truncated"]["by_status"]["parsed"] == n_long
    assert result["status_counts"]["parsed"] == len(lines)


@pytest.mark.slow
def test_check_mode_finds_no_change_under_greedy_decoding(checkpoints, tmp_path):
    from nhfair_jax.lvlm.backends import make_backend
    from nhfair_jax.lvlm.run import check

    mini = make_utkface(str(tmp_path / "utk"), n=8, bad_names=False)
    for i, e in enumerate(mini.examples):
        write_solid(os.path.join(mini.root, e.file), e.colour, size=SIZES[i % len(SIZES)])
    c = lvlm_config("utkface_gender", root=mini.root)
    c.backend.name, c.backend.model = "transformers", checkpoints["llava_next"]
    c.backend.batch_size, c.decoding.max_new_tokens = 8, 5
    run(c, str(tmp_path / "run"), backend=make_backend(c), progress=False)
    out = check(c, str(tmp_path / "run"), n=8)
    assert out["asked"] == 8 and out["changed"] == [] and out["batch_size"] == 8
    assert json.load(open(tmp_path / "run" / "check.json"))["asked"] == 8
