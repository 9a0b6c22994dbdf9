"""Double Patience: nine piles of four cards; a move removes the top cards of two piles
of the same rank; the table must be cleared.

The functions answer what ``alea patience`` answers, from the same text: a deal is 36
cards (rank ``6789TJQKA``, suit ``SHDC``, like ``TD``), whitespace-separated in any
layout, four to a pile, bottom to top, pile after pile (the judge's format); a position
in progress is written one pile per line, ``-`` for an empty pile, nine lines a deal.
``layout`` says which: ``"tokens"``, ``"lines"``, or ``"auto"`` (by cards when the whole
text reads so, else one pile per line). Bad text raises :class:`alea.InputError` with
its line and column.

>>> from alea import patience
>>> deals = patience.shuffle(3, seed=1)
>>> [round(p, 6) for p in patience.random_play(deals)]
[0.207487, 0.075027, 0.05865]
>>> [a.solvable for a in patience.analyse(deals)]
[True, True, True]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from . import _alea
from ._args import fraction, whole, flag
from ._args import text as as_bytes

__all__ = [
    "Analysis",
    "Bin",
    "Hints",
    "MoveHint",
    "Stats",
    "analyse",
    "hints",
    "random_play",
    "shuffle",
    "stats",
]

Layout = Literal["auto", "tokens", "lines"]
#: Deals as text: the judge's, or positions one pile per line.
Deals = str | bytes
#: The most deals :func:`stats` and :func:`shuffle` take unless told otherwise (ten
#: million take about five minutes to analyse on two cores), as the command line.
MAX_DEALS = 10_000_000


@dataclass(frozen=True, slots=True)
class Analysis:
    """One deal, as a line of ``alea patience --json``.

    ``winning_line`` is a sequence of moves that clears the table (each the two piles,
    numbered from 1, whose top cards are removed), or ``None`` when none does;
    ``states`` counts the positions evaluated and ``cards`` the cards on the table.
    ``random_play_exact`` is the exact probability, with ``exact=True``.
    """

    random_play: float
    solvable: bool
    winning_line: tuple[tuple[int, int], ...] | None
    states: int
    cards: int
    random_play_exact: Fraction | None = None


@dataclass(frozen=True, slots=True)
class MoveHint:
    """One legal move: the random player's chance after it, how much lower that is
    than after the best move (``loss``), and whether the deal stays winnable. With
    ``exact=True`` the two chances are exact too."""

    piles: tuple[int, int]
    random_play: float
    loss: float
    solvable: bool
    random_play_exact: Fraction | None = None
    loss_exact: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Hints:
    """One deal's legal moves, best first, as a line of ``alea patience --hint
    --json``."""

    random_play: float
    solvable: bool
    states: int
    moves: tuple[MoveHint, ...]
    random_play_exact: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Bin:
    """Deals whose random-play chance is at least ``from_`` and below ``to`` (the last
    bin includes 1)."""

    from_: float
    to: float
    deals: int


@dataclass(frozen=True, slots=True)
class Stats:
    """Figures over random deals, as ``alea patience stats --json``.

    ``half_width_95`` is half the width of the 95% interval of the mean, ``None`` with
    fewer than two deals.
    """

    deals: int
    seed: int
    mean_random_play: float
    std_dev: float
    half_width_95: float | None
    winnable: int
    winnable_share: float
    histogram: tuple[Bin, ...]


def _layout(layout: object) -> str:
    if not isinstance(layout, str):
        raise TypeError(f"layout must be a str, not {type(layout).__name__}")
    return layout


def random_play(
    text: Deals, *, exact: bool = False, layout: Layout = "auto"
) -> list[float] | list[Fraction]:
    """The random player's win probability for each deal (a random player picks each
    move uniformly among the legal ones): the judge's question, as ``alea patience``
    prints it. Floats, or :class:`~fractions.Fraction` with ``exact=True``."""
    solved = _alea.patience_random_play(as_bytes(text, "the deals"), flag("exact", exact), _layout(layout))
    if exact:
        return [Fraction(*p) for p in solved]
    return solved


def analyse(text: Deals, *, exact: bool = False, layout: Layout = "auto") -> list[Analysis]:
    """Each deal: the random player's chance, whether it can be won and how, as ``alea
    patience --json``. With ``exact=True`` also the chance as an exact fraction."""
    return [
        Analysis(
            random_play=a["random_play"],
            solvable=a["solvable"],
            winning_line=None if a["winning_line"] is None else tuple(a["winning_line"]),
            states=a["states"],
            cards=a["cards"],
            random_play_exact=fraction(a["random_play_exact"]),
        )
        for a in _alea.patience_analyse(as_bytes(text, "the deals"), flag("exact", exact), _layout(layout))
    ]


def hints(text: Deals, *, exact: bool = False, layout: Layout = "auto") -> list[Hints]:
    """Each deal's legal moves, best first for the random player's chance after them
    (ties in the order the moves are generated), as ``alea patience --hint --json``.
    With ``exact=True`` the chances are computed exactly (the floats are rounded from
    them)."""
    return [
        Hints(
            random_play=h["random_play"],
            solvable=h["solvable"],
            states=h["states"],
            moves=tuple(
                MoveHint(
                    piles=m["piles"],
                    random_play=m["random_play"],
                    loss=m["loss"],
                    solvable=m["solvable"],
                    random_play_exact=fraction(m["random_play_exact"]),
                    loss_exact=fraction(m["loss_exact"]),
                )
                for m in h["moves"]
            ),
            random_play_exact=fraction(h["random_play_exact"]),
        )
        for h in _alea.patience_hints(as_bytes(text, "the deals"), flag("exact", exact), _layout(layout))
    ]


def stats(deals: int = 1000, seed: int = 1, *, max_deals: int = MAX_DEALS) -> Stats:
    """Shuffles ``deals`` random deals from ``seed`` (the deals of :func:`shuffle`),
    solves each, and reports how the random player fares, as ``alea patience stats
    --json``. More than ``max_deals`` deals raise :class:`alea.LimitError`."""
    s = _alea.patience_stats(
        whole(deals, "deals"), whole(seed, "seed"), whole(max_deals, "max_deals")
    )
    return Stats(
        deals=s["deals"],
        seed=s["seed"],
        mean_random_play=s["mean_random_play"],
        std_dev=s["std_dev"],
        half_width_95=s["half_width_95"],
        winnable=s["winnable"],
        winnable_share=s["winnable_share"],
        histogram=tuple(Bin(from_=a, to=b, deals=n) for a, b, n in s["histogram"]),
    )


def shuffle(deals: int = 1, seed: int = 1, *, max_deals: int = MAX_DEALS) -> str:
    """``deals`` random deals from ``seed`` in the judge format, nine lines a deal, as
    ``alea patience shuffle`` prints them: the same seed gives the same deals on any
    machine. More than ``max_deals`` deals raise :class:`alea.LimitError`."""
    return _alea.patience_shuffle(
        whole(deals, "deals"), whole(seed, "seed"), whole(max_deals, "max_deals")
    )
