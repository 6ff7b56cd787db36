"""Diffusion image editors for counterfactual images: InstructPix2Pix for the sensitive attribute
and an SDEdit-style image-to-image edit for a latent attribute (e.g. hair length).

Both load a LOCAL diffusers checkpoint directory (nothing is downloaded) and edit uint8 images
in batches, each image with its own seeded `torch.Generator`, so an image's edit depends on its
seed only, not on the other images of its batch (up to the rounding of batched kernels: at most
one grey level on the CPU). Generators live on the CPU on every device, so a seed starts from the
same noise on a laptop and on a GPU. On a GPU the weights run in float16.

    editor = load_editor("ip2p", "/weights/instruct-pix2pix", steps=50, image_guidance=1.8)
    edited, flagged = editor.edit(images_uint8, prompts, seeds)

References:
  Brooks, Holynski, Efros. InstructPix2Pix: Learning to Follow Image Editing Instructions.
  CVPR 2023.
  Meng et al. SDEdit: Guided Image Synthesis and Editing with Stochastic Differential
  Equations. ICLR 2022.
  The counterfactual-fairness benchmark (CelebA-CF / LFW-CF): its appendix gives the
  InstructPix2Pix settings used as defaults here.
"""

from __future__ import annotations

import json
import os
import warnings

import numpy as np

from nhfair_jax.bridge import require, torch_device
from nhfair_jax.errors import UserError

EDITORS = ("ip2p", "sdedit")

# Guidance presets of the counterfactual-fairness paper. "test": its CelebA-CF / LFW-CF test
# pairs (image guidance 1.8, text guidance 7.5, 50 steps, 256 px). "train": the uncurated
# training counterfactuals of Scratch+aug and CP, for which its appendix gives image-CFG 7.5
# and text-CFG 2.0 (stated in that order there; we follow the text as written).
PRESETS = {
    "test": {"image_guidance": 1.8, "text_guidance": 7.5},
    "train": {"image_guidance": 7.5, "text_guidance": 2.0},
}

# The paper's instructions, chosen by the sex of the person in the image.
SEX_PROMPTS = {"female": "turn the woman into a man", "male": "turn the man into a woman"}

# Which saved pipeline classes each editor accepts, and the UNet input channels it needs
# (InstructPix2Pix concatenates the image latents to the noise: 8 channels instead of 4).
_PIPELINES = {
    "ip2p": ("StableDiffusionInstructPix2PixPipeline",),
    "sdedit": ("StableDiffusionImg2ImgPipeline", "StableDiffusionPipeline"),
}
_UNET_IN = {"ip2p": 8, "sdedit": 4}
_LOADER = {"ip2p": "StableDiffusionInstructPix2PixPipeline",
           "sdedit": "StableDiffusionImg2ImgPipeline"}


def check_checkpoint(path: str, editor: str) -> str:
    """Checks that a folder is a diffusers checkpoint the editor can load, without loading it.

    Args:
      path: the checkpoint directory (`save_pretrained` layout with `model_index.json`).
      editor: "ip2p" or "sdedit".

    Returns:
      the pipeline class name the folder was saved as.

    Raises:
      UserError: no such folder, not a diffusers pipeline, or a pipeline of another kind.
    """
    if editor not in EDITORS:
        raise UserError(f"edit.editor must be one of {EDITORS}, got {editor!r}")
    what = "an InstructPix2Pix" if editor == "ip2p" else "a Stable Diffusion (img2img)"
    if not path:
        raise UserError(f"model.path is empty; set it to the local folder of {what} checkpoint "
                        "(diffusers save_pretrained layout)")
    index = os.path.join(path, "model_index.json")
    if not os.path.isdir(path):
        raise UserError(f"model.path {path} does not exist; set it to the local folder of {what} "
                        "checkpoint")
    if not os.path.exists(index):
        raise UserError(f"model.path {path} is not a diffusers pipeline folder (no "
                        f"model_index.json); point it at {what} checkpoint saved with "
                        "save_pretrained")
    try:
        with open(index) as f:
            saved = json.load(f).get("_class_name", "")
    except (OSError, ValueError) as e:
        raise UserError(f"cannot read {index}: {e}") from e
    unet_in = _unet_in_channels(path)
    if saved not in _PIPELINES[editor] or (unet_in is not None and unet_in != _UNET_IN[editor]):
        holds = saved or "an unnamed pipeline"
        if unet_in is not None:
            holds += f" with a {unet_in}-channel UNet"
        other = [e for e in EDITORS if e != editor][0]
        hint = (f"; that is edit.editor={other!r}'s kind" if saved in _PIPELINES[other] else "")
        raise UserError(f"model.path {path} holds {holds}, not {what} checkpoint (edit.editor="
                        f"{editor!r} needs {' or '.join(_PIPELINES[editor])} with a "
                        f"{_UNET_IN[editor]}-channel UNet){hint}")
    return saved


