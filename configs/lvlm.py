"""LVLM fairness evaluation of one task: `configs/lvlm.py:TASK[,PROMPTS]`.

TASK is one of the benchmark's tasks (bench_celeba, bench_utkface, bench_fairface, bench_facet,
bench_waterbirds; prompt sets origin, origin_t17, variant1, variant2, open where the data set
has them) or the demographic study's (facet_occupation, facet_gender, facet_age,
facet_skin_tone, utkface_gender, utkface_race, utkface_age; prompt sets direct,
single_choice, describe, fill_blank, describe_persons). PROMPTS (comma-separated) picks
prompt sets; without them the task's first one is asked.

    python -m nhfair_jax.lvlm --config configs/lvlm.py:utkface_gender --workdir runs/lvlm_utk \
        --config.backend.url=http://127.0.0.1:8000/v1 --config.backend.model=NAME \
        --config.data.root=data/utkface
    python -m nhfair_jax.lvlm --config configs/lvlm.py:bench_celeba,origin,variant1 ...
"""

from nhfair_jax.lvlm.config import lvlm_config


def get_config(arg="utkface_gender"):
    task, _, prompts = str(arg).partition(",")
    return lvlm_config(task.strip(), prompts.strip())
