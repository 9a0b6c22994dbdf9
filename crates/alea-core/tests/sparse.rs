//! The solvers of explicit models (`alea_core::sparse`) against values worked out by hand
//! and against a brute force over small random Markov chains and decision processes:
//! exact values equal, `f64` values within their certified bound (itself within the
//! precision asked for), strategies that attain the values, and every choice's value
//! consistent with the state's.

mod sparse_brute;

use alea_core::form::{ExactRewards, Form, Rewards};
use alea_core::solve::{
    bounded_until, bounded_until_exact, choice_values, choice_values_exact, cumulative_reward,
    cumulative_reward_exact, prefix, prefix_exact, reach_reward, reach_reward_exact, until,
    until_exact, Answer, Context, ExactAnswer, Goal,
};
use alea_core::{Error, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use sparse_brute::{
    best, bounded_until as brute_bounded, chain_reward, chain_until,
    cumulative as brute_cumulative, q, random_spec, strategies, to_sparse, within, Spec, Q,
};

/// Models with more memoryless strategies than this are not enumerated.
const LIMIT: usize = 3000;
const PRECISIONS: [f64; 2] = [1e-6, 1e-12];
const GOALS: [Goal; 2] = [Goal::Min, Goal::Max];

// ---------------------------------------------------------------------------------
// Random cases.
// ---------------------------------------------------------------------------------

struct Case {
    spec: Spec,
    m: Form,
    stay: Vec<bool>,
    target: Vec<bool>,
    /// Each choice's reward, state reward included, per state and choice.
    rew: Vec<Vec<Q>>,
    rewards: Rewards,
    exact_rewards: ExactRewards,
}

fn random_case(rng: &mut ChaCha8Rng, markov: bool) -> Case {
    let n = rng.gen_range(1..=9);
    let mut spec = random_spec(rng, n, if markov { 1 } else { 3 }, 3);
    // Absorbing states: traps, or targets that stay.
    for (s, state) in spec.iter_mut().enumerate() {
        if rng.gen_bool(0.2) {
            *state = vec![vec![(s as u32, q(1, 1))]];
        }
    }
    let m = to_sparse(&spec);
    let target: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.25)).collect();
    let stay: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.85)).collect();
    // Rewards: often none of a kind, and mostly 0 otherwise (cycles of reward 0).
    let mut draw = |count: usize| -> Vec<i64> {
        if rng.gen_bool(0.4) {
            Vec::new()
        } else {
            (0..count)
                .map(|_| {
                    if rng.gen_bool(0.6) {
                        0
                    } else {
                        rng.gen_range(1..=3)
                    }
                })
                .collect()
        }
    };
    let state = draw(n);
    let choice = draw(m.choice_count());
    let rew = (0..n)
        .map(|s| {
            m.choices_of(s)
                .map(|c| {
                    let a = state.get(s).copied().unwrap_or(0);
                    let b = choice.get(c).copied().unwrap_or(0);
                    q(a + b, 1)
                })
                .collect()
        })
        .collect();
    let rewards = Rewards {
        state: state.iter().map(|&r| r as f64).collect(),
        choice: choice.iter().map(|&r| r as f64).collect(),
    };
    let exact_rewards = ExactRewards {
        state: state.iter().map(|&r| q(r, 1)).collect(),
        choice: choice.iter().map(|&r| q(r, 1)).collect(),
    };
    Case {
        spec,
        m,
        stay,
        target,
        rew,
        rewards,
        exact_rewards,
    }
}

fn sigma_of(strategy: &[u32]) -> Vec<usize> {
    strategy.iter().map(|&c| c as usize).collect()
}

/// The `f64` answer against the right values: each within the claimed bound, infinite
/// exactly where the value is, and the bound within the precision.
fn check_f64(what: &str, a: &Answer, want: &[Option<Q>], precision: f64) {
    assert!(
        a.error_bound <= precision,
        "{what}: bound {} above precision {precision}",
        a.error_bound
    );
    for (s, w) in want.iter().enumerate() {
        match w {
            None => assert_eq!(a.values[s], f64::INFINITY, "{what}: state {s} is infinite"),
            Some(w) => assert!(
                within(a.values[s], w, a.error_bound),
                "{what}: state {s}: {} vs {} (bound {})",
                a.values[s],
                w,
                a.error_bound
            ),
        }
    }
}

