//! A Colored Jenga tower as the judge gives it: levels of three coloured blocks, bottom
//! first, the last level on top.

use std::fmt;

use crate::text::{end_of_input, tokens, ParseError};

/// Block colours, in the order of their die faces' weights below.
pub const COLOURS: [char; 3] = ['R', 'G', 'B'];
/// Die faces per colour out of six: one red, two green, two blue (and one black).
pub const WEIGHTS: [u64; 3] = [1, 2, 2];
/// Faces of the die.
pub const FACES: u64 = 6;
/// The most levels a tower may have: the state encoding holds counts up to 31, and a
/// tower of n levels never has more than n full levels or 3n/2 two-block levels.
pub const MAX_LEVELS: usize = 20;

/// Slot names, left to right.
pub const SLOTS: [&str; 3] = ["left", "middle", "right"];

/// A tower: `levels[0]` is the bottom, the last level is the top; colours 0 (R), 1 (G),
/// 2 (B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tower {
    pub levels: Vec<[u8; 3]>,
}

impl fmt::Display for Tower {
    /// The judge format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.levels.len())?;
        for level in &self.levels {
            for &c in level {
                write!(f, "{}", COLOURS[usize::from(c)])?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Reads `n` and then `n` levels of three letters from `R G B`, bottom to top.
pub fn parse_tower(input: &[u8]) -> Result<Tower, ParseError> {
    let mut tokens = tokens(input);
    let Some(first) = tokens.next() else {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            "the input is empty; expected the number of levels n",
        ));
    };
    let n = std::str::from_utf8(first.bytes)
        .ok()
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<usize>().ok())
        .ok_or_else(|| {
            first.error(format!(
                "{} is not a whole number; expected the number of levels n",
                first.shown()
            ))
        })?;
    if !(2..=MAX_LEVELS).contains(&n) {
        return Err(first.error(format!("a tower has 2 to {MAX_LEVELS} levels, not {n}")));
    }
    let mut levels = Vec::with_capacity(n);
    for token in tokens.by_ref() {
        if levels.len() == n {
            return Err(token.error(format!(
                "the tower has {n} levels, but more follows: {}",
                token.shown()
            )));
        }
        if token.bytes.len() != 3 {
            return Err(token.error(format!(
                "{} is not a level; a level is three letters from R, G, B, like RGB",
                token.shown()
            )));
        }
        let mut level = [0u8; 3];
        for (i, &b) in token.bytes.iter().enumerate() {
            level[i] = match b.to_ascii_uppercase() {
                b'R' => 0,
                b'G' => 1,
                b'B' => 2,
                _ => {
                    return Err(crate::text::ParseError::at(
                        token.line,
                        token.col + i,
                        format!(
                            "`{}` is not a colour; a block is R, G or B",
                            String::from_utf8_lossy(&[b]).escape_debug()
                        ),
                    ))
                }
            };
        }
        levels.push(level);
    }
    if levels.len() < n {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            format!(
                "the input ends after {} of the {n} announced levels",
                levels.len()
            ),
        ));
    }
    Ok(Tower { levels })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sample_and_writes_it_back() {
        let text = "6\nRGB\nGRG\nBBB\nGGR\nBRG\nBRB\n";
        let tower = parse_tower(text.as_bytes()).unwrap();
        assert_eq!(tower.levels.len(), 6);
        assert_eq!(tower.levels[5], [2, 0, 2]);
        assert_eq!(tower.to_string(), text);
    }

    fn error(text: &str) -> String {
        parse_tower(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error("2\nRGB\nRXB\n"),
            "3:2: `X` is not a colour; a block is R, G or B"
        );
        assert_eq!(
            error("2\nRGB\nRG\n"),
            "3:1: `RG` is not a level; a level is three letters from R, G, B, like RGB"
        );
        assert_eq!(
            error("3\nRGB\nRGB\n"),
            "4:1: the input ends after 2 of the 3 announced levels"
        );
        assert_eq!(
            error("2\nRGB\nRGB\nRGB\n"),
            "4:1: the tower has 2 levels, but more follows: `RGB`"
        );
        assert_eq!(error("1\nRGB\n"), "1:1: a tower has 2 to 20 levels, not 1");
        assert_eq!(
            error(""),
            "1:1: the input is empty; expected the number of levels n"
        );
        assert_eq!(
            error("x"),
            "1:1: `x` is not a whole number; expected the number of levels n"
        );
    }
}
