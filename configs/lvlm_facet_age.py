"""LVLM evaluation: the demographic study's facet age task (whole data set).
Prompt sets: direct, single_choice;
the config argument picks some, e.g. `configs/lvlm_facet_age.py:direct,single_choice`.

    python -m nhfair_jax.lvlm --config configs/lvlm_facet_age.py --workdir runs/lvlm_facet_age \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/facet
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(prompts=""):
    return lvlm_config("facet_age", prompts)