/// Values of a strategy close to the right ones (an `f64` strategy may pick among
/// choices whose values differ by less than the precision).
fn close(what: &str, got: &[Option<Q>], want: &[Option<Q>]) {
    for (s, (g, w)) in got.iter().zip(want).enumerate() {
        match (g, w) {
            (None, None) => {}
            (Some(g), Some(w)) => assert!(
                within(g.to_f64(), w, 1e-6),
                "{what}: the strategy is worth {g} at state {s}, the value is {w}"
            ),
            _ => panic!("{what}: the strategy is worth {g:?} at state {s}, the value is {w:?}"),
        }
    }
}

/// Every choice's exact value given the state values: the best of them is the state's
/// value (where the Bellman equation holds), and the exact strategy's is best.
fn check_choices(
    what: &str,
    case: &Case,
    goal: Goal,
    got: &ExactAnswer,
    holds: impl Fn(usize) -> bool,
    rewards: Option<&ExactRewards>,
) {
    for s in 0..case.spec.len() {
        if !holds(s) {
            continue;
        }
        let values = choice_values_exact(&case.m, s, &got.values, rewards).unwrap();
        let mut bestv = values[0].clone();
        for v in &values[1..] {
            if sparse_brute::better(goal, v, &bestv) {
                bestv = v.clone();
            }
        }
        assert_eq!(bestv, got.values[s], "{what}: best choice of state {s}");
        assert_eq!(
            values[got.strategy[s] as usize], got.values[s],
            "{what}: the strategy's choice at state {s}"
        );
        // The f64 twin agrees.
        let approx: Vec<f64> = got
            .values
            .iter()
            .map(|v| v.as_ref().map_or(f64::INFINITY, Value::to_f64))
            .collect();
        let plain = choice_values(
            &case.m,
            s,
            &approx,
            Some(&Rewards {
                state: case.rewards.state.clone(),
                choice: case.rewards.choice.clone(),
            })
            .filter(|_| rewards.is_some()),
        );
        for (v, e) in plain.iter().zip(&values) {
            match e {
                None => assert_eq!(*v, f64::INFINITY),
                Some(e) => assert!(within(*v, e, 1e-12), "{what}: {v} vs {e}"),
            }
        }
    }
}

fn check_until(case: &Case, goal: Goal, all: &[Vec<usize>]) {
    let (spec, m) = (&case.spec, &case.m);
    let (stay, target) = (&case.stay, &case.target);
    let want = best(goal, all, |sigma| {
        chain_until(spec, sigma, stay, target)
            .into_iter()
            .map(Some)
            .collect()
    });
    let what = format!("until {goal:?} {spec:?} stay {stay:?} target {target:?}");
    let got = until_exact(m, goal, stay, target, &Context::default()).unwrap();
    assert_eq!(got.values, want, "{what}");
    let own: Vec<Option<Q>> = chain_until(spec, &sigma_of(&got.strategy), stay, target)
        .into_iter()
        .map(Some)
        .collect();
    assert_eq!(own, want, "{what}: the exact strategy");
    check_choices(&what, case, goal, &got, |s| stay[s] && !target[s], None);
    for precision in PRECISIONS {
        let a = until(m, goal, stay, target, &Context::new(precision)).unwrap();
        check_f64(&what, &a, &want, precision);
        let own: Vec<Option<Q>> = chain_until(spec, &sigma_of(&a.strategy), stay, target)
            .into_iter()
            .map(Some)
            .collect();
        close(&what, &own, &want);
    }
}

fn check_reward(case: &Case, goal: Goal, all: &[Vec<usize>]) {
    let (spec, m, target) = (&case.spec, &case.m, &case.target);
    let want = best(goal, all, |sigma| {
        chain_reward(spec, sigma, target, &case.rew)
    });
    let what = format!(
        "reward {goal:?} {spec:?} target {target:?} rewards {:?}",
        case.rew
    );
    let got =
        reach_reward_exact(m, goal, target, &case.exact_rewards, &Context::default()).unwrap();
    assert_eq!(got.values, want, "{what}");
    let own = chain_reward(spec, &sigma_of(&got.strategy), target, &case.rew);
    assert_eq!(own, want, "{what}: the exact strategy");
    check_choices(
        &what,
        case,
        goal,
        &got,
        |s| !target[s],
        Some(&case.exact_rewards),
    );
    for precision in PRECISIONS {
        let a = reach_reward(m, goal, target, &case.rewards, &Context::new(precision)).unwrap();
        check_f64(&what, &a, &want, precision);
        let own = chain_reward(spec, &sigma_of(&a.strategy), target, &case.rew);
        close(&what, &own, &want);
    }
}

