"""ERM on your own images: a manifest CSV with an image path, a label and sensitive-attribute
columns (data/README.md, "Your own data"). The small CNN at 64 px trains on a CPU; switch to
model.name="resnet18" (with pretrained_path) for real work.

    python -m nhfair_jax.run --config configs/erm_csv.py --workdir runs/mine \
        --config.data.root=/data/mine/manifest.csv --config.data.sensitive=skin,age_group \
        --config.data.options.split_col=split
"""

import ml_collections

from nhfair_jax.config import digitsb_config


def get_config():
    c = digitsb_config("erm")
    c.data.name = "csv"
    c.data.root = "data/mine/manifest.csv"
    c.data.image_size = 64
    c.data.target = "label"
    c.data.sensitive = "sensitive"
    c.data.options = ml_collections.ConfigDict({"image_col": "image", "split_col": ""})
    return c
