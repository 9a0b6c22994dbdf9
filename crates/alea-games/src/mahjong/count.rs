//! The outer dynamic program: rank by rank, for each state of the hand automaton and
//! each number `k` of tiles drawn so far, the weight of the ways to draw them that lead
//! there without a win. Two weights share one loop:
//!
//! - counts modulo a prime: the number of `k`-subsets of the wall, from which the exact
//!   counts are rebuilt over several primes, and the judge's residue is summed;
//! - probabilities in `f64`: the count divided by the number of `k`-subsets of the tiles
//!   of the ranks read so far, which stays in [0, 1] where counts overflow.
//!
//! Only `k <= n + 5` matters: a set without a win has at most six ranks holding two
//! tiles or more (seven would be seven pairs), so at most `6 * 4 + (n - 6)` tiles, of
//! which 13 are the hand's. A count past that bound can only grow into a win, so it is
//! dropped as soon as it appears.

use alea_core::Automaton;

use super::recogniser::COPIES;

/// How many tiles a hand holds before drawing.
pub const HAND: usize = 13;

/// The hand automaton as the outer loop reads it.
pub struct Transitions {
    /// For each state and count, the next state, or `WON`.
    next: Vec<[u32; COPIES + 1]>,
}

/// The successor that holds a winning set.
const WON: u32 = u32::MAX;

impl Transitions {
    pub fn new(a: &Automaton) -> Transitions {
        let next = (0..a.states() as u32)
            .map(|s| {
                std::array::from_fn(|c| {
                    let t = a.step(s, c);
                    if a.accepting[t as usize] {
                        WON
                    } else {
                        t
                    }
                })
            })
            .collect();
        Transitions { next }
    }

    fn states(&self) -> usize {
        self.next.len()
    }
}

/// The most tiles that can be drawn without a win from a hand over `n` ranks: the
/// wall's size, or `n + 5` when that is smaller (see the module's comment).
pub fn draw_bound(hand: &[u8]) -> usize {
    let wall: usize = hand.iter().map(|&h| COPIES - usize::from(h)).sum();
    (hand.len() + 6 * (COPIES - 1))
        .saturating_sub(HAND)
        .min(wall)
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1, |b, i| b * (n - i) as u64 / (i as u64 + 1))
}

/// One weight of the outer loop, with its running sum.
trait Weight: Copy + Default + Send + Sync {
    type Sum: Copy + Default;
    fn add_product(sum: &mut Self::Sum, factor: Self, weight: Self);
}

impl Weight for u32 {
    /// Residues below 2^31 times factors of at most 6, summed over at most
    /// `states * 5` terms per cell: far below 2^64.
    type Sum = u64;
    #[inline(always)]
    fn add_product(sum: &mut u64, factor: u32, weight: u32) {
        *sum += u64::from(factor) * u64::from(weight);
    }
}

impl Weight for f64 {
    type Sum = f64;
    #[inline(always)]
    fn add_product(sum: &mut f64, factor: f64, weight: f64) {
        *sum += factor * weight;
    }
}

/// The loop itself. `hand[r]` is the hand's count of rank `r`; `factors(r, t, row)`
/// fills, for each `k`, the factor of drawing `t` more tiles of rank `r` after `k`
/// tiles of the earlier ranks; `settle` turns a sum back into a weight. Returns, for
/// each `k`, the weights of the states without a win, settled.
#[inline(always)]
fn run<W: Weight>(
    transitions: &Transitions,
    hand: &[u8],
    start: W,
    factors: impl Fn(usize, usize, &mut [W]),
    settle: impl Fn(W::Sum) -> W,
) -> Vec<W> {
    let len = draw_bound(hand) + 1;
    let states = transitions.states();
    let mut weight = vec![W::default(); states * len];
    let mut sum = vec![W::Sum::default(); states * len];
    // The highest `k` with a weight, per state; -1 for none.
    let mut high = vec![-1i64; states];
    let mut next_high = vec![-1i64; states];
    let mut factor = vec![W::default(); len];
    weight[0] = start;
    high[0] = 0;
    let mut active: Vec<usize> = vec![0];
    for (r, &held) in hand.iter().enumerate() {
        let held = usize::from(held);
        for t in 0..=COPIES - held {
            factors(r, t, &mut factor);
            for &s in &active {
                let to = transitions.next[s][held + t];
                if to == WON {
                    continue;
                }
                let to = to as usize;
                let top = (high[s] as usize + t).min(len - 1);
                if top < t {
                    continue;
                }
                next_high[to] = next_high[to].max(top as i64);
                let src = &weight[s * len..s * len + top - t + 1];
                let dst = &mut sum[to * len + t..to * len + top + 1];
                for ((d, &w), &f) in dst.iter_mut().zip(src).zip(&factor[..top - t + 1]) {
                    W::add_product(d, f, w);
                }
            }
        }
        active.clear();
        for s in 0..states {
            high[s] = next_high[s];
            next_high[s] = -1;
            if high[s] >= 0 {
                active.push(s);
                let row = s * len..s * len + high[s] as usize + 1;
                for (w, d) in weight[row.clone()].iter_mut().zip(&mut sum[row]) {
                    *w = settle(*d);
                    *d = W::Sum::default();
                }
            }
        }
    }
    let mut total = vec![W::Sum::default(); len];
    for &s in &active {
        for (k, &w) in weight[s * len..s * len + high[s] as usize + 1]
            .iter()
            .enumerate()
        {
            W::add_product(&mut total[k], start, w);
        }
    }
    total.into_iter().map(settle).collect()
}

