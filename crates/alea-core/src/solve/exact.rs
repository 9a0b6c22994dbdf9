//! Exact values in rationals, proven.
//!
//! A Markov chain is solved component by component (each after the components it leads
//! to): a state alone in its component directly, a cyclic component as a linear system:
//! by elimination modulo word-sized primes and an exact check (`modular`), or, when its
//! values are too long for those, by elimination in rationals (`elim`).
//!
//! A decision process: first every state alone in its component whose successors are
//! solved, from the sinks up, as the best of its choices (`settle_alone`); the rest by
//! strategy iteration: the strategy read off a sound `f64` solution is evaluated exactly
//! (the Markov chain it induces), then every choice of every open state is valued with
//! those exact values; where one is strictly better the strategy switches to it, and the
//! chain is solved again, until no choice improves. (States solved first are fixed exits
//! of what is left, as the decided ones are.)
//!
//! Why the result is the value. The final values are those of a strategy (so no better
//! than the optimum) and a fixed point of the Bellman operator (no choice improves).
//! - Greatest probability: the value is the least fixed point, at most any fixed point.
//!   Open states that the strategy leaves unable to reach a solved state of positive
//!   value are worth 0 to it (found by a search, not by the linear system, which would be singular there);
//!   switching only on strict improvement never lowers a value.
//! - Least probability and greatest reward: the open states hold no end component, so
//!   every strategy leaves them and the fixed point is unique.
//! - Least reward: every strategy is kept proper (reaching the target with probability
//!   1: where the chain would not, the choices moving toward the target found by the
//!   analysis replace it, and a strict improvement never makes a strategy improper).
//!   For a proper strategy `s` whose values `v` are a fixed point, and an optimal proper
//!   strategy `o`, `v <= B_o(v)` iterated gives `v <= value of o`: `v` is the optimum.
//!
//! A two-player game: the minimiser's choices are improved first, until none improves
//! against the maximiser's current ones (his best reply); for a probability, the
//! minimiser is then moved to stay wherever he can keep the game away from every positive
//! value forever against those choices, which the linear system cannot see; only then
//! are the maximiser's choices improved, and the minimiser replies again. When no choice
//! of either improves, the values are those of the minimiser's best reply to the
//! maximiser's strategy (so no more than the value) and of the maximiser's best reply to
//! the minimiser's (no less): both bounds meet. For a cost, the minimiser is kept on
//! choices that end the game with probability 1, as for one player.

use num_traits::{One, Signed, Zero};

use super::interval;
use super::setup::{Kind, Setup, INFINITE, ONE, TARGET, ZERO};
use super::{ExactAnswer, Goal};
use crate::analysis::components::{components, components_within, SKIP};
use crate::analysis::graph::{Graph, NONE};
use crate::error::{Error, Result};
use crate::form::{ExactProbs, Form};
use crate::guard::Stop;
use crate::numeric::rational::Sum;
use crate::numeric::value::Exact;
use crate::numeric::{elim, modular};

/// The precision of the `f64` solution that the first strategy is read from.
const HINT_PRECISION: f64 = 1e-10;

/// The exact probability of transition `t`.
#[inline]
pub(crate) fn prob(ex: &ExactProbs, t: usize) -> &Exact {
    &ex.values[ex.id[t] as usize]
}

/// The value of choice `c`: its reward plus its successors' values weighted by
/// probability; `None` when a successor has none (an infinite value).
pub(crate) fn choice_value_exact<'v>(
    m: &Form,
    ex: &ExactProbs,
    c: usize,
    rew: Option<&[Exact]>,
    value: impl Fn(usize) -> Option<&'v Exact>,
) -> Option<Exact> {
    let mut sum = Sum::new(rew.map_or(&Exact::zero(), |r| &r[c]));
    for t in m.transitions_of(c) {
        let v = value(m.to[t] as usize)?;
        sum.add_product(prob(ex, t), v);
    }
    Some(sum.finish())
}