fn check_bounded(case: &Case, goal: Goal, k: u64) {
    let (spec, m) = (&case.spec, &case.m);
    let (stay, target) = (&case.stay, &case.target);
    let what = format!("bounded {k} {goal:?} {spec:?} stay {stay:?} target {target:?}");
    let want: Vec<Option<Q>> = brute_bounded(spec, goal, stay, target, k)
        .into_iter()
        .map(Some)
        .collect();
    let got = bounded_until_exact(m, goal, stay, target, k).unwrap();
    assert_eq!(got.values, want, "{what}");
    let a = bounded_until(m, goal, stay, target, k).unwrap();
    check_f64(&what, &a, &want, 1e-13);
    // The first moves are best for the steps left.
    if k > 0 {
        let before = brute_bounded(spec, goal, stay, target, k - 1);
        let wrap: Vec<Option<Q>> = before.into_iter().map(Some).collect();
        for s in 0..spec.len() {
            if stay[s] && !target[s] {
                for strategy in [&got.strategy, &a.strategy] {
                    let v = choice_values_exact(m, s, &wrap, None).unwrap();
                    assert_eq!(
                        v[strategy[s] as usize], want[s],
                        "{what}: first move of state {s}"
                    );
                }
            }
        }
    }
    let rew_want: Vec<Option<Q>> = brute_cumulative(spec, goal, &case.rew, k)
        .into_iter()
        .map(Some)
        .collect();
    let got = cumulative_reward_exact(m, goal, &case.exact_rewards, k).unwrap();
    assert_eq!(got.values, rew_want, "cumulative {what}");
    let a = cumulative_reward(m, goal, &case.rewards, k, 1e-9).unwrap();
    check_f64(&format!("cumulative {what}"), &a, &rew_want, 1e-13);
}

fn random_cases(seed: u64, count: usize, markov: bool, check: impl Fn(&Case, &[Vec<usize>])) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut done = 0;
    while done < count {
        let case = random_case(&mut rng, markov);
        let Some(all) = strategies(&case.spec, LIMIT) else {
            continue;
        };
        check(&case, &all);
        done += 1;
    }
}

#[test]
fn until_matches_brute_force_on_chains() {
    random_cases(1, 6000, true, |case, all| check_until(case, Goal::Max, all));
}

#[test]
fn until_matches_brute_force_on_decision_processes() {
    random_cases(2, 6000, false, |case, all| {
        for goal in GOALS {
            check_until(case, goal, all);
        }
    });
}

#[test]
fn reward_matches_brute_force_on_chains() {
    random_cases(3, 6000, true, |case, all| {
        check_reward(case, Goal::Min, all)
    });
}

#[test]
fn reward_matches_brute_force_on_decision_processes() {
    random_cases(4, 6000, false, |case, all| {
        for goal in GOALS {
            check_reward(case, goal, all);
        }
    });
}

#[test]
fn bounded_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..300 {
        let case = random_case(&mut rng, i % 3 == 0);
        let k = rng.gen_range(0..=6);
        for goal in GOALS {
            check_bounded(&case, goal, k);
        }
    }
}

/// Every `f64` value within its bound of the exact one (a pinned value equal to it), the
/// bound within the precision; whether the steps ended early.
fn check_long(what: &str, a: &Answer, want: &ExactAnswer, precision: f64, k: u64) -> bool {
    assert!(
        a.error_bound <= precision,
        "{what}: bound {}",
        a.error_bound
    );
    for (s, w) in want.values.iter().enumerate() {
        let w = w.as_ref().expect("finite");
        if a.pinned[s] {
            assert_eq!(
                Q::from_float(a.values[s]).as_ref(),
                Some(w),
                "{what}: state {s} pinned"
            );
        }
        assert!(
            within(a.values[s], w, a.error_bound),
            "{what}: state {s}: {} vs {w} (bound {})",
            a.values[s],
            a.error_bound
        );
    }
    a.sweeps < k
}

