"""LVLM evaluation: the benchmark's LVLM classification task on facet (test split).
Prompt sets: origin, origin_t17, variant1, variant2;
the config argument picks some, e.g. `configs/lvlm_bench_facet.py:origin,origin_t17,variant1`.

    python -m nhfair_jax.lvlm --config configs/lvlm_bench_facet.py --workdir runs/lvlm_bench_facet \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/facet
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(prompts=""):
    return lvlm_config("bench_facet", prompts)
