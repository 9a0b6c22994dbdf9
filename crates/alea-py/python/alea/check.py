"""Model checking of PRISM-language models: :func:`check`.

The same check as ``alea check``, through the same library functions: the model is read
and resolved against its constants, explored, and each property answered, exactly with
``exact=True`` or in floating point with a certified error bound. ::

    >>> import alea
    >>> [r] = alea.check("examples/pig.prism", 'Pmax=? [F "won"]',
    ...                  {"goal": 20, "h": 10, "first": 0})
    >>> round(r.value, 6), r.states
    (0.745577, 4120)

Each property's result keeps the explored model and the values of its states on the
Rust side: :meth:`PropertyResult.value_at`, :meth:`~PropertyResult.choice_values`,
:meth:`~PropertyResult.strategy` and the NumPy arrays build what they return only when
asked.
"""

from __future__ import annotations

import dataclasses
import decimal
import math
import numbers
import os
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Union, overload

from . import _alea
from ._args import fraction, flag

if TYPE_CHECKING:  # pragma: no cover
    import numpy

__all__ = [
    "check",
    "PropertyResult",
    "ModelSize",
    "StateValue",
    "ChoiceValue",
    "Automaton",
    "ListedState",
    "Seconds",
]

#: A constant's value: a number, a bool, or the text of an expression (``"2*N"``).
ConstantValue = Union[bool, int, float, Fraction, decimal.Decimal, str]
#: A state: its variables' values, ``{"x": 2, "b": True}`` or ``"x=2,b=true"``.
State = Union[Mapping[str, Union[int, bool]], str]

# A single-line string with one of these endings that names no file is a missing file,
# not model text.
_MODEL_SUFFIXES = (".prism", ".pm", ".nm", ".props", ".pctl", ".prop")


@dataclasses.dataclass(frozen=True)
class Seconds:
    """How long the work took: ``build`` reading, resolving and exploring the model,
    ``check`` checking the property (None for the model's size alone)."""

    build: float
    check: float | None = None


@dataclasses.dataclass(frozen=True)
class ChoiceValue:
    """One choice of a state in an mdp: its ``action`` (``"[roll]"``, or ``"[] #2"`` for
    the second choice of unlabelled commands), what taking it is worth, and its ``loss``
    against the best choice (0 for the best). ``value``/``loss`` are floats (None when
    infinite); ``exact``/``loss_exact`` the same as fractions when checked with
    ``exact=True`` (else None)."""

    action: str
    value: float | None
    infinite: bool
    exact: Fraction | None
    error_bound: float
    loss: float | None
    loss_exact: Fraction | None


@dataclasses.dataclass(frozen=True)
class StateValue:
    """A property's value at one state, and in an mdp every choice there, best first.

    ``state`` holds the variables' values. ``value`` is None when infinite, and for a
    filter, which is one number for the model (then ``choices`` is empty too)."""

    state: dict[str, int | bool]
    value: float | None
    infinite: bool
    exact: Fraction | None
    error_bound: float | None
    choices: tuple[ChoiceValue, ...]


@dataclasses.dataclass(frozen=True)
class ListedState:
    """A state that a filter lists (``print``, ``printall``, ``argmin``, ``argmax``):
    ``state`` holds the variables' values; ``value`` (None when infinite), ``exact``
    and ``error_bound`` the property's number there, or ``holds`` its truth for a
    true/false property (and for a state of ``argmin`` or ``argmax``)."""

    state: dict[str, int | bool]
    value: float | None
    infinite: bool
    exact: Fraction | None
    error_bound: float | None
    holds: bool | None


@dataclasses.dataclass(frozen=True)
class ModelSize:
    """The size of the model explored, when no property is asked."""

    states: int
    transitions: int
    choices: int
    initial_states: int
    deadlocks: int
    seconds: Seconds

    def to_json(self) -> dict[str, Any]:
        """The object ``alea check --json`` prints for the model's size."""
        return {
            "states": self.states,
            "transitions": self.transitions,
            "choices": self.choices,
            "initial_states": self.initial_states,
            "deadlocks": self.deadlocks,
            "seconds": {"build": self.seconds.build},
        }


