"""alea.yahtzee against ``alea yahtzee``: the judge's assignment on its fixtures, and the
solitaire table's value, advice, simulation and distribution on a few positions and
seeds, with bad input placed as the command line places it."""

from __future__ import annotations

import dataclasses
import math
import pathlib
import threading
import time

import pytest

import alea
from alea import yahtzee

# Late in the game: full house and chance open, the Yahtzee box holding 50.
LATE = (
    "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=12,three-of-a-kind=22,"
    "four-of-a-kind=0,small-straight=30,large-straight=0,yahtzee=50"
)
# Only chance open.
CHANCE = (
    "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=0,"
    "four-of-a-kind=0,full-house=0,small-straight=0,large-straight=0,yahtzee=0"
)
# The command line's timings, which no two runs share.
TIMES = ("seconds", "play_seconds", "games_per_second")


@pytest.fixture(scope="module")
def table() -> yahtzee.Table:
    """The free-joker table, solved once for the module."""
    return yahtzee.Table()


@pytest.fixture(scope="module")
def saved(cli, tmp_path_factory) -> pathlib.Path:
    """The command line's free-joker table, saved: its advice and games read it instead
    of solving in every call."""
    path = tmp_path_factory.mktemp("yahtzee") / "free.table"
    cli.text("yahtzee", "solve", "--save", str(path))
    return path


def as_json(result: object) -> dict:
    """A result as the command line's JSON object: tuples as lists, percentile keys as
    strings, the timings dropped."""

    def plain(v: object) -> object:
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return {f.name: plain(getattr(v, f.name)) for f in dataclasses.fields(v)}
        if isinstance(v, (tuple, list)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        return v

    o = plain(result)
    assert isinstance(o, dict)
    for key in TIMES:
        o.pop(key, None)
    return o


def cli_json(cli, *args: str) -> dict:
    [o] = cli.json(*args, "--json")
    for key in TIMES:
        o.pop(key, None)
    return o


def option_json(o: yahtzee.Option) -> dict:
    if o.keep is not None:
        return {"keep": list(o.keep), "value": o.value, "loss": o.loss}
    return {"box": o.box, "points": o.points, "earned": o.earned, "value": o.value, "loss": o.loss}


def advice_json(a: yahtzee.Advice) -> dict:
    o = as_json(a)
    o["options"] = [option_json(x) for x in a.options]
    return o


# --- the judge's assignment -------------------------------------------------------


@pytest.mark.parametrize("name", ["sample.in", "known.in"])
def test_assign_matches_the_command_line(cli, data, name) -> None:
    path = data / "yahtzee" / name
    expected = cli.json("yahtzee", str(path), "--json")
    got = yahtzee.assign(path.read_text())
    assert len(got) == len(expected) > 0
    for a, o in zip(got, expected):
        assert list(a.scores) == o["scores"]
        assert (a.bonus, a.total) == (o["bonus"], o["total"])
        assert list(a.rounds) == o["rounds"]
        assert a.by_category == o["by_category"]
    # Bytes and a path read the same.
    assert yahtzee.assign(path.read_bytes()) == got
    assert yahtzee.assign(path) == got


def test_assign_known_totals(data) -> None:
    games = yahtzee.assign((data / "yahtzee" / "known.in").read_bytes())
    totals = (data / "yahtzee" / "known_totals.out").read_text().split()
    assert [str(g.total) for g in games] == totals


def test_strict_full_house(cli) -> None:
    text = "6 6 6 6 6\n" * 13
    for strict in (False, True):
        args = ["yahtzee", "--json"] + (["--strict-full-house"] if strict else [])
        [o] = cli.json(*args, input=text)
        [a] = yahtzee.assign(text, strict_full_house=strict)
        assert (list(a.scores), a.total) == (o["scores"], o["total"])
    assert yahtzee.assign("") == []
    assert yahtzee.CATEGORIES[0] == "ones" and len(yahtzee.CATEGORIES) == 13


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("1 2 3 4 7\n", 1, 9),
        ("1 2 3 4 5\n" * 12 + "\n  1 2 x 4 5\n", 14, 7),
        ("1 2 3 4\n", 2, 1),
    ],
)
def test_assign_errors_are_placed(cli, text, line, column) -> None:
    with pytest.raises(alea.InputError) as e:
        yahtzee.assign(text)
    assert (e.value.line, e.value.column, e.value.source) == (line, column, "<text>")
    done = cli_fails(cli, "yahtzee", input=text)
    assert f"error: <stdin>:{line}:{column}: {e.value.message}" in done


