"""Defaults of an LVLM evaluation config (configs/lvlm.py starts from `lvlm_config`).

Namespaces: task and prompts at the top, data.*, backend.*, decoding.*, parse.*, metrics.*.
Every field has a typed default so that a command-line override of a wrong type, or of a key
that does not exist, is an error.
"""

from __future__ import annotations

import ml_collections

from nhfair_jax.lvlm.prompts import SYSTEM_PROMPT
from nhfair_jax.lvlm.tasks import get_task


def lvlm_config(task: str, prompts: str = "", root: str = "") -> ml_collections.ConfigDict:
    """An LVLM evaluation of `task` with the prompt sets `prompts` ("a,b"; "" = the task's own)."""
    t = get_task(task)
    study = t.split == "all"
    c = ml_collections.ConfigDict()
    c.seed = 0
    c.task = task
    c.prompts = prompts or next(iter(t.prompt_sets))
    c.shuffle_classes = False  # direct question: list the classes in a seeded order per question

    c.data = ml_collections.ConfigDict()
    c.data.root = root or f"data/{t.dataset}"
    c.data.split = t.split  # "all" for the study's tasks, "test" for the benchmark's
    c.data.split_seed = 0
    c.data.limit = 0  # > 0: a seeded random subset of this many examples
    c.data.sensitive = ""  # the fairness report's group attribute; "" = the task's
    c.data.options = ml_collections.ConfigDict()  # loader options
    # FACET: the study asks about whole images of exactly one annotated person; the benchmark's
    # task crops every person to its box.
    c.data.persons = "single" if study and t.dataset == "facet" else "all"
    if t.dataset == "facet":
        c.data.options.crop = not study

    c.backend = ml_collections.ConfigDict()
    c.backend.name = "openai"  # or "transformers"
    # openai: the API base URL, or several servers of the same model separated by commas
    c.backend.url = "http://127.0.0.1:8000/v1"
    c.backend.model = ""  # openai: the served model's name; transformers: checkpoint folder
    c.backend.api_key_env = ""  # openai: the environment variable holding the API key
    c.backend.concurrency = 8  # openai: requests in flight per endpoint
    c.backend.timeout_s = 60.0
    c.backend.retries = 3
    c.backend.backoff_s = 1.0
    c.backend.max_retry_after_s = 120.0  # openai: the longest Retry-After honoured
    c.backend.token_param = "auto"  # openai: "max_tokens", "max_completion_tokens" or "auto"
    c.backend.batch_size = 8  # transformers: prompts per forward pass
    c.backend.device = "auto"
    c.backend.dtype = "auto"
    c.backend.score_options = True  # transformers: option log-likelihoods (AUC)

    c.decoding = ml_collections.ConfigDict()
    c.decoding.max_new_tokens = 0  # 0: the benchmark's budget per backend and prompt kind
    # The benchmark's served client sends this system message; the study's code sends none.
    c.decoding.system_prompt = "" if study else SYSTEM_PROMPT
    c.decoding.retry_errors = True  # a rerun asks again the questions that ended in `error`
    # openai: "json_schema" (response_format) or "choice" (vLLM's guided_choice) holds a closed
    # question's answer to its options; "off": free text (refusals are part of what is measured)
    c.decoding.structured = "off"

    c.parse = ml_collections.ConfigDict()
    c.parse.prefer_scores = False  # decide closed questions by the best option score
    c.parse.mapper = "lexicon"  # or "embedding": the study's sentence-encoder mapper
    c.parse.encoder = ""  # embedding: a local sentence-T5 or CLIP checkpoint folder
    c.parse.encoder_device = "auto"
    c.parse.abstain_margin = 0.0  # embedding: > 0 abstains below this cosine margin

    c.metrics = ml_collections.ConfigDict()
    c.metrics.recall_attributes = ""  # "gender,age"; "" = the task's
    c.metrics.gd_pairs = "Male-Female,White-Black,Asian-Indian"
    c.metrics.bootstrap = 1000
    c.metrics.confidence = 0.95
    c.metrics.min_group = 30  # fewer examples in a group: a warning
    return c
