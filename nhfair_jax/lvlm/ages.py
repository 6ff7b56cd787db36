"""Ages stated as numbers, read into an age task's bins.

An answer to an age question often gives a number instead of a class: "about 45", "Age: 72",
"a 35-year-old man", "thirty-five", "30-40", "in her forties", "early 60s", "mid-thirties",
"65+". Each is a
span of years (a number is a span of one year; "late fifties" is 57-59; "65+" is 65 and over)
and names the bin that holds the whole span; a span across two bins ("25-35", "late twenties or
early thirties") names both, which leaves the answer unparseable, never a guess.

A number counts as an age only where a reader takes it for one: with a unit ("45 years old",
"a 35-year-old", "45 yo"; "8 months old" is under a year), after an age cue ("aged 34", "Age: 19", "about 29", "looks 70",
"~27"), or alone in its clause ("45.", "Approximately 45."); never before another unit ("5
feet", "2 people") nor after "person", "option" or "#".
"""

from __future__ import annotations

import math
import re

# The study's three age classes as spans of years: young < 30, middle 30-59, old >= 60 (the
# bins UTKFace's file-name ages are put in; the benchmark's "old" is >= 60 too).
AGE_BINS = ((0, 30), (30, 60), (60, math.inf))

_DECADES = {"teens": 10, "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50,
            "sixties": 60, "seventies": 70, "eighties": 80, "nineties": 90}
_NUM = r"(\d{1,3})"
_UNIT = r"(?:\s*-?\s*(?:years?|yrs?|y/?o)\b(?:\s*-?\s*old)?)"
_APPROX = (r"(?:about|around|approximately|approx\.?|roughly|circa|ca\.|maybe|perhaps|"
           r"probably|possibly|likely|some|nearly|almost|over|under|at least|at most|~|≈)")
_CUE = (r"(?:aged|age[sd]?|age of|ages of|estimated|estimate|looks?|looking|appears?|seems?|"
        r"to be|is|are|at|be|between|from|of|" + _APPROX + r")")
_NOT_AGE_AFTER = re.compile(
    r"^\s*(?:%|percent|feet|foot|ft|inch|inches|cm|kg|lbs?|pounds|people|persons?|children|"
    r"kids|men|women|times|minutes|hours|days|weeks|months|pm|am|th|st|nd|rd|x\b|/10|"
    r"out of|of (?:the|them|these))", re.IGNORECASE)
_NOT_AGE_BEFORE = re.compile(r"(?:person|option|choice|category|number|no\.|#|class|group|"
                             r"figure|image|photo|step|page|item|level|score|rank)\s*$",
                             re.IGNORECASE)

_MONTHS = re.compile(r"\s*-?\s*(?:months?|weeks?)\s*-?\s*old\b", re.IGNORECASE)
_DECADE = re.compile(
    r"\b(?:(early|mid|late)[\s-]*)?(?:(teens|twenties|thirties|forties|fifties|sixties|"
    r"seventies|eighties|nineties)|(\d)0'?s)\b", re.IGNORECASE)
_PLUS = re.compile(_NUM + r"\s*\+|\b(?:over|older than|above)\s+" + _NUM + r"\b",
                   re.IGNORECASE)
_RANGE = re.compile(r"\b(?:between\s+)?" + _NUM + _UNIT + r"?\s*(?:-|to|and|or)\s*" + _NUM
                    + r"\b", re.IGNORECASE)
_SINGLE = re.compile(r"(?<![\w.])" + _NUM + r"(?![\w.]\d)", re.IGNORECASE)
_ONLY = re.compile(r"^\W*(?:" + _APPROX + r"\s*|age\s*|estimated\s*)*\s*" + _NUM
                   + _UNIT + r"?\W*$", re.IGNORECASE)


