//! Properties within a number of steps: the probability of `stay U<=k target` and the
//! reward gathered in the first `k` steps, by `k` applications of the Bellman operator
//! (Jacobi: each step reads only the previous step's values, as the step count demands).
//!
//! Certification in `f64`: a lower and an upper iterate are carried together, each
//! choice's sums moved outward by a relative margin covering their rounding (and a unit
//! of error in each stored probability), so the two iterates bound the exact k-step
//! values whatever the rounding; the answer is their midpoint and the bound half their
//! distance. Where every state steps and nothing is clamped (a reward gathered, the
//! expected reward at step `k`), one value is carried instead, with a bound on its
//! distance from the exact one that grows by each step's rounding (see [`plain`]), and
//! the steps left may be bounded at once from the change of one step (see [`Drift`]).
//! Exactly: the same steps in integers over a common denominator.
//!
//! All stop early when a step changes nothing: every later step would repeat it. Large
//! models are stepped in parallel, over fixed blocks of states, so the result does not
//! depend on the number of threads.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use rayon::prelude::*;

use super::bellman::{self, lean, EACH, MAXIMISE, MINIMISE};
use super::{Answer, ExactAnswer, Sides};
use crate::analysis::graph::Graph;
use crate::form::{ExactProbs, Form};
use crate::numeric::round::{
    count_outward, fmax, fmin, margin, midpoint, power_down, power_up, UNIT,
};
use crate::numeric::value::Exact;

/// States per block of a parallel step, and the fewest states stepped in parallel.
const BLOCK: usize = 1 << 12;
const PARALLEL: usize = 1 << 15;

/// The probability of reaching `target` within `k` steps through `stay`, in `f64`.
pub(crate) fn until(g: &Graph, sides: &Sides, stay: &[bool], target: &[bool], k: u64) -> Answer {
    let n = g.states();
    let through: Vec<bool> = (0..n).map(|s| stay[s] && !target[s]).collect();
    // States that cannot reach the target at all stay at 0.
    let can = g.exists_reach(target, &through, |_, _| {});
    let open: Vec<bool> = (0..n).map(|s| through[s] && can[s]).collect();
    let start: Vec<[f64; 2]> = target
        .iter()
        .map(|&t| if t { [1.0, 1.0] } else { [0.0, 0.0] })
        .collect();
    iterate(g.m, sides, &open, &[], start, k, true, None)
}

/// The reward gathered in the first `k` steps, in `f64`.
pub(crate) fn cumulative(g: &Graph, sides: &Sides, rew: &[f64], k: u64, precision: f64) -> Answer {
    let n = g.states();
    let drift = Drift::new(g.m, rew, precision);
    iterate(
        g.m,
        sides,
        &vec![true; n],
        rew,
        vec![[0.0, 0.0]; n],
        k,
        false,
        Some(&drift),
    )
}

/// Bounds on one choice's value (its reward, if any, plus its successors' values).
#[inline(always)]
fn choice(m: &Form, c: usize, rew: &[f64], x: &[[f64; 2]]) -> [f64; 2] {
    let range = m.transitions_of(c);
    let (mut lo, mut hi) = if rew.is_empty() {
        (0.0, 0.0)
    } else {
        (rew[c], rew[c])
    };
    for t in range.clone() {
        let p = m.prob[t];
        let [l, h] = x[m.to[t] as usize];
        lo += p * l;
        hi += p * h;
    }
    let e = margin(range.len());
    [lo * (1.0 - e), hi * (1.0 + e)]
}

/// One step over the open states, from `cur` into `next`: whether anything changed, and
/// the least upper bound above 0 among the new bounds. `clamp` keeps probabilities
/// within [0, 1]; every value is at least 0.
fn step(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    cur: &[[f64; 2]],
    next: &mut [[f64; 2]],
    clamp: bool,
) -> (bool, f64) {
    // The hot loop compiled for each way of picking and of gathering.
    match (sides.mode(), rew.is_empty()) {
        (MAXIMISE, true) => step_as::<false, MAXIMISE>(m, sides, open, rew, cur, next, clamp),
        (MAXIMISE, false) => step_as::<true, MAXIMISE>(m, sides, open, rew, cur, next, clamp),
        (MINIMISE, true) => step_as::<false, MINIMISE>(m, sides, open, rew, cur, next, clamp),
        (MINIMISE, false) => step_as::<true, MINIMISE>(m, sides, open, rew, cur, next, clamp),
        (_, true) => step_as::<false, EACH>(m, sides, open, rew, cur, next, clamp),
        (_, false) => step_as::<true, EACH>(m, sides, open, rew, cur, next, clamp),
    }
}

