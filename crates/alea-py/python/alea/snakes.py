"""Snakes and Ladders for one player: spin, move, climb the ladders, slide down the
snakes, until the last square. How many spins does it take on average?

``board`` is a board file's text, as ``alea snakes FILE`` reads it: the number of
squares ``N`` (2 to 10000), then entries ``ladder FROM TO`` and ``snake FROM TO``, in
any layout, ``#`` starting a comment; ``None`` plays the classic 100-square board (9
ladders, 10 snakes). Bad text, or a board where the game may never end, raises
:class:`alea.InputError` with its line and column.

>>> from alea import snakes
>>> snakes.analyse("10 ladder 2 8 snake 9 1", spinner=2).expected_spins_decimal
'8.037735849056604'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from . import _alea
from ._args import whole, flag

__all__ = ["Analysis", "analyse"]

#: The guards' defaults, the command line's.
MAX_EXACT_WORK = 10_000_000
MAX_DISTRIBUTION_WORK = 2_000_000_000
MAX_DISTRIBUTION_MIB = 1024
#: The fewest and most faces of the spinner.
MIN_SPINNER, MAX_SPINNER = 2, 100

Overshoot = Literal["stay", "bounce", "finish"]


@dataclass(frozen=True, slots=True)
class Analysis:
    """The board's answer, as ``alea snakes --json``.

    ``expected_spins`` is the expected number of spins as a float (rounded from the
    exact value when that was computed) and ``expected_spins_decimal`` with 15 decimals
    as ``alea snakes`` prints it; ``expected_spins_exact`` is the reduced fraction, with
    ``exact=True``. ``distribution[t - 1]`` is the probability that the game is over
    within ``t`` spins, when asked.
    """

    expected_spins: float
    expected_spins_decimal: str
    squares: int
    spinner: int
    overshoot: str
    expected_spins_exact: Fraction | None = None
    distribution: tuple[float, ...] | None = None


def analyse(
    board: str | bytes | None = None,
    *,
    spinner: int = 6,
    overshoot: Overshoot = "stay",
    exact: bool = False,
    distribution: int | None = None,
    max_exact_work: int = MAX_EXACT_WORK,
    max_distribution_work: int = MAX_DISTRIBUTION_WORK,
    max_distribution_mib: int = MAX_DISTRIBUTION_MIB,
) -> Analysis:
    """The expected number of spins on ``board``, as ``alea snakes --json``.

    The spinner shows 1 to ``spinner``, each equally likely; a spin that would pass the
    last square does not move (``overshoot="stay"``, the classic rule), goes back by the
    excess (``"bounce"``) or wins (``"finish"``). The answer is computed exactly when
    that takes at most ``max_exact_work`` units of work (about 0.3 microseconds each:
    the classic board takes 170,000), in floating point otherwise; ``exact=True`` asks
    for the fraction, and past ``max_exact_work`` raises :class:`alea.LimitError`.
    ``distribution=T`` adds the chance that the game is over within 1 to ``T`` spins,
    bounded by ``max_distribution_work`` steps and ``max_distribution_mib`` MiB.
    """
    if board is not None:
        if isinstance(board, str):
            board = board.encode()
        elif isinstance(board, (bytes, bytearray, memoryview)):
            board = bytes(board)
        else:
            raise TypeError(f"board must be str, bytes or None, not {type(board).__name__}")
    spinner = whole(spinner, "spinner")
    if not MIN_SPINNER <= spinner <= MAX_SPINNER:
        raise ValueError(f"spinner must be {MIN_SPINNER} to {MAX_SPINNER}, not {spinner}")
    if not isinstance(overshoot, str):
        raise TypeError(f"overshoot must be a str, not {type(overshoot).__name__}")
    a = _alea.snakes_analyse(
        board,
        spinner,
        overshoot,
        flag("exact", exact),
        None if distribution is None else whole(distribution, "distribution"),
        whole(max_exact_work, "max_exact_work"),
        whole(max_distribution_work, "max_distribution_work"),
        whole(max_distribution_mib, "max_distribution_mib"),
    )
    q = a["expected_spins_exact"]
    d = a["distribution"]
    return Analysis(
        expected_spins=a["expected_spins"],
        expected_spins_decimal=a["expected_spins_decimal"],
        squares=a["squares"],
        spinner=a["spinner"],
        overshoot=a["overshoot"],
        expected_spins_exact=None if q is None else Fraction(*q),
        distribution=None if d is None else tuple(d),
    )
