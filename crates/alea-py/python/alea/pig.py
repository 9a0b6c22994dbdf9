"""Pig: two players, one die, first to the goal; ``alea pig``.

Players alternate turns; a turn is a run of throws of one die (``faces``, default 6): a
1 loses the turn total and ends the turn, any other face adds itself, and after each
throw the player throws again or holds (banks the turn total). The first whose banked
score plus turn total reaches the goal (default 100) wins at once. ``piglet=True``
throws a fair coin instead: tails loses the turn total, heads adds 1. Both players play
to win.

    >>> from alea import pig
    >>> round(pig.solve().first_player_wins, 15)
    0.530592725273747
    >>> pig.solve(20, exact=True).first_player_wins_exact
    Fraction(15116544, 24557443)
    >>> pig.hint(41, 49, 27).best
    'roll'

:class:`Pig` solves a game once and answers any number of hints and its policy. The
functions :func:`solve`, :func:`hint`, :func:`policy` and :func:`against` each solve
afresh, as the command line's ``alea pig``, ``hint``, ``policy`` and ``--against`` do.

Floating-point answers come with ``error_bound``, a certified bound on their error;
``exact=True`` works in exact arithmetic and adds :class:`fractions.Fraction` values.
``max_work`` bounds the steps of a solve (checked before starting) and
``max_exact_work`` the word operations of an exact one: past either,
:class:`~alea.LimitError` names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from . import _alea
from ._args import fraction, flag

__all__ = [
    "Against",
    "Hint",
    "HoldSet",
    "Pig",
    "Policy",
    "Solution",
    "against",
    "hint",
    "policy",
    "solve",
]

#: ``--max-work``'s default: Pig to about 550, about a second.
MAX_WORK = 500_000_000
#: ``--max-exact-work``'s default: a few seconds.
MAX_EXACT_WORK = 5_000_000


@dataclass(frozen=True)
class Solution:
    """The first player's chance of winning, both playing best; ``alea pig --json``."""

    first_player_wins: float
    #: A certified bound on the error of ``first_player_wins``; 0 when exact.
    error_bound: float
    #: The positions solved: (banked score, opponent's score, turn total).
    states: int
    #: The chance as a fraction, with ``exact=True``.
    first_player_wins_exact: Fraction | None = None


@dataclass(frozen=True)
class Hint:
    """Roll or hold at one position: the mover's chance of winning after each, both
    playing best from there; ``alea pig hint --json``."""

    roll: float
    hold: float
    #: ``"roll"`` or ``"hold"``; on an exact tie, ``"hold"``.
    best: str
    #: What the worse option gives up.
    loss: float
    #: A certified bound on the error of both chances; 0 when exact.
    error_bound: float
    roll_exact: Fraction | None = None
    hold_exact: Fraction | None = None
    loss_exact: Fraction | None = None


@dataclass(frozen=True)
class HoldSet:
    """A score pair where holding is not a threshold: the runs of turn totals at which
    the player holds."""

    me: int
    opponent: int
    #: Runs ``(from, to)``, inclusive, ascending.
    holds: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Policy:
    """The optimal policy; ``alea pig policy --json``."""

    goal: int
    #: ``threshold[i][j]``: the smallest turn total at which the player to move, with
    #: ``i`` banked against the opponent's ``j``, holds (``goal - i`` when it throws on
    #: to the goal).
    threshold: tuple[tuple[int, ...], ...]
    #: The pairs where holding is not a threshold, with their hold sets in full.
    exceptions: tuple[HoldSet, ...]
    #: ``(me, opponent, turn)`` decisions the certified bounds cannot settle (none in
    #: the standard game; always none when exact).
    uncertain: tuple[tuple[int, int, int], ...]

    def holds(self, me: int, opponent: int, turn: int) -> bool:
        """Whether the player to move holds with ``me`` banked against ``opponent`` and
        a turn total of ``turn`` (below ``goal - me``)."""
        for e in self.exceptions:
            if (e.me, e.opponent) == (me, opponent):
                return any(a <= turn <= b for a, b in e.holds)
        return turn >= self.threshold[me][opponent]


