//! Model checking of PRISM-language models: the same session as `alea check`
//! ([`alea_prism::session`]), run off the interpreter. `prism_check` reads, resolves,
//! explores and checks every property at once and hands back one [`PrismAnswer`] per
//! property: a handle on the explored model and its solved values, which builds the
//! values of other states, the strategy and the arrays only when asked.

use std::sync::Arc;
use std::time::Instant;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use alea_prism::check::{Item, Number};
use alea_prism::session::{
    self, Answer, Failure, Kind, Limit, Loading, Quiet, Run, Settings, Sizes, Source, Subject, Val,
};

use crate::errors;
use crate::work;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prism_check, m)?)?;
    m.add_class::<PrismAnswer>()?;
    Ok(())
}

/// The command line's options named in a message, as this package's arguments.
fn pythonic(message: &str) -> String {
    let mut message = message
        .replace("--exact", "exact=True")
        .replace("--precision", "precision")
        .replace("--max-states", "max_states")
        .replace("--at", "at=");
    // `give it with --const N=...`
    while let Some(i) = message.find("--const ") {
        let rest = &message[i + "--const ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let tail = rest[name.len()..]
            .strip_prefix("=...")
            .unwrap_or(&rest[name.len()..]);
        message = format!("{}constants={{\"{name}\": ...}}{tail}", &message[..i]);
    }
    message
}

/// A failure as the package's exception: bad input at its place (`source` names the
/// text, or the argument: `constants`, or `state_argument` for a state asked for), a
/// limit naming the argument that raises it, or the engine's.
fn raise(py: Python<'_>, f: &Failure, state_argument: &str) -> PyErr {
    let message = pythonic(&f.message);
    match f.kind {
        Kind::Input => {
            let source = match &f.subject {
                Subject::Text(name) => name.as_str(),
                Subject::Constants => "constants",
                Subject::State => state_argument,
                Subject::Work => "model",
            };
            let place = f.place.as_ref().map(|p| (p.line, p.column));
            errors::input(py, &message, source, place)
        }
        Kind::Limit(Limit::MaxStates) => errors::limit(
            py,
            &format!("{message}; raise max_states to go on"),
            "max_states",
        ),
        Kind::Limit(Limit::Precision) => {
            // A value too close to a bound is placed in its property's text.
            let message = match (&f.subject, &f.place) {
                (Subject::Text(name), Some(p)) => {
                    format!("{name}:{}:{}: {message}", p.line, p.column)
                }
                _ => message,
            };
            errors::limit(py, &message, "precision")
        }
        Kind::Limit(Limit::Steps) => errors::limit(py, &message, "max_steps"),
        Kind::Engine => errors::model(py, &message),
    }
}

/// Constants: `"N=3,p=0.1"` as the command line takes it, or pairs of a name and the
/// text of its value.
#[derive(FromPyObject)]
enum Constants {
    Text(String),
    Pairs(Vec<(String, String)>),
}

/// `states`, `transitions`, `choices`, `initial_states` and `deadlocks` of `sizes` into
/// `d`.
fn fill(sizes: &Sizes, d: &Bound<'_, PyDict>) -> PyResult<()> {
    d.set_item("states", sizes.states)?;
    d.set_item("transitions", sizes.transitions)?;
    d.set_item("choices", sizes.choices)?;
    d.set_item("initial_states", sizes.initial_states)?;
    d.set_item("deadlocks", sizes.deadlocks)?;
    Ok(())
}

/// What the work off the interpreter brings back.
struct Outcome {
    sizes: Sizes,
    build: f64,
    pruned: bool,
    answers: Vec<Answer>,
    /// The state asked for with `at`.
    /// The state asked for, numbered in each answer's own model (an answer redone in
    /// exact arithmetic has a model of its own).
    at: Vec<Option<u32>>,
}

/// Checks a model: `model` its bytes and `model_name` the name errors give it;
/// `properties` texts of properties as (name, bytes, whether they must hold one);
/// `constants` a string or (name, value) pairs; `at` a state `x=1,y=2`. Returns
/// `(size, answers)`: `size` a dict of the model's counts and `seconds` (`build`), and
/// each answer `(PrismAnswer, fields, at)`, `fields` a dict of the fields of the command
/// line's `--json` and `at` the report of the state asked for (or None).
#[pyfunction]
#[pyo3(signature = (model_name, model, properties, constants, exact, precision, at, max_states, prune, fair, weights))]
#[allow(clippy::too_many_arguments)]
fn prism_check<'py>(
    py: Python<'py>,
    model_name: String,
    model: Vec<u8>,
    properties: Vec<(String, Vec<u8>, bool)>,
    constants: Option<Constants>,
    exact: bool,
    precision: f64,
    at: Option<String>,
    max_states: usize,
    prune: bool,
    fair: bool,
    weights: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    if !(precision > 0.0 && precision < 1.0) {
        return Err(PyValueError::new_err(format!(
            "precision: expected a number above 0 and below 1, such as 1e-9; found {precision}"
        )));
    }
    if max_states == 0 {
        return Err(PyValueError::new_err("max_states: expected at least 1"));
    }
    let stop = alea_core::Stop::new();
    let stopping = stop.clone();
    let work = move || -> Result<Outcome, Failure> {
        let stop = stopping;
        let started = Instant::now();
        let mut loading = Loading::parse(Source::from_bytes(model_name, model)?)?;
        let given = match &constants {
            None => Vec::new(),
            Some(Constants::Text(text)) => session::given_constants(std::slice::from_ref(text))?,
            Some(Constants::Pairs(pairs)) => {
                let pairs: Vec<(&str, &str)> = pairs
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect();
                session::given_pairs(&pairs)?
            }
        };
        for (name, text, require) in properties {
            loading.add_properties(Source::from_bytes(name, text)?, require)?;
        }
        let session = Arc::new(loading.resolve(&given, exact)?);
        let settings = Settings {
            exact,
            precision,
            max_states,
            // A state asked for may lie beyond a target.
            prune: prune && at.is_none(),
            fair,
            weights,
            stop: stop.clone(),
        };
        let mut run = Run::explore(Arc::clone(&session), settings, &Quiet)?;
        let build = started.elapsed().as_secs_f64();
        // Checked before the properties, so that a state that is not there is reported
        // at once.
        if let Some(text) = &at {
            run.find_state(text)?;
        }
        let answers = session
            .property_ids()
            .into_iter()
            .map(|id| run.check(id, &Quiet))
            .collect::<Result<Vec<_>, _>>()?;
        let at = answers
            .iter()
            .map(|a| at.as_deref().map(|text| a.find_state(text)).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Outcome {
            sizes: Sizes::of(&run.explored),
            build,
            pruned: run.pruned(),
            answers,
            at,
        })
    };
    let outcome = work::stoppable(py, &stop, work)?.map_err(|f| raise(py, &f, "at"))?;
    let answers = PyList::empty(py);
    for (answer, at) in outcome.answers.into_iter().zip(outcome.at) {
        let handle = PrismAnswer { answer, exact };
        let at = match at {
            Some(s) => Some(handle.report_dict(py, s)?),
            None => None,
        };
        let fields = handle.fields(py, outcome.build, outcome.pruned)?;
        answers.append((Bound::new(py, handle)?, fields, at))?;
    }
    let size = PyDict::new(py);
    fill(&outcome.sizes, &size)?;
    let seconds = PyDict::new(py);
    seconds.set_item("build", outcome.build)?;
    size.set_item("seconds", seconds)?;
    PyTuple::new(py, [size.into_any(), answers.into_any()])
}

