//! The solvers of explicit models on generated models: a random Markov chain and a random
//! decision process of a million states (each state a few random successors, so that
//! one component holds almost every state and every successor read misses the cache),
//! a layered model whose states lead only forward (solved state by state), and a few
//! sizes of the exact solvers. States per second.

use alea_core::form::{ExactProbs, ExactRewards, Form, Rewards};
use alea_core::solve::{
    bounded_until, reach_reward, reach_reward_exact, until, until_exact, Context, Goal,
};
use alea_core::Exact;

fn main() {
    divan::main();
}

/// A fixed pseudo-random number for `(a, b)`.
fn mix(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_add(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A random model of `n` states with `choices` choices each: state 0 is the target and 1
/// a trap (both absorbing); every other choice moves to three random states. In a chain
/// (one choice), the weights are 1..=4 and one choice in ten also moves to the target or
/// the trap. In a decision process, the weights are 1..=16 and every choice also moves to
/// both with weight 1, except that half of the first choices are instead a sure move to a
/// partner state (`s ^ 1`): a quarter of the pairs are end components. With `exact`, the
/// exact probabilities too.
fn random(n: u32, choices: u32, exact: bool) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    let mut weights: Vec<(u32, u64)> = Vec::new();
    let mut ids: Vec<u32> = Vec::new();
    let mut values: Vec<Exact> = Vec::new();
    for s in 0..n {
        let k = if s < 2 { 1 } else { choices };
        for c in 0..k {
            weights.clear();
            if s < 2 {
                weights.push((s, 1));
            } else {
                let key = u64::from(s) * 8 + u64::from(c);
                let spread = if choices == 1 { 4 } else { 16 };
                for i in 0..3 {
                    let r = mix(key, i);
                    weights.push(((r % u64::from(n)) as u32, 1 + (r >> 32) % spread));
                }
                let r = mix(key, 7);
                if choices == 1 {
                    if r.is_multiple_of(10) {
                        weights.push(((r >> 40) as u32 % 2, 1 + (r >> 20) % 3));
                    }
                } else if c == 0 && r.is_multiple_of(2) && (s ^ 1) >= 2 && s ^ 1 < n {
                    // A sure move to the partner state: where both partners have one,
                    // the pair is an end component.
                    weights.clear();
                    weights.push((s ^ 1, 1));
                } else {
                    weights.push((0, 1));
                    weights.push((1, 1));
                }
            }
            let total: u64 = weights.iter().map(|w| w.1).sum();
            for &(t, w) in &weights {
                m.to.push(t);
                m.prob.push(w as f64 / total as f64);
                if exact {
                    let p = Exact::new(w.into(), total.into());
                    let i = values.iter().position(|v| *v == p).unwrap_or_else(|| {
                        values.push(p);
                        values.len() - 1
                    });
                    ids.push(i as u32);
                }
            }
            m.row.push(m.to.len());
        }
        m.choices.push(m.row.len() - 1);
    }
    if exact {
        m.exact = Some(ExactProbs { values, id: ids });
    }
    m.initial = vec![2];
    m
}

/// A model whose states lead only to later states (and themselves): solved one state at
/// a time, no iteration. Each state tries to move one to three states on, or stays.
fn layered(n: u32) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    for s in 0..n {
        if s + 3 >= n {
            m.to.push(s);
            m.prob.push(1.0);
        } else {
            let r = mix(u64::from(s), 3);
            m.to.extend([s, s + 1, s + 1 + (r % 2) as u32, s + 3]);
            m.prob.extend([0.25; 4]);
        }
        m.row.push(m.to.len());
        m.choices.push(m.row.len() - 1);
    }
    m
}

fn target(n: u32) -> Vec<bool> {
    (0..n).map(|s| s == 0).collect()
}

/// The target and the trap: where the process ends.
fn absorbed(n: u32) -> Vec<bool> {
    (0..n).map(|s| s < 2).collect()
}

/// One per step until the process ends, except the sure moves between partners, which
/// are free (their end components are cycles of reward 0).
fn steps(m: &Form) -> Rewards {
    Rewards {
        state: Vec::new(),
        choice: (0..m.choice_count())
            .map(|c| f64::from(m.transitions_of(c).len() > 1))
            .collect(),
    }
}

const MILLION: u32 = 1_000_000;

