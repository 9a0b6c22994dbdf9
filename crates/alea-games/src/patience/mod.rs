//! Double Patience: nine piles of four cards; a move removes the top cards of two piles
//! of the same rank; the table must be cleared.

pub mod analysis;
pub mod card;
pub mod deal;
pub mod fixed;
pub mod kernel;
pub mod model;
pub mod stats;

pub use analysis::{
    analyse, hints, random_play, random_play_in, replays_to_empty, winning_line, Analysis, Move,
    MoveHint,
};
pub use card::Card;
pub use deal::{judge_tableaus, parse_deals, parse_deals_in, Deal, Layout, PILES, PILE_CARDS};
pub use fixed::push_fixed6_line;
pub use kernel::{Kernel, Tableau};
pub use model::{Patience, Player};
pub use stats::{
    random_deals, random_play_all, random_play_tableaus, solve_block, stats, Block, DealBlocks,
    DealFigures, RandomDeals, Stats, Sums, BINS, BLOCK_DEALS,
};
