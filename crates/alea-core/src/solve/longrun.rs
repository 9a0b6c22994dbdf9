//! Long-run questions of a Markov chain or decision process: the average reward per step
//! in the long run (the share of time spent in a set, with a reward of 1 there), and the
//! total reward over all steps, the greatest or the least over the strategies.
//!
//! Long-run average. Whatever the strategy, the process settles, with probability one,
//! in an end component and stays there. In a maximal end component every state reaches
//! every other, so the best average is the same from all of its states (the component's
//! gain), and from a state the best average is the best expectation of the gain of the
//! component one settles in. That is a question of reaching: each component's states get
//! one more choice, "stop here", which wins with probability gain / greatest gain (for
//! the least average, (greatest - gain) / greatest, whose greatest expectation is
//! subtracted from the greatest gain), and the greatest probability of winning, times
//! the greatest gain, is the answer. A strategy that never stops wins nothing, so
//! stopping is never worse.
//!
//! A component's gain:
//! - with one choice staying in it per state (a bottom component of a chain, or of a
//!   strategy): by renewal, the expected reward of one cycle from its first state back
//!   to it over the expected length of that cycle, two reach-reward questions on the
//!   component cut open there, certified or exact;
//! - otherwise, in `f64`, by value iteration on the component made aperiodic (each step
//!   stays put with probability 1/2, which changes no average): whatever `v` is, the
//!   least and the greatest of the one-step differences `Tv - v`, rounded outward, bound
//!   the gain (iterating `T` from `v` gains at least the least and at most the greatest
//!   per step), and the iteration goes on until they meet within the precision;
//! - exactly, by strategy iteration from the `f64` solution's strategy: its best bottom
//!   component is made reachable from every state; that component's gain `g` and the
//!   relative values `h` (the reward minus `g` per step, until its first state) certify
//!   the strategy when no choice has `r + P h` better than `g + h`, which then bounds
//!   the average of every strategy; otherwise the better choices are taken and the
//!   strategy is evaluated again.
//!
//! Total reward. It is infinite where a strategy can stay forever, with some reward, in
//! an end component; elsewhere it is the reward gathered until the process settles in
//! an end component without reward. The maximal end components of the choices without
//! reward are each collapsed into one state, which may leave by any other choice of its
//! states or stop: the optimal expected reward until stopping is the answer (infinite
//! where the maximiser can avoid stopping, which every other end component lets it do
//! with some reward on the way, or where the minimiser cannot be sure to stop). In a
//! chain these components are the bottom components without reward.

use super::interval::MAX_SWEEPS;
use super::{checked, reach_reward, reach_reward_exact, until, until_exact};
use super::{Answer, Context, ExactAnswer, Goal};
use crate::analysis::components::bottom_components;
use crate::analysis::graph::{EndComponents, Graph, NONE};
use crate::error::{Error, Result};
use crate::form::{ExactProbs, ExactRewards, Form, Rewards};
use crate::numeric::round::{clamp_precision, margin, midpoint, UNIT};
use crate::numeric::value::{Exact, Value};
use num_traits::Zero as _;
use rustc_hash::FxHashMap;

/// The most rounds of strategy iteration for one component's exact gain.
const MAX_ROUNDS: usize = 1000;

/// The maximal end components of a form made of the choices `candidate` accepts, and
/// whether each choice is one of them that stays in its state's component.
struct Ends {
    comps: Option<EndComponents>,
    inside: Vec<bool>,
}

impl Ends {
    fn new(g: &Graph, candidate: impl Fn(usize) -> bool) -> Ends {
        let m = g.m;
        let comps = g.end_components(&vec![true; m.states()], &candidate);
        let mut inside = vec![false; m.choice_count()];
        if let Some(e) = &comps {
            for s in 0..m.states() {
                let k = e.of[s];
                if k == NONE {
                    continue;
                }
                for c in m.choices_of(s) {
                    inside[c] = candidate(c)
                        && m.to[m.transitions_of(c)]
                            .iter()
                            .all(|&t| e.of[t as usize] == k);
                }
            }
        }
        Ends { comps, inside }
    }

    /// Each component's states, ascending.
    fn each(&self) -> impl Iterator<Item = &[u32]> {
        let count = self.comps.as_ref().map_or(0, EndComponents::count);
        (0..count as u32).map(|k| self.comps.as_ref().expect("counted").get(k))
    }

    /// The component of state `s`, or [`NONE`].
    fn of(&self, s: usize) -> u32 {
        self.comps.as_ref().map_or(NONE, |e| e.of[s])
    }
}

