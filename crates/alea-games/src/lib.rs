//! The games alea knows. Each game is a folder with its rules, its judge-format parser
//! (with precise errors), its model for the engine, and its analyses. Nothing here
//! prints: the command line decides how results are shown.

pub mod dice;
pub mod jenga;
pub mod mahjong;
pub mod patience;
pub mod pig;
pub mod snakes;
pub mod text;
pub mod yahtzee;

pub use text::ParseError;
