//! The automata against LTL's semantics, evaluated directly on lasso-shaped paths (a
//! prefix, then a loop for ever), and the solvers against values worked out by hand.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::numeric::value::Exact;

/// Whether each position of the lasso `letters` (the last position goes back to
/// `back`) satisfies `f`, by the fixed points that define LTL's operators.
fn holds(f: &Ltl, letters: &[Letter], back: usize) -> Vec<bool> {
    let n = letters.len();
    let succ = |i: usize| if i + 1 == n { back } else { i + 1 };
    // `v = b | (a & X v)` from all false (least) or all true (greatest).
    let fixed = |a: &[bool], b: &[bool], least: bool, and_b: bool| -> Vec<bool> {
        let mut v = vec![!least; n];
        loop {
            let next: Vec<bool> = (0..n)
                .map(|i| {
                    if and_b {
                        // `v = b & (a | X v)`
                        b[i] && (a[i] || v[succ(i)])
                    } else {
                        b[i] || (a[i] && v[succ(i)])
                    }
                })
                .collect();
            if next == v {
                return v;
            }
            v = next;
        }
    };
    let t = vec![true; n];
    match f {
        Ltl::True => t,
        Ltl::False => vec![false; n],
        Ltl::Atom(i) => letters.iter().map(|l| l >> i & 1 == 1).collect(),
        Ltl::Not(g) => holds(g, letters, back).iter().map(|b| !b).collect(),
        Ltl::And(a, b) | Ltl::Or(a, b) => {
            let (x, y) = (holds(a, letters, back), holds(b, letters, back));
            let and = matches!(f, Ltl::And(..));
            (0..n)
                .map(|i| if and { x[i] && y[i] } else { x[i] || y[i] })
                .collect()
        }
        Ltl::Next(g) => {
            let x = holds(g, letters, back);
            (0..n).map(|i| x[succ(i)]).collect()
        }
        Ltl::Eventually(g) => fixed(&t, &holds(g, letters, back), true, false),
        Ltl::Globally(g) => fixed(&vec![false; n], &holds(g, letters, back), false, true),
        Ltl::Until(a, b) => fixed(
            &holds(a, letters, back),
            &holds(b, letters, back),
            true,
            false,
        ),
        Ltl::WeakUntil(a, b) => fixed(
            &holds(a, letters, back),
            &holds(b, letters, back),
            false,
            false,
        ),
        Ltl::Release(a, b) => fixed(
            &holds(a, letters, back),
            &holds(b, letters, back),
            false,
            true,
        ),
    }
}

fn random_formula(rng: &mut ChaCha8Rng, depth: u32, atoms: u32) -> Ltl {
    if depth == 0 || rng.gen_range(0..10) < 2 {
        return match rng.gen_range(0..12) {
            0 => Ltl::True,
            1 => Ltl::False,
            _ => Ltl::Atom(rng.gen_range(0..atoms)),
        };
    }
    let sub = |rng: &mut ChaCha8Rng| Box::new(random_formula(rng, depth - 1, atoms));
    match rng.gen_range(0..10) {
        0 => Ltl::Not(sub(rng)),
        1 => Ltl::And(sub(rng), sub(rng)),
        2 => Ltl::Or(sub(rng), sub(rng)),
        3 => Ltl::Next(sub(rng)),
        4 => Ltl::Eventually(sub(rng)),
        5 => Ltl::Globally(sub(rng)),
        6 => Ltl::Until(sub(rng), sub(rng)),
        7 => Ltl::WeakUntil(sub(rng), sub(rng)),
        8 => Ltl::Release(sub(rng), sub(rng)),
        _ => Ltl::Eventually(Box::new(Ltl::Globally(sub(rng)))),
    }
}

