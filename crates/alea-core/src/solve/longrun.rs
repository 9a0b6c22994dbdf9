//! Long-run questions of a Markov chain: the average reward per step in the long run
//! (the share of time spent in a set, with a reward of 1 there), and the total reward
//! over all steps.
//!
//! A chain ends, with probability one, in one of its bottom strongly connected
//! components (no transition leaves them) and then visits every state of it for ever.
//! So the long-run average from a state is the average of each bottom component,
//! weighted by the probability of reaching it. Within a component, from any of its
//! states `r`, the average is the expected reward of one cycle from `r` back to `r` over
//! the expected length of that cycle (renewal): two expected rewards until a target on
//! the component alone, cut open at `r`, which the reach-reward solvers answer, certified
//! or exactly. The total reward is finite where no bottom component with a reward can be
//! reached, and then it is the reward gathered until the bottom components are reached.

use super::{checked, reach_reward, reach_reward_exact, until, until_exact};
use super::{Answer, Context, ExactAnswer, Goal};
use crate::analysis::components::components_within;
use crate::error::Result;
use crate::form::{ExactProbs, ExactRewards, Form, Rewards};
use crate::numeric::round::midpoint;
use crate::numeric::value::{Exact, Value};
use num_traits::Zero;

/// The bottom strongly connected components of a chain, each sorted.
fn bottoms(m: &Form) -> Vec<Vec<u32>> {
    let n = m.states();
    let comps = components_within(m, &vec![true; n]);
    let mut comp_of = vec![0u32; n];
    for k in 0..comps.count() {
        for &s in comps.get(k) {
            comp_of[s as usize] = k as u32;
        }
    }
    (0..comps.count())
        .filter(|&k| {
            comps.get(k).iter().all(|&s| {
                m.choices_of(s as usize)
                    .flat_map(|c| &m.to[m.transitions_of(c)])
                    .all(|&t| comp_of[t as usize] == k as u32)
            })
        })
        .map(|k| {
            let mut b = comps.get(k).to_vec();
            b.sort_unstable();
            b
        })
        .collect()
}

/// The chain of bottom component `b` cut open at its first state `r`: its states
/// renumbered in order, then one more, absorbing, where every transition into `r` goes
/// instead. The reward gathered from `r` until that state is that of one cycle from `r`
/// back to `r`. `rewards` of the whole chain are carried over (the new state has none).
fn cut_open<T: Value>(m: &Form, b: &[u32], rewards: &Rewards<T>) -> (Form, Rewards<T>) {
    let local = |s: u32| b.binary_search(&s).expect("a bottom component is closed") as u32;
    let back = b.len() as u32;
    let exact = m.exact_probs().ok();
    let mut f = Form {
        choices: vec![0],
        row: vec![0],
        initial: vec![0],
        ..Form::default()
    };
    let mut ids = Vec::new();
    let mut state = Vec::new();
    let mut choice = Vec::new();
    for &s in b {
        for c in m.choices_of(s as usize) {
            for t in m.transitions_of(c) {
                let to = m.to[t];
                f.to.push(if to == b[0] { back } else { local(to) });
                f.prob.push(m.prob[t]);
                if let Some(ex) = exact {
                    ids.push(ex.id[t]);
                }
            }
            f.row.push(f.to.len());
            if !rewards.choice.is_empty() {
                choice.push(rewards.choice[c].clone());
            }
        }
        f.choices.push(f.row.len() - 1);
        if !rewards.state.is_empty() {
            state.push(rewards.state[s as usize].clone());
        }
    }
    // The state a cycle ends in: absorbing, with no reward.
    f.to.push(back);
    f.prob.push(1.0);
    f.row.push(f.to.len());
    f.choices.push(f.row.len() - 1);
    if !rewards.state.is_empty() {
        state.push(T::zero());
    }
    if !rewards.choice.is_empty() {
        choice.push(T::zero());
    }
    if let Some(ex) = exact {
        let mut values = ex.values.clone();
        ids.push(values.len() as u32);
        values.push(Exact::from_integer(1.into()));
        f.exact = Some(ExactProbs { values, id: ids });
    }
    (f, Rewards { state, choice })
}

/// Whether a bottom component gathers no reward at all.
fn rewardless<T: Value>(m: &Form, b: &[u32], rewards: &Rewards<T>) -> bool {
    b.iter().all(|&s| {
        m.choices_of(s as usize)
            .all(|c| rewards.of(s as usize, c).to_f64() == 0.0)
    })
}

/// One reward per state: the length of a cycle.
fn steps<T: Value>(f: &Form) -> Rewards<T> {
    Rewards {
        state: vec![T::one(); f.states()],
        choice: Vec::new(),
    }
}

