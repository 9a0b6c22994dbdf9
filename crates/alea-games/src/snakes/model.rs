//! Snakes and Ladders as an engine model, and the one function that solves it.
//!
//! The state is the square of the counter (0 to N); a spin is a chance node that costs
//! one spin, with one unit of weight per face of the spinner; the last square is
//! terminal. Snakes, and bounces off the end, make the states cyclic, so the model is
//! solved by a solver of cycles through chance nodes.

use std::fmt;

use alea_core::numeric::round::FINEST;
use alea_core::{Expansion, Limits, Model, Settings, Solvable};

use super::rules::{check, Board, GameError, Overshoot, Piece, Rules};

/// The game for the engine.
#[derive(Clone, Debug)]
pub struct SnakesModel {
    board: Board,
    rules: Rules,
}

impl SnakesModel {
    pub fn new(board: &Board, rules: &Rules) -> SnakesModel {
        SnakesModel {
            board: board.clone(),
            rules: *rules,
        }
    }
}

impl Model for SnakesModel {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn expand(&self, square: u32, out: &mut Expansion<u32>) {
        if square >= self.board.squares() {
            out.terminal(0);
            return;
        }
        out.chance(1);
        for face in 1..=self.rules.spinner {
            let to = self.board.spin(&self.rules, square, face);
            // The faces that overshoot under `stay` or `finish` all lead to one square,
            // one after another: one edge with their weight keeps the node small.
            match out.edges.last_mut() {
                Some(edge) if edge.to == to => edge.weight += 1,
                _ => out.edge(to),
            }
        }
    }
}

/// Why the expected number of spins could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The board cannot be played with the rules, or the game may never end.
    Game(GameError),
    /// The solver stopped: a resource guard, or (in `f64`) a probability too small for
    /// floating point.
    Engine(alea_core::Error),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Game(e) => e.fmt(f),
            SolveError::Engine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<GameError> for SolveError {
    fn from(e: GameError) -> Self {
        SolveError::Game(e)
    }
}

impl From<alea_core::Error> for SolveError {
    fn from(e: alea_core::Error) -> Self {
        SolveError::Engine(e)
    }
}

/// The expected number of spins from the start to the last square, in any arithmetic.
///
/// The board and rules are checked first (`check`): a game that may never end is
/// reported as [`GameError::NeverFinishes`] from the board's moves alone, before any
/// arithmetic, so no solver is ever asked for an infinite value. This is the one place
/// the model is solved.
pub fn expected_spins<V: Solvable>(
    board: &Board,
    rules: &Rules,
    limits: &Limits,
) -> Result<V, SolveError> {
    check(board, rules)?;
    let model = SnakesModel::new(board, rules);
    // The finest precision the engine can certify, so that the decimals printed are
    // right as far as `f64` allows (a board solved exactly where it is small enough).
    let settings = Settings {
        limits: *limits,
        precision: FINEST,
        strict: false,
        ..Settings::default()
    };
    let solution = alea_core::solve_game::<_, V>(&model, &settings)?;
    Ok(solution.start_value().clone())
}

/// An estimate of the work of [`expected_spins`] in exact arithmetic, for guards, in
/// units of about 0.3 microseconds (calibrated on the engine's exact solve, on
/// random boards of 30 to 2,000 squares: within a factor of three either way, more
/// often above than below). For each square and face, the solver combines one term per
/// cycle (per snake, and one for bouncing), on numbers of up to about `N log2(spinner)`
/// bits, each operation costing the square of their length in words.
pub fn exact_work(board: &Board, rules: &Rules) -> u64 {
    let n = f64::from(board.squares());
    let faces = f64::from(rules.spinner.max(2));
    let snakes = board
        .links()
        .iter()
        .filter(|l| l.piece == Piece::Snake)
        .count();
    let cycles = (snakes + usize::from(rules.overshoot == Overshoot::Bounce) + 1) as f64;
    let words = n * faces.log2() / 64.0 + 1.0;
    // A float-to-integer cast saturates, so a huge estimate stays huge.
    (n * faces * cycles * words * words) as u64
}