def cli_fails(cli, *args: str, input: str = "") -> str:
    import subprocess

    done = subprocess.run([str(cli.path), *args], input=input, capture_output=True, text=True)
    assert done.returncode == 2, done
    return done.stderr


def test_assign_argument_errors() -> None:
    with pytest.raises(TypeError):
        yahtzee.assign(12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        yahtzee.assign("", strict_full_house=1)  # type: ignore[arg-type]


# --- the solitaire table ----------------------------------------------------------


def test_value_matches_solve(cli, table) -> None:
    o = cli_json(cli, "yahtzee", "solve")
    v = table.value
    assert v.rules == table.rules == o["rules"] == "free-joker"
    assert v.expected_score == o["expected_score"]
    assert v.std_dev == o["std_dev"]
    assert v.states == o["states"] == 536_320
    assert v.seconds >= 0
    assert round(v.expected_score, 7) == 254.5896095
    assert repr(table) == "Table(rules='free-joker')"


def test_tables_are_solved_once(table) -> None:
    began = time.monotonic()
    again = yahtzee.Table("free-joker")
    assert time.monotonic() - began < 0.1
    assert again == table
    assert again.value.expected_score == table.value.expected_score


def test_rules_and_their_errors() -> None:
    assert yahtzee.RULES == ("free-joker", "forced-joker", "no-joker", "no-bonus")
    with pytest.raises(ValueError, match="free-joker, forced-joker, no-joker, no-bonus"):
        yahtzee.Table("jokers")
    with pytest.raises(TypeError):
        yahtzee.Table(3)  # type: ignore[arg-type]


def test_save_and_load_with_the_command_line(cli, table, saved, tmp_path) -> None:
    # The command line's file reads back as the same table.
    loaded = yahtzee.Table.load(saved)
    assert loaded == table and loaded.rules == "free-joker"
    assert yahtzee.Table.load(str(saved), rules="free-joker") == table
    # A file written here is byte for byte the command line's, and it reads it.
    mine = tmp_path / "mine.table"
    table.save(mine)
    assert mine.read_bytes() == saved.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["mine.table"]
    o = cli_json(cli, "yahtzee", "advise", "--table", str(mine), "--dice", "3,3,5,1,6")
    assert o == advice_json(table.advise(dice="3,3,5,1,6"))


def test_load_refuses_what_the_command_line_refuses(cli, saved, tmp_path) -> None:
    with pytest.raises(alea.InputError, match="a table for free-joker, but rules no-bonus was asked for"):
        yahtzee.Table.load(saved, rules="no-bonus")
    data = saved.read_bytes()
    cases = {
        "flipped": data[: len(data) // 2] + bytes([data[len(data) // 2] ^ 1]) + data[len(data) // 2 + 1 :],
        "short": data[:-8],
        "foreign": b"ones=3\n",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(alea.InputError) as e:
            yahtzee.Table.load(path)
        assert e.value.source == str(path)
        assert f"error: {path}: {e.value.message}" in cli_fails(cli, "yahtzee", "advise", "--table", str(path))
    with pytest.raises(FileNotFoundError):
        yahtzee.Table.load(tmp_path / "missing.table")
    with pytest.raises(IsADirectoryError):
        yahtzee.Table.load(tmp_path)


POSITIONS = [
    {},
    {"dice": "3,3,5,1,6"},
    {"dice": "6,6,6,6,6"},
    {"dice": "1,2,3,4,6", "rolls_left": 1},
    {"card": "ones=3,sixes=24,full-house=25,yahtzee=0", "dice": "2,3,4,5,5", "rolls_left": 0},
    {"card": "yahtzee=50,sixes=18", "dice": "6,6,6,6,6", "rolls_left": 0},
    {"card": LATE},
    {"card": LATE, "dice": "6,6,6,6,2", "rolls_left": 1},
    {"card": CHANCE, "dice": "6,6,5,1,2", "rolls_left": 0},
]


def cli_args(position: dict) -> list[str]:
    args = []
    for key, value in position.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


@pytest.mark.parametrize("position", POSITIONS)
def test_advise_matches_the_command_line(cli, saved, table, position) -> None:
    o = cli_json(cli, "yahtzee", "advise", "--table", str(saved), *cli_args(position))
    a = table.advise(**position)
    assert advice_json(a) == o
    if a.options:
        assert a.best == a.options[0] and a.best.loss == 0 and a.best.value == a.value


def test_advise_in_python_forms(table) -> None:
    text = table.advise(card="ones=3,full-house=25", dice="3,3,5,1,6", rolls_left=1)
    assert table.advise(card={"ones": 3, "full_house": 25}, dice=[3, 3, 5, 1, 6], rolls_left=1) == text
    assert table.advise(card={"full-house": 25, "ones": 3}, dice=(6, 5, 3, 3, 1), rolls_left=1) == text
    assert text.dice == (1, 3, 3, 5, 6)
    assert text.rolls_left == 1 and text.card_points == 28 and text.upper_total == 3
    start = table.advise()
    assert start.options == () and start.best is None
    assert start.value == table.value.expected_score
    assert start.dice is None and start.rolls_left is None
    assert table.advise(card=CHANCE).value == pytest.approx(70 / 3, abs=1e-12)
    full = CHANCE + ",chance=20"
    assert table.advise(card=full).value == 0


@pytest.mark.parametrize(
    ("kwargs", "source", "column"),
    [
        ({"card": "ones=1,,twos=2"}, "--card", 8),
        ({"card": "ones=1, twos= 3"}, "--card", 15),
        ({"card": "ones=3,fulhouse=25"}, "--card", 8),
        ({"card": "ones=3,ones=2"}, "--card", 8),
        ({"dice": "1,2,3,4,"}, "--dice", 9),
        ({"dice": "1,2,3,4,7"}, "--dice", 9),
        ({"dice": "1,2,3,4,5,6"}, "--dice", 11),
    ],
)
def test_bad_positions_are_placed(cli, saved, table, kwargs, source, column) -> None:
    with pytest.raises(alea.InputError) as e:
        table.advise(**kwargs)
    assert (e.value.source, e.value.line, e.value.column) == (source, 1, column)
    stderr = cli_fails(cli, "yahtzee", "advise", "--table", str(saved), *cli_args(kwargs))
    assert f"error: {source}:1:{column}: {e.value.message}" in stderr


def test_bad_positions_in_python_forms(table) -> None:
    with pytest.raises(alea.InputError, match="unknown box `fulhouse`") as e:
        table.advise(card={"fulhouse": 25})
    assert (e.value.source, e.value.line, e.value.column) == ("--card", None, None)
    with pytest.raises(alea.InputError, match="7 is not a possible score of ones"):
        table.advise(card={"ones": 7})
    with pytest.raises(alea.InputError, match="expected five dice, found 4"):
        table.advise(dice=[1, 2, 3, 4])
    with pytest.raises(alea.InputError, match="expected a die from 1 to 6, found `0`"):
        table.advise(dice=[1, 2, 3, 4, 0])
    with pytest.raises(alea.InputError, match="the card is full"):
        table.advise(card=CHANCE + ",chance=20", dice="1,2,3,4,5")
    with pytest.raises(TypeError):
        table.advise(card=["ones=3"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        table.advise(card={"ones": "3"})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        table.advise(dice=[1, 2, 3, 4, 5.0])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        table.advise(dice=12345)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rolls_left"):
        table.advise(dice="1,2,3,4,5", rolls_left=3)
    with pytest.raises(ValueError, match="rolls_left"):
        table.advise(rolls_left=1)


@pytest.mark.parametrize(
    ("games", "seed", "position"),
    [
        (3000, 1, {}),
        (2000, 7, {"dice": "6,6,6,6,6", "rolls_left": 1}),
        (500, 12345678901234, {"card": LATE}),
        (1, 3, {"card": "ones=3", "dice": "6,6,6,6,2", "rolls_left": 2}),
    ],
)
def test_simulate_matches_the_command_line(cli, saved, table, games, seed, position) -> None:
    o = cli_json(
        cli, "yahtzee", "simulate", "--table", str(saved),
        "--games", str(games), "--seed", str(seed), *cli_args(position),
    )
    s = table.simulate(games, seed=seed, **position)
    assert as_json(s) == o
    assert s.games == games and sum(s.counts) == games
    assert s.play_seconds >= 0 and s.seconds >= s.play_seconds


def test_simulate_is_seeded(table) -> None:
    a = table.simulate(2000, seed=5)
    assert a.counts == table.simulate(2000, seed=5).counts
    assert a.counts != table.simulate(2000, seed=6).counts
    assert table.simulate(2000).seed == 1


def test_simulate_arguments(table) -> None:
    with pytest.raises(alea.LimitError) as e:
        table.simulate(11, max_games=10)
    assert e.value.limit == "max_games"
    with pytest.raises(ValueError):
        table.simulate(0)
    with pytest.raises(ValueError):
        table.simulate(10, seed=-1)
    with pytest.raises(TypeError):
        table.simulate(10.5)  # type: ignore[arg-type]
    with pytest.raises(alea.InputError) as e2:
        table.simulate(10, card="ones=x")
    assert (e2.value.source, e2.value.column) == ("--card", 6)


@pytest.mark.parametrize(
    "args",
    [
        {"games": 5000, "seed": 9, "targets": "200,300"},
        {"card": LATE, "targets": [250, 0, 400]},
        {"card": LATE, "dice": "6,6,6,6,2", "rolls_left": 1},
        {"card": LATE, "simulate": True, "games": 3000},
        {"card": "ones=3", "dice": "6,6,6,6,2", "rolls_left": 1, "games": 2000},
        {"card": CHANCE + ",chance=20"},
    ],
)
def test_distribution_matches_the_command_line(cli, saved, table, args) -> None:
    cli_args_ = ["--table", str(saved)]
    for key, value in args.items():
        if key == "simulate":
            cli_args_.append("--simulate")
        elif key == "targets":
            cli_args_ += ["--target", value if isinstance(value, str) else ",".join(map(str, value))]
        else:
            cli_args_ += ["--" + key.replace("_", "-"), str(value)]
    o = cli_json(cli, "yahtzee", "distribution", *cli_args_)
    d = table.distribution(**args)
    assert as_json(d) == o
    assert d.exact == (o["games"] is None)
    assert math.isclose(sum(b.probability for b in d.bins), 1, abs_tol=1e-9)


def test_distribution_arguments(cli, saved, table) -> None:
    with pytest.raises(alea.InputError) as e:
        table.distribution(card=LATE, targets="250,,300")
    assert (e.value.source, e.value.line, e.value.column) == ("--target", 1, 5)
    stderr = cli_fails(cli, "yahtzee", "distribution", "--table", str(saved), "--card", LATE, "--target", "250,,300")
    assert f"error: --target:1:5: {e.value.message}" in stderr
    with pytest.raises(alea.InputError, match="at least 0, not -5"):
        table.distribution(card=LATE, targets=[-5])
    with pytest.raises(alea.LimitError) as limit:
        table.distribution(games=20_000_000)
    assert limit.value.limit == "max_games"
    # Exact distributions play no games: the guard does not apply.
    assert table.distribution(card=LATE, games=20_000_000).exact
    with pytest.raises(TypeError):
        table.distribution(card=LATE, targets=250)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        table.distribution(card=LATE, simulate=1)  # type: ignore[arg-type]


def test_simulation_releases_the_interpreter(table) -> None:
    ticks = 0
    stop = threading.Event()

    def tick() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        table.simulate(200_000, seed=2)
    finally:
        stop.set()
        t.join()
    assert ticks > 5
