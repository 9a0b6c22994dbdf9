//! Explores a resolved program into the explicit sparse form: the states reachable from
//! the initial ones, numbered breadth-first (initial states first), each with its choices
//! and their distributions.
//!
//! Semantics, as in PRISM:
//! - In each state, every enabled unlabelled command of every module is a choice of its
//!   own. An action `a` is possible when every module whose alphabet holds `a` has an
//!   enabled `a`-command; each combination of one such command per module is a choice,
//!   its distribution the product of theirs (probabilities multiply, assignments
//!   combine; two modules assigning one variable in one step is an error).
//! - In an MDP those are the choices, in that order: unlabelled commands module by
//!   module, then the actions in order of [`Program::actions`]. In a DTMC they are merged
//!   into one distribution, each of the `k` weighted `1/k`.
//! - A state without an enabled command (a deadlock) gets a self-loop of probability 1.
//! - Updates read the old state. A value outside its variable's range, a probability
//!   outside `[0, 1]`, or a command whose probabilities do not add up to 1 (within
//!   [`SUM_TOLERANCE`] in `f64`; exactly in exact mode) is an error naming the state.
//!   A branch of probability 0 is dropped; equal targets of one choice are merged.
//! - In exact mode probabilities are rationals (interned into
//!   [`ExactProbs`](alea_core::form::ExactProbs)); each `f64` probability is the
//!   nearest to its rational. Conditions (guards, `? :`) are decided in `f64` in both
//!   modes, as [`crate::eval`] decides them.
//! - Expressions follow [`crate::eval`]. A guard's interval tests on variables
//!   (`x = 2`, `y < N`, `b`) are decided before its other conjuncts, and commands whose
//!   tests exclude the state are not looked at: that can spare an evaluation error
//!   another order would meet (`mod(x, y) = 0 & y != 0` with `y = 0`), never add one.
//!
//! How (see the submodules): each state is packed into a few `u64` words (`store`), kept
//! in one arena and deduplicated by an open-addressing table of ids; guards,
//! probabilities and assignments are compiled into direct tests and a small bytecode
//! (`compile`); the commands of each module are split by the value of a location
//! variable so that a state evaluates only the guards that can hold (`build`); the
//! targets of a state are looked up together so that their cache misses overlap.

mod build;
mod compile;
mod exact;
mod init;
mod step;
mod store;
#[cfg(test)]
mod tests;

use crate::ast::ModelType;
use crate::error::{Error, Span};
use crate::eval;
use crate::program::{Ex, Program, Ty};
use alea_core::form::{ExactRewards, Form, Rewards};
use alea_core::Exact;
use build::{ActionList, CModel};
use compile::{compile, is_constant, Code, Fault};
use num_traits::{Signed, Zero};
use std::fmt;
use store::Layout;

pub use init::INIT_ENUMERATION_LIMIT;
pub use step::{Compiled, Expansion, RewardItems, StateTest, Stepper};

/// How far from 1 the `f64` probabilities of a command may add up. Rounding of
/// decimal literals stays far below it; a model whose probabilities are meant to be
/// rounded (`0.33 + 0.33 + 0.34` is fine, `0.333 * 3` is not) must write them so.
pub const SUM_TOLERANCE: f64 = 1e-9;

/// How to explore.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Probabilities as exact rationals (and an error for one that is not rational).
    pub exact: bool,
    /// Stop with [`ExploreError::TooManyStates`] past this many states.
    pub max_states: usize,
    /// Called with the number of states expanded so far, every 100,000 states.
    pub progress: Option<&'a (dyn Fn(usize) + Sync)>,
    /// States where this holds are not expanded: each gets a self-loop instead (and is
    /// not counted as a deadlock). The properties asked need no successor of their
    /// targets, so leaving them out can save most of a model; `"deadlock"` may not
    /// appear in it, since a state not expanded has no enabled commands to tell.
    pub absorbing: Option<&'a Ex>,
    /// Raised, it stops the exploration with [`ExploreError::Stopped`].
    pub stop: Option<&'a alea_core::Stop>,
    /// The probabilities are weights: each choice's (a Markov chain's state has one, its
    /// commands merged) are divided by their sum, and are not checked to lie in [0, 1]
    /// or to add up to 1, only to be at least 0 (PRISM's `-noprobchecks`, under which
    /// PRISM divides a dtmc's rows by their sums). A command's transition rewards in a
    /// Markov chain then count with the share of its weight in the state's.
    pub weights: bool,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            exact: false,
            max_states: usize::MAX,
            progress: None,
            absorbing: None,
            stop: None,
            weights: false,
        }
    }
}

