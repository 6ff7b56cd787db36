"""From an LVLM's answer to exactly one status, read the way a careful person reads it: parsed
(with its class), refused or unparseable (error is set by the backend), and the rule that decided
(`stage`).

The reader, in order (the rules are ours: the studies' own code matches substrings, so that
"no" is found in "not" and a batch with one unreadable answer is dropped):
1. Option scores decide when the config prefers them (`option_score`).
2. Cleaning: the chat residue is cut (role markers before the answer, a next turn after it,
   special tokens), then echoes of the prompt (the whole prompt, its sentences, its class list
   and options line), matched case-insensitively; nothing left is `echo_only`.
3. The text is cut into paragraphs, sentences and clauses (at , ; : ( ) dashes and contrast
   words: "but", "however", "though", ...). A clause is a *refusal* ("I can't determine
   someone's gender"), a *hedge* ("it's hard to say") or an *abstention* ("Unknown"); a
   sentence starting like a note ("Please note", "Note:", "Keep in mind", "This is based on")
   makes it and the rest of its paragraph *notes*; a sentence ending in "?" is a *question*.
   None of these claims anything: the class words inside them do not count. The other clauses
   are *claims*.
4. In each claim the task's lexicon is matched on whole words, longest phrase first, never
   inside another word ("no" is not in "not", "male" is not in "female", "man" is not in
   "woman" or "human"); "no" before a noun is a determiner, not the answer No ("no bangs", "no
   doubt"); a colour word names a class only of the person, never of the thing the noun nearest
   before it names ("The person's shirt is black", "The background is plain white"); words of
   another sense are consumed ("knee guards", "dove under", "teal-coloured", "a patient
   teacher", "American Indian" is not South Asian). A mention after a negation in its phrase
   ("not male", "does not appear to be female", "isn't a woman", "unlike a landbird") is
   *negated*; the phrase ends at "and", "so", "which", ... ("has no facial hair and appears
   female" negates the hair), and a second negation cancels an outer "nothing" / "no sign"
   ("nothing suggests this isn't a woman"); "no doubt", "no question" negate nothing. In an
   age task the ages a claim states as numbers are read into the task's bins
   (`nhfair_jax.lvlm.ages`).
5. The decision:
   - an age task's answer that states an age as a number: its bin (`age_number`), whatever
     the age words say ("Young at heart, but about 70" is old); ages in two bins ("25-35")
     are `several_ages`, unparseable;
   - exactly one class claimed: parsed; `exact` when the whole answer is the label, else
     `lexicon`, `hedged` (beside a hedge), `label_with_note` (beside a note) or
     `label_despite_refusal` (the label given first or last around a disclaimer: "Male.
     Please note that I can't determine gender identity from a photo");
   - several classes claimed: the first or the last sentence, when it is one bare label and
     the only one, decides (`label_first` / `label_last`: "Female. Some might read the short
     hair as male."), and so does an opening bare label that no other bare label contradicts
     (`label_first`: "No, it's curly rather than wavy."); else the one class that the clauses
     choosing among them name (`chosen`: "Between indian and others, I'd say indian", "closer
     to medium", 'so "others"'), or the one left when a reading taken back is left out
     (`revised`: "At first glance male, but actually female"); otherwise `several_labels`,
     unparseable, never a guess;
   - no class claimed, only negated ones: in a two-class task an answer whose only claim is
     that one class does not hold reads as the other class (`negation_other`: "The person does
     not appear to have wavy hair" is No); with more classes it is unparseable
     (`negation_only`). Species and other specific words ("not a duck") say nothing of the
     other class;
   - nothing claimed: `unknown` (refused) after an abstention, `refusal` (refused) after a
     refusal or hedge, else `no_label` (unparseable).
   Single-choice questions ("... is a {class}? A. Yes, B. No, C. Unknown") read the choice
   letter ("**B**", "B) No", "I'd choose A.", "The answer is B"), yes / no words and bare
   answers ("Definitely not."), and a sentence naming a class ("The person in the image is
   male.") compared with the class asked about: the same class is Yes, another is No, the
   asked class negated is No (`named_class`); a stated age and a chosen class decide as
   above. Letters and words that disagree are `conflict`
   and C / "Unknown" is `unknown_option` (refused).
"""

from __future__ import annotations

from dataclasses import dataclass

from nhfair_jax.lvlm.clauses import analyse, strip_echo
from nhfair_jax.lvlm.mentions import Lexicon, tokenize  # noqa: F401  (Lexicon: the tasks build theirs here)