/// A number as `(value, infinite, exact, error_bound)`, as the command line's `--json`
/// gives it: `value` None when infinite, `exact` an integer pair `(p, q)` when checked
/// in exact arithmetic (None when infinite or not exact).
fn number<'py>(py: Python<'py>, n: &Number, exact: bool) -> PyResult<Bound<'py, PyTuple>> {
    let infinite = n.is_infinite();
    let value = if infinite { None } else { Some(n.to_f64()) };
    let fraction = match n {
        Number::Exact(Some(q)) if exact => Some((q.numer(), q.denom()).into_pyobject(py)?),
        _ => None,
    };
    let bound = if infinite { 0.0 } else { n.error_bound() };
    (value, infinite, fraction, bound).into_pyobject(py)
}

/// One property checked: the model explored for it and the values of its states. The
/// Python class `alea.check.PropertyResult` wraps it.
#[pyclass(frozen, module = "alea._alea")]
pub struct PrismAnswer {
    answer: Answer,
    /// Checked in exact arithmetic: exact values are handed over.
    exact: bool,
}

impl PrismAnswer {
    /// The fields of the command line's `--json` line, but `at`.
    fn fields<'py>(
        &self,
        py: Python<'py>,
        build: f64,
        pruned: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let named = self.answer.property();
        d.set_item("property", &named.text)?;
        d.set_item("name", named.name.as_deref())?;
        // A property that is only true or false has no number.
        let value = match &self.answer.checked.value {
            Some(n) => number(py, n, self.exact)?,
            None => (None::<f64>, false, None::<(i64, i64)>, 0.0).into_pyobject(py)?,
        };
        d.set_item("number", value)?;
        let range = match &self.answer.checked.range {
            Some((lo, hi)) => Some((number(py, lo, self.exact)?, number(py, hi, self.exact)?)),
            None => None,
        };
        d.set_item("range", range)?;
        d.set_item("holds", self.answer.checked.holds)?;
        // The states a filter lists: (state, number, holds), one of the last two None.
        let listed = PyList::empty(py);
        for (s, item) in &self.answer.checked.listed {
            let state = self.valuation(py, *s)?;
            match item {
                Item::Number(n) => {
                    listed.append((state, number(py, n, self.exact)?, None::<bool>))?
                }
                Item::Bool(b) => listed.append((state, None::<()>, Some(*b)))?,
            }
        }
        d.set_item("listed", listed)?;
        // A multi-objective query's Pareto corners, and whether its bounds can be met.
        let pareto = PyList::empty(py);
        for (a, b) in &self.answer.checked.pareto {
            pareto.append((number(py, a, self.exact)?, number(py, b, self.exact)?))?;
        }
        d.set_item("pareto", pareto)?;
        let feasible = if self.answer.checked.infeasible {
            Some(false)
        } else {
            None
        };
        d.set_item("feasible", feasible)?;
        // The automata of the paths of LTL: (kind, states, product states).
        let automata = PyList::empty(py);
        for a in &self.answer.checked.automata {
            let kind = if a.finite {
                "finite"
            } else {
                "limit-deterministic"
            };
            automata.append((kind, a.states, a.product_states))?;
        }
        d.set_item("automata", automata)?;
        fill(&Sizes::of(&self.answer.model), &d)?;
        d.set_item("pruned", pruned)?;
        let seconds = PyDict::new(py);
        seconds.set_item("build", build)?;
        seconds.set_item("check", self.answer.seconds.as_secs_f64())?;
        d.set_item("seconds", seconds)?;
        Ok(d)
    }

    fn valuation<'py>(&self, py: Python<'py>, s: u32) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in self.answer.valuation(s) {
            match v {
                Val::Int(i) => d.set_item(name, i)?,
                Val::Bool(b) => d.set_item(name, b)?,
            }
        }
        Ok(d)
    }

    /// `{state, number, choices}`: the state's values, its value (None for a filter)
    /// and each choice as `(action, number, loss)`, best first.
    fn report_dict<'py>(&self, py: Python<'py>, s: u32) -> PyResult<Bound<'py, PyDict>> {
        let report = py.detach(|| self.answer.report(s));
        let d = PyDict::new(py);
        d.set_item("state", self.valuation(py, s)?)?;
        let value = match &report.value {
            Some(v) => Some(number(py, v, self.exact)?),
            None => None,
        };
        d.set_item("number", value)?;
        let choices = PyList::empty(py);
        for c in &report.choices {
            choices.append((
                &c.action,
                number(py, &c.value, self.exact)?,
                number(py, &c.loss, self.exact)?,
            ))?;
        }
        d.set_item("choices", choices)?;
        Ok(d)
    }

    /// The state given as `x=1,y=2`, found in the model explored.
    fn find(&self, py: Python<'_>, state: &str) -> PyResult<u32> {
        py.detach(|| self.answer.find_state(state))
            .map_err(|f| raise(py, &f, "state"))
    }

    fn strategy_of(&self) -> PyResult<&[u32]> {
        self.answer
            .strategy()
            .map_err(|why| PyValueError::new_err(why.to_string()))
    }
}