fn step_as<const R: bool, const MODE: u8>(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    cur: &[[f64; 2]],
    next: &mut [[f64; 2]],
    clamp: bool,
) -> (bool, f64) {
    let top = if clamp { 1.0 } else { f64::INFINITY };
    let block = |first: usize, out: &mut [[f64; 2]]| {
        let (mut changed, mut low) = (false, f64::INFINITY);
        for (i, slot) in out.iter_mut().enumerate() {
            let s = first + i;
            if open[s] {
                let [lo, hi] = lean::<R, MODE, _>(m, rew, &sides.maximise, s, cur);
                let v = [fmin(fmax(lo, 0.0), top), fmin(fmax(hi, 0.0), top)];
                changed |= v != cur[s];
                if v[1] > 0.0 {
                    low = fmin(low, v[1]);
                }
                *slot = v;
            }
        }
        (changed, low)
    };
    if next.len() >= PARALLEL {
        next.par_chunks_mut(BLOCK)
            .enumerate()
            .map(|(b, out)| block(b * BLOCK, out))
            .reduce(
                || (false, f64::INFINITY),
                |a, b| (a.0 || b.0, fmin(a.1, b.1)),
            )
    } else {
        block(0, next)
    }
}

/// Where steps ended: the bounds after the last step (`cur`) and one step before
/// (`prev`), the steps taken, and the least value above 0 that a step read, which tells
/// whether a product may have fallen below the normal range of `f64` (see [`tiny`]).
struct Steps {
    cur: Vec<[f64; 2]>,
    prev: Vec<[f64; 2]>,
    taken: u64,
    low: f64,
}

/// The least value above 0 among upper bounds.
fn least_above_zero(x: &[[f64; 2]]) -> f64 {
    x.iter()
        .map(|&[_, hi]| hi)
        .filter(|&h| h > 0.0)
        .fold(f64::INFINITY, fmin)
}

/// Whether a product of a probability and a value of at least `low` may have fallen
/// below the normal range of `f64`. There, rounding is absolute rather than relative, so
/// the margins do not cover it, and a sum may round to 0 while its exact value is not.
fn tiny(m: &Form, low: f64) -> bool {
    let least = m.prob.iter().copied().filter(|&p| p > 0.0).fold(1.0, fmin);
    low * least < f64::MIN_POSITIVE
}

/// A bound on what products below the normal range can have lost in `steps` steps of
/// `m`: each of a choice's terms and additions at most half the smallest `f64`.
fn underflow(m: &Form, steps: u64) -> f64 {
    let widest = (0..m.choice_count())
        .map(|c| m.transitions_of(c).len())
        .max()
        .unwrap_or(0);
    let (_, count) = count_outward(steps + 1);
    (count * (widest as f64 + 1.0) * 4.0 * f64::from_bits(1)).next_up()
}

#[allow(clippy::too_many_arguments)]
fn iterate(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    start: Vec<[f64; 2]>,
    k: u64,
    clamp: bool,
    drift: Option<&Drift>,
) -> Answer {
    let steps = run(m, sides, open, rew, start, k, clamp, drift);
    finish(m, sides, open, rew, steps, k)
}

/// The steps left bounded at once, where that is sound: every state steps and nothing is
/// clamped, so that the step `T` is monotone and moves with a constant, `T(y + c) =
/// T(y) + c` (up to how far the rows' sums may be from 1). The change of one step,
/// `T(y) - y`, then has a least and a greatest entry that can only come closer step
/// after step (`T(y) >= y + a` gives `T(T(y)) >= T(y) + a`): `n` steps from `y` add
/// between `n` times the least and `n` times the greatest. Where the values settle into
/// a steady gain per step (an expected reward over a million steps), these meet within
/// the precision after a few hundred or thousand steps.
///
/// The change is measured on the values less their least, `y = x - c`, by one step from
/// them: the values' own size (and the rounding it carries) does not blur it.
pub(crate) struct Drift {
    precision: f64,
    /// Bounds on the sum of the true probabilities of any choice.
    sums: [f64; 2],
    /// The largest margin of a choice's sum, and the largest reward of a choice.
    margin: f64,
    reward: f64,
    /// What products below the normal range of `f64` may lose in one step.
    underflow: f64,
}