impl fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("exact", &self.exact)
            .field("max_states", &self.max_states)
            .field("weights", &self.weights)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Why exploration stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreError {
    /// The model is wrong in some reachable state (the message names it).
    Model(Error),
    /// More reachable states than [`Options::max_states`].
    TooManyStates { limit: usize },
    /// The stop flag was raised (see [`Options::stop`]).
    Stopped,
}

impl fmt::Display for ExploreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExploreError::Model(e) => e.fmt(f),
            ExploreError::TooManyStates { limit } => {
                write!(f, "the model has more than {limit} reachable states")
            }
            ExploreError::Stopped => alea_core::Error::Stopped.fmt(f),
        }
    }
}

impl std::error::Error for ExploreError {}

impl From<Error> for ExploreError {
    fn from(e: Error) -> Self {
        ExploreError::Model(e)
    }
}

/// The explored model.
#[derive(Clone, Debug)]
pub struct Explored {
    pub form: Form,
    /// The number of states without an enabled command (given a self-loop).
    pub deadlocks: usize,
    /// Those states, in increasing order.
    pub deadlock_states: Vec<u32>,
    /// Bytes held at the peak of exploration by the states, their table and the sparse
    /// form (not counting scratch space).
    pub peak_bytes: usize,
    kind: ModelType,
    /// Explored with [`Options::weights`].
    weights: bool,
    /// The action of each choice of an MDP; empty for a DTMC.
    actions: ActionList,
    layout: Layout,
    /// The packed states, in order of their ids.
    arena: Vec<u64>,
    /// Each variable's name and whether it is a boolean, for messages.
    names: Vec<(String, bool)>,
    /// In an `smg`, the player whose turn each state is (an index into the program's
    /// players); empty otherwise.
    pub owners: Vec<u32>,
}

/// Explores `program` from its initial states.
pub fn explore(program: &Program, options: &Options) -> Result<Explored, ExploreError> {
    let built = build::explore(program, options)?;
    Ok(Explored {
        deadlocks: built.deadlocks.len(),
        deadlock_states: built.deadlocks,
        peak_bytes: built.peak_bytes,
        form: built.form,
        kind: program.kind,
        weights: options.weights,
        actions: built.actions,
        layout: built.layout,
        arena: built.arena,
        names: program
            .variables
            .iter()
            .map(|v| (v.name.clone(), v.is_bool))
            .collect(),
        owners: built.owners,
    })
}

/// `(x=3, b=true)`.
pub(crate) fn describe_vals(program: &Program, vals: &[i64]) -> String {
    describe_named(
        program
            .variables
            .iter()
            .map(|v| (v.name.as_str(), v.is_bool)),
        vals,
    )
}

fn describe_named<'a>(vars: impl Iterator<Item = (&'a str, bool)>, vals: &[i64]) -> String {
    let mut s = String::from("(");
    for (i, ((name, is_bool), v)) in vars.zip(vals).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(name);
        s.push('=');
        if is_bool {
            s.push_str(if *v != 0 { "true" } else { "false" });
        } else {
            s.push_str(&v.to_string());
        }
    }
    s.push(')');
    s
}

/// The compiled items of reward structure `index`, over `n` variables.
fn items(program: &Program, n: usize, index: usize) -> Items {
    let mut items = Items {
        state: Vec::new(),
        trans: Vec::new(),
        state_ex: Vec::new(),
        trans_ex: Vec::new(),
    };
    for item in &program.rewards[index].items {
        let guard = compile(&item.guard, Ty::Bool, n);
        let value = compile(&item.value, Ty::Real, n);
        let ex = exact_ex(&item.value);
        match item.action {
            None => {
                items.state.push((guard, value, item.span));
                items.state_ex.push(ex);
            }
            Some(a) => {
                items.trans.push((a, guard, value, item.span));
                items.trans_ex.push(ex);
            }
        }
    }
    items
}

