//! A game described node by node (a terminal, a chance node, a choice) built into the
//! form: the exploration of a callback model feeds it, and so does the Python package,
//! which numbers Python's states itself.
//!
//! A chance node, or a choice made at random, becomes one choice whose transitions carry
//! the weights as probabilities; a maximising or minimising choice becomes one choice per
//! option, each moving to its option for sure; a terminal keeps one choice back to itself
//! (the solvers fix its value and never take it). Probabilities are kept in `f64` and
//! exactly, interned by their reduced fraction.

use num_bigint::BigInt;
use rustc_hash::FxHashMap;

use super::{ExactProbs, Form};
use crate::analysis::components::components_within;
use crate::error::{Error, Result};
use crate::model::{Edge, Expansion, Kind, Model, Pick};
use crate::numeric::value::Exact;
use crate::solve::Goal;

/// A game built: its form, and what each state was as a node.
#[derive(Clone, Debug, Default)]
pub struct Game {
    pub form: Form,
    /// Each state's node kind, as described.
    pub kind: Vec<Kind>,
    /// Each state's reward: a terminal's value, or what passing another node earns.
    pub reward: Vec<i64>,
    /// Each transition's weight as described (1 for a maximising or minimising choice's
    /// option, and for a terminal's loop): what a game played from its nodes draws by.
    pub weight: Vec<u64>,
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
                    weight: self.weight[t],
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

/// Builds a [`Game`] from its nodes, given in the order of their state numbers.
pub struct Builder {
    game: Game,
    values: Vec<Exact>,
    id: Vec<u32>,
    /// Interned probabilities by their weight and total weight (a probability met as two
    /// different fractions is interned twice, the same value: cheaper than reducing
    /// every fraction met).
    interned: FxHashMap<(u64, u64), u32>,
    /// The last few looked up, by a hash of the pair: a game's nodes repeat a handful of
    /// weights over and over (the faces of its dice), and this spares most look-ups.
    recent: [(u64, u64, u32); RECENT],
}

const RECENT: usize = 64;
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
        (f.to, f.prob) = (Vec::with_capacity(4 * SMALL), Vec::with_capacity(4 * SMALL));
        (f.choices, f.row) = (vec![0], vec![0]);
        game.weight.reserve(4 * SMALL);
        Builder {
            game,
            values: Vec::new(),
            id: Vec::with_capacity(4 * SMALL),
            interned: FxHashMap::default(),
            recent: [(0, 0, 0); RECENT],
        }
    }

    /// The nodes added so far: the number the next one gets.
    pub fn len(&self) -> usize {
        self.game.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.game.kind.is_empty()
    }

    /// The id of the probability `num / den`.
    fn intern(&mut self, num: u64, den: u64) -> u32 {
        let slot = (num.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ den) as usize % RECENT;
        let (n, d, id) = self.recent[slot];
        if (n, d) == (num, den) && den != 0 {
            return id;
        }
        let values = &mut self.values;
        let id = *self.interned.entry((num, den)).or_insert_with(|| {
            values.push(Exact::new(BigInt::from(num), BigInt::from(den)));
            (values.len() - 1) as u32
        });
        self.recent[slot] = (num, den, id);
        id
    }

    fn transition(&mut self, to: u32, num: u64, den: u64) {
        let id = self.intern(num, den);
        let f = &mut self.game.form;
        f.to.push(to);
        f.prob.push(num as f64 / den as f64);
        self.game.weight.push(num);
        self.id.push(id);
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
                self.transition(state, 1, 1);
                self.end_choice();
            }
            _ if node.edges.is_empty() => return Err(none()),
            Kind::Chance | Kind::Choice(Pick::Uniform) => {
                let total = node
                    .edges
                    .iter()
                    .try_fold(0u64, |sum, &(_, w)| sum.checked_add(w))
                    .filter(|&t| t <= i64::MAX as u64)
                    .ok_or_else(|| Error::Weights(name()))?;
                if total == 0 {
                    // Every outcome weighs nothing: no successor at all.
                    return Err(none());
                }
                for &(to, w) in node.edges {
                    if w > 0 {
                        self.transition(to, w, total);
                    }
                }
                self.end_choice();
            }
            Kind::Choice(_) => {
                for &(to, _) in node.edges {
                    self.transition(to, 1, 1);
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
        game.form.exact = Some(ExactProbs {
            values: self.values,
            id: self.id,
        });
        if !game.kind.is_empty() {
            game.form.initial = vec![0];
        }
        game.form.check();
        game
    }
}