def _unet_in_channels(path: str) -> int | None:
    try:
        with open(os.path.join(path, "unet", "config.json")) as f:
            return int(json.load(f)["in_channels"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


class Editor:
    """A loaded diffusers pipeline and its settings; `edit` turns uint8 images into edits."""

    def __init__(self, pipe, editor: str, *, steps: int, image_guidance: float,
                 text_guidance: float, strength: float, negative_prompt: str, device: str):
        self.pipe, self.editor, self.device = pipe, editor, device
        self.steps, self.image_guidance, self.text_guidance = steps, image_guidance, text_guidance
        self.strength, self.negative_prompt = strength, negative_prompt

    def edit(self, images: np.ndarray, prompts: list[str], seeds: list[int]
             ) -> tuple[np.ndarray, list[bool]]:
        """Edits a batch of images, each with its prompt and its seed.

        Args:
          images: uint8 [B, H, W, 3]; H and W multiples of the VAE's downsampling (8 for Stable
            Diffusion).
          prompts: B instructions (ip2p) or descriptions of the wanted image (sdedit).
          seeds: B integer seeds; an image's edit depends on its own seed only.

        Returns:
          (uint8 [B, H, W, 3] edits, B flags of the checkpoint's safety checker; a flagged image
          comes back as the checker left it, usually black).
        """
        torch = require("torch")
        from PIL import Image

        images = np.asarray(images)
        if not (len(images) == len(prompts) == len(seeds)):
            raise ValueError(f"{len(images)} images, {len(prompts)} prompts, {len(seeds)} seeds")
        pil = [Image.fromarray(np.asarray(im, np.uint8)) for im in images]
        generators = [torch.Generator("cpu").manual_seed(int(s)) for s in seeds]
        kwargs = {"prompt": list(prompts), "image": pil, "num_inference_steps": self.steps,
                  "guidance_scale": self.text_guidance, "generator": generators,
                  "output_type": "np"}
        if self.negative_prompt:
            kwargs["negative_prompt"] = [self.negative_prompt] * len(prompts)
        if self.editor == "ip2p":
            kwargs["image_guidance_scale"] = self.image_guidance
        else:
            kwargs["strength"] = self.strength
        with torch.inference_mode():
            out = self.pipe(**kwargs)
        edited = np.clip(np.round(np.asarray(out.images, np.float32) * 255.0), 0, 255)
        flagged = out.nsfw_content_detected
        flagged = [bool(f) for f in flagged] if flagged is not None else [False] * len(images)
        return edited.astype(np.uint8), flagged


def _dtype(torch, name: str, device: str):
    if name == "auto":
        return torch.float16 if device.startswith("cuda") else torch.float32
    if name not in ("float16", "bfloat16", "float32"):
        raise UserError(f"model.dtype must be auto, float16, bfloat16 or float32, got {name!r}")
    return getattr(torch, name)


def load_editor(editor: str, path: str, *, steps: int = 50, image_guidance: float = 1.8,
                text_guidance: float = 7.5, strength: float = 0.5, negative_prompt: str = "",
                device: str = "auto", dtype: str = "auto") -> Editor:
    """Loads an editor from a local diffusers checkpoint directory.

    Args:
      editor: "ip2p" (StableDiffusionInstructPix2PixPipeline) or "sdedit"
        (StableDiffusionImg2ImgPipeline, from an img2img or a text-to-image Stable Diffusion
        checkpoint: same weights).
      path: the checkpoint directory; it is only read, never downloaded to.
      steps: denoising steps (the paper: 50). SDEdit runs `int(steps * strength)` of them.
      image_guidance: InstructPix2Pix's image guidance scale (the paper's Image-CFG: 1.8 for its
        test pairs, 7.5 for training counterfactuals).
      text_guidance: classifier-free guidance of the text (the paper's Text-CFG: 7.5 / 2.0).
      strength: SDEdit's noise level in (0, 1]: how far the image is noised before denoising.
        The paper edited hair length with hand-drawn strokes and gives no strength; 0.5 is our
        default, to be judged on the contact sheet.
      negative_prompt: optional text to steer away from.
      device: "auto" (CUDA when available), "cuda", "cuda:1", "cpu".
      dtype: "auto" (float16 on CUDA, float32 on the CPU), "float16", "bfloat16", "float32".

    Raises:
      UserError: the folder is not a checkpoint of the editor's kind, or torch / diffusers are
        not installed (the message says how to install them).
    """
    check_checkpoint(path, editor)
    if not 0.0 < float(strength) <= 1.0:
        raise UserError(f"edit.strength must be in (0, 1], got {strength}")
    if int(steps) < 1:
        raise UserError(f"edit.steps must be at least 1, got {steps}")
    torch = require("torch", extra="generate")
    require("transformers", extra="generate")  # the text encoder and tokenizer
    diffusers = require("diffusers", extra="generate")
    device = torch_device(device)
    cls = getattr(diffusers, _LOADER[editor])
    try:
        with warnings.catch_warnings():  # newer diffusers call it `dtype`; both accept this
            warnings.filterwarnings("ignore", message=".*torch_dtype.*", category=FutureWarning)
            pipe = cls.from_pretrained(path, torch_dtype=_dtype(torch, dtype, device),
                                       local_files_only=True)
    except (OSError, ValueError, TypeError, KeyError) as e:
        raise UserError(f"cannot load the checkpoint in {path} as {_LOADER[editor]}: "
                        f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from e
    pipe = pipe.to(device)
    pipe.set_progress_bar_config(disable=True)
    return Editor(pipe, editor, steps=int(steps), image_guidance=float(image_guidance),
                  text_guidance=float(text_guidance), strength=float(strength),
                  negative_prompt=negative_prompt, device=device)
