"""Advice for a Yahtzee position from Python: the whole solitaire game is solved once
(a fraction of a second), then any position is answered at once.

    python examples/python/yahtzee_advice.py

A player has filled a few boxes and rolled 6 6 6 2 3 with two rolls to come: which dice
to keep, and what does each choice cost?
"""

from __future__ import annotations

import alea


def main() -> None:
    table = alea.yahtzee.Table("free-joker")
    start = table.value
    print(f"Expected final score from the empty card: {start.expected_score:.4f} "
          f"(standard deviation {start.std_dev:.4f}), solved in {start.seconds:.2f} s")

    card = {"ones": 3, "fives": 15, "chance": 22}
    advice = table.advise(card=card, dice=[6, 6, 6, 2, 3], rolls_left=2)
    print(f"\nCard {card}, dice 6 6 6 2 3, two rolls left:")
    print(f"  expected points still to come, playing best: {advice.value:.3f}")
    for option in advice.options[:5]:
        keep = " ".join(map(str, option.keep)) or "nothing"
        print(f"  keep {keep:<10} {option.value:8.3f}   loss {option.loss:.3f}")

    # After the last roll the options are the boxes.
    advice = table.advise(card=card, dice=[6, 6, 6, 2, 3], rolls_left=0)
    best = advice.options[0]
    print(f"\nAfter the last roll, score {best.points} in {best.box} "
          f"(loss of the next best: {advice.options[1].loss:.3f})")

    # Optimal play simulated with seeded dice (a million games take about a second).
    games = table.simulate(100_000, seed=7)
    low, high = games.interval
    print(f"\n100,000 simulated games: mean {games.mean:.2f}, 95% interval {low:.2f} to "
          f"{high:.2f} (exact {games.exact_mean:.2f})")


if __name__ == "__main__":
    main()
