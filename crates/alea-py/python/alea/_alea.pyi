# The native half of the package. Its functions are internal: use the public modules.
from typing import Any

__version__: str

# Games written in Python (alea.game).

class SolvedGame:
    cyclic: bool
    explore_seconds: float
    solve_seconds: float
    exact: bool
    error_bound: float | None
    start: Any
    def __len__(self) -> int: ...
    def value(self, state: Any) -> Any: ...
    def kind(self, state: Any) -> str: ...
    def options(self, state: Any) -> list[tuple[Any, Any, Any, Any]]: ...

def game_solve(game: Any, exact: bool, precision: float, max_states: int) -> SolvedGame: ...

# --- patience, dice, jenga, mahjong, snakes -------------------------------------------
# Text comes in as bytes; exact values come back as (numerator, denominator) pairs.
# Each returns what the command line's --json prints, as dicts the public modules wrap.

def patience_random_play(text: bytes, exact: bool, layout: str) -> list[float] | list[tuple[int, int]]: ...
def patience_analyse(text: bytes, exact: bool, layout: str) -> list[dict[str, object]]: ...
def patience_hints(text: bytes, exact: bool, layout: str) -> list[dict[str, object]]: ...
def patience_stats(deals: int, seed: int, max_deals: int) -> dict[str, object]: ...
def patience_shuffle(deals: int, seed: int, max_deals: int) -> str: ...
def dice_analyse(
    text: bytes,
    exact: bool,
    distribution: int | None,
    max_work: int,
    max_exact_work: int,
    max_distribution_work: int,
    max_distribution_mib: int,
) -> list[dict[str, object]]: ...
def dice_expected_throws(
    faces: list[int],
    reset: list[list[int]],
    limit: int,
    exact: bool,
    distribution: int | None,
    max_work: int,
    max_exact_work: int,
    max_distribution_work: int,
    max_distribution_mib: int,
) -> dict[str, object]: ...
def jenga_analyse(text: bytes, exact: bool, max_states: int) -> dict[str, object]: ...
def jenga_hints(text: bytes, exact: bool, max_states: int) -> dict[str, object]: ...
def mahjong_analyse(text: bytes, exact: bool) -> dict[str, object]: ...
def snakes_analyse(
    board: bytes | None,
    spinner: int,
    overshoot: str,
    exact: bool,
    distribution: int | None,
    max_exact_work: int,
    max_distribution_work: int,
    max_distribution_mib: int,
) -> dict[str, object]: ...
# --- yahtzee (alea.yahtzee) -------------------------------------------------------


YAHTZEE_CATEGORIES: list[str]
YAHTZEE_BOXES: list[str]
YAHTZEE_RULES: list[str]
YAHTZEE_EXACT_MAX_OPEN: int

def yahtzee_assign(
    text: bytes, strict_full_house: bool, source: str
) -> list[tuple[list[int], int, int, list[int]]]: ...
def yahtzee_solve(rules: str) -> YahtzeeTable: ...
def yahtzee_load(path: str, rules: str | None = None) -> YahtzeeTable: ...

class YahtzeeTable:
    @property
    def rules(self) -> str: ...
    def value(self) -> tuple[str, float, float, int, float]: ...
    def to_bytes(self) -> bytes: ...
    def same_as(self, other: YahtzeeTable) -> bool: ...
    def advise(self, card: str, dice: str | None, rolls_left: int) -> dict[str, Any]: ...
    def simulate(
        self, card: str, dice: str | None, rolls_left: int, games: int, seed: int, max_games: int
    ) -> dict[str, Any]: ...
    def distribution(
        self,
        card: str,
        dice: str | None,
        rolls_left: int,
        games: int,
        seed: int,
        max_games: int,
        targets: str | None,
        simulate: bool,
    ) -> dict[str, Any]: ...

# --- pig (alea.pig) ---------------------------------------------------------------

def pig_check(goal: int, faces: int, piglet: bool, me: int, opponent: int, turn: int) -> None: ...
def pig_against(
    goal: int,
    faces: int,
    piglet: bool,
    hold_at: int,
    exact: bool,
    max_work: int,
    max_exact_work: int,
) -> dict[str, Any]: ...

class PigGame:
    def __init__(
        self,
        goal: int,
        faces: int,
        piglet: bool,
        exact: bool,
        max_work: int,
        max_exact_work: int,
    ) -> None: ...
    @property
    def goal(self) -> int: ...
    @property
    def faces(self) -> int | None: ...
    @property
    def exact(self) -> bool: ...
    @property
    def die(self) -> str: ...
    def first_player_wins(self) -> float: ...
    def summary(self) -> dict[str, Any]: ...
    def hint(self, me: int, opponent: int, turn: int) -> dict[str, Any]: ...
    def policy(self) -> dict[str, Any]: ...
# Model checking (alea.check).
class PrismAnswer:
    def report(self, state: str) -> dict: ...
    def variables(self) -> list[tuple[str, bool]]: ...
    def states(self) -> int: ...
    def strategy(self) -> list[tuple[dict[str, int | bool], str]]: ...
    def strategy_actions(self) -> list[str]: ...
    def strategy_bytes(self) -> bytes: ...
    def values_bytes(self) -> bytes: ...
    def valuations_bytes(self) -> bytes: ...

def prism_check(
    model_name: str,
    model: bytes,
    properties: list[tuple[str, bytes, bool]],
    constants: str | list[tuple[str, str]] | None,
    exact: bool,
    precision: float,
    at: str | None,
    max_states: int,
    prune: bool,
    fair: bool,
    weights: bool,
) -> tuple[dict, list[tuple[PrismAnswer, dict, dict | None]]]: ...