/// A chain that walks the lasso: position `i` to the next, the last back to `back`.
fn lasso(n: usize, back: usize) -> Form {
    let mut m = Form {
        choices: vec![0],
        row: vec![0],
        initial: vec![0],
        ..Form::default()
    };
    for i in 0..n {
        m.to.push(if i + 1 == n {
            back as u32
        } else {
            i as u32 + 1
        });
        m.prob.push(1.0);
        m.row.push(m.to.len());
        m.choices.push(m.row.len() - 1);
    }
    m
}

const CASES: usize = 1500;

#[test]
fn the_automata_accept_the_lassos_that_satisfy_the_formula() {
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let cx = Context::default();
    let mut accepted = 0;
    for case in 0..CASES {
        let atoms = rng.gen_range(1..4);
        let depth = rng.gen_range(1..5);
        let f = random_formula(&mut rng, depth, atoms);
        let n = rng.gen_range(1..7);
        let back = rng.gen_range(0..n);
        let letters: Vec<Letter> = (0..n).map(|_| rng.gen_range(0..1u64 << atoms)).collect();
        let truth = holds(&f, &letters, back);
        let m = lasso(n, back);
        let p = probability(&m, &f, &letters, false, 1 << 20, &cx).unwrap();
        let e = exists(&m, &f, &letters, 1 << 20).unwrap();
        for (s, &truth) in truth.iter().enumerate() {
            // Every state of the lasso starts a lasso of its own.
            assert_eq!(
                p.answer.values[s] == 1.0,
                truth,
                "case {case}: {f:?} from position {s} of {letters:?} back to {back}: {}",
                p.answer.values[s]
            );
            assert!(p.answer.values[s] == 0.0 || p.answer.values[s] == 1.0);
            assert_eq!(e.answer[s], truth, "case {case}: E [{f:?}] at {s}");
        }
        accepted += usize::from(p.answer.values[0] == 1.0);
    }
    // Both outcomes are well represented.
    assert!(
        (CASES / 5..CASES * 4 / 5).contains(&accepted),
        "{accepted} of {CASES} accepted"
    );
}

#[test]
fn cosafe_rewards_count_the_steps_until_the_pattern() {
    // A fair coin tossed for ever: the expected tosses until heads twice in a row is 6,
    // until heads then tails 4. State 0 is heads, 1 tails; each state a toss.
    let m = Form {
        choices: vec![0, 1, 2],
        row: vec![0, 2, 4],
        to: vec![0, 1, 0, 1],
        prob: vec![0.5; 4],
        initial: vec![0],
        exact: Some(crate::form::ExactProbs {
            values: vec![Exact::new(1.into(), 2.into())],
            id: vec![0; 4],
        }),
        ..Form::default()
    };
    let letters = [1, 0];
    let heads = || Box::new(Ltl::Atom(0));
    let tails = || Box::new(Ltl::Not(heads()));
    // F (h & X h), F (h & X t), a reward of 1 a toss.
    let twice = Ltl::Eventually(Box::new(Ltl::And(heads(), Box::new(Ltl::Next(heads())))));
    let then_tails = Ltl::Eventually(Box::new(Ltl::And(heads(), Box::new(Ltl::Next(tails())))));
    let r = Rewards {
        state: vec![1.0, 1.0],
        choice: Vec::new(),
    };
    let cx = Context::default();
    // From H: E_H = 1 + E_T/2; from T: E_T = 1 + (E_H + E_T)/2; so 4 and 6.
    let a = reward(&m, Goal::Min, &twice, &letters, &r, 1 << 20, &cx).unwrap();
    assert!(
        (a.answer.values[0] - 4.0).abs() < 1e-9,
        "{:?}",
        a.answer.values
    );
    assert!(
        (a.answer.values[1] - 6.0).abs() < 1e-9,
        "{:?}",
        a.answer.values
    );
    let exact = ExactRewards {
        state: vec![Exact::from_integer(1.into()); 2],
        choice: Vec::new(),
    };
    let b = reward_exact(&m, Goal::Min, &then_tails, &letters, &exact, 1 << 20, &cx).unwrap();
    // From H: the next toss is tails (1 step) or heads again: E_H = 1 + E_H/2, so 2;
    // from T: E_T = 1 + (E_H + E_T)/2, so 4.
    assert_eq!(b.answer.values[0], Some(Exact::from_integer(2.into())));
    assert_eq!(b.answer.values[1], Some(Exact::from_integer(4.into())));
    // Not co-safe: refused.
    let g = Ltl::Globally(heads());
    assert!(reward(&m, Goal::Min, &g, &letters, &r, 1 << 20, &cx).is_err());
}

