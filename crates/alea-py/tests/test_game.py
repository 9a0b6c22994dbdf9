"""Games written in Python, solved by the engine: checked against the built-in games
(the One Person Game against `alea dice`, Pig against `alea pig`), against brute force,
and for every way a game can be written wrong."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import alea
from conftest import ctrl_c_after


class OnePersonGame:
    """The judge's dice game: a counter from 0; each throw of three dice adds their sum,
    or resets the counter to 0 on the exact triple (a, b, c); over n, the game ends.
    Each throw costs 1: the value is the expected number of throws."""

    def __init__(self, n: int, faces: tuple[int, int, int], triple: tuple[int, int, int]):
        self.n = n
        self.outcomes: dict[int, int] = {}
        for roll in itertools.product(*(range(1, k + 1) for k in faces)):
            step = -1 if roll == triple else sum(roll)
            self.outcomes[step] = self.outcomes.get(step, 0) + 1

    def start(self) -> int:
        return 0

    def expand(self, counter: int):
        if counter > self.n:
            return ("terminal", 0)
        successors: dict[int, int] = {}
        for step, weight in self.outcomes.items():
            after = 0 if step < 0 else counter + step
            successors[after] = successors.get(after, 0) + weight
        return ("chance", 1, successors)


class Pig:
    """Pig to `goal` for two players, seen from the first: its choices maximise its
    chance of winning, the second player's minimise it."""

    def __init__(self, goal: int) -> None:
        self.goal = goal

    def start(self):
        return ("throw", 0, 0, 0, 0)

    def expand(self, state):
        if state[0] == "won":
            return ("terminal", 1 if state[1] == 0 else 0)
        kind, player, first, second, turn = state
        banked = first if player == 0 else second
        if kind == "throw":
            successors = [(("throw", 1 - player, first, second, 0), 1)]
            for face in range(2, 7):
                if banked + turn + face >= self.goal:
                    successors.append((("won", player), 1))
                else:
                    successors.append((("decide", player, first, second, turn + face), 1))
            return ("chance", 0, successors)
        hold = (
            ("throw", 1, first + turn, second, 0)
            if player == 0
            else ("throw", 0, first, second + turn, 0)
        )
        again = ("throw", player, first, second, turn)
        return ("max" if player == 0 else "min", 0, {"hold": hold, "roll": again})


def dice_cases() -> list[tuple[int, tuple[int, int, int], tuple[int, int, int]]]:
    cases = [(0, (2, 2, 2), (1, 1, 1)), (0, (6, 6, 6), (1, 1, 1))]
    rng = random.Random(17)
    for _ in range(6):
        faces = tuple(rng.randint(2, 6) for _ in range(3))
        triple = tuple(rng.randint(1, k) for k in faces)
        cases.append((rng.randint(0, 60), faces, triple))  # type: ignore[arg-type]
    return cases


@pytest.mark.parametrize("n,faces,triple", dice_cases())
def test_the_dice_game_in_python_equals_alea_dice(cli, n, faces, triple) -> None:
    case = f"1\n{n} {' '.join(map(str, faces))} {' '.join(map(str, triple))}\n"
    [expected] = cli.json("dice", "--json", "--exact", input=case)
    exact = alea.solve(OnePersonGame(n, faces, triple), exact=True)
    assert exact.value == Fraction(expected["expected_throws_exact"])
    assert exact.cyclic and exact.error_bound == 0
    floating = alea.solve(OnePersonGame(n, faces, triple))
    assert abs(floating.value - expected["expected_throws"]) <= floating.error_bound + 1e-12 * (
        expected["expected_throws"]
    )


@pytest.mark.parametrize("goal", [2, 5, 12, 30])
def test_pig_in_python_equals_alea_pig(cli, goal) -> None:
    [expected] = cli.json("pig", "--goal", str(goal), "--json")
    solution = alea.solve(Pig(goal))
    assert abs(solution.value - expected["first_player_wins"]) <= (
        solution.error_bound + expected["error_bound"]
    )


def test_pig_in_python_equals_alea_pig_exactly(cli) -> None:
    [expected] = cli.json("pig", "--goal", "20", "--exact", "--json")
    solution = alea.solve(Pig(20), exact=True)
    assert solution.value == Fraction(expected["first_player_wins_exact"])
    assert isinstance(solution.value, Fraction)