impl Drift {
    pub fn new(m: &Form, rew: &[f64], precision: f64) -> Drift {
        let mut sums = [1.0f64, 1.0f64];
        let mut widest = 0;
        for c in 0..m.row.len() - 1 {
            let range = m.transitions_of(c);
            widest = widest.max(range.len());
            let e = margin(range.len());
            let sum: f64 = m.prob[range].iter().sum();
            sums = [
                fmin(sums[0], sum * (1.0 - e)),
                fmax(sums[1], sum * (1.0 + e)),
            ];
        }
        Drift {
            precision,
            sums,
            margin: margin(widest),
            reward: rew.iter().copied().fold(0.0, fmax),
            underflow: underflow(m, 0),
        }
    }

    /// Whether a jump is tried after `steps` of `k`: at powers of two, while the steps
    /// left are at least as many as those taken (fewer are cheaper taken).
    fn due(steps: u64, k: u64) -> bool {
        steps >= 16 && steps.is_power_of_two() && k - steps >= steps
    }

    /// The rounding of one step from values at most `top`: `margin * (reward + sum *
    /// top)`, rounded up, plus what products below the normal range may lose.
    fn rounding(&self, top: f64) -> f64 {
        let sum = self.sums[1].max(1.0);
        let relative = (self.margin * (self.reward + (sum * top).next_up()).next_up()).next_up();
        (relative + self.underflow).next_up()
    }

    /// Bounds after `n` and after `n - 1` more steps from `x`, values within `error` of
    /// the exact ones, if the first are within the precision.
    #[allow(clippy::type_complexity)]
    fn jump(
        &self,
        m: &Form,
        sides: &Sides,
        rew: &[f64],
        x: &[f64],
        error: f64,
        n: u64,
    ) -> Option<(Vec<[f64; 2]>, Vec<[f64; 2]>)> {
        let c = x.iter().copied().fold(f64::INFINITY, fmin);
        let y: Vec<f64> = x.iter().map(|&v| v - c).collect();
        let top = y.iter().copied().fold(0.0, fmax);
        // `x - c` rounds by at most a unit of the result.
        let shifted = (error + (2.0 * UNIT * top).next_up()).next_up();
        let mut next = vec![0.0; y.len()];
        plain_step(m, sides, rew, &y, &mut next);
        let e = self.rounding(top);
        let (mut least, mut most) = (f64::INFINITY, f64::NEG_INFINITY);
        for (&a, &b) in next.iter().zip(&y) {
            least = fmin(least, a - b);
            most = fmax(most, a - b);
        }
        let least = (least.next_down() - e).next_down();
        let most = (most.next_up() + e).next_up();
        let end = self.bounds(&y, c, shifted, least, most, n);
        let close = end
            .iter()
            .all(|&[lo, hi]| midpoint(lo, hi).1 <= self.precision);
        close.then(|| (end, self.bounds(&y, c, shifted, least, most, n - 1)))
    }

    /// Bounds on the values `n` steps from `y + c` (within `error` of the exact values)
    /// when a step from `y` changes each value by between `least` and `most`.
    fn bounds(
        &self,
        y: &[f64],
        c: f64,
        error: f64,
        least: f64,
        most: f64,
        n: u64,
    ) -> Vec<[f64; 2]> {
        // Each later step's least change is at least `least` times the product of the
        // sums over the steps between (the smaller while it is positive, the larger
        // while negative); so for the greatest.
        let shrink = power_down(self.sums[0].min(1.0), n);
        let grow = power_up(self.sums[1].max(1.0), n);
        let (count_lo, count_hi) = count_outward(n);
        let gain_lo = if least >= 0.0 {
            ((least * shrink).next_down() * count_lo).next_down()
        } else {
            ((least * grow).next_down() * count_hi).next_down()
        };
        let gain_hi = if most >= 0.0 {
            ((most * grow).next_up() * count_hi).next_up()
        } else {
            ((most * shrink).next_up() * count_lo).next_up()
        };
        // The exact steps from the exact values stay within `error * sum^n` of those
        // from `y + c`, and those within `|c| * n * (sum - 1) * sum^n` of `c` plus those
        // from `y` (a step moves a constant by its rows' sums).
        let off = (self.sums[1] - 1.0).max(1.0 - self.sums[0]).next_up();
        let moved = ((c.abs() * off).next_up() * count_hi).next_up();
        let spread = ((error + moved).next_up() * grow).next_up();
        y.iter()
            .map(|&v| {
                let base = v + c;
                let lo = ((base.next_down() + gain_lo).next_down() - spread).next_down();
                let hi = ((base.next_up() + gain_hi).next_up() + spread).next_up();
                [lo.max(0.0), hi]
            })
            .collect()
    }
}

