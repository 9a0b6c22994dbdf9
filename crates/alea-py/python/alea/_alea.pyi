# The native half of the package. Its functions are internal: use the public modules.
__version__: str

# --- yahtzee (alea.yahtzee) -------------------------------------------------------

from typing import Any

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
