"""Yahtzee: the judge's assignment of rounds to categories, and the whole solitaire game.

:func:`assign` is ``alea yahtzee``: for each game of thirteen rounds of five dice, the
assignment of rounds to the thirteen categories with the largest total.

:class:`Table` is ``alea yahtzee solve``: the solitaire game (thirteen turns of up to
three rolls, American scoring) solved for the largest expected score, in under a
second. A table answers :meth:`~Table.advise`, :meth:`~Table.simulate` and
:meth:`~Table.distribution` (``alea yahtzee advise | simulate | distribution``) as often
as asked without solving again, and :meth:`~Table.save` / :meth:`Table.load` keep it in
a file as ``solve --save`` and ``--table`` do::

    >>> from alea import yahtzee
    >>> table = yahtzee.Table()
    >>> round(table.value.expected_score, 7)
    254.5896095
    >>> table.advise(dice=[3, 3, 5, 1, 6]).best.keep
    (3, 3)

A position is a card, and within a turn the dice and the rolls still to come. A card is
the command line's text (``"ones=3,sixes=24,full-house=25"``) or a mapping from box to
score (``{"ones": 3, "full_house": 25}``); dice are the text ``"3,3,5,1,6"`` or five
numbers. Bad text raises :class:`~alea.InputError` with the line and column the command
line reports (``source`` names the option: ``"--card"``, ``"--dice"``, ``"--target"``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Union

from . import _alea
from ._args import flag
from .errors import InputError

__all__ = [
    "BOXES",
    "CATEGORIES",
    "RULES",
    "Advice",
    "Assignment",
    "Bin",
    "Distribution",
    "Option",
    "Simulation",
    "Table",
    "TableValue",
    "assign",
]

#: The judge's thirteen categories, in the order of :attr:`Assignment.scores`.
CATEGORIES: tuple[str, ...] = tuple(_alea.YAHTZEE_CATEGORIES)
#: The boxes of the solitaire card, as a card names them.
BOXES: tuple[str, ...] = tuple(_alea.YAHTZEE_BOXES)
#: The joker rules a :class:`Table` is solved for (``--rules``).
RULES: tuple[str, ...] = tuple(_alea.YAHTZEE_RULES)

Card = Union[str, Mapping[str, int], None]
DiceArg = Union[str, Iterable[int], None]


# --- the judge's assignment -------------------------------------------------------


@dataclass(frozen=True)
class Assignment:
    """The best assignment of one game, as a line of ``alea yahtzee --json``."""

    #: The score of each category, in the order of :data:`CATEGORIES`.
    scores: tuple[int, ...]
    #: The upper bonus (35 from 63 points in ones to sixes).
    bonus: int
    total: int
    #: The round (1 to 13) assigned to each category, in the order of :data:`CATEGORIES`.
    rounds: tuple[int, ...]
    #: The scores by category name.
    by_category: dict[str, int] = field(compare=False, hash=False, repr=False)


def assign(
    text: str | bytes | os.PathLike[str],
    *,
    strict_full_house: bool = False,
) -> list[Assignment]:
    """The best assignment of every game in ``text``, as ``alea yahtzee --json``.

    ``text`` is in the judge's format: whitespace-separated dice (1 to 6) in any layout,
    65 a game (13 rounds of five), games until the end. A path (:class:`os.PathLike`,
    not a plain string) is read as a file. With ``strict_full_house`` a full house is
    only three of one value and two of another (by default five of a kind is one too).

    Raises :class:`~alea.InputError` at the first bad die, or where a game is cut short.
    """
    strict_full_house = flag("strict_full_house", strict_full_house)
    if isinstance(text, str):
        data, source = text.encode(), "<text>"
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data, source = bytes(text), "<text>"
    elif isinstance(text, os.PathLike):
        source = os.fspath(text)
        with open(source, "rb") as f:
            data = f.read()
    else:
        raise TypeError(f"text: expected str, bytes or a path, not {type(text).__name__}")
    return [
        Assignment(tuple(scores), bonus, total, tuple(rounds), dict(zip(CATEGORIES, scores)))
        for scores, bonus, total, rounds in _alea.yahtzee_assign(data, strict_full_house, source)
    ]


# --- the solitaire game -----------------------------------------------------------


@dataclass(frozen=True)
class TableValue:
    """A solved table's figures, as ``alea yahtzee solve --json``."""

    rules: str
    #: The expected final score from the empty card, under optimal play.
    expected_score: float
    #: The standard deviation of the final score under the same play.
    std_dev: float
    #: The turn-start positions solved.
    states: int
    #: How long the table took to make: solved (once per process and rules; a table
    #: solved already is shared), or read from its file.
    seconds: float


