"""alea.snakes against ``alea snakes``: the classic board under every rule, boards from
text, exact fractions, the distribution, bad boards, bad arguments, the guards."""

from __future__ import annotations

import math
import re
import subprocess
from fractions import Fraction

import pytest

import alea
from alea import snakes

BOARDS = [
    "20\nladder 3 18\nladder 4 19\n",
    "10 ladder 2 8 snake 9 1",
    "# a board with comments\n30\nladder 2 25 # up\nsnake 29 3\nsnake 17 4\nladder 5 16\n",
    "2",
]


def as_json(a: snakes.Analysis) -> dict:
    """The fields ``alea snakes --json`` prints."""
    o: dict = {"expected_spins": a.expected_spins if math.isfinite(a.expected_spins) else None}
    if not math.isfinite(a.expected_spins):
        o["expected_spins_decimal"] = a.expected_spins_decimal
    if a.expected_spins_exact is not None:
        q = a.expected_spins_exact
        o["expected_spins_exact"] = f"{q.numerator}/{q.denominator}"
    o["squares"] = a.squares
    o["spinner"] = a.spinner
    o["overshoot"] = a.overshoot
    if a.distribution is not None:
        o["distribution"] = list(a.distribution)
    return o


def cli_failure(cli, args: list[str], input: bytes = b"") -> tuple[int, str]:
    """The exit status and the error line of a command that fails."""
    done = subprocess.run([str(cli.path), *args], input=input, capture_output=True, timeout=600)
    assert done.returncode != 0, done.stdout
    return done.returncode, done.stderr.decode().strip()


@pytest.mark.parametrize("overshoot", ["stay", "bounce", "finish"])
@pytest.mark.parametrize("spinner", [6, 2, 11])
def test_the_classic_board_under_every_rule(cli, overshoot, spinner) -> None:
    rules = ["--overshoot", overshoot, "--spinner", str(spinner)]
    a = snakes.analyse(overshoot=overshoot, spinner=spinner)
    assert as_json(a) == cli.json("snakes", "--json", *rules)[0]
    assert a.expected_spins_decimal + "\n" == cli.text("snakes", *rules)
    assert a.expected_spins_exact is None and a.distribution is None
    exact = snakes.analyse(overshoot=overshoot, spinner=spinner, exact=True, distribution=30)
    assert (
        as_json(exact) == cli.json("snakes", "--json", "--exact", "--distribution", "30", *rules)[0]
    )
    q = exact.expected_spins_exact
    assert f"{q.numerator}/{q.denominator}\n" == cli.text("snakes", "--exact", *rules)
    assert exact.expected_spins == a.expected_spins
    assert (a.squares, a.spinner, a.overshoot) == (100, spinner, overshoot)


def test_the_classic_board_by_default(cli) -> None:
    a = snakes.analyse()
    assert a.expected_spins_decimal == "39.225122308234960"
    assert as_json(a) == cli.json("snakes", "--json", "--board", "classic")[0]
    assert snakes.analyse(None, exact=True).expected_spins_exact == Fraction(
        225837582538403273407117496273279920181931269186581786048583,
        5757472998140039232950575874628786131130999406013041613400,
    )


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("overshoot", ["stay", "finish"])
def test_boards_from_text(cli, board, overshoot) -> None:
    args = ["snakes", "-", "--overshoot", overshoot, "--spinner", "2"]
    a = snakes.analyse(board, overshoot=overshoot, spinner=2, exact=True, distribution=15)
    want = cli.json(*args, "--json", "--exact", "--distribution", "15", input=board)[0]
    assert as_json(a) == want
    assert a.expected_spins_decimal + "\n" == cli.text(*args, input=board)
    assert (
        snakes.analyse(board.encode(), overshoot=overshoot, spinner=2, exact=True, distribution=15)
        == a
    )


def test_floating_point_past_the_exact_guard(cli) -> None:
    a = snakes.analyse(max_exact_work=1000)
    assert a.expected_spins_decimal.startswith("39.2251223082349")
    assert a.expected_spins_decimal + "\n" == cli.text("snakes", "--max-exact-work", "1000")
    assert as_json(a) == cli.json("snakes", "--json", "--max-exact-work", "1000")[0]


BAD = [
    "",
    "1",
    "# big\n20000\n",
    "10\nladder 2 7\nsnak 9 4\n",
    "10\nladder 2 7\nsnake 9",
    "10\nladder 2 11\n",
    "10\nladder 2 x7\n",
    "10\n\tsnake 3 8\n",
    "10 ladder 9 10 snake 10 1",
    "10\nladder 2 7\nsnake 2 1\n",
    "10\nladder 2 7\nsnake 7 1\n",
    (
        "# the six squares before the last are snakes\n\n  10\n"
        "snake 4 1 snake 5 1 snake 6 1 snake 7 1 snake 8 1 snake 9 1\n"
    ),
]