#[test]
fn many_steps_of_reward_are_bounded_within_the_precision() {
    // Enough steps that the rest may be bounded at once by the change of one step (tried
    // from step 16 on): each value still within its bound of the exact one.
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let (mut tried, mut ended_early) = (0, 0);
    for i in 0..150 {
        let case = random_case(&mut rng, i % 3 == 0);
        let m = &case.m;
        let k = rng.gen_range(32..=200);
        let all = vec![true; m.states()];
        let start: Vec<[f64; 2]> = case.rewards.state.iter().map(|&r| [r, r]).collect();
        if start.is_empty() {
            continue;
        }
        let exact_start = case.exact_rewards.state.clone();
        for goal in GOALS {
            let want = cumulative_reward_exact(m, goal, &case.exact_rewards, k).unwrap();
            let instant = prefix_exact(m, goal, &all, exact_start.clone(), k).unwrap();
            for precision in [1e-3, 1e-9] {
                let what = format!("{k} steps {goal:?} {precision} {:?}", case.spec);
                let a = cumulative_reward(m, goal, &case.rewards, k, precision).unwrap();
                ended_early += usize::from(check_long(&what, &a, &want, precision, k));
                let a = prefix(m, goal, &all, start.clone(), k, false, precision).unwrap();
                ended_early += usize::from(check_long(&what, &a, &instant, precision, k));
                tried += 2;
            }
        }
    }
    assert!(
        ended_early * 3 > tried,
        "{ended_early} of {tried} ended early"
    );
}

#[test]
fn values_below_the_range_of_f64_are_not_taken_for_zero() {
    // A chain that moves on with probability 1/2 and otherwise falls into a sink: after
    // 1100 steps the end is reached with probability 2^-1100, below every f64 but 0.
    let n = 1102;
    let sink = (n - 1) as u32;
    let mut spec: Spec = (0..n - 2)
        .map(|s| vec![vec![(s as u32 + 1, q(1, 2)), (sink, q(1, 2))]])
        .collect();
    spec.push(vec![vec![((n - 2) as u32, q(1, 1))]]);
    spec.push(vec![vec![(sink, q(1, 1))]]);
    let m = to_sparse(&spec);
    let mut target = vec![false; n];
    target[n - 2] = true;
    let a = bounded_until(&m, Goal::Max, &vec![true; n], &target, 1100).unwrap();
    assert!(!a.pinned[0], "2^-1100 is not exactly 0");
    assert!(a.values[0] >= 0.0 && a.error_bound > 0.0);
    // One step short it is 0, within the bound (values that small were read, so no 0
    // is taken as exact); far short, with every value read in the normal range, exactly.
    let a = bounded_until(&m, Goal::Max, &vec![true; n], &target, 1099).unwrap();
    assert!(!a.pinned[0] && a.values[0] <= a.error_bound);
    let a = bounded_until(&m, Goal::Max, &vec![true; n], &target, 1000).unwrap();
    assert!(a.pinned[0] && a.values[0] == 0.0);
    // A reward of 1e-306 two steps away with probability 2^-63: about 1e-325.
    let spec: Spec = vec![
        vec![vec![
            (1, q(1, 1 << 62) / q(2, 1)),
            (2, q(1, 1) - q(1, 1 << 62) / q(2, 1)),
        ]],
        vec![vec![(1, q(1, 1))]],
        vec![vec![(2, q(1, 1))]],
    ];
    let m = to_sparse(&spec);
    let rewards = Rewards {
        state: vec![0.0, 1e-306, 0.0],
        choice: Vec::new(),
    };
    let a = cumulative_reward(&m, Goal::Max, &rewards, 2, 1e-9).unwrap();
    assert!(!a.pinned[0], "about 1e-325 is not exactly 0");
    assert!(a.error_bound > 0.0);
}

// ---------------------------------------------------------------------------------
// Hand-computed cases.
// ---------------------------------------------------------------------------------

/// Knuth and Yao's die from a fair coin: states 0..=6 flip, 7..=12 are the faces 1..=6.
fn die() -> Spec {
    let h = || q(1, 2);
    let flip = |a: u32, b: u32| vec![vec![(a, h()), (b, h())]];
    let mut spec = vec![
        flip(1, 2),
        flip(3, 4),
        flip(5, 6),
        flip(1, 7),
        flip(8, 9),
        flip(10, 11),
        flip(12, 2),
    ];
    for f in 7..=12 {
        spec.push(vec![vec![(f, q(1, 1))]]);
    }
    spec
}