PARSED, REFUSED, UNPARSEABLE, ERROR = "parsed", "refused", "unparseable", "error"
STATUSES = (PARSED, REFUSED, UNPARSEABLE, ERROR)


@dataclass(frozen=True)
class Parse:
    """The outcome for one answer: status, class index (parsed only), the deciding stage, the
    parsed label text; with the embedding mapper also its similarity margin and probability."""

    status: str
    label: int | None
    stage: str
    text: str | None = None
    margin: float | None = None
    prob: float | None = None


@dataclass(frozen=True)
class AnswerSpace:
    """What an answer is read against.

    Attributes:
      classes: the answer's class names in label order (single choice: No, Yes).
      lexicon: the words of each class.
      choice: a single-choice question (letters A / B / C; the class asked about).
      asked: single choice: the index of the asked class in `named`.
      named: single choice: the lexicon of the task's classes.
      age_bins: an age task: per class, the [start, end) span of years it holds; ages stated
        as numbers are read into them (`nhfair_jax.lvlm.ages`).
    """

    classes: tuple
    lexicon: Lexicon
    choice: bool = False
    asked: int | None = None
    named: Lexicon | None = None
    age_bins: tuple | None = None


# --- decisions ------------------------------------------------------------------------------

def _claimed(clauses):
    positive, negated = set(), set()
    for c in clauses:
        if c.claims:
            positive |= c.positive
            negated |= c.negated
    return positive, negated


def _context_stage(clauses, default: str) -> str:
    if any(c.refusal for c in clauses):
        return "label_despite_refusal"
    if any(c.hedge or c.unknown for c in clauses):
        return "hedged"
    if any(c.note for c in clauses):
        return "label_with_note"
    return default


def _committed(clauses) -> tuple[int | None, str]:
    """The class of the first or the last sentence when that sentence is one bare label, or of
    the answer's opening or closing clause when it is a bare label and no other clause is a
    bare label of another class ("No, it's curly rather than wavy."; 'Playing guitar and
    singing: "guitarist"'; "Male, female" stays two); all of them
    agreeing where several are. Clauses the writer took back ("No. Actually, ... yes") are left
    out first."""
    kept = [c for c in clauses if not c.retracted]
    revised = bool(kept) and len(kept) < len(clauses)
    clauses = kept or clauses
    found = {}
    for where, s in (("label_first", clauses[0].sentence), ("label_last", clauses[-1].sentence)):
        labels = [c for c in clauses if c.sentence == s and c.claims and (c.positive or c.negated)]
        if len(labels) == 1 and labels[0].bare is not None:
            found.setdefault(labels[0].bare, where)
    opening = clauses[0]
    bare = {c.bare for c in clauses if c.claims and c.bare is not None}
    if opening.claims and opening.bare is not None and bare == {opening.bare}:
        found.setdefault(opening.bare, "label_first")
    closing = clauses[-1]  # 'The person is playing guitar and singing: "guitarist"'
    if closing.claims and closing.bare is not None and not closing.chosen \
            and bare == {closing.bare}:
        found.setdefault(closing.bare, "label_last")
    if len(found) != 1:
        return None, ""
    (cls, where), = found.items()
    return cls, "revised" if revised else where


def _abstained(clauses) -> Parse | None:
    if any(c.unknown for c in clauses if not c.note):
        return Parse(REFUSED, None, "unknown")
    if any(c.refusal or c.hedge for c in clauses):
        return Parse(REFUSED, None, "refusal")
    return None


def _stated_ages(clauses) -> set:
    """The classes of the ages the answer's claims state as numbers."""
    out = set()
    for c in clauses:
        if c.claims:
            out |= c.ages
    return out


def _weighed(clauses, key) -> tuple[int | None, str]:
    """The one class an answer that names several finally chooses: the one its choice clauses
    name ("Between indian and others, I'd say indian"; "closer to medium"; 'so "others"'), or
    the one left when the clauses it takes back are left out ("Initially I'd say male, but on
    closer look, female")."""
    kept = [c for c in clauses if c.claims and not c.retracted]
    chosen = set().union(*(key(c) for c in kept if c.chosen)) if kept else set()
    if len(chosen) == 1:
        return next(iter(chosen)), "chosen"
    if any(c.retracted for c in clauses if c.claims):
        left = set().union(*(key(c) for c in kept)) if kept else set()
        if len(left) == 1:
            return next(iter(left)), "revised"
    return None, ""


