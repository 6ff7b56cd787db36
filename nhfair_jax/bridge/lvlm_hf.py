"""Local LVLMs through transformers: LLaVA-NeXT, Qwen2-VL / Qwen2.5-VL, Gemma 3 and Mllama
(Llama 3.2 Vision) from a checkpoint folder on disk (nothing is downloaded).

Each model is loaded with its own processor and chat template (`AutoProcessor`) and its own
model class; prompts are batched with left padding; the answer is decoded from the generated
tokens only, so the prompt never leaks into it, and each answer says why it stopped
(`finish_reason`: "stop" at the end-of-sequence token, "length" when the budget ran out).
Decoding is greedy whatever the checkpoint's generation_config.json says (Gemma 3 ships
`do_sample: true`, and transformers 4.50-4.57 let a checkpoint's values override settings equal
to the library defaults): the loaded model's generation config is made greedy as well as the one
passed to `generate`. The chat template is rendered once as text; where the rendered text
already starts with the tokenizer's BOS token (Gemma, Llama templates) it is tokenised without
adding special tokens again, so no prompt carries two BOS tokens. With `score_options`, the
log-likelihood of each answer option after the prompt is computed as well (a score per class,
hence AUC and calibration for closed questions).

Qwen2-VL's processor cannot be built without torchvision (its video processor needs it); the
image-only equivalent here uses the checkpoint's own image processor, tokenizer and chat template
and expands each image placeholder to the image's patch count as the processor does.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os

from nhfair_jax.bridge import require, torch_device
from nhfair_jax.bridge.lvlm_types import Reply
from nhfair_jax.errors import UserError

SUPPORTED = {
    "llava_next": "LlavaNextForConditionalGeneration",
    "qwen2_vl": "Qwen2VLForConditionalGeneration",
    "qwen2_5_vl": "Qwen2_5_VLForConditionalGeneration",
    "gemma3": "Gemma3ForConditionalGeneration",
    "mllama": "MllamaForConditionalGeneration",
}
_NESTED_IMAGES = ("gemma3", "mllama")  # their processors take one list of images per prompt
_QWEN = ("qwen2_vl", "qwen2_5_vl")


def _as_list(ids) -> list[int]:
    if ids is None:
        return []
    return [int(i) for i in ids] if isinstance(ids, (list, tuple)) else [int(ids)]


def _checkpoint_type(folder: str) -> str:
    path = os.path.join(folder, "config.json")
    if not os.path.isdir(folder):
        raise UserError(f"checkpoint folder not found: {folder}; set backend.model to a local "
                        "transformers checkpoint folder")
    if not os.path.exists(path):
        raise UserError(f"{folder} is not a transformers checkpoint (no config.json); set "
                        "backend.model to a folder saved with save_pretrained")
    try:
        with open(path) as f:
            model_type = json.load(f).get("model_type")
    except (OSError, ValueError) as e:
        raise UserError(f"cannot read {path}: {e}") from e
    if model_type not in SUPPORTED:
        raise UserError(f"{folder} holds a {model_type or 'model without model_type'!s} "
                        f"checkpoint; supported LVLMs: {', '.join(SUPPORTED)}")
    return model_type


class _QwenImageProcessor:
    """Qwen2-VL's processor for images only: chat template, placeholder expansion, tokenizer."""

    def __init__(self, folder: str, transformers):
        self.image_processor = transformers.AutoImageProcessor.from_pretrained(
            folder, local_files_only=True)
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self.chat_template = self.tokenizer.chat_template or _template_file(folder)
        self.image_token = "<|image_pad|>"

    def apply_chat_template(self, messages, *, add_generation_prompt=True, tokenize=False):
        return self.tokenizer.apply_chat_template(
            messages, chat_template=self.chat_template,
            add_generation_prompt=add_generation_prompt, tokenize=tokenize)

    def __call__(self, *, text, images, padding=True, return_tensors="pt",
                 add_special_tokens=True):
        pixels = self.image_processor(images=images, return_tensors=return_tensors)
        merge = int(getattr(self.image_processor, "merge_size", 2)) ** 2
        counts = [int(g.prod()) // merge for g in pixels["image_grid_thw"]]
        expanded, k = [], 0
        for t in text:
            parts = t.split(self.image_token)
            out = parts[0]
            for part in parts[1:]:
                out += "\0" * counts[k] + part
                k += 1
            expanded.append(out.replace("\0", self.image_token))
        enc = self.tokenizer(expanded, padding=padding, return_tensors=return_tensors,
                             add_special_tokens=add_special_tokens)
        image_id = self.tokenizer.convert_tokens_to_ids(self.image_token)
        # Which positions are image tokens (1) or text (0): M-RoPE positions need it.
        enc["mm_token_type_ids"] = (enc["input_ids"] == image_id).long()
        return _Batch({**enc, **pixels})


class _Batch(dict):
    def to(self, device):
        return _Batch({k: v.to(device) if hasattr(v, "to") else v for k, v in self.items()})


def _template_file(folder: str):
    for name in ("chat_template.jinja", "chat_template.json"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
            return json.loads(text)["chat_template"] if name.endswith(".json") else text
    return None


def load_processor(folder: str, model_type: str, transformers):
    """The checkpoint's processor (left padding), or Qwen's image-only equivalent."""
    try:
        processor = transformers.AutoProcessor.from_pretrained(folder, local_files_only=True)
    except (ImportError, AttributeError, ValueError, TypeError, OSError) as e:
        if model_type not in _QWEN:
            raise UserError(f"cannot load the processor of {folder}: {e}") from e
        processor = _QwenImageProcessor(folder, transformers)
    tokenizer = getattr(processor, "tokenizer", processor)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    template = getattr(processor, "chat_template", None) or tokenizer.chat_template
    if not template:
        raise UserError(f"{folder} has no chat template (chat_template.jinja or the tokenizer's "
                        "chat_template); an instruction-tuned checkpoint ships one")
    return processor


class HFBackend:
    """A local checkpoint answering batches of requests greedily.

    Args:
      checkpoint: the checkpoint folder (config.json, weights, processor and tokenizer files).
      device: "auto" (CUDA when available, the weights spread over all GPUs when there are
        several), "cpu", "cuda", "cuda:1", ...
      dtype: "auto" (bfloat16 on CUDA, float32 on CPU), "float32", "bfloat16", "float16".
      batch_size: prompts per forward pass.
      score_options: also compute each option's log-likelihood after the prompt.
      logits_processor_factory: optional f(requests) -> LogitsProcessor applied during
        generation (tests use it to force chosen answers).
    """

    name = "transformers"

    def __init__(self, checkpoint: str, *, device: str = "auto", dtype: str = "auto",
                 batch_size: int = 8, score_options: bool = True,
                 logits_processor_factory=None):
        model_type = _checkpoint_type(checkpoint)
        transformers = require("transformers", extra="lvlm")
        torch = require("torch", extra="lvlm")
        self.torch, self.model_type = torch, model_type
        self.device = torch_device(device)
        if dtype == "auto":
            dtype = "bfloat16" if self.device.startswith("cuda") else "float32"
        if not hasattr(torch, dtype):
            raise UserError(f"backend.dtype must be auto, float32, bfloat16 or float16, got "
                            f"{dtype!r}")
        self.processor = load_processor(checkpoint, model_type, transformers)
        self.tokenizer = getattr(self.processor, "tokenizer", self.processor)
        cls = getattr(transformers, SUPPORTED[model_type])
        # Several GPUs under "auto": the weights are spread over them (accelerate's device map).
        spread = device == "auto" and self.device == "cuda" and torch.cuda.device_count() > 1
        try:
            model = cls.from_pretrained(checkpoint, local_files_only=True,
                                        dtype=getattr(torch, dtype),
                                        **({"device_map": "auto"} if spread else {}))
            self.model = (model if spread else model.to(self.device)).eval()
            self.device = str(self.model.device) if spread else self.device
        except (OSError, ValueError, RuntimeError) as e:
            raise UserError(f"cannot load the {model_type} weights from {checkpoint}: "
                            f"{str(e).splitlines()[0]}") from e
        self.batch_size = max(1, int(batch_size))
        self.score_options = bool(score_options)
        self.factory = logits_processor_factory
        with open(os.path.join(checkpoint, "config.json"), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:8]
        self.model_id = f"transformers:{os.path.basename(os.path.normpath(checkpoint))}:{digest}"
        self.decoding = {"do_sample": False, "num_beams": 1, "scored": self.score_options}
        self._make_greedy(transformers)

    def _make_greedy(self, transformers) -> None:
        """The model's own generation config made greedy: whatever `generate` merges from it,
        no sampling setting survives."""
        own = self.model.generation_config
        greedy = transformers.GenerationConfig(
            do_sample=False, num_beams=1, temperature=1.0, top_p=1.0, top_k=50,
            eos_token_id=own.eos_token_id, pad_token_id=self.tokenizer.pad_token_id,
            bos_token_id=own.bos_token_id)
        self.model.generation_config = greedy
        self.eos_ids = set(_as_list(own.eos_token_id)) | set(_as_list(
            self.tokenizer.eos_token_id))

    # --- inputs ---------------------------------------------------------------------------

    def _chat(self, prompt: str, system: str = "") -> str:
        messages = [{"role": "user", "content": [{"type": "image"},
                                                 {"type": "text", "text": prompt}]}]
        if system:
            messages.insert(0, {"role": "system", "content": [{"type": "text",
                                                                "text": system}]})
        try:
            return self.processor.apply_chat_template(messages, add_generation_prompt=True,
                                                      tokenize=False)
        except Exception as e:  # noqa: BLE001 - jinja raises its own errors for a role
            if not system:
                raise
            raise UserError(f"the chat template of {self.model_type} does not take a system "
                            f"message ({str(e).splitlines()[0]}); set "
                            "decoding.system_prompt='' to send none") from e

    def _inputs(self, texts, images):
        imgs = [[im] for im in images] if self.model_type in _NESTED_IMAGES else list(images)
        bos = self.tokenizer.bos_token
        # The rendered template holds its own BOS where the model wants one.
        special = not (bos and all(t.startswith(bos) for t in texts))
        batch = self.processor(text=list(texts), images=imgs, padding=True, return_tensors="pt",
                               add_special_tokens=special)
        return batch.to(self.device)

    # --- generation and scoring -------------------------------------------------------------

    def _generate(self, texts, images, requests):
        from transformers import LogitsProcessorList

        torch = self.torch
        inputs = self._inputs(texts, images)
        budget = max(r.max_new_tokens for r in requests)
        config = copy.deepcopy(self.model.generation_config)
        config.max_new_tokens = budget
        extra = {}
        if self.factory is not None:
            extra["logits_processor"] = LogitsProcessorList([self.factory(requests)])
        with torch.inference_mode():
            out = self.model.generate(**inputs, generation_config=config, **extra)
        new = out[:, inputs["input_ids"].shape[1]:]
        texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
        finish = ["stop" if any(int(t) in self.eos_ids for t in row) else
                  ("length" if len(row) >= budget else "stop") for row in new.tolist()]
        return texts, finish

    def _scores(self, texts, images, options) -> list[list[float]]:
        """Per row, the summed log-probability of each option's tokens after the prompt."""
        torch = self.torch
        prompt_lens = [len(self.tokenizer(t, add_special_tokens=False)["input_ids"])
                       for t in texts]
        rows = [[0.0] * len(options) for _ in texts]
        for k, option in enumerate(options):
            full = [t + option for t in texts]
            n_opt = [len(self.tokenizer(f, add_special_tokens=False)["input_ids"]) - p
                     for f, p in zip(full, prompt_lens)]
            inputs = self._inputs(full, images)
            with torch.inference_mode():
                logits = self.model(**inputs).logits.float()
            logp = torch.log_softmax(logits, dim=-1)
            ids = inputs["input_ids"]
            for r, n in enumerate(n_opt):
                n = max(1, n)
                target = ids[r, -n:]
                rows[r][k] = float(logp[r, -n - 1:-1].gather(-1, target[:, None]).sum())
        return rows

    def answer(self, requests):
        replies = []
        for start in range(0, len(requests), self.batch_size):
            chunk = requests[start:start + self.batch_size]
            texts = [self._chat(r.prompt, r.system) for r in chunk]
            images = [r.image for r in chunk]
            try:
                answers, finish = self._generate(texts, images, chunk)
                scores = [None] * len(chunk)
                options = chunk[0].options
                if (self.score_options and options
                        and all(r.options == options for r in chunk)):
                    scores = self._scores(texts, images, options)
                replies += [Reply(a, scores=s, finish_reason=f)
                            for a, s, f in zip(answers, scores, finish)]
            except (RuntimeError, ValueError, IndexError) as e:  # one batch fails, not the run
                message = str(e).splitlines()[0] if str(e) else type(e).__name__
                replies += [Reply(None, error=f"{type(e).__name__}: {message}") for _ in chunk]
        return replies

    def close(self) -> None:
        del self.model
        if self.device.startswith("cuda"):
            self.torch.cuda.empty_cache()
