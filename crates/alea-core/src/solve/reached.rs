//! The reward gathered until a target where a path that never reaches it is worth
//! nothing (PRISM-games' `F0`), exactly.
//!
//! What it is. A path is worth the reward it gathers until it first reaches the target,
//! or 0 if it never does. The more a player has gathered, the more reaching the target
//! is worth to him against gathering more, so the best play depends on what was
//! gathered: the value is found over the states paired with the reward gathered so far,
//! `x` (the rewards whole numbers, after scaling by their least common denominator).
//!
//! How.
//! - From a bound `B` on, reaching the target comes first: a state is worth
//!   `x P(s) + W(s)`, where `P` is the value of the game of reaching the target, and `W`
//!   that of the reward game (a path keeping what it gathers, `Fc`) over the choices
//!   that keep `P` (whose successors average `P(s)`), each choice's reward weighted by
//!   `P(s)`, the probability that it ends up counting. `B` is where no other choice pays
//!   any more: a choice whose successors average `q` instead of `P(s)` is worth
//!   `x q + a` against `x P(s) + W(s)`; past `(a - W(s)) / (P(s) - q)` (for the
//!   maximiser; the other way for the minimiser) it is worse, so these values satisfy
//!   every layer's equations from `B` on.
//! - Below `B`, layer by layer down to 0: in layer `x` a choice with a reward leaves the
//!   layer for a later one, already solved, and is worth its successors' values there;
//!   a target is worth `x`; the rest is a game of payoffs at the layer's exits (the
//!   engine's reachability game with target values), staying in the layer for ever
//!   worth 0.
//! - Infinite where `W` is (the maximiser gathers for ever with positive probability
//!   and can still reach the target after any amount), and where the maximiser gets
//!   there with positive probability.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::improve::{gathered_exact, Fixed};
use super::{exact, until_exact, Context, ExactAnswer, Goal};
use crate::analysis::decide as setup;
use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::{ExactProbs, Form};
use crate::numeric::value::Exact;

/// The most layers of gathered reward solved one by one.
pub const MAX_LAYERS: u64 = 100_000;

