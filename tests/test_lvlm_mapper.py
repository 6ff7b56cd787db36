"""The study's embedding answer mapper with tiny random sentence encoders written in the test (a
sentence-T5 folder laid out as sentence-transformers saves it, and a CLIP checkpoint): the
embedding follows the recipe (mean pooling, dense projection, unit norm), the mapping is the
arg max of softmax(100 x cosine) with its margin recorded, abstaining below a margin is an
option, and a run maps the direct question's answers with it."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.config import lvlm_config
from nhfair_jax.lvlm.mapper import EmbeddingMapper
from nhfair_jax.lvlm.run import run
from tests.helpers import need
from tests.lvlm_stub import Stub, image_hash
from tests.miniatures import make_utkface

CLASSES = ["male", "female"]
ANSWERS = ['"female"', "male", "The person is a woman", "I'm sorry, I can't determine gender.",
           "female", "a man with short hair"]


def _sentence_t5(folder: str) -> str:
    import torch
    from safetensors.torch import save_file
    from transformers import T5Config, T5EncoderModel

    from tests.lvlm_tiny import _tokenizer

    tok = _tokenizer([])
    torch.manual_seed(0)
    model = T5EncoderModel(T5Config(vocab_size=len(tok), d_model=16, d_kv=8, d_ff=32,
                                    num_layers=1, num_heads=2, pad_token_id=0))
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    modules = [("", "Transformer"), ("1_Pooling", "Pooling"), ("2_Dense", "Dense"),
               ("3_Normalize", "Normalize")]
    with open(os.path.join(folder, "modules.json"), "w") as f:
        json.dump([{"idx": i, "name": str(i), "path": p, "type": f"sentence_transformers.models.{t}"}
                   for i, (p, t) in enumerate(modules)], f)
    for path, config in (("1_Pooling", {"word_embedding_dimension": 16,
                                        "pooling_mode_mean_tokens": True}),
                         ("2_Dense", {"in_features": 16, "out_features": 12, "bias": False,
                                      "activation_function":
                                          "torch.nn.modules.linear.Identity"}),
                         ("3_Normalize", {})):
        os.makedirs(os.path.join(folder, path), exist_ok=True)
        with open(os.path.join(folder, path, "config.json"), "w") as f:
            json.dump(config, f)
    save_file({"linear.weight": torch.randn(12, 16)},
              os.path.join(folder, "2_Dense", "model.safetensors"))
    return folder


def _clip(folder: str) -> str:
    import torch
    from tokenizers import processors
    from transformers import CLIPConfig, CLIPModel

    from tests.lvlm_tiny import _tokenizer

    tok = _tokenizer(["<|startoftext|>", "<|endoftext|>"], eos_token="<|endoftext|>")
    eos = tok.convert_tokens_to_ids("<|endoftext|>")
    # CLIP's tokenizer ends every text with its end token, where the text tower pools
    tok._tokenizer.post_processor = processors.TemplateProcessing(
        single="$A <|endoftext|>", special_tokens=[("<|endoftext|>", eos)])
    torch.manual_seed(1)
    config = CLIPConfig(text_config=dict(vocab_size=len(tok), hidden_size=16,
                                         intermediate_size=32, num_hidden_layers=1,
                                         num_attention_heads=2, max_position_embeddings=64,
                                         pad_token_id=0, eos_token_id=eos, bos_token_id=1),
                        vision_config=dict(hidden_size=16, intermediate_size=32,
                                           num_hidden_layers=1, num_attention_heads=2,
                                           image_size=28, patch_size=14), projection_dim=8)
    CLIPModel(config).save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def encoders(tmp_path_factory):
    need("transformers")
    root = tmp_path_factory.mktemp("enc")
    return {"sentence_t5": _sentence_t5(str(root / "st5")), "clip": _clip(str(root / "clip"))}


def _by_hand(folder, texts):
    """sentence-T5's embedding written out: encoder states, masked mean, dense, unit norm."""
    import torch
    from safetensors.torch import load_file
    from transformers import AutoTokenizer, T5EncoderModel

    tok = AutoTokenizer.from_pretrained(folder)
    model = T5EncoderModel.from_pretrained(folder).eval()
    w = load_file(os.path.join(folder, "2_Dense", "model.safetensors"))["linear.weight"]
    rows = []
    for text in texts:  # one at a time: no padding at all
        ids = tok(text, return_tensors="pt")
        with torch.no_grad():
            h = model(**ids).last_hidden_state[0]
        v = h.mean(0) @ w.T
        rows.append((v / v.norm()).numpy())
    return np.stack(rows)


@pytest.mark.slow
def test_sentence_t5_embedding_follows_the_recipe(encoders):
    from nhfair_jax.bridge.text_encoder import TextEncoder

    enc = TextEncoder(encoders["sentence_t5"], device="cpu", batch_size=4)
    got = enc.encode(ANSWERS + CLASSES)  # batched, padded
    np.testing.assert_allclose(got, _by_hand(encoders["sentence_t5"], ANSWERS + CLASSES),
                               atol=1e-5)
    assert got.shape == (8, 12)


