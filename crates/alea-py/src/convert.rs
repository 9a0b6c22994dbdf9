//! Engine values as Python values: exact rationals as `fractions.Fraction`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use alea_core::Exact;

static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `q` as a `fractions.Fraction` (already in lowest terms, as the engine keeps it).
pub fn fraction<'py>(py: Python<'py>, q: &Exact) -> PyResult<Bound<'py, PyAny>> {
    FRACTION
        .import(py, "fractions", "Fraction")?
        .call1((q.numer().clone(), q.denom().clone()))
}

/// `q` as its numerator and denominator, which the public modules turn into a
/// `Fraction` (Python integers of any size, no text in between).
pub fn pair(q: &Exact) -> (num_bigint::BigInt, num_bigint::BigInt) {
    (q.numer().clone(), q.denom().clone())
}
