"""Counterfactual images for your own CSV manifest (data/README.md, "Your own data") with
InstructPix2Pix: one prompt per value of the sensitive column. Adapt the prompts to your groups
(a group without a prompt is an error that lists the groups):

    python -m nhfair_jax.generate --config configs/generate_csv_ip2p.py --workdir runs/cf_mine \
        --config.data.root=data/mine/manifest.csv --config.model.path=weights/instruct-pix2pix
"""

import ml_collections

from nhfair_jax.bridge.diffusion import SEX_PROMPTS
from nhfair_jax.generate import default_config


def get_config(preset="test"):
    c = default_config("ip2p", preset or "test")
    c.data.name = "csv"
    c.data.root = "data/mine/manifest.csv"
    c.data.target = "label"
    c.data.sensitive = "sensitive"
    c.data.options = ml_collections.ConfigDict({"image_col": "image", "split_col": ""})
    c.select.split = "test"
    c.model.path = "weights/instruct-pix2pix"
    c.edit.prompts = ml_collections.ConfigDict(dict(SEX_PROMPTS))
    return c
