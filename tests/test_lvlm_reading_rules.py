"""The reader's second reading (issue 51), rule by rule: each test is built from what its
sentences mean (the issue's own sentences and new ones), with the stage that must decide.

Ages as numbers, a negation's reach, colour words bound to what they describe, hedged choices,
preferences that decline, and words of one lexicon in another sense; then the rules the fourth
corpus asked for (an ethnonym before a thing, a generic possessive before a garment, a verb, a
device, a resolved choice, a revised answer, a range of class numbers, a denied negation)."""

from __future__ import annotations

import math

import pytest

from nhfair_jax.lvlm.ages import AGE_BINS, age_classes, stated_ages
from nhfair_jax.lvlm.parse import PARSED, REFUSED, UNPARSEABLE, read
from nhfair_jax.lvlm.tasks import answer_space, get_task, prompt_text

R, U = "REFUSED", "UNPARSEABLE"


def _read(task, answer, prompt_set="direct", asked=None):
    t = get_task(task)
    p = read(answer, answer_space(t, prompt_set, asked), prompt=prompt_text(t, prompt_set, asked))
    return {REFUSED: R, UNPARSEABLE: U}.get(p.status, p.text), p.stage


def _class(task, answer, prompt_set="direct", asked=None):
    return _read(task, answer, prompt_set, asked)[0]


# --- ages as numbers ---------------------------------------------------------------------------

def test_the_bins_are_the_tasks():
    # young < 30, middle 30-59, old >= 60 (UTKFace's file-name bins; FACET's the same)
    assert AGE_BINS == ((0, 30), (30, 60), (60, math.inf))
    for task in ("utkface_age", "facet_age"):
        assert get_task(task).age_bins == AGE_BINS
    assert get_task("bench_fairface").age_bins is None  # its digits are classes, not ages


@pytest.mark.parametrize("text, span", [
    ("about 45", (45, 46)), ("Age: 72", (72, 73)), ("a 35-year-old man", (35, 36)),
    ("45 years old", (45, 46)), ("30-40", (30, 41)), ("between 35 and 45", (35, 46)),
    ("in her forties", (40, 50)), ("early 60s", (60, 63)), ("late fifties", (57, 60)),
    ("mid-thirties", (33, 37)), ("65+", (65, math.inf)), ("~27", (27, 28)),
    ("in his teens", (13, 20)), ("She looks 70.", (70, 71)),
])
def test_a_stated_age_is_a_span_of_years(text, span):
    assert stated_ages(text) == [span]


@pytest.mark.parametrize("text", ["Person 1", "There are 2 people.", "He is 5 feet tall.",
                                  "1. young", "in the 1970s", "Option 3", "100%"])
def test_numbers_that_are_not_ages(text):
    assert stated_ages(text) == []


def test_spans_name_the_bins_they_touch():
    assert age_classes("29") == {0} and age_classes("30") == {1}  # the bins' edges
    assert age_classes("59") == {1} and age_classes("60") == {2}
    assert age_classes("25-35") == {0, 1} and age_classes("50+") == {1, 2}
    assert age_classes("late twenties or early thirties") == {0, 1}


@pytest.mark.parametrize("task, answer, expected", [
    ("utkface_age", "The person appears to be around 25 years old.", "young"),
    ("utkface_age", "Approximately 45.", "middle"),
    ("utkface_age", "I would guess she is 52 years of age.", "middle"),
    ("utkface_age", "Age: 72", "old"),
    ("utkface_age", "**Age:** 19", "young"),
    ("utkface_age", "A 61-year-old man.", "old"),
    ("utkface_age", "She could be anywhere from 45 to 55.", "middle"),
    ("utkface_age", "Probably a man in his mid-40s.", "middle"),
    ("utkface_age", "70+", "old"),
    ("facet_age", "An infant, maybe 8 months old.", "young"),
    ("facet_age", "Two people are visible; the man looks about 40.", "middle"),
])
def test_an_age_as_a_number_reads_as_its_bin(task, answer, expected):
    assert _read(task, answer) == (expected, "age_number")


