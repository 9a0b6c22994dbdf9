"""The cost of Python in a game written in Python: how many states a second the
exploration through `start`/`expand` reaches, and the engine's time beside it.

    python crates/alea-py/bench/callbacks.py [--goal 100] [--runs 5]

Solves Pig written in Python (examples/python/pig.py) `runs` times and prints the
median of each figure. Everything is deterministic: the same states in the same order.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

import alea

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "examples" / "python"))
from pig import Pig  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    explore, solve, whole = [], [], []
    states = 0
    for _ in range(args.runs):
        started = time.perf_counter()
        solution = alea.solve(Pig(args.goal))
        whole.append(time.perf_counter() - started)
        explore.append(solution.explore_seconds)
        solve.append(solution.solve_seconds)
        states = solution.states
    e, s, w = (statistics.median(x) for x in (explore, solve, whole))
    print(f"Pig to {args.goal} written in Python: {states} states, medians of {args.runs} runs")
    print(f"  callbacks (exploration): {e:.3f} s = {states / e:,.0f} states a second")
    print(f"  engine (solve):          {s:.3f} s")
    print(f"  whole alea.solve call:   {w:.3f} s")


if __name__ == "__main__":
    main()
