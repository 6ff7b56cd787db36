"""Counterfactual images for the counterfactual-fairness study: `configs/generate.py:RECIPE` or
`configs/generate.py:RECIPE,PRESET` (PRESET `test`, the default, or `train`: InstructPix2Pix's
guidance for the paper's test pairs, image 1.8 / text 7.5, or for its uncurated training
counterfactuals for +aug / CP / CKD, image 7.5 / text 2.0; use `train` with
--config.select.split=train --config.select.balanced=False). Needs `pip install -e
".[generate]"`, a local checkpoint folder and a GPU for full size.

RECIPE:
- `celeba_ip2p`: the paper's CelebA-CF recipe: sex edited by the instruction "turn the woman
  into a man" / "turn the man into a woman", 256 px, 50 steps; target Blond_Hair, test images
  balanced over target x sex (180 per cell, 720 pairs as the paper generated before filtering).
  An InstructPix2Pix checkpoint (e.g. timbrooks/instruct-pix2pix saved with diffusers):

      python -m nhfair_jax.generate --config configs/generate.py:celeba_ip2p \
          --workdir runs/cf_celeba --config.data.root=data/celeba \
          --config.model.path=weights/instruct-pix2pix

- `celeba_sdedit_hair`: hair length edited by an SDEdit-style image-to-image pass, the latent
  attribute G of the paper, for rate-of-flipped-predictions (RFP) pairs: 40 test images per
  (Blond_Hair, sex) cell, 160 in all, as the paper; with the same select.seed they are a subset
  of the images celeba_ip2p edits. The paper drew strokes on the hair by hand and ran the
  original SDEdit; this edits with a text prompt instead: women towards short hair, men towards
  long hair (the common case in CelebA; review the contact sheet and untick the pairs where the
  edit went the wrong way). A Stable Diffusion checkpoint (text-to-image or img2img weights).
- `lfw_ip2p`: the paper's LFW-CF recipe (target Smiling, sex edited, 256 px, 50 steps, test
  images balanced over target x sex, 158 per cell, 632 pairs before filtering). LFW's
  attributes come in a separate file (lfw_attributes.txt of Kumar et al., real-valued scores,
  positive = present), so LFW is read as a CSV manifest with columns image, Smiling, sex:

      import pandas as pd
      a = pd.read_csv("lfw_attributes.txt", sep="\\t", skiprows=1)  # person, imagenum, Male..
      a["image"] = [f"lfw/{p.replace(' ', '_')}/{p.replace(' ', '_')}_{n:04d}.jpg"
                    for p, n in zip(a["person"], a["imagenum"])]
      a["Smiling"] = (a["Smiling"] > 0).astype(int)
      a["sex"] = (a["Male"] > 0).map({True: "male", False: "female"})
      a[["image", "Smiling", "sex"]].to_csv("data/lfw/manifest.csv", index=False)

- `csv_ip2p`: your own CSV manifest (data/README.md, "Your own data") with InstructPix2Pix: one
  prompt per value of the sensitive column. Adapt the prompts to your groups (a group without
  a prompt is an error that lists the groups).
"""

import ml_collections

from nhfair_jax.bridge.diffusion import SEX_PROMPTS
from nhfair_jax.generate import default_config

RECIPES = ("celeba_ip2p", "celeba_sdedit_hair", "lfw_ip2p", "csv_ip2p")


def _manifest(c, root: str, target: str, sensitive: str) -> None:
    c.data.name = "csv"
    c.data.root = root
    c.data.target = target
    c.data.sensitive = sensitive
    c.data.options = ml_collections.ConfigDict({"image_col": "image", "split_col": ""})


def get_config(arg: str = "celeba_ip2p"):
    recipe, _, preset = arg.partition(",")
    if recipe not in RECIPES:
        raise ValueError(f"configs/generate.py: unknown recipe {recipe!r}; known: "
                         f"{', '.join(RECIPES)}")
    if recipe == "celeba_sdedit_hair":
        c = default_config("sdedit")
        c.model.path = "weights/stable-diffusion-v1-5"
        c.edit.strength = 0.5
        c.edit.text_guidance = 7.5
        c.edit.negative_prompt = "deformed face, distorted, blurry"
        c.edit.prompts = ml_collections.ConfigDict({
            "not_Male": "a photo of a woman with short hair",
            "Male": "a photo of a man with long hair"})
    else:
        c = default_config("ip2p", preset or "test")
        c.model.path = "weights/instruct-pix2pix"
        c.edit.prompts = ml_collections.ConfigDict(dict(SEX_PROMPTS))
    c.select.split = "test"
    if recipe.startswith("celeba"):
        c.data.name = "celeba"
        c.data.root = "data/celeba"
        c.data.target = "Blond_Hair"
        c.data.sensitive = "Male"
        c.select.balanced = True
        c.select.per_cell = 40 if recipe == "celeba_sdedit_hair" else 180
        if recipe == "celeba_ip2p":
            # CelebA's Male attribute: group not_Male (0) holds the women, Male (1) the men.
            c.edit.prompts = ml_collections.ConfigDict({"not_Male": SEX_PROMPTS["female"],
                                                        "Male": SEX_PROMPTS["male"]})
    elif recipe == "lfw_ip2p":
        _manifest(c, "data/lfw/manifest.csv", "Smiling", "sex")
        c.select.balanced = True
        c.select.per_cell = 158
    else:
        _manifest(c, "data/mine/manifest.csv", "label", "sensitive")
    return c
