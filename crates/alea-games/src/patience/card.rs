//! Cards of the 36-card deck: ranks 6 to ace, four suits.

use std::fmt;

/// Rank letters from lowest to highest; a card's rank is its index here.
pub const RANKS: &[u8; 9] = b"6789TJQKA";
/// Suit letters; a card's suit is its index here.
pub const SUITS: &[u8; 4] = b"SHDC";

/// One card, written rank then suit (`TD` is the ten of diamonds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub rank: u8,
    pub suit: u8,
}

impl Card {
    /// Reads a card from its two letters (either case).
    pub fn parse(text: &[u8]) -> Option<Card> {
        let [r, s] = text else { return None };
        let rank = RANKS.iter().position(|&x| x == r.to_ascii_uppercase())?;
        let suit = SUITS.iter().position(|&x| x == s.to_ascii_uppercase())?;
        Some(Card {
            rank: rank as u8,
            suit: suit as u8,
        })
    }

    /// A number from 0 to 35, unique to the card.
    pub fn index(self) -> usize {
        usize::from(self.rank) * 4 + usize::from(self.suit)
    }

    /// The whole deck in a fixed order.
    pub fn deck() -> Vec<Card> {
        (0..9u8)
            .flat_map(|rank| (0..4u8).map(move |suit| Card { rank, suit }))
            .collect()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANKS[usize::from(self.rank)] as char,
            SUITS[usize::from(self.suit)] as char
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_reads_back_what_it_writes() {
        let deck = Card::deck();
        assert_eq!(deck.len(), 36);
        for (i, c) in deck.iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Card::parse(c.to_string().as_bytes()), Some(*c));
        }
        assert_eq!(Card::parse(b"td"), Card::parse(b"TD"));
    }

    #[test]
    fn non_cards_are_refused() {
        for bad in [&b"5S"[..], b"TX", b"T", b"TDS", b"", b"10S", b"\xffS"] {
            assert_eq!(Card::parse(bad), None, "{bad:?}");
        }
    }
}