/// `k` steps over the open states from `start` (fewer when a step changes nothing, or
/// when `drift` bounds the rest within its precision).
#[allow(clippy::too_many_arguments)]
fn run(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    start: Vec<[f64; 2]>,
    k: u64,
    clamp: bool,
    drift: Option<&Drift>,
) -> Steps {
    if let Some(d) = drift {
        return plain(m, sides, rew, start, k, d);
    }
    let mut low = least_above_zero(&start);
    let mut cur = start;
    let mut prev = cur.clone();
    let mut taken = 0;
    while taken < k {
        let (changed, least) = step(m, sides, open, rew, &cur, &mut prev, clamp);
        std::mem::swap(&mut cur, &mut prev);
        taken += 1;
        // The last step's values are read too: by the choices' values.
        low = fmin(low, least);
        if !changed {
            break;
        }
    }
    Steps {
        cur,
        prev,
        taken,
        low,
    }
}

/// The steps of a [`Drift`] (every state steps, nothing clamped) on one value per state,
/// their rounding bounded as a whole: twice as few operations as carrying two bounds.
/// With `E` a bound on every state's distance from its exact value, a step adds at most
/// the rounding of its sums, `margin * (reward + sum * largest value)` (every term is at
/// least 0), to the distance it carries from the step before, at most `sum * E` (the
/// step is a best of averages). Values are at least 0, and those computed as 0 are
/// exact (a sum of terms at least 0 is 0 only when each is). Returns bounds as [`run`].
fn plain(m: &Form, sides: &Sides, rew: &[f64], start: Vec<[f64; 2]>, k: u64, d: &Drift) -> Steps {
    let sum = d.sums[1].max(1.0);
    // The start's distance from the exact start.
    let mut error = start
        .iter()
        .map(|&[lo, hi]| (midpoint(lo, hi).1 * lo.max(1.0)).next_up())
        .fold(0.0, fmax);
    let mut low = least_above_zero(&start);
    let mut cur: Vec<f64> = start.iter().map(|&[lo, hi]| midpoint(lo, hi).0).collect();
    let mut prev = cur.clone();
    let mut before = error;
    let mut taken = 0;
    // The largest value, which bounds the rounding of the next step's sums.
    let mut top = cur.iter().copied().fold(0.0, fmax);
    while taken < k {
        let rounding = d.rounding(top);
        let (changed, least);
        (changed, top, least) = plain_step(m, sides, rew, &cur, &mut prev);
        std::mem::swap(&mut cur, &mut prev);
        low = fmin(low, least);
        before = error;
        error = ((sum * error).next_up() + rounding).next_up();
        taken += 1;
        if !changed && taken < k {
            // Every later step would repeat this one while its bound on the error grew
            // by the rounding: the two bounds, which stop too, take the steps left.
            let open = vec![true; cur.len()];
            let from = bounds(m, &cur, error, low);
            let rest = run(m, sides, &open, rew, from, k - taken, false, None);
            return Steps {
                taken: taken + rest.taken,
                ..rest
            };
        }
        if Drift::due(taken, k) {
            if let Some((cur, prev)) = d.jump(m, sides, rew, &cur, error, k - taken) {
                return Steps {
                    cur,
                    prev,
                    taken,
                    low: f64::INFINITY,
                };
            }
        }
    }
    Steps {
        cur: bounds(m, &cur, error, low),
        prev: bounds(m, &prev, before, low),
        taken,
        // The errors cover what products below the normal range may lose.
        low: f64::INFINITY,
    }
}