def test_every_option_with_its_value_and_loss_equals_alea_pig_hint(cli) -> None:
    goal = 40
    solution = alea.solve(Pig(goal))
    for me, opponent, turn in [(21, 29, 17), (0, 0, 10), (35, 10, 4), (12, 38, 20)]:
        [hint] = cli.json(
            "pig", "hint", "--goal", str(goal), "--me", str(me), "--opponent", str(opponent),
            "--turn", str(turn), "--json",
        )
        options = solution.options(("decide", 0, me, opponent, turn))
        assert [o.move for o in options][0] == hint["best"]
        bound = solution.error_bound + hint["error_bound"]
        for o in options:
            assert abs(o.value - hint[o.move]) <= bound
        assert options[0].loss == 0
        assert abs(options[1].loss - hint["loss"]) <= 2 * bound
        assert solution.best(("decide", 0, me, opponent, turn)) == options[0]
        # The second player's choices minimise the first player's chance.
        second = solution.options(("decide", 1, opponent, me, turn))
        assert second[0].value <= second[1].value


def brute_force(game, state, exact=True):
    """The value of `state` by plain recursion over an acyclic game."""
    node = game.expand(state)
    kind, reward = node[0], node[1]
    if kind == "terminal":
        return Fraction(reward)
    successors = node[2]
    if kind == "chance":
        pairs = list(successors.items()) if isinstance(successors, dict) else list(successors)
        total = sum(w for _, w in pairs)
        return reward + sum(Fraction(w, total) * brute_force(game, s) for s, w in pairs)
    states = list(successors.values()) if isinstance(successors, dict) else list(successors)
    values = [brute_force(game, s) for s in states]
    return reward + (max(values) if kind == "max" else min(values))


class RandomTree:
    """A random acyclic game with rewards of both signs and every kind of node."""

    def __init__(self, seed: int, depth: int) -> None:
        self.seed = seed
        self.depth = depth

    def start(self):
        return (0, 0)

    def expand(self, state):
        depth, label = state
        rng = random.Random(hash((self.seed, depth, label)))
        if depth == self.depth or rng.random() < 0.15:
            return ("terminal", rng.randint(-5, 9))
        kind = rng.choice(["chance", "max", "min"])
        # Few labels a level, so that positions are shared between branches.
        children = [(depth + 1, rng.randint(0, 6)) for _ in range(rng.randint(1, 3))]
        reward = rng.randint(-2, 2)
        if kind == "chance":
            return ("chance", reward, [(c, rng.randint(0, 4)) for c in children] + [(children[0], 1)])
        return (kind, reward, children)


@pytest.mark.parametrize("seed", range(12))
def test_acyclic_games_equal_brute_force(seed) -> None:
    game = RandomTree(seed, 7)
    exact = alea.solve(game, exact=True)
    assert not exact.cyclic
    assert exact.value == brute_force(game, game.start())
    floating = alea.solve(game)
    assert floating.error_bound is None
    assert abs(floating.value - float(exact.value)) < 1e-12
    # Every reachable state, not only the start.
    for depth in range(7):
        for label in range(7):
            s = (depth, label)
            if s in exact:
                assert exact.value_of(s) == brute_force(game, s)


def test_choices_on_cycles_are_solved_exactly() -> None:
    # Minimise the expected steps to reach n: walking costs 1 a step; a gamble costs 1
    # and jumps 3 ahead or back to 0, evenly. The best play and its value by hand:
    # value iteration in exact fractions on the same rules.
    class Walk:
        n = 6

        def start(self):
            return 0

        def expand(self, s):
            if isinstance(s, int):
                if s >= self.n:
                    return ("terminal", 0)
                return ("min", 0, {"walk": ("w", s), "gamble": ("g", s)})
            kind, at = s
            if kind == "w":
                return ("chance", 1, [(at + 1, 1)])
            return ("chance", 1, [(at + 3, 1), (0, 1)])

    solution = alea.solve(Walk(), exact=True)
    assert solution.cyclic
    # By hand: from s, walking costs n - s; gambling from s costs v = 1 + (v(s+3) + v(0)) / 2.
    # With the best play, the values satisfy v(s) = min(walk, gamble); solve by iterating
    # over the choice at each state (policy enumeration on 6 states).
    best = None
    for policy in itertools.product([0, 1], repeat=6):
        # Linear system v(s) for this policy, by fixed-point in fractions: v0 unknown.
        # v(s) for s >= 6 is 0; express v(s) = a_s + b_s * v0 backwards.
        a = {s: Fraction(0) for s in range(6, 10)}
        b = {s: Fraction(0) for s in range(6, 10)}
        for s in range(5, -1, -1):
            if policy[s] == 0:
                a[s], b[s] = 1 + a[s + 1], b[s + 1]
            else:
                a[s], b[s] = 1 + a[s + 3] / 2, b[s + 3] / 2 + Fraction(1, 2)
        if b[0] >= 1:
            continue
        v0 = a[0] / (1 - b[0])
        best = v0 if best is None else min(best, v0)
    assert solution.value == best
    options = solution.options(0)
    assert {o.move for o in options} == {"walk", "gamble"}
    assert options[0].value <= options[1].value and options[0].loss == 0


