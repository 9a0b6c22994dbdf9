//! Reading judge-format text: whitespace-separated tokens that know their line and
//! column, and the one error type every parser returns.
//!
//! Input is taken as bytes, not UTF-8, so that binary noise is reported as a bad token
//! at its place instead of failing as a whole.

use std::fmt;

/// A parse error at a 1-based line and column (columns count bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl ParseError {
    pub fn at(line: usize, col: usize, message: impl Into<String>) -> Self {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    /// `LINE:COL: message`; the caller puts the file name in front.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// One whitespace-separated token and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub line: usize,
    pub col: usize,
    pub bytes: &'a [u8],
}

impl Token<'_> {
    /// The token for an error message: lossy UTF-8, shortened when long.
    pub fn shown(&self) -> String {
        const MAX: usize = 24;
        let text = String::from_utf8_lossy(self.bytes);
        let mut shown: String = text.chars().take(MAX).collect();
        if text.chars().count() > MAX {
            shown.push_str("...");
        }
        format!("`{}`", shown.escape_debug())
    }

    /// An error placed at this token.
    pub fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.line, self.col, message)
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Whether `b` separates tokens: what C's `isspace` takes (space, tab, LF, vertical tab,
/// form feed, CR), as the judges' reference solutions read their input.
#[inline]
pub fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

/// The raw lines of the input: a line ends at LF, CRLF or a lone CR (as some old files
/// have it). A final line without an ending counts as a line.
fn raw_lines(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(input);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.iter().position(|&b| b == b'\n' || b == b'\r') {
            None => {
                rest = None;
                Some(text)
            }
            Some(i) => {
                let crlf = text[i] == b'\r' && text.get(i + 1) == Some(&b'\n');
                rest = Some(&text[i + 1 + usize::from(crlf)..]);
                Some(&text[..i])
            }
        }
    })
}

/// The lines of the input, each as its tokens, with the 1-based line number; blank lines
/// come back with no tokens.
pub fn lines(input: &[u8]) -> impl Iterator<Item = (usize, Vec<Token<'_>>)> {
    raw_lines(input)
        .enumerate()
        .map(|(i, line)| (i + 1, line_tokens(i + 1, line)))
}

fn line_tokens(line_no: usize, line: &[u8]) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    // A byte-order mark, as some editors write at the start of a file, is not input.
    let mut i = if line_no == 1 && line.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    while i < line.len() {
        if is_blank(line[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && !is_blank(line[i]) {
            i += 1;
        }
        tokens.push(Token {
            line: line_no,
            col: start + 1,
            bytes: &line[start..i],
        });
    }
    tokens
}

/// Reads a whole number no larger than `max`; `what` names it in errors ("the number
/// of cases T").
pub fn number(token: &Token<'_>, what: &str, max: u64) -> Result<u64, ParseError> {
    let text = std::str::from_utf8(token.bytes).unwrap_or("");
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(token.error(format!(
            "{} is not a whole number; expected {what}",
            token.shown()
        )));
    }
    match text.parse::<u64>() {
        Ok(v) if v <= max => Ok(v),
        _ => Err(token.error(format!(
            "{} is too large for {what} (at most {max})",
            token.shown()
        ))),
    }
}

/// Every token of the input in order.
pub fn tokens(input: &[u8]) -> impl Iterator<Item = Token<'_>> {
    lines(input).flat_map(|(_, t)| t)
}

/// The tokens of the input read one after another, whatever the layout: the judges'
/// reference solutions read whitespace-separated tokens, so a case may span lines or
/// share one.
pub struct Cursor<'a> {
    input: &'a [u8],
    tokens: std::iter::Peekable<Box<dyn Iterator<Item = Token<'a>> + 'a>>,
}

impl<'a> Cursor<'a> {
    pub fn new(input: &'a [u8]) -> Cursor<'a> {
        let all: Box<dyn Iterator<Item = Token<'a>> + 'a> = Box::new(tokens(input));
        Cursor {
            input,
            tokens: all.peekable(),
        }
    }

    /// The next token, if the input has one.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.tokens.next()
    }

