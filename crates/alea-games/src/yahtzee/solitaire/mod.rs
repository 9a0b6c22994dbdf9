//! Solitaire Yahtzee, the whole game: thirteen turns of up to three rolls, solved for
//! the largest expected score.

pub mod advise;
pub mod dice;
pub mod distribution;
pub mod file;
pub mod play;
pub mod rules;
pub mod service;
pub mod simulate;
pub mod solve;
pub mod turn;

pub use advise::{advise, parse_dice, Advice, AdviceError, Card, Choice, Opt};
pub use dice::Dice;
pub use distribution::{
    exact_score, exact_scores, parse_targets, wilson, Bin, Distribution, ExactScore, EXACT_MAX_OPEN,
};
pub use file::{file_len, read_table, starts_like_a_table, ReadError, TableError};
pub use play::{BoxChoice, Player};
pub use rules::{Rules, BOXES};
pub use service::{
    check_games, check_room, plays_games, score_distribution, FullCard, Kept, TooManyGames,
};
pub use simulate::{
    game_dice, simulate, simulate_from, simulate_range, simulate_with, Book, Scores, Start,
    BLOCK_GAMES,
};
pub use solve::{solve, solve_with_progress, Moments, Position, Table};
