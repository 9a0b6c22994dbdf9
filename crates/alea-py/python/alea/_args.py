"""Checks and conversions of arguments that every module shares."""

from __future__ import annotations

import operator
from fractions import Fraction


def fraction(pair: tuple[int, int] | None) -> Fraction | None:
    """An exact value from the native module's (numerator, denominator) pair."""
    return None if pair is None else Fraction(*pair)


def text(value: object, what: str) -> bytes:
    """Input text as bytes (the parsers read bytes, so that noise has a place)."""
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be str or bytes, not {type(value).__name__}")


def flag(name: str, value: object) -> bool:
    """A True-or-False argument; 0 and 1 are refused, as they are likely a mistake."""
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected True or False, not {type(value).__name__}")
    return value


def whole(value: object, name: str, *, least: int = 0, below: int = 1 << 64) -> int:
    """An integer argument from `least` on and below `below` (any int-like but bool)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not bool")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if n < least:
        raise ValueError(f"{name} must be at least {least}, not {n}")
    if n >= below:
        raise ValueError(f"{name} must be below {below}, not {n}")
    return n
