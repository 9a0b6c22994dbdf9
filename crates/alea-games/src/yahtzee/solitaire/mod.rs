//! Solitaire Yahtzee, the whole game: thirteen turns of up to three rolls, solved for
//! the largest expected score.

pub mod dice;
pub mod rules;
pub mod solve;
pub mod turn;

pub use dice::Dice;
pub use rules::{Rules, BOXES};
pub use solve::{solve, Moments, Position, Table};