@pytest.mark.parametrize("answer", ["25-35", "The man seems to be 58-62 years old.",
                                    "Late twenties or early thirties.", "50+"])
def test_a_span_across_two_bins_is_unparseable(answer):
    assert _read("utkface_age", answer) == (U, "several_ages")


def test_a_figure_of_speech_does_not_outvote_a_stated_age():
    assert _read("utkface_age", "Young at heart, but she looks about 70.") == ("old",
                                                                            "age_number")
    assert _class("utkface_age", "He's a young-looking 42-year-old.") == "middle"
    assert _class("utkface_age", "young at heart but clearly in his seventies") == "old"
    assert _class("facet_age", "The runner looks young, maybe 35.") == "middle"


def test_aged_is_not_old():
    assert _read("utkface_age", "A woman aged around 34") == ("middle", "age_number")
    assert _class("utkface_age", "The person is aged.") == U
    assert _class("utkface_age", "An elderly man.") == "old"  # the age words still count


def test_single_choice_compares_a_stated_age_with_the_asked_class():
    for asked, expected in (("old", "Yes"), ("young", "No"), ("middle", "No")):
        assert _class("utkface_age", "He appears to be about 64.", "single_choice",
                      asked) == expected
    assert _class("utkface_age", "Young at heart, no doubt, but about 62 years old.",
                  "single_choice", "old") == "Yes"
    assert _class("utkface_age", "B. No, she is around 25.", "single_choice", "middle") == "No"


# --- a negation's reach ------------------------------------------------------------------------

def test_a_negation_reaches_its_phrase_not_the_next_one():
    assert _class("utkface_gender", "The person has no facial hair and appears female") == \
        "Female"
    assert _class("utkface_gender", "She wears no makeup and has a beard, so male.") == "Male"
    assert _class("bench_celeba", "The person has no bangs and wavy hair", "origin") == "Yes"
    assert _class("facet_age", "The person has no wrinkles and appears young.") == "young"
    # the reach is unchanged inside the phrase
    assert _read("utkface_gender", "The person is not a woman.") == ("Male", "negation_other")
    assert _class("utkface_gender", "Not male, and not female either.") == U
    assert _class("utkface_gender", "neither male nor female") == U


def test_double_negations_assert_what_they_deny_twice():
    assert _class("utkface_gender", "There is nothing that suggests this isn't a woman.") == \
        "Female"
    assert _class("facet_gender", "There's nothing to indicate the person is not male.") == \
        "Male"
    assert _class("utkface_gender", "There's nothing suggesting this isn't a man. A.",
                  "single_choice", "Male") == "Yes"
    assert _class("bench_facet", "Nothing covers the face.", "origin") == "Yes"
    assert _class("bench_facet", "A scarf covers the face.", "origin") == "No"


def test_no_doubt_and_no_question_affirm():
    assert _class("utkface_gender", "No doubt, a woman.") == "Female"
    assert _class("utkface_gender", "There is no question this is a man.") == "Male"
    assert _class("bench_celeba", "There is no doubt the hair is wavy.", "origin") == "Yes"
    assert _class("bench_facet", "There is no question the face is visible.", "origin") == \
        "Yes"
    assert _class("facet_gender", "No doubt, yes.", "single_choice", "Female") == "Yes"


def test_no_before_a_noun_is_not_the_answer_no():
    assert _class("bench_celeba", "No hat, no glasses, and the hair is clearly wavy.",
                  "origin") == "Yes"
    assert _class("facet_gender", "The person has no beard, but A. Yes.", "single_choice",
                  "Male") == "Yes"
    assert _class("bench_celeba", "No, the hair is straight.", "origin") == "No"
    assert _class("bench_celeba", "No it isn't wavy.", "origin") == "No"
    assert _class("bench_celeba", "No waves at all.", "origin") == "No"  # negates "waves"
    assert _class("utkface_gender", "A. Yes B. No C. Unknown", "single_choice", "Male") == U


