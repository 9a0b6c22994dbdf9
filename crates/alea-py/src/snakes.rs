//! `alea.snakes`: Snakes and Ladders for one player, as `alea snakes --json` answers it:
//! the expected number of spins, exactly when affordable, and how long games last.

use num_bigint::BigInt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use alea_core::{decimal, Exact, Limits, Value};
use alea_games::snakes::{
    check, exact_work, expected_spins, finished_within, parse_board, squares_position, Board,
    GameError, Overshoot, Rules, SolveError,
};

use crate::errors;
use crate::work::interruptible;

/// The name errors give the board text passed in.
const SOURCE: &str = "<text>";
/// Decimal places of the answer, as `alea snakes` prints it.
const PLACES: u32 = 15;

/// An exact value as the integers of its reduced fraction, for `fractions.Fraction`.
fn pair(q: &Exact) -> (BigInt, BigInt) {
    (q.numer().clone(), q.denom().clone())
}

/// Why no answer: the board (at its number of squares, in a text), the rules given, a
/// guard, or the engine.
enum Failed {
    Board(String),
    Rules(String),
    Limit(String, &'static str),
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
        Failed::Limit(message, limit) => errors::limit(py, &message, limit),
        Failed::Engine(e) => errors::engine(py, e, "max_states"),
    }
}

/// What may be asked and how much work it may take: the keyword arguments.
#[derive(Clone, Copy)]
struct Asked {
    exact: bool,
    distribution: Option<usize>,
    max_exact_work: u64,
    max_distribution_work: u64,
    max_distribution_mib: u64,
}

/// The guards of `distribution`, before any work starts.
fn check_distribution(
    asked: &Asked,
    board: &Board,
    spinner: u32,
    spins: usize,
) -> Result<(), Failed> {
    let squares = u64::from(board.squares());
    let steps = (spins as u64)
        .saturating_mul(squares)
        .saturating_mul(u64::from(spinner));
    if steps > asked.max_distribution_work {
        return Err(Failed::Limit(
            format!(
                "distribution={spins} would take {steps} steps ({spins} spins x {squares} \
                 squares x {spinner} faces), above max_distribution_work={}; raise it to \
                 compute it",
                asked.max_distribution_work
            ),
            "max_distribution_work",
        ));
    }
    // Two tables of the squares' probabilities, the moves, and the answer.
    let bytes = squares
        .saturating_mul(16 + 16 * u64::from(spinner))
        .saturating_add((spins as u64).saturating_mul(32));
    let mib = bytes.div_ceil(1 << 20);
    if mib > asked.max_distribution_mib {
        return Err(Failed::Limit(
            format!(
                "distribution={spins} needs about {mib} MiB, above max_distribution_mib={}; \
                 raise it to compute it",
                asked.max_distribution_mib
            ),
            "max_distribution_mib",
        ));
    }
    Ok(())
}

/// The answer: expected (f64), its decimal text, the exact value when computed, the
/// distribution when asked.
type Answer = (f64, String, Option<Exact>, Option<Vec<f64>>);

fn answer(board: &Board, rules: &Rules, asked: &Asked) -> Result<Answer, Failed> {
    // A board that cannot be played is bad input, reported before any guard.
    check(board, rules).map_err(|e| failed(SolveError::Game(e)))?;
    let work = exact_work(board, rules);
    if asked.exact && work > asked.max_exact_work {
        return Err(Failed::Limit(
            format!(
                "exact arithmetic for this board would take about {work} units of work, \
                 above max_exact_work={}; raise max_exact_work to compute it (the work \
                 grows with the cube of the number of squares)",
                asked.max_exact_work
            ),
            "max_exact_work",
        ));
    }
    if let Some(spins) = asked.distribution {
        check_distribution(asked, board, rules.spinner, spins)?;
    }
    let (expected, text, exact) = if work <= asked.max_exact_work {
        let q = expected_spins::<Exact>(board, rules, &Limits::default()).map_err(failed)?;
        (q.to_f64(), decimal(&q, PLACES), Some(q))
    } else {
        match expected_spins::<f64>(board, rules, &Limits::default()) {
            Ok(e) if e.is_finite() => (e, format!("{:.*}", PLACES as usize, e), None),
            // The board can be finished (checked first), so an endless game here means
            // a probability too small for floating point.
            Ok(_) | Err(SolveError::Engine(alea_core::Error::NeverEnds(_))) => {
                return Err(Failed::Limit(
                    format!(
                        "the expected number of spins is beyond the range of floating \
                         point, and exact arithmetic would take about {work} units of work, \
                         above max_exact_work={}; raise max_exact_work to compute it",
                        asked.max_exact_work
                    ),
                    "max_exact_work",
                ))
            }
            Err(e) => return Err(failed(e)),
        }
    };
    let distribution = asked
        .distribution
        .map(|spins| finished_within(board, rules, spins));
    Ok((expected, text, exact, distribution))
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
    let overshoot = match overshoot {
        "stay" => Overshoot::Stay,
        "bounce" => Overshoot::Bounce,
        "finish" => Overshoot::Finish,
        other => {
            return Err(PyValueError::new_err(format!(
                "overshoot must be \"stay\", \"bounce\" or \"finish\", not {other:?}"
            )))
        }
    };
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
    let (expected, text, q, distribution) =
        interruptible(py, move || answer(&parsed, &rules, &asked))?
            .map_err(|e| raise(py, e, board.as_deref()))?;
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
