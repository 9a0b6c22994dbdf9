//! The paths of `P`, `E` and `A`, and the rewards at a step, against a brute force on
//! random small models: every
//! history of the model up to the paths' horizon is enumerated, each path judged by the
//! textbook meaning of its operator on the finite prefix (no reduction to an until), and
//! the best value is found by backward induction over the tree of histories (so the
//! strategies may use the whole history, as step-bounded properties need) or, for `E`
//! and `A`, by asking whether some or every branch of the tree satisfies the path. The
//! checker must agree exactly with `--exact`, and within its certified bound in `f64`.

mod support;

use alea_core::Exact;
use alea_prism::check::Number;
use num_traits::{One, Zero};
use proptest::prelude::*;
use support::within;

/// A random model: `choices[s]` lists the choices of state `s`, each a list of
/// (successor, numerator) with probabilities numerator / 4; `a` and `b` are labels.
#[derive(Clone, Debug)]
struct Model {
    choices: support::Choices,
    a: Vec<bool>,
    b: Vec<bool>,
}

impl Model {
    fn text(&self) -> String {
        let n = self.choices.len();
        let mdp = self.choices.iter().any(|c| c.len() > 1);
        let mut t = format!(
            "{}\nmodule m\n  s : [0..{}] init 0;\n",
            if mdp { "mdp" } else { "dtmc" },
            n - 1
        );
        t.push_str(&support::commands(&self.choices, |_| ""));
        t.push_str(&support::labels(&self.a, &self.b));
        // A reward of 1 in the states of `a`.
        t.push_str(&format!(
            "rewards \"r\"\n  {} : 1;\nendrewards\n",
            support::states(&self.a)
        ));
        t
    }

    fn is_mdp(&self) -> bool {
        self.choices.iter().any(|c| c.len() > 1)
    }
}

fn model() -> impl Strategy<Value = Model> {
    (2usize..=4).prop_flat_map(|n| {
        let state = prop::collection::vec(support::choice(n), 1..=2);
        (
            prop::collection::vec(state, n),
            prop::collection::vec(any::<bool>(), n),
            prop::collection::vec(any::<bool>(), n),
        )
            .prop_map(|(choices, a, b)| Model { choices, a, b })
    })
}

/// A path formula over the labels `a` and `b`, with the steps it looks at.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// `a U[from,to] b` (`F` when `a` is all true)
    Until { eventually: bool },
    /// `G[from,to] a`
    Globally,
    /// `a W<=to b`
    Weak,
    /// `a R<=to b`
    Release,
    /// `X b`
    Next,
}

#[derive(Clone, Copy, Debug)]
struct Path {
    shape: Shape,
    from: u64,
    to: u64,
}

impl Path {
    fn text(&self) -> String {
        let window = if self.from == 0 {
            format!("<={}", self.to)
        } else if self.from == self.to {
            format!("={}", self.to)
        } else {
            format!("[{},{}]", self.from, self.to)
        };
        match self.shape {
            Shape::Until { eventually: true } => format!("F{window} \"b\""),
            Shape::Until { eventually: false } => format!("\"a\" U{window} \"b\""),
            Shape::Globally => format!("G{window} \"a\""),
            Shape::Weak => format!("\"a\" W<={} \"b\"", self.to),
            Shape::Release => format!("\"a\" R<={} \"b\"", self.to),
            Shape::Next => "X \"b\"".into(),
        }
    }

    /// The steps a path needs to be judged: states 0 to `horizon`.
    fn horizon(&self) -> u64 {
        match self.shape {
            Shape::Next => 1,
            _ => self.to,
        }
    }

