"""Tiny random LVLM checkpoints written the way a real one is laid out on disk.

Each builder writes a word-level tokenizer (its vocabulary covers the answers and prompts of the
tests), the model family's own processor with a chat template written here, and a randomly
initialised model of a few thousand parameters, all through `save_pretrained`; the backend then
loads the folder exactly as it loads a downloaded checkpoint. No weights are downloaded.
"""

from __future__ import annotations

import os
import re

WORDS = sorted(set(
    "male female man woman yes no unknown a b c landbird waterbird i cannot can not sorry "
    "determine the person is in photo or only answer give me one-word label quotation marks "
    "for foreground object this image from list gardener craftsman laborer skateboarder prayer "
    "guitarist singer dancer retailer nurse student gymnast horseman do you think provided "
    "please choose of following white black asian indian others young middle old older lighter "
    "darker wavy-haired wavy hair non-wavy describe their apparent gender presentation and any "
    "other observable characteristics user assistant system 0 1 2 3 4 5 6 it a say sure "
    "sorry tell appears to be probably looks like think you are helpful".split()))
PUNCT = list(".,:'\"?![]-=/")

QWEN_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")

LLAVA_TEMPLATE = (
    "{% for message in messages %}{% if message['role'] == 'system' %}"
    "{% for part in message['content'] %}{{ part['text'] }}{% endfor %}\n"
    "{% else %}{% if message['role'] == 'user' %}USER: {% else %}ASSISTANT: "
    "{% endif %}{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}{% if part['type'] == 'image' %}<image>\n"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "{% if message['role'] != 'user' %}</s>{% endif %} {% endif %}{% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}")


