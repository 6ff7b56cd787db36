"""Zero-shot CLIP / BLIP-2 through the torch bridge: tiny random checkpoints written in the test
(tokenizer files, processor, save_pretrained) and loaded exactly as a downloaded one is; the
bridge against direct transformers calls, the embedding cache, logits, the run directory and bad
input. No weights are downloaded."""

from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
import pytest

from tests.helpers import need  # noqa: E402

need("torch")
need("transformers")

from nhfair_jax.bridge import clip as bridge  # noqa: E402
from nhfair_jax.errors import UserError  # noqa: E402
from nhfair_jax.zeroshot.config import zeroshot_config  # noqa: E402
from nhfair_jax.zeroshot.evaluate import evaluate_zeroshot  # noqa: E402
from nhfair_jax.methods.embeddings import zero_shot_logits  # noqa: E402
from tests.helpers import REPO, run_cli  # noqa: E402

CHARS = list("abcdefghijklmnopqrstuvwxyz0123456789.,-")


def write_tiny_clip(folder: str, seed: int = 0, logit_scale: float = 100.0) -> str:
    """A random CLIP (2 small towers) with a character-level BPE tokenizer and its processor."""
    import torch
    from transformers import (CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor,
                              CLIPTokenizer)

    os.makedirs(folder, exist_ok=True)
    vocab = {}
    for token in [*CHARS, *(c + "</w>" for c in CHARS), "<|startoftext|>", "<|endoftext|>"]:
        vocab.setdefault(token, len(vocab))
    with open(os.path.join(folder, "vocab.json"), "w") as f:
        json.dump(vocab, f)
    with open(os.path.join(folder, "merges.txt"), "w") as f:
        f.write("#version: 0.2\n")
    tokenizer = CLIPTokenizer(os.path.join(folder, "vocab.json"),
                              os.path.join(folder, "merges.txt"), model_max_length=48)
    images = CLIPImageProcessor(size={"shortest_edge": 30},
                                crop_size={"height": 30, "width": 30})
    bos, eos = vocab["<|startoftext|>"], vocab["<|endoftext|>"]
    config = CLIPConfig(
        text_config=dict(vocab_size=len(vocab), hidden_size=16, intermediate_size=32,
                         num_hidden_layers=1, num_attention_heads=2, max_position_embeddings=48,
                         bos_token_id=bos, eos_token_id=eos, pad_token_id=eos),
        vision_config=dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                           num_attention_heads=2, image_size=30, patch_size=10),
        projection_dim=8, logit_scale_init_value=math.log(logit_scale))
    torch.manual_seed(seed)
    CLIPModel(config).save_pretrained(folder)
    CLIPProcessor(image_processor=images, tokenizer=tokenizer).save_pretrained(folder)
    return folder


def write_tiny_blip2(folder: str, seed: int = 0) -> str:
    """A random BLIP-2 image-text retrieval model (vision tower, Q-Former with 4 queries) with a
    word-piece tokenizer whose vocabulary is written here, and its processor."""
    import torch
    from transformers import (BertTokenizer, Blip2Config, Blip2ForImageTextRetrieval,
                              Blip2Processor, BlipImageProcessor)

    os.makedirs(folder, exist_ok=True)
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *dict.fromkeys(
        "a photo of digit from to 0 4 5 9 . landbird waterbird bird".split())]
    with open(os.path.join(folder, "vocab.txt"), "w") as f:
        f.write("\n".join(words) + "\n")
    tokenizer = BertTokenizer(os.path.join(folder, "vocab.txt"), model_max_length=32)
    config = Blip2Config(
        vision_config=dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                           num_attention_heads=2, image_size=30, patch_size=10),
        qformer_config=dict(vocab_size=len(words) + 1, hidden_size=16, num_hidden_layers=2,
                            num_attention_heads=2, intermediate_size=32, encoder_hidden_size=16,
                            max_position_embeddings=32, use_qformer_text_input=True),
        text_config=dict(model_type="opt", vocab_size=50, hidden_size=16, num_hidden_layers=1,
                         num_attention_heads=2, ffn_dim=32, word_embed_proj_dim=16),
        num_query_tokens=4, image_text_hidden_size=8)
    torch.manual_seed(seed)
    Blip2ForImageTextRetrieval(config).save_pretrained(folder)
    Blip2Processor(image_processor=BlipImageProcessor(size={"height": 30, "width": 30}),
                   tokenizer=tokenizer, num_query_tokens=4).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def clip_dir(tmp_path_factory):
    return write_tiny_clip(str(tmp_path_factory.mktemp("clip") / "ckpt"))


