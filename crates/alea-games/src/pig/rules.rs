//! The rules of two-player Pig: the goal, the die (or Piglet's coin), and which turn
//! totals a turn can reach.

use std::fmt;

/// The largest goal accepted; the work, not this bound, is what limits a game in
/// practice (it grows with the cube of the goal).
pub const MAX_GOAL: u32 = 1_000_000;
/// The most faces a die may have.
pub const MAX_FACES: u32 = 1_000_000;

/// What is thrown: a die whose 1 loses the turn total and whose other faces add
/// themselves, or Piglet's fair coin, whose tails lose and whose heads add 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Die {
    Faces(u32),
    Coin,
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Die::Faces(n) => write!(f, "a {n}-sided die"),
            Die::Coin => write!(f, "a coin (Piglet)"),
        }
    }
}

/// Why a game is not well formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    Goal(u32),
    Faces(u32),
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Goal(g) => write!(f, "the goal is 1 to {MAX_GOAL}, not {g}"),
            RuleError::Faces(n) => write!(
                f,
                "a die has 2 to {MAX_FACES} faces, not {n} (face 1 loses the turn total, so \
                 another face is needed)"
            ),
        }
    }
}

impl std::error::Error for RuleError {}

/// A game of Pig: the goal and what is thrown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    goal: u32,
    die: Die,
    /// What each throw that does not lose adds to the turn total, ascending, each as
    /// likely as the losing throw.
    gains: Vec<usize>,
}

impl Rules {
    pub fn new(goal: u32, die: Die) -> Result<Rules, RuleError> {
        if !(1..=MAX_GOAL).contains(&goal) {
            return Err(RuleError::Goal(goal));
        }
        let gains = match die {
            Die::Faces(n) if (2..=MAX_FACES).contains(&n) => (2..=n as usize).collect(),
            Die::Faces(n) => return Err(RuleError::Faces(n)),
            Die::Coin => vec![1],
        };
        Ok(Rules { goal, die, gains })
    }

    /// Standard Pig: a six-sided die, first to 100.
    pub fn standard() -> Rules {
        Rules::new(100, Die::Faces(6)).expect("standard rules are valid")
    }

    /// Piglet: a coin, first to `goal`.
    pub fn piglet(goal: u32) -> Result<Rules, RuleError> {
        Rules::new(goal, Die::Coin)
    }

    pub fn goal(&self) -> u32 {
        self.goal
    }

    pub fn die(&self) -> Die {
        self.die
    }

    /// The goal as an index bound: scores and turn totals below it.
    pub(crate) fn g(&self) -> usize {
        self.goal as usize
    }

    pub(crate) fn gains(&self) -> &[usize] {
        &self.gains
    }

    /// Equally likely outcomes of a throw: the losing one and the gains.
    pub fn outcomes(&self) -> u32 {
        self.gains.len() as u32 + 1
    }

    /// Whether a turn can come to the total `k` (before the goal): 0 at its start, then
    /// sums of gains. With faces 2 and 3 every total from 2 on is a sum; a two-sided die
    /// only adds 2s.
    pub fn reachable(&self, k: u64) -> bool {
        match self.die {
            Die::Coin => true,
            Die::Faces(2) => k.is_multiple_of(2),
            Die::Faces(_) => k != 1,
        }
    }

    /// The smallest turn total above 0 a turn can reach.
    pub fn first_total(&self) -> usize {
        self.gains[0]
    }

    /// Positions the solver evaluates: every (banked score, opponent's score, turn total)
    /// with both scores and the banked score plus the turn total below the goal.
    pub fn states(&self) -> u128 {
        let g = u128::from(self.goal);
        g * g * (g + 1) / 2
    }

    /// Steps of one evaluation of every position: a position looks at every outcome.
    pub fn work(&self) -> u128 {
        self.states() * u128::from(self.outcomes())
    }
}
