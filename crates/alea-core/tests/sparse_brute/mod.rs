//! A brute force for small explicit models, independent of the engine: every memoryless
//! deterministic strategy is enumerated, the Markov chain it induces is solved exactly by
//! dense Gaussian elimination, and the best value per state is kept (memoryless
//! deterministic strategies attain the optimum of reachability probabilities and of
//! expected total rewards until a target). Step-bounded values by plain recursion over
//! the steps left.

#![allow(dead_code)]

use std::collections::HashMap;

use alea_core::form::{ExactProbs, Form};
use alea_core::solve::Goal;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rand::seq::index::sample;
use rand::Rng;

pub type Q = BigRational;

/// A model spelled out: per state, per choice, (successor, probability).
pub type Spec = Vec<Vec<Vec<(u32, Q)>>>;

pub fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// The sparse form of a spec, exact probabilities interned.
pub fn to_sparse(spec: &Spec) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    let mut ids: HashMap<Q, u32> = HashMap::new();
    let mut values: Vec<Q> = Vec::new();
    let mut id = Vec::new();
    for state in spec {
        for choice in state {
            for (t, p) in choice {
                m.to.push(*t);
                m.prob.push(alea_core::Value::to_f64(p));
                let next = values.len() as u32;
                let i = *ids.entry(p.clone()).or_insert_with(|| {
                    values.push(p.clone());
                    next
                });
                id.push(i);
            }
            m.row.push(m.to.len());
        }
        m.choices.push(m.row.len() - 1);
    }
    m.exact = Some(ExactProbs { values, id });
    m.initial = vec![0];
    m
}

