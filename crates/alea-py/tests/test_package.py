"""The package as a whole: what it exports, its exceptions."""

from __future__ import annotations

import alea


def test_version_matches_the_command_line(cli) -> None:
    assert cli.text("--version").split() == ["alea", alea.__version__]


def test_input_error_carries_its_place() -> None:
    e = alea.InputError("expected a card", line=3, column=7, source="<text>")
    assert (e.line, e.column, e.source) == (3, 7, "<text>")
    assert str(e) == "<text>:3:7: expected a card"
    assert isinstance(e, ValueError) and isinstance(e, alea.AleaError)


def test_limit_error_names_its_limit() -> None:
    e = alea.LimitError("too many states", limit="max_states")
    assert e.limit == "max_states"
    assert isinstance(e, RuntimeError) and isinstance(e, alea.AleaError)


def test_every_public_name_is_documented() -> None:
    for name in alea.__all__:
        if name.startswith("__"):
            continue
        assert getattr(alea, name).__doc__, name
