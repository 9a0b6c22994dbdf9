//! `alea.dice`: the One Person Game, as `alea dice` answers it, from the judge's cases
//! or for any dice. The guards are the command line's, named by the keyword arguments
//! that raise them.

use num_bigint::BigInt;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use alea_core::{decimal, Exact, Value};
use alea_games::dice::{expected_throws, expected_throws_exact, over_within, parse_cases, Game};

use crate::errors;
use crate::work::interruptible;

/// The name errors give the text passed in.
const SOURCE: &str = "<text>";
/// Decimal places of the judge's output.
const PLACES: u32 = 15;

/// An exact value as the integers of its reduced fraction, for `fractions.Fraction`.
fn pair(q: &Exact) -> (BigInt, BigInt) {
    (q.numer().clone(), q.denom().clone())
}

/// What may be asked and how much work it may take: the keyword arguments.
#[derive(Clone, Copy)]
struct Asked {
    exact: bool,
    distribution: Option<usize>,
    max_work: u64,
    max_exact_work: u64,
    max_distribution_work: u64,
    max_distribution_mib: u64,
}

/// Why a case could not be answered: a guard, before or during the work.
struct Stop {
    message: String,
    limit: &'static str,
}

/// Which game a message is about: nothing when there is one.
fn which(i: usize, of: usize) -> String {
    if of > 1 {
        format!("case {}: ", i + 1)
    } else {
        String::new()
    }
}

/// The guards, on all the games at once: time grows with every case.
fn check_limits(asked: &Asked, games: &[Game]) -> Result<(), Stop> {
    let of = games.len();
    let (mut work, mut exact_work, mut distribution_work) = (0u64, 0u64, 0u64);
    for (i, g) in games.iter().enumerate() {
        let throw = g.throw();
        let steps = throw.work(g.limit);
        work = work.saturating_add(steps);
        if work > asked.max_work {
            let what = if steps <= asked.max_work {
                format!("the first {} cases take {work} steps", i + 1)
            } else {
                format!(
                    "{}the limit {} takes {steps} steps ({} counters x {} sums)",
                    which(i, of),
                    g.limit,
                    g.limit.saturating_add(1),
                    throw.sums.len()
                )
            };
            return Err(Stop {
                message: format!(
                    "{what}, above max_work={}; raise max_work to compute it (time grows \
                     linearly with the limit)",
                    asked.max_work
                ),
                limit: "max_work",
            });
        }
        if asked.exact {
            exact_work = exact_work.saturating_add(throw.exact_work(g.limit));
            check_exact(asked, g, i, of, exact_work)?;
        }
        if let Some(k) = asked.distribution {
            distribution_work = distribution_work.saturating_add((k as u64).saturating_mul(steps));
            if distribution_work > asked.max_distribution_work {
                return Err(Stop {
                    message: format!(
                        "{}distribution={k} would take {distribution_work} steps, above \
                         max_distribution_work={}; raise it to compute it",
                        which(i, of),
                        asked.max_distribution_work
                    ),
                    limit: "max_distribution_work",
                });
            }
            // Two tables of the counter's distribution, and the answer.
            let bytes = g
                .limit
                .saturating_add(1)
                .saturating_mul(16)
                .saturating_add((k as u64).saturating_mul(32));
            let mib = bytes.div_ceil(1 << 20);
            if mib > asked.max_distribution_mib {
                return Err(Stop {
                    message: format!(
                        "{}distribution={k} with the limit {} needs about {mib} MiB, above \
                         max_distribution_mib={}; raise it to compute it",
                        which(i, of),
                        g.limit,
                        asked.max_distribution_mib
                    ),
                    limit: "max_distribution_mib",
                });
            }
        }
    }
    Ok(())
}

/// Checks the exact pass of case `i`, given the exact work of the cases so far.
fn check_exact(asked: &Asked, g: &Game, i: usize, of: usize, so_far: u64) -> Result<(), Stop> {
    if so_far > asked.max_exact_work {
        let what = if of > 1 && so_far > g.throw().exact_work(g.limit) {
            format!("the first {} cases", i + 1)
        } else {
            format!("{}the limit {}", which(i, of), g.limit)
        };
        return Err(Stop {
            message: format!(
                "exact arithmetic for {what} would take about {so_far} word operations, \
                 above max_exact_work={}; raise max_exact_work to compute it (the numbers \
                 grow with the limit)",
                asked.max_exact_work
            ),
            limit: "max_exact_work",
        });
    }
    Ok(())
}

/// One game's answer, as `alea dice --json` gives it.
struct Answer {
    expected: f64,
    /// The decimal the command line prints: from `f64`, or from the exact value when
    /// `f64` could not hold it.
    text: String,
    exact: Option<Exact>,
    distribution: Option<Vec<f64>>,
    /// Computed exactly though not asked to: `f64` could not hold it.
    beyond_f64: Option<f64>,
}

fn answer(asked: &Asked, g: &Game, i: usize, of: usize) -> Result<Answer, Stop> {
    let throw = g.throw();
    let distribution = asked.distribution.map(|k| over_within(&throw, g.limit, k));
    if asked.exact {
        let q = expected_throws_exact(&throw, g.limit);
        return Ok(Answer {
            expected: q.to_f64(),
            text: decimal(&q, PLACES),
            exact: Some(q),
            distribution,
            beyond_f64: None,
        });
    }
    let e = expected_throws(&throw, g.limit);
    if e.trusted() {
        return Ok(Answer {
            expected: e.expected,
            text: format!("{:.*}", PLACES as usize, e.expected),
            exact: None,
            distribution,
            beyond_f64: None,
        });
    }
    // Beyond what f64 can hold (the chance of finishing without a reset underflowed):
    // exactly, when that is affordable.
    check_exact(asked, g, i, of, throw.exact_work(g.limit))?;
    let q = expected_throws_exact(&throw, g.limit);
    Ok(Answer {
        expected: q.to_f64(),
        text: decimal(&q, PLACES),
        exact: Some(q),
        distribution,
        beyond_f64: Some(e.no_reset),
    })
}

fn answers<'py>(
    py: Python<'py>,
    games: Vec<Game>,
    asked: Asked,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let solved = interruptible(py, move || {
        check_limits(&asked, &games)?;
        let of = games.len();
        games
            .par_iter()
            .enumerate()
            .map(|(i, g)| answer(&asked, g, i, of))
            .collect::<Result<Vec<_>, Stop>>()
    })?
    .map_err(|stop| errors::limit(py, &stop.message, stop.limit))?;
    solved
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let o = PyDict::new(py);
            // Beyond the range of f64 the float is infinite; the fraction and the
            // decimal text carry the value.
            o.set_item("expected_throws", a.expected)?;
            o.set_item("expected_throws_exact", a.exact.as_ref().map(pair))?;
            o.set_item("text", &a.text)?;
            o.set_item("distribution", a.distribution.clone())?;
            o.set_item(
                "warning",
                a.beyond_f64.map(|no_reset| {
                    format!(
                        "{}the expectation is too large for floating point (the chance of \
                         a game without a reset is {no_reset:e}); computed in exact \
                         arithmetic",
                        which(i, solved.len())
                    )
                }),
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
