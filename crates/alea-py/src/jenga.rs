//! `alea.jenga`: Colored Jenga, as `alea jenga` answers it: the least expected game
//! length, exactly if asked, and every legal move of each colour, best first.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use alea_core::{Exact, Value};
use alea_games::jenga::{
    advise, parse_tower, solve_tower, EngineStop, Kernel, Solved, Stop, Tower, ALWAYS_FITS,
    COLOURS, MAX_LEVELS,
};

use crate::convert::pair;
use crate::errors;
use crate::work::interruptible;

/// The name errors give the text passed in.
const SOURCE: &str = "<text>";

/// Why a tower could not be solved: a guard (named by its keyword argument, or by none
/// when no argument raises it) or the engine.
enum Failed {
    Limit(String, &'static str),
    Engine(alea_core::Error),
}

fn stopped(stop: Stop) -> Failed {
    match stop {
        Stop::TooManyPositions(limit) => Failed::Limit(
            format!(
                "the tower needs more than {limit} positions; raise max_states to go on \
                 (each position takes about 100 bytes)"
            ),
            "max_states",
        ),
        Stop::TooTall => Failed::Limit(
            format!(
                "the tower would come to hold more than 30 levels of one kind (by colours, \
                 up to mirror image), more than a position of this solver records, and no \
                 argument raises that; towers of up to {ALWAYS_FITS} levels always fit, \
                 taller ones (up to the {MAX_LEVELS} read) only while no kind grows so large"
            ),
            "levels",
        ),
    }
}

fn raise(py: Python<'_>, failed: Failed) -> PyErr {
    match failed {
        Failed::Limit(message, limit) => errors::limit(py, &message, limit),
        Failed::Engine(e) => errors::engine(py, e, "max_states"),
    }
}

fn solved<V: Value>(tower: &Tower, max_states: usize) -> Result<Solved<V>, Failed> {
    // The engine also stores a choice node per colour of a position: the limit counts
    // those too, as on the command line.
    solve_tower::<V>(tower, max_states).map_err(|e| match e {
        EngineStop::Kernel(stop) => stopped(stop),
        EngineStop::Engine(alea_core::Error::TooManyStates { .. }) => Failed::Limit(
            format!(
                "the tower needs more than {max_states} positions and choice nodes; raise \
                 max_states to go on"
            ),
            "max_states",
        ),
        EngineStop::Engine(other) => Failed::Engine(other),
    })
}

fn tower(py: Python<'_>, text: &[u8]) -> PyResult<Tower> {
    parse_tower(text).map_err(|e| errors::parse(py, &e, SOURCE))
}

/// The least expected minutes and the positions stored, as `alea jenga --json` gives
/// them; with `exact` from the engine in exact arithmetic, as `--exact --json`.
#[pyfunction]
#[pyo3(signature = (text, exact, max_states))]
fn jenga_analyse(
    py: Python<'_>,
    text: Vec<u8>,
    exact: bool,
    max_states: usize,
) -> PyResult<Bound<'_, PyDict>> {
    let tower = tower(py, &text)?;
    let o = PyDict::new(py);
    if exact {
        let (expected, states) = interruptible(py, move || {
            let s = solved::<Exact>(&tower, max_states)?;
            Ok((s.expected().clone(), s.positions()))
        })?
        .map_err(|e| raise(py, e))?;
        o.set_item("expected_minutes", expected.to_f64())?;
        o.set_item("states", states)?;
        o.set_item("expected_minutes_exact", pair(&expected))?;
    } else {
        let (expected, states) = interruptible(py, move || {
            Kernel::new(max_states).expected(&tower).map_err(stopped)
        })?
        .map_err(|e| raise(py, e))?;
        o.set_item("expected_minutes", expected)?;
        o.set_item("states", states)?;
        o.set_item("expected_minutes_exact", None::<ExactPair>)?;
    }
    Ok(o)
}

/// An exact value's fraction pair, when the arithmetic is exact.
type ExactPair = Option<(num_bigint::BigInt, num_bigint::BigInt)>;

/// One move as plain values: level, slot, place, expected minutes after it (and exact).
type Move = (usize, &'static str, &'static str, f64, ExactPair);

/// A tower's hints as plain values.
struct Hinted {
    expected: f64,
    states: usize,
    exact: ExactPair,
    /// Red, green, blue.
    colours: Vec<Vec<Move>>,
}

fn hinted<V: Value>(
    tower: &Tower,
    max_states: usize,
    exact: impl Fn(&V) -> ExactPair,
) -> Result<Hinted, Failed> {
    let s = solved::<V>(tower, max_states)?;
    let colours = advise(tower, &s)
        .iter()
        .map(|moves| {
            moves
                .iter()
                .map(|m| {
                    (
                        m.level,
                        m.slot,
                        m.place,
                        m.expected.to_f64(),
                        exact(&m.expected),
                    )
                })
                .collect()
        })
        .collect();
    Ok(Hinted {
        expected: s.expected().to_f64(),
        states: s.positions(),
        exact: exact(s.expected()),
        colours,
    })
}

/// Every legal move of each colour, best first, as `alea jenga --hint --json`.
#[pyfunction]
#[pyo3(signature = (text, exact, max_states))]
fn jenga_hints(
    py: Python<'_>,
    text: Vec<u8>,
    exact: bool,
    max_states: usize,
) -> PyResult<Bound<'_, PyDict>> {
    let tower = tower(py, &text)?;
    let h = interruptible(py, move || {
        if exact {
            hinted::<Exact>(&tower, max_states, |q| Some(pair(q)))
        } else {
            hinted::<f64>(&tower, max_states, |_| None)
        }
    })?
    .map_err(|e| raise(py, e))?;
    let by_colour = PyDict::new(py);
    for (c, moves) in h.colours.into_iter().enumerate() {
        by_colour.set_item(COLOURS[c].to_string(), moves)?;
    }
    let o = PyDict::new(py);
    o.set_item("expected_minutes", h.expected)?;
    o.set_item("states", h.states)?;
    o.set_item("expected_minutes_exact", h.exact)?;
    o.set_item("colors", by_colour)?;
    Ok(o)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(jenga_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(jenga_hints, m)?)?;
    Ok(())
}
