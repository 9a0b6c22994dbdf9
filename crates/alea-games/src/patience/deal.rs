//! A position of Double Patience (a fresh deal or a game in progress), its text format,
//! and random deals.
//!
//! Two layouts, and a rule between them that cannot be misread:
//! - by tokens, the judge's: a deal is 36 cards, whitespace-separated in any layout,
//!   four to a pile, bottom to top, pile after pile;
//! - one pile per line: nine lines a deal, cards bottom to top, so that a pile of a game
//!   in progress may hold fewer than four cards; an empty pile is written `-`.
//!
//! [`Layout::Auto`] reads by tokens when the whole input is whole deals that way (every
//! token a card, 36 different cards a deal), and one pile per line otherwise. A position
//! must be one that can occur in play (each rank an even number of times, since cards
//! leave in pairs), so that a deal with a mistake is not taken for positions. A fresh
//! deal written one pile per line reads the same both ways. Blank lines are ignored,
//! and deals follow each other until end of input.

use std::fmt;

use rand::seq::SliceRandom;
use rand::Rng;

use super::card::{Card, RANKS, SUITS};
use super::kernel::Tableau;
use crate::text::{end_of_input, is_blank, lines, tokens, Cursor, ParseError, Token};

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

/// How the input lays out its deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// By tokens if the whole input reads as whole deals that way, else one pile per line.
    #[default]
    Auto,
    /// 36 cards a deal in any layout (the judge's format).
    Tokens,
    /// Nine lines a deal, one pile each (positions in progress).
    Lines,
}

/// Reads every deal of the input, choosing the layout by the rule of [`Layout::Auto`].
/// Nothing is returned unless the whole input is valid.
pub fn parse_deals(input: &[u8]) -> Result<Vec<Deal>, ParseError> {
    parse_deals_in(input, Layout::Auto)
}

/// Reads every deal of the input in `layout`.
pub fn parse_deals_in(input: &[u8], layout: Layout) -> Result<Vec<Deal>, ParseError> {
    match layout {
        Layout::Tokens => by_tokens(input),
        Layout::Lines => by_lines(input),
        Layout::Auto => by_tokens(input).or_else(|by_tokens| {
            by_lines(input).map_err(|by_lines| {
                // Neither reading works. An empty pile says the input holds positions in
                // progress; otherwise it is taken for deals. The other reading's failure
                // is told too, since the layout may not be what it seems.
                let positions = tokens(input).any(|t| t.bytes == b"-");
                let (main, other, how) = if positions {
                    (by_lines, by_tokens, "read as deals of 36 cards")
                } else {
                    (by_tokens, by_lines, "read one pile per line")
                };
                if other == main {
                    return main;
                }
                ParseError::at(
                    main.line,
                    main.col,
                    format!(
                        "{} ({how}, the input fails at line {}, column {}: {})",
                        main.message, other.line, other.col, other.message
                    ),
                )
            })
        }),
    }
}

