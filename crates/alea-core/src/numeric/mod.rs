//! The numbers: arithmetic backends as a type parameter (`f64`, exact rationals, residues
//! modulo a prime), sound rounding of `f64` bounds and the rule that stops their
//! iteration, and the exact solution of linear systems (elimination in rationals, or
//! modulo word-sized primes with an exact check).

pub mod elim;
pub mod field;
pub mod modular;
pub mod rational;
pub mod round;
pub mod settle;
pub mod simplex;
pub mod value;
