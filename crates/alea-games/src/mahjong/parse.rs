//! The judge's input: `n`, then 13 lines `w t`, copy `t` (1 to 4) of rank `w` (1 to n).
//!
//! One tile per line, so that a short line is reported where it is. Blank lines are
//! skipped.

use super::count::HAND;
use super::recogniser::COPIES;
use crate::text::{end_of_input, lines, number, ParseError};

/// The fewest ranks of a game.
pub const MIN_RANKS: usize = 5;
/// The most ranks `alea` accepts (the judge stops at 100). Time grows as the square of
/// `n` and memory linearly: 1000 ranks take under a second modulo the prime, about a
/// minute exactly.
pub const MAX_RANKS: usize = 1000;

/// A starting hand: how many tiles of each rank it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// `counts[r]` tiles of rank `r + 1`, for the `n` ranks.
    pub counts: Vec<u8>,
}

impl Hand {
    /// The number of ranks.
    pub fn ranks(&self) -> usize {
        self.counts.len()
    }

    /// The tiles left in the wall.
    pub fn wall(&self) -> usize {
        COPIES * self.ranks() - HAND
    }
}

/// Reads one hand. Nothing is returned unless the whole input is valid.
pub fn parse_hand(input: &[u8]) -> Result<Hand, ParseError> {
    let mut rows = lines(input).filter(|(_, tokens)| !tokens.is_empty());
    let Some((_, first)) = rows.next() else {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            "the input is empty; expected the number of ranks n",
        ));
    };
    let n = number(&first[0], "the number of ranks n", MAX_RANKS as u64)? as usize;
    if n < MIN_RANKS {
        return Err(first[0].error(format!(
            "n = {n} is too small; expected {MIN_RANKS} to {MAX_RANKS} ranks"
        )));
    }
    if let Some(extra) = first.get(1) {
        return Err(extra.error(format!(
            "{} after n; n stands alone on its line",
            extra.shown()
        )));
    }
    let mut counts = vec![0u8; n];
    // Where each tile (rank, copy) was listed, to report a tile listed twice.
    let mut seen: Vec<[Option<usize>; COPIES]> = vec![[None; COPIES]; n];
    let mut tiles = 0;
    for (line, tokens) in rows {
        if tiles == HAND {
            return Err(tokens[0].error(format!("a hand is {HAND} tiles, but more follows")));
        }
        if tokens.len() != 2 {
            let col = match tokens.get(2) {
                Some(t) => t.col,
                None => tokens[0].col + tokens[0].bytes.len(),
            };
            return Err(ParseError::at(
                line,
                col,
                format!(
                    "a tile is `w t` (rank, then copy 1 to 4) on its own line; line {line} has {} value{}",
                    tokens.len(),
                    if tokens.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let rank = number(&tokens[0], &format!("a rank from 1 to n = {n}"), n as u64)?;
        if rank == 0 || rank > n as u64 {
            return Err(tokens[0].error(format!("rank {rank} is outside 1 to n = {n}")));
        }
        let copy = number(&tokens[1], "a copy number from 1 to 4", COPIES as u64)?;
        if copy == 0 || copy > COPIES as u64 {
            return Err(tokens[1].error(format!("copy {copy} is outside 1 to {COPIES}")));
        }
        let (r, c) = (rank as usize - 1, copy as usize - 1);
        if let Some(earlier) = seen[r][c] {
            return Err(tokens[0].error(format!(
                "tile `{rank} {copy}` is listed twice (first on line {earlier})"
            )));
        }
        seen[r][c] = Some(line);
        counts[r] += 1;
        tiles += 1;
    }
    if tiles < HAND {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            format!("the input ends after {tiles} of the {HAND} tiles of the hand"),
        ));
    }
    Ok(Hand { counts })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "9\n1 1\n1 2\n1 3\n2 1\n3 1\n4 1\n5 1\n6 1\n7 1\n8 1\n9 1\n9 2\n9 3\n";

    #[test]
    fn reads_the_sample() {
        let hand = parse_hand(SAMPLE.as_bytes()).unwrap();
        assert_eq!(hand.counts, vec![3, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(hand.wall(), 23);
    }

    fn error(text: &str) -> String {
        parse_hand(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error(""),
            "1:1: the input is empty; expected the number of ranks n"
        );
        assert_eq!(
            error("4\n"),
            "1:1: n = 4 is too small; expected 5 to 1000 ranks"
        );
        assert_eq!(
            error("1001\n"),
            "1:1: `1001` is too large for the number of ranks n (at most 1000)"
        );
        assert_eq!(
            error("9 1\n"),
            "1:3: `1` after n; n stands alone on its line"
        );
        let bad_rank = SAMPLE.replace("5 1\n", "10 1\n");
        assert_eq!(
            error(&bad_rank),
            "8:1: `10` is too large for a rank from 1 to n = 9 (at most 9)"
        );
        let bad_copy = SAMPLE.replace("5 1\n", "5 5\n");
        assert_eq!(
            error(&bad_copy),
            "8:3: `5` is too large for a copy number from 1 to 4 (at most 4)"
        );
        let twice = SAMPLE.replace("5 1\n", "1 2\n");
        assert_eq!(
            error(&twice),
            "8:1: tile `1 2` is listed twice (first on line 3)"
        );
        let short = SAMPLE.replace("5 1\n", "5\n");
        assert_eq!(
            error(&short),
            "8:2: a tile is `w t` (rank, then copy 1 to 4) on its own line; line 8 has 1 value"
        );
        let long = SAMPLE.replace("5 1\n", "5 1 1\n");
        assert!(error(&long).starts_with("8:5: a tile is `w t`"));
        assert_eq!(
            error(&SAMPLE[..SAMPLE.len() - 4]),
            "14:1: the input ends after 12 of the 13 tiles of the hand"
        );
        assert_eq!(
            error(&format!("{SAMPLE}1 4\n")),
            "15:1: a hand is 13 tiles, but more follows"
        );
        assert!(error("9\nx 1\n").starts_with("2:1: `x` is not a whole number"));
        assert_eq!(
            error("9\n99999999999999999999999 1\n"),
            "2:1: `99999999999999999999999` is too large for a rank from 1 to n = 9 (at most 9)"
        );
        assert_eq!(
            error("9\n1 7\n"),
            "2:3: `7` is too large for a copy number from 1 to 4 (at most 4)"
        );
    }
}
