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
   "woman" or "human"). A mention after a negation in its clause ("not male", "does not appear
   to be female", "isn't a woman", "unlike a landbird") is *negated*.
5. The decision:
   - exactly one class claimed: parsed; `exact` when the whole answer is the label, else
     `lexicon`, `hedged` (beside a hedge), `label_with_note` (beside a note) or
     `label_despite_refusal` (the label given first or last around a disclaimer: "Male.
     Please note that I can't determine gender identity from a photo");
   - several classes claimed: the first or the last sentence, when it is one bare label and
     the only one, decides (`label_first` / `label_last`: "Female. Some might read the short
     hair as male."); otherwise `several_labels`, unparseable, never a guess;
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
   asked class negated is No (`named_class`). Letters and words that disagree are `conflict`
   and C / "Unknown" is `unknown_option` (refused).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nhfair_jax.lvlm import lexicons as L

PARSED, REFUSED, UNPARSEABLE, ERROR = "parsed", "refused", "unparseable", "error"
STATUSES = (PARSED, REFUSED, UNPARSEABLE, ERROR)
IGNORE, UNKNOWN = -1, -2


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens; hyphens and punctuation separate words, apostrophes do not."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return [t[:-2] if t.endswith("'s") else t  # "men's" is "men"
            for t in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text)]


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
        clause, "~phrase" is specific, "^phrase" is a colour word (see
        `nhfair_jax.lvlm.lexicons`).
      ignore: phrases consumed without meaning a class (e.g. "black hair").
      unknown: phrases meaning "I do not know".
      colour_nouns: the words after which a colour word names a class ("a white man", "dark
        skin"); before any other word it describes something else ("a white thobe"). A colour
        word at the end of its clause ("She is white.") names the class.
    """

    def __init__(self, classes, ignore=(), unknown=(), colour_nouns=()):
        entries = []
        for c, phrases in enumerate(classes):
            entries += [self._entry(p, c) for p in phrases]
        entries += [self._entry(p, IGNORE) for p in ignore]
        entries += [self._entry(p, UNKNOWN) for p in unknown]
        entries = [e for e in entries if e[0]]
        self.entries = sorted(set(entries), key=lambda e: (-len(e[0]), e))
        self.num_classes = len(classes)
        self.colour_nouns = set(colour_nouns)
        # A one-word class name is not a negation ("none" where it is a class); "no" stays one
        # even where it is the class No ("no wavy hair" negates "wavy").
        words = {e[0][0] for e in self.entries if e[1] >= 0 and not e[2] and len(e[0]) == 1}
        self.negations = set(L.NEGATIONS) - (words - {"no"})
        self.first = {}
        for e in self.entries:
            self.first.setdefault(e[0][0], []).append(e)

    @staticmethod
    def _entry(phrase: str, cls: int):
        flags = phrase[:1] if phrase[:1] in "=~^" else ""
        return (tuple(tokenize(phrase.lstrip("=~^"))), cls, flags == "=", flags == "~",
                flags == "^")

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

    def mentions(self, tokens: list[str]) -> list[Mention]:
        """The phrases found in a clause's tokens (bare phrases only when they are all of it,
        colour words only before a colour noun or at the end); class -1 ignored, -2 unknown."""
        out, i = [], 0
        while i < len(tokens):
            for phrase, c, bare, specific, colour in self._candidates(tokens[i]):
                n = len(phrase)
                if i + n > len(tokens) or (bare and (i != 0 or n != len(tokens))):
                    continue
                if colour and i + n < len(tokens) and tokens[i + n] not in self.colour_nouns:
                    continue
                if all(self._word_matches(w, tokens[i + k], k == n - 1)
                       for k, w in enumerate(phrase)):
                    out.append(Mention(c, i, i + n, specific))
                    i += n
                    break
            else:
                i += 1
        return out

    def negated(self, tokens: list[str], m: Mention) -> bool:
        """Whether a negation earlier in the clause, within reach, scopes over the mention."""
        idiom = set()
        for phrase in L.NOT_NEGATIONS:
            words = phrase.split()
            for j in range(len(tokens) - len(words) + 1):
                if tokens[j:j + len(words)] == words:
                    idiom.update(range(j, j + len(words)))
        for j in range(m.start - 1, max(-1, m.start - 1 - L.NEGATION_REACH), -1):
            if j in idiom:
                continue
            if tokens[j] in self.negations or " ".join(tokens[j:j + 2]) in L.NEGATION_PHRASES:
                return True
        return False


@dataclass(frozen=True)
class AnswerSpace:
    """What an answer is read against.

    Attributes:
      classes: the answer's class names in label order (single choice: No, Yes).
      lexicon: the words of each class.
      choice: a single-choice question (letters A / B / C; the class asked about).
      asked: single choice: the index of the asked class in `named`.
      named: single choice: the lexicon of the task's classes.
    """

    classes: tuple
    lexicon: Lexicon
    choice: bool = False
    asked: int | None = None
    named: Lexicon | None = None


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

    @property
    def claims(self) -> bool:
        return not (self.refusal or self.hedge or self.note or self.question or self.unknown)


# --- cleaning -------------------------------------------------------------------------------

_ROLE = re.compile(r"(?:\bASSISTANT\s*:|<\|?assistant\|?>|\[/INST\]|<start_of_turn>\s*model|"
                   r"<\|im_start\|>\s*assistant|<\|start_header_id\|>\s*assistant\s*"
                   r"<\|end_header_id\|>|^\s*(?:assistant|model)\s*$|###\s*Assistant\s*:|"
                   r"\bGPT\s*:)", re.IGNORECASE | re.MULTILINE)
_NEXT_TURN = re.compile(r"(?:^\s*(?:USER|Human|HUMAN|User)\s*:|<\|im_start\|>\s*user|"
                        r"<start_of_turn>\s*user|<\|start_header_id\|>\s*user|"
                        r"###\s*(?:Human|User)\s*:|\[INST\]|<\|user\|>)", re.MULTILINE)
_SPECIAL = re.compile(r"<\|[^|<>\s]{1,40}\|>|</?s>|<(?:end_of_turn|start_of_turn|eos|bos|pad|"
                      r"unk|image|end_of_image|start_of_image|eot_id)>", re.IGNORECASE)
_TRANSLATE = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                            "\u2013": " - ", "\u2014": " - ", "\u00a0": " "})


def _echo_pieces(prompt: str) -> list[str]:
    # Sentences end after a word, not after an option letter ("A. Yes, B. No").
    pieces = [prompt] + [s for s in re.split(r"(?<=[a-z0-9'][.?!])\s+", prompt) if len(s) >= 12]
    pieces += re.findall(r"\[[^\]]{3,}\]", prompt)  # the class list
    pieces += re.findall(r"A\. Yes, B\. No, C\. Unknown\.?", prompt)
    return sorted({p.strip() for p in pieces if p.strip()}, key=len, reverse=True)


def strip_echo(answer: str, prompt: str = "") -> str:
    """The answer without chat residue (role markers and special tokens before it, a next
    turn after it) and without echoes of the prompt."""
    answer = answer.translate(_TRANSLATE)
    markers = list(_ROLE.finditer(answer))
    if markers:
        answer = answer[markers[-1].end():]
    nxt = _NEXT_TURN.search(answer)
    if nxt and answer[:nxt.start()].strip():
        answer = answer[:nxt.start()]
    answer = _SPECIAL.sub(" ", answer)
    if prompt:
        for piece in _echo_pieces(prompt.translate(_TRANSLATE)):
            words = [re.escape(w) for w in piece.split()]
            answer = re.sub(r"\s+".join(words), " ", answer, flags=re.IGNORECASE)
    return answer.strip()


# --- clauses --------------------------------------------------------------------------------

_MARKDOWN = re.compile(r"\*\*|__|`|^\s*(?:#+|>+|[-*\u2022]+)\s*", re.MULTILINE)
_CLAUSE_SPLIT = re.compile(r"[,;:()\[\]]|\s-\s|\s-$|^-\s|\b(?:%s)\b" % "|".join(
    w.replace(" ", r"\s+") for w in L.CONTRAST_WORDS), re.IGNORECASE)
_LETTER_BARE = re.compile(r"^\W*(?:option\s+|choice\s+)?([ABCabc])\W*$")
_LETTER_LEAD = re.compile(r"^\W*([ABC])[\)\]\.]\s+\S")
_LETTER_VERB = re.compile(
    r"\b(?:option|answer(?:\s+is|\s+would\s+be)?|choice(?:\s+is)?|choose|chose|choosing|"
    r"select|selected|selecting|pick|picked|go\s+(?:with|for)|going\s+(?:with|for)|opt\s+for|"
    r"lean(?:ing)?\s+towards?|i'd\s+say|i\s+would\s+say|i'll\s+say)\s*:?\s*(?:option\s+|letter\s+)?[\(\[\"']?(?:([ABC])|([abc])(?=\W*$))"
    r"(?![\w'])", re.IGNORECASE)
_NOTE = re.compile(L.NOTE_PATTERN, re.IGNORECASE)
_REFUSAL = [re.compile(p) for p in L.REFUSAL_PATTERNS]
_HEDGE = [re.compile(p) for p in L.HEDGE_PATTERNS]
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


def _analyse(text: str, space: AnswerSpace) -> list[_Clause]:
    clauses = []
    note_paragraph = None
    for s, (p, sentence) in enumerate(_sentences(text)):
        bare_sentence = sentence.strip().lstrip("(*[_").strip()
        if _NOTE.match(bare_sentence):
            note_paragraph = p
        note = note_paragraph == p
        question = sentence.rstrip().rstrip("\"')*").endswith("?")
        pieces = [c for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip()]
        own = [_matches(_REFUSAL, c) for c in pieces]
        whole = _matches(_REFUSAL, sentence) and not any(own)
        for piece, refusal in zip(pieces, own):
            clauses.append(_clause(piece, s, space, refusal=refusal or whole, note=note,
                                   question=question))
    return clauses


def _clause(text: str, s: int, space: AnswerSpace, **flags) -> _Clause:
    tokens = tokenize(text)
    c = _Clause(text=text, tokens=tokens, sentence=s, hedge=_matches(_HEDGE, text), **flags)
    mentions = space.lexicon.mentions(tokens)
    for m in mentions:
        if m.cls == UNKNOWN:
            c.unknown = True
    for m in mentions:
        if m.cls < 0:
            continue
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
        for m in space.named.mentions(tokens):
            if m.cls < 0:
                continue
            if space.named.negated(tokens, m):
                if m.cls == space.asked:
                    c.named_neg.add(m.cls)
                elif space.named.num_classes == 2 and not m.specific:
                    c.named_neg.add(m.cls)
            else:
                c.named_pos.add(m.cls)
    return c


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
    """The class of the first or the last sentence when that sentence is one bare label (and
    both agree where both are)."""
    found = {}
    for where, s in (("label_first", clauses[0].sentence), ("label_last", clauses[-1].sentence)):
        labels = [c for c in clauses if c.sentence == s and c.claims and (c.positive or c.negated)]
        if len(labels) == 1 and labels[0].bare is not None:
            found.setdefault(labels[0].bare, where)
    if len(found) != 1:
        return None, ""
    (cls, where), = found.items()
    return cls, where


def _abstained(clauses) -> Parse | None:
    if any(c.unknown for c in clauses if not c.note):
        return Parse(REFUSED, None, "unknown")
    if any(c.refusal or c.hedge for c in clauses):
        return Parse(REFUSED, None, "refusal")
    return None


def _decide_label(clauses, space: AnswerSpace) -> Parse:
    names = space.classes
    positive, negated = _claimed(clauses)
    if len(positive) == 1:
        c = positive.pop()
        exact = len(clauses) == 1 and clauses[0].bare == c
        return Parse(PARSED, c, "exact" if exact else _context_stage(clauses, "lexicon"),
                     names[c])
    if len(positive) > 1:
        c, where = _committed(clauses)
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
    for c in clauses:
        if not c.claims:
            continue
        for letter in c.letters:
            letters = True
            if letter == "c":
                unknown_letter = True
            else:
                votes.add(1 if letter == "a" else 0)
        votes |= c.positive
        deduced |= {1 if n == space.asked else 0 for n in c.named_pos}
        deduced |= {0 if n == space.asked else 1 for n in c.named_neg}
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
    clauses = _analyse(text, space)
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
