//! Any layout of an accepted judge input reads the same: the first byte picks the game,
//! the rest is the input; when it parses, its tokens are laid out again with runs of
//! spaces, tabs, CR and LF drawn from the input's own bytes, and must parse to the same
//! value. Patience is taken by tokens (its one-pile-per-line positions keep their lines).
#![no_main]

use alea_games::patience::{parse_deals_in, Layout};
use alea_games::text::tokens;
use alea_games::{dice, jenga, mahjong, yahtzee};
use libfuzzer_sys::fuzz_target;

/// What the parser of game `g` makes of `text`, as a string to compare.
fn parsed(g: u8, text: &[u8]) -> Option<String> {
    match g % 5 {
        0 => parse_deals_in(text, Layout::Tokens).ok().map(|d| format!("{d:?}")),
        1 => dice::parse_cases(text).ok().map(|c| format!("{c:?}")),
        2 => jenga::parse_tower(text).ok().map(|t| format!("{t:?}")),
        3 => yahtzee::parse_games(text).ok().map(|g| format!("{g:?}")),
        _ => mahjong::parse_hand(text).ok().map(|h| format!("{h:?}")),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&game, input)) = data.split_first() else {
        return;
    };
    let Some(expected) = parsed(game, input) else {
        return;
    };
    const RUNS: [&[u8]; 6] = [b" ", b"\t", b"\n", b"\r\n", b"\r", b" \n\t"];
    let mut laid = Vec::with_capacity(input.len() * 2);
    // The parsers' own tokens: a byte-order mark counts only at the very start.
    for (i, token) in tokens(input).enumerate() {
        let pick = input.get(i).copied().unwrap_or(0);
        laid.extend_from_slice(RUNS[usize::from(pick) % RUNS.len()]);
        laid.extend_from_slice(token.bytes);
    }
    assert_eq!(parsed(game, &laid).as_deref(), Some(expected.as_str()));
});
