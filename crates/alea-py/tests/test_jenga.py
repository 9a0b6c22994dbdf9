"""alea.jenga against ``alea jenga``: every fixture, exact fractions, hints, bad input,
the guards."""

from __future__ import annotations

import re
import subprocess
import time
from fractions import Fraction

import pytest

import alea
from alea import jenga
from conftest import ctrl_c_after

KNOWN = [f"known_{i}" for i in range(1, 11)]
FIXTURES = ["sample", *KNOWN]


def text_of(q: Fraction) -> str:
    return f"{q.numerator}/{q.denominator}"


def cli_failure(cli, args: list[str], input: bytes) -> tuple[int, str]:
    """The exit status and the error line of a command that fails."""
    done = subprocess.run([str(cli.path), *args], input=input, capture_output=True, timeout=600)
    assert done.returncode != 0, done.stdout
    return done.returncode, done.stderr.decode().strip()


def analysis_json(a: jenga.Analysis) -> dict:
    o = {"expected_minutes": a.expected_minutes, "states": a.states}
    if a.expected_minutes_exact is not None:
        o["expected_minutes_exact"] = text_of(a.expected_minutes_exact)
    return o


def hints_json(h: jenga.Hints) -> dict:
    def move(m: jenga.Move) -> dict:
        o = {
            "take": {"level": m.level, "slot": m.slot},
            "place": m.place,
            "expected": m.expected,
        }
        if m.expected_exact is not None:
            o["expected_exact"] = text_of(m.expected_exact)
        return o

    o = {
        "expected_minutes": h.expected_minutes,
        "states": h.states,
        "colors": {c: [move(m) for m in moves] for c, moves in h.colors.items()},
    }
    if h.expected_minutes_exact is not None:
        o["expected_minutes_exact"] = text_of(h.expected_minutes_exact)
    return o


@pytest.mark.parametrize("name", FIXTURES)
def test_analyse_is_the_json_and_the_judges_answer(cli, data, name) -> None:
    path = data / "jenga" / f"{name}.in"
    a = jenga.analyse(path.read_text())
    assert analysis_json(a) == cli.json("jenga", "--json", str(path))[0]
    assert f"{a.expected_minutes:.15f}\n" == cli.text("jenga", str(path))
    # The judge's answers, to the 12 decimals they print.
    want = float((data / "jenga" / f"{name}.out").read_text())
    assert abs(a.expected_minutes - want) < 1e-9
    assert jenga.analyse(path.read_bytes()) == a


@pytest.mark.parametrize("name", KNOWN)
def test_exact_is_the_json(cli, data, name) -> None:
    path = data / "jenga" / f"{name}.in"
    a = jenga.analyse(path.read_text(), exact=True)
    assert analysis_json(a) == cli.json("jenga", "--json", "--exact", str(path))[0]
    assert text_of(a.expected_minutes_exact) + "\n" == cli.text("jenga", "--exact", str(path))
    assert abs(float(a.expected_minutes_exact) - a.expected_minutes) < 1e-12


@pytest.mark.parametrize("name", FIXTURES)
def test_hints_are_the_json(cli, data, name) -> None:
    path = data / "jenga" / f"{name}.in"
    h = jenga.hints(path.read_text())
    assert hints_json(h) == cli.json("jenga", "--hint", "--json", str(path))[0]
    assert set(h.colors) == {"R", "G", "B"}
    for moves in h.colors.values():
        assert list(moves) == sorted(moves, key=lambda m: m.expected)


@pytest.mark.parametrize("name", ["known_1", "known_9", "known_10"])
def test_exact_hints_are_the_json(cli, data, name) -> None:
    path = data / "jenga" / f"{name}.in"
    h = jenga.hints(path.read_text(), exact=True)
    assert hints_json(h) == cli.json("jenga", "--hint", "--json", "--exact", str(path))[0]
    assert (
        h.expected_minutes_exact
        == jenga.analyse(path.read_text(), exact=True).expected_minutes_exact
    )
    for moves in h.colors.values():
        assert all(isinstance(m.expected_exact, Fraction) for m in moves)


BAD = [
    b"2\nRGB\nRYB\n",
    b"2\nRGB\nRGBR\n",
    b"3\nRGB\nRGB\n",
    b"1\nRGB\n",
    b"",
    b"2 RGB RGB RGB",
    b"two\nRGB\nRGB\n",
    b"\r\n  2\r\nRGB\r\nRGX\r\n",
]


@pytest.mark.parametrize("text", BAD)
def test_bad_input_is_placed_as_the_command_line_places_it(cli, text) -> None:
    code, stderr = cli_failure(cli, ["jenga", "-"], text)
    assert code == 2
    m = re.fullmatch(r"error: <stdin>:(\d+):(\d+): (.*)", stderr, re.S)
    assert m, stderr
    for call in (jenga.analyse, jenga.hints):
        with pytest.raises(alea.InputError) as e:
            call(text)
        assert (e.value.line, e.value.column, e.value.message) == (int(m[1]), int(m[2]), m[3])
        assert e.value.source == "<text>"


def test_the_state_guard_raises_a_limit_error(cli, data) -> None:
    text = (data / "jenga" / "sample.in").read_text()
    with pytest.raises(alea.LimitError) as e:
        jenga.analyse(text, max_states=1000)
    assert e.value.limit == "max_states"
    assert e.value.message.startswith("the tower needs more than 1000 positions; raise max_states")
    for call in (
        lambda: jenga.analyse(text, exact=True, max_states=1000),
        lambda: jenga.hints(text, max_states=1000),
    ):
        with pytest.raises(alea.LimitError) as e:
            call()
        assert e.value.limit == "max_states"
        assert "positions and choice nodes" in e.value.message
    code, _ = cli_failure(cli, ["jenga", "--max-states", "1000", "-"], text.encode())
    assert code == 3


def test_a_tower_too_tall_for_a_position_raises_a_limit_error(cli) -> None:
    text = "31\n" + "GGG\n" * 31
    for call in (jenga.analyse, jenga.hints):
        with pytest.raises(alea.LimitError) as e:
            call(text)
        assert e.value.limit == "levels"
        assert "more than 30 levels of one kind" in e.value.message
    code, _ = cli_failure(cli, ["jenga", "-"], text.encode())
    assert code == 3


def test_bad_arguments() -> None:
    tower = "2\nRGB\nRGB\n"
    with pytest.raises(TypeError):
        jenga.analyse(None)
    with pytest.raises(TypeError):
        jenga.hints(tower, max_states="many")
    with pytest.raises(ValueError):
        jenga.analyse(tower, max_states=-1)
    with pytest.raises(TypeError):
        jenga.analyse(tower, True)  # options are keywords only
    # A limit beyond any machine's memory is no limit.
    assert jenga.analyse(tower, max_states=10**30).expected_minutes == 8.592


def test_a_long_computation_can_be_interrupted(data) -> None:
    # The sample solved exactly takes seconds; Ctrl-C (here simulated) returns at once.
    text = (data / "jenga" / "sample.in").read_text()
    start = time.monotonic()
    with ctrl_c_after(0.2), pytest.raises(KeyboardInterrupt):
        jenga.analyse(text, exact=True)
    assert time.monotonic() - start < 2


def test_the_examples_in_the_documentation_run() -> None:
    import doctest

    assert doctest.testmod(jenga, raise_on_error=True).attempted > 0
