"""The generate command: tiny random InstructPix2Pix and img2img pipelines, built here from
diffusers configs and saved with save_pretrained, loaded through the same path as a real
checkpoint and run on a CelebA miniature at 32 px with 2 denoising steps."""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import string
import sys

import numpy as np
import pandas as pd
import pytest

from tests.helpers import need  # noqa: E402

need("torch")
need("diffusers")
need("transformers")

from nhfair_jax.bridge import diffusion  # noqa: E402
from nhfair_jax.data import DataError, get_source  # noqa: E402
from nhfair_jax.errors import UserError  # noqa: E402
from nhfair_jax.generate import (default_config, generate, image_seed,  # noqa: E402
                                 prompts_by_group, read_png, select_rows)
from tests.helpers import REPO, run_cli  # noqa: E402
from tests.miniatures import identify, make_celeba  # noqa: E402

SIZE = 32
WOMAN, MAN = diffusion.SEX_PROMPTS["female"], diffusion.SEX_PROMPTS["male"]


def _tokenizer(folder):
    """A CLIP tokenizer over single characters, written locally (vocab, merges, max length)."""
    from transformers import CLIPTokenizer

    os.makedirs(folder, exist_ok=True)
    chars = sorted(set(string.ascii_lowercase + string.digits + string.punctuation))
    vocab = {t: i for i, t in enumerate(chars + [c + "</w>" for c in chars]
                                        + ["<|startoftext|>", "<|endoftext|>"])}
    with open(os.path.join(folder, "vocab.json"), "w") as f:
        json.dump(vocab, f)
    with open(os.path.join(folder, "merges.txt"), "w") as f:
        f.write("#version: 0.2\n")
    with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
        json.dump({"model_max_length": 40}, f)
    return CLIPTokenizer.from_pretrained(folder), vocab


def _save_pipeline(folder, kind):
    """A tiny random pipeline of `kind` ("ip2p" or "sdedit") saved in `folder`."""
    import torch
    from diffusers import (AutoencoderKL, EulerAncestralDiscreteScheduler, PNDMScheduler,
                           StableDiffusionImg2ImgPipeline, StableDiffusionInstructPix2PixPipeline,
                           UNet2DConditionModel)
    from transformers import CLIPTextConfig, CLIPTextModel

    tokenizer, vocab = _tokenizer(os.path.join(folder + "_tok"))
    torch.manual_seed(0)
    unet = UNet2DConditionModel(
        sample_size=SIZE // 2, in_channels=8 if kind == "ip2p" else 4, out_channels=4,
        block_out_channels=(8, 16), layers_per_block=1, norm_num_groups=4,
        down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
        up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"), cross_attention_dim=8,
        attention_head_dim=2)
    vae = AutoencoderKL(block_out_channels=(8, 16), in_channels=3, out_channels=3,
                        down_block_types=("DownEncoderBlock2D",) * 2,
                        up_block_types=("UpDecoderBlock2D",) * 2, latent_channels=4,
                        norm_num_groups=4, sample_size=SIZE)
    text = CLIPTextModel(CLIPTextConfig(
        vocab_size=len(vocab), hidden_size=8, intermediate_size=16, num_attention_heads=2,
        num_hidden_layers=2, max_position_embeddings=40, projection_dim=8,
        bos_token_id=vocab["<|startoftext|>"], eos_token_id=vocab["<|endoftext|>"],
        pad_token_id=vocab["<|endoftext|>"]))
    common = dict(vae=vae, text_encoder=text, tokenizer=tokenizer, unet=unet,
                  safety_checker=None, feature_extractor=None, requires_safety_checker=False)
    if kind == "ip2p":
        pipe = StableDiffusionInstructPix2PixPipeline(
            scheduler=EulerAncestralDiscreteScheduler(beta_schedule="scaled_linear",
                                                      beta_start=0.00085, beta_end=0.012),
            **common)
    else:
        pipe = StableDiffusionImg2ImgPipeline(
            scheduler=PNDMScheduler(beta_schedule="scaled_linear", beta_start=0.00085,
                                    beta_end=0.012, skip_prk_steps=True,
                                    steps_offset=1), **common)
    pipe.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    base = tmp_path_factory.mktemp("checkpoints")
    return {k: _save_pipeline(str(base / k), k) for k in ("ip2p", "sdedit")}


@pytest.fixture(scope="module")
def celeba(tmp_path_factory):
    return make_celeba(str(tmp_path_factory.mktemp("celeba")), n=60)