/// The judge's deals of a whole input read by ranks only, in one pass with no
/// allocation per deal, for the default answer over thousands of deals; `None` unless
/// every token is a card and every 36 of them are 36 different cards (what
/// [`Layout::Auto`] and [`Layout::Tokens`] read by tokens), so that any other input goes
/// to [`parse_deals_in`], which reads it the same way or says what is wrong.
pub fn judge_tableaus(input: &[u8]) -> Option<Vec<Tableau>> {
    const DEAL_CARDS: usize = PILES * PILE_CARDS;
    const NONE: u8 = u8::MAX;
    // Either case, as `Card::parse` reads them.
    const RANK_OF: [u8; 256] = letter_table(RANKS);
    const SUIT_OF: [u8; 256] = letter_table(SUITS);
    const fn letter_table<const N: usize>(letters: &[u8; N]) -> [u8; 256] {
        let mut table = [NONE; 256];
        let mut i = 0;
        while i < N {
            table[letters[i] as usize] = i as u8;
            table[letters[i].to_ascii_lowercase() as usize] = i as u8;
            i += 1;
        }
        table
    }

    if input.starts_with(b"\xef\xbb\xbf") {
        return None;
    }
    let mut tableaus = Vec::with_capacity(input.len() / (3 * DEAL_CARDS) + 1);
    let mut ranks = [[0u8; PILE_CARDS]; PILES];
    let mut seen = 0u64;
    let mut n = 0;
    let mut i = 0;
    while i < input.len() {
        if is_blank(input[i]) {
            i += 1;
            continue;
        }
        // A card is two letters followed by a blank or the end.
        let (&r, &s) = (input.get(i)?, input.get(i + 1)?);
        if input.get(i + 2).is_some_and(|&b| !is_blank(b)) {
            return None;
        }
        let (rank, suit) = (RANK_OF[usize::from(r)], SUIT_OF[usize::from(s)]);
        if rank == NONE || suit == NONE {
            return None;
        }
        let card = 1u64 << (rank * 4 + suit);
        if seen & card != 0 {
            return None;
        }
        seen |= card;
        ranks[n / PILE_CARDS][n % PILE_CARDS] = rank;
        n += 1;
        if n == DEAL_CARDS {
            tableaus.push(Tableau::from_ranks(ranks, [PILE_CARDS as u8; PILES]));
            n = 0;
            seen = 0;
        }
        i += 2;
    }
    (n == 0).then_some(tableaus)
}

/// Cards already seen in the deal being read, with their place, to name both places of
/// a repeat.
struct Seen {
    at: [Option<(usize, usize)>; 36],
    deal_line: usize,
}

impl Seen {
    fn new(deal_line: usize) -> Seen {
        Seen {
            at: [None; 36],
            deal_line,
        }
    }

