//! Models given explicitly, state by state: a Markov decision process (a Markov chain
//! when every state has one choice) in compressed sparse rows, with real probabilities,
//! and the questions a model checker asks of it: the probability of reaching a set of
//! states (through another), within a number of steps or at all, the expected reward
//! gathered until a set is reached, and the reward gathered in a number of steps; each
//! minimised or maximised over the choices. Answers are `f64` with a certified error
//! bound, or exact rationals.
//!
//! The games built into alea are explored from a `Model` by the stochastic solver; a model
//! read from a file (the PRISM language) arrives here already explored.
//!
//! Every function answers for every state; the caller picks the initial states.
//! - [`until`], [`until_exact`]: the probability of `stay U target` (`F target` with
//!   `stay` all true). [`bounded_until`], [`bounded_until_exact`]: within `k` steps.
//! - [`reach_reward`], [`reach_reward_exact`]: the expected reward gathered until
//!   `target` (infinite where the optimising strategy misses it with positive
//!   probability). [`cumulative_reward`], [`cumulative_reward_exact`]: in `k` steps.
//! - [`choice_values`], [`choice_values_exact`]: every choice of a state, valued.
//!
//! How. A graph analysis first decides every state of probability 0 or 1 and of infinite
//! expected reward (module `setup`, over the searches of `graph`); the other states are
//! solved component by component of the graph, in `f64` by sound interval iteration with
//! end components collapsed (`interval`), exactly by solving the Markov chain of a
//! strategy (`elim`) and improving the strategy until no choice is better (`exact`).
//! Step-bounded properties take `k` steps of the Bellman operator (`bounded`).
//!
//! Every stored transition must have a positive probability, and every state a choice.

mod bounded;
mod elim;
mod exact;
mod graph;
mod interval;
mod modular;
mod policy;
mod rational;
mod setup;
#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::value::Exact;
use graph::Graph;

/// A Markov decision process with states `0..n`.
///
/// State `s` has choices `choices[s]..choices[s + 1]` (at least one each); choice `c` has
/// transitions `row[c]..row[c + 1]` into `to` and `prob`; the probabilities of a choice add
/// up to 1 (within rounding; exactly in `exact`).
#[derive(Clone, Debug, Default)]
pub struct Sparse {
    pub choices: Vec<usize>,
    pub row: Vec<usize>,
    pub to: Vec<u32>,
    pub prob: Vec<f64>,
    /// The exact probabilities, when the model has them: transition `t` has probability
    /// `exact.values[exact.id[t]]` (few distinct probabilities in most models).
    pub exact: Option<ExactProbs>,
    /// The initial states.
    pub initial: Vec<u32>,
}

/// Exact probabilities, interned.
#[derive(Clone, Debug, Default)]
pub struct ExactProbs {
    pub values: Vec<Exact>,
    pub id: Vec<u32>,
}

impl Sparse {
    pub fn states(&self) -> usize {
        self.choices.len().saturating_sub(1)
    }

    pub fn transitions(&self) -> usize {
        self.to.len()
    }

    pub fn choice_count(&self) -> usize {
        self.row.len().saturating_sub(1)
    }

    /// The choices of state `s`, as a range of choice indices.
    #[inline]
    pub fn choices_of(&self, s: usize) -> std::ops::Range<usize> {
        self.choices[s]..self.choices[s + 1]
    }

    /// The transitions of choice `c`, as a range of transition indices.
    #[inline]
    pub fn transitions_of(&self, c: usize) -> std::ops::Range<usize> {
        self.row[c]..self.row[c + 1]
    }
}

/// Whether the choices minimise or maximise the value (irrelevant in a Markov chain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    Min,
    Max,
}

/// Rewards gathered on leaving a state: the state's own and the chosen choice's. Either
/// vector may be empty (no such rewards); otherwise `state` has one entry per state and
/// `choice` one per choice. Rewards are at least 0.
#[derive(Clone, Debug, Default)]
pub struct Rewards {
    pub state: Vec<f64>,
    pub choice: Vec<f64>,
}

/// Rewards in exact rationals, as [`Rewards`].
#[derive(Clone, Debug, Default)]
pub struct ExactRewards {
    pub state: Vec<Exact>,
    pub choice: Vec<Exact>,
}

/// The midpoint of the bounds `[lo, hi]` of a value and how far it may be from a value
/// between them, absolute up to 1 and relative above, its rounding included.
pub fn midpoint(lo: f64, hi: f64) -> (f64, f64) {
    interval::midpoint(lo, hi)
}

/// The unit roundoff of `f64`: one rounding errs by at most this, relatively.
pub const UNIT: f64 = interval::UNIT;

/// The precision the iteration works to: the one asked for, but no finer than rounding
/// lets the bounds meet.
pub fn clamp_precision(precision: f64) -> f64 {
    interval::clamp_precision(precision)
}

