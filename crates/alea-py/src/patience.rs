//! `alea.patience`: Double Patience, as `alea patience` answers it: the random player's
//! chance, winnability and a winning line, the moves' worth, random deals and their
//! figures. Each function reads the whole text first (an error names its place), then
//! solves the deals in parallel off the interpreter.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use alea_core::{Exact, Value};
use alea_games::patience::{
    analyse, hints, judge_tableaus, parse_deals_in, random_play, random_play_all,
    random_play_tableaus, stats, Deal, Layout, RandomDeals, BINS,
};

use crate::convert::pair;
use crate::errors;
use crate::work::interruptible;

/// The name errors give the text passed in.
const SOURCE: &str = "<text>";

fn layout(name: &str) -> PyResult<Layout> {
    match name {
        "auto" => Ok(Layout::Auto),
        "tokens" => Ok(Layout::Tokens),
        "lines" => Ok(Layout::Lines),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "layout must be \"auto\", \"tokens\" or \"lines\", not {other:?}"
        ))),
    }
}

fn deals(py: Python<'_>, text: &[u8], layout: Layout) -> PyResult<Vec<Deal>> {
    parse_deals_in(text, layout).map_err(|e| errors::parse(py, &e, SOURCE))
}

/// The engine never stops on a deal (no guard bounds it): any error is a bug's.
fn engine(py: Python<'_>, e: alea_core::Error) -> PyErr {
    errors::engine(py, e, "max_states")
}

/// The random player's win probability of each deal: floats, or fraction pairs with
/// `exact`.
#[pyfunction]
#[pyo3(signature = (text, exact, layout))]
fn patience_random_play(
    py: Python<'_>,
    text: Vec<u8>,
    exact: bool,
    layout: &str,
) -> PyResult<Py<PyAny>> {
    let layout = self::layout(layout)?;
    if !exact && layout != Layout::Lines {
        // The judge's question on the judge's layout: read by ranks in one pass, as the
        // command line does; anything else is read in full below.
        if let Some(tableaus) = judge_tableaus(&text) {
            let solved = interruptible(py, move || random_play_tableaus(&tableaus, &|| {}))?;
            return Ok(solved.into_pyobject(py)?.into_any().unbind());
        }
    }
    let deals = deals(py, &text, layout)?;
    if exact {
        let solved = interruptible(py, move || {
            deals
                .par_iter()
                .map(|d| random_play::<Exact>(d).map(|(p, _)| pair(&p)))
                .collect::<Result<Vec<_>, _>>()
        })?
        .map_err(|e| engine(py, e))?;
        return Ok(solved.into_pyobject(py)?.into_any().unbind());
    }
    let solved =
        interruptible(py, move || random_play_all(&deals, &|| {}))?.map_err(|e| engine(py, e))?;
    Ok(solved.into_pyobject(py)?.into_any().unbind())
}

/// One analysis of a deal, as `alea patience --json` gives it.
struct Analysed {
    random_play: f64,
    solvable: bool,
    winning_line: Option<Vec<(usize, usize)>>,
    states: usize,
    cards: usize,
    exact: Option<Exact>,
}

/// Each deal's analysis, as `alea patience --json` gives it.
#[pyfunction]
#[pyo3(signature = (text, exact, layout))]
fn patience_analyse<'py>(
    py: Python<'py>,
    text: Vec<u8>,
    exact: bool,
    layout: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let deals = deals(py, &text, self::layout(layout)?)?;
    let solved = interruptible(py, move || {
        deals
            .par_iter()
            .map(|deal| {
                let a = analyse::<f64>(deal)?;
                let exact = if exact {
                    Some(random_play::<Exact>(deal)?.0)
                } else {
                    None
                };
                Ok(Analysed {
                    random_play: a.random_play,
                    solvable: a.solvable,
                    winning_line: a.winning_line,
                    states: a.states,
                    cards: deal.cards(),
                    exact,
                })
            })
            .collect::<Result<Vec<_>, alea_core::Error>>()
    })?
    .map_err(|e| engine(py, e))?;
    solved
        .iter()
        .map(|a| {
            let o = PyDict::new(py);
            o.set_item("random_play", a.random_play)?;
            o.set_item("solvable", a.solvable)?;
            o.set_item("winning_line", a.winning_line.clone())?;
            o.set_item("states", a.states)?;
            o.set_item("cards", a.cards)?;
            o.set_item("random_play_exact", a.exact.as_ref().map(pair))?;
            Ok(o)
        })
        .collect()
}

/// One move's hint, in plain values.
struct Hint {
    piles: (usize, usize),
    random_play: f64,
    loss: f64,
    solvable: bool,
    exact: Option<(Exact, Exact)>,
}

/// One deal's hints, in plain values.
struct Hinted {
    random_play: f64,
    solvable: bool,
    states: usize,
    exact: Option<Exact>,
    moves: Vec<Hint>,
}

