"""Counterfactual CelebA images with InstructPix2Pix, the counterfactual-fairness paper's
recipe: sex edited by the instruction "turn the woman into a man" / "turn the man into a woman",
256 px, 50 steps; target Blond_Hair, test images balanced over target x sex (180 per cell, 720
pairs as the paper generated before filtering). Needs `pip install -e ".[generate]"`, a local
InstructPix2Pix checkpoint folder (e.g. timbrooks/instruct-pix2pix saved with diffusers) and a GPU
for full size:

    python -m nhfair_jax.generate --config configs/generate_celeba_ip2p.py --workdir runs/cf_celeba \
        --config.data.root=data/celeba --config.model.path=weights/instruct-pix2pix

The argument picks the guidance preset: `:test` (default; image 1.8, text 7.5, the paper's test
pairs) or `:train` (image 7.5, text 2.0, its uncurated training counterfactuals for +aug / CP /
CKD; use with --config.select.split=train --config.select.balanced=False).
"""

import ml_collections

from nhfair_jax.bridge.diffusion import SEX_PROMPTS
from nhfair_jax.generate import default_config


def get_config(preset="test"):
    c = default_config("ip2p", preset or "test")
    c.data.name = "celeba"
    c.data.root = "data/celeba"
    c.data.target = "Blond_Hair"
    c.data.sensitive = "Male"
    c.select.split = "test"
    c.select.balanced = True
    c.select.per_cell = 180
    c.model.path = "weights/instruct-pix2pix"
    # CelebA's Male attribute: group not_Male (0) holds the women, Male (1) the men.
    c.edit.prompts = ml_collections.ConfigDict({"not_Male": SEX_PROMPTS["female"],
                                                "Male": SEX_PROMPTS["male"]})
    return c