    /// Whether the finite path `p` (states 0 to the horizon) satisfies the formula, by
    /// the operators' own meaning.
    fn holds(&self, m: &Model, p: &[usize]) -> bool {
        let (a, b) = (|i: usize| m.a[p[i]], |i: usize| m.b[p[i]]);
        let (from, to) = (self.from as usize, self.to as usize);
        match self.shape {
            Shape::Until { eventually } => {
                (from..=to).any(|i| b(i) && (eventually || (0..i).all(a)))
            }
            Shape::Globally => (from..=to).all(a),
            // `b` by step `to` with `a` before, or `a` at every step to `to`.
            Shape::Weak => (0..=to).any(|i| b(i) && (0..i).all(a)) || (0..=to).all(a),
            // `b` at every step up to and including the first where `a` holds.
            Shape::Release => (0..=to).all(|i| b(i) || (0..i).any(a)),
            Shape::Next => b(1),
        }
    }
}

fn path() -> impl Strategy<Value = Path> {
    let shape = prop_oneof![
        Just(Shape::Until { eventually: true }),
        Just(Shape::Until { eventually: false }),
        Just(Shape::Globally),
        Just(Shape::Weak),
        Just(Shape::Release),
        Just(Shape::Next),
    ];
    (shape, 0u64..=3, 0u64..=2).prop_map(|(shape, from, span)| match shape {
        Shape::Weak | Shape::Release | Shape::Next => Path {
            shape,
            from: 0,
            to: from + span,
        },
        _ => Path {
            shape,
            from,
            to: from + span,
        },
    })
}

/// The best probability of the path over every history-dependent strategy, by backward
/// induction over the tree of histories.
fn best(m: &Model, path: &Path, max: bool, prefix: &mut Vec<usize>) -> Exact {
    if prefix.len() as u64 > path.horizon() {
        return if path.holds(m, prefix) {
            Exact::one()
        } else {
            Exact::zero()
        };
    }
    let s = *prefix.last().expect("a path starts somewhere");
    let mut out: Option<Exact> = None;
    for choice in &m.choices[s] {
        let mut v = Exact::zero();
        for &(t, k) in choice {
            prefix.push(t);
            v += Exact::new(k.into(), 4.into()) * best(m, path, max, prefix);
            prefix.pop();
        }
        out = Some(match out {
            None => v,
            Some(o) if (v > o) == max => v,
            Some(o) => o,
        });
    }
    out.expect("every state has a choice")
}

/// Whether some (every) history up to the horizon satisfies the path.
fn quantified(m: &Model, path: &Path, every: bool, prefix: &mut Vec<usize>) -> bool {
    if prefix.len() as u64 > path.horizon() {
        return path.holds(m, prefix);
    }
    let s = *prefix.last().expect("a path starts somewhere");
    let mut succ = m.choices[s].iter().flatten();
    let mut go = |&(t, _): &(usize, u32)| {
        prefix.push(t);
        let r = quantified(m, path, every, prefix);
        prefix.pop();
        r
    };
    if every {
        succ.all(&mut go)
    } else {
        succ.any(&mut go)
    }
}

/// Checks `property` on `m` exactly and in `f64`: the exact value, and the `f64` one.
fn check(m: &Model, property: &str) -> (Number, Number, Option<bool>) {
    support::check(&m.text(), property, false)
}

