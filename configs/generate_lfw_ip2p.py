"""Counterfactual LFW images with InstructPix2Pix (the counterfactual-fairness paper's LFW-CF
recipe: target Smiling, sex edited, 256 px, 50 steps, test images balanced over target x sex,
158 per cell, 632 pairs before filtering).

LFW's attributes come in a separate file (lfw_attributes.txt of Kumar et al., real-valued scores,
positive = present), so LFW is read as your own CSV manifest with columns image, Smiling, sex:

    import pandas as pd
    a = pd.read_csv("lfw_attributes.txt", sep="\\t", skiprows=1)  # person, imagenum, Male, ...
    a["image"] = [f"lfw/{p.replace(' ', '_')}/{p.replace(' ', '_')}_{n:04d}.jpg"
                  for p, n in zip(a["person"], a["imagenum"])]
    a["Smiling"] = (a["Smiling"] > 0).astype(int)
    a["sex"] = (a["Male"] > 0).map({True: "male", False: "female"})
    a[["image", "Smiling", "sex"]].to_csv("data/lfw/manifest.csv", index=False)

    python -m nhfair_jax.generate --config configs/generate_lfw_ip2p.py --workdir runs/cf_lfw \
        --config.data.root=data/lfw/manifest.csv --config.model.path=weights/instruct-pix2pix

`:train` picks the training-counterfactual guidance preset, as in generate_celeba_ip2p.py.
"""

import ml_collections

from nhfair_jax.bridge.diffusion import SEX_PROMPTS
from nhfair_jax.generate import default_config


def get_config(preset="test"):
    c = default_config("ip2p", preset or "test")
    c.data.name = "csv"
    c.data.root = "data/lfw/manifest.csv"
    c.data.target = "Smiling"
    c.data.sensitive = "sex"
    c.data.options = ml_collections.ConfigDict({"image_col": "image", "split_col": ""})
    c.select.split = "test"
    c.select.balanced = True
    c.select.per_cell = 158
    c.model.path = "weights/instruct-pix2pix"
    c.edit.prompts = ml_collections.ConfigDict(dict(SEX_PROMPTS))
    return c