@dataclasses.dataclass(frozen=True)
class Automaton:
    """The automaton of a path of LTL: ``"finite"`` (a co-safe formula) or
    ``"limit-deterministic"``, its states met, and its product's states."""

    kind: str
    states: int
    product_states: int


@dataclasses.dataclass(frozen=True)
class PropertyResult:
    """One property answered, with the fields of ``alea check --json``.

    ``value`` is a float, None when infinite (an expected reward where the target is
    not reached with probability one); the true value is within ``error_bound`` of it
    (0 with ``exact=True``). ``exact`` is the value as a :class:`~fractions.Fraction`
    with ``exact=True``, else None. ``holds`` answers a bound query (``P>=0.9 [...]``),
    and is None otherwise. ``states`` ... ``deadlocks`` count the model explored;
    ``pruned`` says its targets were left unexpanded (see :func:`check`'s ``prune``).
    ``at`` is the value at the state asked for with ``at=``. A property that is only
    true or false (``E [F "goal"]``, ``x=1 & P>0.5 [F "goal"]``) has ``value`` None and
    ``infinite`` False; ``range`` holds the least and greatest values of
    ``filter(range, ...)``, and is None otherwise; ``listed`` the states that
    ``filter(print, ...)``, ``printall``, ``argmin`` and ``argmax`` list, in the
    order of the states (empty for other properties).

    A multi-objective query (``multi(...)``) with two ``=?`` has ``pareto``: the
    corners of the Pareto curve of its two objectives, from the best first objective
    to the best second, each a pair of floats (``pareto_exact`` as fractions with
    ``exact=True``); ``feasible`` is False where no strategy meets its bounds (then
    ``value`` is None), None otherwise. ``automata`` lists the automaton of each path of
    LTL checked: its kind (``"finite"`` for a co-safe formula, else
    ``"limit-deterministic"``), its states met, and the states of its product with the
    model.

    The methods ask the model kept with the result: the value and choices of any
    state, the strategy, and the values as arrays.
    """

    property: str
    name: str | None
    value: float | None
    infinite: bool
    exact: Fraction | None
    error_bound: float
    holds: bool | None
    states: int
    transitions: int
    choices: int
    initial_states: int
    deadlocks: int
    pruned: bool
    seconds: Seconds
    at: StateValue | None = None
    range: tuple[float | None, float | None] | None = None
    listed: tuple[ListedState, ...] = ()
    pareto: tuple[tuple[float, float], ...] = ()
    pareto_exact: tuple[tuple[Fraction, Fraction], ...] | None = None
    feasible: bool | None = None
    automata: tuple[Automaton, ...] = ()
    _pareto_numbers: Any = dataclasses.field(default=None, repr=False, compare=False)
    _answer: Any = dataclasses.field(default=None, repr=False, compare=False)
    _range_numbers: Any = dataclasses.field(default=None, repr=False, compare=False)
    _exact_mode: bool = dataclasses.field(default=False, repr=False, compare=False)

    def value_at(self, state: State) -> StateValue:
        """The value at a state given by its variables' values (those left out may have
        any value if only one explored state matches), with every choice there."""
        return _state_value(self._answer.report(_state_text(state, "state")))

    def choice_values(self, state: State) -> list[ChoiceValue]:
        """Every choice of a state with its value and its loss, best first; empty where
        nothing is chosen (a dtmc, a target, a state with one choice)."""
        return list(self.value_at(state).choices)

    def strategy(self) -> list[tuple[dict[str, int | bool], str]]:
        """The best choice of every explored state, as (variables' values, action), in
        the order of the states (as ``alea check --strategy FILE`` writes them).

        Raises ValueError for a dtmc (no choices), a filter, or a step-bounded property
        (whose best choice depends on the steps left)."""
        return self._answer.strategy()

    def owners(self) -> list[str] | None:
        """In a game (``smg``), the player whose turn each explored state is, in the order
        of the states (as :meth:`strategy` lists them); ``None`` for a dtmc or an mdp."""
        return self._answer.owners()

    def strategy_actions(self) -> list[str]:
        """The action of the best choice of every state, as :meth:`strategy` without
        the states' values."""
        return self._answer.strategy_actions()

    @property
    def variables(self) -> tuple[str, ...]:
        """The model's variables, in the order of the columns of :meth:`states_array`."""
        return tuple(name for name, _ in self._answer.variables())

    def strategy_array(self) -> numpy.ndarray:
        """The best choice of every state as its index among the state's choices, in the
        order the model lists them (a NumPy ``uint32`` array; needs NumPy)."""
        np = _numpy()
        return np.frombuffer(self._answer.strategy_bytes(), dtype="<u4").copy()

    def values_array(self) -> numpy.ndarray:
        """The value of every state (a NumPy ``float64`` array, ``inf`` where infinite;
        needs NumPy). Raises ValueError for a filter."""
        np = _numpy()
        return np.frombuffer(self._answer.values_bytes(), dtype="<f8").copy()

    def states_array(self) -> numpy.ndarray:
        """The variables' values of every state, one row per state and one column per
        variable of :attr:`variables` (booleans as 0 and 1; a NumPy ``int64`` array;
        needs NumPy)."""
        np = _numpy()
        width = len(self._answer.variables())
        flat = np.frombuffer(self._answer.valuations_bytes(), dtype="<i8")
        return flat.reshape(-1, width).copy() if width else flat.reshape(-1, 0).copy()

    def to_json(self) -> dict[str, Any]:
        """The object ``alea check --json`` prints for this property, key for key."""
        o: dict[str, Any] = {"property": self.property}
        if self.name is not None:
            o["name"] = self.name
        _number_json(o, self.value, self.infinite, self.exact, self.error_bound, self._exact_mode)
        if self.feasible is False:
            o["feasible"] = False
        if self._pareto_numbers:
            corners = []
            for pair in self._pareto_numbers:
                corner = []
                for value, infinite, exact_value, bound in pair:
                    end: dict[str, Any] = {}
                    _number_json(end, value, infinite, fraction(exact_value), bound, self._exact_mode)
                    corner.append(end)
                corners.append(corner)
            o["pareto"] = corners
        if self._range_numbers is not None:
            ends = []
            for value, infinite, exact_value, bound in self._range_numbers:
                end: dict[str, Any] = {}
                _number_json(end, value, infinite, fraction(exact_value), bound, self._exact_mode)
                ends.append(end)
            o["range"] = ends
        if self.holds is not None:
            o["holds"] = self.holds
        if self.listed:
            listed = []
            for item in self.listed:
                e: dict[str, Any] = {"state": dict(item.state)}
                if item.holds is None:
                    _number_json(
                        e, item.value, item.infinite, item.exact, item.error_bound, self._exact_mode
                    )
                else:
                    e["holds"] = item.holds
                listed.append(e)
            o["listed"] = listed
        o.update(
            states=self.states,
            transitions=self.transitions,
            choices=self.choices,
            initial_states=self.initial_states,
            deadlocks=self.deadlocks,
        )
        if self.automata:
            o["automata"] = [
                {"kind": a.kind, "states": a.states, "product_states": a.product_states}
                for a in self.automata
            ]
        o.update(
            pruned=self.pruned,
            seconds={"build": self.seconds.build, "check": self.seconds.check},
        )
        if self.at is not None:
            o["at"] = _state_json(self.at, self._exact_mode)
        return o


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "this method returns a NumPy array and needs numpy (pip install numpy); "
            "strategy() and value_at() give the same as Python lists"
        ) from e
    return numpy


