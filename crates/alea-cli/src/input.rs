//! Reading a command's input: a file, or standard input for no file or `-`.

use std::io::Read;
use std::path::Path;

use alea_games::ParseError;

use crate::failure::Failure;

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
