//! The solvers, one family for every front end: whatever a form came from (a model file,
//! a game described by callbacks, a game written in Python), it is answered here.
//!
//! Every question is answered for every state; the caller picks the initial states.
//! - [`until`], [`until_exact`]: the probability of `stay U target` (`F target` with
//!   `stay` all true). [`bounded_until`], [`bounded_until_exact`]: within `k` steps.
//! - [`reach_reward`], [`reach_reward_exact`]: the expected reward gathered until
//!   `target` (infinite where the optimising strategy misses it with positive
//!   probability). [`cumulative_reward`], [`cumulative_reward_exact`]: in `k` steps.
//! - [`choice_values`], [`choice_values_exact`]: every choice of a state, valued.
//! - [`long_run`], [`long_run_exact`]: a chain's long-run average reward per step (the
//!   share of time in a set); [`total_reward`], [`total_reward_exact`]: its reward over
//!   all steps (`longrun`).
//! - [`game`]: a game described node by node (terminal payoffs, rewards on the way, two
//!   players), and [`acyclic`]: games without cycles evaluated straight from their
//!   callbacks, many small ones in a row with one workspace.
//!
//! How. The graph analysis (`crate::analysis`) first decides every state of value 0, of
//! the greatest value and of infinite expected reward; the other states are solved
//! component by component of the graph, each after those it leads to: in `f64` by sound
//! interval iteration (`interval`), with end components collapsed or deflated and guesses
//! certified (`guess`); exactly by solving the Markov chain of a strategy and improving
//! the strategy until no choice is better (`exact`). Step-bounded properties take `k`
//! steps of the Bellman operator (`bounded`).
//!
//! Every stored transition must have a positive probability, and every state a choice.

pub mod acyclic;
mod bellman;
mod bounded;
mod exact;
pub mod game;
mod guess;
mod improve;
mod interval;
mod longrun;
mod reached;
#[cfg(test)]
mod tests;

use crate::analysis::decide as setup;
use crate::analysis::graph::Graph;
use crate::error::Result;
use crate::form::{ExactRewards, Form, Rewards};
use crate::guard::Stop;
use crate::numeric::value::{Exact, Value};

pub use longrun::{long_run, long_run_exact, total_reward, total_reward_exact};

/// What "best" means: the greatest value (a win probability, a score) or the least (an
/// expected time). In a two-player game, the goal of the first player; the second has
/// the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    #[default]
    Max,
    Min,
}

impl Goal {
    /// The other player's goal.
    pub fn opposite(self) -> Goal {
        match self {
            Goal::Max => Goal::Min,
            Goal::Min => Goal::Max,
        }
    }

    /// Whether `a` is strictly better than `b` for this goal.
    #[inline]
    pub fn better<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Goal::Max => a > b,
            Goal::Min => a < b,
        }
    }

    /// The better of two pairs of bounds, each side on its own: the best of lower bounds
    /// is a lower bound on the best, and so for the upper.
    #[inline(always)]
    pub fn best_of(self, [l, h]: [f64; 2], [a, b]: [f64; 2]) -> [f64; 2] {
        match self {
            Goal::Max => [l.max(a), h.max(b)],
            Goal::Min => [l.min(a), h.min(b)],
        }
    }
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

/// What a solve runs with besides its question: how precise an `f64` answer must be,
/// the flag that stops it, and how an error names a state (the front end's own name for
/// it: its variables in a model file, its `repr` in Python).
pub struct Context<'a> {
    /// The largest error allowed on an `f64` value: absolute up to 1, relative above; it
    /// cannot usefully be below 1e-15.
    pub precision: f64,
    pub stop: Stop,
    pub names: &'a (dyn Fn(usize) -> String + Sync),
}

/// A state's name when the front end gives none: its number.
fn number(s: usize) -> String {
    s.to_string()
}

impl Context<'static> {
    /// The context of a solve to `precision` that nothing stops, naming states by number.
    pub fn new(precision: f64) -> Context<'static> {
        Context {
            precision,
            stop: Stop::default(),
            names: &number,
        }
    }
}

impl Default for Context<'static> {
    /// To the default precision, 1e-12.
    fn default() -> Self {
        Context::new(1e-12)
    }
}

