//! The alea engine. It knows no game and no language: every front end (the command line,
//! the web coach, Python, the cluster) brings its model here in one explicit form, and
//! one family of solvers answers it, exactly or with certified bounds.
//!
//! The layers, from the bottom:
//! - [`numeric`]: the arithmetic (`f64`, exact rationals, residues modulo a prime), sound
//!   rounding, the stop rule of iterations, exact linear solves.
//! - [`form`]: the explicit form (states, choices and transitions in compressed rows, two
//!   players), built from a model file or explored from a game's callbacks.
//! - [`analysis`]: graph facts before any number: components, end components, the states
//!   whose value the graph decides.
//! - [`solve`]: the solvers: topological for acyclic parts, interval iteration per
//!   component with certified bounds, exact strategy iteration; step-bounded questions;
//!   games described by callbacks ([`Model`]).
//! - [`policy`]: every option of a position with its value and loss; the best line.
//! - [`simulate`](mod@simulate): seeded Monte Carlo play with a 95% interval.
//! - [`automaton`]: the reachable states of an inner dynamic program as a deterministic
//!   automaton, minimised.
//!
//! Around them: [`model`] (a game as callbacks), [`solution`] (the values of a game's
//! states), [`guard`] (resource limits and the stop flag), [`error`].

pub mod analysis;
pub mod automaton;
pub mod error;
pub mod form;
pub mod guard;
pub mod ltl;
pub mod model;
pub mod multi;
pub mod numeric;
pub mod policy;
pub mod simulate;
pub mod solution;
pub mod solve;

pub use automaton::{Automaton, Recogniser};
pub use error::{Error, Result};
pub use guard::{Limits, Stop};
pub use model::{Edge, Expansion, Kind, Model, Pick};
pub use numeric::field::{crt, primes_below_2_31, Fp, ModP, JUDGE_PRIME};
pub use numeric::value::{decimal, fraction, Exact, Value};
pub use policy::{best_line, options, Scored};
pub use simulate::{simulate, Estimate, Player};
pub use solution::Solution;
pub use solve::acyclic::{solve, Workspace};
pub use solve::game::{solve_certified, solve_exact, solve_game, Certified, Settings, Solvable};
pub use solve::Goal;
