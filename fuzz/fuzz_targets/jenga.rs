//! Colored Jenga towers from arbitrary bytes: the parser returns a tower or an error,
//! and small towers solve within the position guard.
#![no_main]

use alea_games::jenga::{parse_tower, Kernel};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(tower) = parse_tower(data) {
        if let Ok((e, _)) = Kernel::new(20_000).expected(&tower) {
            assert!(e.is_finite() && e >= 0.0, "{e}");
        }
    }
});
