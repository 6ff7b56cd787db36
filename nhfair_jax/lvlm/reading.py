"""Reading a run's answers: every record's status from its raw text, with the config's reader
(`parse.mapper`): the lexicon reader of `nhfair_jax.lvlm.parse`, or the demographic study's
embedding mapper for its free-text questions.

Answers are read again from `raw` at the end of every run, so that a changed reader or mapper
applies to answers already in the log without asking anything again. Errors and the endpoint's
own refusals keep their status.
"""

from __future__ import annotations

import json

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm.mapper import EmbeddingMapper
from nhfair_jax.lvlm.parse import ERROR, UNPARSEABLE, parse_answer, strip_echo
from nhfair_jax.lvlm.tasks import SINGLE_CHOICE_CLASSES, answer_space

MAPPERS = ("lexicon", "embedding")
# The embedding mapper reads the questions whose answers are free text; yes / no, letter and
# digit answers are read by the lexicon reader whatever the mapper (ours: the study maps only
# its direct and descriptive answers by similarity).
EMBEDDED_KINDS = ("direct", "open")


def check_mapper(name: str) -> None:
    if name not in MAPPERS:
        raise UserError(f"parse.mapper must be one of {', '.join(MAPPERS)}, got {name!r}")


def structured_answer(raw):
    """The `answer` of a structured reply (`{"answer": "Male"}`, `decoding.structured=
    json_schema`); any other text as it is."""
    if isinstance(raw, str) and raw.lstrip().startswith("{"):
        try:
            value = json.loads(raw)
        except ValueError:
            return raw
        if isinstance(value, dict) and isinstance(value.get("answer"), str):
            return value["answer"]
    return raw


def class_texts(task, prompt_set: str) -> list[str]:
    """What each class name is embedded as: the name for the direct question, "a photo of a
    <name>" for the descriptive prompts (the study's eval_semantic_sim.py)."""
    names = [n.replace("_", " ") for n in task.names()]
    if prompt_set == "direct":
        return names
    return [f"a photo of a {n}" for n in names]


class Reader:
    """Reads records of one task with the config's reader; answer spaces built once each.

    Args:
      task: the task.
      config: the run's config (parse.*).
      mapper: an `EmbeddingMapper` when `parse.mapper` is "embedding" (made from
        `parse.encoder` when not given).
    """

    def __init__(self, task, config, mapper=None):
        self.task, self.config = task, config
        self.prefer_scores = bool(config.parse.prefer_scores)
        name = config.parse.mapper
        check_mapper(name)
        if name == "embedding" and mapper is None:
            mapper = EmbeddingMapper.from_config(config.parse)
        self.mapper = mapper if name == "embedding" else None
        self.spaces = {}

    def space(self, prompt_set: str, asked: str | None):
        key = (prompt_set, asked)
        if key not in self.spaces:
            self.spaces[key] = answer_space(self.task, prompt_set, asked)
        return self.spaces[key]

    def read(self, raw, prompt_set: str, prompt: str, asked=None, scores=None):
        """The lexicon reader's Parse of one answer (of its `answer` field when the answer is
        the JSON object a structured reply holds)."""
        kind = self.task.kind(prompt_set)
        return parse_answer(structured_answer(raw), self.space(prompt_set, asked), prompt=prompt,
                            scores=scores,
                            prefer_scores=self.prefer_scores and kind != "open")

    def classes(self, prompt_set: str):
        return (SINGLE_CHOICE_CLASSES if self.task.kind(prompt_set) == "single_choice"
                else self.task.classes)

    def reread(self, records: list[dict], questions) -> list[dict]:
        """The records with status, parsed, parsed_index and stage read again from `raw`;
        with the embedding mapper, its margin and probability, and the lexicon reader's own
        outcome under `lexicon`."""
        embed = []
        for r, q in zip(records, questions):
            if r["status"] == ERROR or r["stage"] == "endpoint_refusal":
                continue
            p = self.read(r["raw"], q.prompt_set, q.prompt, q.asked, r.get("scores"))
            r.update(status=p.status, parsed=p.text, parsed_index=p.label, stage=p.stage)
            if (self.mapper is not None and self.task.kind(q.prompt_set) in EMBEDDED_KINDS
                    and p.stage != "option_score"):
                embed.append((r, q))
        if embed:
            self._embed(embed)
        return records

    def _embed(self, pairs) -> None:
        by_set = {}
        for r, q in pairs:
            by_set.setdefault(q.prompt_set, []).append((r, q))
        for prompt_set, rows in by_set.items():
            texts = [strip_echo(structured_answer(r["raw"] or ""), q.prompt) for r, q in rows]
            results = self.mapper.map(texts, class_texts(self.task, prompt_set),
                                      self.task.classes)
            for (r, _), text, m in zip(rows, texts, results):
                r["lexicon"] = {"status": r["status"], "parsed": r["parsed"],
                                "stage": r["stage"]}
                if not text.strip():
                    r.update(status=UNPARSEABLE, parsed=None, parsed_index=None, stage="empty")
                    continue
                r.update(status=m.status, parsed=m.text, parsed_index=m.label, stage=m.stage,
                         margin=m.margin, prob=m.prob)
