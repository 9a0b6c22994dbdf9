"""The scripts in examples/python run and print what the command line says."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

from conftest import EXAMPLES

SCRIPTS = EXAMPLES / "python"


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_script_is_tested() -> None:
    tested = {"dice_game.py", "pig.py", "yahtzee_advice.py", "check_model.py"}
    assert {p.name for p in SCRIPTS.glob("*.py")} == tested


def test_dice_game(cli) -> None:
    out = run("dice_game.py", "12", "4", "5", "6", "1", "2", "3")
    [expected] = cli.json("dice", "--json", "--exact", input="1\n12 4 5 6 1 2 3\n")
    exact = re.search(r"expected throws (\d+/\d+)", out).group(1)
    assert Fraction(exact) == Fraction(expected["expected_throws_exact"])


def test_pig(cli) -> None:
    out = run("pig.py", "30")
    [expected] = cli.json("pig", "--goal", "30", "--json")
    value = float(re.search(r"probability (\d\.\d+)", out).group(1))
    assert abs(value - expected["first_player_wins"]) < 1e-11
    assert re.search(r"roll +wins|hold +wins", out)


def test_yahtzee_advice(cli) -> None:
    out = run("yahtzee_advice.py")
    assert "254.5896" in out and "59.6117" in out
    [advice] = cli.json(
        "yahtzee", "advise", "--card", "ones=3,fives=15,chance=22", "--dice", "6,6,6,2,3",
        "--rolls-left", "2", "--json",
    )
    assert f"{advice['value']:.3f}" in out


def test_check_model(cli, tmp_path) -> None:
    out = run("check_model.py")
    source = (SCRIPTS / "check_model.py").read_text()
    model = source.split('MODEL = """')[1].split('"""')[0]
    props = source.split('PROPERTIES = """')[1].split('"""')[0]
    (tmp_path / "climb.prism").write_text(model)
    (tmp_path / "climb.props").write_text(props)
    fewest, quick = cli.json(
        "check", str(tmp_path / "climb.prism"), "--props", str(tmp_path / "climb.props"),
        "--exact", "--json",
    )
    shown = re.search(r"from 0: (\S+) =.*within 6 steps: (\S+) =", out, re.S)
    assert Fraction(shown.group(1)) == Fraction(fewest["exact"])
    assert Fraction(shown.group(2)) == Fraction(quick["exact"])
