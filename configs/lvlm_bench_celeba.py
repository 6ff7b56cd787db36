"""LVLM evaluation: the benchmark's LVLM classification task on celeba (test split).
Prompt sets: origin, origin_t17, variant1, variant2;
the config argument picks some, e.g. `configs/lvlm_bench_celeba.py:origin,origin_t17,variant1`.

    python -m nhfair_jax.lvlm --config configs/lvlm_bench_celeba.py --workdir runs/lvlm_bench_celeba \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/celeba
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(prompts=""):
    return lvlm_config("bench_celeba", prompts)