#[test]
fn the_die_of_knuth_and_yao() {
    let m = to_sparse(&die());
    let stay = vec![true; 13];
    for face in 7..=12 {
        let target: Vec<bool> = (0..13).map(|s| s == face).collect();
        let got = until_exact(&m, Goal::Max, &stay, &target, &Context::default()).unwrap();
        assert_eq!(got.values[0], Some(q(1, 6)), "face {}", face - 6);
        let a = until(&m, Goal::Min, &stay, &target, &Context::new(1e-12)).unwrap();
        assert!((a.values[0] - 1.0 / 6.0).abs() <= a.error_bound + 1e-16);
    }
    let faces: Vec<bool> = (0..13).map(|s| s >= 7).collect();
    let flips = Rewards {
        state: (0..13).map(|s| if s < 7 { 1.0 } else { 0.0 }).collect(),
        choice: Vec::new(),
    };
    let exact_flips = ExactRewards {
        state: (0..13).map(|s| q(i64::from(s < 7), 1)).collect(),
        choice: Vec::new(),
    };
    let got = reach_reward_exact(&m, Goal::Min, &faces, &exact_flips, &Context::default()).unwrap();
    assert_eq!(got.values[0], Some(q(11, 3)));
    let a = reach_reward(&m, Goal::Max, &faces, &flips, &Context::new(1e-9)).unwrap();
    assert!((a.values[0] - 11.0 / 3.0).abs() <= a.error_bound * 11.0 / 3.0 + 1e-15);
    assert!(a.error_bound <= 1e-9);
    // Within 3 flips: 1/2 * 1/2 * ... the paths 0 -> 1 -> 3 -> 7 and the like.
    let face1: Vec<bool> = (0..13).map(|s| s == 7).collect();
    let got = bounded_until_exact(&m, Goal::Max, &stay, &face1, 3).unwrap();
    assert_eq!(got.values[0], Some(q(1, 8)));
    let got = bounded_until_exact(&m, Goal::Max, &stay, &face1, 5).unwrap();
    assert_eq!(got.values[0], Some(q(1, 8) + q(1, 32)));
}

/// A coin flipped until heads: state 0 flips, 1 is heads.
fn geometric(p: Q) -> Spec {
    let miss = q(1, 1) - &p;
    vec![vec![vec![(0, miss), (1, p)]], vec![vec![(1, q(1, 1))]]]
}

#[test]
fn the_geometric_distribution() {
    let m = to_sparse(&geometric(q(1, 3)));
    let target = [false, true];
    let stay = [true, true];
    let flips = Rewards {
        state: vec![1.0, 0.0],
        choice: Vec::new(),
    };
    let a = reach_reward(&m, Goal::Min, &target, &flips, &Context::new(1e-12)).unwrap();
    assert!((a.values[0] - 3.0).abs() <= 3.0 * a.error_bound);
    assert_eq!(a.sweeps, 0, "a self-loop is solved in closed form");
    let exact = ExactRewards {
        state: vec![q(1, 1), q(0, 1)],
        choice: Vec::new(),
    };
    let got = reach_reward_exact(&m, Goal::Min, &target, &exact, &Context::default()).unwrap();
    assert_eq!(got.values, vec![Some(q(3, 1)), Some(q(0, 1))]);
    for k in 0..20u64 {
        let got = bounded_until_exact(&m, Goal::Max, &stay, &target, k).unwrap();
        let miss = q(2i64.pow(k as u32), 3i64.pow(k as u32));
        assert_eq!(got.values[0], Some(q(1, 1) - miss));
        let a = bounded_until(&m, Goal::Max, &stay, &target, k).unwrap();
        assert!(
            (a.values[0] - (1.0 - (2.0f64 / 3.0).powi(k as i32))).abs() <= a.error_bound + 1e-16
        );
        let c = cumulative_reward_exact(&m, Goal::Max, &exact, k).unwrap();
        // Expected flips among the first k: sum of (2/3)^i for i < k.
        let want = (0..k as u32).fold(q(0, 1), |acc, i| acc + q(2i64.pow(i), 3i64.pow(i)));
        assert_eq!(c.values[0], Some(want));
    }
    // A million steps stop early: the values settle in floating point.
    let a = bounded_until(&m, Goal::Max, &stay, &target, 1_000_000).unwrap();
    assert!(a.sweeps < 1_000_000);
    assert!((a.values[0] - 1.0).abs() <= a.error_bound + 1e-15);
}