def test_a_cycle_of_zero_rewards_between_the_players_is_solved() -> None:
    # The minimiser pays to end the game, 5 at "a" or 3 at "b"; passing between "a" and
    # "m" is free. At "m" the maximiser ends it at a cost of 4 or sends it back to "a":
    # staying for ever would never end the game (infinitely costly for the minimiser),
    # so he ends it at "a" (5) or passes to "m", where the maximiser picks the dearer of
    # 4 and going back (5 again): 5. From "b", 3 at once, or on to "a": 3.
    class Free:
        def start(self):
            return "b"

        def expand(self, s):
            if s == "end":
                return ("terminal", 0)
            if s == "a":
                return ("min", 0, {"pay 5": "a5", "pass": "m"})
            if s == "b":
                return ("min", 0, {"pay 3": "b3", "on": "a"})
            if s == "m":
                return ("max", 0, {"end": "m4", "back": "a"})
            cost = {"a5": 5, "b3": 3, "m4": 4}[s]
            return ("chance", cost, [("end", 1)])

    exact = alea.solve(Free(), exact=True)
    assert exact.value == 3
    assert exact.value_of("a") == 5 and exact.value_of("m") == 5
    certified = alea.solve(Free())
    assert abs(certified.value_of("a") - 5) <= certified.error_bound


def test_the_start_value_and_reachable_states() -> None:
    solution = alea.solve(OnePersonGame(3, (2, 2, 2), (1, 1, 1)), exact=True)
    assert solution.start == 0
    assert solution.value == solution.value_of(0)
    assert solution.kind(0) == "chance"
    assert solution.options(0) == []
    assert 0 in solution and "nowhere" not in solution
    with pytest.raises(KeyError):
        solution.value_of(-1)
    assert len(solution) == solution.states


@pytest.mark.parametrize(
    "node, error, text",
    [
        (None, TypeError, "returned a NoneType"),
        (("chance",), TypeError, "a tuple of 1 items"),
        (("dance", 0, []), alea.ModelError, 'the kind \'dance\''),
        (("chance", 0.5, [(1, 1)]), TypeError, "is not an integer"),
        (("chance", 0, [1, 2]), TypeError, "must be a (state, weight) pair"),
        (("chance", 0, [(1, -1)]), alea.ModelError, "is not a whole number"),
        (("chance", 0, [(1, 0)]), alea.ModelError, "no successors"),
        (("max", 0, []), alea.ModelError, "no successors"),
        (("terminal", 0, [1]), alea.ModelError, "a terminal node has no successors"),
        (("chance", 0, [([1], 1)]), TypeError, "unhashable"),
    ],
)
def test_a_node_of_the_wrong_form_is_a_clear_error(node, error, text) -> None:
    class Wrong:
        def start(self):
            return 0

        def expand(self, s):
            return node if s == 0 else ("terminal", 0)

    with pytest.raises(error, match=None) as caught:
        alea.solve(Wrong())
    assert text in str(caught.value)


def test_an_exception_in_expand_comes_through() -> None:
    class Broken:
        def start(self):
            return 0

        def expand(self, s):
            if s == 3:
                raise ZeroDivisionError("the game's own bug")
            return ("chance", 0, [(s + 1, 1)])

    with pytest.raises(ZeroDivisionError, match="the game's own bug"):
        alea.solve(Broken())


def test_a_game_without_the_methods_is_refused() -> None:
    with pytest.raises(TypeError, match="expand"):
        alea.solve(type("NoExpand", (), {"start": lambda self: 0})())


def test_too_many_states_names_the_limit() -> None:
    with pytest.raises(alea.LimitError) as caught:
        alea.solve(OnePersonGame(200, (6, 6, 6), (1, 1, 1)), max_states=50)
    assert caught.value.limit == "max_states"


def test_a_game_that_may_never_end_is_a_model_error() -> None:
    class Forever:
        def start(self):
            return 0

        def expand(self, s):
            return ("chance", 1, [(1 - s, 1)])

    with pytest.raises(alea.ModelError, match="infinite|never"):
        alea.solve(Forever())


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="precision"):
        alea.solve(Pig(5), precision=0)
    with pytest.raises(ValueError, match="max_states"):
        alea.solve(Pig(5), max_states=0)
    with pytest.raises(TypeError, match="exact"):
        alea.solve(Pig(5), exact="yes")  # type: ignore[arg-type]


