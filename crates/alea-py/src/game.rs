//! Games written in Python, solved by the engine.
//!
//! A Python game is an object with `start()` and `expand(state)`; states are any
//! hashable Python values. The engine cannot call Python from its worker threads (the
//! interpreter is held by one thread at a time), so the game is first explored here,
//! holding the interpreter: every reachable state is numbered through a Python dict
//! (Python's own hashing and equality) and its node built into the engine's explicit
//! form, as the engine builds a game of its own. That form is solved with the
//! interpreter released, by the same solvers as a model file: one topological pass when
//! no state comes back, else certified bounds; or proven exact rationals; Ctrl-C stops them. An error names the game's state by its
//! `repr`.
//!
//! The callbacks are the cost: one `expand` call a state and a dict lookup a successor
//! (see the README for the measured rate).

use std::sync::Arc;
use std::time::Instant;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use alea_core::form::build::{Builder, Game, Node};
use alea_core::solve::acyclic::solve as acyclic_solve;
use alea_core::solve::game::{certified_values, exact_values};
use alea_core::{options, Exact, Goal, Kind, Limits, Pick, Solution, Stop};

use crate::convert::fraction;
use crate::errors;
use crate::work::stoppable;

/// How often exploration looks for Ctrl-C, in states.
const SIGNAL_EVERY: usize = 4096;

/// The game built, with the Python side of each state: the state objects by number,
/// the dict that numbers them, and the name the game gave each option of a choice (if
/// any), one per transition of the form.
struct Explored {
    game: Game,
    states: Vec<Py<PyAny>>,
    index: Py<PyDict>,
    labels: Vec<Option<Py<PyAny>>>,
}

/// Numbers Python states as they are met.
struct Numbering<'py> {
    py: Python<'py>,
    index: Bound<'py, PyDict>,
    states: Vec<Py<PyAny>>,
    max_states: usize,
}

impl<'py> Numbering<'py> {
    fn id(&mut self, state: &Bound<'py, PyAny>) -> PyResult<u32> {
        if let Some(id) = self.index.get_item(state)? {
            return id.extract::<u32>();
        }
        if self.states.len() >= self.max_states {
            return Err(errors::limit(
                self.py,
                &format!(
                    "the game has more than {} reachable states; raise max_states to go on",
                    self.max_states
                ),
                "max_states",
            ));
        }
        let id = self.states.len() as u32;
        self.index.set_item(state, id)?;
        self.states.push(state.clone().unbind());
        Ok(id)
    }
}

