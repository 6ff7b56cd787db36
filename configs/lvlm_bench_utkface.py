"""LVLM evaluation: the benchmark's LVLM classification task on utkface (test split).
Prompt sets: origin, open;
the config argument picks some, e.g. `configs/lvlm_bench_utkface.py:origin,open`.

    python -m nhfair_jax.lvlm --config configs/lvlm_bench_utkface.py --workdir runs/lvlm_bench_utkface \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/utkface
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(prompts=""):
    return lvlm_config("bench_utkface", prompts)
