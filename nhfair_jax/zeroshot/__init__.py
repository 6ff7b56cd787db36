"""Zero-shot image-text models as rows of the benchmark: CLIP and BLIP-2 through the torch
bridge (`nhfair_jax.bridge.clip`), FairerCLIP and SFID on their embeddings, an embedding cache,
the captions table, and a run directory like a training run's.

    python -m nhfair_jax.run --config configs/zeroshot_clip_digitsb.py \
        --config.model.path=/weights/clip-vit-base-patch16 --workdir runs/clip_digitsb

Importing this package needs neither torch nor transformers.
"""

from __future__ import annotations


def is_zeroshot(config) -> bool:
    """Whether a run config names a zero-shot method (evaluated, not trained)."""
    from nhfair_jax.methods import method_class

    return bool(getattr(method_class(config.method.name), "zeroshot", False))


def run_any(config, workdir: str, *, progress: bool | None = None) -> dict:
    """A run directory for any config: evaluated when zero-shot, trained otherwise."""
    if is_zeroshot(config):
        from nhfair_jax.zeroshot.evaluate import evaluate_zeroshot

        return evaluate_zeroshot(config, workdir, progress=progress)
    from nhfair_jax.training import train_and_evaluate

    return train_and_evaluate(config, workdir, progress=progress)
