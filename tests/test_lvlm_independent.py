"""The acceptance check of the answer reader: an independent writer's corpus of realistic
answers (tests/lvlm_answers_independent.py, kept as written) is served by an OpenAI-compatible
endpoint, one distinct image per answer, fetched by the real served backend with each task's
real prompt, and read by the run's reader. At least 95% must read as the writer expected, and
none as a wrong class (a class other than the expected one, or any class where the writer
expected REFUSED or UNPARSEABLE)."""

from __future__ import annotations

import collections
import io

import numpy as np
import pytest
from PIL import Image

from nhfair_jax.lvlm.backends import OpenAIBackend, Request
from nhfair_jax.lvlm.config import lvlm_config
from nhfair_jax.lvlm.parse import PARSED, REFUSED, UNPARSEABLE
from nhfair_jax.lvlm.reading import Reader
from nhfair_jax.lvlm.tasks import get_task, prompt_text
from tests.lvlm_answers_independent import ANSWERS
from tests.lvlm_stub import Stub, image_hash

# The corpus names the benchmark's open-ended questions by data set; they are the `open` prompt
# set of the benchmark's tasks here. Its kinds map onto prompt sets.
TASKS = {"open_utkface": "bench_utkface", "open_fairface": "bench_fairface",
         "open_waterbirds": "bench_waterbirds"}
PROMPT_SETS = {"direct": "direct", "single_choice": "single_choice", "open": "open",
               "yes_no": "origin", "closed": "origin", "digits": "origin"}
MIN_AGREEMENT = 0.95  # the acceptance level the corpus was written for


def _png(i: int) -> bytes:
    """A tiny image of its own per answer (the stub answers by image)."""
    pixels = np.full((4, 4, 3), (i // 256, i % 256, 99), np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    return buf.getvalue()


def _question(a):
    task = get_task(TASKS.get(a["task"], a["task"]))
    prompt_set = PROMPT_SETS[a["kind"]]
    asked = None
    if a["asked"] is not None:  # the corpus writes the asked class as the prompt lists it
        asked = next(c for c, n in zip(task.classes, task.names())
                     if a["asked"].lower() in (c.lower(), n.lower()))
    return task, prompt_set, asked, prompt_text(task, prompt_set, asked)


@pytest.fixture(scope="module")
def readings():
    questions = [_question(a) for a in ANSWERS]
    images = [_png(i) for i in range(len(ANSWERS))]
    script = {image_hash(img): a["answer"] for img, a in zip(images, ANSWERS)}
    assert len(script) == len(ANSWERS)
    requests = [Request(key=str(i), image=None, prompt=prompt, options=None,
                        max_new_tokens=32, image_bytes=img, mime="image/png")
                for i, ((_, _, _, prompt), img) in enumerate(zip(questions, images))]
    with Stub(script) as stub:
        replies = OpenAIBackend(stub.url, "stub-model", concurrency=8).answer(requests)
        assert sum(stub.calls.values()) == len(ANSWERS)
    readers = {}
    out = []
    for a, (task, prompt_set, asked, prompt), reply in zip(ANSWERS, questions, replies):
        assert reply.error is None and reply.text == a["answer"]
        reader = readers.setdefault(task.name, Reader(task, lvlm_config(task.name)))
        out.append(reader.read(reply.text, prompt_set, prompt, asked))
    return out


def _outcome(p) -> str:
    return {REFUSED: "REFUSED", UNPARSEABLE: "UNPARSEABLE"}.get(p.status, p.text or "")


def test_the_corpus_covers_every_kind():
    kinds = collections.Counter(a["kind"] for a in ANSWERS)
    assert set(kinds) == set(PROMPT_SETS) and len(ANSWERS) >= 500


def test_never_a_wrong_class(readings):
    wrong = [f"{a['task']} (asked {a['asked']}): {a['answer']!r} -> {_outcome(p)} "
             f"({p.stage}), expected {a['expected']}"
             for a, p in zip(ANSWERS, readings)
             if p.status == PARSED and _outcome(p).lower() != a["expected"].lower()]
    assert not wrong, "\n".join(wrong)


def test_read_as_a_careful_reader_would(readings):
    missed = [f"{a['task']}: {a['answer']!r} -> {_outcome(p)} ({p.stage}), expected "
              f"{a['expected']}" for a, p in zip(ANSWERS, readings)
              if _outcome(p).lower() != a["expected"].lower()]
    agreement = 1 - len(missed) / len(ANSWERS)
    print(f"independent corpus: {len(ANSWERS) - len(missed)} of {len(ANSWERS)} read as "
          f"expected ({agreement:.1%})")
    assert agreement >= MIN_AGREEMENT, "\n".join(missed)
