//! One state at a time, for an explorer that keeps the states itself: alea's cluster
//! partitions them across processes and asks here for each one's choices, the truth of
//! the properties' formulas in it and its rewards. The semantics are those of
//! [`super::explore`] (the same code expands a state), in `f64` only.

use super::build::{CModel, Explorer};
use super::compile::{compile, Code};
use super::{check, describe_vals, fault_in, init, items, store, ExploreError, Items};
use crate::error::Error;
use crate::program::{Ex, Program, Ty};

/// A program compiled for expanding states.
pub struct Compiled {
    model: CModel,
    /// The packed initial states, without repeats, in the order of exploration.
    initial: Vec<u64>,
}

/// The choices of one state: transitions `choice_end[c - 1]..choice_end[c]` (from 0 for
/// the first) with their targets packed in [`Compiled::words`] words each.
#[derive(Clone, Debug, Default)]
pub struct Expansion {
    /// No command was enabled: the one choice is a self-loop.
    pub deadlock: bool,
    pub choice_end: Vec<usize>,
    /// Each choice's action (an MDP's labelled choices); `None` otherwise.
    pub actions: Vec<Option<u32>>,
    /// The action of each command choice before a Markov chain merges them.
    pub command_actions: Vec<Option<u32>>,
    pub targets: Vec<u64>,
    pub probs: Vec<f64>,
}

impl Expansion {
    pub(crate) fn clear(&mut self) {
        self.deadlock = false;
        self.choice_end.clear();
        self.actions.clear();
        self.command_actions.clear();
        self.targets.clear();
        self.probs.clear();
    }

    pub fn choices(&self) -> usize {
        self.choice_end.len()
    }
}

/// A state formula, compiled.
pub struct StateTest(Code);

/// A reward structure, compiled.
pub struct RewardItems(Items);

impl Compiled {
    pub fn new(program: &Program) -> Result<Compiled, ExploreError> {
        let model = CModel::new(program, None)?;
        let words = model.layout.words;
        let packed = init::initial_states(program, &model.layout)?;
        let mut initial: Vec<u64> = Vec::with_capacity(packed.len());
        for s in packed.chunks_exact(words) {
            if !initial.chunks_exact(words).any(|t| t == s) {
                initial.extend_from_slice(s);
            }
        }
        Ok(Compiled { model, initial })
    }

    /// The words of a packed state.
    pub fn words(&self) -> usize {
        self.model.layout.words
    }

    /// For each variable, in the program's order, the bits it takes in a packed state,
    /// word by word: two states differ in the variable exactly where their words differ
    /// under its mask.
    pub fn variable_bits(&self) -> Vec<Vec<u64>> {
        let layout = &self.model.layout;
        layout
            .slots
            .iter()
            .map(|s| {
                let mut bits = vec![0u64; layout.words];
                bits[s.word as usize] = s.mask << s.shift;
                bits
            })
            .collect()
    }

    /// The initial states, packed one after the other.
    pub fn initial(&self) -> &[u64] {
        &self.initial
    }

    /// A hash of a packed state, good in its low and high bits.
    pub fn hash(state: &[u64]) -> u64 {
        store::hash(state)
    }

    pub fn test(&self, ex: &Ex) -> StateTest {
        StateTest(compile(ex, Ty::Bool, self.model.vars))
    }

    /// Reward structure `index` (into [`Program::rewards`]).
    pub fn rewards(&self, program: &Program, index: usize) -> RewardItems {
        RewardItems(items(program, self.model.vars, index))
    }

    pub fn stepper<'a>(&'a self, program: &'a Program) -> Stepper<'a> {
        Stepper {
            explorer: Explorer::new(program, &self.model, None, usize::MAX),
            program,
            compiled: self,
            vals: vec![0; self.model.vars + 2],
            stack: Vec::new(),
            by_action: vec![0.0; program.actions.len() + 1],
        }
    }
}

