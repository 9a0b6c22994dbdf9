"""The same game written in Python and in the PRISM language, solved by the one engine
through both front ends: the engine's time for `alea.solve` (the solve alone, the
callbacks aside) against the check's time for `alea.check`, in turn, at the same
precision.

    python crates/alea-py/bench/parity.py [--runs 7]

The games: a gambler's ruin (a fair coin moves a fortune of 16 up or down by one until it
is 0 or N; the chance of reaching N) for N = 100 and 1000, in floating point and exactly,
and the expected number of throws of the same walk. Every pair of answers is compared
too (within the error bounds, or equal fractions).
"""

from __future__ import annotations

import argparse
import statistics
from fractions import Fraction

import alea

WALK = """dtmc
const int N;
module walk
  k : [0..N] init 16;
  [] k>0 & k<N -> 0.5 : (k'=k-1) + 0.5 : (k'=k+1);
endmodule
rewards "throws"
  k>0 & k<N : 1;
endrewards
label "rich" = k=N;
"""


class Walk:
    """The gambler's ruin from 16 to 0 or `n`: worth 1 at `n` (or, with `cost`, every
    throw costs 1 and the value is the expected number of throws)."""

    def __init__(self, n: int, cost: bool) -> None:
        self.n, self.cost = n, cost

    def start(self) -> int:
        return 16

    def expand(self, k: int):
        if k in (0, self.n):
            return ("terminal", 0 if self.cost else int(k == self.n))
        return ("chance", int(self.cost), [(k - 1, 1), (k + 1, 1)])


def cases():
    for n in (100, 1000):
        for exact in (False, True):
            yield (f"ruin N={n}", Walk(n, False), WALK, 'P=? [F "rich"]', {"N": n}, exact)
            yield (f"throws N={n}", Walk(n, True), WALK, 'R{"throws"}=? [F k=0|k=N]', {"N": n}, exact)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--precision", type=float, default=1e-9)
    args = parser.parse_args()
    print(f"precision {args.precision:g}; medians of {args.runs} runs in turn; ratio = solve / check")
    print(f"{'game':16} {'mode':6} {'states':>8} {'alea.solve':>12} {'alea.check':>12} {'ratio':>7}")
    for name, game, text, prop, constants, exact in cases():
        solves, checks, ratios = [], [], []
        for _ in range(args.runs):
            solution = alea.solve(game, exact=exact, precision=args.precision)
            [result] = alea.check(text, prop, constants=constants, exact=exact, precision=args.precision)
            solves.append(solution.solve_seconds)
            checks.append(result.seconds.check)
            ratios.append(solution.solve_seconds / result.seconds.check)
        if exact:
            assert solution.value == Fraction(result.exact), (name, solution.value, result.exact)
        else:
            gap = abs(solution.value - result.value)
            assert gap <= solution.error_bound + result.error_bound, (name, solution.value, result.value)
        mode = "exact" if exact else "f64"
        s, c, r = (statistics.median(x) for x in (solves, checks, ratios))
        print(f"{name:16} {mode:6} {solution.states:8} {s * 1e3:10.3f}ms {c * 1e3:10.3f}ms {r:7.2f}")


if __name__ == "__main__":
    main()