/// What the exact solver is asked besides the graph.
pub(crate) struct Job<'a> {
    pub setup: &'a Setup,
    /// Each choice's reward exactly and in `f64` (for expected rewards).
    pub rew: Option<(&'a [Exact], &'a [f64])>,
    /// What each target is worth, exactly and in `f64`; empty: 1 for a probability's
    /// targets, 0 for a reward's.
    pub values: (&'a [Exact], &'a [f64]),
    /// The strategy (choice offsets) to start from, rather than the one read off an
    /// `f64` solution.
    pub start: Option<&'a [u32]>,
    pub stop: &'a Stop,
    pub names: &'a dyn Fn(usize) -> String,
}

/// Exact values of every state of the job's setup.
pub(crate) fn solve(g: &Graph, ex: &ExactProbs, job: &Job) -> Result<ExactAnswer> {
    let setup = job.setup;
    let m = g.m;
    let n = g.states();
    let unknown = setup.unknown();
    let top = if job.values.0.is_empty() {
        Exact::one()
    } else {
        (0..n)
            .filter(|&s| matches!(setup.class[s], ONE | TARGET))
            .map(|s| &job.values.0[s])
            .max()
            .cloned()
            .unwrap_or_else(Exact::zero)
    };
    let mut value: Vec<Option<Exact>> = setup
        .class
        .iter()
        .enumerate()
        .map(|(s, &c)| match c {
            ZERO => Some(Exact::zero()),
            ONE => Some(top.clone()),
            TARGET => Some(job.values.0.get(s).cloned().unwrap_or_else(Exact::zero)),
            _ => None,
        })
        .collect();
    let mut sel: Vec<u32> = (0..n).map(|s| m.choices[s] as u32).collect();
    let rew = job.rew.map(|r| r.0);
    // The states left to strategy iteration.
    let pending = if g.markov || job.start.is_some() {
        unknown.clone()
    } else {
        settle_alone(g, ex, setup, rew, &mut value, &mut sel)
    };
    if let Some(start) = job.start {
        for s in 0..n {
            sel[s] += start[s];
        }
    } else if !g.markov && pending.contains(&true) {
        let f64_rew = job.rew.map_or(&[][..], |r| r.1);
        let values: Vec<[f64; 2]> = job.values.1.iter().map(|&v| [v, v]).collect();
        let hint = interval::solve(
            g,
            &interval::Job {
                setup,
                rew: f64_rew,
                values: &values,
                precision: HINT_PRECISION,
                above: false,
                strict: false,
                stop: job.stop,
                names: job.names,
            },
        )?;
        for s in 0..n {
            if pending[s] {
                sel[s] += hint.strategy[s];
            }
        }
    }
    let mut rounds = 0usize;
    loop {
        job.stop.check()?;
        rounds += 1;
        if rounds > MAX_ROUNDS {
            let s = (0..n).find(|&s| pending[s]).unwrap_or(0);
            return Err(Error::NotConverged(
                (job.names)(s),
                MAX_ROUNDS as u64,
                "strategy iteration did not settle".to_string(),
            ));
        }
        if setup.kind == Kind::Reward {
            make_proper(g, setup, &pending, &value, &mut sel);
        }
        evaluate(g, ex, setup.kind, &pending, &sel, rew, &mut value);
        if g.markov {
            break;
        }
        let better =
            |only, sel: &mut [u32]| improve(g, ex, setup, only, &pending, rew, &value, sel);
        if !setup.game {
            if !better(None, &mut sel) {
                break;
            }
            continue;
        }
        if better(Some(Goal::Min), &mut sel) {
            continue;
        }
        if setup.kind == Kind::Until && keep_from_payoffs(g, setup, &pending, &value, &mut sel) {
            continue;
        }
        if !better(Some(Goal::Max), &mut sel) {
            break;
        }
    }
    let mut strategy = setup.strategy.clone();
    for s in 0..n {
        if unknown[s] {
            strategy[s] = sel[s] - m.choices[s] as u32;
        }
    }
    Ok(ExactAnswer {
        values: value,
        strategy,
        before: None,
    })
}

