//! The weighted sums in `f64` against the exact linear program, on random decision
//! processes with random formulas and rewards: every bound must hold the exact answer,
//! within the precision, and every corner of a curve must be reached.

use num_traits::One;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::form::ExactProbs;
use crate::numeric::value::Value;

const PRECISION: f64 = 1e-9;

/// A random decision process of `n` states with exact probabilities (few successors
/// each, so that end components are common).
fn random_mdp(rng: &mut ChaCha8Rng, n: usize) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        initial: vec![0],
        ..Form::default()
    };
    let mut values: Vec<Exact> = Vec::new();
    let mut id = Vec::new();
    for _ in 0..n {
        for _ in 0..rng.gen_range(1..=3) {
            let k = rng.gen_range(1..=2);
            let mut targets: Vec<u32> = (0..k).map(|_| rng.gen_range(0..n as u32)).collect();
            targets.sort_unstable();
            targets.dedup();
            let weights: Vec<i64> = targets.iter().map(|_| rng.gen_range(1..4)).collect();
            let total: i64 = weights.iter().sum();
            for (&t, &w) in targets.iter().zip(&weights) {
                let p = Exact::new(w.into(), total.into());
                m.to.push(t);
                m.prob.push(p.to_f64());
                id.push(values.len() as u32);
                values.push(p);
            }
            m.row.push(m.to.len());
        }
        m.choices.push(m.row.len() - 1);
    }
    m.exact = Some(ExactProbs { values, id });
    m
}

fn random_formula(rng: &mut ChaCha8Rng) -> Ltl {
    let atom = |rng: &mut ChaCha8Rng| Box::new(Ltl::Atom(rng.gen_range(0..2)));
    match rng.gen_range(0..5) {
        0 => Ltl::Eventually(atom(rng)),
        1 => Ltl::Globally(atom(rng)),
        2 => Ltl::Globally(Box::new(Ltl::Eventually(atom(rng)))),
        3 => Ltl::Until(atom(rng), atom(rng)),
        _ => Ltl::Eventually(Box::new(Ltl::Globally(atom(rng)))),
    }
}

/// Random objectives: formulas, and rewards on some choices (within `k` steps or
/// over all).
fn random_objectives(rng: &mut ChaCha8Rng, m: &Form, count: usize) -> Vec<Objective> {
    (0..count)
        .map(|_| {
            if rng.gen_bool(0.5) {
                Objective::Probability(random_formula(rng))
            } else {
                let choice = (0..m.choice_count())
                    .map(|_| Exact::from_integer(rng.gen_range(0..3).into()))
                    .collect();
                Objective::Reward {
                    rewards: ExactRewards {
                        state: Vec::new(),
                        choice,
                    },
                    steps: rng.gen_bool(0.3).then(|| rng.gen_range(1..4)),
                }
            }
        })
        .collect()
}

/// Whether `x` lies within the bounds, give or take the rounding of the answer.
fn within(x: &Exact, lo: f64, hi: f64) -> bool {
    let x = x.to_f64();
    let slack = 1e-12 * x.abs().max(1.0);
    lo - slack <= x && x <= hi + slack
}