/// A random spec: each state 1..=`max_choices` choices (1 for a chain), each choice
/// 1..=`max_succ` distinct successors with weights 1..=3. Self-loops, sure moves and
/// absorbing states come up often at these sizes.
pub fn random_spec(rng: &mut impl Rng, n: usize, max_choices: usize, max_succ: usize) -> Spec {
    (0..n)
        .map(|_| {
            let k = rng.gen_range(1..=max_choices);
            (0..k)
                .map(|_| {
                    let j = rng.gen_range(1..=max_succ.min(n));
                    let succ = sample(rng, n, j);
                    let weights: Vec<i64> = (0..j).map(|_| rng.gen_range(1..=3)).collect();
                    let total: i64 = weights.iter().sum();
                    succ.iter()
                        .zip(&weights)
                        .map(|(t, &w)| (t as u32, q(w, total)))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Solves `a x = b` (dense, nonsingular) exactly.
fn gauss(mut a: Vec<Vec<Q>>, mut b: Vec<Q>) -> Vec<Q> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .find(|&r| !a[r][col].is_zero())
            .expect("the system is nonsingular");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let inv = a[col][col].recip();
        for x in &mut a[col][col..] {
            *x *= &inv;
        }
        b[col] *= &inv;
        let (pivot, bp) = (a[col].clone(), b[col].clone());
        for r in 0..n {
            if r != col && !a[r][col].is_zero() {
                let f = a[r][col].clone();
                for (x, p) in a[r][col..].iter_mut().zip(&pivot[col..]) {
                    *x -= &f * p;
                }
                b[r] -= &f * &bp;
            }
        }
    }
    b
}

/// The states of `through` that reach `seed` with positive probability in the chain of
/// `sigma` (and `seed` itself).
fn can_reach(spec: &Spec, sigma: &[usize], seed: &[bool], through: &[bool]) -> Vec<bool> {
    let mut r = seed.to_vec();
    loop {
        let mut changed = false;
        for s in 0..spec.len() {
            if !r[s] && through[s] && spec[s][sigma[s]].iter().any(|(t, _)| r[*t as usize]) {
                r[s] = true;
                changed = true;
            }
        }
        if !changed {
            return r;
        }
    }
}

/// The probability of `stay U target` in the chain of `sigma`.
pub fn chain_until(spec: &Spec, sigma: &[usize], stay: &[bool], target: &[bool]) -> Vec<Q> {
    let n = spec.len();
    let through: Vec<bool> = (0..n).map(|s| stay[s] && !target[s]).collect();
    let can = can_reach(spec, sigma, target, &through);
    let open: Vec<usize> = (0..n).filter(|&s| through[s] && can[s]).collect();
    let index: HashMap<usize, usize> = open.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let k = open.len();
    let mut a = vec![vec![Q::zero(); k]; k];
    let mut b = vec![Q::zero(); k];
    for (i, &s) in open.iter().enumerate() {
        a[i][i] += Q::one();
        for (t, p) in &spec[s][sigma[s]] {
            let t = *t as usize;
            if target[t] {
                b[i] += p;
            } else if let Some(&j) = index.get(&t) {
                a[i][j] -= p;
            }
        }
    }
    let x = gauss(a, b);
    (0..n)
        .map(|s| {
            if target[s] {
                Q::one()
            } else if let Some(&i) = index.get(&s) {
                x[i].clone()
            } else {
                Q::zero()
            }
        })
        .collect()
}

/// The expected reward until `target` in the chain of `sigma`; `None` where the target
/// is missed with positive probability. `rew[s][c]` is the reward of choice `c` of `s`
/// (state reward included).
pub fn chain_reward(
    spec: &Spec,
    sigma: &[usize],
    target: &[bool],
    rew: &[Vec<Q>],
) -> Vec<Option<Q>> {
    let n = spec.len();
    let through: Vec<bool> = target.iter().map(|&t| !t).collect();
    let can = can_reach(spec, sigma, target, &through);
    let cannot: Vec<bool> = (0..n).map(|s| !can[s]).collect();
    let spoiled = can_reach(spec, sigma, &cannot, &through);
    let open: Vec<usize> = (0..n).filter(|&s| !target[s] && !spoiled[s]).collect();
    let index: HashMap<usize, usize> = open.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let k = open.len();
    let mut a = vec![vec![Q::zero(); k]; k];
    let mut b = vec![Q::zero(); k];
    for (i, &s) in open.iter().enumerate() {
        a[i][i] += Q::one();
        b[i] = rew[s][sigma[s]].clone();
        for (t, p) in &spec[s][sigma[s]] {
            if let Some(&j) = index.get(&(*t as usize)) {
                a[i][j] -= p;
            }
        }
    }
    let x = gauss(a, b);
    (0..n)
        .map(|s| {
            if target[s] {
                Some(Q::zero())
            } else {
                index.get(&s).map(|&i| x[i].clone())
            }
        })
        .collect()
}

/// Every memoryless deterministic strategy, or `None` when there are more than `limit`.
pub fn strategies(spec: &Spec, limit: usize) -> Option<Vec<Vec<usize>>> {
    let mut count: usize = 1;
    for state in spec {
        count = count.checked_mul(state.len())?;
        if count > limit {
            return None;
        }
    }
    let mut out = Vec::with_capacity(count);
    let mut sigma = vec![0usize; spec.len()];
    loop {
        out.push(sigma.clone());
        let mut i = 0;
        loop {
            if i == spec.len() {
                return Some(out);
            }
            sigma[i] += 1;
            if sigma[i] < spec[i].len() {
                break;
            }
            sigma[i] = 0;
            i += 1;
        }
    }
}

/// Whether `a` is better than `b` for the goal, `None` standing for infinity.
pub fn better(goal: Goal, a: &Option<Q>, b: &Option<Q>) -> bool {
    match (a, b, goal) {
        (None, None, _) => false,
        (None, Some(_), Goal::Max) | (Some(_), None, Goal::Min) => true,
        (None, Some(_), Goal::Min) | (Some(_), None, Goal::Max) => false,
        (Some(x), Some(y), Goal::Max) => x > y,
        (Some(x), Some(y), Goal::Min) => x < y,
    }
}

/// The best value per state over all strategies of `all`, each evaluated by `eval`.
pub fn best(
    goal: Goal,
    all: &[Vec<usize>],
    eval: impl Fn(&[usize]) -> Vec<Option<Q>>,
) -> Vec<Option<Q>> {
    let mut best: Option<Vec<Option<Q>>> = None;
    for sigma in all {
        let v = eval(sigma);
        best = Some(match best {
            None => v,
            Some(b) => b
                .into_iter()
                .zip(v)
                .map(|(b, v)| if better(goal, &v, &b) { v } else { b })
                .collect(),
        });
    }
    best.expect("a model has a strategy")
}

/// The probability of `stay U<=k target`, by recursion on the steps left.
pub fn bounded_until(spec: &Spec, goal: Goal, stay: &[bool], target: &[bool], k: u64) -> Vec<Q> {
    let n = spec.len();
    let mut v: Vec<Q> = (0..n)
        .map(|s| if target[s] { Q::one() } else { Q::zero() })
        .collect();
    for _ in 0..k {
        v = (0..n)
            .map(|s| {
                if target[s] {
                    return Q::one();
                }
                if !stay[s] {
                    return Q::zero();
                }
                opt(goal, spec[s].iter().map(|ch| weighted(ch, &v)))
            })
            .collect();
    }
    v
}

/// The reward gathered in `k` steps, by recursion on the steps left.
pub fn cumulative(spec: &Spec, goal: Goal, rew: &[Vec<Q>], k: u64) -> Vec<Q> {
    let n = spec.len();
    let mut v = vec![Q::zero(); n];
    for _ in 0..k {
        v = (0..n)
            .map(|s| {
                opt(
                    goal,
                    spec[s]
                        .iter()
                        .enumerate()
                        .map(|(c, ch)| &rew[s][c] + weighted(ch, &v)),
                )
            })
            .collect();
    }
    v
}

fn weighted(choice: &[(u32, Q)], v: &[Q]) -> Q {
    choice
        .iter()
        .fold(Q::zero(), |acc, (t, p)| acc + p * &v[*t as usize])
}

fn opt(goal: Goal, values: impl Iterator<Item = Q>) -> Q {
    values
        .reduce(|a, b| match goal {
            Goal::Max => a.max(b),
            Goal::Min => a.min(b),
        })
        .expect("a state has a choice")
}

/// `|a - b| <= bound`, relative to `b` above 1 (with a unit for the rounding of `b`).
pub fn within(a: f64, b: &Q, bound: f64) -> bool {
    let b = alea_core::Value::to_f64(b);
    (a - b).abs() <= (bound + f64::EPSILON) * b.abs().max(1.0)
}

pub fn nonnegative(x: &Q) -> bool {
    !x.is_negative()
}
