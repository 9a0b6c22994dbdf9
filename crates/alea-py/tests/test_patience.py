"""alea.patience against ``alea patience``: every fixture, exact fractions, hints, random
deals, positions in progress, bad input and bad arguments."""

from __future__ import annotations

import re
import subprocess
from fractions import Fraction

import pytest

import alea
from alea import patience

FIXTURES = ["sample", "known"]


def fraction(text: str) -> Fraction:
    p, q = text.split("/")
    return Fraction(int(p), int(q))


def cli_failure(cli, args: list[str], input: bytes) -> tuple[int, str]:
    """The exit status and the error line of a command that fails."""
    done = subprocess.run([str(cli.path), *args], input=input, capture_output=True, timeout=600)
    assert done.returncode != 0, done.stdout
    return done.returncode, done.stderr.decode().strip()


def cli_place(stderr: str) -> tuple[int, int, str]:
    m = re.fullmatch(r"error: <stdin>:(\d+):(\d+): (.*)", stderr, re.S)
    assert m, stderr
    return int(m[1]), int(m[2]), m[3]


def analysis_json(a: patience.Analysis) -> dict:
    o = {
        "random_play": a.random_play,
        "solvable": a.solvable,
        "winning_line": None if a.winning_line is None else [list(m) for m in a.winning_line],
        "states": a.states,
        "cards": a.cards,
    }
    if a.random_play_exact is not None:
        q = a.random_play_exact
        o["random_play_exact"] = f"{q.numerator}/{q.denominator}"
    return o


def hints_json(h: patience.Hints) -> dict:
    def move(m: patience.MoveHint) -> dict:
        o = {
            "piles": list(m.piles),
            "random_play": m.random_play,
            "loss": m.loss,
            "solvable": m.solvable,
        }
        if m.random_play_exact is not None:
            q = m.random_play_exact
            o["random_play_exact"] = f"{q.numerator}/{q.denominator}"
        return o

    o = {
        "random_play": h.random_play,
        "solvable": h.solvable,
        "states": h.states,
        "moves": [move(m) for m in h.moves],
    }
    if h.random_play_exact is not None:
        q = h.random_play_exact
        o["random_play_exact"] = f"{q.numerator}/{q.denominator}"
    return o


@pytest.mark.parametrize("name", FIXTURES)
def test_random_play_gives_the_judges_answer(cli, data, name) -> None:
    path = data / "patience" / f"{name}.in"
    text = path.read_text()
    got = patience.random_play(text)
    want = (data / "patience" / f"{name}.out").read_text()
    assert "".join(f"{p:.6f}\n" for p in got) == want
    assert "".join(f"{p:.6f}\n" for p in got) == cli.text("patience", str(path))
    # The same from bytes and from either layout that reads the deals.
    assert patience.random_play(path.read_bytes(), layout="tokens") == got
    exact = patience.random_play(text, exact=True)
    assert exact == [fraction(q) for q in cli.text("patience", "--exact", str(path)).split()]
    assert all(isinstance(q, Fraction) for q in exact)


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("exact", [False, True])
def test_analyse_is_the_json(cli, data, name, exact) -> None:
    path = data / "patience" / f"{name}.in"
    flags = ["--exact"] if exact else []
    want = cli.json("patience", "--json", *flags, str(path))
    got = patience.analyse(path.read_text(), exact=exact)
    assert [analysis_json(a) for a in got] == want
    for a in got:
        assert (a.random_play_exact is not None) == exact
        assert isinstance(a.winning_line, tuple) or a.winning_line is None


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("exact", [False, True])
def test_hints_are_the_json(cli, data, name, exact) -> None:
    path = data / "patience" / f"{name}.in"
    flags = ["--exact"] if exact else []
    want = cli.json("patience", "--hint", "--json", *flags, str(path))
    got = patience.hints(path.read_text(), exact=exact)
    assert [hints_json(h) for h in got] == want
    for h in got:
        for m in h.moves:
            if exact:
                # The loss, exact too: below the best move's chance by exactly it.
                assert m.loss_exact == h.moves[0].random_play_exact - m.random_play_exact
            else:
                assert m.loss_exact is None and m.random_play_exact is None


def test_a_position_in_progress_one_pile_per_line(cli) -> None:
    position = "AS 9S\n-\nAH 9H\n6C 6D\n-\n-\n-\n-\n-\n"
    for layout in ["auto", "lines"]:
        args = ["patience", "--json", "--exact", "--layout", layout, "-"]
        got = patience.analyse(position, exact=True, layout=layout)
        assert [analysis_json(a) for a in got] == cli.json(*args, input=position)
        assert got[0].cards == 6
    hinted = patience.hints(position, layout="lines")
    want = cli.json("patience", "--hint", "--json", "--layout", "lines", "-", input=position)
    assert [hints_json(h) for h in hinted] == want
    assert patience.random_play(position, layout="lines") == patience.random_play(position)
    # Read by cards it is not a deal.
    with pytest.raises(alea.InputError):
        patience.analyse(position, layout="tokens")