/// The long-run average reward per step from every state of a Markov chain, certified
/// (a reward of 1 in a set and 0 elsewhere gives the long-run share of time in it).
/// The chain must have one choice per state.
pub fn long_run(m: &Form, rewards: &Rewards, cx: &Context) -> Result<Answer> {
    let g = checked(m, &[]);
    assert!(g.markov, "long-run averages are asked of a chain");
    let n = m.states();
    // Each bottom component's average, as bounds.
    let mut groups: Vec<([f64; 2], Vec<bool>)> = Vec::new();
    for b in bottoms(m) {
        let avg = if b.len() == 1 {
            let s = b[0] as usize;
            let c = m.choices[s];
            let v = rewards.of(s, c);
            [v, v]
        } else {
            let (f, r) = cut_open(m, &b, rewards);
            let target: Vec<bool> = (0..f.states()).map(|s| s == b.len()).collect();
            let bound = |a: &Answer| {
                let v = a.values[0];
                let e = a.error_bound * v.abs().max(1.0);
                [(v - e).max(0.0), v + e]
            };
            let [n_lo, n_hi] = bound(&reach_reward(&f, Goal::Max, &target, &r, cx)?);
            let [d_lo, d_hi] = bound(&reach_reward(&f, Goal::Max, &target, &steps(&f), cx)?);
            [(n_lo / d_hi).next_down().max(0.0), (n_hi / d_lo).next_up()]
        };
        match groups.iter_mut().find(|(a, _)| *a == avg) {
            Some((_, set)) => b.iter().for_each(|&s| set[s as usize] = true),
            None => {
                let mut set = vec![false; n];
                b.iter().for_each(|&s| set[s as usize] = true);
                groups.push((avg, set));
            }
        }
    }
    // The averages weighted by the probabilities of reaching their components.
    let all = vec![true; n];
    let mut lo = vec![0.0f64; n];
    let mut hi = vec![0.0f64; n];
    for ([a_lo, a_hi], set) in &groups {
        if *a_hi == 0.0 {
            continue;
        }
        let p = until(m, Goal::Max, &all, set, cx)?;
        for s in 0..n {
            let (v, e) = if p.pinned[s] {
                (p.values[s], 0.0)
            } else {
                (p.values[s], p.error_bound)
            };
            let (p_lo, p_hi) = ((v - e).max(0.0), (v + e).min(1.0));
            lo[s] += a_lo * p_lo;
            hi[s] += a_hi * p_hi;
        }
    }
    // Each sum of `groups` products, rounded outward as a whole.
    let margin = (2.0 * groups.len() as f64 + 4.0) * f64::EPSILON;
    let mut error_bound: f64 = 0.0;
    let mut values = Vec::with_capacity(n);
    let mut pinned = Vec::with_capacity(n);
    for s in 0..n {
        let (l, h) = (lo[s] * (1.0 - margin), hi[s] * (1.0 + margin));
        if l == h {
            values.push(l);
            pinned.push(true);
        } else {
            let (mid, err) = midpoint(l, h);
            error_bound = error_bound.max(err);
            values.push(mid);
            pinned.push(false);
        }
    }
    Ok(Answer {
        values,
        error_bound,
        strategy: vec![0; n],
        sweeps: 0,
        pinned,
        before: None,
    })
}

/// [`long_run`] in exact rationals; the chain needs its exact probabilities.
pub fn long_run_exact(m: &Form, rewards: &ExactRewards, cx: &Context) -> Result<ExactAnswer> {
    let g = checked(m, &[]);
    assert!(g.markov, "long-run averages are asked of a chain");
    m.exact_probs()?;
    let n = m.states();
    let mut groups: Vec<(Exact, Vec<bool>)> = Vec::new();
    for b in bottoms(m) {
        let avg = if b.len() == 1 {
            let s = b[0] as usize;
            rewards.of(s, m.choices[s])
        } else {
            let (f, r) = cut_open(m, &b, rewards);
            let target: Vec<bool> = (0..f.states()).map(|s| s == b.len()).collect();
            let first = |a: ExactAnswer| a.values[0].clone().expect("a cycle ends");
            let cycle = first(reach_reward_exact(&f, Goal::Max, &target, &r, cx)?);
            let length = first(reach_reward_exact(&f, Goal::Max, &target, &steps(&f), cx)?);
            cycle / length
        };
        match groups.iter_mut().find(|(a, _)| *a == avg) {
            Some((_, set)) => b.iter().for_each(|&s| set[s as usize] = true),
            None => {
                let mut set = vec![false; n];
                b.iter().for_each(|&s| set[s as usize] = true);
                groups.push((avg, set));
            }
        }
    }
    let all = vec![true; n];
    let mut values = vec![<Exact as Zero>::zero(); n];
    for (a, set) in &groups {
        if a.is_zero() {
            continue;
        }
        let p = until_exact(m, Goal::Max, &all, set, cx)?;
        for (v, q) in values.iter_mut().zip(p.values) {
            *v += a * q.expect("a probability is finite");
        }
    }
    Ok(ExactAnswer {
        values: values.into_iter().map(Some).collect(),
        strategy: vec![0; n],
        before: None,
    })
}

/// The expected total reward over all steps from every state of a Markov chain,
/// certified: infinite where a bottom component that gathers a reward can be reached,
/// otherwise the reward gathered until the bottom components are reached.
pub fn total_reward(m: &Form, rewards: &Rewards, cx: &Context) -> Result<Answer> {
    reach_reward(m, Goal::Max, &rewardless_bottoms(m, rewards), rewards, cx)
}

/// [`total_reward`] in exact rationals.
pub fn total_reward_exact(m: &Form, rewards: &ExactRewards, cx: &Context) -> Result<ExactAnswer> {
    reach_reward_exact(m, Goal::Max, &rewardless_bottoms(m, rewards), rewards, cx)
}

/// The states of the bottom components that gather no reward.
fn rewardless_bottoms<T: Value>(m: &Form, rewards: &Rewards<T>) -> Vec<bool> {
    let g = checked(m, &[]);
    assert!(g.markov, "total rewards are asked of a chain");
    let mut set = vec![false; m.states()];
    for b in bottoms(m) {
        if rewardless(m, &b, rewards) {
            b.iter().for_each(|&s| set[s as usize] = true);
        }
    }
    set
}