def _choice(action: str, number: tuple, loss: tuple) -> ChoiceValue:
    value, infinite, exact, bound = number
    return ChoiceValue(
        action=action,
        value=value,
        infinite=infinite,
        exact=fraction(exact),
        error_bound=bound,
        loss=loss[0],
        loss_exact=fraction(loss[2]),
    )


def _state_value(report: dict) -> StateValue:
    number = report["number"]
    value, infinite, exact, bound = number if number is not None else (None, False, None, None)
    return StateValue(
        state=report["state"],
        value=value,
        infinite=infinite,
        exact=fraction(exact),
        error_bound=bound,
        choices=tuple(_choice(*c) for c in report["choices"]),
    )


def _fraction_text(q: Fraction) -> str:
    return f"{q.numerator}/{q.denominator}"


def _number_json(
    o: dict[str, Any],
    value: float | None,
    infinite: bool,
    exact: Fraction | None,
    bound: float | None,
    exact_mode: bool,
) -> None:
    o["value"] = value
    o["infinite"] = infinite
    if exact_mode:
        o["exact"] = None if exact is None else _fraction_text(exact)
    o["error_bound"] = bound


def _listed_state(state: dict[str, int | bool], number: Any, holds: bool | None) -> ListedState:
    if number is None:
        return ListedState(state, None, False, None, None, holds)
    value, infinite, exact_value, bound = number
    return ListedState(state, value, infinite, fraction(exact_value), bound, None)


