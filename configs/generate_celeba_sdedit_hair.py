"""Hair length edited by an SDEdit-style image-to-image pass: the latent attribute G of the
counterfactual-fairness paper, for rate-of-flipped-predictions (RFP) pairs on CelebA. 40 test
images per (Blond_Hair, sex) cell, 160 in all, as the paper; with the same select.seed they are
a subset of the images generate_celeba_ip2p.py edits.

The paper drew strokes on the hair by hand and ran the original SDEdit; this config edits with a
text prompt instead: women towards short hair, men towards long hair (the common case in CelebA;
review the contact sheet and untick the pairs where the edit went the wrong way). Needs a local
Stable Diffusion checkpoint folder (text-to-image or img2img, same weights):

    python -m nhfair_jax.generate --config configs/generate_celeba_sdedit_hair.py \
        --workdir runs/hair_celeba --config.data.root=data/celeba \
        --config.model.path=weights/stable-diffusion-v1-5
"""

import ml_collections

from nhfair_jax.generate import default_config


def get_config():
    c = default_config("sdedit")
    c.data.name = "celeba"
    c.data.root = "data/celeba"
    c.data.target = "Blond_Hair"
    c.data.sensitive = "Male"
    c.select.split = "test"
    c.select.balanced = True
    c.select.per_cell = 40
    c.model.path = "weights/stable-diffusion-v1-5"
    c.edit.strength = 0.5
    c.edit.text_guidance = 7.5
    c.edit.negative_prompt = "deformed face, distorted, blurry"
    c.edit.prompts = ml_collections.ConfigDict({
        "not_Male": "a photo of a woman with short hair",
        "Male": "a photo of a man with long hair"})
    return c