/// The most rounds of strategy iteration.
const MAX_ROUNDS: usize = 100_000;

/// In a game, for a probability: where the minimiser can keep the game away from every
/// state of positive value forever against the maximiser's current choices, the value
/// is 0; moves him to stay there wherever a value above 0 shows he does not yet. Whether
/// any choice changed.
fn keep_from_payoffs(
    g: &Graph,
    setup: &Setup,
    pending: &[bool],
    value: &[Option<Exact>],
    sel: &mut [u32],
) -> bool {
    let m = g.m;
    let n = g.states();
    let mut safe = pending.to_vec();
    let good = |c: usize, safe: &[bool]| {
        m.to[m.transitions_of(c)].iter().all(|&t| {
            let t = t as usize;
            if pending[t] {
                safe[t]
            } else {
                value[t].as_ref().is_some_and(|v| v.is_zero())
            }
        })
    };
    loop {
        let mut changed = false;
        for s in 0..n {
            if !safe[s] {
                continue;
            }
            let stays = if setup.goal_at(g, s) == Goal::Min {
                m.choices_of(s).any(|c| good(c, &safe))
            } else {
                good(sel[s] as usize, &safe)
            };
            if !stays {
                safe[s] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if !(0..n).any(|s| safe[s] && value[s].as_ref().is_some_and(|v| !v.is_zero())) {
        return false;
    }
    let mut moved = false;
    for s in 0..n {
        if safe[s] && setup.goal_at(g, s) == Goal::Min && !good(sel[s] as usize, &safe) {
            let c = m
                .choices_of(s)
                .find(|&c| good(c, &safe))
                .expect("a safe minimiser has a safe choice");
            sel[s] = c as u32;
            moved = true;
        }
    }
    moved
}

/// The states of `seed`, and those of `through` that reach `seed` with positive
/// probability under the chosen choices `sel`.
fn reach_under(g: &Graph, sel: &[u32], seed: &[bool], through: &[bool]) -> Vec<bool> {
    g.exists_reach_by(
        seed,
        through,
        |c| sel[g.owner[c as usize] as usize] == c,
        |_, _| {},
    )
}

/// For the least expected reward: where the chosen choices would not reach the target
/// with probability 1 (a state that can reach a state that cannot reach it, or that may
/// move to a state of infinite value), take the choices toward the target instead. Those lead, step by step, nearer the target or
/// out to states that keep their (proper) choices, so the result is proper.
fn make_proper(
    g: &Graph,
    setup: &Setup,
    unknown: &[bool],
    value: &[Option<Exact>],
    sel: &mut [u32],
) {
    if setup.toward.is_empty() {
        return;
    }
    let m = g.m;
    let n = g.states();
    // The target, and the states solved already (with proper choices): reaching one is
    // reaching the target.
    let target: Vec<bool> = (0..n).map(|s| !unknown[s] && value[s].is_some()).collect();
    let reach = reach_under(g, sel, &target, unknown);
    // A state whose choice may move to a state of infinite value is spoiled too.
    let cannot: Vec<bool> = (0..n)
        .map(|s| {
            unknown[s]
                && (!reach[s]
                    || m.to[m.transitions_of(sel[s] as usize)]
                        .iter()
                        .any(|&t| setup.class[t as usize] == INFINITE))
        })
        .collect();
    if !cannot.contains(&true) {
        return;
    }
    let spoiled = reach_under(g, sel, &cannot, unknown);
    for s in 0..n {
        // The minimiser's states alone: in a game, the maximiser would keep it going.
        if spoiled[s] && setup.toward[s] != NONE && setup.goal_at(g, s) == Goal::Min {
            sel[s] = setup.toward[s];
        }
    }
}

/// Solves, before any strategy iteration, every open state that is alone in its component
/// of the graph of all choices and whose successors are solved: from the sinks up, each
/// is worth the best of its choices valued from its successors (a choice that may stay in
/// the state taken until it leaves; one that only stays, or may reach a state of infinite
/// value, never the best). This is the value: the successors' are final, and a memoryless
/// strategy attains the optimum. On a model with few cycles (a deadline counted in the
/// state, say) no strategy is iterated at all. Returns the open states left.
fn settle_alone(
    g: &Graph,
    ex: &ExactProbs,
    setup: &Setup,
    rew: Option<&[Exact]>,
    value: &mut [Option<Exact>],
    sel: &mut [u32],
) -> Vec<bool> {
    let m = g.m;
    let mut pending = setup.unknown();
    let comps = components_within(m, &pending);
    // Components lead only to earlier ones: the sinks come first.
    for k in 0..comps.count() {
        let [s] = *comps.get(k) else {
            continue;
        };
        let s = s as usize;
        let ready = m.choices_of(s).all(|c| {
            m.to[m.transitions_of(c)]
                .iter()
                .all(|&t| t as usize == s || !pending[t as usize])
        });
        if !ready {
            continue;
        }
        let mut best: Option<(Exact, usize)> = None;
        for c in m.choices_of(s) {
            let Some(v) = taken_until_leaving(m, ex, s, c, rew, value) else {
                continue;
            };
            let goal = setup.goal_at(g, s);
            let better = best.as_ref().is_none_or(|(b, _)| goal.better(&v, b));
            if better {
                best = Some((v, c));
            }
        }
        if let Some((v, c)) = best {
            value[s] = Some(v);
            sel[s] = c as u32;
            pending[s] = false;
        }
    }
    pending
}

/// The value of choice `c` of state `s`, taken until it leaves `s`: its reward and its
/// other successors' values weighted by probability, over the probability of leaving;
/// `None` when it never leaves, or may reach a state of infinite value.
fn taken_until_leaving(
    m: &Form,
    ex: &ExactProbs,
    s: usize,
    c: usize,
    rew: Option<&[Exact]>,
    value: &[Option<Exact>],
) -> Option<Exact> {
    let mut sum = Sum::new(rew.map_or(&Exact::zero(), |r| &r[c]));
    let mut stay = Exact::zero();
    for t in m.transitions_of(c) {
        let j = m.to[t] as usize;
        if j == s {
            stay += prob(ex, t);
        } else {
            sum.add_product(prob(ex, t), value[j].as_ref()?);
        }
    }
    if stay.is_one() {
        return None;
    }
    let sum = sum.finish();
    Some(if stay.is_zero() {
        sum
    } else {
        sum / (Exact::one() - stay)
    })
}

/// The exact values of the open states under the chosen choices.
fn evaluate(
    g: &Graph,
    ex: &ExactProbs,
    kind: Kind,
    unknown: &[bool],
    sel: &[u32],
    rew: Option<&[Exact]>,
    value: &mut [Option<Exact>],
) {
    let n = g.states();
    let mut active = unknown.to_vec();
    if kind == Kind::Until {
        // The target, and the states solved already with a positive value.
        let positive: Vec<bool> = (0..n)
            .map(|s| !unknown[s] && value[s].as_ref().is_some_and(|v| v.is_positive()))
            .collect();
        let reach = reach_under(g, sel, &positive, unknown);
        for s in 0..n {
            if unknown[s] && !reach[s] {
                value[s] = Some(Exact::zero());
                active[s] = false;
            }
        }
    }
    solve_chain(g, ex, sel, &active, rew, value);
}

/// Solves the chain of the chosen choices on the `active` states, every other successor
/// having its value already.
fn solve_chain(
    g: &Graph,
    ex: &ExactProbs,
    sel: &[u32],
    active: &[bool],
    rew: Option<&[Exact]>,
    value: &mut [Option<Exact>],
) {
    let m = g.m;
    let n = g.states();
    let roots = (0..n as u32).filter(|&s| active[s as usize]);
    let range = |v: u32| m.transitions_of(sel[v as usize] as usize);
    let entry = |t: usize| match m.to[t] {
        w if active[w as usize] => w,
        _ => SKIP,
    };
    let comps = components(n, roots, range, entry);
    let mut local = vec![NONE; n];
    for k in 0..comps.count() {
        let states = comps.get(k);
        if let [s] = *states {
            let s = s as usize;
            let c = sel[s] as usize;
            let v = taken_until_leaving(m, ex, s, c, rew, value)
                .expect("a chosen choice leaves its state, and its successors are solved");
            value[s] = Some(v);
            continue;
        }
        for (i, &s) in states.iter().enumerate() {
            local[s as usize] = i as u32;
        }
        let (rows, b) = chain_system(
            m,
            ex,
            states.iter().map(|&s| sel[s as usize] as usize),
            &local,
            |c| Some(rew.map_or_else(Exact::zero, |r| r[c].clone())),
            |j| Some([value[j].clone()?]),
        )
        .expect("a successor outside the component is solved first");
        let b: Vec<Exact> = b.into_iter().map(|[b]| b).collect();
        let x = match modular::solve(&rows, &b, usize::MAX, u64::MAX) {
            Some(x) => x,
            None => elim::solve(rows, b, None, usize::MAX, &mut { u64::MAX })
                .expect("a component of the chosen chain leaves itself (the strategy is proper)"),
        };
        for (&s, v) in states.iter().zip(x) {
            value[s as usize] = Some(v);
            local[s as usize] = NONE;
        }
    }
}

/// The linear system of a chain component, for [`elim`]: the choices `chosen` of its
/// states (whose local numbers are in `local`, [`NONE`] outside), each row its
/// transitions inside with their probabilities (summed where two lead to one state), each
/// right-hand side the choice's `reward` plus its transitions outside weighted by
/// `outside`, the value of a state outside (`K` of them, one per right-hand side).
/// `None` when `reward` or `outside` has no value.
pub(crate) fn chain_system<const K: usize>(
    m: &Form,
    ex: &ExactProbs,
    chosen: impl Iterator<Item = usize>,
    local: &[u32],
    reward: impl Fn(usize) -> Option<Exact>,
    outside: impl Fn(usize) -> Option<[Exact; K]>,
) -> Option<(elim::Rows, Vec<[Exact; K]>)> {
    let (mut rows, mut b) = (elim::Rows::with_capacity(0, 0), Vec::new());
    for c in chosen {
        let reward = reward(c)?;
        let mut sums: [Sum; K] = std::array::from_fn(|_| Sum::new(&reward));
        for t in m.transitions_of(c) {
            let j = m.to[t] as usize;
            match local[j] {
                NONE => {
                    for (sum, v) in sums.iter_mut().zip(outside(j)?) {
                        sum.add_product(prob(ex, t), &v);
                    }
                }
                k => rows.push(k, prob(ex, t).clone()),
            }
        }
        rows.end_row();
        b.push(sums.map(Sum::finish));
    }
    Some((rows, b))
}

/// Switches every open state (in a game, every one of the player whose goal is `only`)
/// to a strictly better choice, if it has one; whether any switched.
#[allow(clippy::too_many_arguments)]
fn improve(
    g: &Graph,
    ex: &ExactProbs,
    setup: &Setup,
    only: Option<Goal>,
    unknown: &[bool],
    rew: Option<&[Exact]>,
    value: &[Option<Exact>],
    sel: &mut [u32],
) -> bool {
    let m = g.m;
    let mut improved = false;
    for s in 0..g.states() {
        let goal = setup.goal_at(g, s);
        if !unknown[s] || only.is_some_and(|o| o != goal) {
            continue;
        }
        let now = value[s].as_ref().expect("open states are solved");
        let mut best: Option<(Exact, usize)> = None;
        for c in m.choices_of(s) {
            if c == sel[s] as usize {
                continue;
            }
            let Some(v) = choice_value_exact(m, ex, c, rew, |t| value[t].as_ref()) else {
                continue;
            };
            let bar = best.as_ref().map_or(now, |b| &b.0);
            if goal.better(&v, bar) {
                best = Some((v, c));
            }
        }
        if let Some((_, c)) = best {
            sel[s] = c as u32;
            improved = true;
        }
    }
    improved
}
