//! Strategy iteration from poor first strategies (every state's first choice, or its
//! last), which the `f64` hint of the public functions rarely gives it: the improvement
//! steps, the properness repair and the states left at 0 by a strategy must all come to
//! the values found from the hint, on random models larger than a brute force takes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{exact, interval, setup, Goal};
use crate::analysis::graph::Graph;
use crate::form::{ExactProbs, Form};
use crate::guard::Stop;
use crate::numeric::value::{Exact, Value};

/// A random model of `n` states with exact probabilities (weights 1..=3 over 1..=3
/// distinct successors per choice, up to 3 choices, one state in five absorbing).
pub(super) fn random_model(rng: &mut ChaCha8Rng, n: usize) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    let mut values: Vec<Exact> = Vec::new();
    let mut id = Vec::new();
    for s in 0..n {
        let absorbing = rng.gen_bool(0.2);
        let k = if absorbing { 1 } else { rng.gen_range(1..=3) };
        for _ in 0..k {
            let succ: Vec<usize> = if absorbing {
                vec![s]
            } else {
                let j = rng.gen_range(1..=3.min(n));
                rand::seq::index::sample(rng, n, j).into_vec()
            };
            let weights: Vec<i64> = succ.iter().map(|_| rng.gen_range(1..=3)).collect();
            let total: i64 = weights.iter().sum();
            for (&t, &w) in succ.iter().zip(&weights) {
                let p = Exact::new(w.into(), total.into());
                m.to.push(t as u32);
                m.prob.push(Value::to_f64(&p));
                let i = values.iter().position(|v| *v == p).unwrap_or_else(|| {
                    values.push(p);
                    values.len() - 1
                });
                id.push(i as u32);
            }
            m.row.push(m.to.len());
        }
        m.choices.push(m.row.len() - 1);
    }
    m.exact = Some(ExactProbs { values, id });
    m
}

#[test]
fn strategy_iteration_recovers_from_poor_strategies() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for round in 0..400 {
        let n = rng.gen_range(2..=40);
        let m = random_model(&mut rng, n);
        let g = Graph::new(&m);
        let ex = m.exact.as_ref().expect("exact");
        let target: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.15)).collect();
        let stay: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.9)).collect();
        let rew: Vec<Exact> = (0..m.choice_count())
            .map(|_| {
                Exact::from_int(if rng.gen_bool(0.5) {
                    0
                } else {
                    rng.gen_range(1..=4)
                })
            })
            .collect();
        let approx: Vec<f64> = rew.iter().map(Value::to_f64).collect();
        let first = vec![0u32; n];
        let last: Vec<u32> = (0..n)
            .map(|s| (m.choices[s + 1] - m.choices[s] - 1) as u32)
            .collect();
        for goal in [Goal::Min, Goal::Max] {
            let problems = [
                (setup::until(&g, goal, &stay, &target, None), None),
                (
                    setup::reward(&g, goal, &target),
                    Some((rew.as_slice(), approx.as_slice())),
                ),
            ];
            for (setup, r) in &problems {
                let stop = Stop::default();
                let names = |s: usize| s.to_string();
                let mut job = exact::Job {
                    setup,
                    rew: *r,
                    values: (&[], &[]),
                    start: None,
                    stop: &stop,
                    names: &names,
                };
                let want = exact::solve(&g, ex, &job).expect("solves");
                for start in [&first, &last] {
                    job.start = Some(start);
                    let got = exact::solve(&g, ex, &job).expect("solves");
                    assert_eq!(got.values, want.values, "round {round} {goal:?}");
                }
                // The f64 bounds hold the exact values.
                let solved = interval::solve(
                    &g,
                    &interval::Job {
                        setup,
                        rew: r.map_or(&[], |r| r.1),
                        values: &[],
                        precision: 1e-9,
                        above: false,
                        strict: true,
                        stop: &stop,
                        names: &names,
                    },
                )
                .expect("converges");
                for s in 0..n {
                    let [lo, hi] = solved.x[s];
                    match &want.values[s] {
                        None => assert_eq!(lo, f64::INFINITY),
                        Some(v) => {
                            let v = Value::to_f64(v);
                            assert!(lo <= v * (1.0 + 1e-15) && v <= hi * (1.0 + 1e-15));
                        }
                    }
                }
            }
        }
    }
}

