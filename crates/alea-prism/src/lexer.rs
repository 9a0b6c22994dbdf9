//! Splits PRISM text into tokens.
//!
//! The whole text is read up front into a vector, so that the parser can look ahead a
//! few tokens at no cost. Each token records its byte span and whether a line break
//! came before it: property files end a property at a line break, and nothing else
//! needs to know about lines.
//!
//! Words that PRISM reserves for models (`module`, `init`, `true`, ...) are keywords
//! here. The operator letters of properties (`P`, `F`, `U`, ...) are not: they are
//! ordinary names to the lexer, and only the property parser gives them a meaning, so
//! that a model may still have a variable called `P`.

use crate::error::{Error, Result, Span};

/// The kind of a token. The text of names, numbers and labels is read from the source
/// through the token's span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name: a letter or `_`, then letters, digits and `_`.
    Ident,
    Kw(Kw),
    /// Digits only.
    Int,
    /// Digits with a fraction or an exponent: `0.5`, `.5`, `1e-3`.
    Real,
    /// A label in double quotes; the span includes the quotes.
    Str,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Semi,
    Colon,
    Comma,
    /// `..` in a range `[0..N]`.
    DotDot,
    Question,
    /// `'` after a variable name in an update.
    Prime,
    /// `->`
    Arrow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    /// `^`, power.
    Caret,
    /// `!`
    Not,
    /// `&`
    And,
    /// `|`
    Or,
    /// `=>`
    Implies,
    /// `<=>`
    Iff,
    /// After the last token; its span is empty, at the end of the text.
    Eof,
}

/// The reserved words: none of them can name a variable, constant, module or action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    Bool,
    Clock,
    Const,
    Ctmc,
    Double,
    Dtmc,
    Endinit,
    Endinvariant,
    Endmodule,
    Endobservables,
    Endrewards,
    Endsystem,
    False,
    Filter,
    Formula,
    Func,
    Global,
    Init,
    Int,
    Invariant,
    Label,
    Mdp,
    Module,
    Nondeterministic,
    Observable,
    Observables,
    Pomdp,
    Popta,
    Probabilistic,
    Pta,
    Rate,
    Rewards,
    Smg,
    Stochastic,
    System,
    True,
}

/// Every keyword with its spelling, for both directions of the mapping.
const KEYWORDS: &[(&str, Kw)] = &[
    ("bool", Kw::Bool),
    ("clock", Kw::Clock),
    ("const", Kw::Const),
    ("ctmc", Kw::Ctmc),
    ("double", Kw::Double),
    ("dtmc", Kw::Dtmc),
    ("endinit", Kw::Endinit),
    ("endinvariant", Kw::Endinvariant),
    ("endmodule", Kw::Endmodule),
    ("endobservables", Kw::Endobservables),
    ("endrewards", Kw::Endrewards),
    ("endsystem", Kw::Endsystem),
    ("false", Kw::False),
    ("filter", Kw::Filter),
    ("formula", Kw::Formula),
    ("func", Kw::Func),
    ("global", Kw::Global),
    ("init", Kw::Init),
    ("int", Kw::Int),
    ("invariant", Kw::Invariant),
    ("label", Kw::Label),
    ("mdp", Kw::Mdp),
    ("module", Kw::Module),
    ("nondeterministic", Kw::Nondeterministic),
    ("observable", Kw::Observable),
    ("observables", Kw::Observables),
    ("pomdp", Kw::Pomdp),
    ("popta", Kw::Popta),
    ("probabilistic", Kw::Probabilistic),
    ("pta", Kw::Pta),
    ("rate", Kw::Rate),
    ("rewards", Kw::Rewards),
    ("smg", Kw::Smg),
    ("stochastic", Kw::Stochastic),
    ("system", Kw::System),
    ("true", Kw::True),
];