/// The value of `F0` from every state: `None` where infinite. `rew` is each choice's
/// reward (its state's and its own), at least 0.
pub(crate) fn reached_exact(
    g: &Graph,
    goal: Goal,
    target: &[bool],
    rew: &[Exact],
    cx: &Context,
) -> Result<ExactAnswer> {
    let m = g.m;
    let n = g.states();
    let ex = m.exact_probs()?;
    // Whole rewards: scaled by the least common denominator, the values scale with them.
    let scale = rew.iter().fold(BigInt::one(), |l, r| l.lcm(r.denom()));
    let whole: Vec<u64> = rew
        .iter()
        .map(|r| {
            (r * Exact::from_integer(scale.clone()))
                .to_integer()
                .to_u64()
        })
        .collect::<Option<_>>()
        .ok_or_else(|| too_many(cx, u64::MAX))?;
    let maximises = |s: usize| g.goal_at(goal, s) == Goal::Max;
    let through: Vec<bool> = target.iter().map(|&t| !t).collect();
    // The minimiser avoids the states of infinite value: his choices into them are taken
    // out, and `P`, `W` and those states found again, until none is left to take out.
    let mut allowed = vec![true; m.choice_count()];
    let mut infinite = vec![false; n];
    let (p, rich_strategy, w) = loop {
        let now = Fixed::keeping(m, |_, c| allowed[c], target, m.opponent.clone());
        let (p, rich, kept) = rich_game(g, &now, goal, target, &allowed, &whole, cx)?;
        let q = |c: usize| successors_p(m, ex, &p, c);
        // Infinite: where `W` is, where the maximiser gets there, and where it was.
        // Unless the minimiser can leave the choices that keep `P` there: raising the
        // probability of the target may then end the gathering at less than infinity,
        // which these layers do not see.
        let mut seed: Vec<bool> = rich.values.iter().map(Option::is_none).collect();
        if let Some(s) = (0..n).find(|&s| {
            seed[s]
                && !target[s]
                && !maximises(s)
                && m.choices_of(s).any(|c| allowed[c] && q(c) != p[s])
        }) {
            return Err(Error::Unsupported(format!(
                "at state {}, where the maximiser could gather for ever, the minimiser may \
                 end it by raising the probability of reaching the target; the reward of a \
                 path worth 0 unless it reaches the target is not solved for such a game yet",
                (cx.names)(s)
            )));
        }
        for (s, seeded) in seed.iter_mut().enumerate() {
            *seeded |= infinite[s];
        }
        infinite = Graph::new(&now.form).attract(&seed, &through, goal, Goal::Max);
        let into = |c: usize| {
            m.to[m.transitions_of(c)]
                .iter()
                .any(|&t| infinite[t as usize])
        };
        let mut removed = false;
        for s in (0..n).filter(|&s| !infinite[s] && !target[s] && !maximises(s)) {
            for c in m.choices_of(s) {
                if allowed[c] && into(c) {
                    allowed[c] = false;
                    removed = true;
                }
            }
        }
        if !removed {
            // The best choices once the bound is passed: the reward game's, read on `m`.
            let rich_strategy: Vec<u32> = (0..n)
                .map(|s| {
                    let c = kept.form.choices[s] + rich.strategy[s] as usize;
                    kept.origin[c].map_or(0, |o| (o - m.choices[s]) as u32)
                })
                .collect();
            break (p, rich_strategy, rich.values);
        }
    };
    let q = |c: usize| successors_p(m, ex, &p, c);
    let w: Vec<Exact> = w.into_iter().map(Option::unwrap_or_default).collect();
    // The layer from which the values are `x P + W`.
    let mut bound = Exact::zero();
    for s in (0..n).filter(|&s| !target[s] && !infinite[s]) {
        for c in m.choices_of(s) {
            let qc = q(c);
            if qc == p[s]
                || m.to[m.transitions_of(c)]
                    .iter()
                    .any(|&t| infinite[t as usize])
            {
                continue;
            }
            let mut a = Exact::from_integer(whole[c].into()) * &qc;
            for t in m.transitions_of(c) {
                a += exact::prob(ex, t) * &w[m.to[t] as usize];
            }
            let b = match maximises(s) {
                true => (a - &w[s]) / (&p[s] - &qc),
                false => (&w[s] - a) / (qc - &p[s]),
            };
            bound = bound.max(b);
        }
    }
    let layers = bound.ceil().to_integer().to_u64().unwrap_or(u64::MAX);
    if layers > MAX_LAYERS {
        return Err(too_many(cx, layers));
    }
    let layered = Layers::new(m, target, &infinite, &whole);
    // `ring[y % span]`: the values of layer `y` while a layer below may need them (a
    // choice's reward reaches at most `top` layers up, and none past the bound).
    let top = whole.iter().copied().max().unwrap_or(0);
    let span = top.min(layers) + 1;
    let mut ring: Vec<Vec<Exact>> = vec![Vec::new(); span as usize];
    let at = |ring: &[Vec<Exact>], y: u64, t: usize| -> Exact {
        match y >= layers {
            true => Exact::from_integer(y.into()) * &p[t] + &w[t],
            false => ring[(y % span) as usize][t].clone(),
        }
    };
    // With no layer below the bound, the best play is the reward game's from the start.
    let mut strategy = rich_strategy;
    for x in (0..layers).rev() {
        cx.stop.check()?;
        // What each state of the layer is worth on arriving: a target `x`, an exit its
        // choice's successors in the later layer.
        let values: Vec<Exact> = (0..layered.form.states())
            .map(|v| match v.checked_sub(n) {
                None if target[v] => Exact::from_integer(x.into()),
                None => Exact::zero(),
                Some(e) => {
                    let c = layered.exit[e];
                    let mut sum = Exact::zero();
                    for t in m.transitions_of(c) {
                        sum += exact::prob(ex, t)
                            * at(&ring, x.saturating_add(whole[c]), m.to[t] as usize);
                    }
                    sum
                }
            })
            .collect();
        let solved = layered.solve(goal, &values, cx)?;
        strategy = layered.offsets(m, &solved.strategy);
        let mut layer: Vec<Exact> = solved.values[..n]
            .iter()
            .map(|v| v.clone().expect("a payoff game's value is finite"))
            .collect();
        for (s, v) in layer.iter_mut().enumerate() {
            if target[s] {
                *v = Exact::from_integer(x.into());
            }
        }
        ring[(x % span) as usize] = layer;
    }
    let scale = Exact::from_integer(scale);
    let values = (0..n)
        .map(|s| match (target[s], infinite[s]) {
            (true, _) => Some(Exact::zero()),
            (false, true) => None,
            (false, false) => Some(at(&ring, 0, s) / &scale),
        })
        .collect();
    Ok(ExactAnswer {
        values,
        strategy,
        before: None,
    })
}

/// The probability game of reaching `target` over the `allowed` choices (`P`, played on
/// `now`, the form with those choices alone), and the reward game over those of them
/// that keep `P` (`W`: rewards `whole` weighted by `P`, a path that never reaches the
/// target keeping what it gathers), with that game's form. `g` is the whole game's
/// graph.
fn rich_game(
    g: &Graph,
    now: &Fixed,
    goal: Goal,
    target: &[bool],
    allowed: &[bool],
    whole: &[u64],
    cx: &Context,
) -> Result<(Vec<Exact>, ExactAnswer, Fixed)> {
    let m = g.m;
    let n = m.states();
    let ex = m.exact_probs()?;
    let p = until_exact(&now.form, goal, &vec![true; n], target, cx)?.values;
    let p: Vec<Exact> = p.into_iter().map(|v| v.expect("a probability")).collect();
    let keeps = |s: usize, c: usize| allowed[c] && successors_p(m, ex, &p, c) == p[s];
    let kept = Fixed::keeping(m, keeps, target, m.opponent.clone());
    let weighted: Vec<Exact> = (0..m.choice_count())
        .map(|c| Exact::from_integer(whole[c].into()) * &p[g.owner[c] as usize])
        .collect();
    let kg = Graph::new(&kept.form);
    let rich = gathered_exact(&kg, goal, target, &kept.rewards(&weighted).choice, cx)?;
    Ok((p, rich, kept))
}

