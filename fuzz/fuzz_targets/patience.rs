//! Double Patience deals from arbitrary bytes: the parser returns deals or an error
//! (never panics), and the few first deals it accepts solve to a probability in [0, 1].
#![no_main]

use alea_games::patience::{parse_deals, Kernel};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(deals) = parse_deals(data) {
        let mut kernel = Kernel::default();
        for deal in deals.iter().take(2) {
            let (p, _) = kernel.random_play(deal);
            assert!((0.0..=1.0).contains(&p), "{p}");
        }
    }
});
