//! `alea` from Python: the extension module `alea._alea`. Each function here calls the
//! same library functions as the command line and hands plain values (numbers, strings,
//! lists, dicts, exact fractions as integer pairs) to the Python package in `python/`,
//! which wraps them into small frozen classes. Nothing here prints or shells out.
//!
//! Errors become the package's exceptions (`alea.errors`), never a crash: bad input an
//! `InputError` with its line and column, a resource guard a `LimitError` naming the
//! limit. Long computations release the interpreter and can be stopped with Ctrl-C
//! (`work::interruptible`).

use pyo3::prelude::*;

mod check;
mod convert;
mod dice;
mod errors;
mod game;
mod jenga;
mod mahjong;
mod patience;
mod pig;
mod snakes;
mod work;
mod yahtzee;

/// The native half of the `alea` package; use `alea` itself.
#[pymodule]
fn _alea(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    check::register(m)?;
    dice::register(m)?;
    game::register(m)?;
    jenga::register(m)?;
    mahjong::register(m)?;
    patience::register(m)?;
    pig::register(m)?;
    snakes::register(m)?;
    yahtzee::register(m)?;
    Ok(())
}