@dataclass(frozen=True)
class Against:
    """Best play against an opponent who holds as soon as its turn total reaches H (or
    the goal); ``alea pig --against hold-at-H --json``."""

    #: ``"hold-at-H"``.
    against: str
    #: The best player's chance, moving first.
    moving_first: float
    #: ... and moving second.
    moving_second: float
    #: A certified bound on the error of both; 0 when exact.
    error_bound: float
    #: The positions solved, both seats.
    states: int
    moving_first_exact: Fraction | None = None
    moving_second_exact: Fraction | None = None


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected a whole number, not {type(value).__name__}")
    if not 0 <= value < 2**64:
        raise ValueError(f"{name}: expected a whole number from 0 on, not {value}")
    return value


def _game(goal: object, faces: object, piglet: object) -> tuple[int, int, bool]:
    piglet = flag("piglet", piglet)
    if faces is not None and piglet:
        raise ValueError("faces: Piglet throws a coin, not a die; give faces or piglet, not both")
    return _whole("goal", goal), 6 if faces is None else _whole("faces", faces), piglet


def _hint(o: dict) -> Hint:  # type: ignore[type-arg]
    return Hint(
        roll=o["roll"],
        hold=o["hold"],
        best=o["best"],
        loss=o["loss"],
        error_bound=o["error_bound"],
        roll_exact=fraction(o.get("roll_exact")),
        hold_exact=fraction(o.get("hold_exact")),
        loss_exact=fraction(o.get("loss_exact")),
    )


class Pig:
    """A game of Pig solved with both players best, once, for any number of hints.

    ``goal`` is the score that wins (1 to 1,000,000), ``faces`` the die's (2 or more;
    6 by default), ``piglet`` a coin instead of the die. With ``exact`` the solve is in
    exact arithmetic. ``max_work`` and ``max_exact_work`` are the guards of ``alea pig
    --max-work`` and ``--max-exact-work``. The solve runs off the interpreter.
    """

    __slots__ = ("_native", "_solution")

    def __init__(
        self,
        goal: int = 100,
        *,
        faces: int | None = None,
        piglet: bool = False,
        exact: bool = False,
        max_work: int = MAX_WORK,
        max_exact_work: int = MAX_EXACT_WORK,
    ) -> None:
        goal, faces, piglet = _game(goal, faces, piglet)
        self._native = _alea.PigGame(
            goal,
            faces,
            piglet,
            flag("exact", exact),
            _whole("max_work", max_work),
            _whole("max_exact_work", max_exact_work),
        )
        self._solution: Solution | None = None

    @property
    def goal(self) -> int:
        """The score that wins."""
        return self._native.goal

    @property
    def faces(self) -> int | None:
        """The die's faces; ``None`` for Piglet's coin."""
        return self._native.faces

    @property
    def piglet(self) -> bool:
        """Whether a coin is flipped instead of a die thrown (Piglet)."""
        return self._native.faces is None

    @property
    def exact(self) -> bool:
        """Whether the values are exact fractions."""
        return self._native.exact

    def __repr__(self) -> str:
        die = "piglet=True" if self.piglet else f"faces={self.faces}"
        return f"Pig(goal={self.goal}, {die}, exact={self.exact})"

    @property
    def solution(self) -> Solution:
        """The first player's chance, as ``alea pig --json`` (its certified bound is
        worked out the first time, taking longer than the solve)."""
        if self._solution is None:
            o = self._native.summary()
            self._solution = Solution(
                first_player_wins=o["first_player_wins"],
                error_bound=o["error_bound"],
                states=o["states"],
                first_player_wins_exact=fraction(o.get("first_player_wins_exact")),
            )
        return self._solution

    @property
    def first_player_wins(self) -> float:
        """The first player's chance of winning (without its bound: at once)."""
        return self._native.first_player_wins()

    def hint(self, me: int, opponent: int, turn: int) -> Hint:
        """Roll or hold with ``me`` banked against the opponent's ``opponent`` and a
        turn total of ``turn`` (a total a turn can reach, with ``me + turn`` below the
        goal), as ``alea pig hint --json``."""
        return _hint(self._native.hint(_whole("me", me), _whole("opponent", opponent), _whole("turn", turn)))

    def policy(self) -> Policy:
        """The optimal policy, as ``alea pig policy --json``."""
        o = self._native.policy()
        return Policy(
            goal=o["goal"],
            threshold=tuple(tuple(row) for row in o["threshold"]),
            exceptions=tuple(
                HoldSet(e["me"], e["opponent"], tuple(tuple(r) for r in e["holds"]))
                for e in o["exceptions"]
            ),
            uncertain=tuple(tuple(u) for u in o["uncertain"]),
        )