/// The Markov chain of `members` (ascending) when each takes choice `pick[i]`, whose
/// every successor is a member: the states renumbered in order.
fn sub_chain(m: &Form, members: &[u32], pick: &[usize]) -> Form {
    let local = |s: u32| {
        members
            .binary_search(&s)
            .expect("a successor in the component") as u32
    };
    let exact = m.exact_probs().ok();
    let mut f = Form {
        choices: (0..=members.len()).collect(),
        row: vec![0],
        initial: vec![0],
        ..Form::default()
    };
    let mut ids = Vec::new();
    for &c in pick {
        for t in m.transitions_of(c) {
            f.to.push(local(m.to[t]));
            f.prob.push(m.prob[t]);
            if let Some(ex) = exact {
                ids.push(ex.id[t]);
            }
        }
        f.row.push(f.to.len());
    }
    if let Some(ex) = exact {
        f.exact = Some(ExactProbs {
            values: ex.values.clone(),
            id: ids,
        });
    }
    f
}

/// The [`sub_chain`] of `pick`, and the reward of each of its states (`rew` per choice).
fn picked<T: Value>(m: &Form, members: &[u32], pick: &[usize], rew: &[T]) -> (Form, Vec<T>) {
    let rewards = pick.iter().map(|&c| rew[c].clone()).collect();
    (sub_chain(m, members, pick), rewards)
}

/// Bottom component `b` of chain `f` cut open at its first state `r`: its states
/// renumbered in order, then one more, absorbing, where every transition into `r` goes
/// instead. The reward gathered from `r` until that state (`rew` is the reward of each
/// state of `f`) is that of one cycle from `r` back to `r`.
fn cut_open<T: Value>(f: &Form, b: &[u32], rew: &[T]) -> (Form, Rewards<T>) {
    let back = b.len() as u32;
    let pick: Vec<usize> = b.iter().map(|&s| f.choices[s as usize]).collect();
    let mut c = sub_chain(f, b, &pick);
    for t in &mut c.to {
        if *t == 0 {
            *t = back;
        }
    }
    // The state a cycle ends in: absorbing, with no reward.
    c.to.push(back);
    c.prob.push(1.0);
    c.row.push(c.to.len());
    c.choices.push(c.row.len() - 1);
    if let Some(ex) = &mut c.exact {
        ex.id.push(ex.values.len() as u32);
        ex.values.push(<Exact as Value>::one());
    }
    let state = b
        .iter()
        .map(|&s| rew[s as usize].clone())
        .chain([T::zero()]);
    let rewards = Rewards {
        state: state.collect(),
        choice: Vec::new(),
    };
    (c, rewards)
}

/// One reward per state: the length of a cycle.
fn steps<T: Value>(f: &Form) -> Rewards<T> {
    Rewards {
        state: vec![T::one(); f.states()],
        choice: Vec::new(),
    }
}

/// The absorbing state a cut-open component ends in.
fn end_of(f: &Form) -> Vec<bool> {
    (0..f.states()).map(|s| s + 1 == f.states()).collect()
}

/// The long-run average of bottom component `b` of chain `f` (`rew` per state), as
/// bounds, by renewal.
fn renewal(f: &Form, b: &[u32], rew: &[f64], cx: &Context) -> Result<[f64; 2]> {
    if let [s] = b {
        let v = rew[*s as usize];
        return Ok([v, v]);
    }
    let (c, r) = cut_open(f, b, rew);
    let bound = |a: &Answer| {
        let v = a.values[0];
        let e = a.error_bound * v.abs().max(1.0);
        [(v - e).max(0.0), v + e]
    };
    let end = end_of(&c);
    let [n_lo, n_hi] = bound(&reach_reward(&c, Goal::Max, &end, &r, cx)?);
    let [d_lo, d_hi] = bound(&reach_reward(&c, Goal::Max, &end, &steps(&c), cx)?);
    Ok([(n_lo / d_hi).next_down().max(0.0), (n_hi / d_lo).next_up()])
}

/// [`renewal`] in exact rationals.
fn renewal_exact(f: &Form, b: &[u32], rew: &[Exact], cx: &Context) -> Result<Exact> {
    if let [s] = b {
        return Ok(rew[*s as usize].clone());
    }
    let (c, r) = cut_open(f, b, rew);
    let end = end_of(&c);
    let first = |a: ExactAnswer| a.values[0].clone().expect("a cycle ends");
    let cycle = first(reach_reward_exact(&c, Goal::Max, &end, &r, cx)?);
    let length = first(reach_reward_exact(&c, Goal::Max, &end, &steps(&c), cx)?);
    Ok(cycle / length)
}