/// Bounds from values within `error` of the exact ones; a value of 0 is exact unless a
/// product may have fallen below the normal range (the values read being at least
/// `low`).
fn bounds(m: &Form, x: &[f64], error: f64, low: f64) -> Vec<[f64; 2]> {
    let exact_zeros = !tiny(m, low);
    x.iter()
        .map(|&v| {
            if v == 0.0 && exact_zeros {
                [0.0, 0.0]
            } else {
                [(v - error).next_down().max(0.0), (v + error).next_up()]
            }
        })
        .collect()
}

/// One plain step of every state, from `cur` into `next`: whether anything changed, the
/// largest new value and the least above 0.
fn plain_step(m: &Form, sides: &Sides, rew: &[f64], cur: &[f64], next: &mut [f64]) -> Stepped {
    match (sides.mode(), rew.is_empty()) {
        (MAXIMISE, true) => plain_as::<false, MAXIMISE>(m, sides, rew, cur, next),
        (MAXIMISE, false) => plain_as::<true, MAXIMISE>(m, sides, rew, cur, next),
        (MINIMISE, true) => plain_as::<false, MINIMISE>(m, sides, rew, cur, next),
        (MINIMISE, false) => plain_as::<true, MINIMISE>(m, sides, rew, cur, next),
        (_, true) => plain_as::<false, EACH>(m, sides, rew, cur, next),
        (_, false) => plain_as::<true, EACH>(m, sides, rew, cur, next),
    }
}

/// Whether a plain step changed anything, its largest value and its least above 0.
type Stepped = (bool, f64, f64);

fn plain_as<const R: bool, const MODE: u8>(
    m: &Form,
    sides: &Sides,
    rew: &[f64],
    cur: &[f64],
    next: &mut [f64],
) -> Stepped {
    let block = |first: usize, out: &mut [f64]| {
        let (mut changed, mut top, mut low) = (false, 0.0f64, f64::INFINITY);
        for (i, slot) in out.iter_mut().enumerate() {
            let s = first + i;
            let v = fmax(
                bellman::plain::<R, MODE>(m, rew, &sides.maximise, s, cur),
                0.0,
            );
            changed |= v != cur[s];
            top = fmax(top, v);
            if v > 0.0 {
                low = fmin(low, v);
            }
            *slot = v;
        }
        (changed, top, low)
    };
    let merge = |a: Stepped, b: Stepped| (a.0 || b.0, fmax(a.1, b.1), fmin(a.2, b.2));
    if next.len() >= PARALLEL {
        next.par_chunks_mut(BLOCK)
            .enumerate()
            .map(|(b, out)| block(b * BLOCK, out))
            .reduce(|| (false, 0.0, f64::INFINITY), merge)
    } else {
        block(0, next)
    }
}

/// The answer of `k` steps from the bounds after them (`cur`) and one step before
/// (`prev`): the midpoints, the best first move, and the values the moves are judged by.
#[allow(clippy::too_many_arguments)]
fn finish(m: &Form, sides: &Sides, open: &[bool], rew: &[f64], steps: Steps, k: u64) -> Answer {
    let Steps {
        mut cur,
        mut prev,
        taken,
        low,
    } = steps;
    if tiny(m, low) {
        // Products below the normal range: their loss bounded absolutely, and no 0 exact.
        let lost = underflow(m, taken);
        for x in cur.iter_mut().chain(prev.iter_mut()) {
            *x = [(x[0] - lost).next_down().max(0.0), (x[1] + lost).next_up()];
        }
    }
    // The first move of the best strategy for k steps is best for the k - 1 steps left.
    let mut strategy = vec![0u32; m.states()];
    if k > 0 {
        let mid = |[l, h]: [f64; 2]| l + (h - l) / 2.0;
        for s in 0..m.states() {
            if !open[s] {
                continue;
            }
            let mut best: Option<(f64, usize)> = None;
            for (i, c) in m.choices_of(s).enumerate() {
                let v = mid(choice(m, c, rew, &prev));
                if best.is_none_or(|(b, _)| sides.at(s).better(v, b)) {
                    best = Some((v, i));
                }
            }
            strategy[s] = best.map_or(0, |(_, i)| i as u32);
        }
    }
    let mut error_bound: f64 = 0.0;
    let values = cur
        .iter()
        .map(|&[lo, hi]| {
            if lo == hi {
                lo
            } else if !hi.is_finite() {
                // A value beyond the range of `f64` (the exact one is finite): unknown.
                error_bound = f64::INFINITY;
                if lo.is_finite() {
                    lo
                } else {
                    f64::MAX
                }
            } else {
                let (mid, err) = midpoint(lo, hi);
                error_bound = error_bound.max(err);
                mid
            }
        })
        .collect();
    let pinned = cur.iter().map(|&[lo, hi]| lo == hi).collect();
    // With no step left (k = 0) no choice is made; otherwise the choices are judged by the
    // values of the steps left after them (those of the last step but one, or the fixed
    // point reached before).
    let before = if k == 0 {
        Vec::new()
    } else {
        prev.iter()
            .map(|&[lo, hi]| {
                let (mid, err) = midpoint(lo, hi);
                error_bound = error_bound.max(err);
                mid
            })
            .collect()
    };
    Answer {
        values,
        error_bound,
        strategy,
        sweeps: taken,
        pinned,
        before: Some(before),
    }
}