@pytest.fixture
def config(ckpt, celeba, tmp_path):
    c = default_config("ip2p")
    c.data.root, c.data.image_size = celeba.root, SIZE
    c.data.target, c.data.sensitive = "Blond_Hair", "Male"
    c.data.cache_dir = str(tmp_path / "cache")
    c.select.split = "test"
    c.model.path = ckpt["ip2p"]
    c.edit.steps, c.edit.batch_size = 2, 4
    c.edit.prompts = {"not_Male": WOMAN, "Male": MAN}
    c.output.progress = False
    return c


@pytest.fixture
def calls(monkeypatch):
    """Counts the editor's pipeline calls (and the images in them)."""
    seen = []
    edit = diffusion.Editor.edit

    def counting(self, images, prompts, seeds):
        seen.append(len(images))
        return edit(self, images, prompts, seeds)

    monkeypatch.setattr(diffusion.Editor, "edit", counting)
    return seen


def _load_pairs(workdir, cache):
    return get_source("celeba_cf", str(workdir), "test", image_size=SIZE, cache_dir=str(cache),
                      progress=False)


@pytest.mark.slow
def test_end_to_end_pairs_the_loader_reads(config, celeba, tmp_path, calls):
    work = tmp_path / "cf"
    summary = generate(config, str(work))
    n = len(get_source("celeba", celeba.root, "test", target="Blond_Hair", image_size=SIZE,
                       cache_dir=config.data.cache_dir, progress=False))
    assert summary["generated"] == summary["pairs"] == n == sum(calls) and n >= 6
    assert calls == [4] * (n // 4) + ([n % 4] if n % 4 else [])  # batched
    frame = pd.read_csv(work / "pairs.csv")
    assert list(frame.columns[:5]) == ["original", "counterfactual", "target", "sensitive", "keep"]
    assert (frame["keep"] == 1).all() and (frame["flagged"] == 0).all()
    for cf in frame["counterfactual"]:
        assert read_png(str(work / cf)).shape == (SIZE, SIZE, 3)
    # Each pair carries its original's CelebA labels and the prompt of its sex.
    examples = identify([read_png(str(work / o)) for o in frame["original"]], celeba)
    for e, (_, row) in zip(examples, frame.iterrows()):
        assert row["target"] == int(e.attrs["Blond_Hair"] == 1)
        assert row["sensitive"] == int(e.attrs["Male"] == 1)
        assert row["prompt"] == (MAN if row["sensitive"] else WOMAN)
        assert row["seed"] == image_seed(config.seed, row["index"])
    pairs = _load_pairs(work, tmp_path / "cache2")
    assert len(pairs) == n and pairs.group_names == ["female", "male"]
    for i in range(n):
        row = frame.iloc[i]
        assert np.array_equal(pairs[i]["image"], read_png(str(work / row["original"])))
        assert np.array_equal(pairs[i]["image_cf"], read_png(str(work / row["counterfactual"])))
        assert not np.array_equal(pairs[i]["image"], pairs[i]["image_cf"])  # really edited
    sheet = (work / "contact_sheet.html").read_text()
    assert sheet.count("<img") == 2 * n and WOMAN in sheet and "http" not in sheet
    for src in frame["original"].tolist() + frame["counterfactual"].tolist():
        assert f'src="{src}"' in sheet  # relative paths, so the folder can be moved
    assert not glob.glob(str(work / "**" / "*.tmp"), recursive=True)


@pytest.mark.slow
def test_same_seed_same_image_whatever_the_batch(config):
    editor = diffusion.load_editor("ip2p", config.model.path, steps=2)
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (3, SIZE, SIZE, 3), dtype=np.uint8)
    batch, _ = editor.edit(images, [WOMAN, MAN, WOMAN], [11, 12, 13])
    alone, _ = editor.edit(images[1:2], [MAN], [12])
    again, _ = editor.edit(images[1:2], [MAN], [12])
    other, _ = editor.edit(images[1:2], [MAN], [99])
    assert np.array_equal(alone, again)
    assert np.abs(batch[1].astype(int) - alone[0]).max() <= 1  # batched kernels' rounding only
    assert np.abs(other[0].astype(int) - alone[0]).mean() > 2  # the seed matters


@pytest.mark.slow
def test_the_command_writes_the_same_images_whatever_the_batch(config, tmp_path):
    config.select.max_images = 4
    config.edit.batch_size = 1
    generate(config, str(tmp_path / "b1"))
    config.edit.batch_size = 3
    generate(config, str(tmp_path / "b4"))
    for path in sorted(glob.glob(str(tmp_path / "b1" / "counterfactuals" / "*.png"))):
        other = read_png(path.replace(f"{os.sep}b1{os.sep}", f"{os.sep}b4{os.sep}"))
        assert np.abs(read_png(path).astype(int) - other).max() <= 1


