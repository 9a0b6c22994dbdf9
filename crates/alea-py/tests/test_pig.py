"""alea.pig against ``alea pig``: the first player's chance for several goals and dice,
exact for small goals, hints, the policy, the best answer to hold-at-H, and the guards
and argument errors."""

from __future__ import annotations

import dataclasses
import subprocess
import time
from fractions import Fraction

import pytest

import alea
from alea import pig


def fraction(text: str) -> Fraction:
    return Fraction(text)


def game_args(goal: int, faces: int | None = None, piglet: bool = False) -> list[str]:
    args = ["--goal", str(goal)]
    if faces is not None:
        args += ["--faces", str(faces)]
    if piglet:
        args.append("--piglet")
    return args


def cli_fails(cli, *args: str, status: int = 2) -> str:
    done = subprocess.run([str(cli.path), *args], capture_output=True, text=True)
    assert done.returncode == status, done
    return done.stderr


@pytest.mark.parametrize(
    ("goal", "faces", "piglet"),
    [(100, None, False), (1, None, False), (30, None, False), (50, 4, False), (40, 2, False), (25, None, True)],
)
def test_solve_matches_the_command_line(cli, goal, faces, piglet) -> None:
    [o] = cli.json("pig", *game_args(goal, faces, piglet), "--json")
    s = pig.solve(goal, faces=faces, piglet=piglet)
    assert dataclasses.asdict(s) == {**o, "first_player_wins_exact": None}
    assert 0 <= s.error_bound < 1e-12


@pytest.mark.parametrize(
    ("goal", "faces", "piglet"),
    [(20, None, False), (10, None, True), (3, None, True), (2, None, True), (1, 2, False), (12, 3, False)],
)
def test_exact_solve_matches_the_command_line(cli, goal, faces, piglet) -> None:
    [o] = cli.json("pig", *game_args(goal, faces, piglet), "--exact", "--json")
    s = pig.solve(goal, faces=faces, piglet=piglet, exact=True)
    assert s.first_player_wins_exact == fraction(o["first_player_wins_exact"])
    assert s.first_player_wins == o["first_player_wins"]
    assert (s.error_bound, s.states) == (0.0, o["states"])
    assert isinstance(s.first_player_wins_exact, Fraction)


def test_the_published_figures() -> None:
    assert f"{pig.solve().first_player_wins:.15f}" == "0.530592725273747"
    assert pig.solve(20, exact=True).first_player_wins_exact == Fraction(15116544, 24557443)
    assert pig.solve(2, piglet=True, exact=True).first_player_wins_exact == Fraction(4, 7)


@pytest.mark.parametrize(
    ("me", "opponent", "turn", "goal", "exact"),
    [
        (41, 49, 27, 100, False),
        (41, 49, 22, 100, False),
        (0, 0, 2, 100, False),
        (90, 95, 5, 100, False),
        (5, 7, 4, 20, True),
        (0, 0, 10, 20, True),
    ],
)
def test_hint_matches_the_command_line(cli, me, opponent, turn, goal, exact) -> None:
    args = ["pig", "hint", "--me", str(me), "--opponent", str(opponent), "--turn", str(turn), "--goal", str(goal)]
    if exact:
        args.append("--exact")
    [o] = cli.json(*args, "--json")
    h = pig.hint(me, opponent, turn, goal=goal, exact=exact)
    got = dataclasses.asdict(h)
    for key in ("roll_exact", "hold_exact", "loss_exact"):
        value = got.pop(key)
        if exact:
            assert value == fraction(o.pop(key))
        else:
            assert value is None
    assert got == o


def test_a_game_answers_many_hints(cli) -> None:
    began = time.monotonic()
    game = pig.Pig()
    assert (game.goal, game.faces, game.piglet, game.exact) == (100, 6, False, False)
    assert repr(game) == "Pig(goal=100, faces=6, exact=False)"
    assert game.first_player_wins == pig.solve().first_player_wins
    hints = [game.hint(me, 10, 20) for me in range(0, 80)]
    assert time.monotonic() - began < 30
    assert hints[41] == pig.hint(41, 10, 20)
    assert game.solution == pig.solve()
    # 41 against 49 holds at 22 to 26, throws at 27, holds from 28.
    assert [game.hint(41, 49, k).best for k in (21, 22, 26, 27, 28)] == ["roll", "hold", "hold", "roll", "hold"]
    coin = pig.Pig(6, piglet=True, exact=True)
    assert coin.faces is None and coin.piglet and coin.exact
    assert coin.hint(0, 0, 1).roll_exact is not None


@pytest.mark.parametrize(
    ("goal", "piglet", "exact"),
    [(100, False, False), (6, True, False), (6, True, True), (10, True, True), (25, False, False)],
)
def test_policy_matches_the_command_line(cli, goal, piglet, exact) -> None:
    args = ["pig", "policy", *game_args(goal, piglet=piglet)]
    if exact:
        args.append("--exact")
    [o] = cli.json(*args, "--json")
    p = pig.policy(goal, piglet=piglet, exact=exact)
    assert p.goal == o["goal"]
    assert [list(row) for row in p.threshold] == o["threshold"]
    assert [
        {"me": e.me, "opponent": e.opponent, "holds": [list(r) for r in e.holds]} for e in p.exceptions
    ] == o["exceptions"]
    assert [{"me": i, "opponent": j, "turn": k} for i, j, k in p.uncertain] == o["uncertain"]


