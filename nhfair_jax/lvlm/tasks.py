"""LVLM tasks: what is asked about which attribute of which data set, the answer space, the named
prompt sets and the lexicon that maps an answer back to a class.

Two families:
- the benchmark's classification tasks (`bench_<data set>`): the data set's default target and
  sensitive attribute, the Table 8 instruction ("origin"), the Table 17 wording and paraphrases
  where the benchmark has them, and open-ended generation ("open") where it has it;
- the demographic study's tasks (`facet_occupation`, `facet_gender`, `facet_age`,
  `facet_skin_tone`, `utkface_gender`, `utkface_race`, `utkface_age`): the direct question and
  the single-choice question, the latter asked once with the true class and once with a wrong
  one, so that false-positive rates exist as well as recall.

Where the study is silent, the value lists are ours: UTKFace age from the file name in three
bins (young < 30, middle 30-59, older >= 60, the last matching the benchmark's >= 60 split);
FACET's perceived age presentation (young / middle / older, the value most annotators chose);
FACET skin tone from its Monk-scale annotations, the most chosen value binned 1-3 lighter, 4-6
medium, 7-10 darker; UTKFace race without "Others" (those images are excluded and counted).
FACET gender presentation masculine / feminine is named Male / Female so that the study's
GD_Male-Female applies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nhfair_jax.errors import UserError
from nhfair_jax.lvlm import prompts as P

GENDER = ("Male", "Female")
AGE = ("young", "middle", "older")
SKIN = ("lighter", "medium", "darker")
UTK_RACE = ("White", "Black", "Asian", "Indian")
FAIRFACE_RACE = ("White", "Black", "Latino or Hispanic", "East Asian", "Southeast Asian",
                 "Indian", "Middle Eastern")

# Synonyms of the study's class names for the direct question (whole words; plural forms too).
DIRECT_LEXICONS = {
    "gender": (("male", "man", "men", "boy", "masculine", "gentleman", "gentlemen"),
               ("female", "woman", "women", "girl", "feminine", "lady", "ladies")),
    "age": (("young", "younger", "youth", "child", "teenager", "kid", "teen"),
            ("middle", "middle-aged", "middle aged", "adult", "mid-aged"),
            ("older", "old", "elderly", "senior", "aged")),
    "skin_tone": (("lighter", "light", "fair", "pale"), ("medium", "olive", "tan", "tanned"),
                  ("darker", "dark", "deep")),
    "race": (("white", "caucasian", "european"), ("black", "african", "african american"),
             ("asian", "east asian", "chinese", "japanese", "korean"),
             ("indian", "south asian")),
    "occupation": (("gardener", "gardening"), ("craftsman", "craftsperson", "artisan",
                                               "craftswoman", "carpenter"),
                   ("laborer", "labourer", "worker", "construction worker"),
                   ("skateboarder", "skater", "skateboarding"),
                   ("prayer", "praying", "worshipper", "worshiper"),
                   ("guitarist", "guitar player"), ("singer", "vocalist"),
                   ("dancer", "dancing", "ballerina"),
                   ("retailer", "vendor", "shopkeeper", "seller", "merchant", "salesperson"),
                   ("nurse",), ("student", "pupil", "schoolgirl", "schoolboy"),
                   ("gymnast", "gymnastics"),
                   ("horseman", "horsewoman", "horse rider", "rider", "equestrian",
                    "jockey")),
}
SINGLE_CHOICE_CLASSES = ("No", "Yes")  # label 1: the class asked about is the true one


@dataclass(frozen=True)
class Task:
    """One thing to ask of every example.

    Attributes:
      name: the task's name (config `task`).
      dataset: the data set (a loader of nhfair_jax.data).
      target: the example attribute holding the true answer.
      classes: the answer classes, in label order (the attribute's values).
      options: per class, the answer string that option scoring scores.
      lexicons: prompt kind -> per class the words and phrases meaning it.
      prompt_sets: name -> instruction text; "direct" and "single_choice" are built per example.
      sensitive: the default group attribute of the fairness report (for the study's
        attribute tasks another attribute than the target: with the target as the group every
        group holds one class and equalized odds is undefined).
      recall_attributes: the demographic attributes whose groups get recall and GD figures.
      split: the default split ("all" for the study's tasks: it evaluates whole data sets).
      max_new_tokens: prompt kind -> the generation budget.
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
    max_new_tokens: dict = field(default_factory=lambda: {"closed": 16, "direct": 16,
                                                          "single_choice": 16, "open": 256})

    def kind(self, prompt_set: str) -> str:
        """"closed", "open", "direct" or "single_choice"."""
        if prompt_set in ("direct", "single_choice", "open"):
            return prompt_set
        return "closed"

    def check_prompt_set(self, prompt_set: str) -> None:
        if prompt_set not in self.prompt_sets:
            raise UserError(f"task {self.name} has no prompt set {prompt_set!r}; it has "
                            f"{', '.join(self.prompt_sets)} (config prompts)")


def _yes_no(yes_extra=(), no_extra=()):
    return (P.NO_WORDS + tuple(no_extra), P.YES_WORDS + tuple(yes_extra))


def _bench(name, dataset, target, classes, options, closed_lexicon, sensitive, recall):
    prompt_sets = dict(P.BENCHMARK_PROMPTS[dataset])
    lexicons = {"closed": closed_lexicon}
    if "open" in prompt_sets:
        lexicons["open"] = P.OPEN_LEXICONS[dataset]
    return Task(name=name, dataset=dataset, target=target, classes=classes, options=options,
                lexicons=lexicons, prompt_sets=prompt_sets, sensitive=sensitive,
                recall_attributes=recall, split="test")


def _study(name, dataset, target, classes, lexicon_key, recall, sensitive):
    direct = DIRECT_LEXICONS[lexicon_key]
    return Task(name=name, dataset=dataset, target=target, classes=classes,
                options=tuple(classes), prompt_sets={"direct": None, "single_choice": None},
                lexicons={"direct": direct, "single_choice": _yes_no()},
                sensitive=sensitive,
                recall_attributes=recall, split="all")


_DIGITS = tuple(str(i) for i in range(7))
TASKS = {t.name: t for t in (
    _bench("bench_celeba", "celeba", "wavy", ("No", "Yes"), ("No", "Yes"),
           _yes_no(("wavy", "wavy-haired", "wavy hair", "curly", "wavy-hair"),
                   ("non-wavy", "not wavy", "straight", "straight hair", "non wavy")),
           "gender", ("gender",)),
    _bench("bench_utkface", "utkface", "gender", GENDER, GENDER, DIRECT_LEXICONS["gender"],
           "race_binary", ("gender", "race")),
    _bench("bench_fairface", "fairface", "race", FAIRFACE_RACE, _DIGITS,
           tuple((d,) + lex for d, lex in zip(_DIGITS, P.OPEN_LEXICONS["fairface"])),
           "gender", ("gender", "race")),
    _bench("bench_facet", "facet", "visible_face", ("No", "Yes"), ("No", "Yes"),
           _yes_no(("visible", "clearly visible"), ("not visible", "no face", "invisible",
                                                    "not clearly visible")),
           "gender", ("gender",)),
    _bench("bench_waterbirds", "waterbirds", "bird", ("Landbird", "Waterbird"),
           ("Landbird", "Waterbird"), P.OPEN_LEXICONS["waterbirds"], "place", ("place",)),
    _study("facet_occupation", "facet", "occupation", P.FACET_OCCUPATIONS, "occupation",
           ("gender", "age", "skin_tone"), "gender"),
    _study("facet_gender", "facet", "gender", GENDER, "gender", ("gender",), "skin_tone"),
    _study("facet_age", "facet", "age", AGE, "age", ("age",), "gender"),
    _study("facet_skin_tone", "facet", "skin_tone", SKIN, "skin_tone", ("skin_tone",),
           "gender"),
    _study("utkface_gender", "utkface", "gender", GENDER, "gender", ("gender",), "race"),
    _study("utkface_race", "utkface", "race", UTK_RACE, "race", ("race",), "gender"),
    _study("utkface_age", "utkface", "age", AGE, "age", ("age",), "gender"),
)}


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise UserError(f"unknown LVLM task {name!r}; known: {', '.join(sorted(TASKS))}")
    return TASKS[name]


def prompt_text(task: Task, prompt_set: str, asked_class: str | None = None) -> str:
    """The instruction for one question of a task."""
    if prompt_set == "direct":
        return P.direct_prompt(task.classes)
    if prompt_set == "single_choice":
        return P.single_choice_prompt(asked_class)
    return task.prompt_sets[prompt_set]