@dataclass(frozen=True)
class Option:
    """One option of a position: keep some dice (``keep``) or score a box (``box``)."""

    #: The value of the position after taking the option: the expected points still to
    #: come, under optimal play.
    value: float
    #: What the option gives up against the best.
    loss: float
    #: The faces kept, smallest first (``()`` rerolls all), or ``None`` for a box.
    keep: tuple[int, ...] | None = None
    #: The box scored, or ``None`` for a keep.
    box: str | None = None
    #: The box's score.
    points: int | None = None
    #: All the points earned, the box's with any bonus the roll brings.
    earned: int | None = None


@dataclass(frozen=True)
class Advice:
    """The value of a position and of every option, as ``alea yahtzee advise --json``."""

    rules: str
    #: The card's points, its upper bonus included (a card does not say how many 100
    #: bonuses were earned).
    card_points: int
    #: The sum of the upper boxes filled.
    upper_total: int
    #: The dice, smallest first, or ``None`` at the start of a turn.
    dice: tuple[int, ...] | None
    rolls_left: int | None
    #: The expected number of points still to be earned, under optimal play (the
    #: card's are not counted).
    value: float
    #: Every option, best first (none at the start of a turn).
    options: tuple[Option, ...]

    @property
    def best(self) -> Option | None:
        """The best option, or ``None`` at the start of a turn."""
        return self.options[0] if self.options else None


@dataclass(frozen=True)
class Simulation:
    """Games played optimally with seeded dice, as ``alea yahtzee simulate --json``.
    Final scores include the card's points."""

    rules: str
    games: int
    seed: int
    mean: float
    std_dev: float
    #: The 95% interval of the mean, or ``None`` for one game.
    interval: tuple[float, float] | None
    #: The mean from the solved table.
    exact_mean: float
    #: The standard deviation from the table, at the start of a turn only.
    exact_std_dev: float | None
    card_points: int
    dice: tuple[int, ...] | None
    rolls_left: int | None
    #: The final score at percentiles 1, 5, 10, 25, 50, 75, 90, 95 and 99.
    percentiles: dict[int, int]
    min: int
    max: int
    #: ``counts[s]``: the games that ended with ``s`` points.
    counts: tuple[int, ...]
    seconds: float
    play_seconds: float
    games_per_second: float


@dataclass(frozen=True)
class Bin:
    """Final scores of at least ``score`` (a target) or of exactly ``score`` (a bin)."""

    score: int
    #: Games that ended there; ``None`` when the distribution is exact.
    count: int | None
    probability: float
    #: Wilson's 95% interval of the probability; ``None`` when exact.
    interval: tuple[float, float] | None


@dataclass(frozen=True)
class Distribution:
    """The distribution of the final score under optimal play, as ``alea yahtzee
    distribution --json``: worked out exactly with at most five boxes open (unless a
    simulation is asked for), else estimated from seeded games."""

    rules: str
    exact: bool
    #: Games played; ``None`` when exact.
    games: int | None
    seed: int | None
    mean: float
    mean_interval: tuple[float, float] | None
    std_dev: float
    std_dev_interval: tuple[float, float] | None
    exact_mean: float
    exact_std_dev: float | None
    card_points: int
    dice: tuple[int, ...] | None
    rolls_left: int | None
    #: The final score at percentiles 1, 5, 25, 50, 75, 95 and 99.
    percentiles: dict[int, int]
    min: int
    max: int
    #: For each target score, the probability of at least that score.
    targets: tuple[Bin, ...]
    #: Every final score that occurs, with its probability.
    bins: tuple[Bin, ...]
    seconds: float


def _whole(name: str, value: object, low: int = 0, high: int = 2**64 - 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected a whole number, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name}: expected {low} to {high}, not {value}")
    return value


def _again(e: InputError, source: str) -> InputError:
    """An error in text made from Python values: its message, without a place."""
    return InputError(e.message, source=source)


def _card(card: Card) -> tuple[str, bool]:
    """The card as the command line's text, and whether the caller gave that text."""
    if card is None:
        return "", False
    if isinstance(card, str):
        return card, True
    if isinstance(card, Mapping):
        items = []
        for name, score in card.items():
            if not isinstance(name, str):
                raise TypeError(f"card: a box is named by a string, not {type(name).__name__}")
            if isinstance(score, bool) or not isinstance(score, int):
                raise TypeError(f"card: the score of {name} is a whole number, not {score!r}")
            items.append(f"{name.replace('_', '-')}={score}")
        return ",".join(items), False
    raise TypeError(f"card: expected a str or a mapping of box to score, not {type(card).__name__}")


def _dice(dice: DiceArg) -> tuple[str | None, bool]:
    if dice is None:
        return None, False
    if isinstance(dice, str):
        return dice, True
    if isinstance(dice, (bytes, bytearray)) or not isinstance(dice, Iterable):
        raise TypeError(f"dice: expected a str or five numbers, not {type(dice).__name__}")
    faces = list(dice)
    for d in faces:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"dice: a die is a whole number from 1 to 6, not {d!r}")
    return ",".join(map(str, faces)), False


