//! The board file: the number of squares N, then any number of `ladder FROM TO` and
//! `snake FROM TO` entries, as whitespace-separated tokens in any layout. `#` starts a
//! comment that runs to the end of its line.

use super::rules::{Board, BoardError, End, Link, Piece, MAX_SQUARES, MIN_SQUARES};
use crate::text::{number, Cursor, ParseError, Token};

/// What the file holds, for errors.
const FORMAT: &str = "the number of squares N, then `ladder FROM TO` and `snake FROM TO` entries";

/// Reads and checks a board. Errors point at the word at fault.
pub fn parse_board(input: &[u8]) -> Result<Board, ParseError> {
    let text = without_comments(input);
    let mut cursor = Cursor::new(&text);
    let first = cursor.expect(|| format!("the board is empty; expected {FORMAT}"))?;
    let squares = number(&first, "the number of squares N", u64::from(MAX_SQUARES))?;
    if squares < u64::from(MIN_SQUARES) {
        return Err(first.error(BoardError::Squares(squares).to_string()));
    }
    let n = squares as u32;
    let mut links: Vec<Link> = Vec::new();
    // Each entry's three words, for errors found once the whole board is read.
    let mut words: Vec<[Token<'_>; 3]> = Vec::new();
    while let Some(word) = cursor.next_token() {
        let piece = match word.bytes {
            b"ladder" => Piece::Ladder,
            b"snake" => Piece::Snake,
            _ => {
                return Err(word.error(format!(
                    "{} is neither `ladder` nor `snake`; expected `ladder FROM TO` or \
                     `snake FROM TO`{}",
                    word.shown(),
                    if links.is_empty() {
                        format!(" after the number of squares {n}")
                    } else {
                        String::new()
                    }
                )))
            }
        };
        let from_word = cursor.expect(|| {
            format!(
                "the input ends inside `{piece}`; expected FROM, the square the {piece} starts on"
            )
        })?;
        let from = square(&from_word, piece, End::From, n)?;
        let to_word = cursor.expect(|| {
            format!(
                "the input ends inside `{piece} {from}`; expected TO, the square the {piece} \
                 ends on"
            )
        })?;
        let to = square(&to_word, piece, End::To, n)?;
        links.push(Link { piece, from, to });
        words.push([word, from_word, to_word]);
    }
    Board::new(squares, links).map_err(|e| {
        let Some((link, part)) = e.blame() else {
            return first.error(e.to_string());
        };
        let [word, from, to] = words[link];
        let at = match part {
            None => word,
            Some(End::From) => from,
            Some(End::To) => to,
        };
        match e.other() {
            Some((other, link)) => {
                let o = words[other][0];
                at.error(format!("{e} (`{link}` is at {}:{})", o.line, o.col))
            }
            None => at.error(e.to_string()),
        }
    })
}

/// Where the number of squares is (or where the input ends, when it is empty): a
/// problem of the board as a whole, like a last square that cannot be reached, is
/// reported there.
pub fn squares_position(input: &[u8]) -> (usize, usize) {
    let text = without_comments(input);
    let mut cursor = Cursor::new(&text);
    match cursor.next_token() {
        Some(t) => (t.line, t.col),
        None => crate::text::end_of_input(input),
    }
}

/// One end of a link: a square from 1 to `n`.
fn square(token: &Token<'_>, piece: Piece, end: End, n: u32) -> Result<u32, ParseError> {
    let what = match end {
        End::From => format!("FROM, the square the {piece} starts on"),
        End::To => format!("TO, the square the {piece} ends on"),
    };
    if token.bytes.is_empty() || !token.bytes.iter().all(u8::is_ascii_digit) {
        return Err(token.error(format!(
            "{} is not a whole number; expected {what}",
            token.shown()
        )));
    }
    let value = std::str::from_utf8(token.bytes)
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .filter(|&v| v >= 1 && v <= u64::from(n));
    match value {
        Some(v) => Ok(v as u32),
        None => Err(token.error(format!(
            "{} is not a square of the board; expected {what}, from 1 to {n}",
            token.shown()
        ))),
    }
}

/// The input with every comment blanked out: bytes from `#` to the end of the line (LF
/// or CR) become spaces, so every other word keeps its line and column.
fn without_comments(input: &[u8]) -> Vec<u8> {
    let mut text = input.to_vec();
    let mut in_comment = false;
    for b in text.iter_mut() {
        if *b == b'\n' || *b == b'\r' {
            in_comment = false;
        } else if *b == b'#' || in_comment {
            in_comment = true;
            *b = b' ';
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "10\nladder 2 7\nsnake 9 4\n";

    #[test]
    fn reads_a_board_in_any_layout() {
        let board = parse_board(SMALL.as_bytes()).unwrap();
        assert_eq!(board.squares(), 10);
        assert_eq!(board.after_landing(2), 7);
        assert_eq!(board.after_landing(9), 4);
        for layout in [
            "10 ladder 2 7 snake 9 4",
            "\u{feff}10\r\nladder\r\n2\t7\r\n\r\nsnake 9\n 4",
            "# a small board\n10 # squares\nladder 2 7#up\n  # nothing\nsnake 9 4 #down",
        ] {
            assert_eq!(parse_board(layout.as_bytes()).unwrap(), board, "{layout:?}");
        }
    }

    fn error(text: &str) -> String {
        parse_board(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error(""),
            "1:1: the board is empty; expected the number of squares N, then \
             `ladder FROM TO` and `snake FROM TO` entries"
        );
        assert_eq!(
            error("# only a comment\n"),
            "2:1: the board is empty; expected the number of squares N, then \
             `ladder FROM TO` and `snake FROM TO` entries"
        );
        assert_eq!(
            error("1\n"),
            "1:1: a board of 1 square; a board has 2 to 10000 squares"
        );
        assert_eq!(
            error("10001\n"),
            "1:1: `10001` is too large for the number of squares N (at most 10000)"
        );
        assert_eq!(
            error("10\nladders 2 7\n"),
            "2:1: `ladders` is neither `ladder` nor `snake`; expected `ladder FROM TO` or \
             `snake FROM TO` after the number of squares 10"
        );
        assert_eq!(
            error("10\nladder 2 7 8\n"),
            "2:12: `8` is neither `ladder` nor `snake`; expected `ladder FROM TO` or \
             `snake FROM TO`"
        );
        assert_eq!(
            error("10\nladder 2"),
            "2:9: the input ends inside `ladder 2`; expected TO, the square the ladder ends on"
        );
        assert_eq!(
            error("10\nsnake\n"),
            "3:1: the input ends inside `snake`; expected FROM, the square the snake starts on"
        );
        assert_eq!(
            error("10\nladder 0 7\n"),
            "2:8: `0` is not a square of the board; expected FROM, the square the ladder \
             starts on, from 1 to 10"
        );
        assert_eq!(
            error("10\nsnake 9 99999999999999999999999\n"),
            "2:9: `99999999999999999999999` is not a square of the board; expected TO, the \
             square the snake ends on, from 1 to 10"
        );
        assert_eq!(
            error("10\nsnake 9 -4\n"),
            "2:9: `-4` is not a whole number; expected TO, the square the snake ends on"
        );
        assert_eq!(
            error("10\n  ladder 7 2\n"),
            "2:3: `ladder 7 2` goes down; a ladder goes up, FROM below TO"
        );
        assert_eq!(
            error("10\nsnake 5 5\n"),
            "2:1: `snake 5 5` goes nowhere; a snake goes down, FROM above TO"
        );
        assert_eq!(
            error("10\nsnake 10 5\n"),
            "2:7: `snake 10 5` starts on the last square, where the game is over; a snake \
             starts below the last square"
        );
        assert_eq!(
            error("10\nsnake 6 1\nladder 2 3 ladder 6 9\n"),
            "3:19: `ladder 6 9` starts on square 6, where `snake 6 1` starts already; a \
             square starts at most one snake or ladder (`snake 6 1` is at 2:1)"
        );
        assert_eq!(
            error("10\nladder 2 6\nsnake 6 1\n"),
            "2:10: `ladder 2 6` ends on square 6, where `snake 6 1` starts; chains are not \
             allowed: let it end where the chain ends (`snake 6 1` is at 3:1)"
        );
    }
}