impl<'a> Context<'a> {
    pub fn with_stop(self, stop: Stop) -> Context<'a> {
        Context { stop, ..self }
    }

    /// The same precision and stop flag, naming states by `names`: for a question on a
    /// form derived from the caller's, whose states stand for the caller's.
    pub fn naming<'b>(&self, names: &'b (dyn Fn(usize) -> String + Sync)) -> Context<'b> {
        Context {
            precision: self.precision,
            stop: self.stop.clone(),
            names,
        }
    }

    pub fn with_names<'b>(self, names: &'b (dyn Fn(usize) -> String + Sync)) -> Context<'b> {
        Context {
            precision: self.precision,
            stop: self.stop,
            names,
        }
    }
}

/// Who picks at each state: the goal of the one player who chooses, or in a game each
/// state's player's.
pub(crate) struct Sides {
    goal: Goal,
    /// In a game, whether each state's player maximises; empty otherwise.
    maximise: Vec<bool>,
}

impl Sides {
    pub fn new(g: &Graph, first: Goal) -> Sides {
        if g.game {
            Sides {
                goal: first,
                maximise: (0..g.states())
                    .map(|s| g.goal_at(first, s) == Goal::Max)
                    .collect(),
            }
        } else {
            Sides {
                goal: g.goal(first),
                maximise: Vec::new(),
            }
        }
    }

    #[inline(always)]
    pub fn at(&self, s: usize) -> Goal {
        match self.maximise.get(s) {
            Some(true) => Goal::Max,
            Some(false) => Goal::Min,
            None => self.goal,
        }
    }
}

/// The graph of a form checked for a question on it, each of `sets` (a name and a
/// set of states) holding one entry per state.
fn checked<'a>(m: &'a Form, sets: &[(&str, &[bool])]) -> Graph<'a> {
    m.check();
    for (name, set) in sets {
        assert_eq!(set.len(), m.states(), "`{name}` has one entry per state");
    }
    Graph::new(m)
}

/// The reward of each choice (its state's and its own), every reward given checked to be
/// `valid` (`what` says what that means).
fn choice_rewards<T: Value>(
    g: &Graph,
    rewards: &Rewards<T>,
    valid: impl Fn(&T) -> bool,
    what: &str,
) -> Vec<T> {
    let (m, state, choice) = (g.m, rewards.state.len(), rewards.choice.len());
    assert!(
        state == 0 || state == m.states(),
        "state rewards: none, or one per state"
    );
    assert!(
        choice == 0 || choice == m.choice_count(),
        "choice rewards: none, or one per choice"
    );
    let ok = rewards.state.iter().chain(&rewards.choice).all(valid);
    assert!(ok, "{what}");
    (0..m.choice_count())
        .map(|c| rewards.of(g.owner[c] as usize, c))
        .collect()
}

/// The reward of each choice (its state's and its own), in `f64`.
fn rewards_f64(g: &Graph, rewards: &Rewards) -> Vec<f64> {
    let valid = |r: &f64| r.is_finite() && *r >= 0.0;
    choice_rewards(g, rewards, valid, "rewards are finite and at least 0")
}

/// The reward of each choice (its state's and its own), exactly.
fn rewards_exact(g: &Graph, rewards: &ExactRewards) -> Vec<Exact> {
    use num_traits::Signed;
    choice_rewards(g, rewards, |r| !r.is_negative(), "rewards are at least 0")
}

/// The probability of `stay U target` (`F target` when `stay` is all true) from every
/// state, minimised or maximised (by the first player, in a game) over the strategies.
pub fn until(m: &Form, goal: Goal, stay: &[bool], target: &[bool], cx: &Context) -> Result<Answer> {
    let g = checked(m, &[("stay", stay), ("target", target)]);
    let setup = setup::until(&g, goal, stay, target, None);
    certified(&g, &setup, &[], cx)
}