def _decide_label(clauses, space: AnswerSpace) -> Parse:
    names = space.classes
    ages = _stated_ages(clauses)
    if ages:  # a stated age outvotes the age words ("young at heart, but about 70")
        if len(ages) == 1:
            c = ages.pop()
            return Parse(PARSED, c, "age_number", names[c])
        return Parse(UNPARSEABLE, None, "several_ages")
    positive, negated = _claimed(clauses)
    if len(positive) == 1:
        c = positive.pop()
        exact = len(clauses) == 1 and clauses[0].bare == c
        return Parse(PARSED, c, "exact" if exact else _context_stage(clauses, "lexicon"),
                     names[c])
    if len(positive) > 1:
        c, where = _committed(clauses)
        if c is None:
            c, where = _weighed(clauses, lambda cl: cl.positive)
        if c is not None:
            return Parse(PARSED, c, where, names[c])
        return Parse(UNPARSEABLE, None, "several_labels")
    if negated:
        if len(names) == 2 and len(negated) == 1:
            c = 1 - negated.pop()
            return Parse(PARSED, c, "negation_other", names[c])
        return Parse(UNPARSEABLE, None, "negation_only")
    return _abstained(clauses) or Parse(UNPARSEABLE, None, "no_label")


def _decide_choice(clauses, space: AnswerSpace) -> Parse:
    names = space.classes
    votes, letters, unknown_letter, deduced = set(), False, False, set()
    ages = _stated_ages(clauses)
    weighed, _ = _weighed(clauses, lambda cl: cl.named_pos)
    # letters and yes / no words taken back ("C... no, B") give way to those that follow
    revised = any(c.retracted for c in clauses) and any(
        c.claims and not c.retracted and (c.letters or c.positive) for c in clauses)
    for c in clauses:
        if not c.claims:
            continue
        if revised and c.retracted:
            continue
        for letter in c.letters:
            letters = True
            if letter == "c":
                unknown_letter = True
            else:
                votes.add(1 if letter == "a" else 0)
        votes |= c.positive
        if ages:  # the stated age decides, not the age words
            continue
        if weighed is None:
            deduced |= {1 if n == space.asked else 0 for n in c.named_pos}
        deduced |= {0 if n == space.asked else 1 for n in c.named_neg}
    if ages:
        deduced = {1 if n == space.asked else 0 for n in ages}
    elif weighed is not None:
        deduced.add(1 if weighed == space.asked else 0)
    if len(votes) > 1 or (votes and unknown_letter):
        return Parse(UNPARSEABLE, None, "several_labels")
    if votes:
        v = votes.pop()
        if deduced and deduced != {v}:
            return Parse(UNPARSEABLE, None, "conflict")
        stage = "choice_letter" if letters else _context_stage(clauses, "lexicon")
        return Parse(PARSED, v, stage, names[v])
    if unknown_letter:
        return Parse(REFUSED, None, "unknown_option", "Unknown")
    if len(deduced) == 1:
        v = deduced.pop()
        return Parse(PARSED, v, "named_class", names[v])
    if deduced:
        return Parse(UNPARSEABLE, None, "several_labels")
    abstained = _abstained(clauses)
    if abstained is not None and abstained.stage == "unknown":
        return Parse(REFUSED, None, "unknown_option", "Unknown")
    return abstained or Parse(UNPARSEABLE, None, "no_label")


def read(answer: str | None, space: AnswerSpace, *, prompt: str = "") -> Parse:
    """One status for one answer text, read against an answer space (no option scores)."""
    if answer is None or not answer.strip():
        return Parse(UNPARSEABLE, None, "empty")
    text = strip_echo(answer, prompt)
    if not text or not tokenize(text):
        return Parse(UNPARSEABLE, None, "echo_only")
    clauses = analyse(text, space)
    return _decide_choice(clauses, space) if space.choice else _decide_label(clauses, space)


def parse_answer(answer: str | None, space: AnswerSpace, *, prompt: str = "", scores=None,
                 prefer_scores: bool = False) -> Parse:
    """One status for one answer.

    Args:
      answer: the model's raw text (None when it gave none).
      space: the classes and words the answer is read against (`answer_space`).
      prompt: the instruction, whose echoes are cut.
      scores: per class log-likelihoods of the options, or None.
      prefer_scores: decide by the highest option score when scores exist.
    """
    names = space.classes
    if prefer_scores and scores is not None and len(scores) == len(names):
        best = max(range(len(scores)), key=lambda k: scores[k])
        return Parse(PARSED, best, "option_score", names[best])
    return read(answer, space, prompt=prompt)
