"""alea.dice against ``alea dice``: the judge's sample, any dice, exact fractions, the
distribution, the fallback beyond floating point, bad input, the guards."""

from __future__ import annotations

import math
import re
import subprocess
import warnings
from fractions import Fraction

import pytest

import alea
from alea import dice


def fraction(text: str) -> Fraction:
    p, q = text.split("/")
    return Fraction(int(p), int(q))


def decimal(q: Fraction, places: int = 15) -> str:
    """``q`` with ``places`` decimals, rounded half up."""
    digits = str((q * 10**places * 2 + 1) // 2).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}"


def cli_failure(cli, args: list[str], input: bytes = b"") -> tuple[int, str]:
    """The exit status and the error line of a command that fails."""
    done = subprocess.run([str(cli.path), *args], input=input, capture_output=True, timeout=600)
    assert done.returncode != 0, done.stdout
    return done.returncode, done.stderr.decode().strip()


def as_json(e: dice.Expectation) -> dict:
    """The fields ``alea dice --json`` prints."""
    o: dict = {"expected_throws": e.expected_throws if math.isfinite(e.expected_throws) else None}
    if e.expected_throws_exact is not None:
        q = e.expected_throws_exact
        o["expected_throws_exact"] = f"{q.numerator}/{q.denominator}"
    if not math.isfinite(e.expected_throws):
        o["expected_throws_decimal"] = e.expected_throws_decimal
    if e.distribution is not None:
        o["distribution"] = list(e.distribution)
    return o


def test_the_sample_gives_the_judges_answer(cli, data) -> None:
    path = data / "dice" / "sample.in"
    got = dice.analyse(path.read_text())
    want = (data / "dice" / "sample.out").read_text()
    assert "".join(f"{e.expected_throws_decimal}\n" for e in got) == want
    assert [as_json(e) for e in got] == cli.json("dice", "--json", str(path))
    assert all(e.expected_throws_exact is None and e.distribution is None for e in got)
    assert dice.analyse(path.read_bytes()) == got


@pytest.mark.parametrize(
    "flags",
    [["--exact"], ["--distribution", "40"], ["--exact", "--distribution", "7"]],
)
def test_exact_and_distribution_are_the_json(cli, data, flags) -> None:
    path = data / "dice" / "sample.in"
    exact = "--exact" in flags
    distribution = int(flags[-1]) if "--distribution" in flags else None
    got = dice.analyse(path.read_text(), exact=exact, distribution=distribution)
    assert [as_json(e) for e in got] == cli.json("dice", "--json", *flags, str(path))
    if exact:
        assert [e.expected_throws_exact for e in got] == [Fraction(8, 7), Fraction(216, 215)]
        text = cli.text("dice", "--exact", str(path)).split()
        assert [e.expected_throws_exact for e in got] == [fraction(q) for q in text]


def test_many_cases_in_any_layout(cli) -> None:
    text = "4 30 2 3 4 1 1 1\n\n 7 6 6 6 6 6 6 12\n5 5 5 5 5 5 100 6 6 6 2 3 4"
    got = dice.analyse(text, exact=True, distribution=5)
    assert [as_json(e) for e in got] == cli.json(
        "dice", "--json", "--exact", "--distribution", "5", "-", input=text
    )
    plain = dice.analyse(text)
    assert "".join(f"{e.expected_throws_decimal}\n" for e in plain) == cli.text(
        "dice", "-", input=text
    )


GAMES = [
    ([4, 5], [(1, 1), (4, 5)], 30),
    ([6, 6, 6], [(1, 1, 1)], 0),
    ([6], [], 100),
    ([100, 2, 7], [(100, 2, 7), (1, 1, 1), (1, 1, 1)], 250),
    ([2, 3, 4, 5, 6, 7, 8, 9], [], 40),
]


@pytest.mark.parametrize("faces, reset, limit", GAMES)
def test_any_dice_as_the_flags_give_them(cli, faces, reset, limit) -> None:
    args = ["dice", "--faces", ",".join(map(str, faces)), "--limit", str(limit)]
    for r in reset:
        args += ["--reset", ",".join(map(str, r))]
    got = dice.expected_throws(faces, limit, reset=reset)
    assert as_json(got) == cli.json(*args, "--json")[0]
    assert got.expected_throws_decimal + "\n" == cli.text(*args)
    exact = dice.expected_throws(faces, limit, reset=reset, exact=True, distribution=12)
    assert as_json(exact) == cli.json(*args, "--json", "--exact", "--distribution", "12")[0]
    assert exact.expected_throws_exact == fraction(cli.text(*args, "--exact").strip())
    # With exact arithmetic the decimal is rounded from the fraction.
    assert exact.expected_throws_decimal == decimal(exact.expected_throws_exact)
    # Any iterables do.
    again = dice.expected_throws(iter(faces), limit, reset=(list(r) for r in reset))
    assert again == got


def test_the_judges_game_through_the_direct_form() -> None:
    e = dice.expected_throws([6, 6, 6], 0, reset=[(1, 1, 1)], exact=True)
    assert e.expected_throws_exact == Fraction(216, 215)
    assert e == dice.analyse("1 0 6 6 6 1 1 1", exact=True)[0]


def test_expectations_beyond_floating_point_are_computed_exactly(cli) -> None:
    # One coin reset on heads, limit 2200: E = 2^1102 - 2.
    args = ["dice", "--faces", "2", "--reset", "1", "--limit", "2200"]
    with pytest.warns(RuntimeWarning, match="too large for floating point"):
        e = dice.expected_throws([2], 2200, reset=[(1,)])
    assert e.expected_throws == math.inf
    assert e.expected_throws_exact == 2**1102 - 2
    assert e.expected_throws_decimal + "\n" == cli.text(*args)
    assert as_json(e) == cli.json(*args, "--json")[0]
    # Asked for exactly, no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert dice.expected_throws([2], 2200, reset=[(1,)], exact=True) == e
    # Past the exact guard it stops instead.
    with pytest.raises(alea.LimitError) as stop:
        dice.expected_throws([2], 2200, reset=[(1,)], max_exact_work=10)
    assert stop.value.limit == "max_exact_work"


BAD = [
    b"2\n0 2 2 2 1 1 1\n",
    b"1\n0 2 1 2 1 1 1\n",
    b"1\n0 2 2 2 1 3 1\n",
    b"1\n0 2 2 2 1 1\n",
    b"1\n0 2 2 2 1 1 1\n5 2 2 2 1 1 1\n",
    b"1\n-4 2 2 2 1 1 1\n",
    b"1\n99999999999999999999 2 2 2 1 1 1\n",
    b"1\n3 2 2 2 1 1 1 junk",
    b"x\n",
    b"",
    b"\xef\xbb\xbf1 0 2 2 101 1 1 1",
]


@pytest.mark.parametrize("text", BAD)
def test_bad_input_is_placed_as_the_command_line_places_it(cli, text) -> None:
    code, stderr = cli_failure(cli, ["dice", "-"], text)
    assert code == 2
    m = re.fullmatch(r"error: <stdin>:(\d+):(\d+): (.*)", stderr, re.S)
    assert m, stderr
    with pytest.raises(alea.InputError) as e:
        dice.analyse(text)
    assert (e.value.line, e.value.column, e.value.message) == (int(m[1]), int(m[2]), m[3])
    assert e.value.source == "<text>"


@pytest.mark.parametrize(
    "faces, reset, message",
    [
        ([6, 1], [], "die 2 has 1 faces"),
        ([4, 5], [(1, 6)], "reset combination 1 puts face 6 on die 2"),
        ([2], [(1,), (2,)], "every outcome of a throw is a reset"),
        ([6] * 9, [], "at most 8 dice"),
        ([], [], "at least one die"),
        ([4, 5], [(1,)], "lists 1 faces"),
    ],
)
def test_games_that_are_not_well_formed_raise_value_error(cli, faces, reset, message) -> None:
    with pytest.raises(ValueError, match=message) as e:
        dice.expected_throws(faces, 10, reset=reset)
    assert not isinstance(e.value, alea.InputError)
    if faces:
        args = ["dice", "--faces", ",".join(map(str, faces)), "--limit", "10"]
        for r in reset:
            args += ["--reset", ",".join(map(str, r))]
        code, stderr = cli_failure(cli, args)
        assert code == 2 and stderr == f"error: {e.value}"


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        dice.analyse(7)
    with pytest.raises(TypeError):
        dice.expected_throws("6,6", 3)
    with pytest.raises(TypeError):
        dice.expected_throws([6, 6], 3, reset=["1,1"])
    with pytest.raises(TypeError):
        dice.expected_throws([6, 6], 3, reset=[1, 1])
    with pytest.raises(TypeError):
        dice.expected_throws([6.0], 3)
    with pytest.raises(ValueError):
        dice.expected_throws([6], -1)
    with pytest.raises(ValueError):
        dice.expected_throws([-6], 1)
    with pytest.raises(ValueError):
        dice.expected_throws([2**40], 1)
    with pytest.raises(ValueError):
        dice.analyse("1 0 6 6 6 1 1 1", distribution=-1)
    with pytest.raises(TypeError):
        dice.analyse("1 0 6 6 6 1 1 1", max_work=1.5)
    with pytest.raises(TypeError):
        dice.expected_throws([6], 3, [(1,)])  # reset is a keyword


@pytest.mark.parametrize(
    "kwargs, flags, limit",
    [
        ({"max_work": 100}, ["--max-work", "100"], "max_work"),
        (
            {"exact": True, "max_exact_work": 100},
            ["--exact", "--max-exact-work", "100"],
            "max_exact_work",
        ),
        (
            {"distribution": 100, "max_distribution_work": 1000},
            ["--json", "--distribution", "100", "--max-distribution-work", "1000"],
            "max_distribution_work",
        ),
        (
            {"distribution": 10**6, "max_distribution_mib": 1},
            ["--json", "--distribution", "1000000", "--max-distribution-mib", "1"],
            "max_distribution_mib",
        ),
    ],
)
def test_the_guards_raise_limit_errors(cli, kwargs, flags, limit) -> None:
    text = "2\n50 6 6 6 1 1 1\n60 6 6 6 1 1 1\n"
    with pytest.raises(alea.LimitError) as e:
        dice.analyse(text, **kwargs)
    assert e.value.limit == limit
    code, stderr = cli_failure(cli, ["dice", *flags, "-"], text.encode())
    assert code == 3
    # The same message, with the arguments named as Python names them.
    cli_message = re.sub(r"--([a-z-]+) (\d+)", lambda m: f"{m[1].replace('-', '_')}={m[2]}", stderr)
    cli_message = cli_message.replace("--max-", "max_").replace("-", "_")
    assert cli_message == "error: " + e.value.message.replace("-", "_")


def test_the_examples_in_the_documentation_run() -> None:
    import doctest

    assert doctest.testmod(dice, raise_on_error=True).attempted > 0
