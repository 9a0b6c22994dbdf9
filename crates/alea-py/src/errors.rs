//! The package's exceptions, raised from Rust. They are defined in Python
//! (`alea/errors.py`) so that they are ordinary classes with documented attributes;
//! here they are looked up and instantiated.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use alea_games::ParseError;

/// An instance of `alea.errors.<class>` built from `message` and keyword arguments.
fn raise(py: Python<'_>, class: &str, message: &str, fields: &[(&str, Py<PyAny>)]) -> PyErr {
    let built = (|| -> PyResult<PyErr> {
        let cls = py.import("alea.errors")?.getattr(class)?;
        let kwargs = PyDict::new(py);
        for (name, value) in fields {
            kwargs.set_item(name, value)?;
        }
        let instance = cls.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(instance))
    })();
    // The package's own module missing is a broken install: say so rather than hide it.
    built.unwrap_or_else(|e| e)
}

/// Bad input at a place: `alea.InputError` with `line` and `column` (1-based) and the
/// name of the text they are in (`source`).
pub fn input(py: Python<'_>, message: &str, source: &str, place: Option<(usize, usize)>) -> PyErr {
    let none = || py.None();
    let (line, column) = match place {
        Some((l, c)) => (
            l.into_pyobject(py)
                .map_or_else(|_| none(), |v| v.into_any().unbind()),
            c.into_pyobject(py)
                .map_or_else(|_| none(), |v| v.into_any().unbind()),
        ),
        None => (none(), none()),
    };
    let source = source
        .into_pyobject(py)
        .map_or_else(|_| none(), |v| v.into_any().unbind());
    raise(
        py,
        "InputError",
        message,
        &[("line", line), ("column", column), ("source", source)],
    )
}

/// A judge-format parse error in the text named `source`.
pub fn parse(py: Python<'_>, e: &ParseError, source: &str) -> PyErr {
    input(py, &e.message, source, Some((e.line, e.col)))
}

/// A resource guard stopped the work: `alea.LimitError` naming the limit (the keyword
/// argument that raises it).
pub fn limit(py: Python<'_>, message: &str, name: &str) -> PyErr {
    let limit = name
        .into_pyobject(py)
        .map_or_else(|_| py.None(), |v| v.into_any().unbind());
    raise(py, "LimitError", message, &[("limit", limit)])
}

/// A model that the engine cannot evaluate as described (a chance node without
/// successors, a game that never ends): `alea.ModelError`.
pub fn model(py: Python<'_>, message: &str) -> PyErr {
    raise(py, "ModelError", message, &[])
}

/// An engine error as the right exception; `states_limit` names the argument that
/// bounds the states stored.
pub fn engine(py: Python<'_>, e: alea_core::Error, states_limit: &str) -> PyErr {
    use alea_core::Error as E;
    match e {
        E::TooManyStates { limit: n } => limit(
            py,
            &format!("more than {n} states would be stored; raise {states_limit} to go on"),
            states_limit,
        ),
        E::NotConverged(..) => limit(py, &e.to_string(), "precision"),
        E::StepLimit(_) => limit(py, &e.to_string(), "max_steps"),
        other => model(py, &other.to_string()),
    }
}