/// Where the complement of `stay U target` is settled when only fair strategies count:
/// the states outside both `stay` and `target`, and those of each bottom component of
/// all choices that lies inside `stay` and outside `target`.
///
/// A fair strategy (PRISM's `-fair`) takes every choice of a state it visits infinitely
/// often infinitely often, so with probability 1 it ends in a component that no choice
/// leaves: one inside `stay` without `target` avoids `target` for ever, every other set
/// of states is left. So the least probability of `stay U target` over the fair
/// strategies is one minus the greatest probability of `!target U fair_escape(...)`;
/// the greatest probability of reaching a set is the same over the fair strategies as
/// over all.
pub fn fair_escape(m: &Form, stay: &[bool], target: &[bool]) -> Vec<bool> {
    assert!(stay.len() == m.states() && target.len() == m.states());
    let mut out: Vec<bool> = (0..m.states()).map(|s| !stay[s] && !target[s]).collect();
    for b in crate::analysis::components::bottom_components(m) {
        if b.iter().all(|&s| stay[s as usize] && !target[s as usize]) {
            for s in b {
                out[s as usize] = true;
            }
        }
    }
    out
}

/// The certified answer of a question set up on `g`, `rew` each choice's reward.
fn certified(g: &Graph, setup: &setup::Setup, rew: &[f64], cx: &Context) -> Result<Answer> {
    let job = interval::Job {
        setup,
        rew,
        values: &[],
        precision: cx.precision,
        above: false,
        strict: true,
        stop: &cx.stop,
        names: cx.names,
    };
    let solved = interval::solve(g, &job)?;
    Ok(interval::answer(&job, solved))
}

/// The proven answer of a question set up on `g`, `rew` each choice's reward exactly and
/// in `f64`.
fn proven(
    g: &Graph,
    setup: &setup::Setup,
    rew: Option<(&[Exact], &[f64])>,
    cx: &Context,
) -> Result<ExactAnswer> {
    exact::solve(
        g,
        g.m.exact_probs()?,
        &exact::Job {
            setup,
            rew,
            values: (&[], &[]),
            start: None,
            stop: &cx.stop,
            names: cx.names,
        },
    )
}

/// Bounds on the values of a part of a larger model whose other states are solved: a
/// cluster's worker solves the states it holds once the states they lead to are done.
pub struct PartBounds {
    /// Every state's lower and upper bound (an exit's as given).
    pub bounds: Vec<[f64; 2]>,
    /// Sweeps of the iteration, summed over the components.
    pub sweeps: u64,
}

/// The probability of reaching a target (without `rewards`), or the expected reward
/// gathered until then (with them), maximised or minimised, for the states of a part of
/// a larger model. Each state `s` with `exits[s]` stands for a state outside the part, or
/// one whose value is known, within the bounds given: its choices are never followed,
/// except those of an exit of infinite reward, which must loop on it. Every other state
/// is solved, with the graph analysis on this form: its decided values are right for the
/// larger model as long as each exit's value is 0, 1 (a probability) or infinite exactly
/// where the exit's is. With `above`, every component settles as one led into from
/// outside (other parts may lie upstream, see `Settle`).
pub fn part(
    m: &Form,
    goal: Goal,
    exits: &[Option<[f64; 2]>],
    rewards: Option<&Rewards>,
    cx: &Context,
    above: bool,
) -> Result<PartBounds> {
    let n = m.states();
    assert_eq!(exits.len(), n, "one exit entry per state");
    let g = checked(m, &[]);
    let values: Vec<[f64; 2]> = exits.iter().map(|e| e.unwrap_or([0.0, 0.0])).collect();
    let (setup, rew) = match rewards {
        None => {
            // An exit worth 0 is a state where the process stays, worth nothing; one worth
            // exactly 1 is a target worth the most.
            let target: Vec<bool> = exits
                .iter()
                .map(|e| e.is_some_and(|[_, hi]| hi > 0.0))
                .collect();
            let top: Vec<bool> = exits.iter().map(|e| *e == Some([1.0, 1.0])).collect();
            let stay: Vec<bool> = exits.iter().map(Option::is_none).collect();
            (
                setup::until(&g, goal, &stay, &target, Some(&top)),
                Vec::new(),
            )
        }
        Some(r) => {
            // An infinite exit is no target: never reaching one, it is found infinite.
            let target: Vec<bool> = exits
                .iter()
                .map(|e| e.is_some_and(|[lo, _]| lo.is_finite()))
                .collect();
            (setup::reward(&g, goal, &target), rewards_f64(&g, r))
        }
    };
    let job = interval::Job {
        setup: &setup,
        rew: &rew,
        values: &values,
        precision: cx.precision,
        above,
        strict: true,
        stop: &cx.stop,
        names: cx.names,
    };
    let solved = interval::solve(&g, &job)?;
    Ok(PartBounds {
        bounds: solved.x,
        sweeps: solved.sweeps,
    })
}

