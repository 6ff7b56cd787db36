"""LVLM evaluation: the benchmark's LVLM classification task on waterbirds (test split).
Prompt sets: origin, open;
the config argument picks some, e.g. `configs/lvlm_bench_waterbirds.py:origin,open`.

    python -m nhfair_jax.lvlm --config configs/lvlm_bench_waterbirds.py --workdir runs/lvlm_bench_waterbirds \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/waterbirds
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(prompts=""):
    return lvlm_config("bench_waterbirds", prompts)
