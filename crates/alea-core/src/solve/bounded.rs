//! Properties within a number of steps: the probability of `stay U<=k target` and the
//! reward gathered in the first `k` steps, by `k` applications of the Bellman operator
//! (Jacobi: each step reads only the previous step's values, as the step count demands).
//!
//! Certification in `f64`: a lower and an upper iterate are carried together, each
//! choice's sums moved outward by a relative margin covering their rounding (and a unit
//! of error in each stored probability), so the two iterates bound the exact k-step
//! values whatever the rounding; the answer is their midpoint and the bound half their
//! distance. Exactly: the same steps in integers over a common denominator.
//!
//! Both stop early when a step changes nothing: every later step would repeat it. Large
//! models are stepped in parallel, over fixed blocks of states, so the result does not
//! depend on the number of threads.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use rayon::prelude::*;

use super::{Answer, ExactAnswer, Sides};
use crate::analysis::graph::Graph;
use crate::form::{ExactProbs, Form};
use crate::numeric::round::{margin, midpoint};
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
    iterate(g.m, sides, &open, &[], start, k, true)
}

/// The reward gathered in the first `k` steps, in `f64`.
pub(crate) fn cumulative(g: &Graph, sides: &Sides, rew: &[f64], k: u64) -> Answer {
    let n = g.states();
    iterate(
        g.m,
        sides,
        &vec![true; n],
        rew,
        vec![[0.0, 0.0]; n],
        k,
        false,
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

/// The new bounds of state `s` from `x`.
#[inline(always)]
fn state(m: &Form, sides: &Sides, s: usize, rew: &[f64], x: &[[f64; 2]], clamp: bool) -> [f64; 2] {
    let mut best: Option<[f64; 2]> = None;
    for c in m.choices_of(s) {
        let v = choice(m, c, rew, x);
        best = Some(best.map_or(v, |b| sides.at(s).best_of(b, v)));
    }
    let [lo, hi] = best.expect("every state has a choice");
    if clamp {
        [lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0)]
    } else {
        [lo.max(0.0), hi]
    }
}

/// One step over the open states, from `cur` into `next`; whether anything changed.
fn step(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    cur: &[[f64; 2]],
    next: &mut [[f64; 2]],
    clamp: bool,
) -> bool {
    let block = |first: usize, out: &mut [[f64; 2]]| {
        let mut changed = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let s = first + i;
            if open[s] {
                let v = state(m, sides, s, rew, cur, clamp);
                changed |= v != cur[s];
                *slot = v;
            }
        }
        changed
    };
    if next.len() >= PARALLEL {
        next.par_chunks_mut(BLOCK)
            .enumerate()
            .map(|(b, out)| block(b * BLOCK, out))
            .reduce(|| false, |a, b| a || b)
    } else {
        block(0, next)
    }
}

fn iterate(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    start: Vec<[f64; 2]>,
    k: u64,
    clamp: bool,
) -> Answer {
    let (cur, prev, steps) = run(m, sides, open, rew, start, k, clamp);
    finish(m, sides, open, rew, cur, prev, steps, k)
}

/// `k` steps over the open states from `start` (fewer when a step changes nothing):
/// the bounds after the last step, those one step before, and the steps taken.
fn run(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    start: Vec<[f64; 2]>,
    k: u64,
    clamp: bool,
) -> (Vec<[f64; 2]>, Vec<[f64; 2]>, u64) {
    let mut cur = start;
    let mut prev = cur.clone();
    let mut steps = 0;
    while steps < k {
        let changed = step(m, sides, open, rew, &cur, &mut prev, clamp);
        std::mem::swap(&mut cur, &mut prev);
        steps += 1;
        if !changed {
            break;
        }
    }
    (cur, prev, steps)
}

/// The answer of `k` steps from the bounds after them (`cur`) and one step before
/// (`prev`): the midpoints, the best first move, and the values the moves are judged by.
#[allow(clippy::too_many_arguments)]
fn finish(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    rew: &[f64],
    cur: Vec<[f64; 2]>,
    prev: Vec<[f64; 2]>,
    steps: u64,
    k: u64,
) -> Answer {
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
        sweeps: steps,
        pinned,
        before: Some(before),
    }
}

/// The value of staying in `open` for `k` steps and then being worth `start` (bounds
/// on each state's value), in `f64`: each step is a step over the open states, a state
/// outside `open` being worth its start value at the first step (it is reached after
/// the `k`-th) and 0 before (the path left `open` too early). `clamp` keeps
/// probabilities within [0, 1].
pub(crate) fn prefix(
    m: &Form,
    sides: &Sides,
    open: &[bool],
    start: Vec<[f64; 2]>,
    k: u64,
    clamp: bool,
) -> Answer {
    if k == 0 {
        return finish(m, sides, open, &[], start.clone(), start, 0, 0);
    }
    let (mut cur, _, first) = run(m, sides, open, &[], start.clone(), 1, clamp);
    for (x, &o) in cur.iter_mut().zip(open) {
        if !o {
            *x = [0.0, 0.0];
        }
    }
    let (cur, prev, steps) = run(m, sides, open, &[], cur, k - 1, clamp);
    // After one step, the choices of the first are judged by the start values.
    let prev = if k == 1 { start } else { prev };
    finish(m, sides, open, &[], cur, prev, first + steps, k)
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
