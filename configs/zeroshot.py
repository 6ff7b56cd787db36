"""A zero-shot image-text model on a data set, with the benchmark's captions:
`configs/zeroshot.py:DATASET,MODEL[,VARIANT]`, MODEL clip or blip2, VARIANT (CLIP only) a
debiased variant fitted on the training split, fairerclip or sfid. DATASET is digitsb or one of
configs/dataset.py's real data sets (its data and evaluation settings).

    python -m nhfair_jax.run --config configs/zeroshot.py:celeba,clip \
        --config.model.path=weights/clip-vit-base-patch16 --workdir runs/zeroshot_clip_celeba
    python -m nhfair_jax.run --config configs/zeroshot.py:celeba,clip,fairerclip ...
    python -m nhfair_jax.run --config configs/zeroshot.py:waterbirds,blip2 \
        --config.model.path=weights/blip2-itm-vit-g --config.method.head=itm ...
"""

from nhfair_jax.zeroshot.config import zeroshot_config


def get_config(arg: str = "digitsb,clip"):
    dataset, model, variant = (arg.split(",") + ["", "", ""])[:3]
    if model not in ("clip", "blip2"):
        raise ValueError(f"configs/zeroshot.py:{arg}: MODEL must be clip or blip2, got {model!r}")
    if variant and model != "clip":
        raise ValueError(f"configs/zeroshot.py:{arg}: the debiased variants ({variant}) work on "
                         "CLIP embeddings only")
    return zeroshot_config(dataset, model, variant)