/// For each `k` from 0 to [`draw_bound`], the number of `k`-subsets of the wall that
/// leave the hand without a win, modulo the prime `q` (below 2^31). Compiled for the
/// vector units this processor has.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq", "x86_64+avx2"))]
pub fn not_won_mod(transitions: &Transitions, hand: &[u8], q: u32) -> Vec<u32> {
    let q64 = u64::from(q);
    run(
        transitions,
        hand,
        1u32,
        |r, t, row| {
            let ways = binomial(COPIES - usize::from(hand[r]), t) as u32;
            row.fill(ways);
        },
        |s| (s % q64) as u32,
    )
}

/// For each `k` from 0 to [`draw_bound`], the probability that `k` tiles drawn from
/// the wall leave the hand without a win. Compiled for the vector units this
/// processor has.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn not_won_f64(transitions: &Transitions, hand: &[u8]) -> Vec<f64> {
    // Tiles of the wall among the ranks before each rank.
    let before: Vec<usize> = hand
        .iter()
        .scan(0, |seen, &h| {
            let b = *seen;
            *seen += COPIES - usize::from(h);
            Some(b)
        })
        .collect();
    run(
        transitions,
        hand,
        1.0f64,
        |r, t, row| {
            // C(b, k) C(m, t) / C(b + m, k + t): the chance that k + t tiles drawn from
            // the first b + m hold exactly t of the last m. Products of at most four
            // small integers each, so exact before the division.
            let (b, m) = (before[r], COPIES - usize::from(hand[r]));
            let ways = binomial(m, t) as f64;
            let all: f64 = (1..=m).map(|j| (b + j) as f64).product();
            for (k, f) in row.iter_mut().enumerate() {
                if k > b {
                    *f = 0.0;
                    continue;
                }
                let up: f64 = (1..=t).map(|j| (k + j) as f64).product();
                let down: f64 = (1..=m - t).map(|j| (b - k + j) as f64).product();
                *f = ways * up * down / all;
            }
        },
        |s| s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_plain_builds_count_the_same() {
        // `run` called here is compiled for the baseline processor; `not_won_mod` and
        // `not_won_f64` run the build for the vector units this one has.
        use super::super::recogniser::Hands;
        use alea_core::{Automaton, Limits};
        let a = Automaton::explore(&Hands, &Limits::default())
            .unwrap()
            .minimise();
        let t = Transitions::new(&a);
        let mut counts = [0u8; 36];
        for r in [0, 1, 2, 4, 4, 8, 8, 8, 11, 19, 19, 29, 29] {
            counts[r] += 1;
        }
        let hand = &counts[..];
        let q = 998_244_353u32;
        let plain = run(
            &t,
            hand,
            1u32,
            |r, k, row| row.fill(binomial(COPIES - usize::from(hand[r]), k) as u32),
            |s| (s % u64::from(q)) as u32,
        );
        assert_eq!(plain, not_won_mod(&t, hand, q));
        let floats = not_won_f64(&t, hand);
        assert!(floats[0] == 1.0 && floats.iter().all(|p| (0.0..=1.0).contains(p)));
    }

    #[test]
    fn small_binomials() {
        assert_eq!(binomial(4, 2), 6);
        assert_eq!(binomial(3, 0), 1);
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(4, 4), 1);
    }
}