/// [`check`], counting only the fair strategies of an mdp when `fair`.
fn check_as(m: &Model, property: &str, fair: bool) -> (Number, Number, Option<bool>) {
    support::check(&m.text(), property, fair)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn probabilities_of_paths_match_the_tree_of_histories(m in model(), p in path(), max in any::<bool>()) {
        let op = match (m.is_mdp(), max) {
            (false, _) => "P",
            (true, true) => "Pmax",
            (true, false) => "Pmin",
        };
        let property = format!("{op}=? [ {} ]", p.text());
        let want = best(&m, &p, max, &mut vec![0]);
        let (exact, float, _) = check(&m, &property);
        prop_assert_eq!(&exact, &Number::Exact(Some(want)), "{} on\n{}", property, m.text());
        prop_assert!(within(&exact, &float), "{} on\n{}: {:?} against {:?}", property, m.text(), float, exact);
    }

    #[test]
    fn quantified_paths_match_the_tree_of_histories(m in model(), p in path(), every in any::<bool>()) {
        let q = if every { "A" } else { "E" };
        let property = format!("{q} [ {} ]", p.text());
        let want = quantified(&m, &p, every, &mut vec![0]);
        let (_, _, holds) = check(&m, &property);
        prop_assert_eq!(holds, Some(want), "{} on\n{}", property, m.text());
    }

    /// Unbounded: a path of `n` states' steps decides (a path that could avoid a set
    /// for longer repeats a state, and can loop for ever).
    #[test]
    fn unbounded_quantifiers_match_paths_as_long_as_the_model(m in model(), which in 0usize..6) {
        let n = m.choices.len() as u64;
        let (text, shape) = [
            ("E [ F \"b\" ]", Shape::Until { eventually: true }, false),
            ("A [ F \"b\" ]", Shape::Until { eventually: true }, true),
            ("A [ \"a\" U \"b\" ]", Shape::Until { eventually: false }, true),
            ("E [ G \"a\" ]", Shape::Globally, false),
            ("A [ \"a\" W \"b\" ]", Shape::Weak, true),
            ("E [ \"a\" R \"b\" ]", Shape::Release, false),
        ]
        .map(|(t, s, every)| (t, (s, every)))[which];
        let p = Path { shape: shape.0, from: 0, to: n };
        let want = quantified(&m, &p, shape.1, &mut vec![0]);
        let (_, _, holds) = check(&m, text);
        prop_assert_eq!(holds, Some(want), "{} on\n{}", text, m.text());
    }
}

/// The best expected reward at step `k` (1 in the states of `a`), over the tree of
/// histories.
fn instant(m: &Model, k: usize, max: bool, s: usize) -> Exact {
    if k == 0 {
        return if m.a[s] { Exact::one() } else { Exact::zero() };
    }
    let mut out: Option<Exact> = None;
    for choice in &m.choices[s] {
        let mut v = Exact::zero();
        for &(t, w) in choice {
            v += Exact::new(w.into(), 4.into()) * instant(m, k - 1, max, t);
        }
        out = Some(match out {
            None => v,
            Some(o) if (v > o) == max => v,
            Some(o) => o,
        });
    }
    out.expect("every state has a choice")
}

