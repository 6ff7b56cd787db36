"""The kinds of rule a config value obeys (an integer in a range, a finite number, one of some
names, ...): each says whether a value is allowed, what is (for the error message), and which
values it refuses (for the tests). The rules of every key are in nhfair_jax/config_schema.py."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from nhfair_jax.errors import UserError


class ConfigError(UserError, ValueError):
    """A config value out of its range (the message names the key, the value and the range)."""


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@dataclass(frozen=True)
class Int:
    """An integer in [lo, hi] (None: unbounded)."""

    lo: int | None = None
    hi: int | None = None

    def ok(self, v) -> bool:
        return is_int(v) and (self.lo is None or v >= self.lo) and (self.hi is None or
                                                                     v <= self.hi)

    @property
    def allowed(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"an integer in [{self.lo}, {self.hi}]"
        if self.lo is not None:
            return f"an integer >= {self.lo}"
        return "an integer" if self.hi is None else f"an integer <= {self.hi}"

    def bad_values(self) -> tuple:
        out = [v for v in (None if self.lo is None else self.lo - 1,
                           None if self.hi is None else self.hi + 1) if v is not None]
        return (*out, 1.5, "3")


@dataclass(frozen=True)
class Real:
    """A finite number in [lo, hi] ((lo, hi] or [lo, hi) with lo_open / hi_open)."""

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False

    def ok(self, v) -> bool:
        if not is_num(v) or not math.isfinite(v):
            return False
        if self.lo is not None and (v < self.lo or (self.lo_open and v == self.lo)):
            return False
        return self.hi is None or not (v > self.hi or (self.hi_open and v == self.hi))

    @property
    def allowed(self) -> str:
        if self.lo is not None and self.hi is not None:
            return (f"a number in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}"
                    f"{')' if self.hi_open else ']'}")
        if self.lo is not None:
            return f"a finite number {'>' if self.lo_open else '>='} {self.lo:g}"
        if self.hi is not None:
            return f"a finite number {'<' if self.hi_open else '<='} {self.hi:g}"
        return "a finite number"

    def bad_values(self) -> tuple:
        out = [float("nan"), float("inf"), "0.1"]
        if self.lo is not None:
            out.append(self.lo if self.lo_open else self.lo - 1.0)
        if self.hi is not None:
            out.append(self.hi if self.hi_open else self.hi + 1.0)
        return tuple(out)


PROB = Real(0.0, 1.0)
POSITIVE = Real(0.0, lo_open=True)
NONNEG = Real(0.0)
COUNT = Int(1)  # a positive count or size
NONNEG_INT = Int(0)  # a seed, or a count where 0 means "off" / "all"


@dataclass(frozen=True)
class OneOf:
    """One of a set of names (a tuple, or a function returning the names known right now)."""

    names: tuple | Callable[[], Any]

    def known(self) -> tuple:
        return tuple(self.names() if callable(self.names) else self.names)

    def ok(self, v) -> bool:
        return isinstance(v, str) and v in self.known()

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join(repr(n) for n in self.known())

    def bad_values(self) -> tuple:
        return ("no_such_name", 3)


@dataclass(frozen=True)
class Text:
    """Any string (a path, a column, a prompt)."""

    def ok(self, v) -> bool:
        return isinstance(v, str)

    allowed = "a string"

    def bad_values(self) -> tuple:
        return (3,)


@dataclass(frozen=True)
class Flag:
    def ok(self, v) -> bool:
        return isinstance(v, bool)

    allowed = "True or False"

    def bad_values(self) -> tuple:
        return ("yes", 2)


@dataclass(frozen=True)
class Seq:
    """A tuple (or list) whose items all satisfy `item`, with at least `min_len` of them."""

    item: Any
    min_len: int = 0

    def ok(self, v) -> bool:
        return isinstance(v, (tuple, list)) and len(v) >= self.min_len and all(
            self.item.ok(x) for x in v)

    @property
    def allowed(self) -> str:
        least = f"at least {self.min_len} " if self.min_len else ""
        return f"a tuple of {least}items, each {self.item.allowed}"

    def bad_values(self) -> tuple:
        out = [(self.item.bad_values()[0],)]
        if self.min_len:
            out.append(())
        return tuple(out)


@dataclass(frozen=True)
class Either:
    """A value that one of `rules` allows (e.g. a number or None)."""

    rules: tuple

    def ok(self, v) -> bool:
        return any(r.ok(v) for r in self.rules)

    @property
    def allowed(self) -> str:
        return " or ".join(r.allowed for r in self.rules)

    def bad_values(self) -> tuple:
        return tuple(b for b in self.rules[0].bad_values() if not self.ok(b))


@dataclass(frozen=True)
class Nothing:
    def ok(self, v) -> bool:
        return v is None

    allowed = "None"

    def bad_values(self) -> tuple:
        return (3,)
