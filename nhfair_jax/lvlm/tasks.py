"""LVLM tasks: what is asked about which attribute of which data set, the answer space, the named
prompt sets and the lexicons that map an answer back to a class.

Two families:
- the benchmark's classification tasks (`bench_<data set>`): the data set's default target and
  sensitive attribute, the Table 8 instruction ("origin"), the Table 17 wording and paraphrases
  where the benchmark has them, and open-ended generation ("open") where it has it;
- the demographic study's tasks (`facet_occupation`, `facet_gender`, `facet_age`,
  `facet_skin_tone`, `utkface_gender`, `utkface_race`, `utkface_age`): the direct question,
  the single-choice question (asked once with the true class and once with a wrong one, so that
  false-positive rates exist as well as recall; the study asks only the true class) and the
  study's other prompts ("describe", "fill_blank", "describe_persons"), read back by the same
  lexicons.

The study's answer lists, from its code (the paper is silent on them): occupation, all 52
FACET classes (recall is reported on the images of its 13 person classes); gender [male,
female]; age [young, middle, old]; race [white, black, asian, indian, others] ("others" is a
class: UTKFace race 4); skin tone [light, medium, dark]. Where the data set's annotation has to
be mapped onto a list, the mapping is ours: FACET's perceived age presentation (young / middle /
older, the value most annotators chose); FACET skin tone from its Monk-scale annotations, the
most chosen value binned 1-3 light, 4-6 medium, 7-10 dark; UTKFace age from the file name in
three bins (young < 30, middle 30-59, old >= 60, the last matching the benchmark's >= 60 split;
the study asks age of FACET only). FACET gender presentation masculine / feminine is named
Male / Female and UTKFace's race groups keep their capitalised names, so that the study's
GD_Male-Female, GD_White-Black and GD_Asian-Indian apply; the prompts list them as the study
writes them (lower case).
"""

from __future__ import annotations

from dataclasses import dataclass

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm import lexicons as L
from nhfair_jax.lvlm import prompts as P
from nhfair_jax.lvlm.ages import AGE_BINS
from nhfair_jax.lvlm.parse import AnswerSpace, Lexicon

GENDER = ("Male", "Female")
AGE = ("young", "middle", "old")
SKIN = ("light", "medium", "dark")
UTK_RACE = ("White", "Black", "Asian", "Indian", "Others")
FAIRFACE_RACE = ("White", "Black", "Latino or Hispanic", "East Asian", "Southeast Asian",
                 "Indian", "Middle Eastern")
SINGLE_CHOICE_CLASSES = ("No", "Yes")  # label 1: the class asked about is the true one
STUDY_SETS = ("direct", "single_choice", *P.STUDY_PROMPTS)


@dataclass(frozen=True)
class Task:
    """One thing to ask of every example.

    Attributes:
      name: the task's name (the config's `task`).
      dataset: the data set (a loader of nhfair_jax.data).
      target: the example attribute holding the true answer.
      classes: the answer classes, in label order (the attribute's values).
      options: per class, the answer string that option scoring scores.
      lexicons: prompt kind ("closed", "direct", "open") -> per class its words and phrases.
      prompt_sets: name -> instruction text; "direct" and "single_choice" are built per question.
      sensitive: the default group attribute of the fairness report (for the study's
        attribute tasks another attribute than the target: with the target as the group every
        group holds one class and equalized odds is undefined).
      recall_attributes: the demographic attributes whose groups get recall and GD figures.
      split: the default split ("all" for the study's tasks: it evaluates whole data sets).
      prompt_names: the class names as the direct question lists them (default: `classes`).
      attribute: the direct question asks about "the foreground person's <attribute>"; None
        asks about "the foreground object" (occupation).
      asked_classes: the classes whose examples are asked (default: all); the answer space is
        still every class.
      ignore: phrases consumed without meaning a class ("black hair", "30 years old").
      colour_nouns: the words after which the lexicon's colour words name a class.
      thing_nouns: the nouns before which a class word names a thing's origin, not the
        person's ("a Persian rug", "the Indian Ocean").
      age_bins: an age task: per class, the [start, end) span of years it holds (an age
        stated as a number is read into them).
    """

    name: str
    dataset: str
    target: str
    classes: tuple
    options: tuple
    lexicons: dict
    prompt_sets: dict
    sensitive: str
    recall_attributes: tuple
    split: str = "test"
    prompt_names: tuple | None = None
    attribute: str | None = None
    asked_classes: tuple | None = None
    ignore: tuple = ()
    colour_nouns: tuple = ()
    thing_nouns: tuple = ()
    age_bins: tuple | None = None

    def kind(self, prompt_set: str) -> str:
        """"closed", "open", "direct" or "single_choice"."""
        if prompt_set in ("direct", "single_choice"):
            return prompt_set
        if prompt_set == "open" or prompt_set in P.STUDY_PROMPTS:
            return "open"
        return "closed"

    def names(self) -> tuple:
        return self.prompt_names or self.classes

    def check_prompt_set(self, prompt_set: str) -> None:
        if prompt_set not in self.prompt_sets:
            raise UserError(f"task {self.name} has no prompt set {prompt_set!r}; it has "
                            f"{', '.join(self.prompt_sets)} (config prompts)")