@pytest.fixture(scope="module")
def blip2_dir(tmp_path_factory):
    return write_tiny_blip2(str(tmp_path_factory.mktemp("blip2") / "ckpt"))


def _images(n=6, size=32, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (n, size, size, 3), dtype=np.uint8)


def digitsb_config(path, cache, model="clip", method=""):
    c = zeroshot_config("digitsb", model, method)
    c.model.path = path
    c.model.embedding_cache = str(cache)
    c.model.batch_size = 64
    c.train.progress = False
    return c


# --- the bridge ------------------------------------------------------------------------------

def test_clip_bridge_equals_a_direct_transformers_call(clip_dir):
    import torch
    from transformers import CLIPModel, CLIPProcessor

    images = _images()
    texts = ["a photo of a digit from 0 to 4.", "a photo of a digit from 5 to 9."]
    enc = bridge.ImageTextEncoder("clip", clip_dir, batch_size=4)  # two batches of images
    model = CLIPModel.from_pretrained(clip_dir).eval()
    proc = CLIPProcessor.from_pretrained(clip_dir)
    with torch.no_grad():
        out = model(**proc(text=texts, images=list(images), return_tensors="pt", padding=True))
    got_img, got_txt = enc.encode_images(images), enc.encode_texts(texts)
    np.testing.assert_allclose(got_img / np.linalg.norm(got_img, axis=1, keepdims=True),
                               out.image_embeds.numpy(), atol=1e-5)
    np.testing.assert_allclose(got_txt / np.linalg.norm(got_txt, axis=1, keepdims=True),
                               out.text_embeds.numpy(), atol=1e-5)
    assert enc.logit_scale == pytest.approx(100.0, rel=1e-5)
    # logit_scale x cosine is exactly the model's own logits_per_image
    np.testing.assert_allclose(zero_shot_logits(got_img, got_txt, enc.logit_scale),
                               out.logits_per_image.numpy(), atol=1e-3)


def test_blip2_bridge_equals_the_model_forward(blip2_dir):
    import torch
    from transformers import AutoProcessor, Blip2ForImageTextRetrieval

    images = _images(4)
    texts = ["a photo of a landbird .", "a photo of a waterbird ."]
    enc = bridge.ImageTextEncoder("blip2", blip2_dir, batch_size=3)
    model = Blip2ForImageTextRetrieval.from_pretrained(blip2_dir).eval()
    proc = AutoProcessor.from_pretrained(blip2_dir)
    pixels = proc.image_processor(list(images), return_tensors="pt")["pixel_values"]
    tokens = proc.tokenizer(texts, return_tensors="pt", padding=True)
    with torch.no_grad():
        itc = model(pixel_values=pixels, **tokens, use_image_text_matching_head=False)
    img, txt = enc.encode_images(images), enc.encode_texts(texts)
    assert img.shape == (4, 4, 8) and txt.shape == (2, 8)
    np.testing.assert_allclose(img, itc.image_embeds.numpy(), atol=1e-5)
    np.testing.assert_allclose(zero_shot_logits(img, txt, 1.0), itc.logits_per_image.numpy(),
                               atol=1e-5)
    match = enc.match_scores(images, texts)
    for t, text in enumerate(texts):
        pair = proc.tokenizer([text] * 4, return_tensors="pt", padding=True)
        with torch.no_grad():
            itm = model(pixel_values=pixels, **pair, use_image_text_matching_head=True)
        logits = itm.logits_per_image.numpy()
        np.testing.assert_allclose(match[:, t], logits[:, 1] - logits[:, 0], atol=1e-5)


