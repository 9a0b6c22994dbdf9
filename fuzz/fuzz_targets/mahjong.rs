//! Mahjong hands from arbitrary bytes: the parser returns a hand or an error, and an
//! accepted hand over few ranks gives the same answer modulo the prime as its exact
//! fraction does.
#![no_main]

use std::sync::OnceLock;

use alea_core::{ModP, Value};
use alea_games::mahjong::{parse_hand, Solver};
use libfuzzer_sys::fuzz_target;

/// Built once: the automaton is the same for every hand.
fn solver() -> &'static Solver {
    static SOLVER: OnceLock<Solver> = OnceLock::new();
    SOLVER.get_or_init(Solver::new)
}

fuzz_target!(|data: &[u8]| {
    if let Ok(hand) = parse_hand(data) {
        if hand.ranks() > 12 {
            return;
        }
        let solver = solver();
        let exact = solver.expected_exact(&hand);
        let num: i64 = exact.numer().try_into().expect("small numerator");
        let den: u64 = exact.denom().try_into().expect("small denominator");
        assert_eq!(solver.expected_mod_p(&hand), ModP::from_ratio(num, den));
    }
});