/// The value of staying in `open` for `k` steps and then being worth `start` (bounds
/// on each state's value), in `f64`: each step is a step over the open states, a state
/// outside `open` being worth its start value at the first step (it is reached after
/// the `k`-th) and 0 before (the path left `open` too early). `clamp` keeps
/// probabilities within [0, 1]. With every state open and no clamp, the steps may end
/// in a [`Drift`] jump within `precision`.
pub(crate) fn prefix(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    start: Vec<[f64; 2]>,
    k: u64,
    clamp: bool,
    precision: f64,
) -> Answer {
    if k == 0 {
        let steps = Steps {
            low: least_above_zero(&start),
            cur: start.clone(),
            prev: start,
            taken: 0,
        };
        return finish(m, sides, open, &[], steps, 0);
    }
    let mut first = run(m, sides, open, &[], start.clone(), 1, clamp, None);
    for (x, &o) in first.cur.iter_mut().zip(open) {
        if !o {
            *x = [0.0, 0.0];
        }
    }
    let drift = (!clamp && open.iter().all(|&o| o)).then(|| Drift::new(m, &[], precision));
    let rest = run(m, sides, open, &[], first.cur, k - 1, clamp, drift.as_ref());
    let steps = Steps {
        // After one step, the choices of the first are judged by the start values.
        prev: if k == 1 { start } else { rest.prev },
        taken: first.taken + rest.taken,
        low: fmin(first.low, rest.low),
        cur: rest.cur,
    };
    finish(m, sides, open, &[], steps, k)
}

/// [`prefix`] exactly.
pub(crate) fn prefix_exact(
    m: &Form,
    ex: &ExactProbs,
    sides: &Sides,
    open: &[bool],
    start: Vec<Exact>,
    k: u64,
) -> ExactAnswer {
    if k == 0 {
        return iterate_exact(m, ex, sides, open, None, start, 0);
    }
    let first = iterate_exact(m, ex, sides, open, None, start.clone(), 1);
    let cur: Vec<Exact> = first
        .values
        .into_iter()
        .zip(open)
        .map(|(v, &o)| {
            if o {
                v.unwrap_or_default()
            } else {
                Exact::zero()
            }
        })
        .collect();
    let mut answer = iterate_exact(m, ex, sides, open, None, cur, k - 1);
    if k == 1 {
        answer.before = Some(start.into_iter().map(Some).collect());
        answer.strategy = first.strategy;
    }
    answer
}

/// The probability of reaching `target` within `k` steps through `stay`, exactly.
pub(crate) fn until_exact(
    g: &Graph,
    ex: &ExactProbs,
    sides: &Sides,
    stay: &[bool],
    target: &[bool],
    k: u64,
) -> ExactAnswer {
    let n = g.states();
    let through: Vec<bool> = (0..n).map(|s| stay[s] && !target[s]).collect();
    let can = g.exists_reach(target, &through, |_, _| {});
    let open: Vec<bool> = (0..n).map(|s| through[s] && can[s]).collect();
    let start: Vec<Exact> = target
        .iter()
        .map(|&t| if t { Exact::one() } else { Exact::zero() })
        .collect();
    iterate_exact(g.m, ex, sides, &open, None, start, k)
}

