"""A model in the PRISM language checked from Python: values, the best choice in every
state, and what each choice costs.

    python examples/python/check_model.py

The model: a counter climbs from 0 to 10. Each step the player either walks (+1) or
gambles (+3 with probability 1/2, back to 0 otherwise). How few steps does it take on
average, playing best, and where is the gamble worth it?
"""

from __future__ import annotations

import alea

MODEL = """
mdp

const int goal = 10;

module climb
  x : [0..goal] init 0;
  [walk]   x < goal -> (x' = x + 1);
  [gamble] x < goal -> 1/2 : (x' = min(x + 3, goal)) + 1/2 : (x' = 0);
endmodule

label "top" = x = goal;

rewards "steps"
  [walk] true : 1;
  [gamble] true : 1;
endrewards
"""

PROPERTIES = """
"fewest": R{"steps"}min=? [F "top"];
"quick": Pmax=? [F<=6 "top"];
"""


def main() -> None:
    fewest, quick = alea.check(MODEL, PROPERTIES, exact=True, prune=False)
    print(f"Fewest expected steps from 0: {fewest.exact} = {fewest.value:.6f}")
    print(f"Best chance to reach the top within 6 steps: {quick.exact} = {quick.value:.6f}")
    print(f"({fewest.states} states, {fewest.transitions} transitions)\n")

    print("The best choice at each position (for the fewest steps):")
    for valuation, action in sorted(fewest.strategy(), key=lambda row: row[0]["x"]):
        if valuation["x"] < 10:  # the top has no choice
            print(f"  x = {valuation['x']}: {action}")

    print("\nAt x = 5, every choice with its value and its loss:")
    for choice in fewest.choice_values({"x": 5}):
        print(f"  {choice.action:8} {float(choice.value):.6f}  loss {float(choice.loss):.6f}")


if __name__ == "__main__":
    main()
