//! Strategy improvement for the two-player games whose values the interval iteration
//! cannot bound from above: a cost that the players could keep at zero on a cycle away
//! from the target (`R [F phi]`), and the reward gathered until a target where a path
//! that never reaches it keeps what it gathered (`R [Fc phi]`, and `R [C]`, the target
//! being no state).
//!
//! How. One side's positional strategy is fixed: the form left is a decision process of
//! the other side alone, which the engine solves with its end components (certified in
//! `f64`, or exactly). Every choice of the fixed side is valued with those values; where
//! one is better, the strategy switches to it, and the other side replies again; until
//! no choice is better.
//!
//! Why the result is the value.
//! - `F` (a path that misses the target is worth infinitely much): the minimiser's
//!   strategy is improved, from one that reaches the target with probability 1 whatever
//!   the maximiser does (the graph analysis finds it). A strict improvement keeps that
//!   so: on a set where the players could then stay for ever, the values would be at
//!   least their average over the set's stationary distribution, strictly at a switched
//!   state, which cannot be; and without a switched state the set was there before. So
//!   the maximiser's reply never meets an end component, and the final values, a fixed
//!   point reached by such a strategy, are at most what any strategy of the minimiser
//!   that reaches the target gets; the others let the maximiser have infinity.
//! - `Fc` (rewards at least 0): the maximiser's strategy is improved. The values of his
//!   strategies only grow, they stay at most the value, and the final ones are a fixed
//!   point of the Bellman operator, while the value is its least fixed point (the limit
//!   of the values of more and more steps): they are the value.
//!
//! In `f64`, every reply is certified; the bound on the other side comes from the other
//! player's reply to the final strategy, and the two together bracket the value.

use super::{reach_reward, reach_reward_exact, total_reward, total_reward_exact};
use super::{Answer, Context, ExactAnswer, Goal};
use crate::analysis::decide as setup;
use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::{ExactProbs, Form, Rewards};
use crate::numeric::round::{clamp_precision, midpoint};
use crate::numeric::value::{Exact, Value};

/// The most rounds of improvement.
const MAX_ROUNDS: u64 = 10_000;

/// How much finer than the precision asked for each reply is solved in `f64`, and how
/// much better than a state's value (relative to the precision) a choice must look for
/// the strategy to switch: more than the replies' errors can fake, so no switch goes
/// back and forth.
const FINER: f64 = 64.0;
const SWITCH: f64 = 8.0;

/// `m` with some of its choices kept and every target absorbing: with one side's choices
/// fixed, a decision process of the other side alone.
pub(crate) struct Fixed {
    pub form: Form,
    /// The choice of `m` each of the form's choices is; `None` for a target's loop.
    pub origin: Vec<Option<usize>>,
}

impl Fixed {
    /// Every state of `side` takes only its choice `pick[s]` (an offset), every target
    /// only a loop to itself (gathering nothing); the other states keep their choices in
    /// their order, and all belong to one player.
    fn new(m: &Form, side: &[bool], pick: &[u32], target: &[bool]) -> Fixed {
        let keep = |s: usize, c: usize| !side[s] || c == m.choices[s] + pick[s] as usize;
        Fixed::keeping(m, keep, target, Vec::new())
    }

    /// The choices `c` of each state `s` where `keep(s, c)` (at least one), every target
    /// only a loop to itself; `opponent` the new form's second player's states.
    pub(crate) fn keeping(
        m: &Form,
        keep: impl Fn(usize, usize) -> bool,
        target: &[bool],
        opponent: Vec<bool>,
    ) -> Fixed {
        let exact = m.exact_probs().ok();
        let one = exact.map_or(0, |ex| ex.values.len() as u32);
        let mut f = Form {
            choices: vec![0],
            row: vec![0],
            initial: m.initial.clone(),
            opponent,
            ..Form::default()
        };
        let (mut origin, mut ids) = (Vec::new(), Vec::new());
        for (s, &is_target) in target.iter().enumerate() {
            if is_target {
                f.to.push(s as u32);
                f.prob.push(1.0);
                ids.push(one);
                f.row.push(f.to.len());
                origin.push(None);
            } else {
                for c in m.choices_of(s).filter(|&c| keep(s, c)) {
                    for t in m.transitions_of(c) {
                        f.to.push(m.to[t]);
                        f.prob.push(m.prob[t]);
                        if let Some(ex) = exact {
                            ids.push(ex.id[t]);
                        }
                    }
                    f.row.push(f.to.len());
                    origin.push(Some(c));
                }
            }
            f.choices.push(f.row.len() - 1);
        }
        if let Some(ex) = exact {
            let mut values = ex.values.clone();
            values.push(Exact::one());
            f.exact = Some(ExactProbs { values, id: ids });
        }
        Fixed { form: f, origin }
    }