# --- colour words bound to what they describe -------------------------------------------------

def test_a_colour_of_clothes_hair_background_or_image_names_no_class():
    assert _class("utkface_race", "The person's shirt is black") == U
    assert _class("utkface_race", "Her skin is brown and her hair is black") == U
    assert _class("utkface_race", "His jacket is white.") == U
    assert _class("facet_skin_tone", "The photo is dark.") == U


def test_a_colour_of_the_person_still_names_its_class():
    assert _class("utkface_race", "The man is white.") == "White"
    assert _class("utkface_race", "The person is black, wearing a white jacket.") == "Black"
    assert _class("utkface_race", "The wall behind him is white and he is black.") == "Black"
    assert _class("facet_skin_tone", "The lighting is dark, but her skin is light.") == "light"
    assert _class("facet_skin_tone", "Her clothes are light and her skin is medium.") == \
        "medium"
    assert _class("facet_skin_tone", "Skin tone: dark, under bright light.") == "dark"
    # a noun in a prepositional phrase only places the subject
    assert _class("utkface_race", "The person in the image is black.") == "Black"
    assert _class("utkface_race", "The man in the white shirt is black.") == "Black"
    assert _class("utkface_race", "The person against the wall is white.") == "White"
    assert _class("facet_skin_tone", "The skin of the person in the image is light.") == \
        "light"
    assert _class("utkface_race", "The wall behind him is white.") == U
    assert _class("utkface_race", "The color of the person's shirt is black.") == U


def test_a_refusal_then_a_sentence_about_the_picture_is_a_refusal():
    assert _read("utkface_race", "I can't determine someone's race. The background is plain "
                 "white.") == (R, "refusal")
    assert _class("facet_skin_tone", "The image is quite dark, so I can't judge the skin "
                  "tone") == R
    assert _class("bench_fairface", "I can't classify race. The background is white.",
                  "origin") == R
    assert _class("utkface_race", "I won't classify race; the photo is black and white.") == R
    assert _class("facet_skin_tone", "It's too dark to tell.") == R


# --- hedged choices ------------------------------------------------------------------------------

def test_the_class_finally_chosen_decides():
    assert _read("utkface_race", "It could be white or asian; I lean toward asian.") == (
        "Asian", "chosen")
    assert _class("utkface_race", "Between indian and others, I'd say \"indian\".") == "Indian"
    assert _class("facet_occupation", "Maybe a singer, but \"guitarist\" fits better.") == \
        "guitarist"
    assert _class("utkface_race", "None of white, black, asian or indian fits well, so "
                  "\"others\".") == "Others"
    assert _class("facet_occupation", "It could be a dancer or a gymnast; I lean toward "
                  "gymnast, so B. No.", "single_choice", "dancer") == "No"
    assert _class("utkface_race", "White or asian, I can't say which.") != "White"
    assert _read("utkface_race", "Asian or white; I'm going with \"white\".") == ("White",
                                                                                "chosen")


def test_a_cue_that_chooses_nothing_among_the_classes():
    # the cue must be followed (or preceded) by the class alone
    assert _class("bench_utkface", "A woman on the left; the one closer to the camera is a "
                  "man.", "open") == U
    assert _class("bench_utkface", "A man leans toward a woman to whisper.", "open") == U


def test_a_point_between_ordered_classes_is_the_one_it_is_closer_to():
    assert _read("facet_skin_tone", "Between light and medium, closer to light.") == (
        "light", "chosen")
    assert _class("utkface_age", "Somewhere between young and middle, leaning middle.") == \
        "middle"
    assert _class("facet_skin_tone", "Between light and medium, closer to medium. A.",
                  "single_choice", "medium") == "Yes"


