"""Zero-shot CLIP on ham10000 (the data where data/README.md says), with the benchmark's captions.
The argument picks a debiased variant fitted on the training split: `:fairerclip` or `:sfid`.

    python -m nhfair_jax.run --config configs/zeroshot_clip_ham10000.py \
        --config.model.path=weights/clip-vit-base-patch16 --workdir runs/zeroshot_clip_ham10000
"""

from nhfair_jax.zeroshot.config import zeroshot_config


def get_config(arg: str = ""):
    return zeroshot_config("ham10000", "clip", arg)