    /// The rewards of the form's choices, `rew` being those of `m`'s.
    pub(crate) fn rewards<T: Value>(&self, rew: &[T]) -> Rewards<T> {
        Rewards {
            state: Vec::new(),
            choice: self
                .origin
                .iter()
                .map(|o| o.map_or_else(T::zero, |c| rew[c].clone()))
                .collect(),
        }
    }
}

/// The values of a form with one side fixed (`None`: infinite) and the other side's
/// reply (a choice offset per state).
type Reply<V> = (Vec<Option<V>>, Vec<u32>);

/// A choice's value given every state's (`None`: infinite).
type ValueOf<'a, V> = dyn Fn(usize, &[Option<V>]) -> Option<V> + 'a;

/// What an improvement is asked: the side improved, the targets, and how a choice is
/// valued.
struct Task<'a, V> {
    m: &'a Form,
    /// The states whose strategy is improved.
    side: &'a [bool],
    /// Whether that side maximises.
    maximise: bool,
    target: &'a [bool],
    /// A choice's value given every state's.
    value_of: &'a ValueOf<'a, V>,
    /// How much better than a state's value `v` a choice must be to switch to it.
    margin: &'a dyn Fn(&V) -> V,
}

/// Whether `q` is better than `v` by more than `margin` for a side that maximises or
/// minimises (`None` is infinity).
fn better<V: Value>(maximise: bool, q: &Option<V>, v: &Option<V>, margin: &V) -> bool {
    use std::cmp::Ordering::{Greater, Less};
    match (maximise, q, v) {
        (true, _, None) | (false, None, _) => false,
        (true, None, Some(_)) | (false, Some(_), None) => true,
        (true, Some(q), Some(v)) => q.compare(&v.add(margin)) == Some(Greater),
        (false, Some(q), Some(v)) => q.compare(&v.sub(margin)) == Some(Less),
    }
}

/// Improves the side's strategy `pick` until no choice is better; returns the values of
/// the last reply, the strategy of both sides (the side's and the reply's) and the
/// rounds taken.
fn improve<V: Value>(
    task: &Task<V>,
    mut pick: Vec<u32>,
    reply: &mut dyn FnMut(&Fixed) -> Result<Reply<V>>,
    cx: &Context,
) -> Result<(Vec<Option<V>>, Vec<u32>, u64)> {
    let m = task.m;
    for round in 1..=MAX_ROUNDS {
        cx.stop.check()?;
        let fixed = Fixed::new(m, task.side, &pick, task.target);
        let (values, answer) = reply(&fixed)?;
        let mut changed = false;
        for s in (0..m.states()).filter(|&s| task.side[s] && !task.target[s]) {
            let margin = match &values[s] {
                Some(v) => (task.margin)(v),
                None => V::zero(),
            };
            let mut best: Option<(u32, Option<V>)> = None;
            for (i, c) in m.choices_of(s).enumerate() {
                let q = (task.value_of)(c, &values);
                let beats_best = match &best {
                    None => better(task.maximise, &q, &values[s], &margin),
                    Some((_, b)) => better(task.maximise, &q, b, &V::zero()),
                };
                if beats_best {
                    best = Some((i as u32, q));
                }
            }
            if let Some((i, _)) = best {
                pick[s] = i;
                changed = true;
            }
        }
        if !changed {
            let strategy = (0..m.states())
                .map(|s| match (task.target[s], task.side[s]) {
                    (true, _) => 0,
                    (false, true) => pick[s],
                    (false, false) => answer[s],
                })
                .collect();
            return Ok((values, strategy, round));
        }
    }
    let s = (0..m.states()).find(|&s| task.side[s]).unwrap_or(0);
    Err(Error::NotConverged(
        (cx.names)(s),
        MAX_ROUNDS,
        "strategy improvement did not settle".to_string(),
    ))
}