#[test]
fn least_reward_leaves_cycles_of_reward_zero() {
    // 0 and 1 move to each other for free; 0 can leave for 10, 1 for 1; 2 is the target.
    // Staying forever costs nothing but never arrives: the minimiser must leave through 1.
    let spec: Spec = vec![
        vec![vec![(1, q(1, 1))], vec![(2, q(1, 1))]],
        vec![vec![(0, q(1, 1))], vec![(2, q(1, 1))]],
        vec![vec![(2, q(1, 1))]],
    ];
    let m = to_sparse(&spec);
    let target = [false, false, true];
    let rewards = Rewards {
        state: Vec::new(),
        choice: vec![0.0, 10.0, 0.0, 1.0, 0.0],
    };
    let exact = ExactRewards {
        state: Vec::new(),
        choice: [0, 10, 0, 1, 0].iter().map(|&r| q(r, 1)).collect(),
    };
    let a = reach_reward(&m, Goal::Min, &target, &rewards, &Context::new(1e-12)).unwrap();
    assert!((a.values[0] - 1.0).abs() <= a.error_bound);
    assert!((a.values[1] - 1.0).abs() <= a.error_bound);
    assert_eq!(a.strategy[..2], [0, 1], "0 goes to 1, which leaves");
    let got = reach_reward_exact(&m, Goal::Min, &target, &exact, &Context::default()).unwrap();
    assert_eq!(got.values[..2], [Some(q(1, 1)), Some(q(1, 1))]);
    assert_eq!(got.strategy[..2], [0, 1]);
    // The maximiser could stay forever: infinite.
    let a = reach_reward(&m, Goal::Max, &target, &rewards, &Context::new(1e-12)).unwrap();
    assert_eq!(a.values[..2], [f64::INFINITY, f64::INFINITY]);
    let got = reach_reward_exact(&m, Goal::Max, &target, &exact, &Context::default()).unwrap();
    assert_eq!(got.values[..2], [None, None]);
}

#[test]
fn greatest_probability_leaves_end_components() {
    // 0 and 1 move to each other surely, or try: 0 wins with 1/2, 1 with 1/3 (else 3,
    // a trap); 2 is the target. Iteration from above would stay at 1 without collapsing
    // {0, 1}.
    let spec: Spec = vec![
        vec![vec![(1, q(1, 1))], vec![(2, q(1, 2)), (3, q(1, 2))]],
        vec![vec![(0, q(1, 1))], vec![(2, q(1, 3)), (3, q(2, 3))]],
        vec![vec![(2, q(1, 1))]],
        vec![vec![(3, q(1, 1))]],
    ];
    let m = to_sparse(&spec);
    let target = [false, false, true, false];
    let stay = [true; 4];
    let a = until(&m, Goal::Max, &stay, &target, &Context::new(1e-12)).unwrap();
    assert!((a.values[0] - 0.5).abs() <= a.error_bound);
    assert!((a.values[1] - 0.5).abs() <= a.error_bound);
    assert_eq!(a.strategy[..2], [1, 0]);
    let got = until_exact(&m, Goal::Max, &stay, &target, &Context::default()).unwrap();
    assert_eq!(got.values[..2], [Some(q(1, 2)), Some(q(1, 2))]);
    assert_eq!(got.strategy[..2], [1, 0]);
    let got = until_exact(&m, Goal::Min, &stay, &target, &Context::default()).unwrap();
    assert_eq!(got.values[..2], [Some(q(0, 1)), Some(q(0, 1))]);
}

#[test]
fn unreachable_targets() {
    let m = to_sparse(&die());
    let none = vec![false; 13];
    let stay = vec![true; 13];
    let a = until(&m, Goal::Max, &stay, &none, &Context::new(1e-12)).unwrap();
    assert!(a.values.iter().all(|&v| v == 0.0));
    assert_eq!(a.error_bound, 0.0);
    let a = reach_reward(
        &m,
        Goal::Min,
        &none,
        &Rewards::default(),
        &Context::new(1e-12),
    )
    .unwrap();
    assert!(a.values.iter().all(|&v| v == f64::INFINITY));
    let got = reach_reward_exact(
        &m,
        Goal::Min,
        &none,
        &ExactRewards::default(),
        &Context::default(),
    )
    .unwrap();
    assert!(got.values.iter().all(Option::is_none));
}

#[test]
fn exact_needs_exact_probabilities() {
    let mut m = to_sparse(&die());
    m.exact = None;
    let target = vec![false; 13];
    assert_eq!(
        until_exact(&m, Goal::Max, &[true; 13], &target, &Context::default()).unwrap_err(),
        Error::NotExact
    );
}