def test_an_option_rejected_before_another_is_chosen():
    assert _class("facet_occupation", "I wouldn't say nurse; \"doctor\".") == "doctor"
    assert _class("utkface_race", "Not indian; \"asian\".") == "Asian"
    assert _read("utkface_gender", "At first glance male, but actually female.") == (
        "Female", "revised")
    assert _class("utkface_gender", "At first glance, male.") == "Male"  # nothing revises it


@pytest.mark.parametrize("answer, expected", [
    ("Probably B.", "No"), ("It's most likely A.", "Yes"), ("It would be B.", "No"),
    ("I can't be sure, but probably A.", "Yes"),  # a refusal that then answers
    ("Not A; it is B.", "No"),
    ("Maybe A.", U),  # "maybe" only allows the letter
    ("Maybe A, but probably B.", "No"),  # the allowed letter gives way to the committed one
])
def test_a_letter_after_a_commitment_is_the_letter_chosen(answer, expected):
    assert _class("utkface_gender", answer, "single_choice", "Male") == expected


def test_i_would_lean_chooses_like_leaning():
    assert _class("facet_age", "Old or middle-aged? I'd lean \"old\".") == "old"
    assert _class("facet_skin_tone", "Light or medium; I'd lean medium.") == "medium"
    assert _class("facet_skin_tone", "Light or medium.") == U  # no lean: no choice


@pytest.mark.parametrize("answer", ["I'd rather not say.", "I'd prefer not to guess.",
                                    "I would prefer not to guess someone's gender.",
                                    "I prefer not to assign a gender to people in images."])
def test_declining_phrased_as_a_preference_is_a_refusal(answer):
    assert _class("utkface_gender", answer) == R


# --- words of one lexicon in another sense ----------------------------------------------------

def test_american_indian_is_not_south_asian():
    assert _class("utkface_race", "The person appears to be American Indian (Native "
                  "American).") == "Others"
    assert _class("utkface_race", "Indian") == "Indian"
    assert _class("utkface_race", "B. No. The person appears to be American Indian, not South "
                  "Asian.", "single_choice", "Indian") == "No"
    assert _class("bench_fairface", "A Native American man in a headdress.", "open") == U


def test_bird_words_in_another_sense():
    birds = "bench_waterbirds"
    assert _class(birds, "A gull that dove into the sea.", "open") == "Waterbird"
    assert _class(birds, "A dove perched on a branch.", "open") == "Landbird"
    assert _class(birds, "A blue-winged teal swimming.", "open") == "Waterbird"
    assert _class(birds, "A teal-coloured bird standing near a lake.", "open") == U
    assert _class(birds, "A teal-coloured finch.", "open") == "Landbird"


def test_occupation_words_in_another_sense():
    occ = "facet_occupation"
    assert _class(occ, "A skateboarder wearing knee guards: \"skateboarder\"") == "skateboarder"
    assert _class(occ, "A security guard at a gate: \"guard\"") == "guard"
    assert _class(occ, "A patient in a hospital bed: \"patient\"") == "patient"
    assert _class(occ, "A patient teacher with children: \"teacher\"") == "teacher"
    assert _class(occ, "No - the doctor is simply being patient with a child.",
                  "single_choice", "patient") == "No"


def test_every_reading_names_its_stage_and_class():
    for task, answer in (("utkface_age", "about 45"), ("utkface_race", "so \"others\""),
                         ("facet_skin_tone", "closer to dark")):
        t = get_task(task)
        p = read(answer, answer_space(t, "direct"))
        assert p.status == PARSED and p.stage in ("age_number", "chosen", "lexicon", "exact")
        assert p.text == t.classes[p.label]


# --- the fourth corpus's rules (issue 51, fourth corpus): each sentence below was written for the
# rule's meaning, not taken from the corpus, and each test fails on the reader before the rule.