/// A choice's value in `f64`: its reward and its successors' values by probability.
fn value_f64(m: &Form, rew: &[f64], c: usize, values: &[Option<f64>]) -> Option<f64> {
    let mut v = rew[c];
    for t in m.transitions_of(c) {
        v += m.prob[t] * values[m.to[t] as usize]?;
    }
    Some(v)
}

/// A choice's value exactly.
fn value_exact(
    m: &Form,
    ex: &ExactProbs,
    rew: &[Exact],
    c: usize,
    values: &[Option<Exact>],
) -> Option<Exact> {
    super::exact::choice_value_exact(m, ex, c, Some(rew), |t| values[t].as_ref())
}

/// The values of an answer, `None` where infinite.
fn finite(a: &Answer) -> Vec<Option<f64>> {
    a.values
        .iter()
        .map(|&v| (v != f64::INFINITY).then_some(v))
        .collect()
}

/// What a path that never reaches the target is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missed {
    /// Infinitely much (`F`): the minimiser's strategy is improved.
    Infinite,
    /// What it gathered (`Fc`): the maximiser's.
    Gathered,
}

impl Missed {
    /// Whether the side improved maximises.
    fn improves_max(self) -> bool {
        self == Missed::Gathered
    }
}

/// The states of the side improved, and its first strategy: for `F`, the minimiser's
/// choices that reach the target with probability 1 (the graph analysis's); for `Fc`,
/// the first choice of each state.
fn start(g: &Graph, goal: Goal, target: &[bool], missed: Missed) -> (Vec<bool>, Vec<u32>) {
    let n = g.states();
    let own = if missed.improves_max() {
        Goal::Max
    } else {
        Goal::Min
    };
    let side = (0..n).map(|s| g.goal_at(goal, s) == own).collect();
    let pick = match missed {
        Missed::Infinite => setup::reward(g, goal, target).strategy,
        Missed::Gathered => vec![0; n],
    };
    (side, pick)
}

/// The decision process's answer in `f64` for the side replying (`reply_goal`).
fn reply_f64(
    fixed: &Fixed,
    reply_goal: Goal,
    target: &[bool],
    rew: &[f64],
    missed: Missed,
    cx: &Context,
) -> Result<Answer> {
    let r = fixed.rewards(rew);
    match missed {
        Missed::Infinite => reach_reward(&fixed.form, reply_goal, target, &r, cx),
        Missed::Gathered => total_reward(&fixed.form, reply_goal, &r, cx),
    }
}

/// Certified in `f64`: the value of `R [F target]` (`missed` infinite) or `R [Fc target]`
/// in a two-player game.
fn game_f64(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[f64],
    missed: Missed,
    cx: &Context,
) -> Result<Answer> {
    let m = g.m;
    let n = g.states();
    let (side, pick) = start(g, goal, target, missed);
    let maximise = missed.improves_max();
    let fine = Context {
        precision: clamp_precision(cx.precision) / FINER,
        stop: cx.stop.clone(),
        names: cx.names,
    };
    let switch = clamp_precision(cx.precision) / SWITCH;
    let reply_goal = if maximise { Goal::Min } else { Goal::Max };
    let mut sweeps = 0;
    let mut last = None;
    let (_, strategy, rounds) = improve(
        &Task {
            m,
            side: &side,
            maximise,
            target,
            value_of: &|c, v| value_f64(m, rew, c, v),
            margin: &|v: &f64| switch * v.abs().max(1.0),
        },
        pick,
        &mut |fixed| {
            let a = reply_f64(fixed, reply_goal, target, rew, missed, &fine)?;
            sweeps += a.sweeps;
            let reply = (finite(&a), a.strategy.clone());
            last = Some(a);
            Ok(reply)
        },
        cx,
    )?;
    let improved = last.expect("a round replies");
    // The other side's bound: its strategy fixed, the improved side replies.
    let other: Vec<bool> = (0..n).map(|s| !side[s]).collect();
    let fixed = Fixed::new(m, &other, &strategy, target);
    let reply_goal = if maximise { Goal::Max } else { Goal::Min };
    let check = reply_f64(&fixed, reply_goal, target, rew, missed, &fine)?;
    sweeps += check.sweeps;
    let (low, high) = if maximise {
        (&improved, &check)
    } else {
        (&check, &improved)
    };
    bracket(low, high, strategy, sweeps, rounds, cx)
}