impl Kw {
    /// The keyword spelled `word`, if it is one.
    pub fn from_word(word: &str) -> Option<Kw> {
        KEYWORDS.iter().find(|(w, _)| *w == word).map(|&(_, k)| k)
    }

    pub fn as_str(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |&(w, _)| w)
    }
}

/// One token: its kind, where it is, and whether a line break separates it from the
/// token before (or from the start of the text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub span: Span,
    pub line_start: bool,
}

/// Splits `text` into tokens, ending with one `Tok::Eof`. Comments (`// ...` to the end
/// of the line, and `/* ... */`) and white space of any kind separate tokens.
pub fn tokenize(text: &str) -> Result<Vec<Token>> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::with_capacity(text.len() / 3 + 1);
    let mut i = 0;
    // The first token of the text starts a line.
    let mut newline = true;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        // Multi-byte characters are only ever white space or an error, so the lexer
        // works on bytes and decodes a character only when it meets a non-ASCII one.
        if b >= 0x80 {
            let c = text[i..].chars().next().unwrap_or('\u{fffd}');
            // A byte order mark, which some editors put at the start, is white space.
            if c.is_whitespace() || c == '\u{feff}' {
                newline |= matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}');
                i += c.len_utf8();
                continue;
            }
            return Err(Error::new(
                Span::new(i, i + c.len_utf8()),
                format!("unexpected character `{c}` (U+{:04X})", c as u32),
            ));
        }
        match b {
            b'\n' | b'\r' => {
                newline = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                // The line break that ends the comment is left for the loop to see.
                i = memchr_newline(bytes, i);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let body = &text[i + 2..];
                match body.find("*/") {
                    Some(end) => {
                        newline |= body[..end].contains(['\n', '\r']);
                        i += 2 + end + 2;
                        continue;
                    }
                    None => {
                        return Err(Error::new(
                            Span::new(i, i + 2),
                            "unterminated comment: `/*` has no closing `*/`",
                        ))
                    }
                }
            }
            _ => {}
        }
        let kind = match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                i += 1;
                while i < bytes.len() && is_ident_byte(bytes[i]) {
                    i += 1;
                }
                Kw::from_word(&text[start..i]).map_or(Tok::Ident, Tok::Kw)
            }
            b'0'..=b'9' => {
                let (end, kind) = number(text, start)?;
                i = end;
                kind
            }
            b'.' if bytes.get(i + 1) == Some(&b'.') => {
                i += 2;
                Tok::DotDot
            }
            b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let (end, kind) = number(text, start)?;
                i = end;
                kind
            }
            b'"' => {
                // A label name runs to the closing quote on the same line.
                let rest = &bytes[i + 1..];
                match rest.iter().position(|&c| matches!(c, b'"' | b'\n' | b'\r')) {
                    Some(n) if rest[n] == b'"' => {
                        i += n + 2;
                        Tok::Str
                    }
                    n => {
                        let end = n.map_or(bytes.len(), |n| i + 1 + n);
                        return Err(Error::new(
                            Span::new(i, end),
                            "unterminated label: the `\"` has no closing `\"` on its line",
                        ));
                    }
                }
            }
            _ => {
                let next = bytes.get(i + 1).copied();
                let next2 = bytes.get(i + 2).copied();
                let (kind, len) = match (b, next, next2) {
                    (b'<', Some(b'='), Some(b'>')) => (Tok::Iff, 3),
                    (b'<', Some(b'='), _) => (Tok::Le, 2),
                    (b'<', _, _) => (Tok::Lt, 1),
                    (b'>', Some(b'='), _) => (Tok::Ge, 2),
                    (b'>', _, _) => (Tok::Gt, 1),
                    (b'=', Some(b'>'), _) => (Tok::Implies, 2),
                    (b'=', _, _) => (Tok::Eq, 1),
                    (b'!', Some(b'='), _) => (Tok::Ne, 2),
                    (b'!', _, _) => (Tok::Not, 1),
                    (b'-', Some(b'>'), _) => (Tok::Arrow, 2),
                    (b'-', _, _) => (Tok::Minus, 1),
                    (b'(', _, _) => (Tok::LParen, 1),
                    (b')', _, _) => (Tok::RParen, 1),
                    (b'[', _, _) => (Tok::LBracket, 1),
                    (b']', _, _) => (Tok::RBracket, 1),
                    (b'{', _, _) => (Tok::LBrace, 1),
                    (b'}', _, _) => (Tok::RBrace, 1),
                    (b';', _, _) => (Tok::Semi, 1),
                    (b':', _, _) => (Tok::Colon, 1),
                    (b',', _, _) => (Tok::Comma, 1),
                    (b'?', _, _) => (Tok::Question, 1),
                    (b'\'', _, _) => (Tok::Prime, 1),
                    (b'+', _, _) => (Tok::Plus, 1),
                    (b'*', _, _) => (Tok::Star, 1),
                    (b'/', _, _) => (Tok::Slash, 1),
                    (b'^', _, _) => (Tok::Caret, 1),
                    (b'&', _, _) => (Tok::And, 1),
                    (b'|', _, _) => (Tok::Or, 1),
                    _ => return Err(unexpected_char(text, i)),
                };
                i += len;
                kind
            }
        };
        tokens.push(Token {
            kind,
            span: Span::new(start, i),
            line_start: newline,
        });
        newline = false;
    }
    tokens.push(Token {
        kind: Tok::Eof,
        span: Span::new(text.len(), text.len()),
        line_start: true,
    });
    Ok(tokens)
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The index of the next line break at or after `from`, or the end of the text.
fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .map_or(bytes.len(), |n| from + n)
}