#[test]
fn infinitely_often_in_a_chain_is_the_chance_of_its_bottom_components() {
    // 0 -> 1 or 2 (1/2 each); 1 loops; 2 <-> 3. `G F p` where p holds in 3 only: 1/2.
    // `F G !p`: 1/2 too (state 1 for ever); `G F p & F G !p` never.
    let m = Form {
        choices: vec![0, 1, 2, 3, 4],
        row: vec![0, 2, 3, 4, 5],
        to: vec![1, 2, 1, 3, 2],
        prob: vec![0.5, 0.5, 1.0, 1.0, 1.0],
        initial: vec![0],
        ..Form::default()
    };
    let letters = [0, 0, 0, 1];
    let p = || Box::new(Ltl::Atom(0));
    let gf = Ltl::Globally(Box::new(Ltl::Eventually(p())));
    let fg = Ltl::Eventually(Box::new(Ltl::Globally(Box::new(Ltl::Not(p())))));
    let cx = Context::default();
    let near = |f: &Ltl, want: [f64; 4]| {
        let a = probability(&m, f, &letters, false, 1 << 20, &cx)
            .unwrap()
            .answer;
        for (v, w) in a.values.iter().zip(want) {
            assert!(
                (v - w).abs() <= a.error_bound.max(1e-15),
                "{f:?}: {:?}",
                a.values
            );
        }
    };
    near(&gf, [0.5, 0.0, 1.0, 1.0]);
    near(&fg, [0.5, 1.0, 0.0, 0.0]);
    near(&gf.clone().and(fg), [0.0; 4]);
}

#[test]
fn a_formula_left_true_on_every_path_is_accepted_at_once() {
    // A chain 0 -> 1 -> 2 -> 3 (which stays), a reward of 1 a step; "a" holds in 1,
    // "b" in 2. `F (a & (X b | X !b))` is `F a`, and `(F<=2 b) | (G<=2 !b)` holds on
    // every path: the rewards until they are satisfied are 1 and 0.
    let m = Form {
        choices: vec![0, 1, 2, 3, 4],
        row: vec![0, 1, 2, 3, 4],
        to: vec![1, 2, 3, 3],
        prob: vec![1.0; 4],
        initial: vec![0],
        exact: Some(crate::form::ExactProbs {
            values: vec![Exact::from_integer(1.into())],
            id: vec![0; 4],
        }),
        ..Form::default()
    };
    let letters = [0, 1, 2, 0];
    let (a, b) = (|| Ltl::Atom(0), || Ltl::Atom(1));
    let either = b().next().or(b().negated().next());
    let f = Ltl::Eventually(Box::new(a().and(either)));
    let within2 = b().or(b().or(b().next()).next());
    let never2 = b()
        .negated()
        .and(b().negated().and(b().negated().next()).next());
    let g = within2.or(never2);
    let r = ExactRewards {
        state: vec![Exact::from_integer(1.into()); 4],
        choice: Vec::new(),
    };
    let cx = Context::default();
    let v = |f: &Ltl| {
        reward_exact(&m, Goal::Min, f, &letters, &r, 1 << 20, &cx)
            .unwrap()
            .answer
            .values[0]
            .clone()
    };
    assert_eq!(v(&f), Some(Exact::from_integer(1.into())));
    assert_eq!(v(&g), Some(Exact::from_integer(0.into())));
}
