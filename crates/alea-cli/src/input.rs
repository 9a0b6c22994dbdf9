//! Reading a command's input: a file, or standard input for no file or `-`.

use std::cell::RefCell;
use std::io::Read;
use std::path::Path;

use alea_games::ParseError;

use crate::failure::Failure;

thread_local! {
    /// The standard input of a command run for a web request (see [`given_stdin`]).
    static GIVEN: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Runs `f` with `text` as the standard input that a command reads on this thread
/// (empty when it is not given), never the process's own: the web server runs the
/// commands in process, and a request's `input` is what the command would read from a
/// pipe (errors point into it as `<stdin>`, as they do then).
pub fn given_stdin<R>(text: Option<String>, f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            GIVEN.with(|given| given.borrow_mut().take());
        }
    }
    GIVEN.with(|given| *given.borrow_mut() = Some(text.unwrap_or_default().into_bytes()));
    let _reset = Reset;
    f()
}

/// The bytes of an input and the name errors give it.
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Input {
    pub fn read(path: Option<&Path>) -> Result<Input, Failure> {
        match path {
            None => Self::stdin(),
            Some(p) if p == Path::new("-") => Self::stdin(),
            Some(p) => {
                let name = p.display().to_string();
                let bytes = std::fs::read(p)
                    .map_err(|e| Failure::bad_input(format!("{name}: cannot read: {e}")))?;
                Ok(Input { name, bytes })
            }
        }
    }

    fn stdin() -> Result<Input, Failure> {
        if let Some(bytes) = GIVEN.with(|given| given.borrow_mut().take()) {
            return Ok(Input {
                name: "<stdin>".into(),
                bytes,
            });
        }
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::bad_input(format!("<stdin>: cannot read: {e}")))?;
        Ok(Input {
            name: "<stdin>".into(),
            bytes,
        })
    }

    /// A parse error as `FILE:LINE:COL: message`, exit status 2.
    pub fn error(&self, e: ParseError) -> Failure {
        Failure::bad_input(format!("{}:{e}", self.name))
    }
}