def _state_json(s: StateValue, exact_mode: bool) -> dict[str, Any]:
    o: dict[str, Any] = {"state": dict(s.state)}
    if s.error_bound is not None:
        _number_json(o, s.value, s.infinite, s.exact, s.error_bound, exact_mode)
    if s.choices:
        choices = []
        for c in s.choices:
            d: dict[str, Any] = {"action": c.action}
            _number_json(d, c.value, c.infinite, c.exact, c.error_bound, exact_mode)
            d["loss"] = c.loss
            if exact_mode:
                d["loss_exact"] = None if c.loss_exact is None else _fraction_text(c.loss_exact)
            choices.append(d)
        o["choices"] = choices
    return o


def _read(path: str | os.PathLike[str] | os.PathLike[bytes]) -> tuple[str, bytes]:
    name = os.fsdecode(os.fspath(path))
    with open(path, "rb") as f:
        return name, f.read()


def _is_file_name(text: str) -> bool:
    """The rule for a string argument: a file's name if it holds no newline and names an
    existing file."""
    return "\n" not in text and "\r" not in text and os.path.isfile(text)


def _model(model: str | os.PathLike) -> tuple[str, bytes]:
    if isinstance(model, os.PathLike):
        return _read(model)
    if not isinstance(model, str):
        raise TypeError(
            f"model: expected PRISM text, a path or a file name, not {type(model).__name__}"
        )
    if _is_file_name(model):
        return _read(model)
    single = "\n" not in model and "\r" not in model
    if single and model.strip().lower().endswith(_MODEL_SUFFIXES):
        raise FileNotFoundError(2, "model: no such file", model)
    return "<model>", model.encode("utf-8", "surrogatepass")


def _properties(properties: Any) -> list[tuple[str, bytes, bool]]:
    """(name, text, whether it must hold a property) of each text of properties."""
    if properties is None:
        return []
    if isinstance(properties, (str, os.PathLike)):
        items = [properties]
        names = ["<properties>"]
    elif isinstance(properties, Sequence) and not isinstance(properties, (bytes, bytearray)):
        items = list(properties)
        if not items:
            return []
        names = (
            ["<properties>"]
            if len(items) == 1
            else [f"<properties #{i}>" for i in range(1, len(items) + 1)]
        )
    else:
        raise TypeError(
            "properties: expected a string, a path, or a list of them, "
            f"not {type(properties).__name__}"
        )
    texts = []
    for name, item in zip(names, items):
        if isinstance(item, os.PathLike) or (isinstance(item, str) and _is_file_name(item)):
            # A file of properties, as `--props FILE`: its name, and it may hold none.
            texts.append((*_read(item), False))
        elif isinstance(item, str):
            texts.append((name, item.encode("utf-8", "surrogatepass"), True))
        else:
            raise TypeError(
                f"properties: expected a string or a path, not {type(item).__name__}"
            )
    return texts


