//! The PRISM language: models of discrete-time Markov chains and Markov decision
//! processes, and the properties asked of them. The text is read into a syntax tree
//! (`lexer`, `parser`), resolved against its constants into a typed program (`resolve`,
//! `program`), explored into the engine's explicit sparse form (`explore`), and the
//! properties answered on that form (`check`). A whole check from the texts to the
//! answers, as the command line and the Python package run it, is a `session`.

pub mod ast;
pub mod check;
pub mod error;
pub mod eval;
pub mod explore;
pub mod lexer;
pub mod parser;
pub mod program;
pub mod resolve;
pub mod session;

pub use error::{Error, Span};
