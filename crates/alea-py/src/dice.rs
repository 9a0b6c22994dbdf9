//! `alea.dice`: the One Person Game, as `alea dice` answers it, from the judge's cases
//! or for any dice. The guards are the command line's, named by the keyword arguments
//! that raise them.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use alea_games::dice::{analyse, parse_cases, Asked, Game};

use crate::convert::pair;
use crate::errors;
use crate::work::interruptible;

/// The name errors give the text passed in.
const SOURCE: &str = "<text>";

/// A setting as Python writes it: the keyword argument, `max_work=10` with its value.
/// `alea.snakes` names its guards the same way.
pub(crate) fn keyword(name: &str, value: Option<u64>) -> String {
    match value {
        Some(v) => format!("{name}={v}"),
        None => name.to_string(),
    }
}

fn answers<'py>(
    py: Python<'py>,
    games: Vec<Game>,
    asked: Asked,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    // Nothing is said while the work runs: each answer carries its warning, which the
    // Python side issues as it builds the results.
    let solved = interruptible(py, move || analyse(&games, &asked, |_| {}))?
        .map_err(|e| errors::limit(py, &e.message(keyword), e.setting()))?;
    solved
        .iter()
        .map(|a| {
            let o = PyDict::new(py);
            // Beyond the range of f64 the float is infinite; the fraction and the
            // decimal text carry the value.
            o.set_item("expected_throws", a.expected)?;
            o.set_item("expected_throws_exact", a.exact.as_ref().map(pair))?;
            o.set_item("text", &a.text)?;
            o.set_item("distribution", a.distribution.clone())?;
            o.set_item(
                "warning",
                a.beyond
                    .map(|beyond| format!("{beyond}; computed in exact arithmetic")),
            )?;
            Ok(o)
        })
        .collect()
}

/// Each judge case's answer.
#[pyfunction]
#[pyo3(signature = (text, exact, distribution, max_work, max_exact_work, max_distribution_work, max_distribution_mib))]
#[allow(clippy::too_many_arguments)]
fn dice_analyse(
    py: Python<'_>,
    text: Vec<u8>,
    exact: bool,
    distribution: Option<usize>,
    max_work: u64,
    max_exact_work: u64,
    max_distribution_work: u64,
    max_distribution_mib: u64,
) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let games = parse_cases(&text).map_err(|e| errors::parse(py, &e, SOURCE))?;
    let asked = Asked {
        exact,
        distribution,
        max_work,
        max_exact_work,
        max_distribution_work,
        max_distribution_mib,
    };
    answers(py, games, asked)
}

/// One game of any dice: `faces` of each die, the reset combinations, the limit.
#[pyfunction]
#[pyo3(signature = (faces, reset, limit, exact, distribution, max_work, max_exact_work, max_distribution_work, max_distribution_mib))]
#[allow(clippy::too_many_arguments)]
fn dice_expected_throws(
    py: Python<'_>,
    faces: Vec<u32>,
    reset: Vec<Vec<u32>>,
    limit: u64,
    exact: bool,
    distribution: Option<usize>,
    max_work: u64,
    max_exact_work: u64,
    max_distribution_work: u64,
    max_distribution_mib: u64,
) -> PyResult<Bound<'_, PyDict>> {
    let game = Game::new(faces, reset, limit)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let asked = Asked {
        exact,
        distribution,
        max_work,
        max_exact_work,
        max_distribution_work,
        max_distribution_mib,
    };
    let mut all = answers(py, vec![game], asked)?;
    Ok(all.remove(0))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dice_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(dice_expected_throws, m)?)?;
    Ok(())
}
