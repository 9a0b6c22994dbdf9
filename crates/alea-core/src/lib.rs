//! The alea engine. It knows no game: a game is a [`Model`] (states, and for each state
//! a terminal, chance or choice node), and the engine evaluates it exactly or in floating
//! point, reads best play off the result, and simulates it.
//!
//! - [`acyclic::solve`]: memoised depth-first evaluation with an explicit stack.
//! - [`layered::solve_layered`]: layer-by-layer evaluation in parallel.
//! - [`cyclic::solve_cyclic`]: exact solution of cycles through chance nodes.
//! - [`stochastic`]: Markov decision processes and two-player stochastic games, cycles
//!   through choices included: certified bounds in `f64`, proven exact values.
//! - [`policy`]: every option of a position with its value and loss; the best line.
//! - [`simulate`](mod@simulate): seeded Monte Carlo play with a 95% interval.
//! - [`value`]: the arithmetic backends (`f64`, exact rationals); [`field`]: residues
//!   modulo a prime.
//! - [`automaton`]: the reachable states of an inner dynamic program as a deterministic
//!   automaton, minimised.

pub mod acyclic;
pub mod automaton;
pub mod cyclic;
pub mod error;
pub mod field;
pub mod layered;
pub mod model;
pub mod policy;
pub mod simulate;
pub mod solution;
pub mod sparse;
pub mod stochastic;
pub mod value;

pub use acyclic::{solve, Limits, Workspace};
pub use automaton::{Automaton, Recogniser};
pub use cyclic::solve_cyclic;
pub use error::{Error, Result};
pub use field::{crt, primes_below_2_31, Fp, ModP, JUDGE_PRIME};
pub use layered::solve_layered;
pub use model::{Edge, Expansion, Kind, Model, Pick};
pub use policy::{best_line, options, Goal, Scored};
pub use simulate::{simulate, Estimate, Player};
pub use solution::Solution;
pub use stochastic::{solve_certified, solve_exact, Certified, Settings};
pub use value::{decimal, fraction, Exact, Value};
