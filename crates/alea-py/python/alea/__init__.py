"""alea: exact odds, expected values and best plays of games of chance.

The engine is Rust; this package calls it directly (it never starts the ``alea``
command). The built-in games are submodules (:mod:`alea.patience`, :mod:`alea.dice`,
:mod:`alea.jenga`, :mod:`alea.yahtzee`, :mod:`alea.pig`, :mod:`alea.snakes`,
:mod:`alea.mahjong`); :func:`check` answers PRISM-language models; :func:`solve`
solves a game written in Python.

Results are small frozen classes with the fields of the command line's ``--json``;
exact values are :class:`fractions.Fraction`. Bad input raises :class:`InputError`
(with ``line`` and ``column``), a resource guard :class:`LimitError`.
"""

from __future__ import annotations

from ._alea import __version__
from . import dice, jenga, mahjong, patience, pig, snakes, yahtzee
from .check import Automaton, ChoiceValue, ListedState, ModelSize, PropertyResult, StateValue, check
from .errors import AleaError, InputError, LimitError, ModelError
from .game import Game, Option, Solution, solve

__all__ = [
    "__version__",
    "dice",
    "jenga",
    "mahjong",
    "patience",
    "pig",
    "snakes",
    "yahtzee",
    "check",
    "ChoiceValue",
    "ModelSize",
    "PropertyResult",
    "StateValue",
    "Automaton",
    "ListedState",
    "AleaError",
    "InputError",
    "LimitError",
    "ModelError",
    "Game",
    "Option",
    "Solution",
    "solve",
]