fn fault_in(state: String, f: Fault) -> Error {
    Error::new(
        f.span,
        format!("in state {state} evaluation fails: {}", f.message),
    )
}

/// Compiled reward items of one structure.
/// An expression for exact evaluation, and its value when constant.
type ExactEx = (Ex, Option<Exact>);

/// `e` for exact evaluation, with its value when it is a constant.
fn exact_ex(e: &Ex) -> ExactEx {
    let constant = is_constant(e)
        .then(|| crate::eval::eval_exact(e, &[]).ok())
        .flatten();
    (e.clone(), constant)
}

struct Items {
    state: Vec<(Code, Code, Span)>,
    /// Transition items: the action (`None` for `[]`), guard, value.
    trans: Vec<(Option<u32>, Code, Code, Span)>,
    /// The items' values, for exact evaluation: the expression, and its value when
    /// constant.
    state_ex: Vec<ExactEx>,
    trans_ex: Vec<ExactEx>,
}

impl Explored {
    pub fn states(&self) -> usize {
        self.form.states()
    }

    pub fn transitions(&self) -> usize {
        self.form.transitions()
    }

    pub fn choices(&self) -> usize {
        self.form.choice_count()
    }

    /// The action of choice `c` (an index into [`Program::actions`]); `None` for an
    /// unlabelled command, a deadlock's self-loop, and every choice of a DTMC (merged
    /// from commands of possibly several actions).
    pub fn action(&self, c: usize) -> Option<u32> {
        self.actions.get(c)
    }

    /// Whether state `s` had no enabled command.
    pub fn is_deadlock(&self, s: u32) -> bool {
        self.deadlock_states.binary_search(&s).is_ok()
    }

    fn state_words(&self, s: u32) -> &[u64] {
        let w = self.layout.words;
        &self.arena[s as usize * w..(s as usize + 1) * w]
    }

    /// The values of state `s`, in [`Program::variables`] order (booleans as 0 and 1).
    pub fn valuation(&self, s: u32) -> Vec<i64> {
        let mut out = vec![0; self.layout.slots.len()];
        self.layout.unpack(self.state_words(s), &mut out);
        out
    }

    /// The values of state `s` into `out` (one per variable), without allocating: for
    /// loops over all states.
    pub fn valuation_into(&self, s: u32, out: &mut [i64]) {
        self.layout.unpack(self.state_words(s), out);
    }

    /// State `s` as `(x=3, b=true)`.
    pub fn describe(&self, program: &Program, s: u32) -> String {
        describe_vals(program, &self.valuation(s))
    }

    /// The state with these values (in [`Program::variables`] order), if reachable. A
    /// scan of the packed states (the table of exploration is gone, to save its memory):
    /// fast enough for a few look-ups, not for one per state.
    pub fn find(&self, values: &[i64]) -> Option<u32> {
        if values.len() != self.layout.slots.len()
            || values
                .iter()
                .zip(&self.layout.slots)
                .any(|(&v, s)| v < s.low || v > s.high)
        {
            return None;
        }
        let mut key = vec![0; self.layout.words];
        self.layout.pack(values, &mut key);
        store::scan(&self.arena, self.layout.words, &key)
    }

    /// State `s` as an error names it: `(x=3, b=true)`.
    pub fn name(&self, s: usize) -> String {
        self.describe_vals(&self.valuation(s as u32))
    }

    fn describe_vals(&self, vals: &[i64]) -> String {
        describe_named(self.names.iter().map(|(n, b)| (n.as_str(), *b)), vals)
    }

