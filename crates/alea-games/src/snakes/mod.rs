//! Snakes and Ladders for one player: spin, move, climb the ladders, slide down the
//! snakes, until the last square; how many spins does it take on average?

pub mod analysis;
pub mod distribution;
pub mod model;
pub mod parse;
pub mod rules;

pub use analysis::{analyse, Analysis, AnalysisError, Asked, LimitError, PLACES};
pub use distribution::finished_within;
pub use model::{exact_work, expected_spins, SnakesModel, SolveError};
pub use parse::{parse_board, squares_position};
pub use rules::{
    check, Board, BoardError, End, GameError, Link, Overshoot, Piece, Rules, MAX_SPINNER,
    MAX_SQUARES, MIN_SPINNER, MIN_SQUARES,
};
