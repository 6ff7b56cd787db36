"""The local transformers backend on tiny random checkpoints (Qwen2-VL, Qwen2.5-VL, LLaVA-NeXT,
Gemma 3) written in the test and loaded as a downloaded checkpoint is: answers forced per example by a
logits processor run through the whole pipeline; batch sizes 1 and 8 agree; bad checkpoints."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.config import lvlm_config
from nhfair_jax.lvlm.run import run
from tests.miniatures import make_utkface, write_solid
from tests.helpers import need

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
    free_one = [r.text for r in backend.answer(requests[:1])]
    assert free_one == [r.text for r in backend.answer(requests)][:1]


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
