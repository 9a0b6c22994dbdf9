//! The judge's input: `T`, then `T` cases `n K1 K2 K3 a b c`, as whitespace-separated
//! tokens in any layout (a case may span lines or share one), as the judge reads them.

use super::rules::{Game, RuleError};
use crate::text::{number, Cursor, ParseError, Token};

/// The numbers of one judge case.
const CASE_FIELDS: usize = 7;
/// What a case is, for errors.
const CASE: &str = "`n K1 K2 K3 a b c`";

/// Reads every case of the input. Nothing is returned unless the whole input is valid.
pub fn parse_cases(input: &[u8]) -> Result<Vec<Game>, ParseError> {
    let mut cursor = Cursor::new(input);
    let first = cursor.expect(|| "the input is empty; expected the number of cases T".into())?;
    let count = number(&first, "the number of cases T", u64::from(u32::MAX))? as usize;

    let mut games = Vec::with_capacity(count.min(1 << 16));
    while games.len() < count {
        let case = games.len() + 1;
        let mut tokens: Vec<Token<'_>> = Vec::with_capacity(CASE_FIELDS);
        for _ in 0..CASE_FIELDS {
            let read = tokens.len();
            tokens.push(cursor.expect(|| {
                format!(
                    "the input ends inside case {case} of the {count} announced: a case is \
                     {CASE}, 7 numbers, and it has {read}"
                )
            })?);
        }
        games.push(case_of(&tokens)?);
    }
    if let Some(extra) = cursor.next_token() {
        return Err(extra.error(format!(
            "the input announces {count} case{}, but more follows: {}",
            if count == 1 { "" } else { "s" },
            extra.shown()
        )));
    }
    Ok(games)
}

/// One case from its seven tokens.
fn case_of(tokens: &[Token<'_>]) -> Result<Game, ParseError> {
    let n = number(&tokens[0], "the limit n", u64::MAX - 1)?;
    let mut faces = [0u32; 3];
    for (i, face) in faces.iter_mut().enumerate() {
        *face = number(&tokens[1 + i], "a number of faces K", u64::from(u32::MAX))? as u32;
    }
    let mut reset = [0u32; 3];
    for (i, r) in reset.iter_mut().enumerate() {
        *r = number(&tokens[4 + i], "a reset face", u64::from(u32::MAX))? as u32;
    }
    Game::new(faces.to_vec(), vec![reset.to_vec()], n).map_err(|e| {
        // Point at the number at fault: a die's K, or its reset face.
        let token = match e {
            RuleError::Faces { die, .. } => &tokens[die],
            RuleError::ResetFace { die, .. } => &tokens[3 + die],
            _ => &tokens[0],
        };
        token.error(e.to_string())
    })
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

    #[test]
    fn any_layout_reads_the_same() {
        let sample = parse_cases(b"2\n0 2 2 2 1 1 1\n0 6 6 6 1 1 1\n").unwrap();
        for layout in [
            &b"2 0 2 2 2 1 1 1 0 6 6 6 1 1 1"[..],
            b"2\n0 2 2\n2 1 1 1 0\n6 6 6 1\n1 1",
            b"\r\n\t2\r\n\r\n0\t2 2 2   1 1 1\r\n0 6 6 6 1 1 1\r\n\n",
        ] {
            assert_eq!(parse_cases(layout).unwrap(), sample);
        }
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
            "3:1: the input ends inside case 2 of the 2 announced: a case is \
             `n K1 K2 K3 a b c`, 7 numbers, and it has 0"
        );
        assert_eq!(
            error("1\n0 2 2 2 1 1 1\n5 2 2 2 1 1 1\n"),
            "3:1: the input announces 1 case, but more follows: `5`"
        );
        assert_eq!(
            error("1\n0 2 2 2 1 1\n"),
            "3:1: the input ends inside case 1 of the 1 announced: a case is \
             `n K1 K2 K3 a b c`, 7 numbers, and it has 6"
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
        assert!(error("1\n99999999999999999999 2 2 2 1 1 1\n").contains("too large"));
    }
}
