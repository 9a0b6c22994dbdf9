//! Games written in Python, solved by the engine.
//!
//! A Python game is an object with `start()` and `expand(state)`; states are any
//! hashable Python values. The engine cannot call Python from its worker threads (the
//! interpreter is held by one thread at a time), so the game is first explored here,
//! holding the interpreter: every reachable state is numbered through a Python dict
//! (Python's own hashing and equality) and its node copied into an explicit graph.
//! That graph is an ordinary engine [`Model`] over state numbers, solved with the
//! interpreter released, by the acyclic solver when it has no cycle and by the solver
//! of cycles through choices otherwise (certified bounds, or exact rationals).
//!
//! The callbacks are the cost: one `expand` call a state and a dict lookup a successor
//! (see the README for the measured rate).

use std::sync::Arc;
use std::time::Instant;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use alea_core::stochastic::{self, Settings};
use alea_core::{
    acyclic, options, Edge, Exact, Expansion, Goal, Kind, Limits, Model, Pick, Solution,
};

use crate::convert::fraction;
use crate::errors;
use crate::work::interruptible;

/// How often exploration looks for Ctrl-C, in states.
const SIGNAL_EVERY: usize = 4096;

/// A Python game's reachable states as the engine sees them: state `i` is the `i`th
/// state met, 0 the start; its edges are `to[first[i]..first[i + 1]]`.
struct Graph {
    kind: Vec<Kind>,
    reward: Vec<i64>,
    first: Vec<usize>,
    to: Vec<u32>,
    weight: Vec<u64>,
}

impl Model for Graph {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn expand(&self, state: u32, out: &mut Expansion<u32>) {
        let s = state as usize;
        out.kind = self.kind[s];
        out.reward = self.reward[s];
        out.edges.clear();
        let edges = self.first[s]..self.first[s + 1];
        out.edges.extend(
            self.to[edges.clone()]
                .iter()
                .zip(&self.weight[edges])
                .map(|(&to, &weight)| Edge { to, weight }),
        );
    }
}

impl Graph {
    /// Whether some path returns to a state it left (depth-first, with an explicit
    /// stack: games can be deep).
    fn has_cycle(&self) -> bool {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let n = self.kind.len();
        let mut mark = vec![NEW; n];
        let mut stack: Vec<(u32, usize)> = Vec::new();
        for root in 0..n {
            if mark[root] != NEW {
                continue;
            }
            mark[root] = OPEN;
            stack.push((root as u32, self.first[root]));
            while let Some(&mut (v, ref mut next)) = stack.last_mut() {
                let v = v as usize;
                if *next == self.first[v + 1] {
                    mark[v] = DONE;
                    stack.pop();
                    continue;
                }
                let w = self.to[*next] as usize;
                *next += 1;
                match mark[w] {
                    OPEN => return true,
                    NEW => {
                        mark[w] = OPEN;
                        stack.push((w as u32, self.first[w]));
                    }
                    _ => {}
                }
            }
        }
        false
    }
}

/// The graph with the Python side of each state: the state objects by number, the dict
/// that numbers them, and the name the game gave each option of a choice (if any).
struct Explored {
    graph: Graph,
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
    let mut graph = Graph {
        kind: Vec::new(),
        reward: Vec::new(),
        first: vec![0],
        to: Vec::new(),
        weight: Vec::new(),
    };
    let mut labels: Vec<Option<Py<PyAny>>> = Vec::new();
    let mut done = 0;
    while done < numbering.states.len() {
        if done % SIGNAL_EVERY == SIGNAL_EVERY - 1 {
            py.check_signals()?;
        }
        let state = numbering.states[done].clone_ref(py).into_bound(py);
        let node = expand.call1((&state,))?;
        let (kind, reward) = read_node(&node, &state, &mut numbering, &mut graph, &mut labels)?;
        graph.kind.push(kind);
        graph.reward.push(reward);
        graph.first.push(graph.to.len());
        done += 1;
    }
    Ok(Explored {
        graph,
        states: numbering.states,
        index: numbering.index.unbind(),
        labels,
    })
}

/// Reads one node, `(kind, reward)` or `(kind, reward, successors)`, adding its edges
/// to the graph; returns its kind and reward.
fn read_node<'py>(
    node: &Bound<'py, PyAny>,
    state: &Bound<'py, PyAny>,
    numbering: &mut Numbering<'py>,
    graph: &mut Graph,
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
            read_chance(&s, state, numbering, graph, labels)?;
        }
        Kind::Choice(_) => {
            let Some(s) = successors else {
                return Err(wrong("a choice without successors".into()));
            };
            read_choice(&s, numbering, graph, labels)?;
        }
    }
    Ok((kind, reward))
}