/// Expands states and evaluates formulas and rewards in them, with scratch space reused.
pub struct Stepper<'a> {
    explorer: Explorer<'a>,
    program: &'a Program,
    compiled: &'a Compiled,
    vals: Vec<i64>,
    stack: Vec<i64>,
    by_action: Vec<f64>,
}

impl Stepper<'_> {
    pub fn expand(&mut self, state: &[u64], out: &mut Expansion) -> Result<(), ExploreError> {
        self.explorer.expansion(state, out)
    }

    /// The state as `(x=3, b=true)`.
    pub fn describe(&mut self, state: &[u64]) -> String {
        let n = self.compiled.model.vars;
        self.compiled
            .model
            .layout
            .unpack(state, &mut self.vals[..n]);
        describe_vals(self.program, &self.vals[..n])
    }

    fn load(&mut self, state: &[u64], initial: bool, deadlock: bool) {
        let n = self.compiled.model.vars;
        self.compiled
            .model
            .layout
            .unpack(state, &mut self.vals[..n]);
        self.vals[n] = initial as i64;
        self.vals[n + 1] = deadlock as i64;
    }

    fn fault(&self, f: super::compile::Fault) -> Error {
        let n = self.compiled.model.vars;
        fault_in(describe_vals(self.program, &self.vals[..n]), f)
    }

    /// Whether `test` holds in `state` (`"init"` and `"deadlock"` as given).
    pub fn holds(
        &mut self,
        test: &StateTest,
        state: &[u64],
        initial: bool,
        deadlock: bool,
    ) -> Result<bool, Error> {
        self.load(state, initial, deadlock);
        test.0
            .eval_bool(&self.vals, &mut self.stack)
            .map_err(|f| self.fault(f))
    }

    /// The state's reward and each choice's, as [`super::Explored::rewards`] gives them:
    /// an MDP's choice gets the items of its action; a Markov chain's merged choice its
    /// command choices' rewards, weighted as its probabilities are; a deadlock's
    /// self-loop none.
    pub fn rewards(
        &mut self,
        items: &RewardItems,
        state: &[u64],
        initial: bool,
        expansion: &Expansion,
        choices: &mut Vec<f64>,
    ) -> Result<f64, Error> {
        let items = &items.0;
        self.load(state, initial, expansion.deadlock);
        let n = self.compiled.model.vars;
        let mut total = 0.0;
        for (guard, value, span) in &items.state {
            if guard
                .eval_bool(&self.vals, &mut self.stack)
                .map_err(|f| self.fault(f))?
            {
                let v = value
                    .eval_real(&self.vals, &mut self.stack)
                    .map_err(|f| self.fault(f))?;
                check(&v, *span, self.program, &self.vals[..n])?;
                total += v;
            }
        }
        choices.clear();
        if items.trans.is_empty() || expansion.deadlock {
            choices.resize(expansion.choices(), 0.0);
            return Ok(total);
        }
        self.by_action.fill(0.0);
        for (action, guard, value, span) in &items.trans {
            if guard
                .eval_bool(&self.vals, &mut self.stack)
                .map_err(|f| self.fault(f))?
            {
                let v = value
                    .eval_real(&self.vals, &mut self.stack)
                    .map_err(|f| self.fault(f))?;
                check(&v, *span, self.program, &self.vals[..n])?;
                self.by_action[action.map_or(0, |a| a as usize + 1)] += v;
            }
        }
        let slot = |a: Option<u32>| a.map_or(0, |a| a as usize + 1);
        if self.program.kind.chooses() {
            choices.extend(expansion.actions.iter().map(|&a| self.by_action[slot(a)]));
        } else {
            // Runs of one action among the command choices, as the single-process
            // exploration counts them.
            let commands = &expansion.command_actions;
            let k = commands.len() as f64;
            let mut merged = 0.0;
            let mut i = 0;
            while i < commands.len() {
                let mut j = i + 1;
                while j < commands.len() && commands[j] == commands[i] {
                    j += 1;
                }
                merged += self.by_action[slot(commands[i])] * (j - i) as f64;
                i = j;
            }
            choices.push(merged / k);
        }
        Ok(total)
    }
}
