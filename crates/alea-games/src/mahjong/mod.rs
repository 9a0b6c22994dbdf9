//! Mahjong in one suit: from a 13-tile hand, the expected number of tiles drawn from a
//! shuffled wall until the hand holds a winning set, modulo the judge's prime, exactly,
//! and in floating point.
//!
//! `E = sum over i >= 0 of P(the first i draws do not yet win)`, and the first `i`
//! draws are a uniform `i`-subset of the wall, so it is enough to count the subsets of
//! each size that leave the hand without a win: the outer loop of [`count`], over the
//! states of the minimised automaton of the recogniser of winning sets ([`recogniser`]).

pub mod count;
pub mod parse;
pub mod recogniser;

use num_bigint::BigUint;
use num_rational::BigRational;
use rayon::prelude::*;

use alea_core::{crt, primes_below_2_31, Automaton, Limits, ModP, Value, JUDGE_PRIME};

pub use count::{draw_bound, HAND};
pub use parse::{parse_hand, Hand, MAX_RANKS, MIN_RANKS};
pub use recogniser::{Hands, Reading};

use count::{not_won_f64, not_won_mod, Transitions};

/// The hand automaton, built once for every hand.
pub struct Solver {
    /// States of the recogniser reachable from the empty hand.
    pub explored_states: usize,
    /// States once minimised.
    pub minimal_states: usize,
    transitions: Transitions,
}

impl Solver {
    pub fn new() -> Solver {
        let explored =
            Automaton::explore(&Hands, &Limits::default()).expect("the recogniser is finite");
        let minimal = explored.minimise();
        Solver {
            explored_states: explored.states(),
            minimal_states: minimal.states(),
            transitions: Transitions::new(&minimal),
        }
    }

    /// The expected number of draws modulo 998244353, as the judge asks.
    pub fn expected_mod_p(&self, hand: &Hand) -> ModP {
        let counts = not_won_mod(&self.transitions, &hand.counts, JUDGE_PRIME);
        let wall = hand.wall();
        // N_k / C(wall, k) = N_k k! (wall - k)! / wall!, and wall < p.
        let factorial: Vec<ModP> = (0..=wall as i64)
            .scan(ModP::one(), |f, i| {
                if i > 0 {
                    *f = f.mul(&ModP::from_int(i));
                }
                Some(*f)
            })
            .collect();
        let sum = counts
            .iter()
            .enumerate()
            .fold(ModP::zero(), |sum, (k, &n)| {
                let term = ModP::from_int(i64::from(n))
                    .mul(&factorial[k])
                    .mul(&factorial[wall - k]);
                sum.add(&term)
            });
        sum.div(&factorial[wall])
    }

    /// How many primes [`Solver::not_won_counts`] works modulo: enough for their
    /// product to exceed every count, which is at most C(wall, k).
    pub fn primes_needed(hand: &Hand) -> usize {
        let bits = (0..=draw_bound(&hand.counts))
            .map(|k| log2_binomial(hand.wall(), k))
            .fold(0.0, f64::max);
        // Primes above 2^30 give 30 bits each; one more covers rounding.
        (bits / 30.0).ceil() as usize + 1
    }

    /// For each `k`, the exact number of `k`-subsets of the wall that leave the hand
    /// without a win, rebuilt from its residues modulo enough primes. `tick` is called
    /// as each prime is done.
    pub fn not_won_counts(&self, hand: &Hand, tick: &(dyn Fn() + Sync)) -> Vec<BigUint> {
        let bound = draw_bound(&hand.counts);
        let primes = primes_below_2_31(Solver::primes_needed(hand));
        let residues: Vec<Vec<u32>> = primes
            .par_iter()
            .map(|&q| {
                let r = not_won_mod(&self.transitions, &hand.counts, q);
                tick();
                r
            })
            .collect();
        (0..=bound)
            .map(|k| {
                let r: Vec<u32> = residues.iter().map(|r| r[k]).collect();
                crt(&r, &primes)
            })
            .collect()
    }

    /// The expected number of draws as a reduced fraction.
    pub fn expected_exact(&self, hand: &Hand) -> BigRational {
        self.expected_exact_with_progress(hand, &|| {})
    }

    /// [`Solver::expected_exact`], calling `tick` as each of the
    /// [`Solver::primes_needed`] primes is done.
    pub fn expected_exact_with_progress(
        &self,
        hand: &Hand,
        tick: &(dyn Fn() + Sync),
    ) -> BigRational {
        let wall = hand.wall();
        let factorial: Vec<BigUint> = (0..=wall)
            .scan(BigUint::from(1u32), |f, i| {
                if i > 0 {
                    *f *= i;
                }
                Some(f.clone())
            })
            .collect();
        let numerator: BigUint = self
            .not_won_counts(hand, tick)
            .iter()
            .enumerate()
            .map(|(k, n)| n * &factorial[k] * &factorial[wall - k])
            .sum();
        BigRational::new(numerator.into(), factorial[wall].clone().into())
    }

    /// For `i` from 0 to the wall's size, the probability that the first `i` draws do
    /// not yet win; its sum is the expectation. Rounding may leave a value a few units
    /// in the last place above 1 or above the one before: such values are brought
    /// back, so that the list stays in [0, 1] and never grows, as probabilities of
    /// waiting do.
    pub fn p_not_won(&self, hand: &Hand) -> Vec<f64> {
        let mut p = not_won_f64(&self.transitions, &hand.counts);
        p.resize(hand.wall() + 1, 0.0);
        let mut ceiling = 1.0f64;
        for x in &mut p {
            *x = x.clamp(0.0, ceiling);
            ceiling = *x;
        }
        p
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// `log2 C(n, k)`, from a sum of logarithms.
fn log2_binomial(n: usize, k: usize) -> f64 {
    (1..=k)
        .map(|j| ((n - k + j) as f64 / j as f64).log2())
        .sum()
}