/// [`until`] in exact rationals; the model needs its exact probabilities.
pub fn until_exact(
    m: &Form,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    cx: &Context,
) -> Result<ExactAnswer> {
    let g = checked(m, &[("stay", stay), ("target", target)]);
    let setup = setup::until(&g, goal, stay, target, None);
    proven(&g, &setup, None, cx)
}

/// The probability of `stay U<=k target`: reaching `target` within `k` steps, through
/// `stay` until then. The strategy is the best first move for `k` steps.
pub fn bounded_until(
    m: &Form,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    k: u64,
) -> Result<Answer> {
    let g = checked(m, &[("stay", stay), ("target", target)]);
    Ok(bounded::until(&g, &Sides::new(&g, goal), stay, target, k))
}

/// [`bounded_until`] in exact rationals.
pub fn bounded_until_exact(
    m: &Form,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    k: u64,
) -> Result<ExactAnswer> {
    let ex = m.exact_probs()?;
    let g = checked(m, &[("stay", stay), ("target", target)]);
    let sides = Sides::new(&g, goal);
    Ok(bounded::until_exact(&g, ex, &sides, stay, target, k))
}

/// The value of staying in `open` for `k` steps and then being worth `start` (bounds on
/// each state's value there): a state outside `open` is worth its start value when it is
/// reached at step `k`, and 0 before. With `probability`, the values stay within
/// [0, 1]. The step-bounded properties with a first step (`F>=k`, `U[a,b]`) are such a
/// prefix before their remaining question; with `open` every state, the expected value
/// of `start` after `k` steps (the instantaneous reward). The best choice depends on the
/// steps left: the strategy is the best first move. With `open` every state and not
/// `probability`, many steps may be bounded at once, within `precision`.
pub fn prefix(
    m: &Form,
    goal: Goal,
    open: &[bool],
    start: Vec<[f64; 2]>,
    k: u64,
    probability: bool,
    precision: f64,
) -> Result<Answer> {
    let g = checked(m, &[("open", open)]);
    assert_eq!(start.len(), m.states(), "one start value per state");
    Ok(bounded::prefix(
        m,
        &Sides::new(&g, goal),
        open,
        start,
        k,
        probability,
        precision,
    ))
}

/// [`prefix`] in exact rationals.
pub fn prefix_exact(
    m: &Form,
    goal: Goal,
    open: &[bool],
    start: Vec<Exact>,
    k: u64,
) -> Result<ExactAnswer> {
    let ex = m.exact_probs()?;
    let g = checked(m, &[("open", open)]);
    assert_eq!(start.len(), m.states(), "one start value per state");
    let sides = Sides::new(&g, goal);
    Ok(bounded::prefix_exact(m, ex, &sides, open, start, k))
}

/// The expected reward gathered until `target` is reached (a state's and a choice's
/// rewards are gathered on leaving them; nothing from the target on). Infinite where the
/// optimising strategy misses the target with positive probability: for `Min`, where
/// even the best strategy reaches it with probability below 1; for `Max`, where some
/// strategy does.
pub fn reach_reward(
    m: &Form,
    goal: Goal,
    target: &[bool],
    rewards: &Rewards,
    cx: &Context,
) -> Result<Answer> {
    let g = checked(m, &[("target", target)]);
    let rew = rewards_f64(&g, rewards);
    let setup = setup::reward(&g, goal, target);
    if interval::zero_cycle(&g, &setup, &rew).is_some() {
        return improve::reach_reward_game(&g, goal, target, &rew, cx);
    }
    certified(&g, &setup, &rew, cx)
}