def _decade_span(m) -> tuple[float, float]:
    part, word, digit = m.group(1), m.group(2), m.group(3)
    base = _DECADES[word.lower()] if word else 10 * int(digit)
    if base == 10:  # the teens
        base, width = 13, 7
    else:
        width = 10
    part = (part or "").lower()
    if part == "early":
        return base, base + 3
    if part == "mid":
        return base + 3, base + 7
    if part == "late":
        return base + width - 3, base + width
    return base, base + width


_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_WORDS = re.compile(
    r"\b(?:(%s)(?:[\s-]+(%s))?|(%s)|(%s)(?=\s*-?\s*(?:years?|yrs?)\b))\b"
    % ("|".join(_TENS), "|".join(_UNITS), "|".join(_TEENS), "|".join(_UNITS)), re.IGNORECASE)


def _spelled(m) -> str:
    tens, unit, teen, alone = (g.lower() if g else g for g in m.groups())
    if tens:
        return str(10 * (_TENS.index(tens) + 2) + (_UNITS.index(unit) + 1 if unit else 0))
    if teen:
        return str(10 + _TEENS.index(teen))
    return str(_UNITS.index(alone) + 1)


def stated_ages(text: str) -> list[tuple[float, float]]:
    """The spans of years a clause states, as [start, end) pairs, in order of appearance.
    Numbers may be spelled out ("thirty-five", "a sixty-year-old"; one to nine only before
    "years")."""
    text = _WORDS.sub(_spelled, text)
    found, taken = [], []

    def free(a, b):
        return all(b <= s or a >= e for s, e in taken)

    def add(a, b, lo, hi):
        if free(a, b) and 0 <= lo <= 120:
            found.append((a, (lo, hi)))
            taken.append((a, b))

    for m in _DECADE.finditer(text):
        if m.group(3) and int(m.group(3)) * 10 > 110:
            continue
        lo, hi = _decade_span(m)
        add(m.start(), m.end(), lo, hi)
    for m in _RANGE.finditer(text):
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo < hi <= 120 and _is_age(text, m.start(1), m.end(2), cue_ok=True):
            add(m.start(), m.end(), lo, hi + 1)
    for m in _PLUS.finditer(text):
        n = int(m.group(1) or m.group(2))
        if _is_age(text, m.start(), m.end(), cue_ok=True):
            add(m.start(), m.end(), n, math.inf)
    for m in _SINGLE.finditer(text):
        n = int(m.group(1))
        if _MONTHS.match(text[m.end(1):]):  # "8 months old": under a year
            add(m.start(), m.end(), 0, 1)
        elif _is_age(text, m.start(1), m.end(1), cue_ok=False):
            add(m.start(), m.end(), n, n + 1)
    return [span for _, span in sorted(found)]


def _is_age(text: str, start: int, end: int, *, cue_ok: bool) -> bool:
    after, before = text[end:], text[:start]
    if _NOT_AGE_AFTER.match(after) or _NOT_AGE_BEFORE.search(before):
        return False
    if re.match(_UNIT, after, re.IGNORECASE):
        return True
    if _ONLY.match(text) or _alone(before, after):
        return True
    if re.search(r"(?:^|\W)" + _CUE + r"\W*$", before, re.IGNORECASE):
        return True
    return cue_ok and re.search(r"\b(?:range|age|aged|ages)\b", text, re.IGNORECASE) is not None


def _alone(before: str, after: str) -> bool:
    """Whether the number or range is all of its clause but approximation words and a unit."""
    rest = re.sub(_UNIT, " ", before + " " + after, flags=re.IGNORECASE)
    rest = re.sub(_APPROX, " ", rest, flags=re.IGNORECASE)
    return not re.search(r"[a-z0-9]", rest, re.IGNORECASE)


def age_classes(text: str, bins=AGE_BINS) -> set[int]:
    """The classes (indices of `bins`) of the ages a clause states; a span across two bins
    names both."""
    out = set()
    for lo, hi in stated_ages(text):
        for k, (a, b) in enumerate(bins):
            if lo < b and hi > a:
                out.add(k)
    return out
