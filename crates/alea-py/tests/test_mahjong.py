"""alea.mahjong against ``alea mahjong``: every fixture, exact fractions, large hands,
bad input."""

from __future__ import annotations

import pathlib
import re
import subprocess
from fractions import Fraction

import pytest

import alea
from alea import mahjong

# The fixtures, for the cases built from them when the tests are collected.
DATA = pathlib.Path(__file__).resolve().parents[3] / "crates" / "alea-cli" / "tests" / "data"
FIXTURES = ["sample", "known_1", "known_2", "known_3", "known_4", "known_5"]


def as_json(a: mahjong.Analysis) -> dict:
    """The fields ``alea mahjong --json`` prints."""
    o = {
        "ranks": a.ranks,
        "expected_draws_mod_p": a.expected_draws_mod_p,
        "expected_draws": a.expected_draws,
        "p_not_won": list(a.p_not_won),
        "automaton_states": {
            "explored": a.automaton_states.explored,
            "minimal": a.automaton_states.minimal,
        },
    }
    if a.expected_draws_exact is not None:
        q = a.expected_draws_exact
        o["expected_draws_exact"] = f"{q.numerator}/{q.denominator}"
    return o


def spread_hand(n: int) -> str:
    """A hand over ``n`` ranks: 13 ranks spread over them, the first copy of each."""
    return f"{n}\n" + "".join(f"{w * n // 14 + 1} 1\n" for w in range(1, 14))


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("exact", [False, True])
def test_analyse_is_the_json_and_the_judges_answer(cli, data, name, exact) -> None:
    path = data / "mahjong" / f"{name}.in"
    flags = ["--exact"] if exact else []
    a = mahjong.analyse(path.read_text(), exact=exact)
    assert as_json(a) == cli.json("mahjong", "--json", *flags, str(path))[0]
    assert f"{a.expected_draws_mod_p}\n" == (data / "mahjong" / f"{name}.out").read_text()
    assert len(a.p_not_won) == 4 * a.ranks - 13 + 1
    if exact:
        q = a.expected_draws_exact
        assert isinstance(q, Fraction)
        assert f"{q.numerator}/{q.denominator}\n" == cli.text("mahjong", "--exact", str(path))
        # The judge's residue is the fraction's.
        p = 998244353
        assert q.numerator * pow(q.denominator, -1, p) % p == a.expected_draws_mod_p
    else:
        assert a.expected_draws_exact is None
    assert mahjong.analyse(path.read_bytes(), exact=exact) == a


def test_known_fractions(data) -> None:
    want = {"known_2": Fraction(9, 7), "known_3": Fraction(104, 55), "known_5": Fraction(73, 35)}
    for name, q in want.items():
        a = mahjong.analyse((data / "mahjong" / f"{name}.in").read_text(), exact=True)
        assert a.expected_draws_exact == q
        assert a.automaton_states == mahjong.AutomatonStates(explored=2092, minimal=567)


@pytest.mark.parametrize("n", [100, 400])
def test_hands_over_hundreds_of_ranks(cli, n) -> None:
    hand = spread_hand(n)
    flags = ["--exact"] if n == 100 else []
    a = mahjong.analyse(hand, exact=bool(flags))
    assert as_json(a) == cli.json("mahjong", "--json", *flags, "-", input=hand)[0]
    assert cli.text("mahjong", "-", input=hand) == f"{a.expected_draws_mod_p}\n"
    assert 1 < a.expected_draws < 4 * n - 13


def bad_inputs() -> list[str]:
    sample = (DATA / "mahjong" / "sample.in").read_text()
    return [
        "4\n",
        "1001\n",
        sample.replace("5 1", "10 1", 1),
        sample.replace("5 1", "5 0", 1),
        sample.replace("5 1", "1 1", 1),
        sample.replace("9 3\n", "", 1),
        f"{sample}2 2\n",
        "",
        "9 1 1 x",
    ]


@pytest.mark.parametrize("text", bad_inputs())
def test_bad_input_is_placed_as_the_command_line_places_it(cli, text) -> None:
    done = subprocess.run(
        [str(cli.path), "mahjong", "-"], input=text.encode(), capture_output=True, timeout=600
    )
    assert done.returncode == 2
    m = re.fullmatch(r"error: <stdin>:(\d+):(\d+): (.*)", done.stderr.decode().strip(), re.S)
    assert m, done.stderr
    for exact in (False, True):
        with pytest.raises(alea.InputError) as e:
            mahjong.analyse(text, exact=exact)
        assert (e.value.line, e.value.column, e.value.message) == (int(m[1]), int(m[2]), m[3])
        assert e.value.source == "<text>"


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        mahjong.analyse(None)
    with pytest.raises(TypeError):
        mahjong.analyse([9, 1, 1])
    with pytest.raises(TypeError):
        mahjong.analyse("9 1 1", True)  # exact is a keyword


def test_the_examples_in_the_documentation_run() -> None:
    import doctest

    assert doctest.testmod(mahjong, raise_on_error=True).attempted > 0