def _yes_no(yes_extra=(), no_extra=()):
    return ((*L.YES_NO[0], *no_extra), (*L.YES_NO[1], *yes_extra))


def _bench(name, dataset, target, classes, options, closed_lexicon, sensitive, recall,
           open_lexicon=None, ignore=(), colour_nouns=(), thing_nouns=()):
    prompt_sets = dict(P.BENCHMARK_PROMPTS[dataset])
    lexicons = {"closed": closed_lexicon}
    if "open" in prompt_sets:
        lexicons["open"] = open_lexicon or closed_lexicon
    return Task(name=name, dataset=dataset, target=target, classes=classes, options=options,
                lexicons=lexicons, prompt_sets=prompt_sets, sensitive=sensitive,
                recall_attributes=recall, split="test", ignore=ignore,
                colour_nouns=colour_nouns, thing_nouns=thing_nouns)


def _study(name, dataset, target, classes, lexicon, recall, sensitive, *, prompt_names=None,
           attribute=None, open_lexicon=None, asked=None, ignore=(), colour_nouns=(),
           thing_nouns=(), age_bins=None):
    sets = {"direct": None, "single_choice": None, **P.STUDY_PROMPTS}
    return Task(name=name, dataset=dataset, target=target, classes=classes,
                options=tuple(classes), prompt_sets=sets,
                lexicons={"direct": lexicon, "open": open_lexicon or lexicon},
                sensitive=sensitive, recall_attributes=recall, split="all",
                prompt_names=prompt_names, attribute=attribute, asked_classes=asked,
                ignore=ignore, colour_nouns=colour_nouns, thing_nouns=thing_nouns,
                age_bins=age_bins)