def _constant_text(name: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, Fraction):
        return f"({value.numerator}/{value.denominator})"
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ValueError(f"constants: the value of `{name}` is {value}, not a finite number")
        return format(value, "f")
    if isinstance(value, numbers.Rational):
        return f"({int(value.numerator)}/{int(value.denominator)})"
    if isinstance(value, numbers.Real):
        v = float(value)
        if not math.isfinite(v):
            raise ValueError(f"constants: the value of `{name}` is {v}, not a finite number")
        # The shortest decimal that reads back as the float: 0.1 is read as 1/10.
        return repr(v)
    raise TypeError(
        f"constants: the value of `{name}` is a {type(value).__name__}; expected an int, "
        "a float, a bool, a Fraction or the text of an expression"
    )


def _constants(constants: Any) -> str | list[tuple[str, str]] | None:
    if constants is None:
        return None
    if isinstance(constants, str):
        return constants
    if isinstance(constants, Mapping):
        pairs = []
        for name, value in constants.items():
            if not isinstance(name, str):
                raise TypeError(f"constants: a name is a string, not {type(name).__name__}")
            pairs.append((name, _constant_text(name, value)))
        return pairs
    raise TypeError(
        "constants: expected a dict {name: value} or a string such as 'N=3,p=0.1', "
        f"not {type(constants).__name__}"
    )


def _state_text(state: Any, argument: str) -> str:
    if isinstance(state, str):
        return state
    if isinstance(state, Mapping):
        parts = []
        for name, value in state.items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, numbers.Integral):
                text = str(int(value))
            else:
                raise TypeError(
                    f"{argument}: the value of `{name}` is a {type(value).__name__}; "
                    "a variable's value is an int or a bool"
                )
            parts.append(f"{name}={text}")
        return ",".join(parts)
    raise TypeError(
        f"{argument}: expected a dict {{variable: value}} or a string such as 'x=2,y=0', "
        f"not {type(state).__name__}"
    )


@overload
def check(
    model: str | os.PathLike,
    properties: None = None,
    constants: Mapping[str, ConstantValue] | str | None = None,
    exact: bool = False,
    precision: float = 1e-9,
    *,
    at: State | None = None,
    max_states: int = 100_000_000,
    prune: bool = True,
    fair: bool = False,
    weights: bool = False,
) -> ModelSize: ...


@overload
def check(
    model: str | os.PathLike,
    properties: str | os.PathLike | Sequence[str | os.PathLike],
    constants: Mapping[str, ConstantValue] | str | None = None,
    exact: bool = False,
    precision: float = 1e-9,
    *,
    at: State | None = None,
    max_states: int = 100_000_000,
    prune: bool = True,
    fair: bool = False,
    weights: bool = False,
) -> list[PropertyResult]: ...