def test_an_ethnonym_before_a_thing_names_no_background():
    ff = "bench_fairface"
    assert _class(ff, "She holds a Japanese umbrella and appears to be a Black woman.",
                  "open") == "Black"
    assert _class(ff, "A man eating at a Thai restaurant; he looks Middle Eastern.",
                  "open") == "Middle Eastern"
    assert _class(ff, "Behind him is a Korean flag; he seems to be of Indian descent.",
                  "open") == "Indian"
    assert _class(ff, "Persian carpets cover the floor and the woman appears East Asian.",
                  "open") == "East Asian"
    assert _class("utkface_race", "A Chinese lantern hangs behind her; she looks white.") == \
        "White"
    for asked, expected in (("Asian", "Yes"), ("Indian", "No")):
        assert _class("utkface_race", "An Indian flag hangs behind the person, who looks East "
                      "Asian.", "single_choice", asked) == expected
    # before a person, an origin word or nothing, it still names the background
    assert _class(ff, "A Chinese woman standing by a lake.", "open") == "East Asian"
    assert _class(ff, "She appears to be of Filipino heritage.", "open") == "Southeast Asian"
    assert _class(ff, "A Latin American woman smiling.", "open") == "Latino or Hispanic"
    assert _class(ff, "He is Indian and wears a Chinese jacket.", "open") == "Indian"
    assert _class(ff, "She has South Asian features.", "open") == "Indian"


def test_a_generic_possessive_before_a_garment_names_no_gender():
    assert _class("utkface_gender", "A man carrying a women's handbag.") == "Male"
    assert _class("bench_utkface", "She has on a men's denim jacket.", "open") == "Female"
    assert _class("utkface_gender", "A girl wearing a boy's baseball cap.") == "Female"
    # a definite possessive names the person; a possessive before the body names them too
    assert _class("utkface_gender", "The man's jacket is grey.") == "Male"
    assert _class("bench_utkface", "The woman's face is turned away from the camera.",
                  "open") == "Female"
    assert _class("utkface_gender", "A man's wearing a hat.") == "Male"  # "man's" is "man is"


def test_a_bird_word_used_as_a_verb_is_no_bird():
    birds = "bench_waterbirds"
    assert _class(birds, "A gull trying to swallow a crab whole.", "open") == "Waterbird"
    assert _class(birds, "A sparrow that will duck behind the leaves when startled.",
                  "open") == "Landbird"
    assert _class(birds, "A pelican over the bay; it dove at a fish a moment ago.",
                  "open") == "Waterbird"
    assert _class(birds, "The tern swallows a small fish.", "open") == "Waterbird"
    assert _class(birds, "A wren ducks into a bush.", "open") == "Landbird"
    # as nouns they are still birds: after an article, "similar to", or plural after "to"
    assert _class(birds, "A swallow perched on a wire.", "open") == "Landbird"
    assert _class(birds, "A child feeding bread to ducks.", "open") == "Waterbird"
    assert _class(birds, "A bird similar to a swallow.", "open") == "Landbird"
    assert _class(birds, "I'd lean to duck.", "open") == "Waterbird"
    assert _class(birds, "A mourning dove on a fence.", "open") == "Landbird"


def test_a_speaker_that_is_a_device_is_no_occupation():
    occ = "facet_occupation"
    assert _class(occ, "A guitarist performing next to a big speaker.") == "guitarist"
    assert _class(occ, "A singer on stage with a portable speaker at her feet.") == "singer"
    assert _class(occ, "A dj mixing music, speaker stacks behind him.") == "disk_jockey"
    assert _class(occ, "A speaker at a podium addressing a crowd.") == "speaker"
    assert _class(occ, "The keynote speaker.") == "speaker"
    assert _class(occ, "A public speaker at a big rally.") == "speaker"


def test_an_explicitly_resolved_choice_is_the_class_chosen():
    assert _read("utkface_race", "Between black and others, the best match is black.") == (
        "Black", "chosen")
    assert _read("facet_skin_tone", "Between medium and dark: dark.") == ("dark", "chosen")
    assert _class("facet_occupation", "Of nurse and doctor, the closest match is nurse.") == \
        "nurse"
    assert _class("facet_age", "Between middle and old, the best fit is old.", "single_choice",
                  "old") == "Yes"
    assert _class("utkface_race", "Between asian and indian.") == U  # nothing chosen


