"""One zero-shot run: config -> the same run directory a training run writes.

config.json, result.json (val and test metrics through `metrics.split_metrics`, as a trained run's,
per-group numbers, the checkpoint's hash, the captions, the logit scale, what FairerCLIP / SFID
fitted) and predictions_val.npz / predictions_test.npz (index, label, group, logits, score), so
that selection, the benchmark report and `nhfair_jax.report` read zero-shot rows like any other.
A finished run directory is not evaluated again.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from nhfair_jax import data as data_lib
from nhfair_jax.bridge.clip import BRIDGE_VERSION, ImageTextEncoder
from nhfair_jax.errors import UserError
from nhfair_jax.methods import get_method
from nhfair_jax.methods.embeddings import class_embeddings, zero_shot_logits
from nhfair_jax.metrics import UTILITIES, split_metrics
from nhfair_jax.rundir import RunDir
from nhfair_jax.training import outcome
from nhfair_jax.zeroshot.cache import EmbeddingCache
from nhfair_jax.zeroshot.prompts import resolve_prompts


def cache_root(config) -> str:
    if config.model.embedding_cache:
        return config.model.embedding_cache
    return os.path.join(config.data.cache_dir or data_lib.default_cache_dir(), "embeddings")


def image_key(config, split: str, kind: str, settings: dict) -> dict:
    """What identifies a split's images and their preprocessing (the image cache key)."""

    d = config.data
    return {"dataset": d.name, "split": split,
            "root": os.path.abspath(d.root) if d.root else "",
            "split_seed": d.split_seed, "image_size": d.image_size,
            "options": d.options.to_dict(), "target": d.target, "sensitive": d.sensitive,
            "on_bad_image": d.on_bad_image, "model": kind, "processor": settings,
            "bridge": BRIDGE_VERSION}


def evaluate_zeroshot(config, workdir: str, *, progress: bool | None = None) -> dict:
    """Evaluates a zero-shot config and writes its run directory; returns result.json's content.

    Raises:
      UserError: a missing or wrong checkpoint directory, captions that do not match the
        classes, torch / transformers not installed, a method used with a backbone it does not
        support.
    """

    t_start = time.perf_counter()
    progress = config.train.get("progress", True) if progress is None else progress
    method = get_method(config.method)
    kind = config.model.name
    if kind not in method.backbones:
        raise UserError(f"method {method.name!r} works with model.name in {list(method.backbones)}"
                        f", not {kind!r}")
    if config.eval.utility not in UTILITIES:
        raise UserError(f"eval.utility must be one of {UTILITIES}, got {config.eval.utility!r}")
    # Checkpoint, torch and processor are checked before the data is read or the cache touched.
    encoder = ImageTextEncoder(kind, config.model.path, device=config.model.device,
                               dtype=config.model.dtype, batch_size=config.model.batch_size)
    settings = encoder.image_settings
    d = config.data
    sources = data_lib.get_sources(
        d.name, d.root or None, split_seed=d.split_seed, image_size=d.image_size,
        target=d.target, sensitive=d.sensitive, cache_dir=d.cache_dir,
        on_bad_image=d.on_bad_image, progress=progress, **d.options)
    train = sources["train"]
    num_classes, num_groups = train.num_classes, train.num_groups
    if config.eval.utility == "auc" and num_classes != 2:
        raise UserError(f"eval.utility='auc' needs a binary target; {d.name} has {num_classes} "
                        "classes; use eval.utility='acc'")
    prompts = resolve_prompts(config.method, d.name, train.class_names)
    time_data = time.perf_counter() - t_start

    t0 = time.perf_counter()
    cache = EmbeddingCache(cache_root(config))
    checkpoint = cache.checkpoint_id(config.model.path)
    info = cache.model_info(checkpoint, lambda: {"kind": kind, "logit_scale": encoder.logit_scale})
    scale = float(config.model.logit_scale) or float(info["logit_scale"])
    captions = [c for entry in prompts for c in entry]
    text = cache.texts(checkpoint, captions, encoder.encode_texts,
                       extra={"bridge": BRIDGE_VERSION, "model": kind})
    class_text = np.asarray(class_embeddings(text, [len(e) for e in prompts]))
    itm = method.matches_pairs
    splits = ("train", "val", "test") if method.fits_train_split else ("val", "test")

    def encode(source, split):
        def compute():
            bar = None
            if progress:
                from tqdm.auto import tqdm

                bar = tqdm(total=len(source), desc=f"encode {split}", file=sys.stderr,
                           leave=False)
            try:
                if itm:
                    return encoder.match_scores(source.images, captions)
                return encoder.encode_images(source.images,
                                             progress=bar.update if bar else None)
            finally:
                if bar is not None:
                    bar.close()

        key = image_key(config, split, kind, settings)
        if itm:
            key = {**key, "head": "itm", "texts": captions}
        return cache.images(checkpoint, key, source.indices, compute)

    emb = {s: encode(sources[s], s) for s in splits}
    time_encode = time.perf_counter() - t0

    t1 = time.perf_counter()
    out = RunDir(workdir)
    os.makedirs(out.path, exist_ok=True)
    fitted = (method.debias(emb["train"], train, class_text, scale, config.seed)
              if method.fits_train_split else None)
    reports = {}
    for split in ("val", "test"):
        source = sources[split]
        if itm:  # match log-odds, averaged over a class's captions
            bounds = np.cumsum([0, *[len(e) for e in prompts]])
            scores = np.asarray(emb[split], np.float32)
            logits = np.stack([scores[:, a:b].mean(1) for a, b in zip(bounds[:-1], bounds[1:])],
                              axis=1)
        elif fitted is not None:
            logits = zero_shot_logits(fitted.transform_images(emb[split]),
                                      fitted.transform_texts(class_text), scale)
        else:
            logits = zero_shot_logits(emb[split], class_text, scale)
        reports[split] = split_metrics(source.labels, source.groups, logits,
                                       num_classes=num_classes, num_groups=num_groups,
                                       utility=config.eval.utility)
        outcome.write_predictions(out, split, source, logits)
    return outcome.write_result(
        out, config, sources, reports, best_epoch=None, epochs_run=0, stopped_early=False,
        monitor=None,
        zeroshot={"model": kind, "path": config.model.path, "checkpoint_sha256": checkpoint,
                  "logit_scale": scale, "prompts": prompts,
                  "head": "itm" if itm else ("itc" if kind == "blip2" else "clip"),
                  "bridge_version": BRIDGE_VERSION,
                  "cache": {"hits": cache.hits, "misses": cache.misses, "root": cache.root}},
        tuned=None if fitted is None else fitted.info,
        timings_s={"data": time_data, "encode": time_encode,
                   "fit_and_score": time.perf_counter() - t1,
                   "this_session": time.perf_counter() - t_start})