/// The answer whose every value lies between the lower bounds of `low` and the upper
/// bounds of `high`, or the error that they are further apart than the precision.
fn bracket(
    low: &Answer,
    high: &Answer,
    strategy: Vec<u32>,
    sweeps: u64,
    rounds: u64,
    cx: &Context,
) -> Result<Answer> {
    let err = |a: &Answer, s: usize| match a.pinned[s] {
        true => 0.0,
        false => a.error_bound * a.values[s].abs().max(1.0),
    };
    let n = low.values.len();
    let (mut values, mut pinned) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut error_bound: f64 = 0.0;
    for s in 0..n {
        if low.values[s] == f64::INFINITY {
            values.push(f64::INFINITY);
            pinned.push(true);
            continue;
        }
        let lo = (low.values[s] - err(low, s)).max(0.0);
        let hi = high.values[s] + err(high, s);
        let (mid, e) = midpoint(lo, hi.max(lo));
        if e.is_nan() || e > clamp_precision(cx.precision) {
            return Err(Error::NotConverged(
                (cx.names)(s),
                rounds,
                format!("the two players' best replies bound it by {lo} and {hi}"),
            ));
        }
        error_bound = error_bound.max(e);
        values.push(mid);
        pinned.push(lo == hi);
    }
    Ok(Answer {
        values,
        error_bound,
        strategy,
        sweeps,
        pinned,
        before: None,
    })
}

/// Exactly: the value of `R [F target]` or `R [Fc target]` in a two-player game.
fn game_exact(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[Exact],
    missed: Missed,
    cx: &Context,
) -> Result<ExactAnswer> {
    let m = g.m;
    let ex = m.exact_probs()?;
    let (side, pick) = start(g, goal, target, missed);
    let maximise = missed.improves_max();
    let reply_goal = if maximise { Goal::Min } else { Goal::Max };
    let (values, strategy, _) = improve(
        &Task {
            m,
            side: &side,
            maximise,
            target,
            value_of: &|c, v| value_exact(m, ex, rew, c, v),
            margin: &|_| Exact::zero(),
        },
        pick,
        &mut |fixed| {
            let r = fixed.rewards(rew);
            let a = match missed {
                Missed::Infinite => reach_reward_exact(&fixed.form, reply_goal, target, &r, cx),
                Missed::Gathered => total_reward_exact(&fixed.form, reply_goal, &r, cx),
            }?;
            Ok((a.values, a.strategy))
        },
        cx,
    )?;
    Ok(ExactAnswer {
        values,
        strategy,
        before: None,
    })
}

/// `R [F target]` in a game with a cycle of zero rewards, in `f64`.
pub(crate) fn reach_reward_game(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[f64],
    cx: &Context,
) -> Result<Answer> {
    game_f64(g, goal, target, rew, Missed::Infinite, cx)
}

/// [`reach_reward_game`] exactly.
pub(crate) fn reach_reward_game_exact(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[Exact],
    cx: &Context,
) -> Result<ExactAnswer> {
    game_exact(g, goal, target, rew, Missed::Infinite, cx)
}

/// `R [Fc target]`: the reward gathered until `target`, a path that never reaches it
/// keeping all it gathers, in `f64`. In a chain or a decision process, the total reward
/// with the targets made absorbing.
pub(crate) fn gathered(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[f64],
    cx: &Context,
) -> Result<Answer> {
    if g.game {
        return game_f64(g, goal, target, rew, Missed::Gathered, cx);
    }
    let n = g.states();
    let fixed = Fixed::new(g.m, &vec![false; n], &vec![0; n], target);
    let a = total_reward(&fixed.form, g.goal(goal), &fixed.rewards(rew), cx)?;
    Ok(a)
}

/// [`gathered`] exactly.
pub(crate) fn gathered_exact(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[Exact],
    cx: &Context,
) -> Result<ExactAnswer> {
    if g.game {
        return game_exact(g, goal, target, rew, Missed::Gathered, cx);
    }
    let n = g.states();
    let fixed = Fixed::new(g.m, &vec![false; n], &vec![0; n], target);
    total_reward_exact(&fixed.form, g.goal(goal), &fixed.rewards(rew), cx)
}