def test_policy_holds() -> None:
    p = pig.policy()
    assert [p.holds(41, 49, k) for k in (21, 22, 26, 27, 28)] == [False, True, True, False, True]
    assert any((e.me, e.opponent) == (41, 49) for e in p.exceptions)
    assert p.holds(0, 0, p.threshold[0][0]) and not p.holds(0, 0, p.threshold[0][0] - 1)


@pytest.mark.parametrize(
    ("hold_at", "goal", "exact"),
    [(20, 100, False), ("hold-at-25", 100, False), (20, 10, True), (3, 15, True)],
)
def test_against_matches_the_command_line(cli, hold_at, goal, exact) -> None:
    h = hold_at if isinstance(hold_at, str) else f"hold-at-{hold_at}"
    args = ["pig", "--against", h, "--goal", str(goal)]
    if exact:
        args.append("--exact")
    [o] = cli.json(*args, "--json")
    a = pig.against(hold_at, goal, exact=exact)
    got = dataclasses.asdict(a)
    for key in ("moving_first_exact", "moving_second_exact"):
        value = got.pop(key)
        assert value == (fraction(o.pop(key)) if exact else None)
    assert got == o


def test_guards_raise_limit_errors(cli) -> None:
    with pytest.raises(alea.LimitError) as e:
        pig.solve(2000)
    assert e.value.limit == "max_work"
    assert "raise max_work" in str(e.value)
    cli_fails(cli, "pig", "--goal", "2000", status=3)
    with pytest.raises(alea.LimitError) as e:
        pig.policy(30, max_work=1000)
    assert e.value.limit == "max_work"
    with pytest.raises(alea.LimitError) as e:
        pig.against(20, max_work=1_000_000)
    assert e.value.limit == "max_work"
    with pytest.raises(alea.LimitError) as e:
        pig.hint(0, 0, 2, max_work=10)
    assert e.value.limit == "max_work"
    with pytest.raises(alea.LimitError) as e:
        pig.solve(20, exact=True, max_exact_work=1000)
    assert e.value.limit == "max_exact_work"
    cli_fails(cli, "pig", "--goal", "20", "--exact", "--max-exact-work", "1000", status=3)
    with pytest.raises(alea.LimitError) as e:
        pig.Pig(20, exact=True, max_exact_work=1000)
    assert e.value.limit == "max_exact_work"


def test_argument_errors(cli) -> None:
    with pytest.raises(ValueError, match="faces: a die has 2 to 1000000 faces, not 1"):
        pig.solve(faces=1)
    assert "error: --faces: a die has 2 to 1000000 faces, not 1" in cli_fails(cli, "pig", "--faces", "1")
    with pytest.raises(ValueError, match="goal: the goal is 1 to 1000000, not 0"):
        pig.solve(0)
    with pytest.raises(ValueError, match="goal: the goal is 1 to 1000000, not 5000000000"):
        pig.solve(5_000_000_000)
    with pytest.raises(ValueError):
        pig.solve(-3)
    with pytest.raises(ValueError):
        pig.solve(10, faces=6, piglet=True)
    with pytest.raises(TypeError):
        pig.solve(10.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        pig.solve(10, exact="yes")  # type: ignore[arg-type]
    for bad in ("hold-at-0", "hold-20", "hold-at-x", 0):
        with pytest.raises(ValueError):
            pig.against(bad)
    with pytest.raises(TypeError):
        pig.against(2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("position", "kwargs", "cli_message"),
    [
        ((0, 0, 0), {}, "--turn 0: a turn starts with a throw"),
        ((0, 0, 1), {}, "--turn 1: no turn reaches that total"),
        ((0, 0, 5), {"faces": 2}, "--turn 5: no turn reaches that total (with a 2-sided die a turn total is even)"),
        ((100, 0, 2), {}, "--me 100: a banked score is below the goal (100)"),
        ((0, 100, 2), {}, "--opponent 100: a banked score is below the goal (100)"),
        ((95, 0, 5), {}, "reaches the goal (100), so the player has already won"),
    ],
)
def test_bad_positions(cli, position, kwargs, cli_message) -> None:
    me, opponent, turn = position
    args = ["pig", "hint", "--me", str(me), "--opponent", str(opponent), "--turn", str(turn)]
    if "faces" in kwargs:
        args += ["--faces", str(kwargs["faces"])]
    assert cli_message in cli_fails(cli, *args)
    python_message = cli_message.replace("--", "")
    with pytest.raises(ValueError) as e:
        pig.hint(me, opponent, turn, **kwargs)
    assert python_message.split(":")[-1].strip() in str(e.value)
    assert not isinstance(e.value, alea.LimitError)
    game = pig.Pig(100, **kwargs)
    with pytest.raises(ValueError):
        game.hint(me, opponent, turn)
    with pytest.raises(ValueError):
        game.hint(-1, 0, 2)
    with pytest.raises(TypeError):
        game.hint("1", 0, 2)  # type: ignore[arg-type]


def test_a_bad_position_is_refused_before_the_solve() -> None:
    began = time.monotonic()
    with pytest.raises(ValueError, match="a turn starts with a throw"):
        pig.hint(0, 0, 0, goal=500)
    assert time.monotonic() - began < 0.5


def test_a_huge_turn_total_is_refused_not_a_crash() -> None:
    # The banked score plus the turn total would overflow 64 bits.
    for kwargs in ({}, {"piglet": True}):
        with pytest.raises(ValueError, match="reaches the goal"):
            alea.pig.hint(1, 0, 2**64 - 1, **kwargs)
