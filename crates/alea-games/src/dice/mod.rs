//! The One Person Game: throw dice, add their sum to a counter unless they show a reset
//! combination, until the counter exceeds a limit; how many throws does it take?

pub mod analysis;
pub mod distribution;
pub mod kernel;
pub mod model;
pub mod parse;
pub mod rules;

pub use analysis::{analyse, check_limits, Answer, Asked, Beyond, Guard, LimitError, PLACES};
pub use distribution::over_within;
pub use kernel::{expected_throws, expected_throws_exact, Expectation};
pub use model::{solve_expected, DiceModel, OVER};
pub use parse::parse_cases;
pub use rules::{Game, RuleError, Throw, MAX_DICE, MAX_FACES, MIN_FACES};
