"""alea.check against `alea check`: every example model and every test model of the
checker, in floating point and exactly, the value and choices at a state, the strategy,
and the errors at the same line and column."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import threading
import time
from fractions import Fraction

import pytest

import alea
from alea.check import ChoiceValue, ModelSize, PropertyResult, StateValue

from conftest import EXAMPLES, ROOT, ctrl_c_after

MODELS = ROOT / "crates" / "alea-prism" / "tests" / "models"
MANIFEST = json.loads((MODELS / "expected.json").read_text())

# Each example model with its properties and the constants its header suggests.
EXAMPLE_RUNS = {
    "dice.prism": ("dice.props", ["n=0,K1=2,K2=2,K3=2,a=1,b=1,c=1", "n=10,K1=6,K2=6,K3=6,a=1,b=2,c=3"]),
    "pig.prism": ("pig.props", ["goal=8,h=4,first=0", "goal=20,h=10,first=1"]),
    "pig_game.prism": ("pig_game.props", ["goal=8,first=0", "goal=12,first=1"]),
    "snakes.prism": ("snakes.props", ["overshoot=0", "overshoot=1", "overshoot=2"]),
}

# From x=0, `a` reaches x=1 with chance 1/2 (else stays); `b` goes to x=2, one step from it.
COIN = """mdp
module m
  x : [0..2];
  [a] x=0 -> 1/2 : (x'=1) + 1/2 : true;
  [b] x=0 -> (x'=2);
  [] x=2 -> (x'=1);
  [] x=1 -> true;
endmodule
"""

# Two ways to play until a win or a loss: a safe one (win 1/2) and a long one (1/4).
BOUNDS = """mdp
module m
  s : [0..3] init 0;
  [safe] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);
  [long] s=0 -> 1/10 : (s'=1) + 3/10 : (s'=2) + 6/10 : (s'=3);
  [again] s=3 -> 1/10 : (s'=1) + 3/10 : (s'=2) + 6/10 : (s'=3);
endmodule
label "won" = s=1;
label "over" = s=1 | s=2;
rewards "rounds" true : 1; endrewards
"""


def without_seconds(o: dict) -> dict:
    return {k: v for k, v in o.items() if k != "seconds"}


def same_as_cli(results, lines) -> None:
    """The results' JSON equals the command line's, line for line, but the timings."""
    assert [without_seconds(r.to_json()) for r in results] == [without_seconds(l) for l in lines]


def constants_dict(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split(",") if part)


# --- every model, as the command line answers it --------------------------------------


def test_a_game_names_the_player_of_each_state() -> None:
    [r] = alea.check(EXAMPLES / "pig_game.prism", '<<we>> Pmax=? [F "won"]', "goal=8,first=0")
    owners = r.owners()
    strategy = r.strategy()
    assert owners is not None and len(owners) == len(strategy)
    decided = 0
    for (state, action), owner in zip(strategy, owners):
        if not state["go"] and state["me"] < 8 and state["opp"] < 8:
            # A player's decision after a scoring throw: its own actions.
            assert owner == ("we" if state["p"] == 0 else "they"), state
            assert action in (("[roll]", "[hold]") if owner == "we" else ("[oroll]", "[ohold]"))
            decided += 1
    assert decided > 0
    # An mdp has no players.
    [m] = alea.check(EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=8,h=4,first=0")
    assert m.owners() is None


def test_every_example_model_is_covered() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.prism")) == sorted(EXAMPLE_RUNS)


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
@pytest.mark.parametrize(
    "model,props,constants",
    [(m, p, c) for m, (p, cs) in EXAMPLE_RUNS.items() for c in cs],
)
def test_example_models(cli, model, props, constants, exact) -> None:
    flags = ["--exact"] if exact else []
    lines = cli.json(
        "check", str(EXAMPLES / model), "--props", str(EXAMPLES / props),
        "--const", constants, "--json", *flags,
    )
    results = alea.check(EXAMPLES / model, EXAMPLES / props, constants, exact=exact)
    same_as_cli(results, lines)
    # The names of the properties file, and values as the right types.
    assert all(r.name for r in results)
    for r in results:
        assert isinstance(r, PropertyResult)
        assert (r.exact is not None) == (exact and not r.infinite)
        if exact and not r.infinite:
            assert isinstance(r.exact, Fraction) and r.error_bound == 0
            assert r.value == float(r.exact)


def manifest_groups():
    groups: dict[tuple[str, str], list[str]] = {}
    for case in MANIFEST["cases"]:
        groups.setdefault((case["model"], case["constants"]), []).append(case["property"])
    return sorted(groups.items())


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
@pytest.mark.parametrize(
    "model,constants,props", [(m, c, p) for (m, c), p in manifest_groups()]
)
def test_checker_test_models(cli, model, constants, props, exact) -> None:
    args = ["check", str(MODELS / model), "--json"]
    if constants:
        args += ["--const", constants]
    for p in props:
        args += ["--prop", p]
    if exact:
        args.append("--exact")
    lines = cli.json(*args)
    results = alea.check(
        str(MODELS / model), props, constants_dict(constants) or None, exact=exact
    )
    same_as_cli(results, lines)


def test_checker_expected_values_exactly() -> None:
    for (model, constants), _ in manifest_groups():
        cases = [
            c for c in MANIFEST["cases"] if (c["model"], c["constants"]) == (model, constants)
        ]
        results = alea.check(
            MODELS / model, [c["property"] for c in cases], constants or None, exact=True
        )
        for case, r in zip(cases, results):
            if case["expected"] == "infinite":
                assert r.infinite and r.value is None and r.exact is None, case["name"]
            else:
                assert r.exact == Fraction(case["expected"]), case["name"]


@pytest.mark.parametrize("entry", MANIFEST["props_files"], ids=lambda e: f"{e['props']}:{e['constants']}")
def test_properties_files(cli, entry) -> None:
    model, props = MODELS / entry["model"], MODELS / entry["props"]
    args = ["check", str(model), "--props", str(props), "--exact", "--json"]
    if entry["constants"]:
        args += ["--const", entry["constants"]]
    results = alea.check(model, props, entry["constants"] or None, exact=True)
    same_as_cli(results, cli.json(*args))
    by_name = {r.name: r for r in results}
    for name, want in entry["expected"].items():
        got = by_name[name]
        assert got.infinite if want == "infinite" else got.exact == Fraction(want), name


def test_model_size_without_properties(cli, tmp_path) -> None:
    pig = EXAMPLES / "pig.prism"
    [line] = cli.json("check", str(pig), "--const", "goal=20,h=10,first=0", "--json")
    size = alea.check(pig, constants={"goal": 20, "h": 10, "first": 0})
    assert isinstance(size, ModelSize)
    assert without_seconds(size.to_json()) == without_seconds(line)
    assert size.states == 4120 and size.seconds.check is None
    # A properties file without a property asks for the size too, as on the command line.
    props = tmp_path / "none.props"
    props.write_text("// nothing yet\nconst int k = 2;\n")
    size = alea.check(pig, props, "goal=20,h=10,first=0")
    assert isinstance(size, ModelSize) and size.states == 4120


def test_bound_queries(cli, tmp_path) -> None:
    path = tmp_path / "bounds.prism"
    path.write_text(BOUNDS)
    props = [
        'Pmax>=1/2 [F "won"]', 'P>=1/4 [F "won"]', 'P>0.25 [F "won"]', 'P<1/2 [F "won"]',
        'R{"rounds"}<=2.5 [F "over"]', 'R{"rounds"}<2.5 [F "over"]',
    ]
    for exact in [False, True]:
        args = ["check", str(path), "--json"] + [a for p in props for a in ("--prop", p)]
        lines = cli.json(*args, *(["--exact"] if exact else []))
        results = alea.check(path, props, exact=exact)
        same_as_cli(results, lines)
        assert [r.holds for r in results] == [True, True, False, False, True, False]


def test_fair_strategies(cli) -> None:
    """``fair=True`` is ``--fair``: the least chance to win a game that a strategy could
    put off for ever is that of the roll the fair strategies must take."""
    path = MODELS / "retry.prism"
    props = ['Pmin=? [ F "won" ]', 'Pmax=? [ G !"over" ]']
    for fair, want in [(False, [0, 1]), (True, [Fraction(1, 2), 0])]:
        args = ["check", str(path), "--json", "--exact"] + [a for p in props for a in ("--prop", p)]
        lines = cli.json(*args, *(["--fair"] if fair else []))
        results = alea.check(path, props, exact=True, fair=fair)
        same_as_cli(results, lines)
        assert [r.exact for r in results] == want


def test_weights(cli) -> None:
    """``weights=True`` is ``--weights``: each state's weights divided by their sum."""
    path = MODELS / "weights.prism"
    props = ["P=? [ F x=2 ]", 'R{"cost"}=? [ C<=5 ]']
    lines = cli.json("check", str(path), "--json", "--exact", "--weights",
                     *[a for p in props for a in ("--prop", p)])
    results = alea.check(path, props, exact=True, weights=True)
    same_as_cli(results, lines)
    assert [r.exact for r in results] == [Fraction(4, 7), Fraction(39, 7)]
    with pytest.raises(alea.InputError, match="not between 0 and 1"):
        alea.check(path, props)


# --- the forms of the arguments --------------------------------------------------------


def test_model_as_text_path_or_file_name() -> None:
    pig = EXAMPLES / "pig.prism"
    constants = {"goal": 8, "h": 4, "first": 0}
    prop = 'Pmax=? [F "won"]'
    by_path = alea.check(pig, prop, constants, exact=True)[0].exact
    assert alea.check(str(pig), prop, constants, exact=True)[0].exact == by_path
    assert alea.check(pig.read_text(), prop, constants, exact=True)[0].exact == by_path
    # One line naming no file is text; a missing model file is said to be one.
    with pytest.raises(alea.InputError) as e:
        alea.check("dtmc", prop)
    assert e.value.source == "<model>"
    with pytest.raises(FileNotFoundError):
        alea.check("examples/no-such-model.prism", prop)
    with pytest.raises(TypeError):
        alea.check(b"dtmc", prop)


def test_constants_of_every_kind() -> None:
    gambler = MODELS / "gambler.prism"
    text = gambler.read_text().replace("const double p = 0.4;", "const double p;")
    prop = 'P=? [F "rich"]'
    want = Fraction(40, 211)
    for p in [0.4, Fraction(2, 5), "0.4", "2/5", "4/10"]:
        [r] = alea.check(text, prop, {"p": p}, exact=True)
        assert r.exact == want, p
    assert alea.check(text, prop, "p=0.4", exact=True)[0].exact == want
    # Bools and ints, and a value as an expression.
    dice = EXAMPLES / "dice.prism"
    c = {"n": 10, "K1": 6, "K2": 6, "K3": 6, "a": 1, "b": 2, "c": "1+2"}
    assert alea.check(dice, 'R{"throws"}=? [F "end"]', c, exact=True)[0].exact == Fraction(
        1632261240, 1080834403
    )
    flag = 'dtmc\nconst bool b;\nmodule m x : [0..1] init b ? 1 : 0; [] true -> true; endmodule\n'
    for b, want in [(True, 1), (False, 0)]:
        [r] = alea.check(flag, "P=? [F x=1]", {"b": b}, exact=True)
        assert r.exact == want
    with pytest.raises(ValueError):
        alea.check(text, prop, {"p": float("nan")})
    with pytest.raises(TypeError):
        alea.check(text, prop, {"p": [0.4]})
    with pytest.raises(alea.InputError) as e:
        alea.check(text, prop, {"p": 0.4, "zz": 1})
    assert e.value.source == "constants" and "zz" in e.value.message


def test_properties_as_one_text_or_a_list(cli) -> None:
    pig = EXAMPLES / "pig.prism"
    constants = "goal=8,h=4,first=0"
    text = (EXAMPLES / "pig.props").read_text()
    from_text = alea.check(pig, text, constants)
    from_file = alea.check(pig, EXAMPLES / "pig.props", constants)
    assert [r.value for r in from_text] == [r.value for r in from_file]
    assert [r.name for r in from_text] == ["win", "win_worst", "throws_min", "throws_max"]
    # Several properties in one string, and a list.
    both = alea.check(pig, 'Pmax=? [F "won"]; Pmin=? [F "won"]', constants)
    listed = alea.check(pig, ['Pmax=? [F "won"]', 'Pmin=? [F "won"]'], constants)
    assert [r.value for r in both] == [r.value for r in listed] == [r.value for r in from_file[:2]]
    # Constants of the properties' own.
    [r] = alea.check(pig, 'const int k;\nPmax=? [F me>=k]', "goal=8,h=4,first=0,k=4")
    assert 0 < r.value < 1


# --- a state's value and choices, the strategy -----------------------------------------


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
def test_at_a_state_as_the_command_line(cli, exact) -> None:
    pig = EXAMPLES / "pig.prism"
    state = "me=10,opp=12,t=5,p=0,go=false"
    flags = ["--exact"] if exact else []
    lines = cli.json(
        "check", str(pig), "--props", str(EXAMPLES / "pig.props"),
        "--const", "goal=20,h=10,first=0", "--at", state, "--json", *flags,
    )
    results = alea.check(pig, EXAMPLES / "pig.props", "goal=20,h=10,first=0", exact, at=state)
    same_as_cli(results, lines)
    as_dict = {"me": 10, "opp": 12, "t": 5, "p": 0, "go": False}
    again = alea.check(pig, EXAMPLES / "pig.props", "goal=20,h=10,first=0", exact, at=as_dict)
    assert [r.at for r in again] == [r.at for r in results]
    win = results[0].at
    assert isinstance(win, StateValue) and win.state == as_dict
    best, other = win.choices
    assert isinstance(best, ChoiceValue) and best.loss == 0
    assert best.value == win.value and other.loss > 0
    if exact:
        assert best.exact == win.exact and other.loss_exact == best.exact - other.exact
    # The same from the result, for this state and any other.
    assert results[0].value_at(as_dict) == win
    assert results[0].choice_values(state) == list(win.choices)


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
def test_step_bounded_choices(cli, tmp_path, exact) -> None:
    path = tmp_path / "m.prism"
    path.write_text(COIN)
    props = ["Pmax=? [F<=1 x=1]", "Pmax=? [F<=2 x=1]", "Pmin=? [F<=2 x=1]", "Pmax=? [F<=0 x=1]"]
    args = ["check", str(path), "--at", "x=0", "--json"] + [a for p in props for a in ("--prop", p)]
    lines = cli.json(*args, *(["--exact"] if exact else []))
    results = alea.check(COIN, props, exact=exact, at="x=0")
    same_as_cli(results, lines)
    assert [c.action for c in results[1].at.choices] == ["[b]", "[a]"]
    with pytest.raises(ValueError, match="steps left"):
        results[0].strategy()


@pytest.mark.parametrize("props", ["one", "file"])
def test_strategy_as_the_command_line(cli, tmp_path, props) -> None:
    pig = EXAMPLES / "pig.prism"
    constants = "goal=8,h=4,first=0"
    given = ['Pmax=? [F "won"]'] if props == "one" else EXAMPLES / "pig.props"
    file = tmp_path / "best.jsonl"
    args = ["check", str(pig), "--const", constants, "--strategy", str(file), "--json"]
    args += ["--prop", given[0]] if props == "one" else ["--props", str(given)]
    lines = cli.json(*args)
    results = alea.check(pig, given, constants, prune=False)
    same_as_cli(results, lines)
    written = [json.loads(l) for l in file.read_text().splitlines()]
    expected = []
    for r in results:
        for state, action in r.strategy():
            line = {"state": state, "action": action}
            if len(results) > 1:
                line = {"property": r.property, **line}
            expected.append(line)
    assert written == expected
    assert len(results[0].strategy()) == results[0].states
    assert results[0].strategy_actions() == [a for _, a in results[0].strategy()]


def test_no_strategy_where_nothing_is_chosen() -> None:
    dice = EXAMPLES / "dice.prism"
    [r] = alea.check(dice, 'R{"throws"}=? [F "end"]', "n=0,K1=2,K2=2,K3=2,a=1,b=1,c=1")
    with pytest.raises(ValueError, match="dtmc"):
        r.strategy()
    start = {"x": 0, "ph": 0, "s": 0, "m": True}
    assert r.choice_values(start) == [] and r.value_at(start).value == r.value
    [f] = alea.check(COIN, 'filter(max, Pmax=? [F x=1])')
    with pytest.raises(ValueError, match="filter"):
        f.strategy()
    assert f.value_at("x=0").value is None


def test_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    pig = EXAMPLES / "pig.prism"
    [r] = alea.check(pig, 'Pmax=? [F "won"]', "goal=8,h=4,first=0", prune=False)
    values, strategy, states = r.values_array(), r.strategy_array(), r.states_array()
    assert values.dtype == np.float64 and values.shape == (r.states,)
    assert strategy.shape == (r.states,) and states.shape == (r.states, len(r.variables))
    listed = r.strategy()
    for s in [0, 1, 7, r.states - 1]:
        valuation, action = listed[s]
        assert [int(v) for v in states[s]] == [int(valuation[n]) for n in r.variables]
        at = r.value_at(valuation)
        assert at.value == values[s]
        # The strategy's choice is the one of the best value.
        if at.choices:
            assert at.choices[0].action == action or at.choices[0].loss == 0
    assert values[0] == r.value


def test_numpy_missing_is_said(monkeypatch) -> None:
    import builtins

    real = builtins.__import__

    def no_numpy(name, *args, **kwargs):
        if name == "numpy":
            raise ImportError("No module named 'numpy'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpy)
    [r] = alea.check(COIN, "Pmax=? [F x=1]")
    with pytest.raises(ImportError, match="numpy"):
        r.values_array()
    assert r.strategy()  # lists need no NumPy


# --- errors ----------------------------------------------------------------------------


def cli_words(message: str) -> str:
    """A message of the package with the command line's options in place of the
    package's arguments."""
    return re.sub(r'constants=\{"(\w+)": \.\.\.\}', r"--const \1=...", message)


def cli_error(*args: str) -> tuple[int, str]:
    path = os.environ.get("ALEA_CLI", str(ROOT / "target" / "release" / "alea"))
    done = subprocess.run([path, *args], capture_output=True, text=True)
    return done.returncode, done.stderr


@pytest.mark.parametrize("case", MANIFEST["errors"], ids=lambda c: c["name"])
def test_errors_at_the_command_lines_place(cli, case) -> None:
    model = str(MODELS / case["model"])
    args = ["check", model]
    if case.get("constants"):
        args += ["--const", case["constants"]]
    if case.get("property"):
        args += ["--prop", case["property"]]
    code, stderr = cli_error(*args)
    assert code == 2
    with pytest.raises(alea.InputError) as e:
        alea.check(model, case.get("property"), case.get("constants") or None)
    err = e.value
    first = stderr.splitlines()[0].removeprefix("error: ")
    message = cli_words(err.message)
    if case["in"] == "property":
        assert err.source == "<properties>"
        assert first == f"--prop:{err.line}:{err.column}: {message}"
    elif err.line is None:
        assert err.source == "constants"
        assert first == f"--const: {message}"
    else:
        assert err.source == model
        assert first == f"{model}:{err.line}:{err.column}: {message}"
    if case["in"] != "constants":
        assert (err.line, err.column) == (case["line"], case["column"])
    assert case["keyword"].lower() in err.message.lower()


@pytest.mark.parametrize(
    "model,prop,constants",
    [
        ("dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> (x'=2);\nendmodule\n", None, None),
        ("dtmc\nmodule m x : [0..1]; [] true -> 0.5 : true; endmodule\n", None, None),
        (COIN, "Pmax=? [F y=1]", None),
        (COIN, 'P=? [F x=1];\nPmax=? [F "nowhere"]', None),
        (COIN, "Pmax=? [F x=1", None),
        (COIN, 'filter(max, P>=0.5 [F x=1], "init")', None),
        (EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=8,h=4"),
        (EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=8,h=4,first=0,extra=1"),
        (EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=8,h=4,first=(0"),
        (EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=8,h=4,first=true"),
        ("// nothing\n", None, None),
        ("dtmc\nmodule m x : [0..1];\xff endmodule\n", None, None),
    ],
)
def test_more_errors_as_the_command_line(tmp_path, model, prop, constants) -> None:
    if isinstance(model, str):
        path = tmp_path / "m.prism"
        path.write_bytes(model.encode("latin-1"))
        model = path
    args = ["check", str(model)]
    if prop:
        args += ["--prop", prop]
    if constants:
        args += ["--const", constants]
    code, stderr = cli_error(*args)
    assert code == 2, stderr
    with pytest.raises(alea.InputError) as e:
        alea.check(model, prop, constants)
    err = e.value
    first = stderr.splitlines()[0].removeprefix("error: ")
    message = cli_words(err.message)
    if err.line is not None:
        source = "--prop" if err.source == "<properties>" else err.source
        assert first == f"{source}:{err.line}:{err.column}: {message}"
    else:
        assert err.source == "constants"
        assert first == f"--const: {message}"


def test_a_text_of_properties_must_hold_one() -> None:
    with pytest.raises(alea.InputError) as e:
        alea.check(COIN, "// only a comment")
    assert e.value.source == "<properties>" and "no property" in e.value.message
    with pytest.raises(alea.InputError) as e:
        alea.check(COIN, ["Pmax=? [F x=1]", "P=? [F"])
    assert e.value.source == "<properties #2>" and (e.value.line, e.value.column) == (1, 7)


def test_a_state_that_is_not_there() -> None:
    for at, words in [
        ("x=7", "outside its range"),
        ({"y": 0}, "no variable `y`"),
        ("x", "expected NAME=VALUE"),
    ]:
        with pytest.raises(alea.InputError, match=words) as e:
            alea.check(COIN, "Pmax=? [F x=1]", at=at)
        assert e.value.source == "at"
    [r] = alea.check(COIN, "Pmax=? [F x=1]")
    with pytest.raises(alea.InputError) as e:
        r.value_at({"x": 5})
    assert e.value.source == "state"
    with pytest.raises(TypeError):
        r.value_at({"x": 0.5})


def test_too_many_states() -> None:
    pig = EXAMPLES / "pig.prism"
    code, stderr = cli_error("check", str(pig), "--const", "goal=20,h=10,first=0", "--max-states", "100")
    assert code == 3
    with pytest.raises(alea.LimitError) as e:
        alea.check(pig, 'Pmax=? [F "won"]', "goal=20,h=10,first=0", max_states=100)
    assert e.value.limit == "max_states" and "max_states" in e.value.message
    with pytest.raises(ValueError):
        alea.check(pig, None, "goal=20,h=10,first=0", max_states=0)


def test_precision_not_reachable() -> None:
    # A value exactly on its bound, in a model too large to be solved exactly instead.
    model = """dtmc
module m
  c : [0..100001] init 0;
  s : [0..3] init 0;
  [] c<100001 -> (c'=c+1);
  [] c=100001 & s=0 -> 0.3 : true + 0.35 : (s'=1) + 0.35 : (s'=2);
  [] c=100001 & s>0 -> true;
endmodule
"""
    [r] = alea.check(model, "P=? [F s=1]")
    assert abs(r.value - 0.5) <= r.error_bound
    with pytest.raises(alea.LimitError) as e:
        alea.check(model, "P>=0.5 [F s=1]")
    assert e.value.limit == "precision" and "exact=True" in e.value.message
    assert alea.check(model, "P>=0.5 [F s=1]", exact=True)[0].holds is True
    with pytest.raises(ValueError):
        alea.check(COIN, "Pmax=? [F x=1]", precision=0)
    with pytest.raises(ValueError):
        alea.check(COIN, "Pmax=? [F x=1]", precision=1.5)


# --- off the interpreter ---------------------------------------------------------------


def test_other_threads_run_while_it_checks() -> None:
    ticks = 0
    done = threading.Event()

    def tick() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        start = time.perf_counter()
        alea.check(EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=40,h=15,first=0")
        took = time.perf_counter() - start
    finally:
        done.set()
        t.join()
    # Ticking went on during the check (about one a millisecond when free to run).
    assert ticks > min(10, took * 100)


def test_ctrl_c_interrupts() -> None:
    start = time.perf_counter()
    with ctrl_c_after(0.2), pytest.raises(KeyboardInterrupt):
        # Seconds of work, stopped after a fifth of one.
        alea.check(EXAMPLES / "pig.prism", 'Pmax=? [F "won"]', "goal=100,h=20,first=0")
    assert time.perf_counter() - start < 2


def test_results_are_frozen() -> None:
    [r] = alea.check(COIN, "Pmax=? [F x=1]")
    with pytest.raises(AttributeError):
        r.value = 0.0  # type: ignore[misc]
    assert "PropertyResult(" in repr(r) and "_answer" not in repr(r)


def test_exact_checks_decide_on_exact_values() -> None:
    """Comparisons of reals are decided exactly with `exact=True`, in double precision
    without, as `alea check` decides them (`decisions.prism` works both out by hand)."""
    model = MODELS / "decisions.prism"
    props = ["P=? [ F s=1 ]", "P=? [ F s=4 ]", 'R{"r"}=? [ C<=1 ]']
    assert [r.exact for r in alea.check(model, props, exact=True)] == [0, 1, 2]
    assert [r.value for r in alea.check(model, props)] == pytest.approx([0.5, 0.0, 1.0])


def test_print_filters_list_states(cli, tmp_path) -> None:
    """`print`, `printall`, `argmin` and `argmax` list their states, as `alea check
    --json` does: on a walk over 0..4 with a fair coin, whose chance of reaching 4 from
    `s` is `s/4`, the states by their values, the answer the initial state's."""
    walk = tmp_path / "walk.prism"
    walk.write_text(
        "dtmc\nmodule walk\n  s : [0..4] init 2;\n"
        "  [] s>0 & s<4 -> 1/2 : (s'=s-1) + 1/2 : (s'=s+1);\nendmodule\n"
    )
    props = [
        "filter(printall, P=? [F s=4])",
        "filter(print, P=? [F s=4], s!=2)",
        "filter(print, s>=3)",
        "filter(argmin, P=? [F s=4])",
    ]
    for exact in (False, True):
        results = alea.check(walk, props, exact=exact)
        args = ["check", str(walk), "--json", *[f"--prop={p}" for p in props]]
        same_as_cli(results, cli.json(*args, *(["--exact"] if exact else [])))
    every, some, true, least = results
    assert every.exact == Fraction(1, 2)
    assert [(l.state["s"], l.exact) for l in every.listed] == [
        (s, Fraction(s, 4)) for s in range(5)
    ]
    assert [(l.state["s"], l.exact) for l in some.listed] == [
        (1, Fraction(1, 4)), (3, Fraction(3, 4)), (4, Fraction(1))
    ]
    assert [(l.state, l.holds, l.value) for l in true.listed] == [
        ({"s": 3}, True, None), ({"s": 4}, True, None)
    ]
    assert [l.state for l in least.listed] == [{"s": 0}] and least.holds is False
    assert alea.check(walk, ["P=? [F s=4]"])[0].listed == ()


def test_the_property_language_beyond_one_query() -> None:
    """Paths with windows, path quantifiers, nested operators, arithmetic on properties
    and the filters `range` and `state`, as `alea check` reads them; a true/false
    property has no value, a range its two ends (the walk is worked out by hand)."""
    walk = (
        "dtmc\nmodule w\n  x : [0..2] init 0;\n"
        "  [] x=0 -> 1/2 : (x'=1) + 1/2 : (x'=2);\n  [] x>0 -> true;\nendmodule\n"
    )
    props = [
        "P=? [ X x=1 ]",
        "P=? [ F>=3 x=1 ]",
        "P=? [ G x<2 ]",
        "1 - P=? [ F x=2 ]",
        "E [ F x=1 ]",
        "A [ F x=1 ]",
        "filter(range, P=? [ F x=1 ])",
        "filter(state, P=? [ F x=1 ], x=1)",
    ]
    r = alea.check(walk, props, exact=True)
    assert [p.exact for p in r[:4]] == [Fraction(1, 2)] * 4
    assert [(p.value, p.holds) for p in r[4:6]] == [(None, True), (None, False)]
    assert r[6].range == (0.0, 1.0) and r[6].value is None
    assert r[6].to_json()["range"][1]["exact"] == "1/1"
    assert r[7].exact == 1


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
def test_multi_objective_and_ltl_as_the_command_line(cli, exact) -> None:
    # Worked out in the header comments of multi_choice.prism and ltl_memory.prism.
    path = MODELS / "multi_choice.prism"
    props = [
        'multi(Pmax=? [F "A"], R{"cost"}min=? [C])',
        'multi(Pmax=? [F "A"], P>=0.8 [F "B"], P>=0.3 [F "loop"])',
        'multi(P>=0.5 [F "A"], P>=0.5 [F "B"])',
    ]
    args = ["check", str(path), "--json", *[a for p in props for a in ("--prop", p)]]
    lines = cli.json(*args, *(["--exact"] if exact else []))
    pareto, infeasible, achievable = alea.check(path, props, exact=exact)
    same_as_cli([pareto, infeasible, achievable], lines)
    assert [(float(a), float(b)) for a, b in pareto.pareto] == [(1, 2), (0.5, 0.5), (0, 0)]
    if exact:
        assert pareto.pareto_exact == ((1, 2), (Fraction(1, 2), Fraction(1, 2)), (0, 0))
    assert infeasible.feasible is False and infeasible.value is None
    assert achievable.holds is True and achievable.feasible is None
    memory = alea.check(MODELS / "ltl_memory.prism", 'Pmax=? [ (F "p") & (G !"lost") ]', exact=True)
    (r,) = memory
    assert r.exact == Fraction(1, 2)
    assert [a.kind for a in r.automata] == ["limit-deterministic"]
    assert r.automata[0].product_states > 4