/// A biased walk on 0..=n (up with 3/5), absorbed at both ends: a component larger than
/// those swept in the search's order. The chance of reaching n from i is
/// (1 - r^i) / (1 - r^n) with r = 2/3.
#[test]
fn a_long_biased_walk() {
    let n = 6000u32;
    let mut spec: Spec = vec![vec![vec![(0, q(1, 1))]]];
    for i in 1..n {
        spec.push(vec![vec![(i - 1, q(2, 5)), (i + 1, q(3, 5))]]);
    }
    spec.push(vec![vec![(n, q(1, 1))]]);
    let m = to_sparse(&spec);
    let target: Vec<bool> = (0..=n).map(|s| s == n).collect();
    let stay = vec![true; n as usize + 1];
    for precision in [1e-6, 1e-9] {
        let a = until(&m, Goal::Max, &stay, &target, &Context::new(precision)).unwrap();
        assert!(a.error_bound <= precision);
        for i in [1u32, 2, 10, 100, 3000, n - 1] {
            let want = 1.0 - (2.0f64 / 3.0).powi(i as i32);
            assert!(
                (a.values[i as usize] - want).abs() <= a.error_bound + 1e-15,
                "state {i}: {} vs {want}",
                a.values[i as usize]
            );
        }
    }
    // The bounds cover the rounding of every step, and the walk from near 0 is some
    // 30000 steps long: rounding alone keeps them some 1e-11 apart there.
    match until(&m, Goal::Max, &stay, &target, &Context::new(1e-14)) {
        Err(Error::NotConverged(..)) => {}
        other => panic!("precision 1e-14 met? {:?}", other.map(|a| a.error_bound)),
    }
    // The expected steps until absorption, for the fair part: from state 1 nearly
    // 1 / (q - p) * ... checked against the exact solution.
    let ends: Vec<bool> = (0..=n).map(|s| s == 0 || s == n).collect();
    let steps = Rewards {
        state: (0..=n)
            .map(|s| if s == 0 || s == n { 0.0 } else { 1.0 })
            .collect(),
        choice: Vec::new(),
    };
    let a = reach_reward(&m, Goal::Min, &ends, &steps, &Context::new(1e-9)).unwrap();
    assert!(a.error_bound <= 1e-9);
    // Far from both ends, each step gains 1/5 on average: about (n - i) * 5.
    let mid = a.values[3000];
    assert!((mid - 15000.0).abs() < 1.0, "{mid}");
}

/// A ring of `n` states, each moving on with 1/2, to a pseudo-random state with 1/4, and
/// to the target (state `n`) or the trap (`n + 1`) with 1/8 each; with `pairs`, every
/// other pair of states may also move surely to each other (end components of reward 0).
/// Every state is worth 1/2 at best, and 4 steps at least: large enough for the
/// components to be swept in parallel blocks.
fn ring(n: u32, pairs: bool) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    let mut r: u64 = 12345;
    for s in 0..n {
        r = r
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let jump = ((r >> 33) % u64::from(n)) as u32;
        m.to.extend([(s + 1) % n, jump, n, n + 1]);
        m.prob.extend([0.5, 0.25, 0.125, 0.125]);
        m.row.push(m.to.len());
        if pairs && s % 4 < 2 {
            m.to.push(s ^ 1);
            m.prob.push(1.0);
            m.row.push(m.to.len());
        }
        m.choices.push(m.row.len() - 1);
    }
    for s in [n, n + 1] {
        m.to.push(s);
        m.prob.push(1.0);
        m.row.push(m.to.len());
        m.choices.push(m.row.len() - 1);
    }
    m
}

#[test]
fn large_components_in_parallel_blocks() {
    let n = 150_000;
    for pairs in [false, true] {
        let m = ring(n, pairs);
        let all = n as usize + 2;
        let target: Vec<bool> = (0..all).map(|s| s == n as usize).collect();
        let ends: Vec<bool> = (0..all).map(|s| s >= n as usize).collect();
        let stay = vec![true; all];
        let a = until(&m, Goal::Max, &stay, &target, &Context::new(1e-9)).unwrap();
        assert!(a.error_bound <= 1e-9);
        assert!(a.values[..n as usize]
            .iter()
            .all(|v| (v - 0.5).abs() <= a.error_bound));
        let steps = Rewards {
            state: Vec::new(),
            choice: (0..m.choice_count())
                .map(|c| f64::from(m.transitions_of(c).len() > 1))
                .collect(),
        };
        let a = reach_reward(&m, Goal::Min, &ends, &steps, &Context::new(1e-9)).unwrap();
        assert!(a.error_bound <= 1e-9);
        assert!(a.values[..n as usize]
            .iter()
            .all(|v| (v - 4.0).abs() <= 4.0 * a.error_bound));
        // The strategy leaves the pairs: never both partners move to each other.
        for s in (0..n as usize).filter(|s| s % 4 == 0) {
            assert!(a.strategy[s] == 0 || a.strategy[s + 1] == 0, "pair {s}");
        }
    }
}