/// `repr(state)`, shortened, for messages.
fn shown(state: &Bound<'_, PyAny>) -> String {
    const MAX: usize = 80;
    let text = state
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<state>".into());
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// A node's kind from the first item of what `expand` returned.
fn kind_of(name: &Bound<'_, PyAny>, state: &Bound<'_, PyAny>) -> PyResult<Kind> {
    // `to_str` reads the string's own bytes: no Python code runs (a pending Ctrl-C
    // would otherwise surface here as a bad kind).
    let text = match name.cast::<PyString>() {
        Ok(s) => Some(s.to_str()?),
        Err(_) => None,
    };
    match text {
        Some("terminal") => Ok(Kind::Terminal),
        Some("chance") => Ok(Kind::Chance),
        Some("max") => Ok(Kind::Choice(Pick::Max)),
        Some("min") => Ok(Kind::Choice(Pick::Min)),
        _ => Err(errors::model(
            name.py(),
            &format!(
                "expand({}) returned the kind {}; expected \"terminal\", \"chance\", \"max\" or \"min\"",
                shown(state),
                shown(name)
            ),
        )),
    }
}

/// Explores the game from its start, calling `expand` once for every reachable state.
fn explore(game: &Bound<'_, PyAny>, max_states: usize) -> PyResult<Explored> {
    let py = game.py();
    let expand = game.getattr("expand")?;
    let start = game.call_method0("start")?;
    let mut numbering = Numbering {
        py,
        index: PyDict::new(py),
        states: Vec::new(),
        max_states,
    };
    numbering.id(&start)?;
    let mut builder = Builder::new();
    let mut labels: Vec<Option<Py<PyAny>>> = Vec::new();
    let mut edges: Vec<(u32, u64)> = Vec::new();
    let mut names: Vec<Option<Py<PyAny>>> = Vec::new();
    while builder.len() < numbering.states.len() {
        let done = builder.len();
        if done % SIGNAL_EVERY == SIGNAL_EVERY - 1 {
            py.check_signals()?;
        }
        let state = numbering.states[done].clone_ref(py).into_bound(py);
        let node = expand.call1((&state,))?;
        edges.clear();
        names.clear();
        let (kind, reward) = read_node(&node, &state, &mut numbering, &mut edges, &mut names)?;
        let node = Node {
            kind,
            reward,
            edges: &edges,
        };
        builder
            .push(node, || shown(&state))
            .map_err(|e| errors::engine(py, e, "max_states"))?;
        // A terminal's loop back to itself has no name; a chance node's transitions
        // none either (the weights of 0 left out); a choice's options theirs.
        match kind {
            Kind::Terminal => labels.push(None),
            Kind::Choice(Pick::Max | Pick::Min) => labels.append(&mut names),
            _ => labels.extend(edges.iter().filter(|e| e.1 > 0).map(|_| None)),
        }
    }
    Ok(Explored {
        game: builder.finish(),
        states: numbering.states,
        index: numbering.index.unbind(),
        labels,
    })
}

/// Reads one node, `(kind, reward)` or `(kind, reward, successors)`, adding its edges
/// to `edges` (and a choice's names of its options to `labels`); returns its kind and
/// reward.
fn read_node<'py>(
    node: &Bound<'py, PyAny>,
    state: &Bound<'py, PyAny>,
    numbering: &mut Numbering<'py>,
    edges: &mut Vec<(u32, u64)>,
    labels: &mut Vec<Option<Py<PyAny>>>,
) -> PyResult<(Kind, i64)> {
    let py = node.py();
    let wrong = |what: String| {
        PyTypeError::new_err(format!(
            "expand({}) returned {what}; expected (kind, reward, successors), such as \
             (\"chance\", 0, [(state, weight), ...]), (\"max\", 0, [state, ...]) or (\"terminal\", reward)",
            shown(state)
        ))
    };
    let Ok(tuple) = node.cast::<PyTuple>() else {
        return Err(wrong(format!("a {}", node.get_type().name()?)));
    };
    if !(2..=3).contains(&tuple.len()) {
        return Err(wrong(format!("a tuple of {} items", tuple.len())));
    }
    let kind = kind_of(&tuple.get_item(0)?, state)?;
    let reward_item = tuple.get_item(1)?;
    let reward: i64 = reward_item.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "expand({}): the reward {} is not an integer between -2^63 and 2^63 - 1 (rewards are integers: scale them)",
            shown(state),
            shown(&reward_item)
        ))
    })?;
    let successors = if tuple.len() == 3 {
        Some(tuple.get_item(2)?)
    } else {
        None
    };
    match kind {
        Kind::Terminal => {
            if let Some(s) = successors {
                // Any empty iterable will do (a generator has no length).
                let has_some = !s.is_none() && s.try_iter()?.next().is_some();
                if has_some {
                    return Err(errors::model(
                        py,
                        &format!(
                            "expand({}): a terminal node has no successors",
                            shown(state)
                        ),
                    ));
                }
            }
        }
        Kind::Chance => {
            let Some(s) = successors else {
                return Err(wrong("a chance node without successors".into()));
            };
            read_chance(&s, state, numbering, edges)?;
        }
        Kind::Choice(_) => {
            let Some(s) = successors else {
                return Err(wrong("a choice without successors".into()));
            };
            read_choice(&s, numbering, edges, labels)?;
        }
    }
    Ok((kind, reward))
}

/// A chance node's successors: `(state, weight)` pairs, or a dict `{state: weight}`.
fn read_chance<'py>(
    successors: &Bound<'py, PyAny>,
    state: &Bound<'py, PyAny>,
    numbering: &mut Numbering<'py>,
    edges: &mut Vec<(u32, u64)>,
) -> PyResult<()> {
    let mut add = |to: &Bound<'py, PyAny>, weight: &Bound<'py, PyAny>| -> PyResult<()> {
        let w: u64 = weight.extract().map_err(|_| {
            errors::model(
                state.py(),
                &format!(
                    "expand({}): the weight {} of successor {} is not a whole number from 0 to 2^64 - 1",
                    shown(state),
                    shown(weight),
                    shown(to)
                ),
            )
        })?;
        // A weight of 0 is an outcome that cannot happen: no edge, as in the engine.
        if w > 0 {
            edges.push((numbering.id(to)?, w));
        }
        Ok(())
    };
    if let Ok(dict) = successors.cast::<PyDict>() {
        for (to, weight) in dict.iter() {
            add(&to, &weight)?;
        }
        return Ok(());
    }
    for item in successors.try_iter()? {
        let item = item?;
        let pair = item
            .cast::<PyTuple>()
            .ok()
            .filter(|t| t.len() == 2)
            .ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "expand({}): a chance node's successor must be a (state, weight) pair; got {}",
                    shown(state),
                    shown(&item)
                ))
            })?;
        add(&pair.get_item(0)?, &pair.get_item(1)?)?;
    }
    Ok(())
}

