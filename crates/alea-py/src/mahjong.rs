//! `alea.mahjong`: the expected number of draws to a winning hand, as `alea mahjong
//! --json` gives it: modulo the judge's prime, in floating point, exactly if asked.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use alea_core::Value;
use alea_games::mahjong::{parse_hand, Solver};

use crate::convert::pair;
use crate::errors;
use crate::work::interruptible;

/// The name errors give the text passed in.
const SOURCE: &str = "<text>";

/// The hand automaton, built on the first call and kept: it is the same for every hand.
static SOLVER: OnceLock<Solver> = OnceLock::new();

/// The hand's figures, as `alea mahjong --json` (with `--exact`) gives them.
#[pyfunction]
#[pyo3(signature = (text, exact))]
fn mahjong_analyse(py: Python<'_>, text: Vec<u8>, exact: bool) -> PyResult<Bound<'_, PyDict>> {
    let hand = parse_hand(&text).map_err(|e| errors::parse(py, &e, SOURCE))?;
    let ranks = hand.ranks();
    let (mod_p, p_not_won, exact, explored, minimal) = interruptible(py, move || {
        let solver = SOLVER.get_or_init(Solver::new);
        let exact = exact.then(|| solver.expected_exact(&hand));
        (
            solver.expected_mod_p(&hand).residue(),
            solver.p_not_won(&hand),
            exact,
            solver.explored_states,
            solver.minimal_states,
        )
    })?;
    let o = PyDict::new(py);
    o.set_item("ranks", ranks)?;
    o.set_item("expected_draws_mod_p", mod_p)?;
    // From the exact fraction when there is one: the sum of rounded terms is only close
    // to it.
    o.set_item(
        "expected_draws",
        exact
            .as_ref()
            .map_or_else(|| p_not_won.iter().sum::<f64>(), Value::to_f64),
    )?;
    o.set_item("p_not_won", p_not_won)?;
    o.set_item("explored", explored)?;
    o.set_item("minimal", minimal)?;
    o.set_item("expected_draws_exact", exact.as_ref().map(pair))?;
    Ok(o)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mahjong_analyse, m)?)?;
    Ok(())
}
