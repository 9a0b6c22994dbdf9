//! The judge's Yahtzee: assign each of thirteen rounds of five dice to one of thirteen
//! categories, each used once, for the largest total.

pub mod assign;
pub mod parse;
pub mod score;
pub mod solitaire;

pub use assign::{best_assignment, best_total_by_table, bonus_for, Assignment};
pub use parse::{parse_games, Game, ROUNDS};
pub use score::{score, Round, BONUS, BONUS_AT, CATEGORIES, UPPER};
