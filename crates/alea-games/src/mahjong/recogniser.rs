//! Whether a multiset of tiles holds a winning hand, read rank by rank: the inner
//! dynamic program of the "DP of DP", whose reachable states become an automaton.
//!
//! A winning 14-tile set is four melds (a triple `i i i` or a run `i i+1 i+2`) and a
//! pair, or seven pairs of different ranks. Reading the count of each rank in turn, the
//! recogniser keeps, for every way of leaving runs open, the most melds completed so
//! far, without and with a pair set aside, and how many ranks held two tiles or more.
//! Extra tiles do no harm (the question is whether some 14 of them win), so tiles may
//! always be left unused.

use alea_core::Recogniser;

/// Runs left open in one direction: at most two (three equal runs are three triples).
const OPEN: usize = 3;
/// Melds that make a hand with a pair.
const MELDS: i8 = 4;
/// Pairs of different ranks that make a hand.
const PAIRS: u8 = 7;
/// The most tiles of one rank.
pub const COPIES: usize = 4;

/// For each (runs started two ranks back, runs started one rank back), the most melds
/// completed, or -1 when no reading leaves those runs open.
type Melds = [[i8; OPEN]; OPEN];

/// The recogniser's knowledge after some ranks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// No winning set yet.
    Open {
        no_pair: Melds,
        with_pair: Melds,
        /// Ranks with two tiles or more, up to seven.
        pairs: u8,
    },
    /// A winning set is held; more tiles change nothing.
    Won,
}

/// The recogniser of winning hands over the symbols 0..=4, a rank's count of tiles.
pub struct Hands;

impl Recogniser for Hands {
    type State = Reading;

    fn alphabet(&self) -> usize {
        COPIES + 1
    }

    fn start(&self) -> Reading {
        let mut no_pair = [[-1; OPEN]; OPEN];
        no_pair[0][0] = 0;
        Reading::Open {
            no_pair,
            with_pair: [[-1; OPEN]; OPEN],
            pairs: 0,
        }
    }

    fn step(&self, state: &Reading, count: usize) -> Reading {
        let Reading::Open {
            no_pair,
            with_pair,
            pairs,
        } = state
        else {
            return Reading::Won;
        };
        let mut next_no_pair = [[-1i8; OPEN]; OPEN];
        let mut next_with_pair = [[-1i8; OPEN]; OPEN];
        let better = |slot: &mut i8, melds: i8| *slot = (*slot).max(melds.min(MELDS));
        for older in 0..OPEN {
            for newer in 0..OPEN {
                // `older` runs end here, `newer` runs take their middle tile here.
                let used = older + newer;
                for (from, paired) in [(no_pair, false), (with_pair, true)] {
                    let melds = from[older][newer];
                    if melds < 0 || count < used {
                        continue;
                    }
                    for started in 0..OPEN {
                        if used + started > count {
                            break;
                        }
                        let rest = count - used - started;
                        let done = melds + older as i8;
                        let target = if paired {
                            &mut next_with_pair
                        } else {
                            &mut next_no_pair
                        };
                        better(&mut target[newer][started], done + i8::from(rest >= 3));
                        if !paired && rest >= 2 {
                            // Two of the rest as the pair; at most two remain, no triple.
                            better(&mut next_with_pair[newer][started], done);
                        }
                    }
                }
            }
        }
        let pairs = (pairs + u8::from(count >= 2)).min(PAIRS);
        let four_melds = next_with_pair.iter().flatten().any(|&m| m >= MELDS);
        if four_melds || pairs >= PAIRS {
            return Reading::Won;
        }
        Reading::Open {
            no_pair: next_no_pair,
            with_pair: next_with_pair,
            pairs,
        }
    }

    fn accepts(&self, state: &Reading) -> bool {
        *state == Reading::Won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wins(counts: &[usize]) -> bool {
        let end = counts.iter().fold(Hands.start(), |s, &c| Hands.step(&s, c));
        Hands.accepts(&end)
    }

    #[test]
    fn hands_that_win_and_hands_that_do_not() {
        // 111 234 567 999 + 55: runs, triples and a pair.
        assert!(wins(&[3, 1, 1, 1, 3, 1, 1, 0, 3]));
        // Seven pairs of different ranks.
        assert!(wins(&[2, 2, 2, 2, 2, 2, 2]));
        // Four ones are not two different pairs, and gaps leave no runs: one triple.
        assert!(!wins(&[4, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2]));
        // ... but with the gaps filled, 123 123 456 456 and 11 win.
        assert!(wins(&[4, 2, 2, 2, 2, 2]));
        // 123 123 123 123 + 44.
        assert!(wins(&[4, 4, 4, 2]));
        // 13 tiles never win.
        assert!(!wins(&[3, 1, 1, 1, 3, 1, 1, 0, 2]));
        // Extra tiles do no harm: 123 444 555 666 77 among nineteen tiles.
        assert!(wins(&[1, 1, 1, 4, 4, 4, 2, 1, 1]));
        // Two of a kind six times and a lone tile: no seventh pair, no melds.
        assert!(!wins(&[2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 1]));
    }
}
