"""Zero-shot BLIP-2 image-text matching on the embedded DigitsB data,
with the benchmark's captions (contrastive scores; `--config.method.head=itm`: the matching
head).

    python -m nhfair_jax.run --config configs/zeroshot_blip2_digitsb.py \
        --config.model.path=weights/blip2-itm-vit-g --workdir runs/zeroshot_blip2_digitsb
"""

from nhfair_jax.zeroshot.config import zeroshot_config


def get_config():
    return zeroshot_config("digitsb", "blip2")
