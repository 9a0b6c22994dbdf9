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
