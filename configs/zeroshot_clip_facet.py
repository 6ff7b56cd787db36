"""Zero-shot CLIP on facet (the data where data/README.md says), with the benchmark's captions.
The argument picks a debiased variant fitted on the training split: `:fairerclip` or `:sfid`.

    python -m nhfair_jax.run --config configs/zeroshot_clip_facet.py \
        --config.model.path=weights/clip-vit-base-patch16 --workdir runs/zeroshot_clip_facet
"""

from nhfair_jax.zeroshot.config import zeroshot_config


def get_config(arg: str = ""):
    return zeroshot_config("facet", "clip", arg)
