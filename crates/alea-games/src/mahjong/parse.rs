//! The judge's input: `n`, then 13 tiles `w t`, copy `t` (1 to 4) of rank `w` (1 to n),
//! as whitespace-separated tokens in any layout (the sample puts a tile on a line, but
//! the judge reads 27 numbers one after another).

use super::count::HAND;
use super::recogniser::COPIES;
use crate::text::{number, Cursor, ParseError};

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
    let mut cursor = Cursor::new(input);
    let first = cursor.expect(|| "the input is empty; expected the number of ranks n".into())?;
    let n = number(&first, "the number of ranks n", MAX_RANKS as u64)? as usize;
    if n < MIN_RANKS {
        return Err(first.error(format!(
            "n = {n} is too small; expected {MIN_RANKS} to {MAX_RANKS} ranks"
        )));
    }
    let mut counts = vec![0u8; n];
    // Where each tile (rank, copy) was listed, to report a tile listed twice.
    let mut seen: Vec<[Option<(usize, usize)>; COPIES]> = vec![[None; COPIES]; n];
    for tile in 0..HAND {
        let cut_short = |numbers: usize| {
            move || {
                format!(
                    "the input ends inside the hand: it needs {HAND} tiles `w t` ({} \
                     numbers after n), the input ends after {numbers}",
                    2 * HAND
                )
            }
        };
        let rank_token = cursor.expect(cut_short(2 * tile))?;
        let rank = number(&rank_token, &format!("a rank from 1 to n = {n}"), n as u64)?;
        if rank == 0 {
            return Err(rank_token.error(format!("rank {rank} is outside 1 to n = {n}")));
        }
        let copy_token = cursor.expect(cut_short(2 * tile + 1))?;
        let copy = number(&copy_token, "a copy number from 1 to 4", COPIES as u64)?;
        if copy == 0 {
            return Err(copy_token.error(format!("copy {copy} is outside 1 to {COPIES}")));
        }
        let (r, c) = (rank as usize - 1, copy as usize - 1);
        if let Some((line, col)) = seen[r][c] {
            return Err(rank_token.error(format!(
                "tile `{rank} {copy}` is listed twice (first at line {line}, column {col})"
            )));
        }
        seen[r][c] = Some((rank_token.line, rank_token.col));
        counts[r] += 1;
    }
    if let Some(extra) = cursor.next_token() {
        return Err(extra.error(format!(
            "a hand is {HAND} tiles, but more follows: {}",
            extra.shown()
        )));
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
    fn any_layout_reads_the_same() {
        let sample = parse_hand(SAMPLE.as_bytes()).unwrap();
        let flat: Vec<&str> = SAMPLE.split_whitespace().collect();
        assert_eq!(parse_hand(flat.join(" ").as_bytes()).unwrap(), sample);
        let two_lines = format!("{}\n{}", flat[0], flat[1..].join(" "));
        assert_eq!(parse_hand(two_lines.as_bytes()).unwrap(), sample);
        assert_eq!(parse_hand(flat.join("\t\r\n").as_bytes()).unwrap(), sample);
        let odd: Vec<String> = flat.chunks(3).map(|c| c.join(" ")).collect();
        assert_eq!(parse_hand(odd.join("\n").as_bytes()).unwrap(), sample);
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
            "8:1: tile `1 2` is listed twice (first at line 3, column 1)"
        );
        assert_eq!(
            error(&SAMPLE[..SAMPLE.len() - 4]),
            "14:1: the input ends inside the hand: it needs 13 tiles `w t` (26 numbers \
             after n), the input ends after 24"
        );
        assert_eq!(
            error(&SAMPLE[..SAMPLE.len() - 3]),
            "14:2: the input ends inside the hand: it needs 13 tiles `w t` (26 numbers \
             after n), the input ends after 25"
        );
        assert_eq!(
            error(&format!("{SAMPLE}1 4\n")),
            "15:1: a hand is 13 tiles, but more follows: `1`"
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
        assert_eq!(error("9\n0 1\n"), "2:1: rank 0 is outside 1 to n = 9");
        assert_eq!(error("9\n1 0\n"), "2:3: copy 0 is outside 1 to 4");
    }
}
