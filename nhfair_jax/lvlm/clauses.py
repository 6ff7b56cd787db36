"""The text side of the answer reader: words, the lexicon matcher and the cutting of a cleaned
answer (`nhfair_jax.lvlm.cleaning`) into clauses with what each clause is (a claim, a
refusal, a hedge, an abstention, a note or a question) and which classes it names or negates.
`nhfair_jax.lvlm.parse` decides from the clauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nhfair_jax.lvlm import lexicons as L
from nhfair_jax.lvlm import senses as S
from nhfair_jax.lvlm.ages import age_classes
from nhfair_jax.lvlm.cleaning import strip_echo  # noqa: F401  (the reader's entry)

IGNORE, UNKNOWN = -1, -2


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")  # letters of any script, digits


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens; hyphens and punctuation separate words, apostrophes do not."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return [t[:-2] if t.endswith("'s") else t  # "men's" is "men"
            for t in _WORD.findall(text)]


def possessives(text: str) -> frozenset:
    """The indices of `tokenize(text)`'s tokens written as possessives ("man's", "ladies'")."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return frozenset(k for k, m in enumerate(_WORD.finditer(text))
                     if m.group().endswith("'s") or (m.group().endswith("s")
                                                     and text[m.end():m.end() + 1] == "'"))


def quoted(text: str) -> frozenset:
    """The indices of `tokenize(text)`'s tokens written alone in quotation marks ('"dark"'):
    the label the direct prompt asks for, whatever word follows it."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    return frozenset(k for k, m in enumerate(_WORD.finditer(text))
                     if m.start() > 0 and text[m.start() - 1] in "\"'"
                     and text[m.end():m.end() + 1] in ("\"", "'"))


@dataclass(frozen=True)
class Mention:
    cls: int
    start: int
    end: int
    specific: bool


class Lexicon:
    """Whole-word phrase matching of per-class words, longest phrase first.

    Args:
      classes: per class, its words and phrases (case-insensitive; a phrase also matches its
        plural, a trailing "s" or "es" on its last word). "=phrase" counts only as a whole
        clause, "~phrase" is specific, "^phrase" is a colour word, "!no" the answer "No" only
        where it stands as one (see `nhfair_jax.lvlm.lexicons`).
      ignore: phrases consumed without meaning a class (e.g. "black hair").
      unknown: phrases meaning "I do not know".
      colour_nouns: the words after which a colour word names a class ("a white man", "dark
        skin"); before any other word it describes something else ("a white thobe"). A colour
        word at the end of its clause ("She is white.") or before a conjunction names the class
        unless the noun nearest before it is a thing ("The background is plain white.").
      thing_nouns: the nouns before which a class word names a thing's origin, not the
        person's ("a Persian rug"; `nhfair_jax.lvlm.senses`).
    Class words in another sense (`nhfair_jax.lvlm.senses`) are left out: a generic possessive
    before a garment, a verb, a device.
    """

    def __init__(self, classes, ignore=(), unknown=(), colour_nouns=(), thing_nouns=()):
        entries = []
        for c, phrases in enumerate(classes):
            entries += [self._entry(p, c) for p in phrases]
        entries += [self._entry(p, IGNORE) for p in ignore]
        entries += [self._entry(p, UNKNOWN) for p in unknown]
        entries = [e for e in entries if e[0]]
        self.entries = sorted(set(entries), key=lambda e: (-len(e[0]), e))
        self.num_classes = len(classes)
        self.colour_nouns = set(colour_nouns)
        self.thing_nouns = frozenset(thing_nouns)
        # A one-word class name is not a negation ("none" where it is a class); "no" stays one
        # even where it is the class No ("no wavy hair" negates "wavy").
        words = {e[0][0] for e in self.entries if e[1] >= 0 and not e[2] and len(e[0]) == 1}
        self.negations = set(L.NEGATIONS) - (words - {"no"})
        self.person_side = set(L.PERSON_SIDE) | (self.colour_nouns - set(L.SCOPE_BARRIERS)
                                                 - {"or", "nor"})
        self.first = {}
        for e in self.entries:
            self.first.setdefault(e[0][0], []).append(e)

    @staticmethod
    def _entry(phrase: str, cls: int):
        flags = phrase[:1] if phrase[:1] in "=~^!" else ""
        return (tuple(tokenize(phrase.lstrip("=~^!"))), cls, flags == "=", flags == "~",
                flags == "^", flags == "!")

    @staticmethod
    def _word_matches(word: str, token: str, last: bool) -> bool:
        if token == word:
            return True
        return last and word.isalpha() and len(word) > 2 and token in (word + "s", word + "es")

    def _candidates(self, token):
        out = list(self.first.get(token, ()))
        for stem in (token[:-1], token[:-2]):  # plurals: the last word may carry s / es
            if stem and stem != token:
                out += [e for e in self.first.get(stem, ()) if len(e[0]) == 1]
        return sorted(out, key=lambda e: -len(e[0]))

    def mentions(self, tokens: list[str], possessive=frozenset(),
                 quoted_at=frozenset()) -> list[Mention]:
        """The phrases found in a clause's tokens (bare phrases only when they are all of it,
        colour words only before a colour noun or at the end, or alone in quotation marks; no
        word in another sense); class -1 ignored, -2 unknown. `possessive`: the indices of the
        tokens written with "'s" or "s'"; `quoted_at`: those written alone in quotation
        marks."""
        out, i = [], 0
        while i < len(tokens):
            for phrase, c, bare, specific, colour, answer in self._candidates(tokens[i]):
                n = len(phrase)
                after = tokens[i + n] if i + n < len(tokens) else None
                if i + n > len(tokens) or (bare and (i != 0 or n != len(tokens))):
                    continue
                if answer and after is not None and after not in L.NO_ANSWER_FOLLOWERS \
                        and (i == 0 or tokens[i - 1] != "b"):
                    continue  # "no bangs", "no doubt": a determiner; "B. No" stays an option
                if colour and after is not None and after not in self.colour_nouns \
                        and not (n == 1 and i in quoted_at) \
                        and not self._span_to(tokens, i + n):  # '"dark" is apt'; "light to"
                    continue
                if phrase in L.ADJECTIVE_SENSES and after is not None and (
                        after in self.first or after in L.PERSON_NOUNS):
                    continue  # "a patient teacher": an adjective before a noun
                if colour and (after is None or after in ("or", "and", "nor")
                               or (n == 1 and i in quoted_at)) \
                        and self._describes_thing(tokens, i):
                    continue
                if all(self._word_matches(w, tokens[i + k], k == n - 1)
                       for k, w in enumerate(phrase)):
                    if c < 0 or not self._other_sense(tokens, i, i + n, phrase, colour, out,
                                                      possessive):
                        out.append(Mention(c, i, i + n, specific))
                    i += n
                    break
            else:
                i += 1
        return out

    def _span_to(self, tokens, end) -> bool:
        """Whether a span of classes starts at `end` ("light to medium", "medium-to-dark",
        "medium-dark"): the colour word before it names its class, as the one after it does."""
        if end < len(tokens) and any(e[4] for e in self.first.get(tokens[end], ())):
            return True  # two colour words of classes side by side: "medium-dark"
        return (end + 1 < len(tokens) and tokens[end] in ("to", "through")
                and tokens[end + 1] in self.first)

    def _other_sense(self, tokens, start, end, phrase, colour, found, possessive) -> bool:
        after_subject = bool(found) and found[-1].end == start and found[-1].cls >= 0
        return ((not colour and bool(self.thing_nouns)
                 and S.thing_adjective(tokens, end, self.thing_nouns))
                or S.garment_possessive(tokens, start, end, possessive)
                or S.verb_sense(tokens, start, end, phrase, after_subject)
                or S.device_sense(tokens, start, end, phrase))

    def _describes_thing(self, tokens: list[str], i: int) -> bool:
        """Whether the noun nearest before position `i`, prepositional phrases left out, is a
        thing (hair, shirt, background, lighting, the image), so that a colour word there
        describes it, not the person."""
        for j in range(i - 1, -1, -1):
            noun = tokens[j] in L.THING_NOUNS or tokens[j] in self.person_side
            if noun and self._in_modifier(tokens, j):
                continue  # "the person in the image is black": the image only places it
            if tokens[j] in L.THING_NOUNS:
                return True
            if tokens[j] in self.person_side:
                return False
        return False

    def _in_modifier(self, tokens: list[str], j: int) -> bool:
        """Whether the noun at `j` ends a prepositional phrase ("in the white shirt")."""
        for k in range(j - 1, max(-1, j - 4), -1):
            if tokens[k] in L.PREPOSITIONS:
                return True
            if tokens[k] in L.THING_NOUNS or tokens[k] in self.person_side:
                return False
        return False

    def negated(self, tokens: list[str], m: Mention) -> bool:
        """Whether a negation earlier in the clause scopes over the mention: within reach, with
        no scope barrier ("and", "so", "which", ...) between; a second negation cancels an
        outer "nothing" / "no sign" ("nothing suggests this isn't a woman") or a denial before
        it ("it would not be accurate to say the person is not male", `denied`)."""
        found = self._negations(tokens, m)
        if not found:
            return False
        outer = found[-1]
        double = len(found) >= 2 and (tokens[outer] in L.DOUBLE_OUTER or " ".join(
            tokens[outer:outer + 2]) in L.DOUBLE_OUTER)
        return not double and not self.denied(tokens, found[0])

    def _negations(self, tokens: list[str], m: Mention) -> list[int]:
        idiom = set()
        for phrase in L.NOT_NEGATIONS:
            words = phrase.split()
            for j in range(len(tokens) - len(words) + 1):
                if tokens[j:j + len(words)] == words:
                    idiom.update(range(j, j + len(words)))
        found = []
        for j in range(m.start - 1, max(-1, m.start - 1 - L.NEGATION_REACH), -1):
            if j in idiom:
                continue
            if tokens[j] in L.SCOPE_BARRIERS:
                break
            if tokens[j] in self.negations or " ".join(tokens[j:j + 2]) in L.NEGATION_PHRASES:
                found.append(j)
        return found

    @staticmethod
    def denied(tokens: list[str], j: int) -> bool:
        """Whether the negation at `j` is itself denied earlier in its clause, so that the two
        assert: a negation before a word of saying or truth ("not accurate to say", "wouldn't
        say", "isn't true"), "wrong" / "false" ... "to" / "that", or an outer "nothing" / "no
        sign" beyond the negation's reach; scope barriers stop it."""
        for k in range(j - 1, -1, -1):
            if tokens[k] in L.SCOPE_BARRIERS:
                return False
            if tokens[k] in L.DENIAL_NEGATIONS and any(
                    t in L.DENIAL_WORDS for t in tokens[k + 1:min(k + 4, j)]):
                return True
            if tokens[k] in L.DENIALS and k + 1 < j and tokens[k + 1] in ("to", "that"):
                return True
            if tokens[k] in L.DOUBLE_OUTER or " ".join(tokens[k:k + 2]) in L.DOUBLE_OUTER:
                return True  # "nothing about this person suggests they are not male"
        return False

    def double_negated(self, tokens: list[str], m: Mention) -> bool:
        """Whether the mention is under a negation that a denial cancels (`denied`)."""
        found = self._negations(tokens, m)
        return bool(found) and self.denied(tokens, found[0])


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
_CLAUSE_SPLIT = re.compile(r"[,;:()\[\]]|\s-\s|\s-$|^-\s|\b(?:%s)\b" % "|".join(
    w.replace(" ", r"\s+") for w in L.CONTRAST_WORDS), re.IGNORECASE)
_LETTER_BARE = re.compile(
    r"^\W*(?:option\s+|choice\s+|(?:so|thus|hence|therefore)\s+)?"
    r"([ABCabc])\W*$")
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
        pieces = [c for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip()]
        own = [_matches(_REFUSAL, c) for c in pieces]
        whole = _matches(_REFUSAL, sentence) and not any(own)
        here = [_clause(piece, s, space, refusal=refusal or whole, note=note, question=question)
                for piece, refusal in zip(pieces, own)]
        _weighing_resolved(here, space)
        clauses += here
    if clauses and _OPEN_ALTERNATIVE.search(clauses[-1].text.lower()):
        for c in clauses:  # cut off while naming another possibility: nothing chosen
            if c.sentence == clauses[-1].sentence:
                c.open_end = True
    _revisions(clauses, space)
    return clauses


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
        subject = not before or before[-1] in ("i", "i'm", "features", "appearance", "it",
                                               "evidence", "guess", "answer", "this", "that")
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
