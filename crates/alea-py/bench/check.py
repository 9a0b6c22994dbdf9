"""A PRISM check from Python against the same check by the command line, timed in turn
(Python, command, Python, ...) so that a drift of the machine's speed hits both.

    python crates/alea-py/bench/check.py [--cli target/release/alea] [--runs 5]

The model is examples/pig.prism at goal 100 (about 700,000 states) with the four
properties of examples/pig.props. Python's time is the `alea.check` call; the command's
is its whole process, start-up included (a few milliseconds).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import subprocess
import time

import alea

ROOT = pathlib.Path(__file__).resolve().parents[3]
MODEL = ROOT / "examples" / "pig.prism"
PROPS = ROOT / "examples" / "pig.props"
CONSTANTS = {"goal": 100, "h": 20, "first": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ROOT / "target" / "release" / "alea"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    constants = ",".join(f"{k}={v}" for k, v in CONSTANTS.items())
    command = [args.cli, "check", str(MODEL), "--props", str(PROPS), "--const", constants, "--json"]
    python, cli, ratios = [], [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        results = alea.check(MODEL, PROPS, constants=CONSTANTS)
        python.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        cli.append(time.perf_counter() - started)
        ratios.append(python[-1] / cli[-1])
    print(f"pig.prism at goal 100: {results[0].states} states, {len(results)} properties, "
          f"medians of {args.runs} runs")
    print(f"  alea.check from Python: {statistics.median(python):.3f} s")
    print(f"  alea check (process):   {statistics.median(cli):.3f} s")
    print(f"  ratio Python / command: {statistics.median(ratios):.3f} (paired)")


if __name__ == "__main__":
    main()
