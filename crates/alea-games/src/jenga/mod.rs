//! Colored Jenga: a die says which colour of block to take out of the tower and put on
//! top; how many minutes, at best, until no block can be taken?

pub mod kernel;
pub mod model;
pub mod state;
pub mod tower;

pub use kernel::{Kernel, Stop};
pub use model::{advise, solve_tower, Advice, EngineStop, Jenga, Solved};
pub use state::ALWAYS_FITS;
pub use tower::{parse_tower, Tower, COLOURS, FACES, MAX_LEVELS, SLOTS, WEIGHTS};
