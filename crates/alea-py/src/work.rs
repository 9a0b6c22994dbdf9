//! Long computations off the interpreter: run on a thread of their own while the
//! caller waits without holding the interpreter, so other Python threads run, and
//! Ctrl-C (or any signal handler that raises) returns control at once and raises the
//! computation's stop flag.

use std::sync::mpsc;
use std::time::Duration;

use alea_core::Stop;
use pyo3::prelude::*;

/// How often a waiting call looks for a pending signal.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` and returns its result. While it runs the interpreter is released;
/// every [`POLL`] the caller takes it back briefly to run Python's signal handlers, and
/// a handler that raises (Ctrl-C raises `KeyboardInterrupt`) ends the wait with that
/// exception. Work that does not look at a stop flag finishes on its own thread and its
/// result is dropped; see [`stoppable`].
pub fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    stoppable(py, &Stop::default(), work)
}

/// [`interruptible`], raising `stop` when the wait ends with an exception: work that
/// looks at the flag (exploration and the engine's solvers) then stops too, instead of
/// keeping a core busy for an answer nobody waits for.
pub fn stoppable<T, F>(py: Python<'_>, stop: &Stop, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (send, receive) = mpsc::channel();
    std::thread::Builder::new()
        .name("alea-work".into())
        .spawn(move || {
            // The caller may have gone (interrupted): nobody to tell.
            let _ = send.send(work());
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    let mut receive = receive;
    loop {
        // The receiver goes along and comes back: it may not be shared across threads.
        let (got, back) = py.detach(move || (receive.recv_timeout(POLL), receive));
        receive = back;
        match got {
            Ok(result) => return Ok(result),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.stop();
                    return Err(e);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "the computation stopped without an answer (a bug in alea: please report it)",
                ))
            }
        }
    }
}
