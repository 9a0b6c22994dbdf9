"""Colored Jenga: each minute a die says which colour of block to take out of the tower
(red 1 in 6, green 2, blue 2, black 1: no move) and put on top; a block can be taken
only while its level stays standing. How many minutes, with the best play, until no
block can be taken?

The tower is the judge's text: ``n``, then ``n`` levels of three letters from ``R``,
``G``, ``B`` (left, middle, right), bottom to top. Bad text raises
:class:`alea.InputError` with its line and column.

>>> from alea import jenga
>>> jenga.analyse("2\\nRGB\\nRGB\\n").expected_minutes
8.592

Positions stored are bounded by ``max_states`` (the command line's ``--max-states``):
past it a :class:`alea.LimitError` with ``limit == "max_states"``. A tower taller than
20 levels can come to hold more levels of one kind than a position records: that raises
a :class:`alea.LimitError` with ``limit == "levels"``, which no argument raises.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction

from . import _alea
from ._args import fraction, text, flag

__all__ = ["Analysis", "Hints", "Move", "analyse", "hints"]

#: The most positions stored unless told otherwise, as the command line.
MAX_STATES = 5_000_000


@dataclass(frozen=True, slots=True)
class Analysis:
    """The tower's least expected number of minutes, as ``alea jenga --json``:
    ``states`` counts the positions stored; ``expected_minutes_exact`` is the exact
    fraction, with ``exact=True``."""

    expected_minutes: float
    states: int
    expected_minutes_exact: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """A legal move: take the block in ``slot`` (``"left"``, ``"middle"``, ``"right"``)
    of ``level`` (from 1 at the bottom), put it in slot ``place`` of the new level on
    top; ``expected`` minutes are left after it (``expected_exact`` with
    ``exact=True``)."""

    level: int
    slot: str
    place: str
    expected: float
    expected_exact: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Hints:
    """Every legal move of each colour, as ``alea jenga --hint --json``: ``colors``
    maps ``"R"``, ``"G"``, ``"B"`` to its moves, best (least expected) first, ties
    bottom to top, left to right. ``states`` counts the positions stored."""

    expected_minutes: float
    states: int
    colors: dict[str, tuple[Move, ...]]
    expected_minutes_exact: Fraction | None = None


def _max_states(value: object) -> int:
    if isinstance(value, bool):
        raise TypeError("max_states must be an int, not bool")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"max_states must be an int, not {type(value).__name__}") from None
    if n < 0:
        raise ValueError(f"max_states must be at least 0, not {n}")
    return min(n, (1 << 64) - 1)


def analyse(tower: str | bytes, *, exact: bool = False, max_states: int = MAX_STATES) -> Analysis:
    """The least expected number of minutes from ``tower`` with the best play, as
    ``alea jenga --json``; with ``exact=True`` also as an exact fraction (then the
    limit counts the choice nodes between positions too, about four a position)."""
    a = _alea.jenga_analyse(text(tower, "the tower"), flag("exact", exact), _max_states(max_states))
    return Analysis(
        expected_minutes=a["expected_minutes"],
        states=a["states"],
        expected_minutes_exact=fraction(a["expected_minutes_exact"]),
    )


def hints(tower: str | bytes, *, exact: bool = False, max_states: int = MAX_STATES) -> Hints:
    """Every legal move of each colour with the expected minutes left after it, best
    first, as ``alea jenga --hint --json`` (``max_states`` counts the choice nodes too)."""
    h = _alea.jenga_hints(text(tower, "the tower"), flag("exact", exact), _max_states(max_states))
    return Hints(
        expected_minutes=h["expected_minutes"],
        states=h["states"],
        colors={
            colour: tuple(
                Move(level=l, slot=s, place=p, expected=e, expected_exact=fraction(q))
                for l, s, p, e, q in moves
            )
            for colour, moves in h["colors"].items()
        },
        expected_minutes_exact=fraction(h["expected_minutes_exact"]),
    )
