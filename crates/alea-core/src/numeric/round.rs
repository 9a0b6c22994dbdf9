//! Floating point made sound: the unit of rounding, counts and powers rounded outward, the
//! margins that move a computed bound outward past every rounding of its sums, and the
//! midpoint of two bounds with the largest error it may have. Every solver that certifies an `f64` answer, on one
//! process or on a cluster, rounds through here.

use crate::numeric::value::{Exact, Value};

/// The unit roundoff of `f64`: one rounding errs by at most this, relatively.
pub const UNIT: f64 = f64::EPSILON / 2.0;

/// The relative margin that moves a bound computed from `terms` terms outward past every
/// rounding in it: `terms` products of a stored probability (within a unit of the true
/// one) and a bound, their sum with a reward, and the multiplication by the margin. A
/// lower bound is multiplied by `1 - margin`, an upper one by `1 + margin` (all the terms
/// are at least 0).
///
/// From a 32-bit count: its conversion is one instruction, where an unsigned 64-bit
/// one takes several, and this runs for every choice of every sweep.
#[inline(always)]
pub fn margin(terms: usize) -> f64 {
    f64::from(2 * terms as u32 + 4) * UNIT
}

/// The smallest precision asked of the iteration: below it, rounding keeps the bounds
/// apart on most models.
pub const FINEST: f64 = 1e-15;

/// The precision actually aimed at.
pub fn clamp_precision(precision: f64) -> f64 {
    precision.max(FINEST)
}

/// The midpoint of `[lo, hi]` and how far it may be from a value in the interval,
/// absolute up to 1 and relative above, its rounding included.
pub fn midpoint(lo: f64, hi: f64) -> (f64, f64) {
    let half = (hi - lo) / 2.0;
    let mid = lo + half;
    let err = (half * (1.0 + 4.0 * UNIT) + 2.0 * UNIT * mid) / lo.max(1.0);
    (mid, err)
}

/// The larger of two numbers, neither NaN (a plain comparison: `f64::max` also tests
/// for NaN, which costs the hot loop instructions).
#[inline(always)]
pub fn fmax(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

#[inline(always)]
pub fn fmin(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// `n` as an `f64` rounded down and up (equal below 2^53).
pub fn count_outward(n: u64) -> (f64, f64) {
    let f = n as f64;
    match (f as u128).cmp(&u128::from(n)) {
        std::cmp::Ordering::Greater => (f.next_down(), f),
        std::cmp::Ordering::Less => (f, f.next_up()),
        std::cmp::Ordering::Equal => (f, f),
    }
}

/// `x` to the power `n` rounded down, for `x` in [0, 1], by squaring: each product of
/// lower bounds at least 0 is a lower bound, stepped down past its rounding.
pub fn power_down(x: f64, n: u64) -> f64 {
    power(x, n, f64::next_down)
}

/// `x` to the power `n` rounded up, for `x` at least 1.
pub fn power_up(x: f64, n: u64) -> f64 {
    power(x, n, f64::next_up)
}

fn power(mut x: f64, mut n: u64, out: fn(f64) -> f64) -> f64 {
    let mut acc = 1.0;
    while n > 0 {
        if n & 1 == 1 {
            acc = out(acc * x);
        }
        x = out(x * x);
        n >>= 1;
    }
    acc
}

/// The greatest `f64` at most `q`: a lower bound on a rational, rounded down.
pub fn below(q: &Exact) -> f64 {
    let mut f = q.to_f64();
    if f.is_nan() {
        return f64::NEG_INFINITY;
    }
    // The nearest `f64` is within a few units; step down until the rational is above.
    while f.is_finite() && Exact::from_float(f).is_some_and(|r| &r > q) {
        f = f.next_down();
    }
    if f == f64::INFINITY {
        f64::MAX
    } else {
        f
    }
}

/// The least `f64` at least `q`: an upper bound on a rational, rounded up.
pub fn above(q: &Exact) -> f64 {
    let mut f = q.to_f64();
    if f.is_nan() {
        return f64::INFINITY;
    }
    while f.is_finite() && Exact::from_float(f).is_some_and(|r| &r < q) {
        f = f.next_up();
    }
    if f == f64::NEG_INFINITY {
        f64::MIN
    } else {
        f
    }
}
