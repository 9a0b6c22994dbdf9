//! `alea.snakes`: Snakes and Ladders for one player, as `alea snakes --json` answers it:
//! the expected number of spins, exactly when affordable, and how long games last.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use alea_games::snakes::{
    analyse, parse_board, squares_position, Analysis, AnalysisError, Asked, Board, GameError,
    LimitError, Overshoot, Rules, SolveError,
};

use crate::convert::pair;
use crate::dice::keyword;
use crate::errors;
use crate::work::interruptible;

/// The name errors give the board text passed in.
const SOURCE: &str = "<text>";

/// Why no answer: the board (at its number of squares, in a text), the rules given, a
/// guard, or the engine.
enum Failed {
    Board(String),
    Rules(String),
    Limit(LimitError),
    Engine(alea_core::Error),
}

fn failed(e: SolveError) -> Failed {
    match e {
        SolveError::Game(e @ GameError::NeverFinishes { .. }) => Failed::Board(e.to_string()),
        SolveError::Game(e) => Failed::Rules(e.to_string()),
        SolveError::Engine(e @ alea_core::Error::NeverEnds(_)) => Failed::Board(e.to_string()),
        SolveError::Engine(e) => Failed::Engine(e),
    }
}

fn raise(py: Python<'_>, failed: Failed, text: Option<&[u8]>) -> PyErr {
    match failed {
        // A problem of the board as a whole is placed at its number of squares.
        Failed::Board(message) => match text {
            Some(text) => errors::input(py, &message, SOURCE, Some(squares_position(text))),
            None => errors::input(
                py,
                &format!("the classic board: {message}"),
                "classic",
                None,
            ),
        },
        Failed::Rules(message) => PyValueError::new_err(message),
        Failed::Limit(e) => errors::limit(py, &e.message(keyword), e.setting()),
        Failed::Engine(e) => errors::engine(py, e, "max_states"),
    }
}

/// The board's answer, as `alea snakes --json` gives it; `board` is a board file's text,
/// or `None` for the classic board.
#[pyfunction]
#[pyo3(signature = (board, spinner, overshoot, exact, distribution, max_exact_work, max_distribution_work, max_distribution_mib))]
#[allow(clippy::too_many_arguments)]
fn snakes_analyse<'py>(
    py: Python<'py>,
    board: Option<Vec<u8>>,
    spinner: u32,
    overshoot: &str,
    exact: bool,
    distribution: Option<usize>,
    max_exact_work: u64,
    max_distribution_work: u64,
    max_distribution_mib: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let overshoot = Overshoot::from_name(overshoot).ok_or_else(|| {
        PyValueError::new_err(format!(
            "overshoot must be \"stay\", \"bounce\" or \"finish\", not {overshoot:?}"
        ))
    })?;
    let parsed = match &board {
        Some(text) => parse_board(text).map_err(|e| errors::parse(py, &e, SOURCE))?,
        None => Board::classic(),
    };
    let rules = Rules { spinner, overshoot };
    let asked = Asked {
        exact,
        distribution,
        max_exact_work,
        max_distribution_work,
        max_distribution_mib,
    };
    let squares = parsed.squares();
    let Analysis {
        expected,
        text,
        exact: q,
        distribution,
    } = interruptible(py, move || analyse(&parsed, &rules, &asked))?.map_err(|e| {
        let failed = match e {
            AnalysisError::Solve(e) => failed(e),
            AnalysisError::Limit(e) => Failed::Limit(e),
        };
        raise(py, failed, board.as_deref())
    })?;
    let o = PyDict::new(py);
    o.set_item("expected_spins", expected)?;
    o.set_item("expected_spins_decimal", text)?;
    o.set_item(
        "expected_spins_exact",
        q.as_ref().filter(|_| exact).map(pair),
    )?;
    o.set_item("squares", squares)?;
    o.set_item("spinner", spinner)?;
    o.set_item("overshoot", overshoot.name())?;
    o.set_item("distribution", distribution)?;
    Ok(o)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(snakes_analyse, m)?)?;
    Ok(())
}