/// The answer for every state, in `f64`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `f64::INFINITY` where the value is infinite (an expected reward where the target is
    /// not reached with probability one).
    pub values: Vec<f64>,
    /// No finite value is further than this from the true value: absolute for values up
    /// to 1, relative above.
    pub error_bound: f64,
    /// An optimal choice of each state, as an index into the state's choices (0 in a
    /// state where every choice is as good, or where nothing is left to choose).
    pub strategy: Vec<u32>,
    /// Sweeps of the iteration, summed over the components.
    pub sweeps: u64,
    /// The states whose value is known exactly, as it is in `values` (the graph analysis
    /// decided it, or its bounds met): their error is 0, not `error_bound`.
    pub pinned: Vec<bool>,
    /// For a step-bounded question, the values with one step fewer (within
    /// `error_bound`): a state's choices are judged by them, the choice taking the first
    /// step; empty when no step is left (k = 0). `None` for the other questions.
    pub before: Option<Vec<f64>>,
}

/// The answer for every state, in exact rationals.
#[derive(Clone, Debug)]
pub struct ExactAnswer {
    /// `None` where the value is infinite.
    pub values: Vec<Option<Exact>>,
    pub strategy: Vec<u32>,
    /// As [`Answer::before`].
    pub before: Option<Vec<Option<Exact>>>,
}

/// Panics unless the model's arrays fit together.
fn check(m: &Sparse) {
    let n = m.states();
    assert!(n < (1 << 30), "a sparse model has fewer than 2^30 states");
    assert!(
        m.choices.is_empty() || m.choices[0] == 0,
        "the first state's choices start at 0"
    );
    assert!(
        (0..n).all(|s| m.choices[s] < m.choices[s + 1]),
        "every state has a choice"
    );
    assert_eq!(
        m.choices.last().copied().unwrap_or(0),
        m.choice_count(),
        "the last state's choices end with the choices"
    );
    assert!(
        m.row.is_empty() || m.row[0] == 0,
        "the first choice's transitions start at 0"
    );
    assert_eq!(
        m.row.last().copied().unwrap_or(0),
        m.to.len(),
        "the last choice's transitions end with the transitions"
    );
    assert_eq!(m.prob.len(), m.to.len(), "one probability per transition");
    assert!(
        m.to.iter().all(|&t| (t as usize) < n),
        "every transition leads to a state"
    );
}

fn check_set(name: &str, set: &[bool], n: usize) {
    assert_eq!(set.len(), n, "`{name}` has one entry per state");
}

fn check_rewards(m: &Sparse, state: usize, choice: usize) {
    assert!(
        state == 0 || state == m.states(),
        "state rewards: none, or one per state"
    );
    assert!(
        choice == 0 || choice == m.choice_count(),
        "choice rewards: none, or one per choice"
    );
}

fn exact_probs(m: &Sparse) -> Result<&ExactProbs> {
    let ex = m.exact.as_ref().ok_or(Error::NotExact)?;
    assert_eq!(
        ex.id.len(),
        m.to.len(),
        "one exact probability per transition"
    );
    Ok(ex)
}

/// The reward of each choice (its state's and its own), in `f64`.
fn rewards_f64(g: &Graph, rewards: &Rewards) -> Vec<f64> {
    check_rewards(g.m, rewards.state.len(), rewards.choice.len());
    assert!(
        rewards
            .state
            .iter()
            .chain(&rewards.choice)
            .all(|r| r.is_finite() && *r >= 0.0),
        "rewards are finite and at least 0"
    );
    interval::choice_rewards(g, &rewards.state, &rewards.choice)
}

/// The reward of each choice (its state's and its own), exactly.
fn rewards_exact(g: &Graph, rewards: &ExactRewards) -> Vec<Exact> {
    use num_traits::{Signed, Zero};
    check_rewards(g.m, rewards.state.len(), rewards.choice.len());
    assert!(
        !rewards
            .state
            .iter()
            .chain(&rewards.choice)
            .any(|r| r.is_negative()),
        "rewards are at least 0"
    );
    (0..g.m.choice_count())
        .map(|c| {
            let mut r = Exact::zero();
            if !rewards.state.is_empty() {
                r += &rewards.state[g.owner[c] as usize];
            }
            if !rewards.choice.is_empty() {
                r += &rewards.choice[c];
            }
            r
        })
        .collect()
}

/// The probability of `stay U target` (`F target` when `stay` is all true) from every
/// state, minimised or maximised over the strategies, within `precision` (absolute; it
/// cannot usefully be below 1e-15).
pub fn until(
    m: &Sparse,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    precision: f64,
) -> Result<Answer> {
    check(m);
    check_set("stay", stay, m.states());
    check_set("target", target, m.states());
    let g = Graph::new(m);
    let setup = setup::until(&g, goal, stay, target);
    let solved = interval::solve(&g, &setup, &[], precision, true)?;
    Ok(interval::answer(&setup, solved))
}

/// [`until`] in exact rationals; the model needs its exact probabilities.
pub fn until_exact(m: &Sparse, goal: Goal, stay: &[bool], target: &[bool]) -> Result<ExactAnswer> {
    check(m);
    check_set("stay", stay, m.states());
    check_set("target", target, m.states());
    let ex = exact_probs(m)?;
    let g = Graph::new(m);
    let setup = setup::until(&g, goal, stay, target);
    exact::solve(&g, ex, &setup, None)
}

