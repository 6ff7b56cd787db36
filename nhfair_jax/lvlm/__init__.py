"""LVLM fairness evaluation: questions about images to large vision-language models (served
behind an OpenAI-compatible API, or local transformers checkpoints), every answer kept with one
status (parsed / refused / unparseable / error), per-group recall, signed gaps and the full
fairness report.

    python -m nhfair_jax.lvlm --config configs/lvlm.py:utkface_gender --workdir runs/x \
        --config.backend.url=http://127.0.0.1:8000/v1 --config.backend.model=NAME \
        --config.data.root=data/utkface

Modules: `tasks` and `prompts` (what is asked), `data` (the examples), `backends` (the served
endpoint; the local one is `nhfair_jax.bridge.lvlm_hf`), `lexicons`, `clauses` and `parse` (the
answer reader: answer -> status and stage), `mapper` (the study's embedding answer mapper),
`reading` (a run's answers read with the configured one), `answers` (the resumable log),
`metrics`, `report`, `run` (the driver).
"""

from nhfair_jax.lvlm.tasks import TASKS, get_task

__all__ = ["TASKS", "get_task"]