def test_ctrl_c_stops_the_exploration() -> None:
    class Endless:
        def start(self):
            return 0

        def expand(self, s):
            return ("chance", 0, [(s + 1, 1)])

    # Ten million states take many seconds to explore: if Ctrl-C is missed, the limit
    # fails the test before the exploration fills the memory.
    with ctrl_c_after(0.3), pytest.raises(KeyboardInterrupt):
        alea.solve(Endless(), max_states=10**7)


def test_a_terminal_may_list_its_no_successors_in_any_empty_iterable() -> None:
    class Generators:
        def start(self):
            return 0

        def expand(self, s):
            if s == 2:
                return ("terminal", 5, (x for x in ()))
            return ("chance", 0, ((s + 1, 1) for _ in range(1)))

    assert alea.solve(Generators(), exact=True).value == 5


class GamblersRuin:
    """A fair coin moves a gambler's fortune up or down by one until it is 0 or `n`: the
    chance of reaching `n` from `start` is start / n (and the expected number of throws
    start * (n - start), asked with `cost`)."""

    def __init__(self, n: int, start: int, cost: int = 0) -> None:
        self.n, self.first, self.cost = n, start, cost

    def start(self) -> int:
        return self.first

    def expand(self, k: int):
        if k == 0 or k == self.n:
            return ("terminal", 0 if self.cost else int(k == self.n))
        return ("chance", self.cost, [(k - 1, 1), (k + 1, 1)])


def test_gamblers_ruin_to_100_in_floating_point() -> None:
    solution = alea.solve(GamblersRuin(100, 16))
    assert solution.cyclic and len(solution) == 101
    assert abs(solution.value - 0.16) <= solution.error_bound <= 1e-12
    for k in (1, 50, 99):
        assert abs(solution.value_of(k) - k / 100) <= solution.error_bound


def test_gamblers_ruin_to_1000_exactly() -> None:
    solution = alea.solve(GamblersRuin(1000, 16), exact=True)
    assert solution.value == Fraction(16, 1000)
    assert solution.value_of(999) == Fraction(999, 1000)
    steps = alea.solve(GamblersRuin(1000, 16, cost=1), exact=True)
    assert steps.value == 16 * (1000 - 16)


class PassLine:
    """The pass-line bet of craps, won (+1) or lost (-1): the come-out roll wins on 7 or
    11 and loses on 2, 3 or 12; any other total becomes the point, rolled again until it
    comes back (a win) or a 7 comes (a loss)."""

    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}

    def start(self):
        return "come-out"

    def expand(self, state):
        if state in ("won", "lost"):
            return ("terminal", 1 if state == "won" else -1)
        successors: dict = {}
        for total, ways in self.ways.items():
            if state == "come-out":
                after = (
                    "won"
                    if total in (7, 11)
                    else "lost"
                    if total in (2, 3, 12)
                    else total
                )
            else:
                after = "won" if total == state else "lost" if total == 7 else state
            successors[after] = successors.get(after, 0) + ways
        return ("chance", 0, successors)


def test_a_bet_won_or_lost_is_worth_its_expected_payoff() -> None:
    exact = alea.solve(PassLine(), exact=True)
    assert exact.value == Fraction(-7, 495)
    floating = alea.solve(PassLine())
    assert abs(Fraction(floating.value) - Fraction(-7, 495)) <= Fraction(floating.error_bound)


def test_payoffs_of_both_signs_where_a_game_may_go_on_forever_are_refused() -> None:
    class Forever:
        def start(self):
            return "deciding"

        def expand(self, s):
            if s in (1, -1):
                return ("terminal", s)
            # Stay and decide again, or take a payoff of either sign.
            return ("max", 0, {"wait": "deciding", "win": 1, "lose": -1})

    with pytest.raises(alea.ModelError, match="'deciding'"):
        alea.solve(Forever())


def test_an_error_names_the_games_own_state() -> None:
    class Empty:
        def start(self):
            return "the-start"

        def expand(self, s):
            return ("chance", 0, [])

    with pytest.raises(alea.ModelError, match="the chance node at state 'the-start' has no"):
        alea.solve(Empty())

    class Spinning:
        def start(self):
            return "the-start"

        def expand(self, s):
            return ("chance", 1, [("elsewhere" if s == "the-start" else "the-start", 1)])

    with pytest.raises(alea.ModelError, match="'the-start'"):
        alea.solve(Spinning())
