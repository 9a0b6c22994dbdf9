//! Long computations off the interpreter: run on a thread of their own while the
//! caller waits without holding the interpreter, so other Python threads run, and
//! Ctrl-C (or any signal handler that raises) returns control at once.

use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;

/// How often a waiting call looks for a pending signal.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` and returns its result. While it runs the interpreter is released;
/// every [`POLL`] the caller takes it back briefly to run Python's signal handlers, and
/// a handler that raises (Ctrl-C raises `KeyboardInterrupt`) ends the wait with that
/// exception. The engine has no way to stop a computation half way, so the abandoned
/// work finishes on its own thread and its result is dropped.
pub fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
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
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "the computation stopped without an answer (a bug in alea: please report it)",
                ))
            }
        }
    }
}