    /// The truth of the state formula `ex` (of type `Bool`) in every state; the labels
    /// `"init"` and `"deadlock"` hold in the initial states and in the states that had no
    /// enabled command.
    pub fn states_where(&self, ex: &Ex) -> Result<Vec<bool>, Error> {
        let n = self.layout.slots.len();
        let code = compile(ex, Ty::Bool, n);
        if let Some(v) = code.constant() {
            return Ok(vec![v != 0; self.states()]);
        }
        let initial = self.initial_flags();
        let mut vals = vec![0; n + 2];
        let mut stack = Vec::new();
        let mut out = Vec::with_capacity(self.states());
        let mut dead = self.deadlock_states.iter().peekable();
        for s in 0..self.states() as u32 {
            self.layout.unpack(self.state_words(s), &mut vals[..n]);
            vals[n] = initial[s as usize] as i64;
            vals[n + 1] = dead.next_if_eq(&&s).is_some() as i64;
            let v = code
                .eval_bool(&vals, &mut stack)
                .map_err(|f| fault_in(self.describe_vals(&vals[..n]), f))?;
            out.push(v);
        }
        Ok(out)
    }

    /// The value of the numeric expression `ex` in every state, by `value` (which
    /// evaluates it in `f64` or exactly); `"init"` and `"deadlock"` as in
    /// [`Explored::states_where`].
    pub fn numbers_where<T>(
        &self,
        ex: &Ex,
        value: impl Fn(&eval::Context, &Ex) -> Result<T, eval::EvalError>,
    ) -> Result<Vec<T>, Error> {
        let n = self.layout.slots.len();
        let initial = self.initial_flags();
        let mut vals = vec![0; n];
        let mut dead = self.deadlock_states.iter().peekable();
        (0..self.states() as u32)
            .map(|s| {
                self.layout.unpack(self.state_words(s), &mut vals);
                let cx = eval::Context::new(&vals)
                    .with_initial(initial[s as usize])
                    .with_deadlock(dead.next_if_eq(&&s).is_some());
                value(&cx, ex).map_err(|e| {
                    Error::new(
                        e.span,
                        format!(
                            "in state {} evaluation fails: {}",
                            self.describe_vals(&vals),
                            e.message
                        ),
                    )
                })
            })
            .collect()
    }

    fn initial_flags(&self) -> Vec<bool> {
        let mut flags = vec![false; self.states()];
        for &s in &self.form.initial {
            flags[s as usize] = true;
        }
        flags
    }

    fn items(&self, program: &Program, index: usize) -> Items {
        items(program, self.layout.slots.len(), index)
    }

    /// The reward structure `index` (into [`Program::rewards`]) as `f64` rewards per
    /// state and per choice; see [`Explored::exact_rewards`] for what a choice gets.
    pub fn rewards(&self, program: &Program, index: usize) -> Result<Rewards, Error> {
        let mut out = Rewards::default();
        self.gather(program, index, &mut F64Sums(&mut out))?;
        Ok(out)
    }

    /// The reward structure `index` in exact rationals.
    ///
    /// A state gets the sum of the values of the state items whose guard holds. A choice
    /// of an MDP gets the sum of the transition items of its action (`[]` items for an
    /// unlabelled choice) whose guard holds in its state; a deadlock's self-loop gets
    /// none. The merged choice of a DTMC gets each of its `k` command choices' reward
    /// weighted `1/k`, as its probabilities are.
    pub fn exact_rewards(&self, program: &Program, index: usize) -> Result<ExactRewards, Error> {
        let mut out = ExactRewards::default();
        self.gather(program, index, &mut ExactSums(&mut out))?;
        Ok(out)
    }

