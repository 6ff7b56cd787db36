"""From an LVLM's answer to exactly one status: parsed, refused, unparseable (or error, set by the
backend), with the parse stage that decided it.

Layers, in order:
1. option scores (label log-likelihoods from a local model), when the config prefers them;
2. the text: chat markers and echoes of the prompt are cut (matched case-insensitively on the
   original text, so nothing of the prompt leaks into the answer); declines are refusals unless a
   clause after "but" / "however" still names exactly one class (a hedged answer); then the
   task's lexicon is matched on whole words, longest phrase first, never inside another word
   ("no" is not in "not", "male" is not in "female", "man" is not in "woman" or "human");
   negated mentions ("not male", "isn't a woman") do not count; an answer naming exactly one
   class is parsed, none or several is unparseable, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nhfair_jax.lvlm import prompts as P

PARSED, REFUSED, UNPARSEABLE, ERROR = "parsed", "refused", "unparseable", "error"
STATUSES = (PARSED, REFUSED, UNPARSEABLE, ERROR)
_ARTICLES = {"a", "an", "the", "be", "really", "exactly", "clearly", "definitely", "likely",
             "probably", "necessarily", "quite", "very", "is"}
_HEDGES = (r"\bunclear\b", r"\bambiguous\b", r"\bhard to say\b", r"\bdifficult to say\b",
           r"\bi'm not sure\b", r"\bi am not sure\b", r"\bnot (?:entirely |completely |100% )?"
           r"(?:sure|certain)\b", r"\bit(?:'s| is) not clear\b", r"\bcannot be (?:sure|certain)\b",
           r"\bcan't be (?:sure|certain)\b")
_STRONG = tuple(p for p in P.REFUSAL_PATTERNS if p not in _HEDGES)
_ROLE = re.compile(r"(?:\bASSISTANT\s*:|<\|?assistant\|?>|\[/INST\]|<start_of_turn>model|"
                   r"<\|im_start\|>assistant|^\s*assistant\s*\n|###\s*Assistant\s*:)",
                   re.IGNORECASE | re.MULTILINE)
_LETTERS = re.compile(r"(?:^\s*[\(\[]?([abc])\s*(?:[\.\):\]]|$)|"
                      r"\b(?:option|answer(?:\s+is)?|choice)\s*:?\s*[\(\[]?([abc])\b)")
_UNKNOWN = ("unknown", "unsure", "uncertain", "can't tell", "cannot tell")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens; hyphens and punctuation separate words, apostrophes do not."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return [t[:-2] if t.endswith("'s") else t  # "men's" is "men"
            for t in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text)]


@dataclass(frozen=True)
class Parse:
    """The outcome for one answer: status, class index (parsed only), stage, parsed label text."""

    status: str
    label: int | None
    stage: str
    text: str | None = None


class Lexicon:
    """Whole-word phrase matching of per-class words, longest phrase first.

    Args:
      classes: per class, its words and phrases (case-insensitive; a phrase also matches its
        plural, a trailing "s" or "es" on its last word).
      ignore: phrases consumed without meaning a class (e.g. "black hair").
      unknown: phrases meaning "I do not know" (the single-choice question's option C).
    """

    def __init__(self, classes, ignore=(), unknown=()):
        entries = []
        for c, phrases in enumerate(classes):
            entries += [(tuple(tokenize(p)), c) for p in phrases]
        entries += [(tuple(tokenize(p)), -1) for p in ignore]
        entries += [(tuple(tokenize(p)), -2) for p in unknown]
        entries = [(t, c) for t, c in entries if t]
        self.entries = sorted(set(entries), key=lambda e: -len(e[0]))
        words = {w for t, c in self.entries if c >= 0 for w in t}
        self.negations = set(P.NEGATIONS) - words  # "no" is an answer where "no" is a class

    @staticmethod
    def _word_matches(word: str, token: str, last: bool) -> bool:
        if token == word:
            return True
        return last and word.isalpha() and len(word) > 2 and token in (word + "s", word + "es")

    def mentions(self, tokens: list[str]) -> list[tuple[int, int, bool]]:
        """(class, token position, negated) of each phrase found; -1 ignored, -2 unknown."""
        out, i = [], 0
        while i < len(tokens):
            for phrase, c in self.entries:
                n = len(phrase)
                if i + n <= len(tokens) and all(
                        self._word_matches(w, tokens[i + k], k == n - 1)
                        for k, w in enumerate(phrase)):
                    out.append((c, i, self._negated(tokens, i)))
                    i += n
                    break
            else:
                i += 1
        return out

    def _negated(self, tokens, i) -> bool:
        j = i - 1
        while j >= 0 and i - j <= 3 and tokens[j] in _ARTICLES:
            j -= 1
        return j >= 0 and i - j <= 3 and tokens[j] in self.negations


def strip_echo(answer: str, prompt: str) -> str:
    """The answer without chat markers before it and without echoed prompt sentences."""
    markers = list(_ROLE.finditer(answer))
    if markers:
        answer = answer[markers[-1].end():]
    if prompt:
        pieces = [prompt] + [s for s in re.split(r"(?<=[.?!:])\s+", prompt) if len(s) >= 12]
        for piece in pieces:
            answer = re.sub(re.escape(piece.strip()), " ", answer, flags=re.IGNORECASE)
    return answer.strip()


def _classes(lexicon: Lexicon, text: str, letters: bool) -> tuple[set, bool, bool]:
    """(classes named, an unknown option named, letter used) in a piece of text."""
    found, unknown, letter = set(), False, False
    for c, _, negated in lexicon.mentions(tokenize(text)):
        if c >= 0 and not negated:
            found.add(c)
        elif c == -2 and not negated:
            unknown = True
    if letters:
        for m in _LETTERS.finditer(text.lower()):
            choice = m.group(1) or m.group(2)
            letter = True
            if choice == "a":
                found.add(1)
            elif choice == "b":
                found.add(0)
            else:
                unknown = True
    return found, unknown, letter


def _refusal(text: str) -> tuple[bool, bool]:
    low = text.lower().replace("\u2019", "'")
    return (any(re.search(p, low) for p in _STRONG), any(re.search(p, low) for p in _HEDGES))


def parse_answer(answer: str | None, lexicon: Lexicon, class_names, *, prompt: str = "",
                 letters: bool = False, scores=None, prefer_scores: bool = False) -> Parse:
    """One status for one answer.

    Args:
      answer: the model's raw text (None when it gave none).
      lexicon: the task's lexicon for this prompt kind.
      class_names: the class names (for the parsed label text).
      prompt: the instruction, whose echoes are cut.
      letters: single-choice question: "A" / "B" / "C" mean Yes / No / Unknown.
      scores: per class log-likelihoods of the options, or None.
      prefer_scores: decide by the highest option score when scores exist.
    """
    if prefer_scores and scores is not None and len(scores) == len(class_names):
        best = max(range(len(scores)), key=lambda k: scores[k])
        return Parse(PARSED, best, "option_score", class_names[best])
    if answer is None or not answer.strip():
        return Parse(UNPARSEABLE, None, "empty")
    text = strip_echo(answer, prompt)
    if not text:
        return Parse(UNPARSEABLE, None, "echo_only")
    found, unknown, letter = _classes(lexicon, text, letters)
    strong, hedge = _refusal(text)
    if strong or (hedge and len(found) != 1):
        tail = _after_contrast(text)
        if tail is not None:
            t_found, t_unknown, _ = _classes(lexicon, tail, letters)
            t_strong, _ = _refusal(tail)
            if len(t_found) == 1 and not t_strong and not t_unknown:
                c = t_found.pop()
                return Parse(PARSED, c, "hedged", class_names[c])
        return Parse(REFUSED, None, "refusal")
    if len(found) == 1 and not unknown:
        c = found.pop()
        stage = "hedged" if hedge else ("choice_letter" if letter else "lexicon")
        return Parse(PARSED, c, stage, class_names[c])
    if unknown and not found:
        return Parse(REFUSED, None, "unknown_option", "Unknown")
    return Parse(UNPARSEABLE, None, "several_labels" if found or unknown else "no_label")


def _after_contrast(text: str) -> str | None:
    low = text.lower()
    best = None
    for word in P.CONTRAST_WORDS:
        for m in re.finditer(rf"\b{re.escape(word)}\b", low):
            best = m.end() if best is None or m.end() > best else best
    return None if best is None else text[best:]


def lexicon_for(task, kind: str) -> Lexicon:
    """The lexicon of a task's prompt kind, with its ignore and unknown phrases."""
    ignore = ()
    if task.dataset == "fairface" and kind == "open":
        ignore = tuple(f"{c} {w}" for c in ("white", "black") for w in P.COLOUR_CONTEXT)
    unknown = _UNKNOWN if kind == "single_choice" else ()
    return Lexicon(task.lexicons[kind], ignore=ignore, unknown=unknown)
