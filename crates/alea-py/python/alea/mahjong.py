"""Mahjong in one suit: from a 13-tile hand, the expected number of tiles drawn from the
shuffled wall until the hand holds a winning set (four melds and a pair, or seven pairs
of different ranks).

The hand is the judge's text: ``n`` (5 to 1000 ranks, four copies each), then the 13
tiles as ``w t``: copy ``t`` (1 to 4) of rank ``w`` (1 to ``n``). Bad text raises
:class:`alea.InputError` with its line and column.

>>> from alea import mahjong
>>> mahjong.analyse("9 1 1 1 2 1 3 2 1 3 1 4 1 5 1 6 1 7 1 8 1 9 1 9 2 9 3").expected_draws
1.0
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from . import _alea
from ._args import flag

__all__ = ["Analysis", "AutomatonStates", "analyse"]


@dataclass(frozen=True, slots=True)
class AutomatonStates:
    """The states of the recogniser of winning hands: reachable, and once minimised."""

    explored: int
    minimal: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """The hand's figures, as ``alea mahjong --json``.

    ``expected_draws_mod_p`` is the judge's answer, ``x * y^-1`` modulo 998244353 for
    the reduced fraction ``x/y``; ``expected_draws`` the expectation as a float (from
    the exact fraction with ``exact=True``, else the sum of ``p_not_won``), where
    ``p_not_won[i]`` is the probability that the first ``i`` draws do not yet win, for
    ``i`` from 0 to the size of the wall. ``expected_draws_exact`` is the reduced
    fraction, with ``exact=True``.
    """

    ranks: int
    expected_draws_mod_p: int
    expected_draws: float
    p_not_won: tuple[float, ...]
    automaton_states: AutomatonStates
    expected_draws_exact: Fraction | None = None


def analyse(text: str | bytes, *, exact: bool = False) -> Analysis:
    """The expected number of draws to a winning hand from the hand in ``text``, as
    ``alea mahjong --json``; with ``exact=True`` also as an exact fraction (about 2.5 s
    at 400 ranks, 20 to 40 s at 1000)."""
    if isinstance(text, str):
        text = text.encode()
    elif not isinstance(text, (bytes, bytearray, memoryview)):
        raise TypeError(f"the hand must be str or bytes, not {type(text).__name__}")
    a = _alea.mahjong_analyse(bytes(text), flag("exact", exact))
    exact_pair = a["expected_draws_exact"]
    return Analysis(
        ranks=a["ranks"],
        expected_draws_mod_p=a["expected_draws_mod_p"],
        expected_draws=a["expected_draws"],
        p_not_won=tuple(a["p_not_won"]),
        automaton_states=AutomatonStates(explored=a["explored"], minimal=a["minimal"]),
        expected_draws_exact=None if exact_pair is None else Fraction(*exact_pair),
    )