    fn gather<S: Sums>(&self, program: &Program, index: usize, sums: &mut S) -> Result<(), Error> {
        let items = self.items(program, index);
        let n = self.layout.slots.len();
        let mut vals = vec![0; n + 2];
        let mut stack = Vec::new();
        let initial = self.initial_flags();
        let mut dead = self.deadlock_states.iter().peekable();
        let states = self.states();
        let model = if self.kind == ModelType::Dtmc && !items.trans.is_empty() {
            Some(CModel::new(program, None)?)
        } else {
            None
        };
        let mut counts = Vec::new();
        // Under weights, each command's: the sum of its updates' probabilities (their
        // code, expression and constant value), and each group of choices' weight.
        let probs: Vec<Vec<(Code, ExactEx)>> = match &model {
            Some(_) if self.weights => program
                .modules
                .iter()
                .flat_map(|m| &m.commands)
                .map(|cmd| {
                    cmd.updates
                        .iter()
                        .map(|u| (compile(&u.prob, Ty::Real, n), exact_ex(&u.prob)))
                        .collect()
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut shares = Vec::new();
        // Per action slot (0 for `[]`, `a + 1` for `a`), the reward of the current state.
        let mut by_action = vec![S::zero(); program.actions.len() + 1];
        let mut touched: Vec<usize> = Vec::new();
        sums.start(
            if items.state.is_empty() { 0 } else { states },
            if items.trans.is_empty() {
                0
            } else {
                self.choices()
            },
        );
        for s in 0..states as u32 {
            self.layout.unpack(self.state_words(s), &mut vals[..n]);
            vals[n] = initial[s as usize] as i64;
            let deadlock = dead.next_if_eq(&&s).is_some();
            vals[n + 1] = deadlock as i64;
            let fail = |f: Fault| fault_in(describe_vals(program, &vals[..n]), f);
            if !items.state.is_empty() {
                let mut total = S::zero();
                for (i, (guard, value, span)) in items.state.iter().enumerate() {
                    if guard.eval_bool(&vals, &mut stack).map_err(fail)? {
                        let v = sums
                            .value(value, &items.state_ex[i], &vals, &mut stack)
                            .map_err(fail)?;
                        check(&v, *span, program, &vals[..n])?;
                        S::add(&mut total, &v);
                    }
                }
                sums.state(total);
            }
            if items.trans.is_empty() {
                continue;
            }
            for &slot in &touched {
                by_action[slot] = S::zero();
            }
            touched.clear();
            for (i, (action, guard, value, span)) in items.trans.iter().enumerate() {
                if guard.eval_bool(&vals, &mut stack).map_err(fail)? {
                    let v = sums
                        .value(value, &items.trans_ex[i], &vals, &mut stack)
                        .map_err(fail)?;
                    check(&v, *span, program, &vals[..n])?;
                    let slot = action.map_or(0, |a| a as usize + 1);
                    S::add(&mut by_action[slot], &v);
                    touched.push(slot);
                }
            }
            let choices = self.form.choices_of(s as usize);
            if deadlock {
                for _ in choices {
                    sums.choice(S::zero());
                }
                continue;
            }
            match &model {
                None => {
                    for c in choices {
                        let slot = self.action(c).map_or(0, |a| a as usize + 1);
                        sums.choice(by_action[slot].clone());
                    }
                }
                Some(model) if self.weights => {
                    // Each group's reward counts with its share of the state's weight.
                    let mut weight = |c: u32, vals: &[i64], stack: &mut Vec<i64>| {
                        let mut w = S::zero();
                        for (code, ex) in &probs[c as usize] {
                            S::add(&mut w, &sums.value(code, ex, vals, stack)?);
                        }
                        Ok(w)
                    };
                    model
                        .enabled_weights(&vals, &mut stack, &mut weight, &mut shares)
                        .map_err(fail)?;
                    let mut total = S::zero();
                    let mut reward = S::zero();
                    for (a, w) in &shares {
                        let slot = a.map_or(0, |a| a as usize + 1);
                        S::add(&mut reward, &(by_action[slot].clone() * w.clone()));
                        S::add(&mut total, w);
                    }
                    // Exploration already refused a total of 0.
                    sums.choice(if total.is_zero() {
                        total
                    } else {
                        reward / total
                    });
                }
                Some(model) => {
                    model
                        .enabled_weights(&vals, &mut stack, &mut |_, _, _| Ok(1u64), &mut counts)
                        .map_err(fail)?;
                    let k: u64 = counts.iter().map(|c| c.1).sum();
                    let mut total = S::zero();
                    for &(a, count) in &counts {
                        let slot = a.map_or(0, |a| a as usize + 1);
                        S::add(&mut total, &S::scale(&by_action[slot], count, 1));
                    }
                    sums.choice(S::scale(&total, 1, k.max(1)));
                }
            }
        }
        Ok(())
    }
}

/// A reward value must be a finite number at least 0.
fn check<V: RewardValue>(v: &V, span: Span, program: &Program, vals: &[i64]) -> Result<(), Error> {
    match v.problem() {
        None => Ok(()),
        Some(what) => Err(Error::new(
            span,
            format!(
                "in state {} this reward is {what}; rewards must be finite and at least 0",
                describe_vals(program, vals)
            ),
        )),
    }
}

trait RewardValue {
    fn problem(&self) -> Option<String>;
}

impl RewardValue for f64 {
    fn problem(&self) -> Option<String> {
        (!(self.is_finite() && *self >= 0.0)).then(|| self.to_string())
    }
}

impl RewardValue for Exact {
    fn problem(&self) -> Option<String> {
        self.is_negative().then(|| self.to_string())
    }
}

/// Rewards gathered in `f64` or in rationals.
trait Sums {
    type V: Clone + RewardValue + num_traits::Num;
    fn zero() -> Self::V;
    fn add(a: &mut Self::V, b: &Self::V);
    /// `a * num / den`.
    fn scale(a: &Self::V, num: u64, den: u64) -> Self::V;
    /// The value of an item: `code` compiled in `f64`, `ex` the expression and its
    /// constant value.
    fn value(
        &mut self,
        code: &Code,
        ex: &ExactEx,
        vals: &[i64],
        stack: &mut Vec<i64>,
    ) -> Result<Self::V, Fault>;
    fn start(&mut self, states: usize, choices: usize);
    fn state(&mut self, v: Self::V);
    fn choice(&mut self, v: Self::V);
}

struct F64Sums<'a>(&'a mut Rewards);

impl Sums for F64Sums<'_> {
    type V = f64;
    fn zero() -> f64 {
        0.0
    }
    fn add(a: &mut f64, b: &f64) {
        *a += b;
    }
    fn scale(a: &f64, num: u64, den: u64) -> f64 {
        a * num as f64 / den as f64
    }
    fn value(
        &mut self,
        code: &Code,
        _: &(Ex, Option<Exact>),
        vals: &[i64],
        stack: &mut Vec<i64>,
    ) -> Result<f64, Fault> {
        code.eval_real(vals, stack)
    }
    fn start(&mut self, states: usize, choices: usize) {
        self.0.state.reserve_exact(states);
        self.0.choice.reserve_exact(choices);
    }
    fn state(&mut self, v: f64) {
        self.0.state.push(v);
    }
    fn choice(&mut self, v: f64) {
        self.0.choice.push(v);
    }
}

struct ExactSums<'a>(&'a mut ExactRewards);

impl Sums for ExactSums<'_> {
    type V = Exact;
    fn zero() -> Exact {
        Exact::zero()
    }
    fn add(a: &mut Exact, b: &Exact) {
        *a += b;
    }
    fn scale(a: &Exact, num: u64, den: u64) -> Exact {
        a * Exact::new(num.into(), den.into())
    }
    fn value(
        &mut self,
        _: &Code,
        ex: &ExactEx,
        vals: &[i64],
        _: &mut Vec<i64>,
    ) -> Result<Exact, Fault> {
        match &ex.1 {
            Some(q) => Ok(q.clone()),
            None => {
                let n = vals.len() - 2;
                crate::eval::Context::new(&vals[..n])
                    .with_initial(vals[n] != 0)
                    .with_deadlock(vals[n + 1] != 0)
                    .eval_exact(&ex.0)
                    .map_err(|e| Fault::new(e.span, e.message))
            }
        }
    }
    fn start(&mut self, states: usize, choices: usize) {
        self.0.state.reserve_exact(states);
        self.0.choice.reserve_exact(choices);
    }
    fn state(&mut self, v: Exact) {
        self.0.state.push(v);
    }
    fn choice(&mut self, v: Exact) {
        self.0.choice.push(v);
    }
}
