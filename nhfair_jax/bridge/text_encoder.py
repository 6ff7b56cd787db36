"""Sentence encoders from a local checkpoint folder, for the LVLM embedding answer mapper:
sentence-T5 (the demographic study's sentence-t5-xxl) and other sentence-transformers folders,
or CLIP's text tower. Nothing is downloaded; transformers alone loads them.

A sentence-transformers folder (`modules.json`) is read module by module as that library runs
it: the transformer (a T5 encoder for sentence-T5, else `AutoModel`), mean pooling over the
attention mask (`1_Pooling`, only mean pooling is supported), an optional dense projection
(`2_Dense`: `linear.weight`, `linear.bias`, optional tanh) and L2 normalisation. A CLIP
checkpoint gives its projected text features. Every embedding is returned L2-normalised, so
that dot products are cosines (sentence-T5's pipeline ends in a Normalize module; for CLIP the
normalisation is ours, as CLIP compares normalised features).
"""

from __future__ import annotations

import json
import os

from nhfair_jax.bridge import require, torch_device
from nhfair_jax.errors import UserError

_CLIP = ("clip", "clip_text_model")


def _read_json(path: str) -> dict:
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise UserError(f"cannot read {path}: {e}") from e


class TextEncoder:
    """Embeds texts into L2-normalised rows.

    Args:
      folder: the checkpoint folder (config.json and weights; a sentence-transformers folder
        also has modules.json, 1_Pooling/ and 2_Dense/).
      device: "auto", "cpu", "cuda", ...
      batch_size: texts per forward pass.
    """

    def __init__(self, folder: str, *, device: str = "auto", batch_size: int = 64):
        if not os.path.isfile(os.path.join(folder, "config.json")):
            raise UserError(f"parse.encoder {folder!r} is not a checkpoint folder (no "
                            "config.json); give a local sentence-T5 or CLIP checkpoint")
        self.transformers = require("transformers", extra="lvlm")
        self.torch = require("torch", extra="lvlm")
        self.device, self.batch_size = torch_device(device), max(1, int(batch_size))
        self.model_type = _read_json(os.path.join(folder, "config.json")).get("model_type")
        tf = self.transformers
        self.tokenizer = tf.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self.dense = None
        try:
            if self.model_type == "clip":
                self.model = tf.CLIPModel.from_pretrained(folder, local_files_only=True)
            elif self.model_type == "clip_text_model":
                self.model = tf.CLIPTextModelWithProjection.from_pretrained(
                    folder, local_files_only=True)
            elif self.model_type == "t5":
                self.model = tf.T5EncoderModel.from_pretrained(folder, local_files_only=True)
            else:
                self.model = tf.AutoModel.from_pretrained(folder, local_files_only=True)
        except (OSError, ValueError) as e:
            raise UserError(f"cannot load the text encoder in {folder}: "
                            f"{str(e).splitlines()[0]}") from e
        self.model = self.model.to(self.device).eval()
        if self.model_type not in _CLIP:
            self._sentence_transformer_modules(folder)

    def _sentence_transformer_modules(self, folder: str) -> None:
        modules = os.path.join(folder, "modules.json")
        if not os.path.exists(modules):
            return  # a plain encoder: mean pooling, normalised
        for module in _read_json(modules):
            kind, path = module.get("type", ""), os.path.join(folder, module.get("path", ""))
            if kind.endswith("Pooling"):
                mode = _read_json(os.path.join(path, "config.json"))
                if not mode.get("pooling_mode_mean_tokens", False):
                    raise UserError(f"{path}: only mean pooling is supported")
            elif kind.endswith("Dense"):
                self.dense = self._load_dense(path)

    def _load_dense(self, path: str):
        torch = self.torch
        config = _read_json(os.path.join(path, "config.json"))
        weights = os.path.join(path, "model.safetensors")
        if os.path.exists(weights):
            from safetensors.torch import load_file

            state = load_file(weights)
        else:
            state = torch.load(os.path.join(path, "pytorch_model.bin"), map_location="cpu",
                               weights_only=True)
        layer = torch.nn.Linear(int(config["in_features"]), int(config["out_features"]),
                                bias=bool(config.get("bias", True)))
        layer.load_state_dict({k.removeprefix("linear."): v for k, v in state.items()})
        tanh = "Tanh" in str(config.get("activation_function", ""))
        return layer.to(self.device).eval(), tanh

    def encode(self, texts):
        """A numpy array of (len(texts), d) float32 rows of unit norm."""
        import numpy as np

        torch = self.torch
        rows = []
        for start in range(0, len(texts), self.batch_size):
            batch = self.tokenizer(list(texts[start:start + self.batch_size]), padding=True,
                                   truncation=True, return_tensors="pt").to(self.device)
            with torch.inference_mode():
                if self.model_type == "clip":
                    emb = self.model.get_text_features(**batch)
                    emb = getattr(emb, "pooler_output", emb)
                elif self.model_type == "clip_text_model":
                    emb = self.model(**batch).text_embeds
                else:
                    hidden = self.model(**batch).last_hidden_state
                    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                    emb = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                    if self.dense is not None:
                        layer, tanh = self.dense
                        emb = layer(emb)
                        emb = torch.tanh(emb) if tanh else emb
                emb = torch.nn.functional.normalize(emb.float(), dim=-1)
            rows.append(emb.cpu().numpy())
        return np.concatenate(rows, 0) if rows else np.zeros((0, 0), np.float32)