def test_wrong_missing_or_incomplete_checkpoint_directories(clip_dir, blip2_dir, tmp_path):
    with pytest.raises(UserError, match=f"{blip2_dir} holds a blip-2 checkpoint, not clip"):
        bridge.ImageTextEncoder("clip", blip2_dir)
    with pytest.raises(UserError, match=f"{clip_dir} holds a clip checkpoint, not blip-2"):
        bridge.ImageTextEncoder("blip2", clip_dir)
    missing = str(tmp_path / "nowhere")
    with pytest.raises(UserError, match=f"checkpoint directory not found: {missing}"):
        bridge.ImageTextEncoder("clip", missing)
    with pytest.raises(UserError, match="no config.json"):
        bridge.ImageTextEncoder("clip", str(tmp_path))
    with pytest.raises(UserError, match="model.path is empty"):
        bridge.ImageTextEncoder("clip", "")


# --- runs, cache, logits ---------------------------------------------------------------------

def _count_calls(monkeypatch):
    calls = {"load": 0, "images": 0, "texts": 0}
    real_load = bridge.ImageTextEncoder._load
    real_images = bridge.ImageTextEncoder.encode_images
    real_texts = bridge.ImageTextEncoder.encode_texts

    def load(self):
        if self._model is None:
            calls["load"] += 1
        return real_load(self)

    def images(self, *a, **kw):
        calls["images"] += 1
        return real_images(self, *a, **kw)

    def texts(self, *a, **kw):
        calls["texts"] += 1
        return real_texts(self, *a, **kw)

    monkeypatch.setattr(bridge.ImageTextEncoder, "_load", load)
    monkeypatch.setattr(bridge.ImageTextEncoder, "encode_images", images)
    monkeypatch.setattr(bridge.ImageTextEncoder, "encode_texts", texts)
    return calls


