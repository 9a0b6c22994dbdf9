//! Why a command stopped, and the exit status that says so.

use std::fmt;

/// Exit status for bad input or a bad command line (clap uses 2 for the latter too).
pub const BAD_INPUT: u8 = 2;
/// Exit status when a resource guard stops the work.
pub const LIMIT: u8 = 3;
/// Exit status for anything else: an I/O failure on output, an internal error.
pub const OTHER: u8 = 1;

/// A failure to report on stderr as `error: ...` before exiting with `code`.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
    /// The reader closed the pipe (`alea ... | head`): its choice, not a failure.
    pub broken_pipe: bool,
}

impl Failure {
    pub fn bad_input(message: impl Into<String>) -> Self {
        Failure {
            code: BAD_INPUT,
            message: message.into(),
            broken_pipe: false,
        }
    }

    pub fn other(message: impl Into<String>) -> Self {
        Failure {
            code: OTHER,
            message: message.into(),
            broken_pipe: false,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<alea_core::Error> for Failure {
    fn from(e: alea_core::Error) -> Self {
        let code = match e {
            alea_core::Error::TooManyStates { .. }
            | alea_core::Error::StepLimit(_)
            | alea_core::Error::NotConverged(..) => LIMIT,
            _ => OTHER,
        };
        Failure {
            code,
            message: e.to_string(),
            broken_pipe: false,
        }
    }
}

impl Failure {
    /// A resource guard stopped the work.
    pub fn limit(message: impl Into<String>) -> Self {
        Failure {
            code: LIMIT,
            message: message.into(),
            broken_pipe: false,
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure {
            broken_pipe: e.kind() == std::io::ErrorKind::BrokenPipe,
            ..Failure::other(format!("cannot write the output: {e}"))
        }
    }
}