#[divan::bench(args = [1e-6, 1e-12], sample_count = 3, sample_size = 1)]
fn chain_until(bencher: divan::Bencher, precision: f64) {
    let m = random(MILLION, 1, false);
    let (stay, target) = (vec![true; MILLION as usize], target(MILLION));
    bencher
        .counter(divan::counter::ItemsCount::new(MILLION))
        .bench(|| {
            until(&m, Goal::Max, &stay, &target, &Context::new(precision))
                .unwrap()
                .error_bound
        });
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn chain_reward(bencher: divan::Bencher) {
    let m = random(MILLION, 1, false);
    let (goal, rewards) = (absorbed(MILLION), steps(&m));
    bencher
        .counter(divan::counter::ItemsCount::new(MILLION))
        .bench(|| {
            reach_reward(&m, Goal::Min, &goal, &rewards, &Context::new(1e-6))
                .unwrap()
                .error_bound
        });
}

#[divan::bench(args = [Goal::Max, Goal::Min], sample_count = 3, sample_size = 1)]
fn mdp_until(bencher: divan::Bencher, goal: Goal) {
    let m = random(MILLION, 2, false);
    let (stay, target) = (vec![true; MILLION as usize], target(MILLION));
    bencher
        .counter(divan::counter::ItemsCount::new(MILLION))
        .bench(|| {
            until(&m, goal, &stay, &target, &Context::new(1e-6))
                .unwrap()
                .error_bound
        });
}

#[divan::bench(args = [Goal::Max, Goal::Min], sample_count = 3, sample_size = 1)]
fn mdp_reward(bencher: divan::Bencher, goal: Goal) {
    let m = random(MILLION, 2, false);
    let (target, rewards) = (absorbed(MILLION), steps(&m));
    bencher
        .counter(divan::counter::ItemsCount::new(MILLION))
        .bench(|| {
            reach_reward(&m, goal, &target, &rewards, &Context::new(1e-6))
                .unwrap()
                .error_bound
        });
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn mdp_bounded_100_steps(bencher: divan::Bencher) {
    let m = random(MILLION, 2, false);
    let (stay, target) = (vec![true; MILLION as usize], target(MILLION));
    bencher
        .counter(divan::counter::ItemsCount::new(MILLION))
        .bench(|| {
            bounded_until(&m, Goal::Max, &stay, &target, 100)
                .unwrap()
                .error_bound
        });
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn layered_until(bencher: divan::Bencher) {
    let n = 4 * MILLION;
    let m = layered(n);
    let stay = vec![true; n as usize];
    let target: Vec<bool> = (0..n).map(|s| s + 3 >= n && s % 2 == 0).collect();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            until(&m, Goal::Max, &stay, &target, &Context::new(1e-6))
                .unwrap()
                .error_bound
        });
}

#[divan::bench(args = [100, 300], sample_count = 3, sample_size = 1)]
fn exact_chain_until(bencher: divan::Bencher, n: u32) {
    let m = random(n, 1, true);
    let (stay, target) = (vec![true; n as usize], target(n));
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            until_exact(&m, Goal::Max, &stay, &target, &Context::default())
                .unwrap()
                .values
                .len()
        });
}

/// A biased walk on `0..=n` (up with 3/5), absorbed at both ends: one long component
/// whose elimination causes no fill-in, though its numbers grow long.
fn walk(n: u32) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    for s in 0..=n {
        if s == 0 || s == n {
            m.to.push(s);
            m.prob.push(1.0);
        } else {
            m.to.extend([s - 1, s + 1]);
            m.prob.extend([0.4, 0.6]);
        }
        m.row.push(m.to.len());
        m.choices.push(m.row.len() - 1);
    }
    let values = vec![
        Exact::from_integer(1.into()),
        Exact::new(2.into(), 5.into()),
        Exact::new(3.into(), 5.into()),
    ];
    let id = (0..=n)
        .flat_map(|s| {
            if s == 0 || s == n {
                vec![0]
            } else {
                vec![1, 2]
            }
        })
        .collect();
    m.exact = Some(ExactProbs { values, id });
    m
}

#[divan::bench(args = [300, 1000], sample_count = 3, sample_size = 1)]
fn exact_walk_until(bencher: divan::Bencher, n: u32) {
    let m = walk(n);
    let stay = vec![true; n as usize + 1];
    let target: Vec<bool> = (0..=n).map(|s| s == n).collect();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            until_exact(&m, Goal::Max, &stay, &target, &Context::default())
                .unwrap()
                .values
                .len()
        });
}

#[divan::bench(args = [100, 300], sample_count = 3, sample_size = 1)]
fn exact_mdp_reward(bencher: divan::Bencher, n: u32) {
    let m = random(n, 2, true);
    let target = absorbed(n);
    let rewards = ExactRewards {
        state: Vec::new(),
        choice: (0..m.choice_count())
            .map(|c| Exact::from_integer(i64::from(m.transitions_of(c).len() > 1).into()))
            .collect(),
    };
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            reach_reward_exact(&m, Goal::Min, &target, &rewards, &Context::default())
                .unwrap()
                .values
                .len()
        });
}