/// The reward gathered in the first `k` steps, exactly.
pub(crate) fn cumulative_exact(
    g: &Graph,
    ex: &ExactProbs,
    sides: &Sides,
    rew: &[Exact],
    k: u64,
) -> ExactAnswer {
    let n = g.states();
    iterate_exact(
        g.m,
        ex,
        sides,
        &vec![true; n],
        Some(rew),
        vec![Exact::zero(); n],
        k,
    )
}

/// The `k` steps in integers: with `L` the least common multiple of the probabilities'
/// denominators and `R` that of the rewards' and the start values', the value after `j`
/// steps is an integer over `R * L^j`, and a step is `N'(s) = best of (r_c R) L^(j+1) +
/// sum of (p L) N(t)`:
/// no fraction is reduced until the end (reducing every sum, as rationals would, costs a
/// greatest common divisor each time and saves little: the denominators grow as `L^j`
/// all the same). All values of a step share the denominator, so choices are compared
/// as integers.
fn iterate_exact(
    m: &Form,
    ex: &ExactProbs,
    sides: &Sides,
    open: &[bool],
    rew: Option<&[Exact]>,
    start: Vec<Exact>,
    k: u64,
) -> ExactAnswer {
    let n = m.states();
    let l = ex
        .values
        .iter()
        .fold(BigInt::one(), |acc, p| acc.lcm(p.denom()));
    // `R` covers the start values' denominators too: they are scaled by it.
    let r = rew
        .unwrap_or(&[])
        .iter()
        .chain(&start)
        .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()));
    let scaled = |q: &Exact, by: &BigInt| -> BigInt { q.numer() * (by / q.denom()) };
    let probs: Vec<BigInt> = ex.values.iter().map(|p| scaled(p, &l)).collect();
    let rewards: Vec<BigInt> =
        rew.map_or_else(Vec::new, |rew| rew.iter().map(|v| scaled(v, &r)).collect());
    // The states that do not step keep their start value: scaled along.
    let fixed: Vec<BigInt> = start.iter().map(|v| scaled(v, &r)).collect();
    let mut cur: Vec<BigInt> = fixed.clone();
    let mut power = BigInt::one();
    // The values one step before `cur`, over their own power of `L`.
    let mut prev: (Vec<BigInt>, BigInt) = (cur.clone(), BigInt::one());
    let mut strategy = vec![0u32; n];
    let mut steps = 0;
    while steps < k {
        let next_power = &power * &l;
        let stepped: Vec<Option<(BigInt, u32)>> = (0..n)
            .into_par_iter()
            .with_min_len(BLOCK)
            .map(|s| {
                if !open[s] {
                    return None;
                }
                let mut best: Option<(BigInt, u32)> = None;
                for (i, c) in m.choices_of(s).enumerate() {
                    let mut v = match rewards.get(c) {
                        Some(rc) if !rc.is_zero() => rc * &next_power,
                        _ => BigInt::zero(),
                    };
                    for t in m.transitions_of(c) {
                        let x = &cur[m.to[t] as usize];
                        if !x.is_zero() {
                            v += &probs[ex.id[t] as usize] * x;
                        }
                    }
                    if best.as_ref().is_none_or(|(b, _)| sides.at(s).better(&v, b)) {
                        best = Some((v, i as u32));
                    }
                }
                best
            })
            .collect();
        let mut changed = false;
        let next: Vec<BigInt> = stepped
            .into_iter()
            .enumerate()
            .map(|(s, new)| match new {
                Some((v, i)) => {
                    changed |= v != &cur[s] * &l;
                    strategy[s] = i;
                    v
                }
                None => &fixed[s] * &next_power,
            })
            .collect();
        prev = (std::mem::replace(&mut cur, next), power);
        power = next_power;
        steps += 1;
        if !changed {
            break;
        }
    }
    let before = if k == 0 {
        Vec::new()
    } else {
        let denominator = &r * &prev.1;
        prev.0
            .into_iter()
            .map(|v| Some(Exact::new(v, denominator.clone())))
            .collect()
    };
    let denominator = r * power;
    ExactAnswer {
        values: cur
            .into_iter()
            .map(|v| Some(Exact::new(v, denominator.clone())))
            .collect(),
        strategy,
        before: Some(before),
    }
}
