//! Errors in a model or a property, with the place in the text they come from.

use std::fmt;

/// A stretch of source text, by byte offsets: `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// What is wrong, and where. The message says what was found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub span: Span,
    pub message: String,
}

impl Error {
    pub fn new(span: Span, message: impl Into<String>) -> Error {
        Error {
            span,
            message: message.into(),
        }
    }

    /// The 1-based line and column (in characters) where the error starts in `text`.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        line_col(text, self.span.start)
    }

    /// The error as the command line prints it after `error: `: `FILE:LINE:COL: message`,
    /// then the offending source line and a caret under the place.
    pub fn render(&self, file: &str, text: &str) -> String {
        let (line, col) = self.line_col(text);
        let source = text.lines().nth(line - 1).unwrap_or("");
        let source = source.strip_suffix('\r').unwrap_or(source);
        // A very long line is shown as a window around the place, not whole.
        let (source, shown) = window(source, col);
        let source = source.as_str();
        // The caret lines up under the column, tabs kept so terminals align them alike.
        let pad: String = source
            .chars()
            .take(shown - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let width = {
            let end = self.span.end.min(text.len()).max(self.span.start);
            let piece = text.get(self.span.start..end).unwrap_or("");
            let piece = piece.lines().next().unwrap_or("");
            let room = source.chars().count().saturating_sub(shown - 1);
            piece.chars().count().min(room).max(1)
        };
        format!(
            "{file}:{line}:{col}: {}\n  {source}\n  {pad}{}",
            self.message,
            "^".repeat(width)
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// At most about 160 characters of `line` around column `col`, with `…` where cut, and
/// the column within what is kept.
fn window(line: &str, col: usize) -> (String, usize) {
    const SIDE: usize = 80;
    let count = line.chars().count();
    if count <= 2 * SIDE {
        return (line.to_string(), col);
    }
    let start = col.saturating_sub(SIDE).min(count - 2 * SIDE);
    let end = (start + 2 * SIDE).min(count);
    let mut kept: String = line.chars().skip(start).take(end - start).collect();
    let mut col = col - start;
    if start > 0 {
        kept.insert(0, '…');
        col += 1;
    }
    if end < count {
        kept.push('…');
    }
    (kept, col)
}

/// The 1-based line and character column of byte `offset` in `text`. An offset past the
/// end, or inside a character, is clamped to the nearest boundary before it.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[start..].chars().count() + 1;
    (line, col)
}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_shown_around_the_place() {
        let text = format!("{}x{}", "a".repeat(5000), "b".repeat(5000));
        let e = Error::new(Span::new(5000, 5001), "here");
        let shown = e.render("m.prism", &text);
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].starts_with("m.prism:1:5001: here"), "{}", lines[0]);
        assert!(lines[1].chars().count() < 200, "{}", lines[1]);
        // The caret sits under the `x`.
        let caret = lines[2].chars().position(|c| c == '^').unwrap();
        assert_eq!(lines[1].chars().nth(caret), Some('x'));
    }

    #[test]
    fn a_short_line_is_shown_whole() {
        let text = "dtmc\nmodule M x : [0..1]; endmodule\n";
        let e = Error::new(Span::new(14, 15), "what");
        assert_eq!(
            e.render("f", text),
            "f:2:10: what\n  module M x : [0..1]; endmodule\n           ^"
        );
    }
}
