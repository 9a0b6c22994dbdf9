//! Reads tokens into the syntax tree of a model or of properties.
//!
//! A hand-written top-down parser over the token vector from the lexer, with one
//! token of lookahead almost everywhere (two or three to tell an update's
//! probability from its assignments, and a property's name from a label). It stops at
//! the first error, which points at the offending token and says what was found and
//! what was expected.
//!
//! It never panics and never overflows the stack: nothing in it recurses (expressions
//! and nested filters are read with explicit stacks), nesting of any kind is limited to
//! [`MAX_DEPTH`] levels, and the height of an expression tree to [`MAX_HEIGHT`], so
//! that the later passes, which walk trees recursively, are safe too. Every step
//! consumes a token or ends, so the work is linear in the length of the text.
//!
//! - `expr`: expressions, by operator precedence.
//! - `model`: model files.
//! - `props`: property files.

mod expr;
mod model;
mod props;
#[cfg(test)]
mod tests;

use crate::ast::{Expr, Ident, Model, PropertyFile};
use crate::error::{line_col, Error, Result, Span};
use crate::lexer::{tokenize, Tok, Token};

/// How a refusal of LTL ends: what is not supported, and what a path may be instead.
/// How deeply parentheses, function calls and conditionals may nest, and filters.
pub const MAX_DEPTH: u32 = 256;

/// How tall an expression tree may be: a chain of 1024 additions is already far beyond
/// what a model needs, and the passes after the parser walk trees recursively.
pub const MAX_HEIGHT: u32 = 1024;

/// Reads a model file (`dtmc` or `mdp`; an `mdp` when no type is given, as in PRISM).
pub fn parse_model(text: &str) -> Result<Model> {
    Parser::new(text)?.model()
}

/// Reads a property file: properties separated by `;` or line breaks, each with an
/// optional `"name":` before it, among `const`, `label` and `formula` declarations.
pub fn parse_properties(text: &str) -> Result<PropertyFile> {
    Parser::new(text)?.properties()
}

/// Reads a single expression, the whole of `text`.
pub fn parse_expression(text: &str) -> Result<Expr> {
    let mut p = Parser::new(text)?;
    let e = p.expr()?;
    if p.peek() != Tok::Eof {
        return Err(p.expected("an operator or the end of the expression"));
    }
    Ok(e)
}

/// The parser's state: the tokens, where it is among them, and the context that
/// changes how some tokens read.
struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    /// Inside a property: the operator letters (`F`, `U`, `P`, ...) are recognised, so
    /// that a misplaced one gets a clear message rather than being read as a name.
    in_property: bool,
    /// Inside a time bound (`F<=k phi`): a name followed by `(` ends the bound, as in
    /// `F<=k (x=1)`, instead of starting a call.
    in_bound: bool,
    /// Operators open within one another (`P>0 [F P>0 [F a]]`), up to [`MAX_DEPTH`].
    nesting: u32,
    /// The expression reader's stacks, reused.
    stacks: expr::Stacks,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Parser<'a>> {
        Ok(Parser {
            text,
            tokens: tokenize(text)?,
            pos: 0,
            in_property: false,
            in_bound: false,
            nesting: 0,
            stacks: expr::Stacks::default(),
        })
    }

    fn token(&self) -> Token {
        self.tokens[self.pos]
    }

    fn peek(&self) -> Tok {
        self.tokens[self.pos].kind
    }

    /// The kind of the token `n` places ahead (`Eof` past the end).
    fn peek_at(&self, n: usize) -> Tok {
        self.tokens.get(self.pos + n).map_or(Tok::Eof, |t| t.kind)
    }

    /// Moves past the current token and returns it; at the end it stays on `Eof`.
    fn bump(&mut self) -> Token {
        let t = self.tokens[self.pos];
        if t.kind != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, kind: Tok) -> Option<Token> {
        (self.peek() == kind).then(|| self.bump())
    }

    /// The end of the last token consumed.
    fn prev_end(&self) -> usize {
        match self.pos {
            0 => 0,
            n => self.tokens[n - 1].span.end,
        }
    }

    fn slice(&self, span: Span) -> &'a str {
        &self.text[span.start..span.end]
    }

    /// Whether the current token is the name `word` (the operator letters of properties
    /// and `min`/`max` are names to the lexer).
    fn at_word(&self, word: &str) -> bool {
        let t = self.token();
        t.kind == Tok::Ident && self.slice(t.span) == word
    }

    /// The 1-based line of a byte offset, for "opened at line N".
    fn line(&self, offset: usize) -> usize {
        line_col(self.text, offset).0
    }

    /// How an error message shows the current token.
    fn found(&self) -> String {
        let t = self.token();
        match t.kind {
            Tok::Eof => "end of input".to_string(),
            _ => format!("`{}`", shorten(self.slice(t.span))),
        }
    }

    /// "expected WHAT, found TOKEN", at the current token.
    /// `what` is formatted only when the error is made, so that the callers may pass
    /// `format_args!` at no cost on the path without errors.
    fn expected(&self, what: impl std::fmt::Display) -> Error {
        let t = self.token();
        let message = match t.kind {
            Tok::Eof => format!("unexpected end of input: expected {what}"),
            _ => format!("expected {what}, found {}", self.found()),
        };
        Error::new(t.span, message)
    }

    /// Consumes a token of kind `kind`, or fails with "expected WHAT, found ...".
    fn expect(&mut self, kind: Tok, what: impl std::fmt::Display) -> Result<Token> {
        match self.eat(kind) {
            Some(t) => Ok(t),
            None => Err(self.expected(what)),
        }
    }

    /// Consumes a name; `what` says which (such as "a name for the module").
    fn name(&mut self, what: &str) -> Result<Ident> {
        let t = self.token();
        match t.kind {
            Tok::Ident => {
                self.bump();
                Ok(Ident {
                    name: self.slice(t.span).to_string(),
                    span: t.span,
                })
            }
            Tok::Kw(k) => Err(Error::new(
                t.span,
                format!("`{}` is a keyword, expected {what}", k.as_str()),
            )),
            _ => Err(self.expected(what)),
        }
    }

    /// The name inside a label token `"name"` (the span keeps the quotes).
    fn label_name(&self, t: Token) -> Ident {
        Ident {
            name: self.text[t.span.start + 1..t.span.end - 1].to_string(),
            span: t.span,
        }
    }
}

/// A token's text cut to a readable length for a message.
fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The message for a keyword or construct that belongs to a kind of model alea does not
/// read.
fn unsupported(what: &str) -> String {
    format!("{what} is not supported; alea reads dtmc, mdp and smg models")
}
