//! What a game looks like to the engine: states, and for each state a node that is
//! terminal, a chance event, or a choice.

use std::fmt::Debug;
use std::hash::Hash;

/// How a choice node picks among its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// The player takes the option of greatest value (a win probability, a score).
    Max,
    /// The player takes the option of least value (an expected time).
    Min,
    /// One option at random, in proportion to the edge weights (equal weights: uniformly).
    Uniform,
}

/// The kind of a node; its successors are the edges of the [`Expansion`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The game is over; the node's value is its reward.
    Terminal,
    /// Nature moves: each edge is taken with probability weight / total weight.
    Chance,
    /// The player moves, as `Pick` says.
    Choice(Pick),
}

/// A successor and its weight (used by chance nodes and uniform choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge<S> {
    pub to: S,
    pub weight: u64,
}

/// A node being described by [`Model::expand`]. The engine reuses one buffer for many
/// nodes, so expanding a state allocates nothing in the steady state.
///
/// The value of a node is `reward` plus, for a chance node, the weighted mean of its
/// successors; for a choice, the best, the worst, or the weighted mean as `Pick` says.
/// A terminal node is worth its reward alone.
#[derive(Clone, Debug)]
pub struct Expansion<S> {
    pub kind: Kind,
    pub reward: i64,
    pub edges: Vec<Edge<S>>,
}

impl<S> Default for Expansion<S> {
    fn default() -> Self {
        Expansion {
            kind: Kind::Terminal,
            reward: 0,
            edges: Vec::new(),
        }
    }
}

impl<S> Expansion<S> {
    /// Starts describing a terminal node worth `value`.
    pub fn terminal(&mut self, value: i64) {
        self.kind = Kind::Terminal;
        self.reward = value;
        self.edges.clear();
    }

    /// Starts describing a chance node that earns (or costs) `reward` on the way.
    pub fn chance(&mut self, reward: i64) {
        self.kind = Kind::Chance;
        self.reward = reward;
        self.edges.clear();
    }

    /// Starts describing a choice node that earns `reward` on the way.
    pub fn choice(&mut self, pick: Pick, reward: i64) {
        self.kind = Kind::Choice(pick);
        self.reward = reward;
        self.edges.clear();
    }

    /// Adds a successor with weight 1.
    pub fn edge(&mut self, to: S) {
        self.edges.push(Edge { to, weight: 1 });
    }

    /// Adds a successor with the given weight (zero weights are dropped).
    pub fn weighted(&mut self, to: S, weight: u64) {
        if weight > 0 {
            self.edges.push(Edge { to, weight });
        }
    }
}

/// A game as the engine sees it.
///
/// States are small `Copy` values (pack them into integers). Before a state is stored the
/// engine maps it to [`Model::canonical`], so symmetric positions share one entry.
/// A chance node or a choice with no edges is an error in the model, reported by the
/// solvers rather than evaluated.
pub trait Model: Sync {
    type State: Copy + Eq + Hash + Debug + Send + Sync;

    /// The position to evaluate.
    fn start(&self) -> Self::State;

    /// Describes the node at `state` into `out` (call one of `terminal`, `chance`,
    /// `choice`, then add edges).
    fn expand(&self, state: Self::State, out: &mut Expansion<Self::State>);

    /// The representative of `state`'s symmetry class; by default the state itself.
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }
}

/// A small game for the tests, described node by node over `u8` states from 0.
#[cfg(test)]
pub(crate) struct Nodes(pub fn(u8, &mut Expansion<u8>));

#[cfg(test)]
impl Model for Nodes {
    type State = u8;
    fn start(&self) -> u8 {
        0
    }
    fn expand(&self, s: u8, out: &mut Expansion<u8>) {
        (self.0)(s, out)
    }
}