/// A choice's options: states, or a dict `{move: state}` that names them.
fn read_choice<'py>(
    successors: &Bound<'py, PyAny>,
    numbering: &mut Numbering<'py>,
    edges: &mut Vec<(u32, u64)>,
    labels: &mut Vec<Option<Py<PyAny>>>,
) -> PyResult<()> {
    if let Ok(dict) = successors.cast::<PyDict>() {
        for (name, to) in dict.iter() {
            edges.push((numbering.id(&to)?, 1));
            labels.push(Some(name.unbind()));
        }
        return Ok(());
    }
    for to in successors.try_iter()? {
        edges.push((numbering.id(&to?)?, 1));
        labels.push(None);
    }
    Ok(())
}

/// The solved values, by state number.
enum Values {
    Float {
        solution: Solution<u32, f64>,
        /// No value is further than this from the true value; `None` from the acyclic
        /// pass, where each value is a sum rounded once.
        error_bound: Option<f64>,
    },
    Exact(Solution<u32, Exact>),
}

/// A solution from values by state number.
fn solution<V>(values: Vec<V>) -> Solution<u32, V> {
    Solution::from_values(0..values.len() as u32, values)
}

/// Solves the explored game with the engine's solvers; `names` names a state in an error.
fn solve_game(
    game: &Game,
    (exact, cyclic): (bool, bool),
    precision: f64,
    stop: &Stop,
    names: &(dyn Fn(usize) -> String + Sync),
) -> alea_core::Result<Values> {
    Ok(if exact {
        Values::Exact(solution(exact_values(game, stop, names)?))
    } else if !cyclic {
        // No state comes back: the engine's topological pass gives every value with one
        // rounding per sum, nothing to iterate and so nothing to certify.
        Values::Float {
            solution: acyclic_solve::<_, f64>(game, &Limits::default())?,
            error_bound: None,
        }
    } else {
        let b = certified_values(game, precision, true, stop, names)?;
        Values::Float {
            solution: solution(b.values),
            error_bound: Some(b.error_bound),
        }
    })
}

/// A Python game solved: the value of every reachable state and the options of every
/// choice.
#[pyclass(frozen, module = "alea._alea")]
pub struct SolvedGame {
    game: Arc<Game>,
    values: Values,
    states: Arc<Vec<Py<PyAny>>>,
    index: Py<PyDict>,
    labels: Vec<Option<Py<PyAny>>>,
    #[pyo3(get)]
    cyclic: bool,
    #[pyo3(get)]
    explore_seconds: f64,
    #[pyo3(get)]
    solve_seconds: f64,
}

impl SolvedGame {
    fn id(&self, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        match self.index.bind(state.py()).get_item(state)? {
            Some(id) => id.extract(),
            None => Err(pyo3::exceptions::PyKeyError::new_err(format!(
                "{} is not a state reachable from the start",
                shown(state)
            ))),
        }
    }

    fn value_at<'py>(&self, py: Python<'py>, id: u32) -> PyResult<Bound<'py, PyAny>> {
        match &self.values {
            Values::Float { solution, .. } => Ok(solution
                .get(&id)
                .copied()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()),
            Values::Exact(solution) => match solution.get(&id) {
                Some(q) => fraction(py, q),
                None => Ok(py.None().into_bound(py)),
            },
        }
    }
}

#[pymethods]
impl SolvedGame {
    /// Reachable states.
    fn __len__(&self) -> usize {
        self.states.len()
    }

    /// Whether the values are exact fractions.
    #[getter]
    fn exact(&self) -> bool {
        matches!(self.values, Values::Exact(_))
    }

