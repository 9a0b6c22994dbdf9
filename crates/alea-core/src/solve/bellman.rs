//! One state's Bellman step on a pair of bounds: the best choice's reward plus its
//! successors' bounds weighted by probability, each choice's sums moved outward by their
//! margin. The hot loop of the interval iteration's sweeps and of the step-bounded
//! properties' steps, written once for both.

use super::{Goal, Sides};
use crate::form::Form;
use crate::numeric::round::{fmax, fmin, margin};

/// Where a step reads bounds: the whole array, or a window of it that a block of a
/// parallel sweep updates on its own (states outside the window read as they were).
pub(super) trait View {
    fn get(&self, j: u32) -> [f64; 2];
}

impl View for [[f64; 2]] {
    #[inline(always)]
    fn get(&self, j: u32) -> [f64; 2] {
        self[j as usize]
    }
}

/// How a step picks among a state's choices: always the greatest, always the least, or
/// as each state's player (a game). Fixed at compile time in the hot loop.
pub(super) const MAXIMISE: u8 = 0;
pub(super) const MINIMISE: u8 = 1;
pub(super) const EACH: u8 = 2;

impl Sides {
    /// How these sides pick: [`MAXIMISE`], [`MINIMISE`] or [`EACH`].
    pub(super) fn mode(&self) -> u8 {
        if !self.maximise.is_empty() {
            EACH
        } else if self.goal == Goal::Max {
            MAXIMISE
        } else {
            MINIMISE
        }
    }
}

/// Bounds on the value of state `s` from `x`: the best choice's reward (with `R`, from
/// `rew`, one per choice) plus its successors' bounds weighted by probability, with the
/// margin of [`margin`], in a lean loop. `MODE` says how the best is picked, from
/// `maximise` (each state's player) with [`EACH`]. A state without a choice is worth
/// the empty best (minus infinity for the greatest, infinity for the least).
// `c` reads the rows and the rewards alike: an index is plainer than zipped iterators.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
pub(super) fn lean<const R: bool, const MODE: u8, V: View + ?Sized>(
    m: &Form,
    rew: &[f64],
    maximise: &[bool],
    s: usize,
    x: &V,
) -> [f64; 2] {
    let max = match MODE {
        MAXIMISE => true,
        MINIMISE => false,
        _ => maximise[s],
    };
    let init = if max {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    let (mut best_lo, mut best_hi) = (init, init);
    for c in m.choices[s]..m.choices[s + 1] {
        let (a, b) = (m.row[c], m.row[c + 1]);
        let (mut lo, mut hi) = if R { (rew[c], rew[c]) } else { (0.0, 0.0) };
        for (&j, &p) in m.to[a..b].iter().zip(&m.prob[a..b]) {
            let [l, h] = x.get(j);
            lo += p * l;
            hi += p * h;
        }
        let e = margin(b - a);
        lo *= 1.0 - e;
        hi *= 1.0 + e;
        if max {
            best_lo = fmax(best_lo, lo);
            best_hi = fmax(best_hi, hi);
        } else {
            best_lo = fmin(best_lo, lo);
            best_hi = fmin(best_hi, hi);
        }
    }
    [best_lo, best_hi]
}

/// [`lean`] on one value per state, with no margin: the step of an iteration that
/// bounds its rounding as a whole rather than per sum (see `bounded`).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
pub(super) fn plain<const R: bool, const MODE: u8>(
    m: &Form,
    rew: &[f64],
    maximise: &[bool],
    s: usize,
    x: &[f64],
) -> f64 {
    let max = match MODE {
        MAXIMISE => true,
        MINIMISE => false,
        _ => maximise[s],
    };
    let mut best = if max {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    for c in m.choices[s]..m.choices[s + 1] {
        let (a, b) = (m.row[c], m.row[c + 1]);
        let mut v = if R { rew[c] } else { 0.0 };
        for (&j, &p) in m.to[a..b].iter().zip(&m.prob[a..b]) {
            v += p * x[j as usize];
        }
        best = if max { fmax(best, v) } else { fmin(best, v) };
    }
    best
}