/// The probability of choice `c`'s successors, `p` of each state.
fn successors_p(m: &Form, ex: &ExactProbs, p: &[Exact], c: usize) -> Exact {
    exact::choice_value_exact(m, ex, c, None, |t| Some(&p[t])).expect("every state has a value")
}

/// The error of too many layers.
fn too_many(cx: &Context, layers: u64) -> Error {
    Error::NotConverged(
        (cx.names)(0),
        layers,
        format!(
            "a path worth 0 unless it reaches the target needs the layers of reward \
             gathered solved one by one, and this one needs more than {MAX_LAYERS}"
        ),
    )
}

/// The game of one layer of gathered reward: `m`'s states, then an exit for each
/// choice with a reward, absorbing; targets and the states of infinite value absorbing.
struct Layers {
    form: Form,
    /// The choice of `m` each exit leaves by, and its state.
    exit: Vec<usize>,
    exit_state: Vec<usize>,
    /// The choice of `m` each of the form's choices is, for the states of `m`.
    origin: Vec<Option<usize>>,
}

impl Layers {
    fn new(m: &Form, target: &[bool], infinite: &[bool], whole: &[u64]) -> Layers {
        let n = m.states();
        let ex = m.exact_probs().expect("checked by the caller");
        let mut f = Form {
            choices: vec![0],
            row: vec![0],
            initial: m.initial.clone(),
            opponent: m.opponent.clone(),
            ..Form::default()
        };
        let mut ids = Vec::new();
        let one = ex.values.len() as u32;
        let (mut exit, mut exit_state, mut origin) = (Vec::new(), Vec::new(), Vec::new());
        let to_self = |f: &mut Form, ids: &mut Vec<u32>, to: usize| {
            f.to.push(to as u32);
            f.prob.push(1.0);
            ids.push(one);
            f.row.push(f.to.len());
        };
        for s in 0..n {
            if target[s] || infinite[s] {
                to_self(&mut f, &mut ids, s);
                origin.push(None);
            } else {
                let into_infinite = |c: usize| {
                    m.to[m.transitions_of(c)]
                        .iter()
                        .any(|&t| infinite[t as usize])
                };
                for c in m.choices_of(s).filter(|&c| !into_infinite(c)) {
                    if whole[c] == 0 {
                        for t in m.transitions_of(c) {
                            f.to.push(m.to[t]);
                            f.prob.push(m.prob[t]);
                            ids.push(ex.id[t]);
                        }
                        f.row.push(f.to.len());
                    } else {
                        to_self(&mut f, &mut ids, n + exit.len());
                        exit.push(c);
                        exit_state.push(s);
                    }
                    origin.push(Some(c));
                }
            }
            f.choices.push(f.row.len() - 1);
        }
        for e in 0..exit.len() {
            to_self(&mut f, &mut ids, n + e);
            f.choices.push(f.row.len() - 1);
        }
        if !f.opponent.is_empty() {
            f.opponent.resize(n + exit.len(), false);
        }
        let mut values = ex.values.clone();
        values.push(Exact::one());
        f.exact = Some(ExactProbs { values, id: ids });
        Layers {
            form: f,
            exit,
            exit_state,
            origin,
        }
    }

    /// The layer's values, given what each of its states is worth on arriving (targets
    /// and exits; 0 elsewhere).
    fn solve(&self, goal: Goal, worth: &[Exact], cx: &Context) -> Result<ExactAnswer> {
        let g = Graph::new(&self.form);
        let target: Vec<bool> = worth.iter().map(|v| v > &Exact::zero()).collect();
        let greatest = worth.iter().max().cloned().unwrap_or_default();
        let top: Vec<bool> = (0..worth.len())
            .map(|v| target[v] && worth[v] == greatest)
            .collect();
        let stay = vec![true; worth.len()];
        let setup = setup::until(&g, goal, &stay, &target, Some(&top));
        let approx: Vec<f64> = worth
            .iter()
            .map(crate::numeric::value::Value::to_f64)
            .collect();
        let n = self.form.states() - self.exit.len();
        let names = |v: usize| match v < n {
            true => (cx.names)(v),
            false => format!(
                "the exit of a choice with a reward from {}",
                (cx.names)(self.exit_state[v - n])
            ),
        };
        exact::solve(
            &g,
            self.form.exact_probs()?,
            &exact::Job {
                setup: &setup,
                rew: None,
                values: (worth, &approx),
                start: None,
                stop: &cx.stop,
                names: &names,
            },
        )
    }

    /// A strategy of the layer's form read on `m`'s states, as offsets into their
    /// choices.
    fn offsets(&self, m: &Form, strategy: &[u32]) -> Vec<u32> {
        (0..m.states())
            .map(|s| {
                let c = self.form.choices[s] + strategy[s] as usize;
                match self.origin.get(c).copied().flatten() {
                    Some(o) => (o - m.choices[s]) as u32,
                    None => 0,
                }
            })
            .collect()
    }
}