/// A slowly mixing random decision process on a ring of `n` states, with the target
/// `n` and the trap `n + 1`: each choice steps left or right, now and then jumps, and
/// leaves for the target or the trap with a few thousandths at most, so that the sweeps
/// alone would need thousands of rounds. Some states may also move surely to a partner
/// (end components, of reward 0 where the choice's reward is 0).
fn slow_ring(rng: &mut ChaCha8Rng, n: u32) -> Spec {
    let mut spec: Spec = Vec::new();
    for s in 0..n {
        let mut choices = Vec::new();
        for _ in 0..rng.gen_range(1..=3) {
            let mut w: std::collections::BTreeMap<u32, i64> = Default::default();
            let to_target = rng.gen_range(0..=3);
            let to_trap = rng.gen_range(0..=1);
            let jump = rng.gen_range(0..=40);
            let left = rng.gen_range(100..=500);
            *w.entry(n).or_default() += to_target;
            *w.entry(n + 1).or_default() += to_trap;
            *w.entry(rng.gen_range(0..n)).or_default() += jump;
            *w.entry((s + n - 1) % n).or_default() += left;
            *w.entry((s + 1) % n).or_default() += 1000 - to_target - to_trap - jump - left;
            choices.push(
                w.into_iter()
                    .filter(|&(_, k)| k > 0)
                    .map(|(t, k)| (t, q(k, 1000)))
                    .collect(),
            );
        }
        if rng.gen_bool(0.15) {
            choices.push(vec![((s ^ 1).min(n - 1), q(1, 1))]);
        }
        spec.push(choices);
    }
    spec.push(vec![vec![(n, q(1, 1))]]);
    spec.push(vec![vec![(n + 1, q(1, 1))]]);
    spec
}

/// On slowly mixing components the iteration starts from a guess (strategy iteration in
/// `f64`) and certifies it: the values stay within their bounds of the exact ones, and
/// the sweeps number tens, not thousands.
#[test]
fn slow_components_are_guessed_and_certified() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut sweeps = Vec::new();
    for round in 0..12 {
        let n = rng.gen_range(40..=160);
        let spec = slow_ring(&mut rng, n);
        let m = to_sparse(&spec);
        let all = n as usize + 2;
        let target: Vec<bool> = (0..all).map(|s| s == n as usize).collect();
        let ends: Vec<bool> = (0..all).map(|s| s >= n as usize).collect();
        let stay = vec![true; all];
        let choice: Vec<i64> = (0..m.choice_count())
            .map(|_| {
                if rng.gen_bool(0.5) {
                    0
                } else {
                    rng.gen_range(1..=3)
                }
            })
            .collect();
        let rewards = Rewards {
            state: Vec::new(),
            choice: choice.iter().map(|&r| r as f64).collect(),
        };
        let exact_rewards = ExactRewards {
            state: Vec::new(),
            choice: choice.iter().map(|&r| q(r, 1)).collect(),
        };
        for goal in GOALS {
            let what = format!("round {round} until {goal:?}");
            let want = until_exact(&m, goal, &stay, &target, &Context::default())
                .unwrap()
                .values;
            let a = until(&m, goal, &stay, &target, &Context::new(1e-9)).unwrap();
            check_f64(&what, &a, &want, 1e-9);
            sweeps.push(a.sweeps);
            let what = format!("round {round} reward {goal:?}");
            let want = reach_reward_exact(&m, goal, &ends, &exact_rewards, &Context::default())
                .unwrap()
                .values;
            let a = reach_reward(&m, goal, &ends, &rewards, &Context::new(1e-9)).unwrap();
            check_f64(&what, &a, &want, 1e-9);
            sweeps.push(a.sweeps);
        }
    }
    sweeps.sort_unstable();
    let median = sweeps[sweeps.len() / 2];
    assert!(median <= 200, "median sweeps {median}: {sweeps:?}");
}
