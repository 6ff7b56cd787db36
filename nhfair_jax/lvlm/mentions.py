"""Words and the lexicon matcher of the answer reader: tokens, possessives and quoted words,
and the class phrases a clause's tokens mention, each with whether a negation reaches it
(`nhfair_jax.lvlm.clauses` cuts an answer into clauses and reads them with these).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nhfair_jax.lvlm import lexicons as L
from nhfair_jax.lvlm import senses as S

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
                        and after != "than" \
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