def test_rerun_generates_nothing_and_keeps_the_marks(config, tmp_path, calls):
    work = tmp_path / "cf"
    config.select.max_images = 3
    first = generate(config, str(work))
    n = first["pairs"]
    frame = pd.read_csv(work / "pairs.csv")
    frame.loc[1, "keep"] = 0  # a reviewer drops the second pair
    frame.to_csv(work / "pairs.csv", index=False)
    stale = work / "counterfactuals" / ".00000001.png.x1y2.tmp"  # a write killed midway
    stale.write_bytes(b"\x89PNG half")
    calls.clear()
    second = generate(config, str(work))
    assert not stale.exists()
    assert calls == [] and second["generated"] == 0 and second["already_there"] == n
    again = pd.read_csv(work / "pairs.csv")
    assert again["keep"].tolist() == [1, 0] + [1] * (n - 2)
    with pytest.warns(UserWarning, match="keep=0, dropped: 1"):
        pairs = _load_pairs(work, tmp_path / "cache2")
    assert len(pairs) == n - 1
    kept = again[again["keep"] == 1].reset_index(drop=True)
    for i in range(n - 1):
        assert np.array_equal(pairs[i]["image_cf"], read_png(str(work / kept["counterfactual"][i])))


def test_keep_must_be_0_or_1(tmp_path):
    from tests.miniatures import make_pairs

    mini = make_pairs(str(tmp_path / "pairs"), n=4)
    frame = pd.read_csv(os.path.join(mini.root, "pairs.csv")).assign(keep=[1, 2, 1, 1])
    frame.to_csv(os.path.join(mini.root, "pairs.csv"), index=False)
    with pytest.raises(DataError, match=r"column 'keep' has value .*2.* at row 1; expected one "
                                        r"of \[0, 1\]"):
        get_source("lfw_cf", mini.root, "test", image_size=8, cache_dir=str(tmp_path / "c"))


@pytest.mark.slow
def test_a_killed_run_continues(config, tmp_path, monkeypatch):
    work = tmp_path / "cf"
    config.edit.batch_size, config.select.max_images = 2, 5
    edit, calls = diffusion.Editor.edit, []

    def dies_on_second_batch(self, images, prompts, seeds):
        if len(calls) == 1:
            raise KeyboardInterrupt
        calls.append(len(images))
        return edit(self, images, prompts, seeds)

    monkeypatch.setattr(diffusion.Editor, "edit", dies_on_second_batch)
    with pytest.raises(KeyboardInterrupt):
        generate(config, str(work))
    assert len(os.listdir(work / "counterfactuals")) == 2
    assert len(pd.read_csv(work / "pairs.csv")) == 2  # what was written is listed
    calls.clear()
    monkeypatch.setattr(diffusion.Editor, "edit", lambda self, *a: calls.append(len(a[0]))
                        or edit(self, *a))
    summary = generate(config, str(work))
    assert summary["already_there"] == 2 and summary["generated"] == sum(calls) > 0
    assert summary["pairs"] == 2 + sum(calls)
    generate(config, str(tmp_path / "straight"))  # the same images as a run never killed
    for name in os.listdir(work / "counterfactuals"):
        a = read_png(str(work / "counterfactuals" / name))
        b = read_png(str(tmp_path / "straight" / "counterfactuals" / name))
        assert np.abs(a.astype(int) - b).max() <= 1


def test_an_image_is_never_written_half(tmp_path, monkeypatch):
    from PIL import Image

    from nhfair_jax.generate import write_png

    def dies_midway(self, fp, *args, **kwargs):
        fp.write(b"\x89PNG half")
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", dies_midway)
    with pytest.raises(OSError, match="disk full"):
        write_png(str(tmp_path / "a.png"), np.zeros((4, 4, 3), np.uint8))
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_sdedit_edits_at_the_configured_size(config, ckpt, tmp_path):
    config.edit.editor, config.model.path = "sdedit", ckpt["sdedit"]
    config.edit.strength, config.edit.steps = 0.5, 4
    config.edit.prompts = {"not_Male": "a woman with short hair", "Male": "a man with long hair"}
    config.select.max_images = 3
    summary = generate(config, str(tmp_path / "hair"))
    frame = pd.read_csv(tmp_path / "hair" / "pairs.csv")
    assert summary["generated"] == len(frame) == 3
    for _, row in frame.iterrows():
        edited = read_png(str(tmp_path / "hair" / row["counterfactual"]))
        original = read_png(str(tmp_path / "hair" / row["original"]))
        assert edited.shape == (SIZE, SIZE, 3) and np.abs(edited.astype(int) - original).mean() > 1
    editor = diffusion.load_editor("sdedit", ckpt["sdedit"], steps=4, strength=0.5)
    a, _ = editor.edit(original[None], ["x"], [5])
    b, _ = editor.edit(original[None], ["x"], [5])
    assert np.array_equal(a, b)


