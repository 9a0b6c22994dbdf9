//! One Person Game cases from arbitrary bytes: the parser returns cases or an error, and
//! accepted cases with little work solve to an expectation of at least one throw, the
//! same in f64 and exactly.
#![no_main]

use alea_core::Value;
use alea_games::dice::{expected_throws, expected_throws_exact, parse_cases};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(games) = parse_cases(data) {
        for game in games.iter().take(2) {
            let throw = game.throw();
            if throw.exact_work(game.limit) > 20_000 {
                continue;
            }
            let e = expected_throws(&throw, game.limit).expected;
            let exact = expected_throws_exact(&throw, game.limit).to_f64();
            assert!(e >= 1.0, "{e}");
            assert!((e - exact).abs() <= 1e-9 * exact, "{e} vs {exact}");
        }
    }
});
