//! The judge's input: `T`, then `T` lines `n K1 K2 K3 a b c`.
//!
//! Blank lines are skipped, but a case must stand on one line, so that a short line is
//! reported where it is instead of shifting every later number.

use super::rules::Game;
use crate::text::{end_of_input, lines, number, ParseError};

/// The numbers of one judge case line.
const CASE_FIELDS: usize = 7;

/// Reads every case of the input. Nothing is returned unless the whole input is valid.
pub fn parse_cases(input: &[u8]) -> Result<Vec<Game>, ParseError> {
    let mut rows = lines(input).filter(|(_, tokens)| !tokens.is_empty());
    let Some((_, first)) = rows.next() else {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            "the input is empty; expected the number of cases T",
        ));
    };
    let count = number(&first[0], "the number of cases T", u32::MAX as u64)? as usize;
    if let Some(extra) = first.get(1) {
        return Err(extra.error(format!(
            "{} after the number of cases; T stands alone on its line",
            extra.shown()
        )));
    }

    let mut games = Vec::with_capacity(count.min(1 << 16));
    for (line, tokens) in rows {
        if games.len() == count {
            return Err(tokens[0].error(format!(
                "the input announces {count} cases, but more follows"
            )));
        }
        if tokens.len() != CASE_FIELDS {
            let last = tokens.last().expect("blank lines are skipped");
            let col = if tokens.len() < CASE_FIELDS {
                last.col + last.bytes.len()
            } else {
                tokens[CASE_FIELDS].col
            };
            return Err(ParseError::at(
                line,
                col,
                format!(
                    "a case is `n K1 K2 K3 a b c` (7 numbers); line {line} has {}",
                    tokens.len()
                ),
            ));
        }
        let n = number(&tokens[0], "the limit n", u64::MAX - 1)?;
        let mut faces = [0u32; 3];
        for (i, face) in faces.iter_mut().enumerate() {
            *face = number(&tokens[1 + i], "a number of faces K", u64::from(u32::MAX))? as u32;
        }
        let mut reset = [0u32; 3];
        for (i, r) in reset.iter_mut().enumerate() {
            *r = number(&tokens[4 + i], "a reset face", u64::from(u32::MAX))? as u32;
        }
        let game = Game::new(faces.to_vec(), vec![reset.to_vec()], n).map_err(|e| {
            // Point at the number at fault: a die's K, or its reset face.
            let token = match e {
                super::rules::RuleError::Faces { die, .. } => &tokens[die],
                super::rules::RuleError::ResetFace { die, .. } => &tokens[3 + die],
                _ => &tokens[0],
            };
            token.error(e.to_string())
        })?;
        games.push(game);
    }
    if games.len() < count {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            format!(
                "the input ends after {} of the {count} announced cases",
                games.len()
            ),
        ));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sample() {
        let games = parse_cases(b"2\n0 2 2 2 1 1 1\n0 6 6 6 1 1 1\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].faces, vec![6, 6, 6]);
        assert_eq!(games[1].resets, vec![vec![1, 1, 1]]);
        assert_eq!(games[1].limit, 0);
    }

    fn error(text: &str) -> String {
        parse_cases(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error(""),
            "1:1: the input is empty; expected the number of cases T"
        );
        assert_eq!(
            error("2\n0 2 2 2 1 1 1\n"),
            "3:1: the input ends after 1 of the 2 announced cases"
        );
        assert_eq!(
            error("1\n0 2 2 2 1 1 1\n5 2 2 2 1 1 1\n"),
            "3:1: the input announces 1 cases, but more follows"
        );
        assert_eq!(
            error("1\n0 2 2 2 1 1\n"),
            "2:12: a case is `n K1 K2 K3 a b c` (7 numbers); line 2 has 6"
        );
        assert_eq!(
            error("1\n0 2 1 2 1 1 1\n"),
            "2:5: die 2 has 1 faces; a die has 2 to 100 faces"
        );
        assert_eq!(
            error("1\n0 2 2 2 1 3 1\n"),
            "2:11: reset combination 1 puts face 3 on die 2, which has faces 1 to 2"
        );
        assert_eq!(
            error("1\n-4 2 2 2 1 1 1\n"),
            "2:1: `-4` is not a whole number; expected the limit n"
        );
        assert_eq!(
            error("x\n"),
            "1:1: `x` is not a whole number; expected the number of cases T"
        );
        assert_eq!(
            error("1 2\n"),
            "1:3: `2` after the number of cases; T stands alone on its line"
        );
        assert!(error("1\n99999999999999999999 2 2 2 1 1 1\n").contains("too large"));
    }
}