def solve(
    goal: int = 100,
    *,
    faces: int | None = None,
    piglet: bool = False,
    exact: bool = False,
    max_work: int = MAX_WORK,
    max_exact_work: int = MAX_EXACT_WORK,
) -> Solution:
    """The first player's chance of winning, both players best: ``alea pig --json``."""
    return Pig(
        goal, faces=faces, piglet=piglet, exact=exact, max_work=max_work, max_exact_work=max_exact_work
    ).solution


def hint(
    me: int,
    opponent: int,
    turn: int,
    *,
    goal: int = 100,
    faces: int | None = None,
    piglet: bool = False,
    exact: bool = False,
    max_work: int = MAX_WORK,
    max_exact_work: int = MAX_EXACT_WORK,
) -> Hint:
    """Roll or hold at one position: ``alea pig hint --json``. The position is checked
    before the solve. To ask many, solve once with :class:`Pig`."""
    g, f, p = _game(goal, faces, piglet)
    me, opponent, turn = _whole("me", me), _whole("opponent", opponent), _whole("turn", turn)
    _alea.pig_check(g, f, p, me, opponent, turn)
    game = Pig(g, faces=faces, piglet=p, exact=exact, max_work=max_work, max_exact_work=max_exact_work)
    return game.hint(me, opponent, turn)


def policy(
    goal: int = 100,
    *,
    faces: int | None = None,
    piglet: bool = False,
    exact: bool = False,
    max_work: int = MAX_WORK,
    max_exact_work: int = MAX_EXACT_WORK,
) -> Policy:
    """The optimal policy: ``alea pig policy --json``."""
    return Pig(
        goal, faces=faces, piglet=piglet, exact=exact, max_work=max_work, max_exact_work=max_exact_work
    ).policy()


def against(
    hold_at: int | str,
    goal: int = 100,
    *,
    faces: int | None = None,
    piglet: bool = False,
    exact: bool = False,
    max_work: int = MAX_WORK,
    max_exact_work: int = MAX_EXACT_WORK,
) -> Against:
    """Best play against an opponent who holds as soon as its turn total reaches
    ``hold_at`` (or the goal): ``alea pig --against hold-at-H --json``. ``hold_at`` is
    H, or the text ``"hold-at-H"``. ``max_work`` counts both seats."""
    if isinstance(hold_at, str):
        text = hold_at
        if not text.startswith("hold-at-"):
            raise ValueError(f"hold_at: expected hold-at-H, like hold-at-20, not {text!r}")
        digits = text[len("hold-at-") :]
        if not digits.isascii() or not digits.isdigit() or int(digits) < 1 or int(digits) >= 2**32:
            raise ValueError(f"hold_at: expected hold-at-H with H a whole number from 1 on, not {text!r}")
        h = int(digits)
    else:
        h = _whole("hold_at", hold_at)
        if not 1 <= h < 2**32:
            raise ValueError(f"hold_at: expected a whole number from 1 on, not {h}")
    g, f, p = _game(goal, faces, piglet)
    o = _alea.pig_against(
        g,
        f,
        p,
        h,
        flag("exact", exact),
        _whole("max_work", max_work),
        _whole("max_exact_work", max_exact_work),
    )
    return Against(
        against=o["against"],
        moving_first=o["moving_first"],
        moving_second=o["moving_second"],
        error_bound=o["error_bound"],
        states=o["states"],
        moving_first_exact=fraction(o.get("moving_first_exact")),
        moving_second_exact=fraction(o.get("moving_second_exact")),
    )