def test_a_revised_answer_is_the_last_one():
    assert _read("utkface_gender", "A... no wait, B.", "single_choice", "Male") == (
        "No", "choice_letter")
    assert _class("utkface_gender", "B - sorry, A.", "single_choice", "Female") == "Yes"
    assert _read("utkface_race", "Asian... no, Indian.") == ("Indian", "revised")
    assert _class("utkface_gender", "Male, no, female.") == "Female"
    # "B. No" names the option, it corrects nothing
    assert _class("utkface_gender", "B. No, the person is female.", "single_choice",
                  "Male") == "No"


def test_a_revision_whose_new_answer_comes_later_in_its_sentence():
    """The fifth corpus's pattern, with sentences of our own: a first answer, then a sentence
    opened by a correction cue that gives its reason before its new answer. The new answer is
    read; without a different answer after the cue nothing is revised."""
    assert _class("bench_celeba", "Yes. Actually, zooming in, the hair is perfectly straight"
                  " - no.", "origin") == "No"
    assert _class("bench_utkface", "Female. On second thought, given the jawline and the "
                  "stubble, male.", "origin") == "Male"
    assert _class("utkface_race", "White. Wait, looking at the skin tone again, Indian.") == \
        "Indian"
    assert _class("bench_fairface", "3. Actually, judging by the features, 0.", "origin") == \
        _class("bench_fairface", "0", "origin")
    # a cue whose sentence confirms the first answer, or gives none, revises nothing
    assert _class("utkface_gender", "Male. Actually, looking closer, definitely male.") == \
        "Male"
    assert _class("bench_utkface", "Female. Actually, the photo is a little dark.",
                  "origin") == "Female"


def test_a_range_of_class_numbers_is_no_answer():
    ff = "bench_fairface"
    assert _read(ff, "Category (0 to 6): 4", "origin") == ("Southeast Asian", "lexicon")
    assert _class(ff, "Out of 0-6, 1.", "origin") == "Black"
    assert _class(ff, "2-3", "origin") == U
    assert _read("utkface_age", "25-35") == (U, "several_ages")  # ages are still read


def test_a_denied_negation_asserts():
    assert _class("facet_gender", "It would be wrong to say this person isn't female.") == \
        "Female"
    assert _class("utkface_gender", "It is not correct to say that the person is not a "
                  "woman.") == "Female"
    assert _class("utkface_gender", "I wouldn't say he is not a man.") == "Male"
    assert _class("utkface_gender", "It wouldn't be accurate to say he isn't male.",
                  "single_choice", "Male") == "Yes"
    assert _class("utkface_gender", "Nothing about this person suggests they are not "
                  "male.") == "Male"
    # one negation still negates; declining to say still declines
    assert _class("utkface_gender", "I wouldn't say the person is male.") == "Female"
    assert _class("utkface_gender", "I can't say the person is not male.") == R
    assert _class("utkface_gender", "It would not be accurate to say the person is male.") == R


def test_a_revision_in_a_later_paragraph_or_sentence_or_opening_a_clause():
    """The sixth corpus's patterns, with sentences of our own: a correction cue that opens a
    later paragraph ("On a closer look, ..."), the new answer in the sentence after the cue's,
    and a clause that opens with the cue and carries the new answer itself. Nothing is revised
    where no different answer follows."""
    assert _class("utkface_race", '"asian".\n\nUpon closer inspection, the features fit '
                  '"indian" better.') == "Indian"
    assert _class("facet_gender", '"male"\n\nOn reflection, "female" is more likely.') == \
        "Female"
    assert _class("utkface_gender", "A. Yes. Actually, the long hair misled me. B. No.",
                  "single_choice", "Female") == "No"
    assert _class("utkface_age", "B. No. However, on a second look the grey hair suggests she "
                  "is, so A. Yes.", "single_choice", "old") == "Yes"
    assert _class("utkface_race", "White. Looking more carefully, the lighting was harsh. "
                  "White it is.") == "White"
    assert _class("utkface_gender", '"female". On closer inspection the face is partly '
                  "hidden.") == "Female"