@pytest.mark.slow
def test_mapping_is_the_arg_max_of_softmax_of_100_cosines(encoders):
    from nhfair_jax.bridge.text_encoder import TextEncoder

    enc = TextEncoder(encoders["sentence_t5"], device="cpu")
    out = EmbeddingMapper(enc).map(ANSWERS + CLASSES, CLASSES, ["Male", "Female"])
    a, c = _by_hand(encoders["sentence_t5"], ANSWERS + CLASSES), _by_hand(
        encoders["sentence_t5"], CLASSES)
    cos = a.astype(np.float64) @ c.astype(np.float64).T
    e = np.exp(100 * (cos - cos.max(1, keepdims=True)))  # exp(100) overflows in float32
    probs = e / e.sum(1, keepdims=True)
    for p, row, prob in zip(out, cos, probs):
        assert (p.status, p.stage) == ("parsed", "embedding")  # never abstains: the study
        assert p.label == int(row.argmax()) and p.text == ("Male", "Female")[p.label]
        assert p.margin == pytest.approx(abs(row[0] - row[1]), abs=1e-5)
        assert p.prob == pytest.approx(prob.max(), rel=1e-4)
    assert [p.label for p in out[-2:]] == [0, 1]  # a class name maps to itself (cosine 1)
    assert out[-1].margin > 0


@pytest.mark.slow
def test_abstaining_below_a_margin_is_an_option(encoders):
    from nhfair_jax.bridge.text_encoder import TextEncoder

    enc = TextEncoder(encoders["sentence_t5"], device="cpu")
    margins = [p.margin for p in EmbeddingMapper(enc).map(ANSWERS, CLASSES, CLASSES)]
    cut = float(np.median(margins))
    out = EmbeddingMapper(enc, abstain_margin=cut).map(ANSWERS, CLASSES, CLASSES)
    for p, m in zip(out, margins):
        assert (p.status == "unparseable") == (m < cut)
        assert p.stage == ("embedding_abstain" if m < cut else "embedding")
    with pytest.raises(UserError, match="abstain_margin must be >= 0"):
        EmbeddingMapper(enc, abstain_margin=-1)


@pytest.mark.slow
def test_clip_text_tower(encoders):
    from nhfair_jax.bridge.text_encoder import TextEncoder

    enc = TextEncoder(encoders["clip"], device="cpu")
    rows = enc.encode(["a photo of a nurse", "a photo of a dancer", "a photo of a nurse"])
    assert rows.shape == (3, 8)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(rows[0], rows[2], atol=1e-6)
    out = EmbeddingMapper(enc).map(["a photo of a dancer"],
                                   ["a photo of a nurse", "a photo of a dancer"],
                                   ["nurse", "dancer"])
    assert out[0].text == "dancer"


@pytest.mark.slow
def test_a_run_maps_free_text_answers_with_the_encoder(encoders, tmp_path):
    mini = make_utkface(str(tmp_path / "utk"), n=6, bad_names=False)
    hashes = [image_hash(open(os.path.join(mini.root, e.file), "rb").read())
              for e in mini.examples]
    script = {h: ANSWERS[i] for i, h in enumerate(hashes)}
    c = lvlm_config("utkface_gender", "direct,single_choice", root=mini.root)
    c.parse.mapper, c.parse.encoder, c.parse.encoder_device = ("embedding",
                                                               encoders["sentence_t5"], "cpu")
    with Stub(script) as stub:
        c.backend.url, c.backend.model = stub.url, "stub-model"
        run(c, str(tmp_path / "run"), progress=False)
    lines = [json.loads(x) for x in open(tmp_path / "run" / "answers.jsonl")]
    direct = [x for x in lines if x["prompt_set"] == "direct"]
    assert len(direct) == 6 and all(x["stage"] == "embedding" for x in direct)
    assert all(x["status"] == "parsed" and x["margin"] >= 0 for x in direct)
    refusal = next(x for x in direct if x["raw"].startswith("I'm sorry"))
    assert refusal["lexicon"]["status"] == "refused"  # the lexicon reader's view, kept
    single = [x for x in lines if x["prompt_set"] == "single_choice"]
    assert single and all("margin" not in x for x in single)  # read by the lexicon reader


def test_bad_mapper_settings_are_one_line_errors(tmp_path):
    mini = make_utkface(str(tmp_path / "utk"), n=2, bad_names=False)
    with Stub({}) as stub:
        c = lvlm_config("utkface_gender", root=mini.root)
        c.backend.url, c.backend.model = stub.url, "stub-model"
        c.parse.mapper = "regex"
        with pytest.raises(UserError, match="parse.mapper must be one of lexicon, embedding"):
            run(c, str(tmp_path / "a"), progress=False)
        c.parse.mapper = "embedding"
        with pytest.raises(UserError, match="parse.mapper='embedding' needs parse.encoder"):
            run(c, str(tmp_path / "b"), progress=False)
        c.parse.encoder = str(tmp_path / "absent")
        with pytest.raises(UserError, match="is not a checkpoint folder"):
            run(c, str(tmp_path / "c"), progress=False)