/// Reads the number starting at `start`: digits, then an optional fraction (`.` and
/// digits), then an optional exponent (`e` or `E`, an optional sign, digits). A number
/// may also start at its `.` (`.5`), as PRISM allows; it may not end in one (`1.`).
/// `0..N` is the integer `0` and then `..`.
fn number(text: &str, start: usize) -> Result<(usize, Tok)> {
    let bytes = text.as_bytes();
    let digits = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = digits(start);
    let mut kind = Tok::Int;
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1) != Some(&b'.') {
        if !bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            return Err(Error::new(
                Span::new(start, i + 1),
                format!(
                    "malformed number `{}`: a `.` must be followed by digits (write `{}0`)",
                    &text[start..i + 1],
                    &text[start..i + 1]
                ),
            ));
        }
        i = digits(i + 1);
        kind = Tok::Real;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if bytes.get(j).is_some_and(u8::is_ascii_digit) {
            i = digits(j);
            kind = Tok::Real;
        }
    }
    // A name may not start with a digit, and PRISM has no suffixes on numbers: `3x` or
    // `1e` is a mistake better reported here than as two tokens in a row.
    if bytes.get(i).is_some_and(|&b| is_ident_byte(b) || b == b'.') {
        let mut end = i;
        while end < bytes.len() && (is_ident_byte(bytes[end]) || bytes[end] == b'.') {
            end += 1;
        }
        // `1.5..3` is still a number and then `..`.
        if !(bytes[i] == b'.' && bytes.get(i + 1) == Some(&b'.')) {
            return Err(Error::new(
                Span::new(start, end),
                format!(
                    "malformed number `{}`: names cannot start with a digit",
                    &text[start..end]
                ),
            ));
        }
    }
    Ok((i, kind))
}