/// The probability of `stay U<=k target`: reaching `target` within `k` steps, through
/// `stay` until then. The strategy is the best first move for `k` steps.
pub fn bounded_until(
    m: &Sparse,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    k: u64,
) -> Result<Answer> {
    check(m);
    check_set("stay", stay, m.states());
    check_set("target", target, m.states());
    let g = Graph::new(m);
    Ok(bounded::until(&g, goal, stay, target, k))
}

/// [`bounded_until`] in exact rationals.
pub fn bounded_until_exact(
    m: &Sparse,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    k: u64,
) -> Result<ExactAnswer> {
    check(m);
    check_set("stay", stay, m.states());
    check_set("target", target, m.states());
    let ex = exact_probs(m)?;
    let g = Graph::new(m);
    Ok(bounded::until_exact(&g, ex, goal, stay, target, k))
}

/// The expected reward gathered until `target` is reached (a state's and a choice's
/// rewards are gathered on leaving them; nothing from the target on), within `precision`
/// (absolute up to 1, relative above). Infinite where the optimising strategy misses the
/// target with positive probability: for `Min`, where even the best strategy reaches it
/// with probability below 1; for `Max`, where some strategy does.
pub fn reach_reward(
    m: &Sparse,
    goal: Goal,
    target: &[bool],
    rewards: &Rewards,
    precision: f64,
) -> Result<Answer> {
    check(m);
    check_set("target", target, m.states());
    let g = Graph::new(m);
    let rew = rewards_f64(&g, rewards);
    let setup = setup::reward(&g, goal, target);
    let solved = interval::solve(&g, &setup, &rew, precision, true)?;
    Ok(interval::answer(&setup, solved))
}

/// [`reach_reward`] in exact rationals; the model needs its exact probabilities.
pub fn reach_reward_exact(
    m: &Sparse,
    goal: Goal,
    target: &[bool],
    rewards: &ExactRewards,
) -> Result<ExactAnswer> {
    check(m);
    check_set("target", target, m.states());
    let ex = exact_probs(m)?;
    let g = Graph::new(m);
    let rew = rewards_exact(&g, rewards);
    let approx: Vec<f64> = rew.iter().map(crate::value::Value::to_f64).collect();
    let setup = setup::reward(&g, goal, target);
    exact::solve(&g, ex, &setup, Some((&rew, &approx)))
}

/// The expected reward gathered in the first `k` steps (the rewards of the states left
/// and the choices taken in them). The strategy is the best first move for `k` steps.
pub fn cumulative_reward(m: &Sparse, goal: Goal, rewards: &Rewards, k: u64) -> Result<Answer> {
    check(m);
    let g = Graph::new(m);
    let rew = rewards_f64(&g, rewards);
    Ok(bounded::cumulative(&g, goal, &rew, k))
}

/// [`cumulative_reward`] in exact rationals.
pub fn cumulative_reward_exact(
    m: &Sparse,
    goal: Goal,
    rewards: &ExactRewards,
    k: u64,
) -> Result<ExactAnswer> {
    check(m);
    let ex = exact_probs(m)?;
    let g = Graph::new(m);
    let rew = rewards_exact(&g, rewards);
    Ok(bounded::cumulative_exact(&g, ex, goal, &rew, k))
}

/// The value of each choice of state `s` given every state's value: its reward (the
/// state's and its own, with `rewards`) plus its successors' values weighted by
/// probability; infinite when a successor's value is. With the values of an answer, the
/// best choices are worth the state's value and the others show their loss.
pub fn choice_values(m: &Sparse, s: usize, values: &[f64], rewards: Option<&Rewards>) -> Vec<f64> {
    m.choices_of(s)
        .map(|c| {
            let mut v = 0.0;
            if let Some(r) = rewards {
                if !r.state.is_empty() {
                    v += r.state[s];
                }
                if !r.choice.is_empty() {
                    v += r.choice[c];
                }
            }
            for t in m.transitions_of(c) {
                let x = values[m.to[t] as usize];
                if x == f64::INFINITY {
                    return f64::INFINITY;
                }
                v += m.prob[t] * x;
            }
            v
        })
        .collect()
}

/// [`choice_values`] in exact rationals (`None`: infinite).
pub fn choice_values_exact(
    m: &Sparse,
    s: usize,
    values: &[Option<Exact>],
    rewards: Option<&ExactRewards>,
) -> Result<Vec<Option<Exact>>> {
    let ex = exact_probs(m)?;
    Ok(m.choices_of(s)
        .map(|c| {
            let mut own = Exact::from_integer(0.into());
            if let Some(r) = rewards {
                if !r.state.is_empty() {
                    own += &r.state[s];
                }
                if !r.choice.is_empty() {
                    own += &r.choice[c];
                }
            }
            let base = exact::choice_value_exact(m, ex, c, None, |t| values[t].as_ref())?;
            Some(base + own)
        })
        .collect())
}
