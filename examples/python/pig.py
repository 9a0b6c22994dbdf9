"""Pig written in Python and solved by alea's engine: the first player's chance of
winning under best play, and the best move at a position.

Pig: on your turn, throw a die as often as you like, adding each throw to your turn
total; a 1 loses the turn total and ends the turn; holding banks it. The first to bank
`goal` points wins. Both players play their best: the first maximises its chance of
winning, the second minimises it, and cycles (turns lost to a 1) are solved exactly as
in the engine.

    python examples/python/pig.py [goal]
"""

from __future__ import annotations

import sys

import alea


class Pig:
    """States: ("throw" | "decide", player, first's score, second's score, turn total),
    and ("won", player)."""

    def __init__(self, goal: int) -> None:
        self.goal = goal

    def start(self):
        return ("throw", 0, 0, 0, 0)

    def expand(self, state):
        kind, player = state[0], state[1]
        if kind == "won":
            return ("terminal", 1 if player == 0 else 0)
        _, _, first, second, turn = state
        other = 1 - player
        banked = first if player == 0 else second
        if kind == "throw":
            outcomes = {("throw", other, first, second, 0): 1}  # a 1: the turn is lost
            for face in range(2, 7):
                if banked + turn + face >= self.goal:
                    won = ("won", player)
                    outcomes[won] = outcomes.get(won, 0) + 1
                else:
                    outcomes[("decide", player, first, second, turn + face)] = 1
            return ("chance", 0, outcomes)
        if player == 0:
            hold = ("throw", 1, first + turn, second, 0)
        else:
            hold = ("throw", 0, first, second + turn, 0)
        again = ("throw", player, first, second, turn)
        return ("max" if player == 0 else "min", 0, {"hold": hold, "roll": again})


def main() -> None:
    goal = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    solution = alea.solve(Pig(goal))
    print(f"Pig to {goal}: the first player wins with probability {solution.value:.12f}")
    print(f"  ({solution.states} states, error at most {solution.error_bound:.1e};")
    print(f"   {solution.explore_seconds:.2f} s in the Python callbacks, "
          f"{solution.solve_seconds:.2f} s in the engine)")
    # 41 to 49 with 27 on the turn, or as much of the goal in a shorter game.
    me, opponent, turn = (41, 49, 27) if goal == 100 else (goal * 2 // 5, goal // 2, goal // 4)
    position = ("decide", 0, me, opponent, turn)
    if position in solution:
        print(f"At {position[2]} to {position[3]} with {position[4]} on the turn:")
        for option in solution.options(position):
            print(f"  {option.move:4}  wins {option.value:.6f}  loss {option.loss:.6f}")


if __name__ == "__main__":
    main()