#[pymethods]
impl PrismAnswer {
    /// The report of a state given as `x=1,y=2` (see `report_dict`).
    fn report<'py>(&self, py: Python<'py>, state: &str) -> PyResult<Bound<'py, PyDict>> {
        let s = self.find(py, state)?;
        self.report_dict(py, s)
    }

    /// The model's variables as (name, is_bool), in order.
    fn variables(&self) -> Vec<(String, bool)> {
        self.answer
            .program()
            .variables
            .iter()
            .map(|v| (v.name.clone(), v.is_bool))
            .collect()
    }

    /// The number of states explored.
    fn states(&self) -> usize {
        self.answer.model.states()
    }

    /// In a game, the player whose turn each state is, in the order of the states;
    /// `None` for a dtmc or an mdp.
    fn owners(&self) -> Option<Vec<String>> {
        (0..self.answer.model.states() as u32)
            .map(|s| self.answer.owner(s).map(str::to_string))
            .collect()
    }

    /// The best choice of every state as `(valuation, action)`; a ValueError where the
    /// property has none (a dtmc, a filter, a step-bounded property).
    fn strategy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let strategy = self.strategy_of()?;
        let list = PyList::empty(py);
        for s in 0..strategy.len() as u32 {
            let action = self
                .answer
                .choice_label(self.answer.best_choice(strategy, s));
            list.append((self.valuation(py, s)?, action))?;
        }
        Ok(list)
    }

    /// The best choice of every state as its index among the state's choices: `u32`s,
    /// little-endian.
    fn strategy_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let strategy = self.strategy_of()?;
        let bytes: Vec<u8> = py.detach(|| strategy.iter().flat_map(|c| c.to_le_bytes()).collect());
        Ok(PyBytes::new(py, &bytes))
    }

    /// The value of every state as `f64`s, little-endian (infinity where infinite); a
    /// ValueError for a filter.
    fn values_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        if self.answer.checked.solved.is_none() {
            return Err(PyValueError::new_err(
                "a filter is one number for the model: it has no value per state",
            ));
        }
        let n = self.answer.model.states() as u32;
        let bytes: Vec<u8> = py.detach(|| {
            (0..n)
                .flat_map(|s| {
                    self.answer
                        .value(s)
                        .map_or(f64::NAN, |v| v.to_f64())
                        .to_le_bytes()
                })
                .collect()
        });
        Ok(PyBytes::new(py, &bytes))
    }

    /// The variables' values of every state, state after state: `i64`s, little-endian.
    fn valuations_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let model = &self.answer.model;
        let width = self.answer.program().variables.len();
        let bytes: Vec<u8> = py.detach(|| {
            let mut values = vec![0i64; width];
            let mut bytes = Vec::with_capacity(model.states() * width * 8);
            for s in 0..model.states() as u32 {
                model.valuation_into(s, &mut values);
                bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
            }
            bytes
        });
        Ok(PyBytes::new(py, &bytes))
    }

    /// The labels of the best choices, one per state (as `strategy`, without the
    /// valuations).
    fn strategy_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let strategy = self.strategy_of()?;
        let list = PyList::empty(py);
        for s in 0..strategy.len() as u32 {
            list.append(
                self.answer
                    .choice_label(self.answer.best_choice(strategy, s)),
            )?;
        }
        Ok(list)
    }
}
