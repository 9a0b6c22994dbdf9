//! A Colored Jenga tower as the judge gives it: levels of three coloured blocks, bottom
//! first, the last level on top.

use std::fmt;

use crate::text::{end_of_input, number, tokens, ParseError};

/// Block colours, in the order of their die faces' weights below.
pub const COLOURS: [char; 3] = ['R', 'G', 'B'];
/// Die faces per colour out of six: one red, two green, two blue (and one black).
pub const WEIGHTS: [u64; 3] = [1, 2, 2];
/// Faces of the die.
pub const FACES: u64 = 6;
/// The most levels read: far above any tower the solver can finish (the positions of a
/// tower of ten levels already outgrow millions), so a taller input is surely a mistake.
/// Towers the solver cannot finish are stopped by its guards, not here.
pub const MAX_LEVELS: usize = 1000;

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
    let n = number(&first, "the number of levels n", MAX_LEVELS as u64)? as usize;
    if !(2..=MAX_LEVELS).contains(&n) {
        return Err(first.error(format!(
            "a tower has 2 to {MAX_LEVELS} levels, not {n} (alea reads towers up to \
             {MAX_LEVELS} levels, far more than any solver can finish)"
        )));
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
        assert!(error("1\nRGB\n").starts_with("1:1: a tower has 2 to 1000 levels, not 1"));
        assert_eq!(
            error("1001\n"),
            "1:1: `1001` is too large for the number of levels n (at most 1000)"
        );
        let tall = format!("40\n{}", "RGB\n".repeat(40));
        assert_eq!(parse_tower(tall.as_bytes()).unwrap().levels.len(), 40);
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