    /// The certified error bound of every float value (0 when exact, `None` when the game
    /// has no cycle and each value is a sum rounded once).
    #[getter]
    fn error_bound(&self) -> Option<f64> {
        match &self.values {
            Values::Float { error_bound, .. } => *error_bound,
            Values::Exact(_) => Some(0.0),
        }
    }

    /// The start state, as the game returned it.
    #[getter]
    fn start<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.states[0].bind(py).clone()
    }

    /// The value of `state`.
    fn value<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let id = self.id(state)?;
        self.value_at(state.py(), id)
    }

    /// The kind of `state`'s node: "terminal", "chance", "max" or "min".
    fn kind(&self, state: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        Ok(match self.game.kind[self.id(state)? as usize] {
            Kind::Terminal => "terminal",
            Kind::Chance => "chance",
            Kind::Choice(Pick::Max) => "max",
            Kind::Choice(Pick::Min) => "min",
            Kind::Choice(Pick::Uniform) => "uniform",
        })
    }

    /// Every option of a choice at `state`, best first: `(move, state, value, loss)`,
    /// `move` being the game's name for it or its index among the successors. Empty for
    /// a terminal or chance node.
    fn options<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let py = state.py();
        let id = self.id(state)?;
        let goal = match self.game.kind[id as usize] {
            Kind::Choice(Pick::Max) => Goal::Max,
            Kind::Choice(Pick::Min) => Goal::Min,
            _ => return Ok(PyList::empty(py)),
        };
        // The options' transitions, one each, from the state's first choice on.
        let form = &self.game.form;
        let first = form.row[form.choices[id as usize]];
        let rows = PyList::empty(py);
        let engine = |e| errors::engine(py, e, "max_states");
        let push = |edge: usize, to: u32, value, loss| -> PyResult<()> {
            let name = match &self.labels[first + edge] {
                Some(label) => label.bind(py).clone(),
                None => edge.into_pyobject(py)?.into_any(),
            };
            let row = PyTuple::new(
                py,
                [name, self.states[to as usize].bind(py).clone(), value, loss],
            )?;
            rows.append(row)
        };
        match &self.values {
            Values::Float { solution, .. } => {
                for o in options(&*self.game, solution, id, goal).map_err(engine)? {
                    push(
                        o.edge,
                        o.to,
                        o.value.into_pyobject(py)?.into_any(),
                        o.loss.into_pyobject(py)?.into_any(),
                    )?;
                }
            }
            Values::Exact(solution) => {
                for o in options(&*self.game, solution, id, goal).map_err(engine)? {
                    push(
                        o.edge,
                        o.to,
                        fraction(py, &o.value)?,
                        fraction(py, &o.loss)?,
                    )?;
                }
            }
        }
        Ok(rows)
    }
}

/// Explores `game` through its callbacks, then solves it without the interpreter.
#[pyfunction]
#[pyo3(signature = (game, exact, precision, max_states))]
fn game_solve(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    exact: bool,
    precision: f64,
    max_states: usize,
) -> PyResult<SolvedGame> {
    let started = Instant::now();
    // The engine numbers states with 32 bits.
    let explored = explore(game, max_states.min(u32::MAX as usize))?;
    let explore_seconds = started.elapsed().as_secs_f64();
    let built = Arc::new(explored.game);
    let states = Arc::new(explored.states);
    let (shared, named) = (Arc::clone(&built), Arc::clone(&states));
    let stop = Stop::new();
    let stopped = stop.clone();
    let (cyclic, values, solve_seconds) = stoppable(py, &stop, move || {
        // The solve alone is timed, as `alea.check` times its check: not the thread
        // that runs it.
        let solving = Instant::now();
        // An error is rare and names one state: its `repr` is taken then, with the
        // interpreter, which the waiting caller releases between its looks for Ctrl-C.
        let names = |s: usize| Python::attach(|py| shown(named[s].bind(py)));
        let cyclic = shared.cyclic();
        let values = solve_game(&shared, (exact, cyclic), precision, &stopped, &names);
        (cyclic, values, solving.elapsed().as_secs_f64())
    })?;
    let values = values.map_err(|e| errors::engine(py, e, "max_states"))?;
    Ok(SolvedGame {
        game: built,
        values,
        states,
        index: explored.index,
        labels: explored.labels,
        cyclic,
        explore_seconds,
        solve_seconds,
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(game_solve, m)?)?;
    m.add_class::<SolvedGame>()?;
    Ok(())
}
