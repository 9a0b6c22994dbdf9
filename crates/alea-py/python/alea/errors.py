"""The exceptions that alea raises. Every one is an :class:`AleaError`."""

from __future__ import annotations


class AleaError(Exception):
    """Base class of alea's exceptions."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InputError(AleaError, ValueError):
    """Bad input: a deal, a tower, a model or a property that cannot be read.

    ``line`` and ``column`` (1-based, as the command line counts them: bytes in the
    judges' formats, characters in PRISM text) say where, when the input has
    a place; ``source`` names the text (``"<text>"``, a file name, ``"--prop"``).
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.source = source

    def __str__(self) -> str:
        where = ":".join(str(x) for x in (self.source, self.line, self.column) if x is not None)
        return f"{where}: {self.message}" if where else self.message


class LimitError(AleaError, RuntimeError):
    """A resource guard stopped the work. ``limit`` names the keyword argument that
    raises it (``"max_states"``, ``"precision"``, ...)."""

    def __init__(self, message: str, *, limit: str) -> None:
        super().__init__(message)
        self.limit = limit


class ModelError(AleaError, ValueError):
    """A game or model the engine cannot evaluate as described: a chance node without
    successors, a game that never ends, a cycle through a maximising choice asked of a
    solver that takes none."""


__all__ = ["AleaError", "InputError", "LimitError", "ModelError"]
