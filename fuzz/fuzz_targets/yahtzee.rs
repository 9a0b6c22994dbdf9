//! The judge's Yahtzee games from arbitrary bytes: the parser returns games or an
//! error, and the best assignment of an accepted game is consistent.
#![no_main]

use alea_games::yahtzee::{best_assignment, parse_games};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(games) = parse_games(data) {
        for game in games.iter().take(2) {
            let a = best_assignment(game, false);
            assert_eq!(a.total, a.scores.iter().sum::<u32>() + a.bonus);
        }
    }
});
