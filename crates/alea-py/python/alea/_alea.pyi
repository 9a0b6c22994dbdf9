# The native half of the package. Its functions are internal: use the public modules.
__version__: str

# Games written in Python (alea.game).
from typing import Any

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