/// A chance node's successors: `(state, weight)` pairs, or a dict `{state: weight}`.
fn read_chance<'py>(
    successors: &Bound<'py, PyAny>,
    state: &Bound<'py, PyAny>,
    numbering: &mut Numbering<'py>,
    graph: &mut Graph,
    labels: &mut Vec<Option<Py<PyAny>>>,
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
            graph.to.push(numbering.id(to)?);
            graph.weight.push(w);
            labels.push(None);
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
    graph: &mut Graph,
    labels: &mut Vec<Option<Py<PyAny>>>,
) -> PyResult<()> {
    if let Ok(dict) = successors.cast::<PyDict>() {
        for (name, to) in dict.iter() {
            graph.to.push(numbering.id(&to)?);
            graph.weight.push(1);
            labels.push(Some(name.unbind()));
        }
        return Ok(());
    }
    for to in successors.try_iter()? {
        graph.to.push(numbering.id(&to?)?);
        graph.weight.push(1);
        labels.push(None);
    }
    Ok(())
}

/// The solved values, by state number.
enum Values {
    Float {
        solution: Solution<u32, f64>,
        /// Certified by the solver of cycles; `None` from the acyclic solver, whose
        /// only error is the rounding of each sum.
        error_bound: Option<f64>,
    },
    Exact(Solution<u32, Exact>),
}

/// Solves the explored graph: the acyclic solver when no state can come back, else the
/// solver of cycles through choices (which takes chance cycles too).
fn solve_graph(
    graph: &Graph,
    cyclic: bool,
    exact: bool,
    precision: f64,
) -> alea_core::Result<Values> {
    let limits = Limits::default();
    let settings = Settings { limits, precision };
    Ok(match (cyclic, exact) {
        (false, false) => Values::Float {
            solution: acyclic::solve(graph, &limits)?,
            error_bound: None,
        },
        (false, true) => Values::Exact(acyclic::solve(graph, &limits)?),
        (true, false) => {
            let c = stochastic::solve_certified(graph, &settings)?;
            Values::Float {
                solution: c.solution,
                error_bound: Some(c.error_bound),
            }
        }
        (true, true) => Values::Exact(stochastic::solve_exact(graph, &settings)?),
    })
}

/// A Python game solved: the value of every reachable state and the options of every
/// choice.
#[pyclass(frozen, module = "alea._alea")]
pub struct SolvedGame {
    graph: Arc<Graph>,
    values: Values,
    states: Vec<Py<PyAny>>,
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

    /// The certified error bound of every float value (0 when exact; `None` when the
    /// game has no cycle and the values are sums rounded once each).
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
        Ok(match self.graph.kind[self.id(state)? as usize] {
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
        let goal = match self.graph.kind[id as usize] {
            Kind::Choice(Pick::Max) => Goal::Maximise,
            Kind::Choice(Pick::Min) => Goal::Minimise,
            _ => return Ok(PyList::empty(py)),
        };
        let first = self.graph.first[id as usize];
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
                for o in options(&*self.graph, solution, id, goal).map_err(engine)? {
                    push(
                        o.edge,
                        o.to,
                        o.value.into_pyobject(py)?.into_any(),
                        o.loss.into_pyobject(py)?.into_any(),
                    )?;
                }
            }
            Values::Exact(solution) => {
                for o in options(&*self.graph, solution, id, goal).map_err(engine)? {
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
    let graph = Arc::new(explored.graph);
    let solving = Instant::now();
    let shared = Arc::clone(&graph);
    let (cyclic, values) = interruptible(py, move || {
        let cyclic = shared.has_cycle();
        (cyclic, solve_graph(&shared, cyclic, exact, precision))
    })?;
    let values = values.map_err(|e| errors::engine(py, e, "max_states"))?;
    Ok(SolvedGame {
        graph,
        values,
        states: explored.states,
        index: explored.index,
        labels: explored.labels,
        cyclic,
        explore_seconds,
        solve_seconds: solving.elapsed().as_secs_f64(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(game_solve, m)?)?;
    m.add_class::<SolvedGame>()?;
    Ok(())
}