    /// The next token without taking it.
    pub fn peek(&mut self) -> Option<Token<'a>> {
        self.tokens.peek().copied()
    }

    /// The next token, or an error at the end of the input saying what was expected.
    pub fn expect(&mut self, missing: impl FnOnce() -> String) -> Result<Token<'a>, ParseError> {
        match self.next_token() {
            Some(token) => Ok(token),
            None => Err(self.at_end(missing())),
        }
    }

    /// An error placed just after the last byte of the input.
    pub fn at_end(&self, message: impl Into<String>) -> ParseError {
        let (line, col) = end_of_input(self.input);
        ParseError::at(line, col, message)
    }
}

/// Where the input ends, for "cut short" errors: just after the last byte.
pub fn end_of_input(input: &[u8]) -> (usize, usize) {
    let (count, last) = raw_lines(input).fold((0, &input[..0]), |(n, _), l| (n + 1, l));
    (count, last.len() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_know_their_place() {
        let input = b"AS  9S\r\n\n \tKD\xff\n";
        let all: Vec<(usize, usize, &[u8])> =
            tokens(input).map(|t| (t.line, t.col, t.bytes)).collect();
        assert_eq!(
            all,
            vec![
                (1, 1, &b"AS"[..]),
                (1, 5, &b"9S"[..]),
                (3, 3, &b"KD\xff"[..]),
            ]
        );
    }

    #[test]
    fn lines_end_at_lf_crlf_or_a_lone_cr() {
        let all: Vec<(usize, usize, &[u8])> = tokens(b"a\rb\r\nc\n\x0bd\x0ce")
            .map(|t| (t.line, t.col, t.bytes))
            .collect();
        assert_eq!(
            all,
            vec![
                (1, 1, &b"a"[..]),
                (2, 1, b"b"),
                (3, 1, b"c"),
                (4, 2, b"d"),
                (4, 4, b"e"),
            ]
        );
        assert_eq!(end_of_input(b"a\rb"), (2, 2));
        assert_eq!(end_of_input(b"a\r\n"), (2, 1));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let all: Vec<(usize, usize)> = tokens(b"\xef\xbb\xbf9\n1 2\n")
            .map(|t| (t.line, t.col))
            .collect();
        assert_eq!(all, vec![(1, 4), (2, 1), (2, 3)]);
        assert_eq!(tokens(b"\xef\xbb\xbf9").next().unwrap().bytes, b"9");
    }

    #[test]
    fn a_cursor_reads_across_lines_and_reports_the_end() {
        let mut cursor = Cursor::new(b"1 2\r\n\t3");
        assert_eq!(cursor.peek().unwrap().bytes, b"1");
        let read: Vec<&[u8]> = std::iter::from_fn(|| cursor.next_token())
            .map(|t| t.bytes)
            .collect();
        assert_eq!(read, vec![&b"1"[..], b"2", b"3"]);
        let err = cursor.expect(|| "four".to_string()).unwrap_err();
        assert_eq!(err.to_string(), "2:3: four");
    }

    #[test]
    fn end_of_input_is_after_the_last_byte() {
        assert_eq!(end_of_input(b""), (1, 1));
        assert_eq!(end_of_input(b"ab"), (1, 3));
        assert_eq!(end_of_input(b"ab\n"), (2, 1));
        assert_eq!(end_of_input(b"ab\ncd"), (2, 3));
    }

    #[test]
    fn long_or_binary_tokens_are_shown_safely() {
        let t = Token {
            line: 1,
            col: 1,
            bytes: b"\x00\x01abcdefghijklmnopqrstuvwxyz",
        };
        let shown = t.shown();
        assert!(shown.starts_with("`\\0\\u{1}abc"), "{shown}");
        assert!(shown.ends_with("...`"), "{shown}");
    }
}