/// [`reach_reward`] in exact rationals; the model needs its exact probabilities.
pub fn reach_reward_exact(
    m: &Form,
    goal: Goal,
    target: &[bool],
    rewards: &ExactRewards,
    cx: &Context,
) -> Result<ExactAnswer> {
    let g = checked(m, &[("target", target)]);
    let rew = rewards_exact(&g, rewards);
    let approx: Vec<f64> = rew.iter().map(Value::to_f64).collect();
    let setup = setup::reward(&g, goal, target);
    if interval::zero_cycle(&g, &setup, &approx).is_some() {
        return improve::reach_reward_game_exact(&g, goal, target, &rew, cx);
    }
    proven(&g, &setup, Some((&rew, &approx)), cx)
}

/// The expected reward gathered until `target` is reached, where a path that never
/// reaches it keeps all it gathers (PRISM-games' `Fc`): the total reward with the
/// targets made absorbing. Infinite where the maximising side can gather without bound
/// with positive probability.
pub fn gathered_reward(
    m: &Form,
    goal: Goal,
    target: &[bool],
    rewards: &Rewards,
    cx: &Context,
) -> Result<Answer> {
    let g = checked(m, &[("target", target)]);
    let rew = rewards_f64(&g, rewards);
    improve::gathered(&g, goal, target, &rew, cx)
}

/// The expected reward gathered until `target` is reached, where a path that never
/// reaches it is worth nothing (PRISM-games' `F0`), in exact rationals (the model needs
/// its exact probabilities): the best play depends on the reward gathered so far, and
/// the value is found over the states paired with it (see `reached`). `None` where
/// infinite.
pub fn reached_reward_exact(
    m: &Form,
    goal: Goal,
    target: &[bool],
    rewards: &ExactRewards,
    cx: &Context,
) -> Result<ExactAnswer> {
    let g = checked(m, &[("target", target)]);
    m.exact_probs()?;
    let rew = rewards_exact(&g, rewards);
    reached::reached_exact(&g, goal, target, &rew, cx)
}

/// [`gathered_reward`] in exact rationals.
pub fn gathered_reward_exact(
    m: &Form,
    goal: Goal,
    target: &[bool],
    rewards: &ExactRewards,
    cx: &Context,
) -> Result<ExactAnswer> {
    let g = checked(m, &[("target", target)]);
    let rew = rewards_exact(&g, rewards);
    improve::gathered_exact(&g, goal, target, &rew, cx)
}

/// The expected reward gathered in the first `k` steps (the rewards of the states left
/// and the choices taken in them). The strategy is the best first move for `k` steps.
/// Once the values gain the same each step, within `precision`, the steps left are
/// bounded at once rather than taken.
pub fn cumulative_reward(
    m: &Form,
    goal: Goal,
    rewards: &Rewards,
    k: u64,
    precision: f64,
) -> Result<Answer> {
    let g = checked(m, &[]);
    let rew = rewards_f64(&g, rewards);
    Ok(bounded::cumulative(
        &g,
        &Sides::new(&g, goal),
        &rew,
        k,
        precision,
    ))
}

/// [`cumulative_reward`] in exact rationals.
pub fn cumulative_reward_exact(
    m: &Form,
    goal: Goal,
    rewards: &ExactRewards,
    k: u64,
) -> Result<ExactAnswer> {
    let ex = m.exact_probs()?;
    let g = checked(m, &[]);
    let rew = rewards_exact(&g, rewards);
    let sides = Sides::new(&g, goal);
    Ok(bounded::cumulative_exact(&g, ex, &sides, &rew, k))
}

/// The value of each choice of state `s` given every state's value: its reward (the
/// state's and its own, with `rewards`) plus its successors' values weighted by
/// probability; infinite when a successor's value is. With the values of an answer, the
/// best choices are worth the state's value and the others show their loss.
pub fn choice_values(m: &Form, s: usize, values: &[f64], rewards: Option<&Rewards>) -> Vec<f64> {
    m.choices_of(s)
        .map(|c| {
            let mut v = rewards.map_or(0.0, |r| r.of(s, c));
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
    m: &Form,
    s: usize,
    values: &[Option<Exact>],
    rewards: Option<&ExactRewards>,
) -> Result<Vec<Option<Exact>>> {
    let ex = m.exact_probs()?;
    Ok(m.choices_of(s)
        .map(|c| {
            let own = rewards.map(|r| r.of(s, c)).unwrap_or_default();
            let base = exact::choice_value_exact(m, ex, c, None, |t| values[t].as_ref())?;
            Some(base + own)
        })
        .collect())
}