fn unexpected_char(text: &str, i: usize) -> Error {
    let c = text[i..].chars().next().unwrap_or('\u{fffd}');
    let message = match c {
        '#' => "unexpected character `#`: preprocessor directives are not supported".into(),
        '.' => "unexpected character `.` (a number needs a digit before or after its `.`, a range is written `[lo..hi]`)".into(),
        c if c.is_control() => format!("unexpected control character U+{:04X}", c as u32),
        c => format!("unexpected character `{c}`"),
    };
    Error::new(Span::new(i, i + c.len_utf8()), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokenize(text).unwrap().iter().map(|t| t.kind).collect()
    }

    fn texts(text: &str) -> Vec<&str> {
        tokenize(text)
            .unwrap()
            .iter()
            .map(|t| &text[t.span.start..t.span.end])
            .collect()
    }

    #[test]
    fn operators_take_the_longest_match() {
        use Tok::*;
        assert_eq!(
            kinds("<=> <= < => = != ! -> - >= >"),
            vec![Iff, Le, Lt, Implies, Eq, Ne, Not, Arrow, Minus, Ge, Gt, Eof]
        );
        assert_eq!(
            kinds("x'=x+1"),
            vec![Ident, Prime, Eq, Ident, Plus, Int, Eof]
        );
        assert_eq!(kinds("P=?"), vec![Ident, Eq, Question, Eof]);
    }

    #[test]
    fn numbers_and_ranges() {
        use Tok::*;
        assert_eq!(
            kinds("[0..N]"),
            vec![LBracket, Int, DotDot, Ident, RBracket, Eof]
        );
        assert_eq!(
            texts("0.5 1e-3 .5 2E+10 7"),
            vec!["0.5", "1e-3", ".5", "2E+10", "7", ""]
        );
        assert_eq!(
            kinds("0.5 1e-3 .5 2E+10 7"),
            vec![Real, Real, Real, Real, Int, Eof]
        );
        assert_eq!(kinds("1.5..3"), vec![Real, DotDot, Int, Eof]);
        let e = tokenize("x = 1.;").unwrap_err();
        assert!(e.message.contains("malformed number `1.`"), "{}", e.message);
        let e = tokenize("3x").unwrap_err();
        assert_eq!(e.span, Span::new(0, 2));
        assert!(tokenize("1e").is_err());
        assert!(tokenize("1e+").is_err());
    }

    #[test]
    fn keywords_and_names() {
        assert_eq!(
            kinds("module M endmodule Pmin F _x1"),
            vec![
                Tok::Kw(Kw::Module),
                Tok::Ident,
                Tok::Kw(Kw::Endmodule),
                Tok::Ident,
                Tok::Ident,
                Tok::Ident,
                Tok::Eof
            ]
        );
        for &(word, kw) in KEYWORDS {
            assert_eq!(kw.as_str(), word);
        }
    }

    #[test]
    fn comments_labels_and_line_starts() {
        let toks = tokenize("a // b \"c\n /* d\n */ \"goal\" e /* f */ g").unwrap();
        let starts: Vec<bool> = toks.iter().map(|t| t.line_start).collect();
        assert_eq!(toks.len(), 5);
        assert_eq!(toks[1].kind, Tok::Str);
        assert_eq!(starts, vec![true, true, false, false, true]);
    }

    #[test]
    fn lexical_errors_point_at_the_character() {
        let e = tokenize("x = 1 @ 2").unwrap_err();
        assert_eq!(
            (e.span, e.message.as_str()),
            (Span::new(6, 7), "unexpected character `@`")
        );
        let e = tokenize("a\n\"open").unwrap_err();
        assert_eq!(e.line_col("a\n\"open"), (2, 1));
        assert!(e.message.contains("unterminated label"));
        assert!(tokenize("/* x")
            .unwrap_err()
            .message
            .contains("unterminated comment"));
        let e = tokenize("x = é").unwrap_err();
        assert_eq!(e.span, Span::new(4, 6));
        assert!(tokenize("a\u{0}")
            .unwrap_err()
            .message
            .contains("control character"));
        // Unicode white space separates tokens like any other.
        assert_eq!(kinds("a\u{a0}b\u{2028}c").len(), 4);
        assert_eq!(kinds("\u{feff}dtmc"), vec![Tok::Kw(Kw::Dtmc), Tok::Eof]);
    }
}
