"""The answer reader against a corpus of realistic answers (tests/lvlm_corpus.py), per task kind,
every rule of it exercised, and its whole-word, negation and echo rules one by one."""

from __future__ import annotations

import collections

import pytest

from nhfair_jax.lvlm.parse import (PARSED, REFUSED, UNPARSEABLE, AnswerSpace, Lexicon,
                                   parse_answer, read)
from nhfair_jax.lvlm.tasks import answer_space, get_task, prompt_text
from tests.lvlm_corpus import ANSWERS, SOURCES

KINDS = ("direct", "single_choice", "yes_no", "digits", "open", "closed")
STAGES = ("exact", "lexicon", "hedged", "label_with_note", "label_despite_refusal",
          "label_first", "negation_other", "negation_only", "several_labels", "no_label",
          "refusal", "unknown", "choice_letter", "named_class", "unknown_option", "conflict",
          "echo_only", "empty", "age_number", "several_ages", "chosen", "revised")


def _read(a):
    task = get_task(a["task"])
    return read(a["answer"], answer_space(task, a["prompt_set"], a["asked"]),
                prompt=prompt_text(task, a["prompt_set"], a["asked"]))


def _outcome(p):
    return {REFUSED: "REFUSED", UNPARSEABLE: "UNPARSEABLE"}.get(p.status, p.text)


# Distinct answer texts per kind (the same bare answer under several prompt sets counts once).
# closed (60) has no bar.
MIN_DISTINCT = {"direct": 250, "single_choice": 250, "yes_no": 250, "digits": 250, "open": 250}


def test_corpus_is_large_varied_and_sourced():
    distinct = collections.defaultdict(set)
    for a in ANSWERS:
        distinct[a["kind"]].add(a["answer"])
    for kind, least in MIN_DISTINCT.items():
        assert len(distinct[kind]) >= least, (kind, len(distinct[kind]))
    for kind in KINDS:
        rows = [a for a in ANSWERS if a["kind"] == kind]
        expected = collections.Counter(a["expected"] for a in rows)
        assert expected["REFUSED"] >= 2 and expected["UNPARSEABLE"] >= 2, kind
        assert len(set(expected) - {"REFUSED", "UNPARSEABLE"}) >= 2, kind
    assert {a["source"] for a in ANSWERS} == set(SOURCES)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_corpus_reads_as_expected(kind):
    wrong = []
    for a in (a for a in ANSWERS if a["kind"] == kind):
        p = _read(a)
        if p.status == PARSED:
            assert p.label is not None and p.text is not None
        if _outcome(p).lower() != a["expected"].lower():
            wrong.append(f"{a['task']} (asked {a['asked']}): {a['answer']!r} -> {_outcome(p)} "
                         f"({p.stage}), expected {a['expected']}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_every_rule_decides_some_answer():
    seen = collections.Counter(_read(a).stage for a in ANSWERS)
    assert set(STAGES) <= set(seen), set(STAGES) - set(seen)


def _gender(answer, prompt=""):
    task = get_task("utkface_gender")
    return read(answer, answer_space(task, "direct"), prompt=prompt)


def test_whole_words_only():
    lex = Lexicon((("no",), ("yes",)))
    assert [m.cls for m in lex.mentions(["not", "nothing", "know", "none"])] == []
    gender = Lexicon((("male", "man"), ("female", "woman")))
    assert [m.cls for m in gender.mentions(["female", "woman", "human", "manly"])] == [1, 1]
    assert [m.cls for m in gender.mentions(["males", "women"])] == [0]  # "women" is no plural


def test_bare_phrases_count_only_as_a_whole_clause():
    race = answer_space(get_task("utkface_race"), "direct")
    assert read('"Other"', race).text == "Others"
    assert read("The other features are unclear to me.", race).status != PARSED


def test_negation_is_scoped_to_its_clause():
    assert (_gender("The person does not appear to be female").text,
            _gender("The person does not appear to be female").stage) == ("Male",
                                                                          "negation_other")
    assert _gender("This is not a man but a woman").text == "Female"
    assert _gender("Not male, female.").text == "Female"
    assert _gender("No doubt a woman.").text == "Female"  # an idiom negates nothing
    age = answer_space(get_task("facet_age"), "direct")
    assert (read("Not young.", age).status, read("Not young.", age).stage) == (
        UNPARSEABLE, "negation_only")  # three classes: a bare negation says nothing
    birds = answer_space(get_task("bench_waterbirds"), "open")
    assert read("It is not a duck.", birds).status == UNPARSEABLE  # a species says nothing
    assert read("It is not a waterbird.", birds).text == "Landbird"


def test_disclaimers_and_notes_around_a_label_are_ignored():
    p = _gender("Male\n\nPlease note that I can't determine someone's gender identity from a "
                "photo.")
    assert (p.status, p.text) == (PARSED, "Male")
    assert _gender("I can't determine gender from a photo.").status == REFUSED
    p = _gender("I'm sorry, I can't determine gender. However, the person appears female.")
    assert (p.text, p.stage) == ("Female", "label_despite_refusal")


def test_prompt_echo_and_chat_residue_are_cut():
    task = get_task("bench_utkface")
    prompt = prompt_text(task, "origin")
    space = answer_space(task, "origin")
    assert read(prompt.upper() + " Female", space, prompt=prompt).text == "Female"
    assert read("USER: <image>\n" + prompt + " ASSISTANT: Male</s>", space,
                prompt=prompt).text == "Male"
    assert read("Female<|im_end|>\nUSER: And now?", space).text == "Female"
    assert read(prompt, space, prompt=prompt).stage == "echo_only"


def test_single_choice_compares_a_named_class_with_the_asked_one():
    task = get_task("utkface_gender")
    for asked, expected in (("Male", "Yes"), ("Female", "No")):
        space = answer_space(task, "single_choice", asked)
        p = read("The person in the image is male.", space)
        assert (p.text, p.stage) == (expected, "named_class")
    space = answer_space(task, "single_choice", "Male")
    assert read("**B**", space).text == "No" and read("I'd choose A.", space).text == "Yes"
    assert read("A person is shown.", space).status == UNPARSEABLE  # "A" is an article here
    assert read("A. No", space).status == UNPARSEABLE


def test_option_scores_decide_when_preferred():
    task = get_task("bench_utkface")
    space = answer_space(task, "origin")
    p = parse_answer("I'm sorry, I can't.", space, scores=[-3.0, -1.0], prefer_scores=True)
    assert (p.status, p.text, p.stage) == (PARSED, "Female", "option_score")
    p = parse_answer("I'm sorry, I can't.", space, scores=[-3.0, -1.0])
    assert p.status == REFUSED


def test_answer_space_of_a_hand_made_lexicon():
    space = AnswerSpace(("cat", "dog"), Lexicon((("cat", "kitten"), ("dog", "puppy"))))
    assert read("A small kitten.", space).text == "cat"
    assert read("A kitten and a puppy.", space).status == UNPARSEABLE


def test_colour_words_name_a_class_only_of_a_person():
    race = answer_space(get_task("utkface_race"), "direct")
    assert read("A white man.", race).text == "White"
    assert read("He is white.", race).text == "White"
    assert read("He wears a white thobe.", race).status == UNPARSEABLE
    assert read("White or Asian", race).status == UNPARSEABLE  # both classes, never a guess
    skin = answer_space(get_task("facet_skin_tone"), "direct")
    assert read("Dark skin, light shirt.", skin).text == "dark"