# --- bad input -----------------------------------------------------------------------------


def test_a_checkpoint_of_the_wrong_kind_is_one_line(ckpt, tmp_path):
    with pytest.raises(UserError, match=r"holds StableDiffusionImg2ImgPipeline with a 4-channel "
                                        r"UNet, not an InstructPix2Pix checkpoint.*'sdedit'"):
        diffusion.check_checkpoint(ckpt["sdedit"], "ip2p")
    with pytest.raises(UserError, match="holds StableDiffusionInstructPix2PixPipeline with a "
                                        "8-channel UNet, not a Stable Diffusion"):
        diffusion.load_editor("sdedit", ckpt["ip2p"])
    with pytest.raises(UserError, match="no model_index.json"):
        diffusion.check_checkpoint(str(tmp_path), "ip2p")
    with pytest.raises(UserError, match="does not exist"):
        diffusion.check_checkpoint(str(tmp_path / "absent"), "ip2p")


@pytest.mark.slow
def test_cli_wrong_checkpoint_is_one_error_line(ckpt, tmp_path):
    cfg = tmp_path / "gen.py"
    cfg.write_text("import sys\n"
                   f"sys.path.insert(0, {REPO!r})\n"
                   "from nhfair_jax.generate import default_config\n"
                   "def get_config():\n"
                   "    return default_config('ip2p')\n")
    proc = run_cli(f"--config={cfg}", f"--workdir={tmp_path / 'w'}",
                   f"--config.model.path={ckpt['sdedit']}", module="nhfair_jax.generate")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and lines[-1].startswith("error: model.path ")
    assert "StableDiffusionImg2ImgPipeline" in lines[-1] and "Traceback" not in proc.stderr


def test_a_group_without_a_prompt(config, tmp_path):
    config.edit.prompts = {"Male": MAN}
    with pytest.raises(UserError, match=r"no prompt for group\(s\) \['not_Male'\].*edit.prompt"):
        generate(config, str(tmp_path / "w"))
    assert not os.path.exists(tmp_path / "w")  # nothing started
    with pytest.raises(UserError, match=r"names \['Mael'\], not groups"):
        prompts_by_group(["not_Male", "Male"], {"Mael": MAN, "not_Male": WOMAN})
    assert prompts_by_group(["a", "b"], {"b": "B"}, "all") == ["all", "B"]


@pytest.mark.parametrize("module", ["diffusers", "torch"])
def test_missing_dependency_says_what_to_install(ckpt, monkeypatch, module):
    monkeypatch.setitem(sys.modules, module, None)  # import now fails as if not installed
    with pytest.raises(UserError, match=rf'{module} is not installed.*pip install -e '
                                        r'"\.\[generate\]"'):
        diffusion.load_editor("ip2p", ckpt["ip2p"])


def test_a_workdir_of_other_settings_is_refused(config, tmp_path):
    config.select.max_images = 1
    generate(config, str(tmp_path / "w"))
    config.edit.image_guidance = 3.0
    with pytest.raises(UserError, match=r"other settings \(differs in: edit.image_guidance\)"):
        generate(config, str(tmp_path / "w"))
    config.edit.batch_size = 1  # how it is batched changes no image
    config.edit.image_guidance = 1.8
    assert generate(config, str(tmp_path / "w"))["generated"] == 0
    config.edit.image_guidance = 3.0
    assert generate(config, str(tmp_path / "w"), overwrite=True)["generated"] == 1


def test_images_the_safety_checker_flags_are_not_kept(config, tmp_path):
    class Flagging:  # a stand-in editor: black images, the second of each batch flagged
        device = "cpu"

        def edit(self, images, prompts, seeds):
            return np.zeros_like(images), [i == 1 for i in range(len(images))]

    config.select.max_images, config.edit.batch_size = 4, 2
    summary = generate(config, str(tmp_path / "w"), editor=Flagging())
    frame = pd.read_csv(tmp_path / "w" / "pairs.csv")
    assert frame["flagged"].tolist() == [0, 1, 0, 1] and frame["keep"].tolist() == [1, 0, 1, 0]
    assert summary["flagged"] == 2 and summary["kept"] == 2
    frame.loc[0, "keep"] = 0
    frame.to_csv(tmp_path / "w" / "pairs.csv", index=False)
    generate(config, str(tmp_path / "w"), editor=Flagging())  # the flags survive a rerun
    assert pd.read_csv(tmp_path / "w" / "pairs.csv")["keep"].tolist() == [0, 0, 1, 0]


