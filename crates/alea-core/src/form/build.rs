//! A game described node by node (a terminal, a chance node, a choice) built into the
//! form: the exploration of a callback model feeds it, and so does the Python package,
//! which numbers Python's states itself.
//!
//! A chance node, or a choice made at random, becomes one choice whose transitions carry
//! the weights as probabilities; a maximising or minimising choice becomes one choice per
//! option, each moving to its option for sure; a terminal keeps one choice back to itself
//! (the solvers fix its value and never take it). Probabilities are kept in `f64`, with
//! the weights they came from: the exact probabilities are derived from those when a
//! solve asks for them.

use super::Form;
use crate::analysis::components::components_within;
use crate::error::{Error, Result};
use crate::model::{Edge, Expansion, Kind, Model, Pick};
use crate::solution::total_weight;
use crate::solve::Goal;

/// A game built: its form, and what each state was as a node.
#[derive(Clone, Debug, Default)]
pub struct Game {
    pub form: Form,
    /// Each state's node kind, as described.
    pub kind: Vec<Kind>,
    /// Each state's reward: a terminal's value, or what passing another node earns.
    pub reward: Vec<i64>,
    /// The goal of the form's first player: to maximise, unless every choice that is
    /// not made at random minimises.
    pub goal: Goal,
}

impl Game {
    pub fn states(&self) -> usize {
        self.kind.len()
    }

    /// Whether some state can come back to itself (a terminal's own loop aside).
    pub fn cyclic(&self) -> bool {
        let open: Vec<bool> = self.kind.iter().map(|&k| k != Kind::Terminal).collect();
        let comps = components_within(&self.form, &open);
        (0..comps.count()).any(|k| match *comps.get(k) {
            [s] => self.form.loops(s as usize),
            _ => true,
        })
    }
}

/// A game built is a game described by callbacks too, over its state numbers: the
/// policy and simulation code reads it so.
impl Model for Game {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn expand(&self, state: u32, out: &mut Expansion<u32>) {
        let s = state as usize;
        let f = &self.form;
        out.kind = self.kind[s];
        out.reward = self.reward[s];
        out.edges.clear();
        if self.kind[s] == Kind::Terminal {
            return;
        }
        for c in f.choices_of(s) {
            for t in f.transitions_of(c) {
                out.edges.push(Edge {
                    to: f.to[t],
                    weight: f.weights.values[t],
                });
            }
        }
    }
}

/// One node as the builder takes it: its kind, its reward, and its successors (state
/// numbers) with their weights (the weights of a maximising or minimising choice do not
/// matter).
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    pub kind: Kind,
    pub reward: i64,
    pub edges: &'a [(u32, u64)],
}

/// Builds a [`Game`] from its nodes, given in the order of their state numbers. Each
/// transition keeps its weight as described (1 for a maximising or minimising choice's
/// option, and for a terminal's loop): what a game played from its nodes draws by, and
/// what its exact probability is derived from.
pub struct Builder {
    game: Game,
}

/// The states a builder has room for from the start (and four transitions each).
pub(crate) const SMALL: usize = 128;

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    pub fn new() -> Builder {
        let mut game = Game::default();
        // Room for a small game from the start: most games solved one after another (a
        // board, a hand) are small, and growing the arrays from nothing would cost them
        // as much as building them.
        let f = &mut game.form;
        f.to.reserve(4 * SMALL);
        (f.choices, f.row) = (vec![0], vec![0]);
        f.weights.values.reserve(4 * SMALL);
        Builder { game }
    }

    /// The nodes added so far: the number the next one gets.
    pub fn len(&self) -> usize {
        self.game.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.game.kind.is_empty()
    }

    fn transition(&mut self, to: u32, weight: u64) {
        let f = &mut self.game.form;
        f.to.push(to);
        f.weights.values.push(weight);
    }

    fn end_choice(&mut self) {
        let f = &mut self.game.form;
        f.row.push(f.to.len());
    }

    /// Adds the next state's node. `name` names the state in an error: a chance node or
    /// a choice without successors, or weights that add up past `i64::MAX`.
    pub fn push(&mut self, node: Node<'_>, name: impl Fn() -> String) -> Result<()> {
        let state = self.len() as u32;
        let none = || Error::no_successors(name(), node.kind);
        match node.kind {
            Kind::Terminal => {
                self.transition(state, 1);
                self.end_choice();
            }
            _ if node.edges.is_empty() => return Err(none()),
            Kind::Chance | Kind::Choice(Pick::Uniform) => {
                let total = total_weight(node.edges.iter().map(|e| e.1), &name)?;
                if total == 0 {
                    // Every outcome weighs nothing: no successor at all.
                    return Err(none());
                }
                for &(to, w) in node.edges {
                    if w > 0 {
                        self.transition(to, w);
                    }
                }
                self.end_choice();
            }
            Kind::Choice(_) => {
                for &(to, _) in node.edges {
                    self.transition(to, 1);
                    self.end_choice();
                }
            }
        }
        let f = &mut self.game.form;
        f.choices.push(f.row.len() - 1);
        self.game.kind.push(node.kind);
        self.game.reward.push(node.reward);
        Ok(())
    }

    /// The game, with the start at state 0. Every successor named must have been added.
    pub fn finish(self) -> Game {
        let mut game = self.game;
        let has = |pick: Pick| game.kind.contains(&Kind::Choice(pick));
        let (max, min) = (has(Pick::Max), has(Pick::Min));
        game.goal = if min && !max { Goal::Min } else { Goal::Max };
        if max && min {
            game.form.opponent = game
                .kind
                .iter()
                .map(|&k| k == Kind::Choice(Pick::Min))
                .collect();
        }
        if !game.kind.is_empty() {
            game.form.initial = vec![0];
        }
        // The probabilities once all the weights are in: the array is allocated once, at
        // its size (a doubling array left room for as many again).
        let f = &mut game.form;
        f.prob = Vec::with_capacity(f.to.len());
        for c in 0..f.choice_count() {
            let weights = &f.weights.values[f.transitions_of(c)];
            let total = weights.iter().sum::<u64>() as f64;
            f.prob.extend(weights.iter().map(|&w| w as f64 / total));
        }
        game.form.check();
        game
    }
}