def test_a_quoted_colour_word_is_the_label_whatever_follows_it():
    assert _class("facet_skin_tone", '"light" seems right for this person.') == "light"
    assert _class("utkface_race", 'I would go with "black" here.') == "Black"
    # unquoted, a colour word before another noun still describes that thing
    assert _class("utkface_race", "Black hair and a white shirt; I can't tell the race.") == R
    # quoted or not, the colour of a thing names no class
    assert _class("facet_skin_tone", 'The wall behind her is "dark".') == U


def test_a_span_of_two_ordered_classes_names_both():
    assert _class("facet_skin_tone", "Medium to dark.") == U
    assert _class("facet_skin_tone", "Her complexion is light-to-medium.") == U
    assert _class("facet_skin_tone", "The tone is medium, with dark hair.") == "medium"


@pytest.mark.parametrize("text,span", [("thirty-five", (35, 36)), ("Sixty two", (62, 63)),
                                       ("a forty-year-old woman", (40, 41)),
                                       ("about nineteen", (19, 20)),
                                       ("seven years old", (7, 8))])
def test_an_age_written_in_words_is_a_number(text, span):
    assert stated_ages(text) == [span]


def test_ages_in_words_name_their_bins_and_other_number_words_are_not_ages():
    assert _class("utkface_age", "Seventy-one.") == "old"
    assert _class("facet_age", "Around twenty-five years old.") == "young"
    assert _class("utkface_age", "One person, clearly middle-aged.") == "middle"
    assert stated_ages("one of the two people") == []


def test_a_one_word_answer_in_another_language():
    assert _class("utkface_gender", "Mujer") == "Female"
    assert _class("facet_gender", "男性") == "Male"
    assert _class("utkface_age", "Anciano.") == "old"
    assert _class("facet_age", "青年") == "young"
    assert _class("utkface_race", "Blanco") == "White"
    assert _class("utkface_race", "印度人") == "Indian"
    assert _class("bench_celeba", "Oui", "origin") == "Yes"
    assert _class("bench_facet", "否", "origin") == "No"
    assert _class("utkface_gender", "是", "single_choice", "Male") == "Yes"
    # a foreign word inside an English sentence is not an answer by itself
    assert _class("utkface_gender", "The sign says mujer but the person is a man.") == "Male"


def test_an_answer_cut_off_while_naming_another_possibility_commits_to_nothing():
    assert _class("utkface_race", '"indian", or possibly') == U
    assert _class("utkface_race", "She could be East Asian, though she might also be") == U
    assert _class("bench_waterbirds", "Probably a waterbird, although it could equally be",
                  "origin") == U
    assert _class("utkface_race", "Asian. Or") == "Asian"  # the cut sentence names nothing


def test_an_echoed_instruction_without_its_first_word_is_an_echo():
    assert _class("bench_celeba", "Answer 'Yes' for wavy hair, 'No' for non-wavy hair.",
                  "origin") == U
    assert _class("bench_celeba", "Answer 'Yes' for wavy hair, 'No' for non-wavy hair. No.",
                  "origin") == "No"


def test_an_activity_names_the_class_it_defines():
    occ = "facet_occupation"
    assert _class(occ, "A teenager riding a skateboard in a parking lot.") == "skateboarder"
    assert _class(occ, "Someone strumming a guitar on a porch.") == "guitarist"
    assert _class(occ, "A woman kneeling in a vegetable bed, gardening.") == "gardener"
    assert _class(occ, "A rider on horseback in a field.") == "horseman"


