"""The package as a whole: what it exports, its exceptions."""

from __future__ import annotations

import inspect
import subprocess
import sys

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


def public_names():
    """Every public name of the package and of its public modules, with its owner."""
    for name in alea.__all__:
        if name.startswith("__"):
            continue
        value = getattr(alea, name)
        yield f"alea.{name}", value
        if inspect.ismodule(value):
            assert value.__doc__, f"alea.{name}"
            for inner in value.__all__:
                yield f"alea.{name}.{inner}", getattr(value, inner)


def test_every_public_name_is_documented() -> None:
    undocumented = []
    for name, value in public_names():
        if not (inspect.isclass(value) or inspect.isfunction(value) or inspect.ismodule(value)):
            continue  # constants and type aliases
        if not inspect.getdoc(value):
            undocumented.append(name)
        if inspect.isclass(value):
            for member, attr in vars(value).items():
                if member.startswith("_") or not (inspect.isfunction(attr) or isinstance(attr, property)):
                    continue
                if not inspect.getdoc(attr):
                    undocumented.append(f"{name}.{member}")
    assert not undocumented, undocumented


def test_importing_alea_needs_no_numpy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, alea; sys.exit('numpy' in sys.modules)"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
