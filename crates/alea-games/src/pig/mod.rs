//! Two-player Pig: throw a die until you hold or throw a 1; the first to the goal wins.
//! The exact chance of winning under best play, the best decision at every position,
//! and the best answer to a fixed "hold at h" opponent.

pub mod certify;
pub mod kernel;
pub mod model;
pub mod rules;

pub use certify::{certify, certify_against, Bounds, Certificate};
pub use kernel::{
    against, exact_words, solve, solve_within, Against, HoldSet, Options, OverBudget, Policy,
    Shape, Solved,
};
pub use model::Pig;
pub use rules::{Die, RuleError, Rules, MAX_FACES, MAX_GOAL};