@pytest.mark.parametrize("board", BAD)
def test_bad_boards_are_placed_as_the_command_line_places_them(cli, board) -> None:
    code, stderr = cli_failure(cli, ["snakes", "-"], board.encode())
    assert code == 2
    m = re.fullmatch(r"error: <stdin>:(\d+):(\d+): (.*)", stderr, re.S)
    assert m, stderr
    with pytest.raises(alea.InputError) as e:
        snakes.analyse(board)
    assert (e.value.line, e.value.column, e.value.message) == (int(m[1]), int(m[2]), m[3])
    assert e.value.source == "<text>"


def test_a_board_that_may_never_end_under_a_rule(cli) -> None:
    # The ladders from the first six squares lead to 18 and 19; only a bounce off the
    # end reaches 17, whose snake leads to 7, from where every spin lands on a snake
    # back to 7.
    board = (
        "20\n"
        + "".join(f"ladder {s} {18 + s % 2}\n" for s in range(1, 7))
        + "".join(f"snake {s} 7\n" for s in range(8, 14))
        + "snake 17 7\n"
    )
    assert snakes.analyse(board).expected_spins == 7.0
    assert snakes.analyse(board, overshoot="finish", exact=True).expected_spins_exact == Fraction(
        25, 12
    )
    code, stderr = cli_failure(cli, ["snakes", "-", "--overshoot", "bounce"], board.encode())
    assert code == 2
    with pytest.raises(alea.InputError) as e:
        snakes.analyse(board, overshoot="bounce")
    assert stderr == f"error: <stdin>:{e.value.line}:{e.value.column}: {e.value.message}"
    assert "the counter can reach square 7" in e.value.message


def test_bad_arguments(cli) -> None:
    with pytest.raises(ValueError, match="spinner"):
        snakes.analyse(spinner=1)
    with pytest.raises(ValueError, match="spinner"):
        snakes.analyse(spinner=101)
    with pytest.raises(ValueError, match="overshoot"):
        snakes.analyse(overshoot="wrap")
    with pytest.raises(TypeError):
        snakes.analyse(overshoot=None)
    with pytest.raises(TypeError):
        snakes.analyse(spinner=6.0)
    with pytest.raises(TypeError):
        snakes.analyse(100)
    with pytest.raises(ValueError):
        snakes.analyse(distribution=-1)
    with pytest.raises(TypeError):
        snakes.analyse(None, "stay")  # options are keywords only
    # A spinner that could bounce back past the start: the rules, not the board, are wrong.
    with pytest.raises(ValueError, match="could bounce back past the start") as e:
        snakes.analyse("5", overshoot="bounce", spinner=8)
    assert not isinstance(e.value, alea.InputError)
    code, stderr = cli_failure(
        cli, ["snakes", "-", "--overshoot", "bounce", "--spinner", "8"], b"5"
    )
    assert code == 2 and stderr == f"error: {e.value}"


@pytest.mark.parametrize(
    "kwargs, flags, limit",
    [
        (
            {"distribution": 10**7},
            ["--json", "--distribution", "10000000"],
            "max_distribution_work",
        ),
        (
            {"distribution": 10**6, "max_distribution_mib": 10},
            ["--json", "--distribution", "1000000", "--max-distribution-mib", "10"],
            "max_distribution_mib",
        ),
        (
            {"exact": True, "max_exact_work": 1000},
            ["--exact", "--max-exact-work", "1000"],
            "max_exact_work",
        ),
    ],
)
def test_the_guards_raise_limit_errors(cli, kwargs, flags, limit) -> None:
    with pytest.raises(alea.LimitError) as e:
        snakes.analyse(**kwargs)
    assert e.value.limit == limit
    code, stderr = cli_failure(cli, ["snakes", *flags])
    assert code == 3
    numbers = re.findall(r"\d+", e.value.message)
    assert numbers == re.findall(r"\d+", stderr)


def test_beyond_floating_point_needs_exact_arithmetic(cli) -> None:
    # 2^-1066 is the chance of getting through 533 snakes in a row.
    board = "1600\n" + "".join(f"snake {s} 1\n" for s in range(3, 1600, 3))
    with pytest.raises(alea.LimitError) as e:
        snakes.analyse(board, spinner=2)
    assert e.value.limit == "max_exact_work"
    assert e.value.message.startswith("the expected number of spins is beyond the range")
    code, _ = cli_failure(cli, ["snakes", "-", "--spinner", "2"], board.encode())
    assert code == 3


def test_the_examples_in_the_documentation_run() -> None:
    import doctest

    assert doctest.testmod(snakes, raise_on_error=True).attempted > 0
