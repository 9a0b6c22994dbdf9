//! Solitaire Yahtzee cards and dice from arbitrary text: the parsers return a card (or
//! dice) or an error, and an accepted card's position is consistent with it.
#![no_main]

use std::sync::OnceLock;

use alea_games::yahtzee::solitaire::{parse_dice, Card, Dice};
use libfuzzer_sys::fuzz_target;

/// Built once: the dice tables take longer than a parse.
fn all_dice() -> &'static Dice {
    static DICE: OnceLock<Dice> = OnceLock::new();
    DICE.get_or_init(Dice::new)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (card, dice) = text.split_once('|').unwrap_or((text, ""));
    if let Ok(card) = Card::parse(card, all_dice()) {
        let p = card.position();
        let filled = card.scores.iter().filter(|s| s.is_some()).count();
        assert_eq!(p.filled.count_ones() as usize, filled);
        assert!(p.upper <= 63);
    }
    if let Ok(counts) = parse_dice(dice) {
        assert_eq!(counts.iter().map(|&c| u32::from(c)).sum::<u32>(), 5);
    }
});
