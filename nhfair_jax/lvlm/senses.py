"""Class words used in another sense, told from the words around them (the lexicon matcher of
`nhfair_jax.lvlm.clauses` leaves such a word out):

- a nationality or ethnonym before a thing ("a Chinese restaurant", "a Persian silk rug", "the
  Indian Ocean", "Arabic calligraphy") names the thing's origin, not the person's;
- a generic possessive before a garment ("a man's blazer", "women's shoes") names a kind of
  garment, not its wearer ("the man's shirt" still names the man);
- a word that is also a verb ("swallow", "duck", "dove") is the verb after "to" or a modal in
  its base form ("about to swallow", "ready to duck"), after a subject in another form ("it
  dove", "the heron swallows") or before "into";
- a word that is also a device ("speaker") is the device after a size or device word ("a large
  speaker", "a bluetooth speaker"), before a device noun ("speaker stack") or beside one
  ("turntables and speakers").
"""

from __future__ import annotations

from nhfair_jax.lvlm import lexicons as L

_PERSON_WORDS = frozenset(L.PERSON_NOUNS) | frozenset(L.PERSON_SIDE) | {
    "features", "feature", "looking", "appearance", "ancestry", "roots", "family", "national",
    "nationality", "american", "descent", "heritage", "origin", "background"}
_FUNCTION_WORDS = frozenset(L.PREPOSITIONS) | frozenset(L.SCOPE_BARRIERS) | {
    "or", "nor", "is", "are", "was", "were", "be", "the", "a", "an", "to", "as", "but", "not",
    "in", "with", "that", "this", "his", "her", "their", "its"}


def _noun_in(token: str, nouns) -> bool:
    """`token` or its singular (a trailing "s" / "es") is one of `nouns`."""
    return token in nouns or (token.endswith("s") and (token[:-1] in nouns
                                                       or token[:-2] in nouns))


def thing_adjective(tokens: list, end: int, things) -> bool:
    """Whether the word ending before `end` modifies a thing: the next word is one of `things`,
    or the one after it is, past one adjective that names no person and is no verb form
    ("a Chinese restaurant sign", "a Persian silk rug"; not "Korean, holding books")."""
    for k in (end, end + 1):
        if k >= len(tokens):
            return False
        word = tokens[k]
        if _noun_in(word, things) and not word.endswith("ing"):
            return True
        if word in _PERSON_WORDS or word in _FUNCTION_WORDS or not word.isalpha() \
                or word.endswith(("ing", "ed")):
            return False
    return False


def garment_possessive(tokens: list, start: int, end: int, possessive) -> bool:
    """Whether the possessive word ending before `end` is generic ("a man's", "women's") and
    classifies a garment within the next three words ("a man's oversized blazer")."""
    if end - 1 not in possessive:
        return False
    generic = (start > 0 and tokens[start - 1] in ("a", "an")) or \
        tokens[end - 1] in L.GENERIC_POSSESSORS
    if not generic:
        return False
    for k in range(end, min(end + 3, len(tokens))):
        if _noun_in(tokens[k], L.GARMENTS):
            return True
        if tokens[k] in _PERSON_WORDS or tokens[k] in _FUNCTION_WORDS:
            return False
    return False


def verb_sense(tokens: list, start: int, end: int, phrase: tuple, after_subject: bool) -> bool:
    """Whether the lexicon word at `start` (one of `VERB_SENSES`) is the verb: after "to" (not
    "similar to", "next to") or a modal in its base form, after a subject, or before "into"."""
    if phrase not in _VERB_PHRASES:
        return False
    base = tokens[start] == phrase[0]
    before = tokens[start - 1] if start > 0 else None
    if before == "to" and base:
        return start < 2 or tokens[start - 2] not in L.TO_PREPOSITIONAL
    if before in L.MODALS and base:
        return True
    if (before in L.SUBJECT_PRONOUNS or after_subject) and (not base or phrase == ("dove",)):
        return True  # "it ducks", "the heron swallows", "it dove" ("a teal duck" stays one)
    if before == "they":
        return True
    return end < len(tokens) and tokens[end] in L.VERB_PARTICLES


def device_sense(tokens: list, start: int, end: int, phrase: tuple) -> bool:
    """Whether the lexicon word at `start` (one of `DEVICE_SENSES`) names the device: after a
    size or device word (up to two adjectives back), before a device noun, or joined by "and" /
    "or" / "with" to a device noun."""
    if phrase not in _DEVICE_PHRASES:
        return False
    for k in range(start - 1, max(-1, start - 3), -1):
        if tokens[k] in L.DEVICE_MODIFIERS:
            return True
        if tokens[k] in _FUNCTION_WORDS:
            break
    if end < len(tokens) and _noun_in(tokens[end], L.DEVICE_NOUNS):
        return True
    joined = ("and", "or", "with")
    if start >= 2 and tokens[start - 1] in joined and _noun_in(tokens[start - 2], L.DEVICE_NOUNS):
        return True
    return end + 1 < len(tokens) and tokens[end] in joined and _noun_in(tokens[end + 1],
                                                                          L.DEVICE_NOUNS)


_VERB_PHRASES = frozenset((w,) for w in L.VERB_SENSES)
_DEVICE_PHRASES = frozenset((w,) for w in L.DEVICE_SENSES)