@pytest.mark.slow
def test_run_directory_logits_and_the_cache(clip_dir, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    calls = _count_calls(monkeypatch)
    config = digitsb_config(clip_dir, cache)
    first = evaluate_zeroshot(config, str(tmp_path / "a"))
    assert calls == {"load": 1, "images": 2, "texts": 1}  # val and test; no training split
    for name in ("result.json", "predictions_val.npz", "predictions_test.npz"):
        assert os.path.exists(tmp_path / "a" / name)
    assert first["zeroshot"]["prompts"] == [["A photo of a digit from 0 to 4."],
                                            ["A photo of a digit from 5 to 9."]]
    assert first["zeroshot"]["logit_scale"] == pytest.approx(100.0, rel=1e-5)

    # logits = logit_scale x cosine of the embeddings, recomputed from a direct call
    from nhfair_jax.data import get_sources
    from nhfair_jax.metrics import softmax

    enc = bridge.ImageTextEncoder("clip", clip_dir)
    test = get_sources("digitsb", None, image_size=32, **config.data.options)["test"]
    img = enc.encode_images(test.images[:40])
    txt = enc.encode_texts([p[0] for p in first["zeroshot"]["prompts"]])
    cos = (img / np.linalg.norm(img, axis=1, keepdims=True)) @ \
        (txt / np.linalg.norm(txt, axis=1, keepdims=True)).T
    pred = np.load(tmp_path / "a" / "predictions_test.npz")
    np.testing.assert_allclose(pred["logits"][:40], 100.0 * cos, atol=1e-3)
    np.testing.assert_array_equal(pred["index"], test.indices)
    np.testing.assert_allclose(pred["score"], softmax(pred["logits"].astype(np.float64)),
                               atol=1e-6)
    # With the scale the probabilities are spread out; without it (the reference code's
    # softmax of bare cosines) they are within a few percent of uniform.
    assert np.abs(pred["score"][:, 1] - 0.5).max() > 0.2
    assert np.abs(softmax(cos)[:, 1] - 0.5).max() < 0.05
    calls.update(load=0, images=0, texts=0)

    # A second run (another run directory): everything from the cache, no model at all.
    again = evaluate_zeroshot(config, str(tmp_path / "b"))
    assert calls == {"load": 0, "images": 0, "texts": 0}
    assert again["zeroshot"]["cache"] == {"hits": 3, "misses": 0, "root": str(cache)}
    assert again["test"]["acc"] == first["test"]["acc"]
    np.testing.assert_array_equal(np.load(tmp_path / "b" / "predictions_test.npz")["logits"],
                                  pred["logits"])

    # A changed prompt: only the captions are encoded again.
    config.method.prompts = ("a small digit.", "a large digit.")
    evaluate_zeroshot(config, str(tmp_path / "c"))
    assert calls == {"load": 1, "images": 0, "texts": 1}

    # A changed checkpoint (same files, other weights): everything is encoded again.
    other = write_tiny_clip(str(tmp_path / "other"), seed=1)
    calls.update(load=0, images=0, texts=0)
    config.model.path = other
    changed = evaluate_zeroshot(config, str(tmp_path / "d"))
    assert calls == {"load": 1, "images": 2, "texts": 1}
    assert changed["zeroshot"]["checkpoint_sha256"] != first["zeroshot"]["checkpoint_sha256"]


def test_a_target_or_data_change_never_reuses_image_embeddings(clip_dir, tmp_path, monkeypatch):
    from nhfair_jax.zeroshot.evaluate import image_key

    config = digitsb_config(clip_dir, tmp_path / "cache")
    base = image_key(config, "test", "clip", {"size": 30})
    for key, value in (("target", "x"), ("sensitive", "y"), ("image_size", 64),
                       ("split_seed", 3)):
        changed = digitsb_config(clip_dir, tmp_path / "cache")
        changed.data[key] = value
        assert image_key(changed, "test", "clip", {"size": 30}) != base, key
    assert image_key(config, "test", "clip", {"size": 31}) != base  # another crop / resize
    # the stored rows are checked too: an entry written for other examples is not reused
    from nhfair_jax.zeroshot.cache import EmbeddingCache

    cache = EmbeddingCache(str(tmp_path / "c2"))
    key = {"dataset": "d", "split": "test"}
    cache.images("f" * 64, key, np.arange(3), lambda: np.ones((3, 2)))
    cache.images("f" * 64, key, np.array([0, 1, 5]), lambda: np.zeros((3, 2)))
    assert (cache.hits, cache.misses) == (0, 2)


@pytest.mark.slow
def test_blip2_run_itc_and_itm(blip2_dir, tmp_path):
    config = digitsb_config(blip2_dir, tmp_path / "cache", model="blip2")
    itc = evaluate_zeroshot(config, str(tmp_path / "itc"))
    assert itc["zeroshot"]["head"] == "itc" and itc["method"] == "blip2"
    assert itc["zeroshot"]["logit_scale"] == pytest.approx(1 / 0.07)
    config.method.head = "itm"
    itm = evaluate_zeroshot(config, str(tmp_path / "itm"))
    assert itm["zeroshot"]["head"] == "itm"
    a = np.load(tmp_path / "itc" / "predictions_test.npz")["logits"]
    b = np.load(tmp_path / "itm" / "predictions_test.npz")["logits"]
    assert a.shape == b.shape == (itc["split_sizes"]["test"], 2) and not np.allclose(a, b)


@pytest.mark.slow
def test_debiased_runs_fit_on_the_training_split(clip_dir, tmp_path):
    for method, tuned_key in (("sfid", "n_pruned"), ("fairerclip", "image_dims")):
        config = digitsb_config(clip_dir, tmp_path / "cache", method=method)
        if method == "fairerclip":
            config.method.rff_dim = 200
        result = evaluate_zeroshot(config, str(tmp_path / method))
        assert result["method"] == method and tuned_key in result["tuned"]
    assert result["zeroshot"]["cache"]["misses"] == 0  # the second method reuses all three splits


# --- bad input -------------------------------------------------------------------------------

def _cache_files(cache) -> list:
    return [os.path.join(d, f) for d, _, files in os.walk(cache) for f in files]


def test_prompt_list_of_the_wrong_length_writes_nothing(clip_dir, tmp_path):
    config = digitsb_config(clip_dir, tmp_path / "cache")
    config.method.prompts = ("one.", "two.", "three.")
    with pytest.raises(UserError, match="method.prompts has 3 caption entries for 2 classes"):
        evaluate_zeroshot(config, str(tmp_path / "run"))
    assert _cache_files(tmp_path / "cache") == []
    assert not os.path.exists(tmp_path / "run" / "result.json")


@pytest.mark.slow
def test_prompt_files_and_ensembles(clip_dir, tmp_path):
    from nhfair_jax.zeroshot.prompts import resolve_prompts

    names = ["digit_0_4", "digit_5_9"]
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"digit_5_9": ["big.", "large."], "digit_0_4": "small."}))
    cfg = {"prompts": (), "prompt_file": str(path)}
    assert resolve_prompts(cfg, "digitsb", names) == [["small."], ["big.", "large."]]
    txt = tmp_path / "p.txt"
    txt.write_text("small. || tiny.\nbig.\n")
    cfg["prompt_file"] = str(txt)
    assert resolve_prompts(cfg, "digitsb", names) == [["small.", "tiny."], ["big."]]
    (tmp_path / "q.json").write_text('{"digit_5_9": "x"}')
    with pytest.raises(UserError, match="has no captions for class\\(es\\) \\['digit_0_4'\\]"):
        resolve_prompts({"prompts": (), "prompt_file": str(tmp_path / "q.json")}, "digitsb", names)
    # a default exists only for the target it was written for
    with pytest.raises(UserError, match="default captions of celeba are for the classes"):
        resolve_prompts({"prompts": (), "prompt_file": ""}, "celeba", ["not_Smiling", "Smiling"])
    # the ensemble is averaged per class before the cosine
    config = digitsb_config(clip_dir, tmp_path / "cache")
    config.method.prompts = ("small. || tiny.", "big.")
    result = evaluate_zeroshot(config, str(tmp_path / "run"))
    assert result["zeroshot"]["prompts"] == [["small.", "tiny."], ["big."]]


