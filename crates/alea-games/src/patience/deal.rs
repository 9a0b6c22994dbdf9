//! A position of Double Patience (a fresh deal or a game in progress), its text format,
//! and random deals.
//!
//! The format is the judge's: nine lines, one pile each, cards bottom to top. A pile of a
//! game in progress may hold fewer than four cards; an empty pile is written `-`. Blank
//! lines between piles are ignored, and deals follow each other until end of input.

use std::fmt;

use rand::seq::SliceRandom;
use rand::Rng;

use super::card::Card;
use crate::text::{end_of_input, lines, ParseError};

/// Piles on the table.
pub const PILES: usize = 9;
/// Cards a pile holds in a fresh deal, and at most.
pub const PILE_CARDS: usize = 4;

/// Nine piles of at most four cards each, bottom card first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Deal {
    pub piles: [Vec<Card>; PILES],
}

impl Deal {
    /// A fresh deal of the whole deck, shuffled with `rng`.
    pub fn random(rng: &mut impl Rng) -> Deal {
        let mut deck = Card::deck();
        deck.shuffle(rng);
        let mut deal = Deal::default();
        for (pile, cards) in deal.piles.iter_mut().zip(deck.chunks(PILE_CARDS)) {
            pile.extend_from_slice(cards);
        }
        deal
    }

    /// How many cards are still on the table.
    pub fn cards(&self) -> usize {
        self.piles.iter().map(Vec::len).sum()
    }
}

impl fmt::Display for Deal {
    /// The judge format: nine lines, cards bottom to top, `-` for an empty pile.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pile in &self.piles {
            if pile.is_empty() {
                writeln!(f, "-")?;
                continue;
            }
            for (i, card) in pile.iter().enumerate() {
                if i > 0 {
                    write!(f, " ")?;
                }
                write!(f, "{card}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

const CARD_HELP: &str =
    "expected a card: a rank (6 7 8 9 T J Q K A) then a suit (S H D C), like TD";

/// Reads every deal of the input. Nothing is returned unless the whole input is valid.
pub fn parse_deals(input: &[u8]) -> Result<Vec<Deal>, ParseError> {
    let mut deals = Vec::new();
    let mut current = Deal::default();
    let mut piles_read = 0;
    let mut deal_line = 0;
    // Where each card of the current deal was seen, to name both places of a repeat.
    let mut seen: [Option<(usize, usize)>; 36] = [None; 36];

    for (line, tokens) in lines(input) {
        let Some(first) = tokens.first() else {
            continue;
        };
        if piles_read == 0 {
            deal_line = line;
        }
        let pile = &mut current.piles[piles_read];
        if first.bytes == b"-" {
            if let Some(extra) = tokens.get(1) {
                return Err(extra.error(format!(
                    "{} after `-`: a `-` marks an empty pile and stands alone on its line",
                    extra.shown()
                )));
            }
        } else {
            for (i, token) in tokens.iter().enumerate() {
                let Some(card) = Card::parse(token.bytes) else {
                    return Err(
                        token.error(format!("{} is not a card; {CARD_HELP}", token.shown()))
                    );
                };
                if i >= PILE_CARDS {
                    return Err(token.error(format!(
                        "a pile holds at most {PILE_CARDS} cards, and this line has {}",
                        tokens.len()
                    )));
                }
                if let Some((l, c)) = seen[card.index()] {
                    return Err(token.error(format!(
                        "{card} appears twice in the deal that starts at line {deal_line} \
                         (first at line {l}, column {c})"
                    )));
                }
                seen[card.index()] = Some((token.line, token.col));
                pile.push(card);
            }
        }
        piles_read += 1;
        if piles_read == PILES {
            deals.push(std::mem::take(&mut current));
            piles_read = 0;
            seen = [None; 36];
        }
    }

    if piles_read > 0 {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            format!(
                "the input ends inside the deal that starts at line {deal_line}: \
                 it has {piles_read} of its {PILES} piles"
            ),
        ));
    }
    Ok(deals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const SAMPLE: &str = "AS 9S 6C KS\nJC QH AC KH\n7S QD JD KD\nQS TS JS 9H\n6D TD AD 8S\n\
                          QC TH KC 8D\n8C 9D TC 7C\n9C 7H JH 7D\n8H 6S AH 6H\n";

    #[test]
    fn reads_the_sample_and_writes_it_back() {
        let deals = parse_deals(SAMPLE.as_bytes()).unwrap();
        assert_eq!(deals.len(), 1);
        assert_eq!(deals[0].cards(), 36);
        assert_eq!(deals[0].to_string(), SAMPLE);
    }

    #[test]
    fn blank_lines_and_trailing_blanks_are_ignored() {
        let spaced = SAMPLE.replace('\n', "  \r\n\n");
        let deals = parse_deals(format!("\n{spaced}{spaced}").as_bytes()).unwrap();
        assert_eq!(deals.len(), 2);
        assert_eq!(deals[1].to_string(), SAMPLE);
    }

    #[test]
    fn positions_in_progress() {
        let text = "-\nAS\n-\n-\n-\n-\n-\n-\nAH 6S\n";
        let deal = &parse_deals(text.as_bytes()).unwrap()[0];
        assert_eq!(deal.cards(), 3);
        assert_eq!(deal.to_string(), text);
    }

    fn error(text: &str) -> String {
        parse_deals(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error("AS 9S 6C KX\n"),
            "1:10: `KX` is not a card; expected a card: a rank (6 7 8 9 T J Q K A) \
             then a suit (S H D C), like TD"
        );
        assert_eq!(
            error("AS 9S 6C KS 7D\n"),
            "1:13: a pile holds at most 4 cards, and this line has 5"
        );
        assert_eq!(
            error("AS 9S\n\nKD AS\n"),
            "3:4: AS appears twice in the deal that starts at line 1 (first at line 1, column 1)"
        );
        assert_eq!(
            error("AS\n9S\n"),
            "3:1: the input ends inside the deal that starts at line 1: it has 2 of its 9 piles"
        );
        assert_eq!(
            error("- AS\n"),
            "1:3: `AS` after `-`: a `-` marks an empty pile and stands alone on its line"
        );
    }

    #[test]
    fn a_card_may_repeat_in_the_next_deal() {
        let two = format!("{SAMPLE}{SAMPLE}");
        assert_eq!(parse_deals(two.as_bytes()).unwrap().len(), 2);
    }

    #[test]
    fn random_deals_use_the_whole_deck_and_repeat_with_the_seed() {
        let a = Deal::random(&mut ChaCha8Rng::seed_from_u64(5));
        let b = Deal::random(&mut ChaCha8Rng::seed_from_u64(5));
        assert_eq!(a, b);
        let mut cards: Vec<Card> = a.piles.concat();
        cards.sort();
        assert_eq!(cards, Card::deck());
        assert_eq!(parse_deals(a.to_string().as_bytes()).unwrap(), vec![a]);
    }
}
