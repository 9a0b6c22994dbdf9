"""A dice game written in Python and solved exactly by alea's engine: the judges' One
Person Game. A counter starts at 0; each throw of three dice adds their sum to it, but
the exact triple (a, b, c) resets it to 0; the game ends once the counter exceeds n.
How many throws does it take on average?

    python examples/python/dice_game.py [n k1 k2 k3 a b c]

The resets make the game cyclic; the engine solves the cycles exactly (a fraction) or in
floating point with a certified error bound. `alea dice` answers the same question.
"""

from __future__ import annotations

import itertools
import sys

import alea


class OnePersonGame:
    def __init__(self, n: int, faces: tuple[int, int, int], triple: tuple[int, int, int]):
        self.n = n
        # The sum added by each throw (-1 for the reset), with how many rolls give it.
        self.steps: dict[int, int] = {}
        for roll in itertools.product(*(range(1, k + 1) for k in faces)):
            step = -1 if roll == triple else sum(roll)
            self.steps[step] = self.steps.get(step, 0) + 1

    def start(self) -> int:
        return 0

    def expand(self, counter: int):
        if counter > self.n:
            return ("terminal", 0)
        after: dict[int, int] = {}
        for step, weight in self.steps.items():
            to = 0 if step < 0 else counter + step
            after[to] = after.get(to, 0) + weight
        # A throw costs 1: the value is the expected number of throws.
        return ("chance", 1, after)


def main() -> None:
    n, k1, k2, k3, a, b, c = (int(x) for x in sys.argv[1:8]) if len(sys.argv) > 7 else (
        10, 6, 6, 6, 1, 1, 1)
    game = OnePersonGame(n, (k1, k2, k3), (a, b, c))
    exact = alea.solve(game, exact=True)
    floating = alea.solve(game)
    print(f"n = {n}, dice {k1} {k2} {k3}, reset on {a} {b} {c}:")
    print(f"  expected throws {exact.value} = {float(exact.value):.15g}")
    print(f"  in floating point {floating.value!r} (error at most {floating.error_bound:.1e})")
    print(f"  from a counter of 5: {float(exact.value_of(5)):.6f} more throws")


if __name__ == "__main__":
    main()
