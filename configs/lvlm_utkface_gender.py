"""LVLM evaluation: the demographic study's utkface gender task (whole data set).
Prompt sets: direct, single_choice;
the config argument picks some, e.g. `configs/lvlm_utkface_gender.py:direct,single_choice`.

    python -m nhfair_jax.lvlm --config configs/lvlm_utkface_gender.py --workdir runs/lvlm_utkface_gender \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/utkface
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(prompts=""):
    return lvlm_config("utkface_gender", prompts)