def _tokenizer(specials: list[str], bos: str | None = None, **named):
    """A word-level tokenizer; with `bos`, one that prepends it as the real Llama, Gemma and
    LLaVA tokenizers do (add_special_tokens=True)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    words = WORDS + [w.capitalize() for w in WORDS] + PUNCT + ["USER", "ASSISTANT", "\n"]
    vocab = {}
    for token in ["<pad>", "<unk>", *specials, *words]:
        vocab.setdefault(token, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.normalizer = normalizers.Sequence([])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(pattern="\n", behavior="isolated"),
        pre_tokenizers.WhitespaceSplit(),
        pre_tokenizers.Punctuation(behavior="isolated")])
    tok.decoder = decoders.WordPiece(prefix="##", cleanup=True)
    from tokenizers import AddedToken
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in specials])
    if bos is not None:
        tok.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", pair=f"{bos} $A {bos} $B", special_tokens=[(bos, vocab[bos])])
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>",
                                   model_max_length=512, padding_side="left", **named)


SAMPLING = {"do_sample": True, "temperature": 5.0, "top_k": 0, "top_p": 1.0}


def _save_model(cls, config, folder: str, eos_id: int, *parts, sampling: bool = False) -> str:
    """A seeded random model of `config` with its generation settings, and the processor (or
    its parts) saved beside it; `sampling` ships a generation config that samples (as Gemma 3's
    does)."""
    import torch

    torch.manual_seed(0)
    model = cls(config).eval()
    model.generation_config.eos_token_id = eos_id
    model.generation_config.pad_token_id = 0
    if sampling:
        for k, v in SAMPLING.items():
            setattr(model.generation_config, k, v)
    os.makedirs(folder, exist_ok=True)
    model.save_pretrained(folder)
    for part in parts:
        part.save_pretrained(folder)
    return folder


def token_ids(tokenizer, text: str) -> list[int]:
    """The ids a forced answer is made of (no special tokens)."""
    return tokenizer(text, add_special_tokens=False)["input_ids"]


def make_qwen2_vl(folder: str, *, qwen25: bool = False) -> str:
    """A tiny Qwen2-VL (or Qwen2.5-VL) checkpoint folder."""
    from transformers import (Qwen2VLConfig, Qwen2VLForConditionalGeneration,
                              Qwen2VLImageProcessorPil)

    specials = ["<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>",
                "<|image_pad|>", "<|video_pad|>"]
    tok = _tokenizer(specials)
    tok.eos_token = "<|im_end|>"
    ids = {s: tok.convert_tokens_to_ids(s) for s in specials}
    image_processor = Qwen2VLImageProcessorPil(min_pixels=28 * 28, max_pixels=56 * 56,
                                               patch_size=14, merge_size=2, temporal_patch_size=2)
    text = dict(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
                rope_scaling={"type": "mrope", "mrope_section": [2, 1, 1]},
                eos_token_id=ids["<|im_end|>"], pad_token_id=0, bos_token_id=None)
    if qwen25:
        from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration
        vision = dict(depth=1, hidden_size=32, intermediate_size=32, num_heads=2, patch_size=14,
                      spatial_merge_size=2, temporal_patch_size=2, out_hidden_size=32,
                      fullatt_block_indexes=[0], window_size=56)
        config = Qwen2_5_VLConfig(text_config=text, vision_config=vision,
                                  image_token_id=ids["<|image_pad|>"],
                                  video_token_id=ids["<|video_pad|>"],
                                  vision_start_token_id=ids["<|vision_start|>"],
                                  vision_end_token_id=ids["<|vision_end|>"])
        cls = Qwen2_5_VLForConditionalGeneration
    else:
        vision = dict(depth=1, embed_dim=32, hidden_size=32, num_heads=2, mlp_ratio=2,
                      patch_size=14, spatial_merge_size=2, temporal_patch_size=2)
        config = Qwen2VLConfig(text_config=text, vision_config=vision,
                               image_token_id=ids["<|image_pad|>"],
                               video_token_id=ids["<|video_pad|>"],
                               vision_start_token_id=ids["<|vision_start|>"],
                               vision_end_token_id=ids["<|vision_end|>"])
        cls = Qwen2VLForConditionalGeneration
    # Without torchvision Qwen2-VL's processor (its video part) cannot be built, so the folder
    # holds what the processor is made of: image processor, tokenizer and chat template.
    tok.chat_template = QWEN_TEMPLATE
    return _save_model(cls, config, folder, ids["<|im_end|>"], tok, image_processor)


def make_llava_next(folder: str, sampling: bool = False) -> str:
    """A tiny LLaVA-NeXT checkpoint folder (CLIP vision tower, Llama text model)."""
    from transformers import (LlavaNextConfig, LlavaNextForConditionalGeneration,
                              LlavaNextImageProcessorPil, LlavaNextProcessor)

    tok = _tokenizer(["<image>", "<s>", "</s>"], bos="<s>")
    tok.eos_token = "</s>"
    tok.bos_token = "<s>"
    image_processor = LlavaNextImageProcessorPil(
        size={"shortest_edge": 28}, crop_size={"height": 28, "width": 28},
        image_grid_pinpoints=[[28, 28], [28, 56], [56, 28]])
    processor = LlavaNextProcessor(image_processor=image_processor, tokenizer=tok, patch_size=14,
                                   vision_feature_select_strategy="default",
                                   num_additional_image_tokens=1,  # CLIP's class token
                                   chat_template=LLAVA_TEMPLATE)
    config = LlavaNextConfig(
        vision_config=dict(model_type="clip_vision_model", hidden_size=16, intermediate_size=32,
                           num_hidden_layers=1, num_attention_heads=2, image_size=28,
                           patch_size=14, projection_dim=16),
        text_config=dict(model_type="llama", vocab_size=len(tok), hidden_size=32,
                         intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                         num_key_value_heads=2, max_position_embeddings=512,
                         eos_token_id=tok.eos_token_id, pad_token_id=0,
                         bos_token_id=tok.bos_token_id),
        image_token_index=tok.convert_tokens_to_ids("<image>"),
        image_grid_pinpoints=[[28, 28], [28, 56], [56, 28]],
        vision_feature_select_strategy="default", vision_feature_layer=-1)
    return _save_model(LlavaNextForConditionalGeneration, config, folder, tok.eos_token_id,
                       processor, sampling=sampling)


def forcing_processor(tokenizer, answers: list[str]):
    """A logits processor making row i of the batch say answers[i] (then end of sequence)."""
    import torch
    from transformers import LogitsProcessor

    eos = tokenizer.eos_token_id
    targets = [token_ids(tokenizer, a) + [eos] for a in answers]

    class Force(LogitsProcessor):
        def __init__(self):
            self.start = None

        def __call__(self, input_ids, scores):
            if self.start is None:
                self.start = input_ids.shape[1]
            step = input_ids.shape[1] - self.start
            forced = torch.full_like(scores, float("-inf"))
            for row, target in enumerate(targets):
                forced[row, target[min(step, len(target) - 1)]] = 0.0
            return forced

    return Force()


def words_of(text: str) -> list[str]:
    return re.findall(r"[\w'-]+", text)


GEMMA_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}<start_of_turn>"
    "{{ 'model' if message['role'] == 'assistant' else message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}<start_of_image>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<end_of_turn>\n{% endfor %}{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}")


def make_gemma3(folder: str, sampling: bool = True) -> str:
    """A tiny Gemma 3 checkpoint folder (SigLIP vision tower, four soft tokens per image)."""
    from transformers import (Gemma3Config, Gemma3ForConditionalGeneration,
                              Gemma3ImageProcessorPil, Gemma3Processor)

    specials = ["<bos>", "<eos>", "<start_of_turn>", "<end_of_turn>", "<start_of_image>",
                "<end_of_image>", "<image_soft_token>"]
    tok = _tokenizer(specials, bos="<bos>", bos_token="<bos>", eos_token="<end_of_turn>",
                     extra_special_tokens={"boi_token": "<start_of_image>",
                                           "eoi_token": "<end_of_image>",
                                           "image_token": "<image_soft_token>"})
    ids = {s: tok.convert_tokens_to_ids(s) for s in specials}
    image_processor = Gemma3ImageProcessorPil(size={"height": 28, "width": 28})
    processor = Gemma3Processor(image_processor=image_processor, tokenizer=tok,
                                chat_template=GEMMA_TEMPLATE, image_seq_length=4)
    config = Gemma3Config(
        text_config=dict(vocab_size=len(tok), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                         head_dim=16, max_position_embeddings=512, sliding_window=64,
                         eos_token_id=ids["<end_of_turn>"], pad_token_id=0,
                         bos_token_id=ids["<bos>"]),
        vision_config=dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                           num_attention_heads=2, image_size=28, patch_size=14),
        mm_tokens_per_image=4, boi_token_index=ids["<start_of_image>"],
        eoi_token_index=ids["<end_of_image>"], image_token_index=ids["<image_soft_token>"])
    return _save_model(Gemma3ForConditionalGeneration, config, folder, ids["<end_of_turn>"],
                       processor, sampling=sampling)


MLLAMA_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}<|start_header_id|>{{ message['role'] }}"
    "<|end_header_id|>\n\n{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}{% if part['type'] == 'image' %}<|image|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<|eot_id|>{% endfor %}{% if add_generation_prompt %}<|start_header_id|>assistant"
    "<|end_header_id|>\n\n{% endif %}")


def make_mllama(folder: str) -> str:
    """A tiny Mllama (Llama 3.2 Vision) checkpoint folder: one 28 px tile, cross-attention."""
    from transformers import (MllamaConfig, MllamaForConditionalGeneration,
                              MllamaImageProcessorPil, MllamaProcessor)

    specials = ["<|begin_of_text|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>",
                "<|image|>", "<|python_tag|>", "<|finetune_right_pad_id|>"]
    tok = _tokenizer(specials, bos="<|begin_of_text|>", bos_token="<|begin_of_text|>",
                     eos_token="<|eot_id|>")
    ids = {s: tok.convert_tokens_to_ids(s) for s in specials}
    image_processor = MllamaImageProcessorPil(size={"height": 28, "width": 28}, max_image_tiles=1)
    processor = MllamaProcessor(image_processor=image_processor, tokenizer=tok,
                                chat_template=MLLAMA_TEMPLATE)
    config = MllamaConfig(
        vision_config=dict(hidden_size=16, num_hidden_layers=2, num_global_layers=1,
                           attention_heads=2, intermediate_size=32, vision_output_dim=32,
                           image_size=28, patch_size=14, max_num_tiles=1,
                           intermediate_layers_indices=[0], supported_aspect_ratios=[[1, 1]]),
        text_config=dict(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, intermediate_size=64,
                         max_position_embeddings=512, cross_attention_layers=[1],
                         bos_token_id=ids["<|begin_of_text|>"], eos_token_id=ids["<|eot_id|>"],
                         pad_token_id=0),
        image_token_index=ids["<|image|>"])
    return _save_model(MllamaForConditionalGeneration, config, folder, ids["<|eot_id|>"],
                       processor)