def check(
    model: str | os.PathLike,
    properties: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    constants: Mapping[str, ConstantValue] | str | None = None,
    exact: bool = False,
    precision: float = 1e-9,
    *,
    at: State | None = None,
    max_states: int = 100_000_000,
    prune: bool = True,
    fair: bool = False,
    weights: bool = False,
) -> list[PropertyResult] | ModelSize:
    """Checks the properties of a model in the PRISM language (dtmc or mdp), as
    ``alea check`` does.

    ``model`` is a path (any :class:`os.PathLike`) or a string. A string is the name of
    a file when it holds no newline and names an existing file; otherwise it is the
    model's text (named ``"<model>"`` in errors). A one-line string ending in
    ``.prism``, ``.pm`` or ``.nm`` that names no file raises :class:`FileNotFoundError`
    rather than being read as a model.

    ``properties`` is a string of one or several properties, read as a properties file
    is (separated by ``;`` or lines, optionally named ``"name": P=? [...]``, with
    ``//`` comments and ``const`` declarations; named ``"<properties>"`` in errors), a
    list of such strings (``"<properties #1>"``, ...), or a path to a properties file
    (the same rule for strings as ``model``). With None, or texts that hold no property,
    the model's size is returned (a :class:`ModelSize`) instead of a list.

    ``constants`` gives the constants the model or properties leave open: a dict
    ``{"N": 3, "p": 0.1}`` (ints, floats, bools, Fractions, or strings read as
    expressions; a float is read as its shortest decimal, so 0.1 is 1/10 with
    ``exact=True``) or a string ``"N=3,p=0.1"``.

    ``exact=True`` computes in rationals from the literals on, every value proven
    (``PropertyResult.exact``); otherwise in floating point, each value certified within
    its ``error_bound`` of the truth, at most ``precision`` (absolute, and relative for
    values above 1). A small model whose iteration cannot reach it is solved exactly
    instead. ``at`` asks for each property's value at a state, ``{"x": 2}`` or
    ``"x=2,y=0"`` (``PropertyResult.at``). ``max_states`` bounds the states explored.

    ``prune=True`` leaves the properties' targets unexpanded when their successors
    cannot change the answer, as the command line does; the results' strategy and
    values then cover the states explored. ``prune=False`` (or ``at``) explores every
    reachable state, as ``alea check --strategy`` does.

    ``fair=True`` counts only the fair strategies of an mdp, as ``alea check --fair``
    (PRISM's ``-fair``): those that take every choice of a state they visit infinitely
    often infinitely often. ``weights=True`` reads the probabilities as weights, as
    ``alea check --weights``: each state's (in a dtmc) or each choice's (in an mdp)
    divided by their sum.

    Exploring and checking run without holding the interpreter; Ctrl-C interrupts.

    Raises :class:`~alea.InputError` for a model, property or constant that cannot be
    read or resolved (``source``, ``line`` and ``column`` as the command line reports
    them; ``source`` is ``"constants"`` or ``"at"`` for those arguments),
    :class:`~alea.LimitError` with ``limit="max_states"`` for too many states and
    ``limit="precision"`` for a precision that cannot be reached (or a value too close
    to a bound to tell), :class:`~alea.ModelError` for a model the engine cannot
    evaluate.
    """
    if isinstance(max_states, bool) or not isinstance(max_states, numbers.Integral):
        raise TypeError(f"max_states: expected an int, not {type(max_states).__name__}")
    if max_states < 1:
        raise ValueError(f"max_states: expected at least 1, found {max_states}")
    precision = float(precision)
    name, data = _model(model)
    texts = _properties(properties)
    size, answers = _alea.prism_check(
        name,
        data,
        texts,
        _constants(constants),
        flag("exact", exact),
        precision,
        None if at is None else _state_text(at, "at"),
        min(int(max_states), 2**63 - 1),
        flag("prune", prune),
        flag("fair", fair),
        flag("weights", weights),
    )
    if not answers:
        return ModelSize(
            states=size["states"],
            transitions=size["transitions"],
            choices=size["choices"],
            initial_states=size["initial_states"],
            deadlocks=size["deadlocks"],
            seconds=Seconds(build=size["seconds"]["build"]),
        )
    results = []
    for handle, f, at_report in answers:
        value, infinite, exact_value, bound = f["number"]
        results.append(
            PropertyResult(
                property=f["property"],
                name=f["name"],
                value=value,
                infinite=infinite,
                exact=fraction(exact_value),
                error_bound=bound,
                holds=f["holds"],
                states=f["states"],
                transitions=f["transitions"],
                choices=f["choices"],
                initial_states=f["initial_states"],
                deadlocks=f["deadlocks"],
                pruned=f["pruned"],
                seconds=Seconds(build=f["seconds"]["build"], check=f["seconds"]["check"]),
                at=None if at_report is None else _state_value(at_report),
                range=None if f["range"] is None else (f["range"][0][0], f["range"][1][0]),
                listed=tuple(_listed_state(*item) for item in f["listed"]),
                pareto=tuple((a[0], b[0]) for a, b in f["pareto"]),
                pareto_exact=(
                    tuple((fraction(a[2]), fraction(b[2])) for a, b in f["pareto"])
                    if flag("exact", exact)
                    else None
                ),
                feasible=f["feasible"],
                automata=tuple(Automaton(*a) for a in f["automata"]),
                _pareto_numbers=f["pareto"],
                _answer=handle,
                _range_numbers=f["range"],
                _exact_mode=flag("exact", exact),
            )
        )
    return results
