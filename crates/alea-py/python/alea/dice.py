"""The One Person Game: throw the dice and add their sum to a counter, unless they show a
reset combination, which puts the counter back to 0; the game ends when the counter
exceeds a limit. How many throws does it take on average?

:func:`analyse` answers the judge's cases (``T``, then ``T`` cases ``n K1 K2 K3 a b c``:
three dice of ``K1``, ``K2``, ``K3`` faces, the reset throw ``(a, b, c)``, the limit
``n``), as ``alea dice`` does; :func:`expected_throws` any game, as ``alea dice --faces
... --reset ... --limit ...`` does.

>>> from alea import dice
>>> dice.expected_throws([6, 6, 6], 0, reset=[(1, 1, 1)], exact=True).expected_throws_exact
Fraction(216, 215)

The work is bounded as on the command line: past ``max_work`` (floating point),
``max_exact_work`` (exact arithmetic), ``max_distribution_work`` or
``max_distribution_mib`` (``distribution``) a :class:`alea.LimitError` names the
argument to raise.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from . import _alea
from ._args import whole, flag

__all__ = ["Expectation", "analyse", "expected_throws"]

#: The guards' defaults, the command line's.
MAX_WORK = 10_000_000_000
MAX_EXACT_WORK = 2_000_000_000
MAX_DISTRIBUTION_WORK = 2_000_000_000
MAX_DISTRIBUTION_MIB = 1024


@dataclass(frozen=True, slots=True)
class Expectation:
    """One game's answer, as a line of ``alea dice --json``.

    ``expected_throws`` is the expected number of throws; beyond the range of a float it
    is ``inf``, and the game was solved exactly. ``expected_throws_decimal`` is the
    answer with 15 decimals as ``alea dice`` prints it (rounded from the exact value
    when there is one). ``expected_throws_exact`` is the reduced fraction, with
    ``exact=True`` or when a float could not hold the value. ``distribution[t - 1]`` is
    the probability that the game is over within ``t`` throws, when asked.
    """

    expected_throws: float
    expected_throws_decimal: str
    expected_throws_exact: Fraction | None = None
    distribution: tuple[float, ...] | None = None


def _guards(
    distribution: int | None,
    max_work: int,
    max_exact_work: int,
    max_distribution_work: int,
    max_distribution_mib: int,
) -> tuple:
    return (
        None if distribution is None else whole(distribution, "distribution"),
        whole(max_work, "max_work"),
        whole(max_exact_work, "max_exact_work"),
        whole(max_distribution_work, "max_distribution_work"),
        whole(max_distribution_mib, "max_distribution_mib"),
    )


def _expectation(a: dict) -> Expectation:
    if a["warning"] is not None:
        warnings.warn(a["warning"], RuntimeWarning, stacklevel=3)
    exact = a["expected_throws_exact"]
    distribution = a["distribution"]
    return Expectation(
        expected_throws=a["expected_throws"],
        expected_throws_decimal=a["text"],
        expected_throws_exact=None if exact is None else Fraction(*exact),
        distribution=None if distribution is None else tuple(distribution),
    )


def analyse(
    text: str | bytes,
    *,
    exact: bool = False,
    distribution: int | None = None,
    max_work: int = MAX_WORK,
    max_exact_work: int = MAX_EXACT_WORK,
    max_distribution_work: int = MAX_DISTRIBUTION_WORK,
    max_distribution_mib: int = MAX_DISTRIBUTION_MIB,
) -> list[Expectation]:
    """Each case of the judge's input ``text``, as ``alea dice --json``: with
    ``exact=True`` the exact fraction too, with ``distribution=K`` the chance that the
    game is over within 1 to ``K`` throws. Bad text raises :class:`alea.InputError`
    with its line and column; the guards count the work of all the cases together."""
    if isinstance(text, str):
        text = text.encode()
    elif not isinstance(text, (bytes, bytearray, memoryview)):
        raise TypeError(f"the cases must be str or bytes, not {type(text).__name__}")
    return [
        _expectation(a)
        for a in _alea.dice_analyse(
            bytes(text),
            flag("exact", exact),
            *_guards(
                distribution, max_work, max_exact_work, max_distribution_work, max_distribution_mib
            ),
        )
    ]


def expected_throws(
    faces: Iterable[int],
    limit: int,
    *,
    reset: Iterable[Iterable[int]] = (),
    exact: bool = False,
    distribution: int | None = None,
    max_work: int = MAX_WORK,
    max_exact_work: int = MAX_EXACT_WORK,
    max_distribution_work: int = MAX_DISTRIBUTION_WORK,
    max_distribution_mib: int = MAX_DISTRIBUTION_MIB,
) -> Expectation:
    """The game of any dice, as ``alea dice --faces ... --reset ... --limit ...
    --json``: ``faces`` gives each die's number of faces (1 to 8 dice, 2 to 100 faces
    each), ``reset`` the throws that reset the counter (one face per die, in order),
    and the game ends when the counter exceeds ``limit``. A game that is not well formed
    raises :class:`ValueError`."""
    if isinstance(faces, (str, bytes)):
        raise TypeError("faces must be a sequence of ints")
    faces = [whole(k, "a number of faces", below=1 << 32) for k in faces]
    if isinstance(reset, (str, bytes)):
        raise TypeError("reset must be a sequence of throws, like [(1, 1)]")
    resets = []
    for throw in reset:
        if isinstance(throw, (str, bytes)) or not isinstance(throw, Iterable):
            raise TypeError(
                f"a reset throw must be a sequence of faces, like (1, 1), not {throw!r}"
            )
        resets.append([whole(f, "a reset face", below=1 << 32) for f in throw])
    return _expectation(
        _alea.dice_expected_throws(
            faces,
            resets,
            whole(limit, "limit"),
            flag("exact", exact),
            *_guards(
                distribution, max_work, max_exact_work, max_distribution_work, max_distribution_mib
            ),
        )
    )