/// The distributions of a chain from state 0 over `t` steps: the average share of time
/// in `a` (Cesàro: it tends to the long-run share at a rate of 1/t, whatever the
/// period), and the reward gathered in them.
fn averaged(m: &Model, t: usize) -> (f64, f64) {
    let n = m.choices.len();
    let mut d = vec![0.0; n];
    d[0] = 1.0;
    let mut total = 0.0;
    for _ in 0..t {
        total += (0..n).filter(|&s| m.a[s]).map(|s| d[s]).sum::<f64>();
        let mut next = vec![0.0; n];
        for (choices, &p) in m.choices.iter().zip(&d) {
            for &(u, w) in &choices[0] {
                next[u] += p * f64::from(w) / 4.0;
            }
        }
        d = next;
    }
    (total / t as f64, total)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn rewards_at_a_step_match_the_tree_of_histories(m in model(), k in 0usize..4, max in any::<bool>()) {
        let op = match (m.is_mdp(), max) {
            (false, _) => "R{\"r\"}",
            (true, true) => "R{\"r\"}max",
            (true, false) => "R{\"r\"}min",
        };
        let property = format!("{op}=? [ I={k} ]");
        let (exact, float, _) = check(&m, &property);
        prop_assert_eq!(&exact, &Number::Exact(Some(instant(&m, k, max, 0))), "{} on\n{}", property, m.text());
        prop_assert!(within(&exact, &float), "{} on\n{}", property, m.text());
    }

    /// Chains only: the long-run share of time in `a` against the average of many steps'
    /// distributions, and the total reward against the sum of many steps' rewards.
    #[test]
    fn long_run_shares_and_totals_match_many_steps(m in model()) {
        let m = Model {
            choices: m.choices.iter().map(|c| vec![c[0].clone()]).collect(),
            ..m
        };
        let (share, _) = averaged(&m, 400_000);
        let (exact, float, _) = check(&m, "S=? [ \"a\" ]");
        let Number::Exact(Some(q)) = &exact else { panic!("{exact:?}") };
        let q = num_traits::ToPrimitive::to_f64(q).unwrap();
        prop_assert!((q - share).abs() < 2e-3, "S on\n{}: {} against {}", m.text(), q, share);
        prop_assert!(within(&exact, &float), "S on\n{}", m.text());
        let (long, _, _) = check(&m, "R{\"r\"}=? [ S ]");
        prop_assert_eq!(&long, &exact);
        // The total: finite exactly when the sum of many steps' rewards has stopped growing.
        let (_, a) = averaged(&m, 20_000);
        let (_, b) = averaged(&m, 40_000);
        let (total, float, _) = check(&m, "R{\"r\"}=? [ C ]");
        match &total {
            Number::Exact(None) => prop_assert!(b - a > 1.0, "C on\n{}: infinite against {}", m.text(), b),
            Number::Exact(Some(q)) => {
                let q = num_traits::ToPrimitive::to_f64(q).unwrap();
                prop_assert!((q - b).abs() < 1e-6 * q.max(1.0), "C on\n{}: {} against {}", m.text(), q, b);
                prop_assert!(within(&total, &float), "C on\n{}", m.text());
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Every memoryless strategy of a model, as the chain it makes (one choice per state).
fn strategies(m: &Model) -> Vec<Model> {
    let mut out = vec![Vec::new()];
    for choices in &m.choices {
        out = out
            .into_iter()
            .flat_map(|picked: Vec<Vec<(usize, u32)>>| {
                choices.iter().map(move |c| {
                    let mut p = picked.clone();
                    p.push(c.clone());
                    p
                })
            })
            .collect();
    }
    out.into_iter()
        .map(|picked| Model {
            choices: picked.into_iter().map(|c| vec![c]).collect(),
            ..m.clone()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Decision processes: the greatest and least long-run share of time in `a`, and
    /// total reward, against the best and worst of every memoryless strategy (which
    /// attain both optimums), each strategy's chain averaged over many steps.
    #[test]
    fn long_run_of_decision_processes_matches_every_strategy(m in model()) {
        prop_assume!(m.is_mdp());
        let chains = strategies(&m);
        let shares: Vec<f64> = chains.iter().map(|c| averaged(c, 100_000).0).collect();
        let totals: Vec<Option<f64>> = chains
            .iter()
            .map(|c| {
                let (_, a) = averaged(c, 20_000);
                let (_, b) = averaged(c, 40_000);
                (b - a < 1e-9).then_some(b)
            })
            .collect();
        for max in [true, false] {
            let pick = |a: f64, b: f64| if max { a.max(b) } else { a.min(b) };
            let best = shares.iter().copied().reduce(pick).unwrap();
            let opt = if max { "max" } else { "min" };
            let property = format!("S{opt}=? [ \"a\" ]");
            let (exact, float, _) = check(&m, &property);
            let Number::Exact(Some(q)) = &exact else { panic!("{exact:?}") };
            let q = num_traits::ToPrimitive::to_f64(q).unwrap();
            prop_assert!((q - best).abs() < 2e-3, "{} on\n{}: {} against {}", property, m.text(), q, best);
            prop_assert!(within(&exact, &float), "{} on\n{}: {:?}", property, m.text(), float);
            let (long, _, _) = check(&m, &format!("R{{\"r\"}}{opt}=? [ S ]"));
            prop_assert_eq!(&long, &exact);
            // Infinite for the maximiser if one strategy's sum grows, for the minimiser
            // if every one's does.
            let finite: Vec<f64> = totals.iter().flatten().copied().collect();
            let want = if max && finite.len() < totals.len() || finite.is_empty() {
                None
            } else {
                finite.into_iter().reduce(pick)
            };
            let property = format!("R{{\"r\"}}{opt}=? [ C ]");
            let (total, float, _) = check(&m, &property);
            match (&total, want) {
                (Number::Exact(None), None) => {}
                (Number::Exact(Some(q)), Some(b)) => {
                    let q = num_traits::ToPrimitive::to_f64(q).unwrap();
                    prop_assert!((q - b).abs() < 1e-6 * q.max(1.0), "{} on\n{}: {} against {}", property, m.text(), q, b);
                    prop_assert!(within(&total, &float), "{} on\n{}", property, m.text());
                }
                (got, want) => prop_assert!(false, "{} on\n{}: {:?} against {:?}", property, m.text(), got, want),
            }
        }
    }
}

/// The probability of `a U b` from each state of a chain (`p[s][t]` from `s` to `t`),
/// from its linear equations solved exactly by elimination; 0 where `b` cannot be reached
/// through `a`.
fn until_in_chain(p: &[Vec<Exact>], a: &[bool], b: &[bool]) -> Vec<Exact> {
    let n = p.len();
    let mut reach = b.to_vec();
    loop {
        let grown: Vec<bool> = (0..n)
            .map(|s| reach[s] || a[s] && (0..n).any(|t| reach[t] && !p[s][t].is_zero()))
            .collect();
        if grown == reach {
            break;
        }
        reach = grown;
    }
    let open: Vec<usize> = (0..n).filter(|&s| reach[s] && !b[s]).collect();
    // (I - P restricted to `open`) x = P into `b`, as an augmented matrix.
    let mut rows: Vec<Vec<Exact>> = open
        .iter()
        .map(|&s| {
            let mut row: Vec<Exact> = open
                .iter()
                .map(|&t| if s == t { Exact::one() } else { Exact::zero() } - &p[s][t])
                .collect();
            row.push((0..n).filter(|&t| b[t]).map(|t| p[s][t].clone()).sum());
            row
        })
        .collect();
    let k = open.len();
    for c in 0..k {
        let pivot = (c..k)
            .find(|&r| !rows[r][c].is_zero())
            .expect("the equations have one solution");
        rows.swap(c, pivot);
        let lead = rows[c][c].clone();
        rows[c].iter_mut().for_each(|x| *x = &*x / &lead);
        let pivot_row = rows[c].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != c && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, y) in row.iter_mut().zip(&pivot_row).skip(c) {
                    *x -= &f * y;
                }
            }
        }
    }
    let mut x: Vec<Exact> = b
        .iter()
        .map(|&t| if t { Exact::one() } else { Exact::zero() })
        .collect();
    for (i, &s) in open.iter().enumerate() {
        x[s] = rows[i][k].clone();
    }
    x
}

/// The chain of memoryless strategy `m` (one choice per state) in model `of`, where each
/// state takes the strategy's choice with probability `1 - e` and otherwise one of all its
/// choices uniformly: every choice keeps a positive probability, so the strategy is fair.
fn nearly(of: &Model, m: &Model, e: &Exact) -> Vec<Vec<Exact>> {
    let n = of.choices.len();
    let quarter = Exact::new(1.into(), 4.into());
    let mut p = vec![vec![Exact::zero(); n]; n];
    for ((row, all), picked) in p.iter_mut().zip(&of.choices).zip(&m.choices) {
        let share = e / Exact::from_integer(all.len().into());
        for (c, weight) in std::iter::once((&picked[0], Exact::one() - e))
            .chain(all.iter().map(|c| (c, share.clone())))
        {
            for &(t, k) in c {
                row[t] += &weight * &quarter * Exact::from_integer(k.into());
            }
        }
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Under fairness, the least probability of `a U b` and the greatest of `G a`
    /// against every memoryless strategy made fair by taking each choice with a small
    /// probability `e`: the fair optimum is the limit of the best of those as `e` goes to
    /// 0, and no fair strategy beats it. The greatest probability of an until does not
    /// change.
    #[test]
    fn fair_strategies_match_nearly_deterministic_ones(m in model()) {
        prop_assume!(m.is_mdp());
        let e = Exact::new(1.into(), 1_000_000.into());
        let n = m.choices.len();
        let chains: Vec<Vec<Vec<Exact>>> = strategies(&m).iter().map(|c| nearly(&m, c, &e)).collect();
        let to_f64 = |q: &Exact| num_traits::ToPrimitive::to_f64(q).unwrap();
        let least = chains
            .iter()
            .map(|p| to_f64(&until_in_chain(p, &m.a, &m.b)[0]))
            .fold(f64::INFINITY, f64::min);
        let not_a: Vec<bool> = m.a.iter().map(|&x| !x).collect();
        let most_globally = chains
            .iter()
            .map(|p| 1.0 - to_f64(&until_in_chain(p, &vec![true; n], &not_a)[0]))
            .fold(f64::NEG_INFINITY, f64::max);
        for (property, want) in [("Pmin=? [ \"a\" U \"b\" ]", least), ("Pmax=? [ G \"a\" ]", most_globally)] {
            let (exact, float, _) = check_as(&m, property, true);
            let Number::Exact(Some(q)) = &exact else { panic!("{exact:?}") };
            prop_assert!((to_f64(q) - want).abs() < 1e-3, "{} on\n{}: {} against {}", property, m.text(), q, want);
            prop_assert!(within(&exact, &float), "{} on\n{}: {:?}", property, m.text(), float);
        }
        let max = "Pmax=? [ \"a\" U \"b\" ]";
        prop_assert_eq!(check_as(&m, max, true).0, check(&m, max).0);
    }
}

#[test]
fn probabilities_combine_in_expressions_and_nest() {
    // 0 -> 1 or 2 with 1/2 each; 1 and 2 absorbing; b at 1.
    let m = Model {
        choices: vec![
            vec![vec![(1, 2), (2, 2)]],
            vec![vec![(1, 4)]],
            vec![vec![(2, 4)]],
        ],
        a: vec![true, true, false],
        b: vec![false, true, false],
    };
    let value = |p: &str| match check(&m, p).0 {
        Number::Exact(Some(q)) => q,
        other => panic!("{p}: {other:?}"),
    };
    let half = Exact::new(1.into(), 2.into());
    assert_eq!(value("1 - P=? [ F \"b\" ]"), half);
    assert_eq!(
        value("P=? [ F \"b\" ] * 2 + 1"),
        Exact::from_integer(2.into())
    );
    // `P>0.9 [G "a"]` holds at 1 only; reaching it is 1/2.
    assert_eq!(value("P=? [ F P>0.9 [ G \"a\" ] ]"), half.clone());
    assert_eq!(
        value("filter(sum, P=? [ F \"b\" ])"),
        Exact::new(3.into(), 2.into())
    );
    assert_eq!(
        value("filter(count, P>=0.5 [ F \"b\" ])"),
        Exact::from_integer(2.into())
    );
    assert_eq!(value("filter(state, P=? [ F \"b\" ], s=2)"), Exact::zero());
    assert_eq!(
        value("min(P=? [ F \"b\" ], 1/4)"),
        Exact::new(1.into(), 4.into())
    );
    assert_eq!(check(&m, "E [ X \"b\" ] & !A [ X \"b\" ]").2, Some(true));
    assert_eq!(
        check(&m, "filter(forall, \"b\" => P>=1 [ G \"b\" ])").2,
        Some(true)
    );
}