    /// Checks that the position could occur in play: cards leave the table in pairs of
    /// one rank, so each rank is there an even number of times.
    fn check_pairs(&self) -> Result<(), ParseError> {
        for (rank, &letter) in RANKS.iter().enumerate() {
            let places: Vec<(usize, usize)> =
                (0..4).filter_map(|suit| self.at[rank * 4 + suit]).collect();
            if let Some(&(line, col)) = places.iter().max().filter(|_| places.len() % 2 == 1) {
                return Err(ParseError::at(
                    line,
                    col,
                    format!(
                        "the position that starts at line {} cannot occur in play: cards \
                         leave the table in pairs of one rank, so each rank is there an \
                         even number of times, but {} is there {} times",
                        self.deal_line,
                        char::from(letter),
                        places.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The card of `token`, checked to be a card not yet seen in the deal.
    fn card(&mut self, token: &Token<'_>) -> Result<Card, ParseError> {
        let Some(card) = Card::parse(token.bytes) else {
            return Err(token.error(format!("{} is not a card; {CARD_HELP}", token.shown())));
        };
        if let Some((l, c)) = self.at[card.index()] {
            return Err(token.error(format!(
                "{card} appears twice in the deal that starts at line {} \
                 (first at line {l}, column {c})",
                self.deal_line
            )));
        }
        self.at[card.index()] = Some((token.line, token.col));
        Ok(card)
    }
}

/// The judge's layout: 36 cards a deal, in any layout.
fn by_tokens(input: &[u8]) -> Result<Vec<Deal>, ParseError> {
    const DEAL_CARDS: usize = PILES * PILE_CARDS;
    let mut cursor = Cursor::new(input);
    let mut deals = Vec::new();
    while let Some(first) = cursor.peek() {
        let mut seen = Seen::new(first.line);
        let mut deal = Deal::default();
        for i in 0..DEAL_CARDS {
            let token = cursor.expect(|| {
                format!(
                    "the input ends inside the deal that starts at line {}: a deal needs \
                     {DEAL_CARDS} cards, the input ends after {i} (a position in progress \
                     is written one pile per line, `-` for an empty pile)",
                    first.line
                )
            })?;
            if token.bytes == b"-" {
                return Err(token.error(
                    "`-` (an empty pile) is read only one pile per line, nine lines a deal, \
                     and this input is not laid out so",
                ));
            }
            deal.piles[i / PILE_CARDS].push(seen.card(&token)?);
        }
        deals.push(deal);
    }
    Ok(deals)
}

/// One pile per line, nine lines a deal.
fn by_lines(input: &[u8]) -> Result<Vec<Deal>, ParseError> {
    let mut deals = Vec::new();
    let mut current = Deal::default();
    let mut piles_read = 0;
    let mut seen = Seen::new(0);

    for (line, tokens) in lines(input) {
        let Some(first) = tokens.first() else {
            continue;
        };
        if piles_read == 0 {
            seen = Seen::new(line);
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
                if token.bytes == b"-" {
                    return Err(token.error("`-` marks an empty pile and stands alone on its line"));
                }
                if i >= PILE_CARDS {
                    return Err(token.error(format!(
                        "a pile holds at most {PILE_CARDS} cards, and this line has {}; \
                         one pile per line is for positions in progress (a deal of 36 \
                         cards may be laid out in any way)",
                        tokens.len()
                    )));
                }
                pile.push(seen.card(token)?);
            }
        }
        piles_read += 1;
        if piles_read == PILES {
            seen.check_pairs()?;
            deals.push(std::mem::take(&mut current));
            piles_read = 0;
        }
    }

    if piles_read > 0 {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            format!(
                "the input ends inside the deal that starts at line {}: \
                 it has {piles_read} of its {PILES} piles, one per line",
                seen.deal_line
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
        let text = "-\nAS\n-\n-\n-\n-\n-\n6H\nAH 6S\n";
        let deal = &parse_deals(text.as_bytes()).unwrap()[0];
        assert_eq!(deal.cards(), 4);
        assert_eq!(deal.to_string(), text);
    }

    fn error(text: &str) -> String {
        parse_deals(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn a_deal_of_36_cards_reads_in_any_layout() {
        let sample = parse_deals(SAMPLE.as_bytes()).unwrap();
        let flat: Vec<&str> = SAMPLE.split_whitespace().collect();
        let one_line = flat.join(" ");
        assert_eq!(parse_deals(one_line.as_bytes()).unwrap(), sample);
        // The first pile's four cards split over two lines.
        let split = SAMPLE.replacen("AS 9S ", "AS 9S\n", 1);
        assert_eq!(parse_deals(split.as_bytes()).unwrap(), sample);
        let pairs: Vec<String> = flat.chunks(2).map(|c| c.join("\t")).collect();
        let two_deals = format!("{}\r\n{}", pairs.join("\r\n"), one_line);
        assert_eq!(parse_deals(two_deals.as_bytes()).unwrap().len(), 2);
        assert_eq!(parse_deals(two_deals.as_bytes()).unwrap()[1], sample[0]);
        assert_eq!(
            parse_deals_in(one_line.as_bytes(), Layout::Tokens).unwrap(),
            sample
        );
        assert!(parse_deals_in(one_line.as_bytes(), Layout::Lines).is_err());
    }

    #[test]
    fn positions_in_progress_read_one_pile_per_line() {
        // No empty pile: these short piles can only be read one per line.
        let text = "AS 9S 6C\nJC QH AC\n7S QD JD KD\nQS TS JS 9H\n6D TD AD 8S\n\
                    QC TH KC 8D\n8C 9D TC 7C\n9C 7H JH 7D\n8H 6S AH 6H\n";
        let deals = parse_deals(text.as_bytes()).unwrap();
        assert_eq!(deals.len(), 1);
        assert_eq!(deals[0].piles[1].len(), 3);
        assert_eq!(deals[0].to_string(), text);
        assert!(parse_deals_in(text.as_bytes(), Layout::Tokens).is_err());
        // A position and a fresh deal in one input.
        let mixed = format!("{text}\n{SAMPLE}");
        assert_eq!(parse_deals(mixed.as_bytes()).unwrap().len(), 2);
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error("AS 9S 6C KX\n"),
            "1:10: `KX` is not a card; expected a card: a rank (6 7 8 9 T J Q K A) \
             then a suit (S H D C), like TD"
        );
        assert_eq!(
            error("AS 9S\n\nKD AS\n"),
            "3:4: AS appears twice in the deal that starts at line 1 (first at line 1, column 1)"
        );
        // Neither reading works: the deals' error, and where the other reading fails.
        assert_eq!(
            error("AS\n9S\n"),
            "3:1: the input ends inside the deal that starts at line 1: a deal needs 36 \
             cards, the input ends after 2 (a position in progress is written one pile \
             per line, `-` for an empty pile) (read one pile per line, the input fails at \
             line 3, column 1: the input ends inside the deal that starts at line 1: it \
             has 2 of its 9 piles, one per line)"
        );
        // With an empty pile, the positions' error first.
        assert!(error("AS\n-\n").starts_with(
            "3:1: the input ends inside the deal that starts at line 1: it has 2 of its 9 \
             piles, one per line (read as deals of 36 cards, the input fails at line 2, \
             column 1: `-`"
        ));
        assert!(error("AS - 9S\n-\n")
            .starts_with("1:4: `-` marks an empty pile and stands alone on its line"));
        // A deal with a card missing is not taken for a position: a rank is left odd.
        let missing = SAMPLE.replace(" KD\n", "\n");
        assert!(
            error(&missing).starts_with("10:1: the input ends inside the deal"),
            "{}",
            error(&missing)
        );
        assert!(error(&missing).contains(
            "line 6, column 7: the position that starts at line 1 cannot occur in play: \
             cards leave the table in pairs of one rank, so each rank is there an even \
             number of times, but K is there 3 times"
        ));
        assert!(error("- AS\n").starts_with(
            "1:3: `AS` after `-`: a `-` marks an empty pile and stands alone on its line"
        ));
        // A deal by tokens cut short: the end of the input, and what a deal needs.
        let flat: Vec<&str> = SAMPLE.split_whitespace().collect();
        assert!(error(&flat[..35].join(" ")).starts_with(
            "1:105: the input ends inside the deal that starts at line 1: a deal needs 36 \
             cards, the input ends after 35 (a position in progress is written one pile \
             per line, `-` for an empty pile) (read one pile per line, the input fails at \
             line 1, column 13: a pile holds at most 4 cards"
        ));
        let mut repeated = flat.clone();
        repeated[30] = "AS";
        assert!(error(&repeated.join(" ")).starts_with(
            "1:91: AS appears twice in the deal that starts at line 1 (first at line 1, \
             column 1)"
        ));
        assert_eq!(
            parse_deals_in(b"-\n", Layout::Tokens)
                .unwrap_err()
                .to_string(),
            "1:1: `-` (an empty pile) is read only one pile per line, nine lines a deal, and \
             this input is not laid out so"
        );
        assert_eq!(
            parse_deals_in(b"AS 9S 6C KS 7D\n", Layout::Lines)
                .unwrap_err()
                .to_string(),
            "1:13: a pile holds at most 4 cards, and this line has 5; one pile per line is \
             for positions in progress (a deal of 36 cards may be laid out in any way)"
        );
    }

    #[test]
    fn the_fast_reading_agrees_with_the_deals() {
        let flat: Vec<&str> = SAMPLE.split_whitespace().collect();
        let mut lower = flat.clone();
        lower[3] = "ks";
        let spaced = format!("\x0b {}\r\n\x0c{}\t", flat.join("  "), lower.join("\n"));
        let fast = judge_tableaus(spaced.as_bytes()).unwrap();
        let deals = parse_deals(spaced.as_bytes()).unwrap();
        assert_eq!(fast.len(), 2);
        for (t, d) in fast.iter().zip(&deals) {
            assert_eq!(*t, Tableau::from(d));
        }
        assert_eq!(judge_tableaus(b"").unwrap(), vec![]);
        // Everything else is left to the full reading.
        for other in [
            SAMPLE.replacen("AS", "AX", 1),
            SAMPLE.replacen("AS", "ASS", 1),
            SAMPLE.replacen("AS", "A", 1),
            SAMPLE.replacen("KD", "AS", 1),
            SAMPLE.replacen(" KD\n", "\n", 1),
            SAMPLE.replacen("AS", "-", 1),
            format!("\u{feff}{SAMPLE}"),
            format!("{SAMPLE}{}", flat[..35].join(" ")),
        ] {
            assert_eq!(judge_tableaus(other.as_bytes()), None, "{other:?}");
        }
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