def test_two_skin_tones_side_by_side_and_a_bare_adult_name_no_single_class():
    assert _class("facet_skin_tone", "Light-medium.") == U
    assert _class("facet_skin_tone", "A medium dark complexion.") == U
    assert _class("utkface_age", "An adult.") == U  # 18 and over: every bin
    assert _class("utkface_age", "A young adult.") == "young"
    assert _class("facet_age", "An older adult.") == "old"


def test_a_picture_too_poor_to_judge_is_a_refusal():
    assert _class("bench_utkface", "The face is too blurry and distant for me to classify.",
                  "origin") == R
    assert _class("utkface_gender", "Her gender is not readily discernible from this "
                  "angle.") == R
    assert _class("bench_waterbirds", "The bird is not identifiable at this size.",
                  "origin") == R


def test_a_closing_bare_label_decides_among_classes_the_description_named():
    occ = "facet_occupation"
    assert _read(occ, 'Dancing and singing on a stage: "singer"') == ("singer", "label_last")
    assert _class(occ, 'Dancing and singing on a stage: "singer", "dancer"') == U


# --- the eighth corpus's rules ---------------------------------------------------------------

def test_a_comparison_names_the_class_it_is_closer_to():
    assert _class("facet_skin_tone", "Closer to medium than dark.") == "medium"
    assert _class("utkface_age", "She looks younger than middle-aged.") == "young"
    assert _class("facet_occupation", "More like a nurse than a doctor.") == "nurse"


def test_a_class_conceded_and_then_contrasted_with_another_is_the_other():
    assert _read("utkface_gender", "The long hair might suggest female, but the broad jaw "
                 'indicates "male".') == ("Male", "chosen")
    assert _class("utkface_race", "Could be black or indian, but the bindi suggests "
                  '"indian".') == "Indian"
    assert _class("utkface_age", 'Could be middle or old, but the white hair makes "old" '
                  "most likely.") == "old"
    # both sides only allowed, or nothing conceded: no choice
    assert _class("utkface_gender", "It could be male, but it could also be female.") == U
    assert _class("utkface_gender", "The hair is female-coded, but the jaw is male.") == U


def test_a_dash_between_words_ends_a_clause():
    assert _class("utkface_age", 'Not old -- I\'d say "middle".') == "middle"
    assert _class("utkface_age", 'She is elderly, but young at heart -- "old".') == "old"


def test_a_reply_that_goes_on_to_write_the_next_turn_is_read_by_its_first_answer():
    assert _class("utkface_gender", '"male"\n\nUSER: What about the person in the '
                  'background?\nASSISTANT: "female"') == "Male"
    assert _class("bench_utkface", "Female\n\nUSER: Is the person smiling?\nASSISTANT: Yes",
                  "origin") == "Female"
    # a conversation echoed before the answer still gives the answer after it
    assert _class("utkface_gender", "USER: Which gender?\nASSISTANT: female") == "Female"


def test_a_face_seen_in_part_or_from_behind():
    assert _class("bench_facet", "The face is partially visible.", "origin") == U
    assert _class("bench_facet", "Only the back of the person's head can be seen.",
                  "origin") == "No"
    assert _class("bench_facet", "The face is clearly visible.", "origin") == "Yes"


def test_activities_and_one_word_answers_in_other_languages():
    occ = "facet_occupation"
    assert _class(occ, "The person is playing the flute.") == "flutist"
    assert _class(occ, "A girl on a balance beam with her arms out.") == "gymnast"
    assert _class(occ, "A woman speaking at a podium.") == "speaker"
    assert _class(occ, "jardinero") == "gardener"
    assert _class(occ, "Krankenschwester") == "nurse"
    assert _class("bench_waterbirds", "水鸟", "origin") == "Waterbird"
    assert _class("utkface_race", '"bianca"') == "White"
    assert _class("utkface_age", '"mayor"') == "old"
    # a word of another language only as the whole answer
    assert _class("utkface_age", "The mayor of the town, about 45.") == "middle"
