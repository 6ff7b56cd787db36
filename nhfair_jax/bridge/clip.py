"""Image-text embeddings from CLIP and BLIP-2 checkpoints on local disk, through transformers.

The only module of the zero-shot study that imports torch or transformers. It turns uint8 images
and caption strings into float32 NumPy embeddings; everything after that (similarities, logits,
debiasing, metrics) is JAX / NumPy in `nhfair_jax.zeroshot`.

    encoder = ImageTextEncoder("clip", "/weights/clip-vit-base-patch16")
    images = encoder.encode_images(uint8_array)   # [N, D]
    texts = encoder.encode_texts(["A photo of a landbird.", "A photo of a waterbird."])  # [T, D]

- CLIP (`transformers.CLIPModel`, model type "clip"): the projected pooled embeddings of
  `get_image_features` / `get_text_features`, with the checkpoint's own `logit_scale`.
- BLIP-2 (`transformers.Blip2ForImageTextRetrieval`, model type "blip-2"): the image-text
  contrastive (ITC) features of the Q-Former, one embedding per query token for an image ([N, Q,
  D]) and the [CLS] embedding for a text, both L2-normalised as the model's own forward pass does
  (an image-text score is the maximum over query tokens of the cosine). transformers' BLIP-2 has
  no learned temperature, so `logit_scale` is 1/0.07 (the initial temperature of the original
  training code) unless the config says otherwise. `match_scores` gives the image-text matching
  (ITM) head's logits instead, for one image batch against every caption.

Nothing is downloaded: the directory must hold the model's `config.json`, weights and processor
files (what `save_pretrained` writes). The model loads on the first encode call, in half precision
on a GPU, float32 on the CPU, and runs batched under `torch.no_grad`.
"""

from __future__ import annotations

import hashlib
import json
import os

import numpy as np

from nhfair_jax.bridge import require, torch_device
from nhfair_jax.errors import UserError

# Bumped whenever a change here changes the embeddings: part of every cache key.
BRIDGE_VERSION = 1
# model.name -> (the config.json model_type it needs, the transformers class that loads it)
KINDS = {"clip": ("clip", "CLIPModel"), "blip2": ("blip-2", "Blip2ForImageTextRetrieval")}
BLIP2_LOGIT_SCALE = 1.0 / 0.07


def checkpoint_type(path: str, kind: str) -> str:
    """The model type of a checkpoint directory, checked against the kind asked for.

    Raises:
      UserError: no such directory, no config.json in it, or a model of another type.
    """
    if kind not in KINDS:
        raise UserError(f"model.name must be one of {sorted(KINDS)} for a zero-shot run, got "
                        f"{kind!r}")
    if not path:
        raise UserError(f"model.path is empty; set --config.model.path to a local {kind} "
                        "checkpoint directory (what save_pretrained writes)")
    if not os.path.isdir(path):
        raise UserError(f"checkpoint directory not found: {path}; set model.path to a local "
                        f"{kind} checkpoint directory (nothing is downloaded)")
    config_path = os.path.join(path, "config.json")
    if not os.path.exists(config_path):
        raise UserError(f"{path} is not a transformers checkpoint (no config.json); set model.path "
                        f"to a {kind} checkpoint directory")
    try:
        with open(config_path) as f:
            model_type = json.load(f).get("model_type", "")
    except (OSError, json.JSONDecodeError) as e:
        raise UserError(f"cannot read {config_path}: {e}") from e
    expected = KINDS[kind][0]
    if model_type != expected:
        raise UserError(f"{path} holds a {model_type or 'model of unknown type'!s} checkpoint, "
                        f"not {expected}; point model.path at a {kind} checkpoint or set "
                        "model.name to match it")
    return model_type