def test_unreadable_image_is_one_error_and_nothing_is_cached(clip_dir, tmp_path):
    from nhfair_jax.data import DataError
    from tests.miniatures import corrupt, make_waterbirds

    mini = make_waterbirds(str(tmp_path / "wb"))
    config = zeroshot_config("waterbirds", "clip")
    config.data.root = mini.root
    config.data.image_size = 32
    config.data.cache_dir = str(tmp_path / "store")
    config.model.path, config.train.progress = clip_dir, False
    ok = evaluate_zeroshot(config, str(tmp_path / "ok"))  # the real loader, Table 8's captions
    assert ok["zeroshot"]["prompts"] == [["A photo of a landbird."], ["A photo of a waterbird."]]
    corrupt(os.path.join(mini.root, mini.examples[3].file))
    config.data.cache_dir = str(tmp_path / "store2")
    with pytest.raises(DataError, match="cannot read image .*_0049_21.jpg"):
        evaluate_zeroshot(config, str(tmp_path / "bad"))
    assert _cache_files(tmp_path / "store2" / "embeddings") == []


def test_torch_missing_is_one_line_with_the_install_command(clip_dir, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch -> ImportError
    config = digitsb_config(clip_dir, tmp_path / "cache")
    with pytest.raises(UserError) as e:
        evaluate_zeroshot(config, str(tmp_path / "run"))
    assert "torch is not installed" in str(e.value) and 'pip install -e ".[zeroshot]"' in \
        str(e.value) and "\n" not in str(e.value)
    assert not os.path.exists(tmp_path / "cache")


def test_method_and_backbone_must_match(blip2_dir, tmp_path):
    config = digitsb_config(blip2_dir, tmp_path / "cache", model="blip2", method="sfid")
    with pytest.raises(UserError, match="method 'sfid' works with model.name in \\['clip'\\]"):
        evaluate_zeroshot(config, str(tmp_path / "run"))


@pytest.mark.slow
def test_the_run_command(clip_dir, blip2_dir, tmp_path):
    """python -m nhfair_jax.run on a zero-shot config, and its one-line error for a wrong dir."""
    env = {"NHFAIR_CACHE": str(tmp_path / "cache")}
    out = run_cli("--config", os.path.join(REPO, "configs/zeroshot.py") + ":digitsb,clip",
                  f"--config.model.path={clip_dir}", "--config.train.progress=False",
                  "--workdir", str(tmp_path / "w"), env=env)
    assert out.returncode == 0, out.stderr
    assert "clip (clip, zero-shot) on digitsb" in out.stdout and "test" in out.stdout
    pred = np.load(tmp_path / "w" / "predictions_test.npz")
    assert set(pred.files) == {"index", "label", "group", "logits", "score"}
    bad = run_cli("--config", os.path.join(REPO, "configs/zeroshot.py") + ":digitsb,clip",
                  f"--config.model.path={blip2_dir}", "--workdir", str(tmp_path / "x"), env=env)
    assert bad.returncode == 1
    lines = [line for line in bad.stderr.splitlines() if line.startswith("error:")]
    assert lines == [f"error: {blip2_dir} holds a blip-2 checkpoint, not clip; point model.path "
                     "at a clip checkpoint or set model.name to match it"]


ZEROSHOT_CASES = [(d, m) for d in ("celeba", "utkface", "fairface", "facet", "ham10000",
                                   "fitz17k", "waterbirds", "digitsb") for m in ("clip", "blip2")]


@pytest.mark.parametrize("dataset,model", ZEROSHOT_CASES)
def test_zeroshot_configs_load_with_the_data_of_the_erm_configs(dataset, model, tmp_path):
    from nhfair_jax.config import load_config_file
    from nhfair_jax.data import get_sources, known_datasets
    from nhfair_jax.methods import spec
    from nhfair_jax.methods.registry import ZERO_SHOT
    from nhfair_jax.zeroshot.prompts import TABLE8

    path = os.path.join(REPO, "configs", "zeroshot.py")
    variants = [load_config_file(f"{path}:{dataset},{model}")]
    if model == "clip":
        variants += [load_config_file(f"{path}:{dataset},clip,{v}") for v in ("fairerclip", "sfid")]
    erm_config = load_config_file(os.path.join(REPO, "configs", "dataset.py") + f":{dataset}")
    for c in variants:
        assert c.data.name == dataset in known_datasets() and dataset in TABLE8
        assert c.model.name == model and spec(c.method.name).kind == ZERO_SHOT
        assert c.data.to_dict() == erm_config.data.to_dict()  # the trained methods' splits
        assert c.eval.utility == erm_config.eval.utility
    assert [c.method.name for c in variants] == ([model, "fairerclip", "sfid"]
                                                  if model == "clip" else [model])
    if dataset != "digitsb":
        missing = str(tmp_path / "absent")
        with pytest.raises(FileNotFoundError, match=f"data not found at {missing}"):
            get_sources(dataset, missing, **variants[0].data.options)


@pytest.mark.slow
def test_half_precision_and_non_finite_embeddings(clip_dir, blip2_dir, tmp_path):
    """bfloat16 (what a GPU run does in float16) stays close to float32; an overflow to NaN is an
    error before anything is cached (transformers' own BLIP-2 forward gives NaN in float16 on the
    CPU)."""
    images = _images(3)
    ref = bridge.ImageTextEncoder("clip", clip_dir).encode_images(images)
    half = bridge.ImageTextEncoder("clip", clip_dir, dtype="bfloat16").encode_images(images)
    assert half.dtype == np.float32 and np.abs(half - ref).max() < 0.05
    with pytest.raises(UserError, match="non-finite image embeddings in float16; set "
                                        "model.dtype=float32"):
        bridge.ImageTextEncoder("blip2", blip2_dir, dtype="float16").encode_images(images)
    config = digitsb_config(blip2_dir, tmp_path / "cache", model="blip2")
    config.model.dtype = "float16"
    with pytest.raises(UserError, match="non-finite"):
        evaluate_zeroshot(config, str(tmp_path / "run"))
    # the (finite) caption embeddings are a valid entry; no image entry was written
    assert not [f for f in _cache_files(tmp_path / "cache") if "images-" in f]
    with pytest.raises(UserError, match="model.dtype must be auto, float16, bfloat16 or float32"):
        bridge.ImageTextEncoder("clip", clip_dir, dtype="half8").encode_images(images)


@pytest.mark.parametrize("dataset", ["celeba", "utkface", "fairface", "facet", "ham10000",
                                     "fitz17k", "waterbirds"])
def test_table8_captions_fit_the_loaders_default_classes(dataset, tmp_path):
    """The default captions resolve against the class names each loader really gives (a
    miniature of the official layout), in class order."""
    from nhfair_jax.data.loaders import LOADERS
    from nhfair_jax.zeroshot.prompts import TABLE8, default_prompts
    from tests.miniatures import MAKERS

    mini = MAKERS[dataset](str(tmp_path / dataset))
    names = LOADERS[dataset](mini.root).class_names
    prompts = default_prompts(dataset, names)
    assert [p[0] for p in prompts] == list(TABLE8[dataset][1]) and len(prompts) == len(names)
