"""The text side of the answer reader: the cutting of a cleaned
answer (`nhfair_jax.lvlm.cleaning`) into clauses with what each clause is (a claim, a
refusal, a hedge, an abstention, a note or a question) and which classes it names or negates.
`nhfair_jax.lvlm.parse` decides from the clauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nhfair_jax.lvlm import lexicons as L
from nhfair_jax.lvlm.ages import age_classes
from nhfair_jax.lvlm.cleaning import strip_echo  # noqa: F401  (the reader's entry)
from nhfair_jax.lvlm.mentions import IGNORE, UNKNOWN, possessives, quoted, tokenize

@dataclass
class _Clause:
    text: str
    tokens: list
    sentence: int
    refusal: bool = False
    hedge: bool = False
    note: bool = False
    question: bool = False
    unknown: bool = False
    bare: int | None = None
    positive: set = field(default_factory=set)
    negated: set = field(default_factory=set)
    letters: set = field(default_factory=set)
    named_pos: set = field(default_factory=set)
    named_neg: set = field(default_factory=set)
    ages: set = field(default_factory=set)  # the classes of the ages it states as numbers
    chosen: bool = False  # it commits to one of the classes weighed ("closer to medium")
    retracted: bool = False  # its writer takes it back ("Initially I'd say male")
    revision: bool = False  # only a correction cue between two answers ("C... no, B")
    open_end: bool = False  # in a last sentence cut off while naming another possibility

    @property
    def claims(self) -> bool:
        return not (self.refusal or self.hedge or self.note or self.question or self.unknown
                    or self.revision or self.open_end)


# --- clauses --------------------------------------------------------------------------------

_MARKDOWN = re.compile(r"\*\*|__|`|^\s*(?:#+|>+|[-*\u2022]+)\s*", re.MULTILINE)
# Clause breaks: punctuation, a dash between spaces ("-", "--"; the cleaning has made en and
# em dashes " - "), and the contrast words.
_CONTRAST_WORDS = r"\b(?:%s)\b" % "|".join(w.replace(" ", r"\s+") for w in L.CONTRAST_WORDS)
_CLAUSE_SPLIT = re.compile(r"[,;:()\[\]]|\s-{1,3}\s|\s-$|^-\s|" + _CONTRAST_WORDS,
                           re.IGNORECASE)
_CONTRAST = re.compile(_CONTRAST_WORDS, re.IGNORECASE)
_CONCESSION = re.compile(L.CONCESSION_CUE)
# a letter alone in its clause, after a cue or a commitment: "B", "so A", "probably A.",
# "It's most likely C", "it is A" (a clause of its own: "The answer is not B; it is A."); not
# after "maybe" or "perhaps", which only allow a letter ("Maybe A, but on balance B.")
_LETTER_BARE = re.compile(
    r"^\W*(?:option\s+|choice\s+|(?:so|thus|hence|therefore)\s+)?"
    r"(?i:(?:it\s+is|it's|it\s+would\s+be|probably|likely|most\s+likely)\s+)"
    r"{0,2}([ABCabc])\W*$")
_LETTER_LEAD = re.compile(r"^\W*([ABC])[\)\]\.]\s+\S")
_LETTER_VERB = re.compile(
    r"\b(?:option|answer(?:\s+is|\s+would\s+be)?|choice(?:\s+is)?|choose|chose|choosing|"
    r"select|selected|selecting|pick|picked|go\s+(?:with|for)|going\s+(?:with|for)|opt\s+for|"
    r"lean(?:ing)?\s+towards?|i'd\s+say|i\s+would\s+say|i'll\s+say)\s*:?\s*(?:option\s+|letter\s+)?[\(\[\"']?(?:([ABC])|([abc])(?=\W*$))"
    r"(?![\w'])", re.IGNORECASE)
_NOTE = re.compile(L.NOTE_PATTERN, re.IGNORECASE)
_REFUSAL = [re.compile(p) for p in L.REFUSAL_PATTERNS]
_HEDGE = [re.compile(p) for p in L.HEDGE_PATTERNS]
_CHOICE_BEFORE = re.compile(L.CHOICE_BEFORE)
_CHOICE_AFTER = re.compile(L.CHOICE_AFTER)
_RETRACT = re.compile(L.RETRACT_CUE)
_REVISION = re.compile(L.REVISION_CUE)
_REVISION_LEAD = re.compile(L.REVISION_LEAD)
_WEIGHING = re.compile(L.WEIGHING_CUE)
_OPEN_ALTERNATIVE = re.compile(L.OPEN_ALTERNATIVE)
_NUMBER_RANGE = re.compile(r"\b\d+\s*(?:-|to)\s*\d+\b")
_FILLER = {"answer", "final", "my", "the", "label", "is", "category", "classification",
           "prediction", "output", "result", "response", "it", "this", "i", "say", "would",
           "i'd", "choose", "a", "an"}


def _letters(text: str) -> set[str]:
    m = _LETTER_BARE.match(text) or _LETTER_LEAD.match(text)
    if m:
        return {m.group(1).lower()}
    return {(m.group(1) or m.group(2)).lower() for m in _LETTER_VERB.finditer(text)}


def _sentences(text: str):
    """(paragraph index, sentence text) in order."""
    out = []
    for p, paragraph in enumerate(re.split(r"\n\s*\n", text)):
        for line in paragraph.splitlines():
            line = _MARKDOWN.sub("", line).strip()
            out += [(p, s) for s in re.split(r"(?<=[.!?])\s+(?=\S)", line) if s.strip()]
    return out


def _matches(patterns, text: str) -> bool:
    low = text.lower()
    return any(p.search(low) for p in patterns)


def analyse(text: str, space) -> list[_Clause]:
    """The clauses of a cleaned answer, in order, read against an answer space."""
    clauses = []
    note_paragraph = None
    numbered = any(w.isdigit() for w in space.lexicon.first)
    for s, (p, sentence) in enumerate(_sentences(text)):
        bare_sentence = sentence.strip().lstrip("(*[_").strip()
        if _NOTE.match(bare_sentence):
            note_paragraph = p
        note = note_paragraph == p
        question = sentence.rstrip().rstrip("\"')*").endswith("?")
        if numbered:  # "Label (0-6): 2": a range of the classes' numbers names none of them
            sentence = _NUMBER_RANGE.sub(" ", sentence)
        pieces, contrasted = _pieces(sentence)
        own = [_matches(_REFUSAL, c) for c in pieces]
        whole = _matches(_REFUSAL, sentence) and not any(own)
        here = [_clause(piece, s, space, refusal=refusal or whole, note=note, question=question)
                for piece, refusal in zip(pieces, own)]
        _weighing_resolved(here, space)
        _concession_resolved(here, contrasted, space)
        clauses += here
    if clauses and _OPEN_ALTERNATIVE.search(clauses[-1].text.lower()):
        for c in clauses:  # cut off while naming another possibility: nothing chosen
            if c.sentence == clauses[-1].sentence:
                c.open_end = True
    _revisions(clauses, space)
    return clauses


def _pieces(sentence: str) -> tuple[list[str], list[bool]]:
    """A sentence's clauses, and for each whether a contrast word ("but", "however") comes
    between it and the clause before it."""
    pieces, contrasted, after_contrast, start = [], [], False, 0
    for m in list(_CLAUSE_SPLIT.finditer(sentence)) + [None]:
        piece = sentence[start:m.start() if m else len(sentence)]
        if piece.strip():
            pieces.append(piece)
            contrasted.append(after_contrast)
            after_contrast = False
        if m is not None:
            after_contrast |= bool(_CONTRAST.fullmatch(m.group(0).strip()))
            start = m.end()
    return pieces, contrasted


def _concession_resolved(clauses: list, contrasted: list, space) -> None:
    """A class conceded and then contrasted with another ("The long hair might suggest female,
    but the jaw indicates male"; "Could be black or indian, but the bindi suggests indian"):
    a clause after "but" that names one class, unhedged, chooses it when every clause of the
    sentence before it that names a class only allows it ("might", "could", "may")."""
    for k in range(1, len(clauses)):
        c = clauses[k]
        named = c.named_pos if space.choice else c.positive
        if not contrasted[k] or len(named) != 1 or c.negated or not c.claims \
                or _CONCESSION.search(c.text.lower()):
            continue
        before = [b for b in clauses[:k] if (b.named_pos if space.choice else b.positive)]
        if before and all(_CONCESSION.search(b.text.lower()) for b in before):
            c.chosen = True


def _answer(c: _Clause, space) -> frozenset:
    """What a claiming clause answers: its letters, or the classes it names."""
    if not c.claims:
        return frozenset()
    if space.choice:
        return frozenset(c.letters) or frozenset(c.positive) or frozenset(
            f"class{n}" for n in c.named_pos)
    return frozenset(c.positive)


def _weighing_resolved(clauses: list, space) -> None:
    """A clause that sets out the classes weighed ("Between asian and others") and a later
    clause of its sentence naming one of them alone ("... others"): the later one chooses."""
    lexicon = space.named if space.choice else space.lexicon
    weighed = set()
    for c in clauses:
        named = c.named_pos if space.choice else c.positive
        if _WEIGHING.match(c.text.lower()) and len(named) >= 2:
            weighed = set(named)
        elif weighed and len(named) == 1 and named <= weighed and c.claims \
                and _only_classes(c.text.lower(), lexicon):
            c.chosen = True


def _revisions(clauses: list, space) -> None:
    """An answer corrected by the writer ("C... no, B"; "Male - wait, female"; "No. Actually,
    looking closer, the face is visible - yes"; '"white". On a closer look, ... "others"'): a
    clause that is only a correction cue, after an answer and before a different answer later
    in its own sentence or in the next one, claims nothing, and what came before it is taken
    back. A clause that opens with such a cue and goes on ("However, on closer inspection the
    features suggest South Asian descent, so B. No.") takes back what came before it when it,
    or a clause after it in its sentence or the next, gives a different answer."""
    for k in range(1, len(clauses)):
        cue = clauses[k].text.lower().strip()
        whole = bool(_REVISION.match(cue))
        if not whole and not _REVISION_LEAD.match(cue):
            continue
        if space.choice and clauses[k - 1].letters == {"b"} and cue.strip(" .!,") in ("no",
                                                                                    "nope"):
            continue  # "B. No": the option's own name
        before = next((a for a in (_answer(c, space) for c in reversed(clauses[:k])) if a),
                      frozenset())
        # the first answer after the cue, in its sentence or the next (the cue may open a
        # sentence that gives its reason first: "Waterbird. Actually, on closer inspection, a
        # woodpecker, so landbird"; or the new answer may be a sentence of its own: "A. Yes.
        # Actually, the person seems to be a customer. B. No.")
        last = clauses[k].sentence + 1
        after = next((a for a in (_answer(c, space) for c in clauses[k + whole:]
                                  if c.sentence <= last) if a), frozenset())
        if before and after and before != after:
            clauses[k].revision = whole
            for c in clauses[:k]:
                c.retracted = True


def _only_classes(text: str, lexicon, articles: bool = True) -> bool:
    """Whether `text` holds one class mention or more and besides them only filler words."""
    tokens = tokenize(text)
    found = [m for m in lexicon.mentions(tokens) if m.cls >= 0]
    inside = {k for m in found for k in range(m.start, m.end)}
    rest = {t for k, t in enumerate(tokens) if k not in inside}
    allowed = set(L.CHOICE_FILLER) - (set() if articles else {"a", "an", "the"})
    return bool(found) and rest <= allowed


def _chooses(low: str, space) -> bool:
    """Whether a clause commits to the class it names among those the answer weighs."""
    lexicon = space.named if space.choice else space.lexicon
    m = _CHOICE_BEFORE.search(low)
    if m:
        before = tokenize(low[:m.start()])
        subject = not before or before[-1] in ("i", "i'm", "i'd", "features", "appearance",
                                               "it", "evidence", "guess", "answer", "this",
                                               "that")
        lean = m.group(0).lstrip().startswith("lean")
        if (not lean or subject) and _only_classes(low[m.end():], lexicon,
                                                   articles=bool(before) or not lean):
            return True
    m = _CHOICE_AFTER.search(low)
    return bool(m) and _only_classes(low[:m.start()], lexicon)


def _clause(text: str, s: int, space, **flags) -> _Clause:
    tokens = tokenize(text)
    c = _Clause(text=text, tokens=tokens, sentence=s, hedge=_matches(_HEDGE, text), **flags)
    low = text.lower().replace("\u2019", "'")
    c.retracted = bool(_RETRACT.search(low))
    c.chosen = _chooses(low, space)
    if space.age_bins is not None:
        c.ages = age_classes(text, space.age_bins)
    possessive = possessives(text)
    mentions = space.lexicon.mentions(tokens, possessive, quoted(text))
    for m in mentions:
        if m.cls == UNKNOWN:
            c.unknown = True
    denied = False  # "it would not be accurate to say ... not male" asserts, it declines not
    for m in mentions:
        if m.cls < 0:
            continue
        denied |= space.lexicon.double_negated(tokens, m)
        if space.lexicon.negated(tokens, m):
            if not m.specific:
                c.negated.add(m.cls)
        else:
            c.positive.add(m.cls)
    kept = [m for m in mentions if m.cls != IGNORE]
    if len(kept) == 1 and kept[0].cls >= 0 and not c.negated and not c.unknown:
        rest = tokens[:kept[0].start] + tokens[kept[0].end:]
        if all(t in _FILLER for t in rest):
            c.bare = kept[0].cls
    if space.choice:
        c.letters = _letters(text.strip().strip("\"'*_"))
        for m in space.named.mentions(tokens, possessive):
            if m.cls < 0:
                continue
            denied |= space.named.double_negated(tokens, m)
            if space.named.negated(tokens, m):
                if m.cls == space.asked:
                    c.named_neg.add(m.cls)
                elif space.named.num_classes == 2 and not m.specific:
                    c.named_neg.add(m.cls)
            else:
                c.named_pos.add(m.cls)
    if denied:
        c.refusal = False
    return c