fn hinted<V: Value>(deal: &Deal, exact: impl Fn(&V) -> Option<Exact>) -> alea_core::Result<Hinted> {
    let a = analyse::<V>(deal)?;
    let moves = hints::<V>(deal)?
        .into_iter()
        .map(|m| Hint {
            piles: m.piles,
            random_play: m.random_play.to_f64(),
            loss: m.loss.to_f64(),
            solvable: m.solvable,
            exact: exact(&m.random_play).zip(exact(&m.loss)),
        })
        .collect();
    Ok(Hinted {
        random_play: a.random_play.to_f64(),
        solvable: a.solvable,
        states: a.states,
        exact: exact(&a.random_play),
        moves,
    })
}

/// Each deal's legal moves, best first, as `alea patience --hint --json` gives them.
#[pyfunction]
#[pyo3(signature = (text, exact, layout))]
fn patience_hints<'py>(
    py: Python<'py>,
    text: Vec<u8>,
    exact: bool,
    layout: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let deals = deals(py, &text, self::layout(layout)?)?;
    let solved = interruptible(py, move || {
        deals
            .par_iter()
            .map(|deal| {
                if exact {
                    hinted::<Exact>(deal, |q| Some(q.clone()))
                } else {
                    hinted::<f64>(deal, |_| None)
                }
            })
            .collect::<Result<Vec<_>, alea_core::Error>>()
    })?
    .map_err(|e| engine(py, e))?;
    solved
        .iter()
        .map(|h| {
            let moves = h
                .moves
                .iter()
                .map(|m| {
                    let o = PyDict::new(py);
                    o.set_item("piles", m.piles)?;
                    o.set_item("random_play", m.random_play)?;
                    o.set_item("loss", m.loss)?;
                    o.set_item("solvable", m.solvable)?;
                    o.set_item("random_play_exact", m.exact.as_ref().map(|(q, _)| pair(q)))?;
                    o.set_item("loss_exact", m.exact.as_ref().map(|(_, q)| pair(q)))?;
                    Ok(o)
                })
                .collect::<PyResult<Vec<_>>>()?;
            let o = PyDict::new(py);
            o.set_item("random_play", h.random_play)?;
            o.set_item("solvable", h.solvable)?;
            o.set_item("states", h.states)?;
            o.set_item("moves", moves)?;
            o.set_item("random_play_exact", h.exact.as_ref().map(pair))?;
            Ok(o)
        })
        .collect()
}

/// The guard of `stats` and `shuffle`: as many deals as `max_deals` at most.
fn check_deals(py: Python<'_>, deals: usize, max: usize) -> PyResult<()> {
    if deals > max {
        return Err(errors::limit(
            py,
            &format!("deals={deals} is above max_deals={max}; raise max_deals to go on"),
            "max_deals",
        ));
    }
    Ok(())
}

/// Random deals' figures, as `alea patience stats --json` gives them.
#[pyfunction]
#[pyo3(signature = (deals, seed, max_deals))]
fn patience_stats(
    py: Python<'_>,
    deals: usize,
    seed: u64,
    max_deals: usize,
) -> PyResult<Bound<'_, PyDict>> {
    check_deals(py, deals, max_deals)?;
    let s = interruptible(py, move || stats(deals, seed, &|| {}))?.map_err(|e| engine(py, e))?;
    let histogram = (0..BINS)
        .map(|b| {
            (
                b as f64 / BINS as f64,
                (b + 1) as f64 / BINS as f64,
                s.histogram[b],
            )
        })
        .collect::<Vec<_>>();
    let o = PyDict::new(py);
    o.set_item("deals", s.deals)?;
    o.set_item("seed", seed)?;
    o.set_item("mean_random_play", s.mean_random_play)?;
    o.set_item("std_dev", s.std_dev)?;
    o.set_item("half_width_95", s.half_width_95())?;
    o.set_item("winnable", s.winnable)?;
    o.set_item("winnable_share", s.winnable_share())?;
    o.set_item("histogram", histogram)?;
    Ok(o)
}

/// Random deals in the judge format, as `alea patience shuffle` prints them.
#[pyfunction]
#[pyo3(signature = (deals, seed, max_deals))]
fn patience_shuffle(py: Python<'_>, deals: usize, seed: u64, max_deals: usize) -> PyResult<String> {
    check_deals(py, deals, max_deals)?;
    interruptible(py, move || {
        let mut text = String::with_capacity(deals.saturating_mul(108).min(1 << 30));
        for deal in RandomDeals::new(seed).take(deals) {
            text.push_str(&deal.to_string());
        }
        text
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(patience_random_play, m)?)?;
    m.add_function(wrap_pyfunction!(patience_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(patience_hints, m)?)?;
    m.add_function(wrap_pyfunction!(patience_stats, m)?)?;
    m.add_function(wrap_pyfunction!(patience_shuffle, m)?)?;
    Ok(())
}