def checkpoint_hash(path: str) -> str:
    """SHA-256 over the relative names and contents of every file of a checkpoint directory."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            full = os.path.join(root, name)
            digest.update(os.path.relpath(full, path).encode() + b"\0")
            with open(full, "rb") as f:
                for block in iter(lambda: f.read(1 << 22), b""):
                    digest.update(block)
    return digest.hexdigest()


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class ImageTextEncoder:
    """A CLIP or BLIP-2 checkpoint that turns images and texts into embeddings.

    Args:
      kind: "clip" or "blip2".
      path: the local checkpoint directory.
      device: "auto" (a GPU when torch sees one), "cuda" or "cpu".
      dtype: "auto" (float16 on a GPU, float32 on the CPU), "float16", "bfloat16" or "float32".
      batch_size: images (or texts) per forward pass.
    """

    def __init__(self, kind: str, path: str, *, device: str = "auto", dtype: str = "auto",
                 batch_size: int = 64):
        checkpoint_type(path, kind)
        self.kind, self.path, self.batch_size = kind, path, int(batch_size)
        self._device, self._dtype = device, dtype
        self._model = self._processor = None
        if self.batch_size < 1:
            raise UserError(f"model.batch_size must be at least 1, got {batch_size}")

    # --- loading ----------------------------------------------------------------------------

    def _load_processor(self):
        if self._processor is not None:
            return
        self._torch = require("torch")
        transformers = require("transformers")
        try:
            self._processor = transformers.AutoProcessor.from_pretrained(self.path,
                                                                         local_files_only=True)
        except (OSError, ValueError, TypeError) as e:
            raise UserError(f"cannot load the processor of {self.path}: {_first_line(e)}; the "
                            "directory needs the processor files save_pretrained writes") from e

    def _load(self):
        """Loads the model (once): half precision on a GPU, float32 on the CPU by default."""
        if self._model is not None:
            return
        self._load_processor()
        torch = self._torch
        transformers = require("transformers")
        device = torch_device(self._device)
        if self._dtype == "auto":
            dtype = torch.float16 if device.startswith("cuda") else torch.float32
        else:
            dtype = getattr(torch, self._dtype, None)
            if not isinstance(dtype, torch.dtype):
                raise UserError(f"model.dtype must be auto, float16, bfloat16 or float32, got "
                                f"{self._dtype!r}")
        cls = getattr(transformers, KINDS[self.kind][1])
        try:
            model = cls.from_pretrained(self.path, local_files_only=True, dtype=dtype)
        except (OSError, ValueError) as e:
            raise UserError(f"cannot load the {self.kind} checkpoint in {self.path}: "
                            f"{_first_line(e)}") from e
        self._model = model.to(device).eval()
        self._device_name, self._loaded_dtype = device, str(dtype).replace("torch.", "")

    @property
    def image_settings(self) -> dict:
        """The processor's resize / crop / normalisation settings (part of the cache key)."""
        self._load_processor()
        settings = self._processor.image_processor.to_dict()
        keep = ("size", "crop_size", "do_center_crop", "do_resize", "resample", "image_mean",
                "image_std", "do_normalize", "rescale_factor", "do_convert_rgb")
        return {k: settings[k] for k in keep if k in settings}

    @property
    def logit_scale(self) -> float:
        """What cosine similarities are multiplied by to give logits."""
        self._load()
        if self.kind == "clip":
            return float(self._model.logit_scale.detach().float().exp().cpu())
        return BLIP2_LOGIT_SCALE

    # --- encoding ---------------------------------------------------------------------------

    def _pixels(self, images: np.ndarray):
        if images.dtype != np.uint8 or images.ndim != 4 or images.shape[-1] != 3:
            raise UserError(f"images must be uint8 [N, H, W, 3], got {images.dtype} "
                            f"{images.shape}")
        pixels = self._processor.image_processor(list(images), return_tensors="pt")
        return pixels["pixel_values"].to(self._device_name, self._model.dtype)

    def _tokens(self, texts):
        tokens = self._processor.tokenizer(list(texts), padding=True, truncation=True,
                                           return_tensors="pt")
        return {k: v.to(self._device_name) for k, v in tokens.items()
                if k in ("input_ids", "attention_mask")}

    def encode_images(self, images: np.ndarray, progress=None) -> np.ndarray:
        """float32 embeddings of uint8 images [N, H, W, 3]: [N, D] (CLIP, not normalised) or
        [N, Q, D] (BLIP-2, one normalised embedding per query token).

        Args:
          images: any array-like with slicing (a memory-mapped store is read batch by batch).
          progress: optional callable(number of images done) for a progress bar.
        """
        self._load()
        out = []
        with self._torch.no_grad():
            for start in range(0, len(images), self.batch_size):
                batch = np.asarray(images[start:start + self.batch_size])
                out.append(self._image_batch(self._pixels(batch)))
                if progress is not None:
                    progress(len(batch))
        if not out:
            raise UserError("no images to encode (an empty split)")
        return self._finite(np.concatenate(out), "image")

    def _finite(self, array: np.ndarray, what: str) -> np.ndarray:
        """Refuses NaN / inf embeddings (half precision can overflow) before they are cached."""
        if not np.isfinite(array).all():
            raise UserError(f"the {self.kind} checkpoint in {self.path} gave non-finite {what} "
                            f"embeddings in {self._loaded_dtype}; set model.dtype=float32 (or "
                            "bfloat16)")
        return array

    def _image_batch(self, pixels) -> np.ndarray:
        model = self._model
        if self.kind == "clip":
            feats = model.get_image_features(pixel_values=pixels)
            feats = getattr(feats, "pooler_output", feats)
        else:
            torch = self._torch
            hidden = model.vision_model(pixel_values=pixels, return_dict=True).last_hidden_state
            mask = torch.ones(hidden.shape[:-1], dtype=torch.long, device=hidden.device)
            queries = model.query_tokens.expand(hidden.shape[0], -1, -1)
            out = model.qformer(query_embeds=queries, encoder_hidden_states=hidden,
                                encoder_attention_mask=mask, return_dict=True).last_hidden_state
            out = out.to(model.vision_projection.weight.dtype)
            feats = torch.nn.functional.normalize(model.vision_projection(out), dim=-1)
        return feats.float().cpu().numpy()

    def encode_texts(self, texts) -> np.ndarray:
        """float32 embeddings [T, D] of caption strings (CLIP: not normalised; BLIP-2: the
        normalised [CLS] projection)."""
        self._load()
        texts = list(texts)
        if not texts or not all(isinstance(t, str) and t.strip() for t in texts):
            raise UserError(f"captions must be non-empty strings, got {texts!r}")
        model, out = self._model, []
        with self._torch.no_grad():
            for start in range(0, len(texts), self.batch_size):
                tokens = self._tokens(texts[start:start + self.batch_size])
                if self.kind == "clip":
                    feats = model.get_text_features(**tokens)
                    feats = getattr(feats, "pooler_output", feats)
                else:
                    embeds = model.embeddings(input_ids=tokens["input_ids"])
                    hidden = model.qformer(query_embeds=embeds, query_length=0,
                                           attention_mask=tokens["attention_mask"],
                                           return_dict=True).last_hidden_state
                    cls = hidden[:, 0, :].to(model.text_projection.weight.dtype)
                    feats = self._torch.nn.functional.normalize(model.text_projection(cls),
                                                                dim=-1)
                out.append(feats.float().cpu().numpy())
        return self._finite(np.concatenate(out), "text")

    def match_scores(self, images: np.ndarray, texts) -> np.ndarray:
        """BLIP-2 only: the image-text matching head's match logit (log-odds of "match") of every
        image against every caption, [N, T]."""
        if self.kind != "blip2":
            raise UserError("image-text matching scores need a BLIP-2 checkpoint")
        self._load()
        torch, model = self._torch, self._model
        texts = list(texts)
        out = []
        with torch.no_grad():
            for start in range(0, len(images), self.batch_size):
                pixels = self._pixels(np.asarray(images[start:start + self.batch_size]))
                hidden = model.vision_model(pixel_values=pixels,
                                            return_dict=True).last_hidden_state
                n = hidden.shape[0]
                image_mask = torch.ones(hidden.shape[:-1], dtype=torch.long,
                                        device=hidden.device)
                queries = model.query_tokens.expand(n, -1, -1)
                query_mask = torch.ones(queries.shape[:-1], dtype=torch.long,
                                        device=hidden.device)
                columns = []
                for text in texts:
                    tokens = self._tokens([text] * n)
                    embeds = model.embeddings(input_ids=tokens["input_ids"],
                                              query_embeds=queries)
                    mask = torch.cat([query_mask, tokens["attention_mask"]], dim=1)
                    joint = model.qformer(query_embeds=embeds, query_length=queries.shape[1],
                                          attention_mask=mask, encoder_hidden_states=hidden,
                                          encoder_attention_mask=image_mask,
                                          return_dict=True).last_hidden_state
                    joint = joint[:, :queries.shape[1], :].to(model.itm_head.weight.dtype)
                    logits = model.itm_head(joint).mean(dim=1)  # [n, 2]: no match, match
                    columns.append((logits[:, 1] - logits[:, 0]).float().cpu().numpy())
                out.append(np.stack(columns, axis=1))
        return self._finite(np.concatenate(out), "image-text matching")