def test_no_deals_no_answers(cli) -> None:
    assert patience.analyse("") == []
    assert patience.random_play("\n\n") == []
    assert cli.text("patience", "-", input="") == ""


def test_stats_are_the_json(cli) -> None:
    want = cli.json("patience", "stats", "--deals", "60", "--seed", "3", "--json")[0]
    s = patience.stats(60, 3)
    got = {
        "deals": s.deals,
        "seed": s.seed,
        "mean_random_play": s.mean_random_play,
        "std_dev": s.std_dev,
        "half_width_95": s.half_width_95,
        "winnable": s.winnable,
        "winnable_share": s.winnable_share,
        "histogram": [{"from": b.from_, "to": b.to, "deals": b.deals} for b in s.histogram],
    }
    assert got == want
    one = patience.stats(1, seed=9)
    assert one.half_width_95 is None
    assert (
        cli.json("patience", "stats", "--deals", "1", "--seed", "9", "--json")[0]["half_width_95"]
        is None
    )


def test_shuffle_prints_the_deals_that_stats_uses(cli) -> None:
    text = patience.shuffle(5, seed=11)
    assert text == cli.text("patience", "shuffle", "--deals", "5", "--seed", "11")
    assert patience.shuffle() == cli.text("patience", "shuffle")
    assert patience.shuffle(0) == ""
    # The deals of stats are these: the same mean.
    ps = patience.random_play(text)
    assert patience.stats(5, 11).mean_random_play == pytest.approx(sum(ps) / 5, abs=1e-12)


def test_the_deal_guard_raises_a_limit_error(cli) -> None:
    with pytest.raises(alea.LimitError) as e:
        patience.stats(11, max_deals=10)
    assert e.value.limit == "max_deals"
    with pytest.raises(alea.LimitError) as e:
        patience.shuffle(2**64 - 1)
    assert e.value.limit == "max_deals"
    code, _ = cli_failure(cli, ["patience", "stats", "--deals", "11", "--max-deals", "10"], b"")
    assert code == 3


BAD = [
    b"AS 9S 6C KX\n",
    b"AS 9S\n",
    b"AS 9S\nKD AS\n",
    b"\xff\xfe\x00garbage",
    b"-\n",
    (
        b"AS 9S 6C KS JC QH AC KH 7S QD JD KD QS TS JS 9H 6D TD AD 8S QC TH KC 8D 8C 9D TC"
        b" 7C 9C 7H JH 7D 8H 6S AH 6H\n\n"
        b"AS 9S 6C KS JC QH AC KH 7S QD JD KD QS TS JS 9H 6D TD AD 8S QC TH KC 8D 8C 9D TC"
        b" 7C 9C 7H JH 7D 8H 6S AH AS\n"
    ),
]


@pytest.mark.parametrize("text", BAD)
@pytest.mark.parametrize("layout", ["auto", "tokens", "lines"])
def test_bad_input_is_placed_as_the_command_line_places_it(cli, text, layout) -> None:
    code, stderr = cli_failure(cli, ["patience", "--json", "--layout", layout, "-"], text)
    assert code == 2
    line, column, message = cli_place(stderr)
    for call in (patience.analyse, patience.hints, patience.random_play):
        with pytest.raises(alea.InputError) as e:
            call(text, layout=layout)
        assert (e.value.line, e.value.column, e.value.message) == (line, column, message)
        assert e.value.source == "<text>"
    if layout != "lines":
        # The judge's quick reading falls back to the full one, which says why.
        _, plain = cli_failure(cli, ["patience", "--layout", layout, "-"], text)
        assert cli_place(plain) == (line, column, message)


def test_bad_arguments() -> None:
    deal = "AS 9S 6C KS JC QH AC KH 7S QD JD KD QS TS JS 9H 6D TD AD 8S QC TH KC 8D\n"
    with pytest.raises(ValueError, match="layout"):
        patience.analyse(deal, layout="piles")
    with pytest.raises(TypeError):
        patience.analyse(deal, layout=None)
    with pytest.raises(TypeError):
        patience.random_play(36)
    with pytest.raises(TypeError):
        patience.hints(["AS"])
    with pytest.raises(ValueError):
        patience.stats(-1)
    with pytest.raises(ValueError):
        patience.shuffle(1, seed=2**64)
    with pytest.raises(TypeError):
        patience.shuffle(1.5)
    with pytest.raises(TypeError):
        patience.stats(True)
    with pytest.raises(TypeError):
        patience.analyse(deal, True)  # options are keywords only


def test_the_examples_in_the_documentation_run() -> None:
    import doctest

    assert doctest.testmod(patience, raise_on_error=True).attempted > 0