#[test]
fn weighted_sums_bound_the_exact_answers() {
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let cx = Context::new(PRECISION);
    let names = |s: usize| s.to_string();
    let (mut checked, mut curves, mut undecided) = (0, 0, 0);
    for case in 0..1500 {
        let n = rng.gen_range(2..7);
        let m = random_mdp(&mut rng, n);
        let letters: Vec<Letter> = (0..n).map(|_| rng.gen_range(0..4)).collect();
        let count = rng.gen_range(2..4);
        let objectives = random_objectives(&mut rng, &m, count);
        // Rewards gathered for ever are refused by both alike.
        let Ok(lp) = program(&m, &letters, &objectives, 1 << 16, &names) else {
            continue;
        };
        let mut ws = weighted(&m, &letters, &objectives, 1 << 16, &cx).unwrap();
        // Limits from the exact range of each objective alone.
        let maximise: Vec<bool> = (0..count)
            .map(|i| match objectives[i] {
                Objective::Probability(_) => true,
                Objective::Reward { .. } => rng.gen_bool(0.5),
            })
            .collect();
        let mut limits = Vec::new();
        for (i, &max) in maximise.iter().enumerate().skip(1) {
            let Best::Value(top) = lp.best(i, max, &[]).unwrap() else {
                continue;
            };
            // Mostly inside the range; its ends, where f64 cannot tell, now and then.
            let share = if rng.gen_bool(0.1) {
                Exact::from_integer(rng.gen_range(0..=1).into())
            } else {
                Exact::new(rng.gen_range(1..=7).into(), 8.into())
            };
            limits.push(Limit {
                objective: i,
                relation: if max { Relation::Ge } else { Relation::Le },
                value: if max {
                    top * share
                } else {
                    top * (<Exact as One>::one() + share)
                },
                strict: rng.gen_bool(0.2),
            });
        }
        let what = format!("case {case}: {objectives:?} limits {limits:?}");
        match (
            lp.best(0, maximise[0], &limits).unwrap(),
            ws.best(0, maximise[0], &limits, &cx),
        ) {
            (Best::Value(v), Ok(Bounds::Value { lo, hi })) => {
                assert!(within(&v, lo, hi), "{what}: {v} not in [{lo}, {hi}]");
                assert!(hi - lo <= 2.0 * PRECISION * hi.abs().max(1.0), "{what}");
                checked += 1;
            }
            (Best::Infeasible, Ok(Bounds::Infeasible)) => checked += 1,
            (_, Err(Error::Undecided(_))) => undecided += 1,
            (e, w) => panic!("{what}: exact {e:?}, weighted {w:?}"),
        }
        match (lp.achievable(&limits).unwrap(), ws.achievable(&limits, &cx)) {
            (e, Ok(w)) => assert_eq!(e, w, "{what}: achievable"),
            (_, Err(Error::Undecided(_))) => undecided += 1,
            (_, Err(e)) => panic!("{what}: {e}"),
        }
        if count == 3 {
            let exact = lp
                .pareto((0, maximise[0]), (1, maximise[1]), &limits[1..])
                .unwrap();
            let curve = match ws.pareto((0, maximise[0]), (1, maximise[1]), &limits[1..], &cx) {
                Ok(c) => c,
                Err(Error::Undecided(_)) => {
                    undecided += 1;
                    continue;
                }
                Err(e) => panic!("{what}: {e}"),
            };
            assert_eq!(exact.is_empty(), curve.corners.is_empty(), "{what}");
            if exact.is_empty() {
                continue;
            }
            let sign = |max: bool| if max { 1.0 } else { -1.0 };
            let (sa, sb) = (sign(maximise[0]), sign(maximise[1]));
            // Each corner is reached: a limit just short of it is met.
            for &(x, y) in &curve.corners {
                let short = |i: usize, v: f64, s: f64| Limit {
                    objective: i,
                    relation: if s > 0.0 { Relation::Ge } else { Relation::Le },
                    value: Exact::from_float(v - s * 1e-12 * v.abs().max(1.0)).unwrap(),
                    strict: false,
                };
                let mut at = limits[1..].to_vec();
                at.push(short(0, x, sa));
                at.push(short(1, y, sb));
                assert!(lp.achievable(&at).unwrap(), "{what}: corner {x}, {y}");
            }
            // And in every direction the exact curve lies within the error beyond.
            for _ in 0..8 {
                let w: f64 = rng.gen_range(0.0..=1.0);
                let reach = |pts: &mut dyn Iterator<Item = (f64, f64)>| {
                    pts.map(|(x, y)| w * sa * x + (1.0 - w) * sb * y)
                        .fold(f64::NEG_INFINITY, f64::max)
                };
                let e = reach(&mut exact.iter().map(|(x, y)| (x.to_f64(), y.to_f64())));
                let f = reach(&mut curve.corners.iter().copied());
                assert!(
                    e <= f + curve.error + 1e-9 * e.abs().max(1.0),
                    "{what}: exact {e} beyond {f} + {}",
                    curve.error
                );
            }
            curves += 1;
        }
    }
    eprintln!("{checked} checked, {curves} curves, {undecided} undecided");
    assert!(checked > 300, "{checked} checked");
    assert!(curves > 100, "{curves} curves");
    // Limits on the edge of what strategies reach (a tenth of them by construction,
    // and strict ones) are what f64 bounds cannot tell.
    assert!(
        undecided < checked / 4,
        "{undecided} undecided of {checked}"
    );
}
