"""Zero-shot run configs: the data, eval and seed of a data set's config, plus the checkpoint
(`model.*`) and the zero-shot method (`method.*`)."""

from __future__ import annotations

import copy

import ml_collections

from nhfair_jax.config import digitsb_config, method_config, real_data_config

# Where the checkpoints are expected by default (local directories written by save_pretrained).
DEFAULT_PATHS = {"clip": "weights/clip-vit-base-patch16", "blip2": "weights/blip2-itm-vit-g"}


def model_config(name: str) -> ml_collections.ConfigDict:
    """config.model of a zero-shot run."""
    return ml_collections.ConfigDict({
        "name": name,  # "clip" or "blip2"
        "path": DEFAULT_PATHS[name],  # local checkpoint directory; nothing is downloaded
        "device": "auto",  # "auto": a GPU when torch sees one
        "dtype": "auto",  # "auto": float16 on a GPU, float32 on the CPU
        "batch_size": 128,
        "logit_scale": 0.0,  # 0: the checkpoint's own (CLIP's exp(logit_scale))
        "embedding_cache": "",  # "": <data.cache_dir or $NHFAIR_CACHE>/embeddings
    })


def backbone_of(method: str) -> str:
    return "blip2" if method == "blip2" else "clip"


def as_zeroshot(config, method: str, **method_overrides) -> ml_collections.ConfigDict:
    """A zero-shot config evaluating `method` on the data of `config` (any run config).

    Keeps seed, data and eval (so the splits are those of the trained methods) and
    train.progress; replaces model and method.
    """
    c = ml_collections.ConfigDict()
    c.seed = config.seed
    c.data = copy.deepcopy(config.data)
    c.eval = copy.deepcopy(config.eval)
    c.model = model_config(backbone_of(method))
    c.method = method_config(method, **method_overrides)
    c.train = ml_collections.ConfigDict({"progress": bool(config.train.get("progress", True))})
    return c


def zeroshot_config(dataset: str, model: str = "clip", method: str = "") -> \
        ml_collections.ConfigDict:
    """configs/zeroshot_<model>_<data set>.py: `method` "" (plain zero-shot), "fairerclip" or
    "sfid" on the data set's benchmark settings (its erm config's data and eval)."""
    utility = "auc" if dataset in ("ham10000", "fitz17k") else "acc"
    root = {"fitz17k": "data/fitzpatrick17k"}.get(dataset, f"data/{dataset}")  # as erm_*.py
    base = digitsb_config("erm") if dataset == "digitsb" else real_data_config(
        dataset, root, utility=utility)
    if not method:
        method = model
    c = as_zeroshot(base, method)
    c.model = model_config(model)
    return c