# --- selection and configs -----------------------------------------------------------------


def test_balanced_selection():
    rng = np.random.default_rng(0)
    labels, groups = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    groups[labels == 1] = np.where(rng.random((labels == 1).sum()) < 0.1, 0, 1)  # a small cell
    small = int(((labels == 1) & (groups == 0)).sum())
    rows = select_rows(labels, groups, balanced=True)
    counts = np.bincount(labels[rows] * 2 + groups[rows], minlength=4)
    assert (counts == small).all()  # per_cell 0: the smallest cell's size
    with pytest.warns(UserWarning, match="fewer than 20 rows"):
        big = select_rows(labels, groups, balanced=True, per_cell=20)
    assert np.bincount(labels[big] * 2 + groups[big], minlength=4).tolist()[2] == small
    few = select_rows(labels, groups, balanced=True, per_cell=3)
    assert set(few) <= set(select_rows(labels, groups, balanced=True, per_cell=5))
    assert np.array_equal(few, select_rows(labels, groups, balanced=True, per_cell=3))
    assert not np.array_equal(few, select_rows(labels, groups, balanced=True, per_cell=3, seed=1))
    assert np.array_equal(select_rows(labels, groups), np.arange(200))


def _load_config(path, arg=None):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_config(arg) if arg else module.get_config()


GENERATE = os.path.join(REPO, "configs", "generate.py")


@pytest.mark.parametrize("recipe", ["celeba_ip2p", "celeba_sdedit_hair", "lfw_ip2p", "csv_ip2p"])
def test_generate_configs_have_prompts_and_stop_without_weights(recipe, tmp_path):
    c = _load_config(GENERATE, recipe)
    groups = {"celeba": ["not_Male", "Male"], "csv": ["female", "male"]}[c.data.name]
    assert len(prompts_by_group(groups, c.edit.prompts.to_dict(), c.edit.prompt)) == 2
    assert c.data.image_size == 256 and c.edit.steps == 50
    c.model.path = str(tmp_path / "weights")
    with pytest.raises(UserError, match=f"model.path {tmp_path / 'weights'} does not exist"):
        generate(c, str(tmp_path / "w"))


def test_ip2p_presets_are_the_papers():
    test = _load_config(GENERATE, "celeba_ip2p")
    train = _load_config(GENERATE, "celeba_ip2p,train")
    assert (test.edit.image_guidance, test.edit.text_guidance) == (1.8, 7.5)
    assert (train.edit.image_guidance, train.edit.text_guidance) == (7.5, 2.0)
    assert test.edit.prompts.to_dict() == {"not_Male": WOMAN, "Male": MAN}
    assert test.select.balanced and test.select.per_cell * 4 == 720  # the paper's 720 pairs


def test_the_contact_sheet_saves_the_ticks_as_keep(config, tmp_path):
    """The page's save button (its script run under node with a stand-in DOM) writes a pairs.csv
    whose keep column is the ticks, and the loader drops the unticked pair."""
    import subprocess

    need("node")
    work = tmp_path / "cf"
    config.select.max_images = 3
    config.edit.prompts = {"not_Male": 'a man, "bearded"', "Male": MAN}  # CSV quoting
    generate(config, str(work))
    before = pd.read_csv(work / "pairs.csv")
    page = (work / "contact_sheet.html").read_text()
    script = page[page.index("<script>") + 8:page.index("</script>")]
    harness = """
let saved = null;
const button = {};
const boxes = [0, 1, 2].map(i => ({dataset: {row: String(i)}, checked: i !== 1}));
globalThis.document = {getElementById: () => button, querySelectorAll: () => boxes,
                       createElement: () => ({click() {}})};
globalThis.Blob = class { constructor(parts) { this.text = parts.join(""); } };
globalThis.URL = {createObjectURL: b => { saved = b.text; return "blob:"; }};
""" + script + "\nbutton.onclick();\nprocess.stdout.write(saved);\n"
    out = subprocess.run(["node", "-e", harness], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    (work / "pairs.csv").write_text(out.stdout)
    frame = pd.read_csv(work / "pairs.csv")
    assert frame["keep"].tolist() == [1, 0, 1]
    pd.testing.assert_frame_equal(frame.drop(columns="keep"), before.drop(columns="keep"))
    assert 'a man, "bearded"' in frame["prompt"].tolist()
    with pytest.warns(UserWarning, match="keep=0, dropped: 1"):
        assert len(_load_pairs(work, tmp_path / "cache2")) == 2