_DIGITS = tuple(str(i) for i in range(7))
# FairFace's categories as number words count only as the whole clause ("Three", not the "one"
# of "one person")
_DIGIT_WORDS = ("=zero", "=one", "=two", "=three", "=four", "=five", "=six")
_LOWER_GENDER = ("male", "female")
_RACE_NAMES = ("white", "black", "asian", "indian", "others")
TASKS = {t.name: t for t in (
    _bench("bench_celeba", "celeba", "wavy", ("No", "Yes"), ("No", "Yes"),
           _yes_no(("wavy", "wavy haired", "wavy hair", "curly", "curly hair", "waves"),
                   ("non wavy", "not wavy", "straight", "straight hair", "straight haired")),
           "gender", ("gender",)),
    _bench("bench_utkface", "utkface", "gender", GENDER, GENDER, L.GENDER, "race_binary",
           ("gender", "race"), open_lexicon=L.GENDER_OPEN),
    _bench("bench_fairface", "fairface", "race", FAIRFACE_RACE, _DIGITS,
           tuple((d, w, *lex) for d, w, lex in zip(_DIGITS, _DIGIT_WORDS, L.FAIRFACE_RACE)),
           "gender",
           ("gender", "race"), open_lexicon=L.FAIRFACE_RACE,
           ignore=L.COLOUR_CONTEXT + L.LIGHT_CONTEXT + L.FAIRFACE_IGNORE,
           colour_nouns=L.PERSON_NOUNS, thing_nouns=L.ETHNONYM_THINGS),
    _bench("bench_facet", "facet", "visible_face", ("No", "Yes"), ("No", "Yes"),
           _yes_no(("visible", "clearly visible", "face visible"),
                   ("not visible", "no face", "invisible", "not clearly visible", "no visible",
                    "hidden", "obscured", "obscures", "obscuring", "obstructed", "obstruction",
                    "covered", "covers", "blocked", "blocks", "back of the head",
                    "back of his head", "back of her head", "back of their head",
                    "back of the person", "from behind", "facing away")),
           "gender", ("gender",),
           ignore=("partially visible", "partly visible", "half visible", "somewhat visible")),
    _bench("bench_waterbirds", "waterbirds", "bird", ("Landbird", "Waterbird"),
           ("Landbird", "Waterbird"), L.WATERBIRDS, "place", ("place",),
           ignore=L.BIRD_CONTEXT),
    _study("facet_occupation", "facet", "occupation", P.FACET_CLASSES,
           L.occupation_lexicon(P.FACET_CLASSES), ("gender", "age", "skin_tone"), "gender",
           asked=P.FACET_OCCUPATIONS, ignore=L.OCCUPATION_CONTEXT),
    _study("facet_gender", "facet", "gender", GENDER, L.GENDER, ("gender",), "skin_tone",
           prompt_names=_LOWER_GENDER, attribute="gender", open_lexicon=L.GENDER_OPEN),
    _study("facet_age", "facet", "age", AGE, L.AGE, ("age",), "gender", attribute="age",
           ignore=L.AGE_CONTEXT, age_bins=AGE_BINS),
    _study("facet_skin_tone", "facet", "skin_tone", SKIN, L.SKIN, ("skin_tone",), "gender",
           attribute="skin tone", ignore=L.COLOUR_CONTEXT + L.LIGHT_CONTEXT,
           colour_nouns=L.SKIN_NOUNS),
    _study("utkface_gender", "utkface", "gender", GENDER, L.GENDER, ("gender",), "race",
           prompt_names=_LOWER_GENDER, attribute="gender", open_lexicon=L.GENDER_OPEN),
    _study("utkface_race", "utkface", "race", UTK_RACE, L.UTK_RACE, ("race",), "gender",
           prompt_names=_RACE_NAMES, attribute="race", ignore=L.COLOUR_CONTEXT,
           colour_nouns=L.PERSON_NOUNS, thing_nouns=L.ETHNONYM_THINGS),
    _study("utkface_age", "utkface", "age", AGE, L.AGE, ("age",), "gender", attribute="age",
           ignore=L.AGE_CONTEXT, age_bins=AGE_BINS),
)}


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise UserError(f"unknown LVLM task {name!r}; known: {', '.join(sorted(TASKS))}")
    return TASKS[name]


def prompt_text(task: Task, prompt_set: str, asked_class: str | None = None,
                order=None) -> str:
    """The instruction for one question of a task.

    Args:
      task: the task.
      prompt_set: the prompt set's name.
      asked_class: single choice: the class asked about (a name of `task.classes`).
      order: direct question: the class indices in the order to list them (default: the
        study's order).
    """
    if prompt_set == "direct":
        names = task.names()
        listed = [names[i] for i in (order if order is not None else range(len(names)))]
        return P.direct_prompt(listed, task.attribute)
    if prompt_set == "single_choice":
        return P.single_choice_prompt(task.names()[task.classes.index(asked_class)])
    return task.prompt_sets[prompt_set]


def answer_space(task: Task, prompt_set: str, asked_class: str | None = None):
    """What an answer to a question of `prompt_set` is read against (see parse.AnswerSpace)."""

    kind = task.kind(prompt_set)
    if kind == "single_choice":
        named = Lexicon(task.lexicons["direct"], ignore=task.ignore,
                        colour_nouns=task.colour_nouns, thing_nouns=task.thing_nouns)
        return AnswerSpace(SINGLE_CHOICE_CLASSES, Lexicon(L.YES_NO, unknown=L.UNKNOWN),
                           choice=True, asked=task.classes.index(asked_class), named=named,
                           age_bins=task.age_bins)
    return AnswerSpace(task.classes, Lexicon(task.lexicons[kind], ignore=task.ignore,
                                             unknown=L.UNKNOWN,
                                             colour_nouns=task.colour_nouns,
                                             thing_nouns=task.thing_nouns),
                       age_bins=task.age_bins)