/// A part of a model whose other states ("exits") come with bounds on their exact values:
/// `part` must find bounds that hold every other state's exact value, whatever states
/// are exits (on a cluster, those another worker solved), for the greatest and least
/// probabilities and expected rewards.
#[test]
fn a_part_with_exits_known_within_bounds_holds_the_exact_values() {
    use super::{part, reach_reward_exact, until_exact, Context};
    use crate::form::Rewards;
    use crate::numeric::round::{above, below};
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let cx = Context::new(1e-9);
    let mut checked = 0;
    for round in 0..600 {
        let n = rng.gen_range(2..=30);
        let m = random_model(&mut rng, n);
        let goal = if rng.gen_bool(0.5) {
            Goal::Max
        } else {
            Goal::Min
        };
        let target: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.2)).collect();
        let reward = rng.gen_bool(0.5);
        let rewards: Rewards<Exact> = Rewards {
            state: Vec::new(),
            choice: (0..m.choice_count())
                .map(|_| Exact::from_integer(rng.gen_range(0i64..=3).into()))
                .collect(),
        };
        let exact = if reward {
            reach_reward_exact(&m, goal, &target, &rewards, &cx)
        } else {
            until_exact(&m, goal, &vec![true; n], &target, &cx)
        }
        .expect("solves")
        .values;
        // Exits: the targets, and a random share of the others with bounds a little
        // wider than their values (exact where the value is 0, 1 or infinite).
        let widen = [0.0, 1e-12, 1e-10][rng.gen_range(0..3)];
        let exits: Vec<Option<[f64; 2]>> = (0..n)
            .map(|s| {
                if target[s] {
                    return Some(if reward { [0.0, 0.0] } else { [1.0, 1.0] });
                }
                if !rng.gen_bool(0.3) {
                    return None;
                }
                Some(match &exact[s] {
                    None => [f64::INFINITY; 2],
                    Some(v)
                        if num_traits::Zero::is_zero(v)
                            || (!reward && *v == Exact::from_integer(1i64.into())) =>
                    {
                        [below(v), above(v)]
                    }
                    Some(v) => {
                        let hi = above(v) * (1.0 + widen);
                        let hi = if reward { hi } else { hi.min(1.0) };
                        [below(v) * (1.0 - widen), hi]
                    }
                })
            })
            .collect();
        // The form with every exit made a loop on itself.
        let mut f = Form {
            choices: vec![0],
            row: vec![0],
            ..Form::default()
        };
        let mut choice_rewards = Vec::new();
        for (s, exit) in exits.iter().enumerate() {
            if exit.is_some() {
                f.to.push(s as u32);
                f.prob.push(1.0);
                f.row.push(f.to.len());
                choice_rewards.push(0.0);
            } else {
                for c in m.choices_of(s) {
                    for t in m.transitions_of(c) {
                        f.to.push(m.to[t]);
                        f.prob.push(m.prob[t]);
                    }
                    f.row.push(f.to.len());
                    choice_rewards.push(rewards.choice[c].to_f64());
                }
            }
            f.choices.push(f.row.len() - 1);
        }
        let r = Rewards {
            state: Vec::new(),
            choice: choice_rewards,
        };
        let got = part(
            &f,
            goal,
            &exits,
            reward.then_some(&r),
            &cx,
            rng.gen_bool(0.5),
        )
        .expect("solves");
        for s in (0..n).filter(|&s| exits[s].is_none()) {
            let [lo, hi] = got.bounds[s];
            match &exact[s] {
                None => assert_eq!(lo, f64::INFINITY, "round {round} state {s}"),
                Some(v) => {
                    assert!(
                        lo <= above(v) && below(v) <= hi,
                        "round {round} state {s}: {lo} {hi} against {}",
                        v.to_f64()
                    );
                    let scale = v.to_f64().max(1.0);
                    assert!(
                        hi - lo <= 4e-9 * scale + 4.0 * widen * scale,
                        "round {round} {lo} {hi}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}
