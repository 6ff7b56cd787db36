"""The answer parser against a corpus of real-looking answers (tests/lvlm_corpus.py), per
prompt kind, and its whole-word rules."""

from __future__ import annotations

import pytest

from nhfair_jax.lvlm.parse import PARSED, REFUSED, UNPARSEABLE, Lexicon, parse_answer, lexicon_for
from nhfair_jax.lvlm.tasks import SINGLE_CHOICE_CLASSES, get_task, prompt_text
from tests import lvlm_corpus as C

KINDS = {"closed": C.CLOSED, "direct": C.DIRECT, "single_choice": C.SINGLE_CHOICE,
         "open": C.OPEN}


def _parse(task_name, kind, answer):
    task = get_task(task_name)
    prompt_set = {"closed": "origin"}.get(kind, kind)
    asked = task.classes[0] if kind == "single_choice" else None
    classes = SINGLE_CHOICE_CLASSES if kind == "single_choice" else task.classes
    return parse_answer(answer, lexicon_for(task, kind), classes,
                        prompt=prompt_text(task, prompt_set, asked),
                        letters=kind == "single_choice")


@pytest.mark.parametrize("kind", KINDS)
def test_corpus_is_large_and_varied(kind):
    corpus = KINDS[kind]
    assert len(corpus) >= 60
    expected = [e for _, _, e in corpus]
    assert expected.count(C.R) >= 5 and expected.count(C.U) >= 5
    assert len(set(expected) - {C.R, C.U}) >= 2


@pytest.mark.parametrize("kind", KINDS)
def test_corpus_parses_as_expected(kind):
    wrong = []
    for task_name, answer, expected in KINDS[kind]:
        p = _parse(task_name, kind, answer)
        got = {REFUSED: C.R, UNPARSEABLE: C.U}.get(p.status, p.text)
        if p.status == PARSED:
            assert p.label is not None and p.text is not None
        if got != expected:
            wrong.append(f"{task_name}: {answer!r} -> {got} ({p.stage}), expected {expected}")
    assert not wrong, "\n".join(wrong)


def test_whole_words_only():
    lex = Lexicon((("no",), ("yes",)))
    assert [c for c, *_ in lex.mentions(["not", "nothing", "know", "none"])] == []
    gender = Lexicon((("male", "man"), ("female", "woman")))
    assert [c for c, *_ in gender.mentions(["female", "woman", "human", "manly"])] == [1, 1]


def test_negated_mentions_do_not_count():
    gender = Lexicon((("male", "man"), ("female", "woman")))
    negated = [n for _, _, n in gender.mentions("this is not a man but a woman".split())]
    assert negated == [True, False]
    task = get_task("utkface_gender")
    p = parse_answer("This is not a man but a woman", lexicon_for(task, "direct"), task.classes)
    assert (p.status, p.text) == (PARSED, "Female")


def test_prompt_echo_is_cut_case_insensitively():
    task = get_task("bench_utkface")
    prompt = prompt_text(task, "origin")
    answer = prompt.upper() + " Female"  # the echo in another case must still be cut
    p = parse_answer(answer, lexicon_for(task, "closed"), task.classes, prompt=prompt)
    assert (p.status, p.text) == (PARSED, "Female")


def test_option_scores_decide_when_preferred():
    task = get_task("bench_utkface")
    lex = lexicon_for(task, "closed")
    p = parse_answer("I'm sorry, I can't.", lex, task.classes, scores=[-3.0, -1.0],
                     prefer_scores=True)
    assert (p.status, p.text, p.stage) == (PARSED, "Female", "option_score")
    p = parse_answer("I'm sorry, I can't.", lex, task.classes, scores=[-3.0, -1.0])
    assert p.status == REFUSED
