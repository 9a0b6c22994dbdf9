"""Games written in Python, solved by the engine.

A game is any object with two methods::

    class Race:
        def start(self):
            return 0                     # any hashable value

        def expand(self, state):
            if state >= 10:
                return ("terminal", 1)                    # the game is over, worth 1
            return ("chance", 1, [(state + 1, 1), (state + 2, 1)])   # costs 1, then a coin

``expand(state)`` returns ``(kind, reward)`` or ``(kind, reward, successors)``:

- ``"terminal"``: the game is over; the state is worth ``reward``.
- ``"chance"``: nature moves; ``successors`` are ``(state, weight)`` pairs (or a dict
  ``{state: weight}``), each taken with probability weight / total weight. Weights are
  whole numbers; a weight of 0 is left out.
- ``"max"`` / ``"min"``: a player picks the successor of greatest / least value;
  ``successors`` are states, or a dict ``{move: state}`` that names the moves.

The value of a node is its ``reward`` plus the weighted mean of its successors (chance)
or the best of them (a choice). Rewards are integers (scale them when they are not).
Both ``"max"`` and ``"min"`` in one game make a two-player zero-sum game. Cycles are
allowed everywhere, through chance nodes and choices alike. Either only terminals have
rewards (the value is then the expected payoff, and a game that never ends is worth
0), or other nodes have some too (the value is the expected total, and a state from
which the game may go on forever with positive probability is an error). Payoffs and
rewards may have both signs wherever the players cannot keep the game going forever;
where they could, they must all have one sign.

How it runs: the game is explored first, holding the interpreter, with one ``expand``
call per reachable state and one dict lookup per successor (that is the cost of
Python); then the engine solves it without the interpreter, with the same solvers as a
model file given to :func:`alea.check`: one topological pass when no state can come
back, else certified error bounds in floating point; or proven exact fractions. Ctrl-C stops the solve too. An error names the state by its
``repr``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable, Protocol

from . import _alea
from ._args import flag, whole


class Game(Protocol):
    """What :func:`solve` needs of a game (see the module's documentation)."""

    def start(self) -> Hashable:
        """The position to evaluate."""
        ...

    def expand(self, state: Any) -> tuple[Any, ...]:
        """The node at ``state``: ``(kind, reward)`` or ``(kind, reward, successors)``."""
        ...


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a choice, as :meth:`Solution.options` ranks them.

    ``move`` is the game's name for it (when ``expand`` gave the options as a dict) or
    its index among the successors; ``state`` where it leads; ``value`` that state's
    value; ``loss`` how much worse it is than the best option (0 for the best).
    """

    move: Any
    state: Any
    value: float | Fraction
    loss: float | Fraction


class Solution:
    """A game solved: the value of every state reachable from the start, and the
    options of every choice with their values and losses.

    Attributes: ``value`` (the start's), ``exact`` (values are ``Fraction``),
    ``error_bound`` (no float value is further than this from the true value: 0 when
    exact, ``None`` when the game has no cycle and each value is a sum rounded once),
    ``states`` (how many), ``cyclic`` (whether some state can come back), and
    ``explore_seconds``/``solve_seconds`` (the time in the callbacks and in the engine).
    """

    __slots__ = ("_solved",)

    def __init__(self, solved: _alea.SolvedGame) -> None:
        self._solved = solved

    @property
    def value(self) -> float | Fraction:
        """The value of the start."""
        return self._solved.value(self._solved.start)

    @property
    def start(self) -> Any:
        """The start state, as the game gave it."""
        return self._solved.start

    @property
    def exact(self) -> bool:
        """Whether the values are exact fractions."""
        return self._solved.exact

    @property
    def error_bound(self) -> float | None:
        """The certified bound on the error of every float value (see the class)."""
        return self._solved.error_bound

    @property
    def states(self) -> int:
        """How many states are reachable from the start."""
        return len(self._solved)

    @property
    def cyclic(self) -> bool:
        """Whether some state can come back."""
        return self._solved.cyclic

    @property
    def explore_seconds(self) -> float:
        """Time spent exploring the game through its callbacks."""
        return self._solved.explore_seconds

    @property
    def solve_seconds(self) -> float:
        """Time the engine spent solving the explored game."""
        return self._solved.solve_seconds

    def value_of(self, state: Any) -> float | Fraction:
        """The value of ``state``; ``KeyError`` if it is not reachable from the start."""
        return self._solved.value(state)

    def kind(self, state: Any) -> str:
        """The kind of the node at ``state``: "terminal", "chance", "max" or "min"."""
        return self._solved.kind(state)

    def options(self, state: Any) -> list[Option]:
        """Every option of the choice at ``state``, best first (ties in the game's
        order), with its value and its loss against the best. Empty at a terminal or
        chance node."""
        return [Option(*row) for row in self._solved.options(state)]

    def best(self, state: Any) -> Option | None:
        """The best option at ``state``, or ``None`` when it is not a choice."""
        options = self.options(state)
        return options[0] if options else None

    def __contains__(self, state: object) -> bool:
        try:
            self._solved.kind(state)
        except KeyError:
            return False
        return True

    def __len__(self) -> int:
        return len(self._solved)

    def __repr__(self) -> str:
        return f"Solution(value={self.value!r}, states={self.states}, exact={self.exact})"


def solve(
    game: Game,
    exact: bool = False,
    *,
    precision: float = 1e-12,
    max_states: int = 10_000_000,
) -> Solution:
    """Solves a game written in Python (see the module's documentation for the form of
    ``start`` and ``expand``).

    ``exact``: values as proven fractions instead of floats. ``precision``: for a game
    with cycles in floating point, the largest error allowed (absolute, and relative to
    values above 1). ``max_states``: a guard on memory; more reachable states raise
    :class:`alea.LimitError` with ``limit="max_states"``.

    An exception raised by ``start`` or ``expand`` comes through unchanged; a node of
    the wrong form raises ``TypeError`` or :class:`alea.ModelError` naming the state.
    The solve releases the interpreter and stops at Ctrl-C.
    """
    exact = flag("exact", exact)
    if not isinstance(precision, (int, float)) or not 0 < precision < 1:
        raise ValueError(f"precision must be a number above 0 and below 1, not {precision!r}")
    max_states = whole(max_states, "max_states", least=1)
    for method in ("start", "expand"):
        if not callable(getattr(game, method, None)):
            raise TypeError(f"a game needs a {method}() method; {type(game).__name__} has none")
    return Solution(_alea.game_solve(game, exact, float(precision), max_states))


__all__ = ["Game", "Option", "Solution", "solve"]