/// The choices of a component that stay in it, per member, as indices among the state's
/// choices, when each member has exactly one.
fn single_choices(m: &Form, members: &[u32], inside: &[bool]) -> Option<Vec<usize>> {
    members
        .iter()
        .map(|&s| {
            let mut stay = m.choices_of(s as usize).filter(|&c| inside[c]);
            match (stay.next(), stay.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        })
        .collect()
}

/// The optimal gain of end component `members`, as bounds, and a choice of each member
/// (a choice index) that stays in it: by renewal when there is one such choice per
/// member, by value iteration otherwise.
fn gain(
    m: &Form,
    members: &[u32],
    inside: &[bool],
    rew: &[f64],
    goal: Goal,
    cx: &Context,
) -> Result<([f64; 2], Vec<usize>)> {
    if let Some(pick) = single_choices(m, members, inside) {
        let (f, frew) = picked(m, members, &pick, rew);
        let all: Vec<u32> = (0..members.len() as u32).collect();
        return Ok((renewal(&f, &all, &frew, cx)?, pick));
    }
    // The component alone, its choices that stay, each with its transitions renumbered.
    let local = |s: u32| {
        members
            .binary_search(&s)
            .expect("a successor in the component") as u32
    };
    let mut start = vec![0usize];
    let (mut choice, mut crew, mut row) = (Vec::new(), Vec::new(), vec![0usize]);
    let (mut to, mut prob) = (Vec::new(), Vec::new());
    for &s in members {
        for c in m.choices_of(s as usize).filter(|&c| inside[c]) {
            for t in m.transitions_of(c) {
                to.push(local(m.to[t]));
                prob.push(m.prob[t]);
            }
            row.push(to.len());
            choice.push(c);
            crew.push(rew[c]);
        }
        start.push(choice.len());
    }
    let widest = row.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(1);
    let rmax = crew.iter().fold(0.0f64, |a, &r| a.max(r.abs()));
    let tol = clamp_precision(cx.precision) / 4.0;
    let k = members.len();
    let (mut v, mut w) = (vec![0.0f64; k], vec![0.0f64; k]);
    let mut best = vec![0usize; k];
    let mut sweeps = 0u64;
    loop {
        if sweeps.is_multiple_of(64) {
            cx.stop.check()?;
        }
        sweeps += 1;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..k {
            let mut top = None;
            for j in start[i]..start[i + 1] {
                let mut sum = 0.0;
                for t in row[j]..row[j + 1] {
                    sum += prob[t] * v[to[t] as usize];
                }
                let q = crew[j] + 0.5 * sum;
                if top.is_none_or(|(b, _)| goal.better(q, b)) {
                    top = Some((q, j));
                }
            }
            let (q, j) = top.expect("a member has a choice that stays");
            w[i] = 0.5 * v[i] + q;
            best[i] = choice[j];
            let d = w[i] - v[i];
            lo = lo.min(d);
            hi = hi.max(d);
        }
        // Every rounding in a sweep: the sums, the halves added, the differences.
        let vmax = v.iter().fold(0.0f64, |a, &x| a.max(x.abs()));
        let slack = 2.0 * margin(widest + 2) * (rmax + 2.0 * vmax + 2.0 * hi.abs().max(lo.abs()));
        // Done when the differences agree within the precision, or as closely as the
        // rounding lets them be known; the bounds then take the rounding in.
        let spread = hi - lo;
        let (lo, hi) = ((lo - slack).next_down(), (hi + slack).next_up());
        if spread <= (2.0 * tol * lo.abs().max(hi.abs()).max(1.0)).max(slack) {
            return Ok(([lo, hi], best));
        }
        if sweeps >= MAX_SWEEPS {
            return Err(Error::NotConverged(
                (cx.names)(members[0] as usize),
                sweeps,
                format!("the long-run average lies in [{lo:e}, {hi:e}]"),
            ));
        }
        // Relative values: any `v` bounds the gain, and these stay small.
        let base = w[0];
        for (x, &y) in v.iter_mut().zip(&w) {
            *x = y - base;
        }
    }
}

/// The states of chain `f` from which a bottom component other than `class` can be
/// reached.
fn elsewhere(f: &Form, class: &[u32]) -> Vec<bool> {
    let g = Graph::new(f);
    let mut seed = vec![false; f.states()];
    for b in bottom_components(f) {
        if b != class {
            b.iter().for_each(|&s| seed[s as usize] = true);
        }
    }
    g.exists_reach(&seed, &vec![true; f.states()], |_, _| {})
}

/// The exact optimal gain of end component `members`, and a choice of each member that
/// stays in it and attains the gain from every member, by strategy iteration from
/// `pick` (see the module's comment).
fn gain_exact(
    m: &Form,
    members: &[u32],
    inside: &[bool],
    rew: &[Exact],
    goal: Goal,
    mut pick: Vec<usize>,
    cx: &Context,
) -> Result<(Exact, Vec<usize>)> {
    let ex = m.exact_probs()?;
    let local = |s: u32| {
        members
            .binary_search(&s)
            .expect("a successor in the component")
    };
    let k = members.len();
    for _ in 0..MAX_ROUNDS {
        cx.stop.check()?;
        // The strategy's best bottom component and its gain.
        let (mut f, mut frew) = picked(m, members, &pick, rew);
        let mut top: Option<(Exact, Vec<u32>)> = None;
        for b in bottom_components(&f) {
            let a = renewal_exact(&f, &b, &frew, cx)?;
            if top.as_ref().is_none_or(|(t, _)| goal.better(&a, t)) {
                top = Some((a, b));
            }
        }
        let (g, class) = top.expect("a chain has a bottom component");
        // Every member made to reach it: the others move, layer by layer, towards the
        // states that reach no other bottom component.
        let away = elsewhere(&f, &class);
        if away.contains(&true) {
            let mut near: Vec<bool> = away.iter().map(|&a| !a).collect();
            while near.contains(&false) {
                for i in 0..k {
                    if near[i] {
                        continue;
                    }
                    let toward = m.choices_of(members[i] as usize).find(|&c| {
                        inside[c] && m.to[m.transitions_of(c)].iter().any(|&t| near[local(t)])
                    });
                    if let Some(c) = toward {
                        pick[i] = c;
                        near[i] = true;
                    }
                }
            }
            (f, frew) = picked(m, members, &pick, rew);
        }
        // The relative values: reward and steps until the component's first state.
        let first: Vec<bool> = (0..k).map(|i| i == class[0] as usize).collect();
        let reward = Rewards {
            state: frew,
            choice: Vec::new(),
        };
        let of = |a: ExactAnswer| -> Vec<Exact> {
            a.values
                .into_iter()
                .map(|v| v.expect("the component's first state is reached"))
                .collect()
        };
        let total = of(reach_reward_exact(&f, Goal::Max, &first, &reward, cx)?);
        let length = of(reach_reward_exact(&f, Goal::Max, &first, &steps(&f), cx)?);
        let h: Vec<Exact> = total.iter().zip(&length).map(|(r, l)| r - &g * l).collect();
        // Improve where a choice does strictly better than the strategy's own.
        let mut changed = false;
        for i in 0..k {
            let mut top = &g + &h[i];
            let mut better = None;
            for c in m.choices_of(members[i] as usize).filter(|&c| inside[c]) {
                let mut q = rew[c].clone();
                for t in m.transitions_of(c) {
                    q += super::exact::prob(ex, t) * &h[local(m.to[t])];
                }
                if goal.better(&q, &top) {
                    top = q;
                    better = Some(c);
                }
            }
            if let Some(c) = better {
                pick[i] = c;
                changed = true;
            }
        }
        if !changed {
            return Ok((g, pick));
        }
    }
    Err(Error::NotConverged(
        (cx.names)(members[0] as usize),
        MAX_ROUNDS as u64,
        "strategy iteration for the long-run average".into(),
    ))
}

/// Form `m` with one more choice at each state of `stops` (ascending), which moves to a
/// new state `n` ("won") with its probability and to a new state `n + 1` otherwise
/// (both absorbing). `exact` gives those probabilities exactly, for a form with exact
/// ones.
fn with_stops(m: &Form, stops: &[(u32, f64)], exact: Option<&[Exact]>) -> Form {
    let n = m.states();
    let (won, lost) = (n as u32, n as u32 + 1);
    let mx = exact.map(|_| m.exact_probs().expect("exact probabilities"));
    let mut f = Form {
        choices: vec![0],
        row: vec![0],
        initial: m.initial.clone(),
        ..Form::default()
    };
    let mut values = mx.map(|e| e.values.clone()).unwrap_or_default();
    let mut intern = |v: Exact| {
        values.push(v);
        values.len() as u32 - 1
    };
    let one = mx.map(|_| intern(<Exact as Value>::one()));
    let mut ids = Vec::new();
    let mut push = |f: &mut Form, to: u32, p: f64, id: Option<u32>| {
        f.to.push(to);
        f.prob.push(p);
        ids.extend(id);
    };
    let mut next = stops.iter().enumerate().peekable();
    for s in 0..n {
        for c in m.choices_of(s) {
            for t in m.transitions_of(c) {
                push(&mut f, m.to[t], m.prob[t], mx.map(|e| e.id[t]));
            }
            f.row.push(f.to.len());
        }
        if let Some((i, &(_, q))) = next.next_if(|(_, (t, _))| *t as usize == s) {
            // Each side is there when its probability is positive, exactly if given.
            match exact {
                Some(e) => {
                    let rest = <Exact as Value>::one() - &e[i];
                    let lose = rest.to_f64();
                    if !e[i].is_zero() {
                        let id = intern(e[i].clone());
                        push(&mut f, won, q, Some(id));
                    }
                    if !rest.is_zero() {
                        let id = intern(rest);
                        push(&mut f, lost, lose, Some(id));
                    }
                }
                None => {
                    if q > 0.0 {
                        push(&mut f, won, q, None);
                    }
                    if q < 1.0 {
                        push(&mut f, lost, 1.0 - q, None);
                    }
                }
            }
            f.row.push(f.to.len());
        }
        f.choices.push(f.row.len() - 1);
    }
    for sink in [won, lost] {
        push(&mut f, sink, 1.0, one);
        f.row.push(f.to.len());
        f.choices.push(f.row.len() - 1);
    }
    if mx.is_some() {
        f.exact = Some(ExactProbs { values, id: ids });
    }
    f
}

/// The strategy for `m` of an answer on [`with_stops`] of `m`: where it stops, the
/// component's own choice `inner[s]` (a choice), which keeps to its gain.
fn strategy_of(m: &Form, stopped: &[u32], inner: &[usize]) -> Vec<u32> {
    (0..m.states())
        .map(|s| {
            let own = m.choices_of(s);
            match stopped[s] as usize {
                c if c < own.len() => c as u32,
                _ if own.contains(&inner[s]) => (inner[s] - own.start) as u32,
                _ => 0,
            }
        })
        .collect()
}

/// The long-run average reward per step from every state, the greatest or the least
/// over the strategies, certified (a reward of 1 in a set and 0 elsewhere gives the
/// long-run share of time in it).
pub fn long_run(m: &Form, goal: Goal, rewards: &Rewards, cx: &Context) -> Result<Answer> {
    let g = checked(m, &[]);
    assert!(
        !g.game,
        "long-run averages are asked of a chain or a decision process"
    );
    let rew = super::rewards_f64(&g, rewards);
    let ends = Ends::new(&g, |_| true);
    let n = m.states();
    let mut inner = vec![usize::MAX; n];
    let mut gains: Vec<(&[u32], [f64; 2])> = Vec::new();
    for members in ends.each() {
        let (bounds, pick) = gain(m, members, &ends.inside, &rew, goal, cx)?;
        for (&s, c) in members.iter().zip(pick) {
            inner[s as usize] = c;
        }
        gains.push((members, bounds));
    }
    let top = gains.iter().fold(0.0f64, |a, (_, [_, hi])| a.max(*hi));
    if top == 0.0 {
        return Ok(Answer {
            values: vec![0.0; n],
            error_bound: 0.0,
            strategy: strategy_of(m, &vec![u32::MAX; n], &inner),
            sweeps: 0,
            pinned: vec![true; n],
            before: None,
        });
    }
    // Each component's gain, as the probability of winning when stopping there; the
    // payoff's error, half its bounds' width, is added to every value at the end.
    let mut stops = Vec::new();
    let mut spread: f64 = 0.0;
    for (members, [lo, hi]) in &gains {
        let (mid, _) = midpoint(*lo, *hi);
        spread = spread.max((hi - mid).max(mid - lo));
        let q = match goal {
            Goal::Max => mid / top,
            Goal::Min => (top - mid) / top,
        }
        .clamp(0.0, 1.0);
        stops.extend(members.iter().map(|&s| (s, q)));
    }
    stops.sort_unstable_by_key(|&(s, _)| s);
    let f = with_stops(m, &stops, None);
    let won: Vec<bool> = (0..f.states()).map(|s| s == n).collect();
    let names = |s: usize| {
        if s < n {
            (cx.names)(s)
        } else {
            "the stop".into()
        }
    };
    let inner_cx = Context {
        precision: clamp_precision(cx.precision / 2.0 / top.max(1.0)),
        ..cx.naming(&names)
    };
    let p = until(&f, Goal::Max, &vec![true; f.states()], &won, &inner_cx)?;
    let mut error_bound: f64 = 0.0;
    let mut values = Vec::with_capacity(n);
    let mut pinned = Vec::with_capacity(n);
    for s in 0..n {
        let e = if p.pinned[s] { 0.0 } else { p.error_bound };
        let v = match goal {
            Goal::Max => top * p.values[s],
            Goal::Min => top * (1.0 - p.values[s]),
        };
        // The probability's error, the payoffs' (their spread and rounding), the products'.
        let err = top * e + spread + 8.0 * UNIT * (top + v.abs());
        error_bound = error_bound.max(err / v.abs().max(1.0));
        values.push(v);
        pinned.push(false);
    }
    Ok(Answer {
        values,
        error_bound,
        strategy: strategy_of(m, &p.strategy[..n], &inner),
        sweeps: p.sweeps,
        pinned,
        before: None,
    })
}

/// [`long_run`] in exact rationals; the form needs its exact probabilities.
pub fn long_run_exact(
    m: &Form,
    goal: Goal,
    rewards: &ExactRewards,
    cx: &Context,
) -> Result<ExactAnswer> {
    let g = checked(m, &[]);
    assert!(
        !g.game,
        "long-run averages are asked of a chain or a decision process"
    );
    m.exact_probs()?;
    let rew = super::rewards_exact(&g, rewards);
    let approx: Vec<f64> = rew.iter().map(Value::to_f64).collect();
    let ends = Ends::new(&g, |_| true);
    let n = m.states();
    let mut inner = vec![usize::MAX; n];
    let mut gains: Vec<(&[u32], Exact)> = Vec::new();
    for members in ends.each() {
        let (value, pick) = match single_choices(m, members, &ends.inside) {
            Some(pick) => {
                let (f, frew) = picked(m, members, &pick, &rew);
                let all: Vec<u32> = (0..members.len() as u32).collect();
                (renewal_exact(&f, &all, &frew, cx)?, pick)
            }
            None => {
                let hint = Context {
                    precision: 1e-10,
                    ..cx.naming(cx.names)
                };
                let (_, pick) = gain(m, members, &ends.inside, &approx, goal, &hint)?;
                gain_exact(m, members, &ends.inside, &rew, goal, pick, cx)?
            }
        };
        for (&s, c) in members.iter().zip(pick) {
            inner[s as usize] = c;
        }
        gains.push((members, value));
    }
    let zero = <Exact as Value>::zero();
    let top = gains
        .iter()
        .map(|(_, a)| a)
        .fold(&zero, |a, b| a.max(b))
        .clone();
    if top.is_zero() {
        return Ok(ExactAnswer {
            values: vec![Some(zero); n],
            strategy: strategy_of(m, &vec![u32::MAX; n], &inner),
            before: None,
        });
    }
    let mut stops: Vec<(u32, Exact)> = Vec::new();
    for (members, a) in &gains {
        let q = match goal {
            Goal::Max => a / &top,
            Goal::Min => (&top - a) / &top,
        };
        stops.extend(members.iter().map(|&s| (s, q.clone())));
    }
    stops.sort_unstable_by_key(|(s, _)| *s);
    let approx_stops: Vec<(u32, f64)> = stops.iter().map(|(s, q)| (*s, q.to_f64())).collect();
    let exact_stops: Vec<Exact> = stops.into_iter().map(|(_, q)| q).collect();
    let f = with_stops(m, &approx_stops, Some(&exact_stops));
    let won: Vec<bool> = (0..f.states()).map(|s| s == n).collect();
    let names = |s: usize| {
        if s < n {
            (cx.names)(s)
        } else {
            "the stop".into()
        }
    };
    let p = until_exact(
        &f,
        Goal::Max,
        &vec![true; f.states()],
        &won,
        &cx.naming(&names),
    )?;
    let values = p.values[..n]
        .iter()
        .map(|v| {
            let v = v.as_ref().expect("a probability is finite");
            Some(match goal {
                Goal::Max => &top * v,
                Goal::Min => &top * (<Exact as Value>::one() - v),
            })
        })
        .collect();
    Ok(ExactAnswer {
        values,
        strategy: strategy_of(m, &p.strategy[..n], &inner),
        before: None,
    })
}

/// The form that stops in the end components without reward: each component collapsed
/// into one state (its states' choices that leave it, their moves inside it becoming
/// loops, and one more choice into the last state, absorbing, which ends the sum), the
/// other states as they are.
struct Collapsed<T> {
    /// The state each state of the original form becomes.
    into: Vec<u32>,
    form: Form,
    /// Each choice's reward.
    rew: Vec<T>,
    /// The original choice of each choice; `None` for a stop (and the end's loop).
    origin: Vec<Option<usize>>,
    /// A state of the original form that each state stands for.
    stands_for: Vec<usize>,
}

impl<T: Value> Collapsed<T> {
    fn new(m: &Form, ends: &Ends, rew: &[T]) -> Collapsed<T> {
        let n = m.states();
        let mut members: Vec<Vec<u32>> = ends.each().map(<[u32]>::to_vec).collect();
        // Each component takes the place of its first state.
        let mut into = vec![0u32; n];
        let mut stands_for = Vec::new();
        for s in 0..n {
            match ends.of(s) {
                k if k != NONE && members[k as usize][0] as usize != s => {
                    into[s] = into[members[k as usize][0] as usize];
                }
                _ => {
                    into[s] = stands_for.len() as u32;
                    stands_for.push(s);
                }
            }
        }
        let end = stands_for.len() as u32;
        let mx = m.exact_probs().ok();
        let mut c = Collapsed {
            into,
            form: Form {
                choices: vec![0],
                row: vec![0],
                initial: m.initial.clone(),
                ..Form::default()
            },
            rew: Vec::new(),
            origin: Vec::new(),
            stands_for,
        };
        c.form
            .initial
            .iter_mut()
            .for_each(|s| *s = c.into[*s as usize]);
        let mut ids = Vec::new();
        let mut values = mx.map(|e| e.values.clone()).unwrap_or_default();
        let one = mx.map(|_| {
            values.push(<Exact as Value>::one());
            values.len() as u32 - 1
        });
        let add = |c: &mut Collapsed<T>, ids: &mut Vec<u32>, choice: Option<usize>| {
            match choice {
                Some(o) => {
                    for t in m.transitions_of(o) {
                        c.form.to.push(c.into[m.to[t] as usize]);
                        c.form.prob.push(m.prob[t]);
                        ids.extend(mx.map(|e| e.id[t]));
                    }
                    c.rew.push(rew[o].clone());
                }
                None => {
                    c.form.to.push(end);
                    c.form.prob.push(1.0);
                    ids.extend(one);
                    c.rew.push(T::zero());
                }
            }
            c.form.row.push(c.form.to.len());
            c.origin.push(choice);
        };
        for s in 0..n {
            match ends.of(s) {
                NONE => m.choices_of(s).for_each(|o| add(&mut c, &mut ids, Some(o))),
                k if members[k as usize].first() == Some(&(s as u32)) => {
                    for t in std::mem::take(&mut members[k as usize]) {
                        for o in m.choices_of(t as usize).filter(|&o| !ends.inside[o]) {
                            add(&mut c, &mut ids, Some(o));
                        }
                    }
                    add(&mut c, &mut ids, None);
                }
                _ => continue,
            }
            c.form.choices.push(c.form.row.len() - 1);
        }
        add(&mut c, &mut ids, None);
        c.form.choices.push(c.form.row.len() - 1);
        if mx.is_some() {
            c.form.exact = Some(ExactProbs { values, id: ids });
        }
        c
    }

    /// The set of the end, absorbing.
    fn end(&self) -> Vec<bool> {
        let n = self.form.states();
        (0..n).map(|s| s + 1 == n).collect()
    }

    /// The strategy of an answer on the collapsed form, read back on `m`: a state whose
    /// collapsed state takes one of its choices takes it; the other states of a
    /// component take choices that stay in it and lead, with probability 1, to the state
    /// that leaves (any that stay in it, where the component is not left): a strategy
    /// without memory, whose chain is worth the answer's values.
    fn strategy(&self, m: &Form, ends: &Ends, collapsed: &[u32]) -> Vec<u32> {
        const UNSET: u32 = u32::MAX;
        let index = |s: usize, o: usize| -> u32 {
            (o - m.choices[s]).try_into().expect("a choice index fits")
        };
        let mut out: Vec<u32> = (0..m.states())
            .map(|s| {
                let q = self.into[s] as usize;
                match self.origin[self.form.choices[q] + collapsed[q] as usize] {
                    Some(o) if m.choices_of(s).contains(&o) => index(s, o),
                    _ if ends.of(s) == NONE => 0,
                    _ => UNSET,
                }
            })
            .collect();
        for members in ends.each() {
            // Backwards from the leaving state over the choices inside: each state
            // found takes a choice with a move to one found before it.
            let local: FxHashMap<u32, usize> =
                members.iter().enumerate().map(|(i, &s)| (s, i)).collect();
            let mut preds: Vec<Vec<(u32, u32)>> = vec![Vec::new(); members.len()];
            for &s in members {
                for o in m.choices_of(s as usize).filter(|&o| ends.inside[o]) {
                    for &t in &m.to[m.transitions_of(o)] {
                        preds[local[&t]].push((s, index(s as usize, o)));
                    }
                }
            }
            let mut queue: Vec<u32> = members
                .iter()
                .copied()
                .filter(|&s| out[s as usize] != UNSET)
                .collect();
            while let Some(u) = queue.pop() {
                for &(s, i) in &preds[local[&u]] {
                    if out[s as usize] == UNSET {
                        out[s as usize] = i;
                        queue.push(s);
                    }
                }
            }
            for &s in members {
                if out[s as usize] == UNSET {
                    let own = m.choices_of(s as usize);
                    let inside = own.clone().find(|&o| ends.inside[o]).unwrap_or(own.start);
                    out[s as usize] = index(s as usize, inside);
                }
            }
        }
        out
    }
}

/// The expected total reward over all steps from every state, the greatest or the
/// least over the strategies, certified: infinite where the reward is (see the module's
/// comment).
pub fn total_reward(m: &Form, goal: Goal, rewards: &Rewards, cx: &Context) -> Result<Answer> {
    let g = checked(m, &[]);
    if g.game {
        return super::gathered_reward(m, goal, &vec![false; m.states()], rewards, cx);
    }
    let rew = super::rewards_f64(&g, rewards);
    let ends = Ends::new(&g, |c| rew[c] == 0.0);
    let c = Collapsed::new(m, &ends, &rew);
    let names = |q: usize| {
        c.stands_for
            .get(q)
            .map_or("the end".into(), |&s| (cx.names)(s))
    };
    let r = Rewards {
        state: Vec::new(),
        choice: c.rew.clone(),
    };
    let a = reach_reward(&c.form, goal, &c.end(), &r, &cx.naming(&names))?;
    Ok(Answer {
        values: c.into.iter().map(|&q| a.values[q as usize]).collect(),
        error_bound: a.error_bound,
        strategy: c.strategy(m, &ends, &a.strategy),
        sweeps: a.sweeps,
        pinned: c.into.iter().map(|&q| a.pinned[q as usize]).collect(),
        before: None,
    })
}

/// [`total_reward`] in exact rationals.
pub fn total_reward_exact(
    m: &Form,
    goal: Goal,
    rewards: &ExactRewards,
    cx: &Context,
) -> Result<ExactAnswer> {
    let g = checked(m, &[]);
    if g.game {
        return super::gathered_reward_exact(m, goal, &vec![false; m.states()], rewards, cx);
    }
    m.exact_probs()?;
    let rew = super::rewards_exact(&g, rewards);
    let ends = Ends::new(&g, |c| rew[c].is_zero());
    let c = Collapsed::new(m, &ends, &rew);
    let names = |q: usize| {
        c.stands_for
            .get(q)
            .map_or("the end".into(), |&s| (cx.names)(s))
    };
    let r = Rewards {
        state: Vec::new(),
        choice: c.rew.clone(),
    };
    let a = reach_reward_exact(&c.form, goal, &c.end(), &r, &cx.naming(&names))?;
    Ok(ExactAnswer {
        values: c
            .into
            .iter()
            .map(|&q| a.values[q as usize].clone())
            .collect(),
        strategy: c.strategy(m, &ends, &a.strategy),
        before: None,
    })
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::solve::tests::random_model;

    /// Strategy iteration for a component's gain from poor first strategies (every
    /// member's first choice that stays, or its last) comes to the same exact gain as
    /// from the `f64` hint, inside the `f64` bounds, and its strategy attains it.
    #[test]
    fn exact_gains_from_any_first_strategy() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let cx = Context::default();
        let mut tried = 0;
        for _ in 0..300 {
            let n = rng.gen_range(2..=25);
            let m = random_model(&mut rng, n);
            let rew: Vec<Exact> = (0..m.choice_count())
                .map(|_| Exact::from_integer(rng.gen_range(0..=4).into()))
                .collect();
            let approx: Vec<f64> = rew.iter().map(Value::to_f64).collect();
            let g = Graph::new(&m);
            let ends = Ends::new(&g, |_| true);
            for members in ends.each() {
                if single_choices(&m, members, &ends.inside).is_some() {
                    continue;
                }
                tried += 1;
                let staying = |s: u32| m.choices_of(s as usize).filter(|&c| ends.inside[c]);
                let first: Vec<usize> = members
                    .iter()
                    .map(|&s| staying(s).next().unwrap())
                    .collect();
                let last: Vec<usize> = members
                    .iter()
                    .map(|&s| staying(s).next_back().unwrap())
                    .collect();
                for goal in [Goal::Max, Goal::Min] {
                    let ([lo, hi], hint) =
                        gain(&m, members, &ends.inside, &approx, goal, &cx).unwrap();
                    let (want, _) =
                        gain_exact(&m, members, &ends.inside, &rew, goal, hint, &cx).unwrap();
                    let v = want.to_f64();
                    assert!(lo <= v && v <= hi, "{v} outside [{lo}, {hi}]");
                    for start in [first.clone(), last.clone()] {
                        let (got, pick) =
                            gain_exact(&m, members, &ends.inside, &rew, goal, start, &cx).unwrap();
                        assert_eq!(got, want);
                        // The strategy's chain attains the gain from every member.
                        let (f, frew) = picked(&m, members, &pick, &rew);
                        let ends = bottom_components(&f);
                        assert_eq!(ends.len(), 1, "one bottom component");
                        assert_eq!(renewal_exact(&f, &ends[0], &frew, &cx).unwrap(), want);
                    }
                }
            }
        }
        assert!(tried > 50, "only {tried} components with choices");
    }
}
