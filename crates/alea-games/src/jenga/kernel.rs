//! The least expected number of minutes in `f64` by a hand-written recursion over
//! positions.
//!
//! The engine stores a choice node for every colour of every position, three times as
//! many entries as positions; this recursion takes the best move of each colour on the
//! spot and stores positions only. It adds up the colours in the engine's order and
//! finishes the same way, `(sum + 6) / moving weight`, so the two agree to the last bit
//! (a test holds them to it).

use rustc_hash::FxHashMap;

use super::state::{has_room, placements, removals, start, Packed};
use super::tower::{Tower, FACES, WEIGHTS};

/// Why a tower could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The table would hold more positions than the limit given.
    TooManyPositions(usize),
    /// A position would hold more levels of one kind than its count records (only a
    /// tower of more than [`ALWAYS_FITS`](super::state::ALWAYS_FITS) levels can).
    TooTall,
}

/// The evaluator and its table of positions.
pub struct Kernel {
    memo: FxHashMap<Packed, f64>,
    max_positions: usize,
}

impl Kernel {
    pub fn new(max_positions: usize) -> Kernel {
        Kernel {
            memo: FxHashMap::default(),
            max_positions,
        }
    }

    /// The least expected number of minutes from `tower`, and the positions stored.
    pub fn expected(&mut self, tower: &Tower) -> Result<(f64, usize), Stop> {
        self.memo.clear();
        let e = self.minutes(start(&tower.levels).ok_or(Stop::TooTall)?)?;
        Ok((e, self.memo.len()))
    }

    fn minutes(&mut self, p: Packed) -> Result<f64, Stop> {
        if let Some(&e) = self.memo.get(&p) {
            return Ok(e);
        }
        if !has_room(p) {
            return Err(Stop::TooTall);
        }
        let mut sum = 0.0;
        let mut moving = 0;
        for colour in 0..3u8 {
            let mut best = f64::INFINITY;
            let mut failed = None;
            removals(p, colour, |taken| {
                placements(taken, colour, |next| {
                    if failed.is_none() {
                        match self.minutes(next) {
                            Ok(e) => best = best.min(e),
                            Err(e) => failed = Some(e),
                        }
                    }
                })
            });
            if let Some(e) = failed {
                return Err(e);
            }
            if best.is_finite() {
                let w = WEIGHTS[usize::from(colour)];
                sum += if w == 1 { best } else { w as f64 * best };
                moving += w;
            }
        }
        let e = if moving == 0 {
            0.0
        } else {
            (sum + FACES as f64) / moving as f64
        };
        if self.memo.len() >= self.max_positions {
            return Err(Stop::TooManyPositions(self.max_positions));
        }
        self.memo.insert(p, e);
        Ok(e)
    }
}