def _targets(targets: str | Iterable[int] | None) -> tuple[str | None, bool]:
    if targets is None:
        return None, False
    if isinstance(targets, str):
        return targets, True
    if isinstance(targets, (bytes, bytearray)) or not isinstance(targets, Iterable):
        raise TypeError(f"targets: expected a str or numbers, not {type(targets).__name__}")
    scores = list(targets)
    for t in scores:
        if isinstance(t, bool) or not isinstance(t, int):
            raise TypeError(f"targets: a target is a whole number of points, not {t!r}")
    if not scores:
        return None, False
    return ",".join(map(str, scores)), False


def _rolls_left(rolls_left: int | None, dice: str | None) -> int:
    if rolls_left is None:
        return 2
    rolls_left = _whole("rolls_left", rolls_left, 0, 2)
    if dice is None:
        raise ValueError("rolls_left: give the dice too; without them the position is the start of a turn")
    return rolls_left


def _pair(p: object) -> tuple[float, float] | None:
    return None if p is None else (p[0], p[1])  # type: ignore[index]


def _tuple(t: object) -> tuple[int, ...] | None:
    return None if t is None else tuple(t)  # type: ignore[arg-type]


class Table:
    """The solitaire game solved under ``rules`` (``alea yahtzee solve --rules``): the
    value of every turn-start position, for advice, simulation and distributions.

    The rules are one of :data:`RULES`: ``"free-joker"`` (the default: with the
    Yahtzee box filled a Yahtzee may go in any open box, and once the upper box of its
    face is filled too full house and straights take it at 25/30/40),
    ``"forced-joker"`` (the official order), ``"no-joker"`` (the 100 bonus, no joker)
    and ``"no-bonus"``. The solve runs off the interpreter (Ctrl-C stops the wait) and is
    done once per process and rules: every ``Table`` of those rules shares it.
    """

    __slots__ = ("_native",)

    def __init__(self, rules: str = "free-joker") -> None:
        if not isinstance(rules, str):
            raise TypeError(f"rules: expected one of {', '.join(RULES)}, not {type(rules).__name__}")
        self._native = _alea.yahtzee_solve(rules)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, rules: str | None = None) -> Table:
        """The table saved in the file at ``path`` (by :meth:`save` or ``alea yahtzee
        solve --save``), as ``--table`` reads it. With ``rules``, a table for other rules
        is refused. A foreign or damaged file raises :class:`~alea.InputError`, an
        unreadable one :class:`OSError`."""
        if rules is not None and not isinstance(rules, str):
            raise TypeError(f"rules: expected one of {', '.join(RULES)}, not {type(rules).__name__}")
        table = cls.__new__(cls)
        table._native = _alea.yahtzee_load(os.fspath(path), rules)
        return table

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the table to the file at ``path``, for :meth:`load` and for the
        command line's ``--table``. The file is written beside under another name and
        renamed at the end, so that a failure never leaves a damaged table behind."""
        path = os.fspath(path)
        folder = os.path.dirname(path) or "."
        data = self._native.to_bytes()
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".alea-table-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise

    @property
    def rules(self) -> str:
        """The name of the rules the table was solved for."""
        return self._native.rules

    @property
    def value(self) -> TableValue:
        """The expected score from the start and its standard deviation, as ``solve
        --json``."""
        return TableValue(*self._native.value())

    def __repr__(self) -> str:
        return f"Table(rules={self.rules!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self._native.same_as(other._native)

    __hash__ = None  # type: ignore[assignment]

    def _position(
        self, card: Card, dice: DiceArg, rolls_left: int | None
    ) -> tuple[str, bool, str | None, bool, int]:
        card_text, card_placed = _card(card)
        dice_text, dice_placed = _dice(dice)
        return card_text, card_placed, dice_text, dice_placed, _rolls_left(rolls_left, dice_text)

    @staticmethod
    def _call(placed: dict[str, bool], call, *args):  # type: ignore[no-untyped-def]
        try:
            return call(*args)
        except InputError as e:
            if e.source in placed and not placed[e.source]:
                raise _again(e, e.source) from None
            raise

    def advise(
        self,
        card: Card = None,
        dice: DiceArg = None,
        rolls_left: int | None = None,
    ) -> Advice:
        """The value of a position and every option from it, best first, as ``alea
        yahtzee advise --json``.

        Without ``dice`` the position is the start of a turn (and has no options);
        with them, ``rolls_left`` rolls are still to come (2 after the first roll, the
        default; 0 after the third, when the options are the boxes to score).
        """
        card_text, card_placed, dice_text, dice_placed, rolls = self._position(card, dice, rolls_left)
        o = self._call(
            {"--card": card_placed, "--dice": dice_placed},
            self._native.advise,
            card_text,
            dice_text,
            rolls,
        )
        options = tuple(
            Option(
                value=x["value"],
                loss=x["loss"],
                keep=_tuple(x.get("keep")),
                box=x.get("box"),
                points=x.get("points"),
                earned=x.get("earned"),
            )
            for x in o["options"]
        )
        return Advice(
            rules=o["rules"],
            card_points=o["card_points"],
            upper_total=o["upper_total"],
            dice=_tuple(o["dice"]),
            rolls_left=o["rolls_left"],
            value=o["value"],
            options=options,
        )

    def simulate(
        self,
        games: int = 10_000,
        *,
        seed: int = 1,
        card: Card = None,
        dice: DiceArg = None,
        rolls_left: int | None = None,
        max_games: int = 10_000_000,
    ) -> Simulation:
        """Plays ``games`` games optimally with dice seeded by ``seed``, as ``alea
        yahtzee simulate --json``: the same seed gives the same games, on any number of
        threads, and the same as the command line's. The games start at the position of
        ``card``, ``dice`` and ``rolls_left`` (the start of the game by default). More
        than ``max_games`` games raise :class:`~alea.LimitError`. Runs off the
        interpreter."""
        games = _whole("games", games, 1)
        seed = _whole("seed", seed)
        max_games = _whole("max_games", max_games)
        card_text, card_placed, dice_text, dice_placed, rolls = self._position(card, dice, rolls_left)
        o = self._call(
            {"--card": card_placed, "--dice": dice_placed},
            self._native.simulate,
            card_text,
            dice_text,
            rolls,
            games,
            seed,
            max_games,
        )
        return Simulation(
            rules=o["rules"],
            games=o["games"],
            seed=o["seed"],
            mean=o["mean"],
            std_dev=o["std_dev"],
            interval=_pair(o["interval"]),
            exact_mean=o["exact_mean"],
            exact_std_dev=o["exact_std_dev"],
            card_points=o["card_points"],
            dice=_tuple(o["dice"]),
            rolls_left=o["rolls_left"],
            percentiles=o["percentiles"],
            min=o["min"],
            max=o["max"],
            counts=tuple(o["counts"]),
            seconds=o["seconds"],
            play_seconds=o["play_seconds"],
            games_per_second=o["games_per_second"],
        )

    def distribution(
        self,
        card: Card = None,
        dice: DiceArg = None,
        rolls_left: int | None = None,
        *,
        games: int | None = None,
        seed: int = 1,
        targets: str | Iterable[int] | None = None,
        simulate: bool = False,
        max_games: int = 10_000_000,
    ) -> Distribution:
        """The distribution of the final score under optimal play from a position, as
        ``alea yahtzee distribution --json``.

        With at most five boxes open it is worked out exactly over every roll, in
        milliseconds; otherwise (or with ``simulate``) it is estimated from ``games``
        games (a million by default) played with dice seeded by ``seed``, each figure
        with its 95% interval. ``targets`` (``"200,250"`` or numbers) asks for the
        probability of finishing with at least each. Runs off the interpreter.
        """
        games = 1_000_000 if games is None else _whole("games", games, 1)
        seed = _whole("seed", seed)
        max_games = _whole("max_games", max_games)
        simulate = flag("simulate", simulate)
        card_text, card_placed, dice_text, dice_placed, rolls = self._position(card, dice, rolls_left)
        target_text, target_placed = _targets(targets)
        o = self._call(
            {"--card": card_placed, "--dice": dice_placed, "--target": target_placed},
            self._native.distribution,
            card_text,
            dice_text,
            rolls,
            games,
            seed,
            max_games,
            target_text,
            simulate,
        )

        def bin(b: dict) -> Bin:  # type: ignore[type-arg]
            return Bin(b["score"], b["count"], b["probability"], _pair(b["interval"]))

        return Distribution(
            rules=o["rules"],
            exact=o["exact"],
            games=o["games"],
            seed=o["seed"],
            mean=o["mean"],
            mean_interval=_pair(o["mean_interval"]),
            std_dev=o["std_dev"],
            std_dev_interval=_pair(o["std_dev_interval"]),
            exact_mean=o["exact_mean"],
            exact_std_dev=o["exact_std_dev"],
            card_points=o["card_points"],
            dice=_tuple(o["dice"]),
            rolls_left=o["rolls_left"],
            percentiles=o["percentiles"],
            min=o["min"],
            max=o["max"],
            targets=tuple(bin(b) for b in o["targets"]),
            bins=tuple(bin(b) for b in o["bins"]),
            seconds=o["seconds"],
        )
