//! The one explicit form every solver works on: the states numbered densely, each state's
//! choices in one compressed row and each choice's transitions in another, with their
//! probabilities in `f64` and, when the model has them, exactly.
//!
//! Every front end arrives here: a model file is built into a form, a game described by
//! callbacks is explored into one ([`explore`](mod@explore)), and the cluster sweeps its
//! share of one. A state with one choice is chance's; a state with several belongs to
//! one of two players: the first optimises towards the question's goal, the second
//! (a two-player game) against it.

pub mod build;
pub mod explore;

use std::sync::OnceLock;

use num_bigint::BigInt;
use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::numeric::value::{Exact, Value};

pub use build::{Builder, Node};
pub use explore::{explore, Explored};

/// A Markov decision process, or a turn-based two-player stochastic game, with states
/// `0..n`.
///
/// State `s` has choices `choices[s]..choices[s + 1]` (at least one each); choice `c` has
/// transitions `row[c]..row[c + 1]` into `to` and `prob`; the probabilities of a choice add
/// up to 1 (within rounding; exactly in `exact`).
#[derive(Clone, Debug, Default)]
pub struct Form {
    pub choices: Vec<usize>,
    pub row: Vec<usize>,
    pub to: Vec<u32>,
    pub prob: Vec<f64>,
    /// The exact probabilities, when the model has them: transition `t` has probability
    /// `exact.values[exact.id[t]]` (few distinct probabilities in most models).
    pub exact: Option<ExactProbs>,
    /// In a form built from whole weights (a game described node by node), each
    /// transition's weight; empty otherwise.
    pub weights: Weights,
    /// The initial states.
    pub initial: Vec<u32>,
    /// The states whose choices the second player makes, against the goal; empty when
    /// the first player makes every choice (a Markov decision process or chain).
    pub opponent: Vec<bool>,
}

/// Each transition's whole weight: its exact probability is its weight over its
/// choice's total, derived when first asked for (a game solved in `f64` never needs it).
#[derive(Clone, Debug, Default)]
pub struct Weights {
    pub values: Vec<u64>,
    derived: OnceLock<ExactProbs>,
}

/// Exact probabilities, interned.
#[derive(Clone, Debug, Default)]
pub struct ExactProbs {
    pub values: Vec<Exact>,
    pub id: Vec<u32>,
}

/// Rewards gathered on leaving a state: the state's own and the chosen choice's. Either
/// vector may be empty (no such rewards); otherwise `state` has one entry per state and
/// `choice` one per choice.
#[derive(Clone, Debug, Default)]
pub struct Rewards<T = f64> {
    pub state: Vec<T>,
    pub choice: Vec<T>,
}

/// Rewards in exact rationals.
pub type ExactRewards = Rewards<Exact>;

impl<T: Value> Rewards<T> {
    /// The reward of taking choice `c` in state `s`: the state's and the choice's.
    #[inline]
    pub fn of(&self, s: usize, c: usize) -> T {
        let zero = T::zero();
        self.state
            .get(s)
            .unwrap_or(&zero)
            .add(self.choice.get(c).unwrap_or(&zero))
    }
}

impl Form {
    pub fn states(&self) -> usize {
        self.choices.len().saturating_sub(1)
    }

    pub fn transitions(&self) -> usize {
        self.to.len()
    }

    pub fn choice_count(&self) -> usize {
        self.row.len().saturating_sub(1)
    }

    /// The choices of state `s`, as a range of choice indices.
    #[inline]
    pub fn choices_of(&self, s: usize) -> std::ops::Range<usize> {
        self.choices[s]..self.choices[s + 1]
    }

    /// The transitions of choice `c`, as a range of transition indices.
    #[inline]
    pub fn transitions_of(&self, c: usize) -> std::ops::Range<usize> {
        self.row[c]..self.row[c + 1]
    }

    /// Whether a choice of state `s` may move back to `s`.
    pub fn loops(&self, s: usize) -> bool {
        let s32 = s as u32;
        self.choices_of(s)
            .any(|c| self.to[self.transitions_of(c)].contains(&s32))
    }

    /// The exact probabilities, or the error that says the model has none.
    pub fn exact_probs(&self) -> Result<&ExactProbs> {
        let ex = match &self.exact {
            Some(ex) => ex,
            None if self.weights.values.len() == self.to.len() => {
                self.weights.derived.get_or_init(|| self.weighed())
            }
            None => return Err(Error::NotExact),
        };
        assert_eq!(
            ex.id.len(),
            self.to.len(),
            "one exact probability per transition"
        );
        Ok(ex)
    }

    /// The exact probabilities of the weights, interned by weight and total (a
    /// probability met as two fractions is interned twice, the same value: cheaper than
    /// reducing every fraction met).
    fn weighed(&self) -> ExactProbs {
        let mut interned: FxHashMap<(u64, u64), u32> = FxHashMap::default();
        let mut values = Vec::new();
        let mut id = Vec::with_capacity(self.to.len());
        for c in 0..self.choice_count() {
            let weights = &self.weights.values[self.transitions_of(c)];
            let total = weights.iter().sum::<u64>();
            for &w in weights {
                id.push(*interned.entry((w, total)).or_insert_with(|| {
                    values.push(Exact::new(BigInt::from(w), BigInt::from(total)));
                    (values.len() - 1) as u32
                }));
            }
        }
        ExactProbs { values, id }
    }

    /// Panics unless the arrays fit together: a form is built by the engine's own code,
    /// so a malformed one is a bug, not bad input.
    pub(crate) fn check(&self) {
        let n = self.states();
        assert!(n < (1 << 30), "a form has fewer than 2^30 states");
        assert!(
            self.choices.is_empty() || self.choices[0] == 0,
            "the first state's choices start at 0"
        );
        assert!(
            (0..n).all(|s| self.choices[s] < self.choices[s + 1]),
            "every state has a choice"
        );
        assert_eq!(
            self.choices.last().copied().unwrap_or(0),
            self.choice_count(),
            "the last state's choices end with the choices"
        );
        assert!(
            self.row.is_empty() || self.row[0] == 0,
            "the first choice's transitions start at 0"
        );
        assert_eq!(
            self.row.last().copied().unwrap_or(0),
            self.to.len(),
            "the last choice's transitions end with the transitions"
        );
        assert_eq!(
            self.prob.len(),
            self.to.len(),
            "one probability per transition"
        );
        assert!(
            self.weights.values.is_empty() || self.weights.values.len() == self.to.len(),
            "weights: none, or one per transition"
        );
        assert!(
            self.to.iter().all(|&t| (t as usize) < n),
            "every transition leads to a state"
        );
        assert!(
            self.opponent.is_empty() || self.opponent.len() == n,
            "the second player's states: none, or a flag per state"
        );
    }
}
