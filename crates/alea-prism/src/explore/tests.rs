//! Tests of exploration: programs built by hand and read from text, and a brute-force
//! cross-check against a naive explorer on random programs.

use super::*;
use crate::ast::{BinOp, Func, UnOp};
use crate::program::{Command, ExKind, Module, Real, RewardItem, Update, Value, Var};
use num_bigint::BigInt;
use std::collections::HashMap;

// ---------------------------------------------------------------- building programs

fn ex(kind: ExKind, ty: Ty) -> Ex {
    Ex {
        kind,
        ty,
        span: Span::default(),
    }
}

fn int(i: i64) -> Ex {
    ex(ExKind::Value(Value::Int(i)), Ty::Int)
}

fn boolean(b: bool) -> Ex {
    ex(ExKind::Value(Value::Bool(b)), Ty::Bool)
}

fn ratio(n: i64, d: i64) -> Exact {
    Exact::new(BigInt::from(n), BigInt::from(d))
}

/// The real `n/d`, with its exact value.
fn real(n: i64, d: i64) -> Ex {
    ex(
        ExKind::Value(Value::Real(Real {
            approx: n as f64 / d as f64,
            exact: Some(ratio(n, d)),
        })),
        Ty::Real,
    )
}

fn var(i: u32) -> Ex {
    ex(ExKind::Var(i), Ty::Int)
}

fn bvar(i: u32) -> Ex {
    ex(ExKind::Var(i), Ty::Bool)
}

fn bin(op: BinOp, a: Ex, b: Ex) -> Ex {
    use BinOp::*;
    let ty = match op {
        Lt | Le | Gt | Ge | Eq | Ne | And | Or | Implies | Iff => Ty::Bool,
        Div => Ty::Real,
        _ if a.ty == Ty::Real || b.ty == Ty::Real => Ty::Real,
        _ => Ty::Int,
    };
    ex(ExKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

fn not(a: Ex) -> Ex {
    ex(ExKind::Unary(UnOp::Not, Box::new(a)), Ty::Bool)
}

fn call(f: Func, args: Vec<Ex>) -> Ex {
    let ty = if args.iter().any(|a| a.ty == Ty::Real) {
        Ty::Real
    } else {
        Ty::Int
    };
    ex(ExKind::Call(f, args), ty)
}

fn ite(c: Ex, a: Ex, b: Ex) -> Ex {
    let ty = if a.ty == Ty::Real || b.ty == Ty::Real {
        Ty::Real
    } else {
        a.ty
    };
    ex(ExKind::Ite(Box::new(c), Box::new(a), Box::new(b)), ty)
}

fn int_var(name: &str, low: i64, high: i64, init: i64, module: Option<usize>) -> Var {
    Var {
        name: name.into(),
        low,
        high,
        init,
        is_bool: false,
        module,
        span: Span::default(),
    }
}

fn bool_var(name: &str, init: bool, module: Option<usize>) -> Var {
    Var {
        name: name.into(),
        low: 0,
        high: 1,
        init: init as i64,
        is_bool: true,
        module,
        span: Span::default(),
    }
}

type Upd = (Ex, Vec<(u32, Ex)>);

fn cmd(action: Option<u32>, guard: Ex, updates: Vec<Upd>) -> Command {
    Command {
        action,
        guard,
        updates: updates
            .into_iter()
            .map(|(prob, assigns)| Update {
                prob,
                assigns,
                span: Span::default(),
            })
            .collect(),
        span: Span::new(7, 9),
    }
}

fn module(name: &str, commands: Vec<Command>) -> Module {
    let mut alphabet: Vec<u32> = commands.iter().filter_map(|c| c.action).collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    Module {
        name: name.into(),
        commands,
        alphabet,
        span: Span::default(),
    }
}

fn program(
    kind: ModelType,
    variables: Vec<Var>,
    modules: Vec<Module>,
    actions: &[&str],
) -> Program {
    Program {
        kind,
        variables,
        init: None,
        modules,
        actions: actions.iter().map(|a| a.to_string()).collect(),
        labels: Vec::new(),
        rewards: Vec::new(),
        constants: Vec::new(),
        exact: false,
        players: Default::default(),
    }
}

fn run(p: &Program) -> Explored {
    explore(p, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run_exact(p: &Program) -> Explored {
    let options = Options {
        exact: true,
        ..Options::default()
    };
    explore(p, &options).unwrap_or_else(|e| panic!("{e}"))
}

fn error(p: &Program) -> String {
    match explore(p, &Options::default()) {
        Ok(_) => panic!("exploration succeeded"),
        Err(e) => e.to_string(),
    }
}

/// A choice: its action and transitions (a target, valuation or id, and probability).
type Choice<T> = (Option<u32>, Vec<(T, f64)>);

/// The choices of state `s` as (action, [(target valuation, probability)]).
fn choices_of(e: &Explored, s: u32) -> Vec<Choice<Vec<i64>>> {
    e.form
        .choices_of(s as usize)
        .map(|c| {
            let t = e
                .form
                .transitions_of(c)
                .map(|t| (e.valuation(e.form.to[t]), e.form.prob[t]))
                .collect();
            (e.action(c), t)
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

// ---------------------------------------------------------------- hand-built programs

/// Module A: `x : [0..2]`, `[a] x < 2 -> 1/2 : x' = x + 1 + 1/2 : true`.
/// Module B: `y : [0..2]`, `[a] y < 2 -> 2/5 : y' = y + 1 + 3/5 : true` and
/// `[a] y < 2 -> y' = 2`.
fn synchronised(kind: ModelType) -> Program {
    let a = module(
        "A",
        vec![cmd(
            Some(0),
            bin(BinOp::Lt, var(0), int(2)),
            vec![
                (real(1, 2), vec![(0, bin(BinOp::Add, var(0), int(1)))]),
                (real(1, 2), vec![]),
            ],
        )],
    );
    let b = module(
        "B",
        vec![
            cmd(
                Some(0),
                bin(BinOp::Lt, var(1), int(2)),
                vec![
                    (real(2, 5), vec![(1, bin(BinOp::Add, var(1), int(1)))]),
                    (real(3, 5), vec![]),
                ],
            ),
            cmd(
                Some(0),
                bin(BinOp::Lt, var(1), int(2)),
                vec![(int(1), vec![(1, int(2))])],
            ),
        ],
    );
    program(
        kind,
        vec![
            int_var("x", 0, 2, 0, Some(0)),
            int_var("y", 0, 2, 0, Some(1)),
        ],
        vec![a, b],
        &["a"],
    )
}

#[test]
fn synchronised_mdp_has_one_choice_per_combination() {
    let e = run(&synchronised(ModelType::Mdp));
    assert_eq!(e.form.initial, vec![0]);
    assert_eq!(e.valuation(0), vec![0, 0]);
    let c = choices_of(&e, 0);
    assert_eq!(c.len(), 2);
    // The product of A's two branches and B's first command's two.
    let mut first = c[0].1.clone();
    first.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(c[0].0, Some(0));
    let expect = [
        (vec![0, 0], 0.3),
        (vec![0, 1], 0.2),
        (vec![1, 0], 0.3),
        (vec![1, 1], 0.2),
    ];
    assert_eq!(first.len(), 4);
    for ((v, p), (w, q)) in first.iter().zip(&expect) {
        assert_eq!(v, w);
        assert!(close(*p, *q), "{p} {q}");
    }
    // With B's second command: A's branches, y set to 2.
    let mut second = c[1].1.clone();
    second.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(second, vec![(vec![0, 2], 0.5), (vec![1, 2], 0.5)]);
    // x = 2 or y = 2 blocks the action: a deadlock.
    let s = e.find(&[2, 0]).unwrap();
    assert!(e.is_deadlock(s));
    assert_eq!(choices_of(&e, s), vec![(None, vec![(vec![2, 0], 1.0)])]);
    assert_eq!(e.states(), 9);
    // Every state with x, y < 2 has two choices; the other five are deadlocks.
    assert_eq!(e.deadlocks, 5);
    assert_eq!(e.choices(), 4 * 2 + 5);
}

#[test]
fn synchronised_dtmc_merges_choices_uniformly() {
    let e = run(&synchronised(ModelType::Dtmc));
    let c = choices_of(&e, 0);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].0, None);
    let mut t = c[0].1.clone();
    t.sort_by(|a, b| a.0.cmp(&b.0));
    let expect = [
        (vec![0, 0], 0.15),
        (vec![0, 1], 0.1),
        (vec![0, 2], 0.25),
        (vec![1, 0], 0.15),
        (vec![1, 1], 0.1),
        (vec![1, 2], 0.25),
    ];
    assert_eq!(t.len(), expect.len());
    for ((v, p), (w, q)) in t.iter().zip(&expect) {
        assert_eq!(v, w);
        assert!(close(*p, *q), "{p} {q}");
    }
    assert_eq!(e.choices(), e.states());
}

#[test]
fn states_are_numbered_breadth_first() {
    // A counter 0..4 stepping by one: ids follow the values.
    let m = module(
        "M",
        vec![cmd(
            None,
            bin(BinOp::Lt, var(0), int(4)),
            vec![(int(1), vec![(0, bin(BinOp::Add, var(0), int(1)))])],
        )],
    );
    let p = program(
        ModelType::Dtmc,
        vec![int_var("x", 0, 4, 0, Some(0))],
        vec![m],
        &[],
    );
    let e = run(&p);
    for s in 0..5 {
        assert_eq!(e.valuation(s), vec![s as i64]);
    }
    assert_eq!(e.deadlock_states, vec![4]);
    assert_eq!(e.describe(&p, 3), "(x=3)");
}

#[test]
fn a_value_outside_its_range_names_state_and_variable() {
    let m = module(
        "M",
        vec![cmd(
            None,
            boolean(true),
            vec![(int(1), vec![(0, bin(BinOp::Add, var(0), int(1)))])],
        )],
    );
    let p = program(
        ModelType::Dtmc,
        vec![int_var("x", 0, 3, 0, Some(0)), bool_var("b", true, Some(0))],
        vec![m],
        &[],
    );
    let msg = error(&p);
    assert_eq!(
        msg,
        "in state (x=3, b=true) this update sets x to 4, outside its range 0..3"
    );
}

#[test]
fn probabilities_must_add_up_to_one() {
    let m = module(
        "M",
        vec![cmd(
            None,
            bin(BinOp::Lt, var(0), int(5)),
            vec![
                (
                    bin(BinOp::Div, int(1), bin(BinOp::Add, var(0), int(1))),
                    vec![(0, bin(BinOp::Add, var(0), int(1)))],
                ),
                (real(1, 2), vec![]),
            ],
        )],
    );
    let p = program(
        ModelType::Dtmc,
        vec![int_var("x", 0, 5, 1, Some(0))],
        vec![m],
        &[],
    );
    // x = 1: 1/2 + 1/2; x = 2: 1/3 + 1/2.
    let err = explore(&p, &Options::default()).unwrap_err();
    let ExploreError::Model(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!(e.span, Span::new(7, 9), "the command's span");
    assert!(
        e.message
            .starts_with("in state (x=2) the probabilities of this command add up to 0.83"),
        "{}",
        e.message
    );
    assert!(e.message.ends_with(", not 1"), "{}", e.message);
    // Exactly: 5/6.
    let options = Options {
        exact: true,
        ..Options::default()
    };
    let msg = explore(&p, &options).unwrap_err().to_string();
    assert_eq!(
        msg,
        "in state (x=2) the probabilities of this command add up to 5/6, not 1"
    );
}

#[test]
fn a_probability_outside_zero_one_is_an_error() {
    let m = module(
        "M",
        vec![cmd(
            None,
            boolean(true),
            vec![(real(3, 2), vec![]), (real(-1, 2), vec![])],
        )],
    );
    let p = program(
        ModelType::Mdp,
        vec![int_var("x", 0, 1, 0, Some(0))],
        vec![m],
        &[],
    );
    assert_eq!(
        error(&p),
        "in state (x=0) this probability is 1.5, not between 0 and 1"
    );
}

#[test]
fn zero_probabilities_drop_and_equal_targets_merge() {
    // x' = min(x + 1, 1) twice (equal targets once x = 1), and a branch of 0.
    let step = call(Func::Min, vec![bin(BinOp::Add, var(0), int(1)), int(1)]);
    let m = module(
        "M",
        vec![cmd(
            None,
            boolean(true),
            vec![
                (real(1, 4), vec![(0, step.clone())]),
                (real(3, 4), vec![(0, step)]),
                (int(0), vec![(0, int(0))]),
            ],
        )],
    );
    let p = program(
        ModelType::Mdp,
        vec![int_var("x", 0, 1, 0, Some(0))],
        vec![m],
        &[],
    );
    for e in [run(&p), run_exact(&p)] {
        assert_eq!(e.states(), 2);
        assert_eq!(choices_of(&e, 0), vec![(None, vec![(vec![1], 1.0)])]);
        assert_eq!(choices_of(&e, 1), vec![(None, vec![(vec![1], 1.0)])]);
        assert_eq!(e.transitions(), 2);
    }
    let e = run_exact(&p);
    let x = e.form.exact.as_ref().unwrap();
    assert_eq!(x.id.len(), 2);
    assert!(x.id.iter().all(|&i| x.values[i as usize] == ratio(1, 1)));
}

#[test]
fn exact_probabilities_are_interned() {
    // A die of three faces: 1/3 each, exactly.
    let m = module(
        "M",
        vec![cmd(
            None,
            bin(BinOp::Eq, var(0), int(0)),
            vec![
                (bin(BinOp::Div, int(1), int(3)), vec![(0, int(1))]),
                (bin(BinOp::Div, int(1), int(3)), vec![(0, int(2))]),
                (bin(BinOp::Div, int(1), int(3)), vec![(0, int(3))]),
            ],
        )],
    );
    let p = program(
        ModelType::Dtmc,
        vec![int_var("x", 0, 3, 0, Some(0))],
        vec![m],
        &[],
    );
    let e = run_exact(&p);
    let x = e.form.exact.as_ref().unwrap();
    let third = ratio(1, 3);
    let ids: Vec<u32> = e.form.transitions_of(0).map(|t| x.id[t]).collect();
    assert_eq!(ids.len(), 3);
    assert!(ids.iter().all(|&i| i == ids[0]));
    assert_eq!(x.values[ids[0] as usize], third);
    assert_eq!(e.form.prob[0], 1.0 / 3.0);
    // Deadlocks get 1.
    assert_eq!(x.values[x.id[3] as usize], ratio(1, 1));
    // Without exact mode, no exact probabilities.
    assert!(run(&p).form.exact.is_none());
}

#[test]
fn exact_dtmc_divides_among_commands_exactly() {
    let e = run_exact(&synchronised(ModelType::Dtmc));
    let x = e.form.exact.as_ref().unwrap();
    let mut got: Vec<Exact> = e
        .form
        .transitions_of(0)
        .map(|t| x.values[x.id[t] as usize].clone())
        .collect();
    got.sort();
    let mut want = vec![
        ratio(3, 20),
        ratio(1, 10),
        ratio(1, 4),
        ratio(3, 20),
        ratio(1, 10),
        ratio(1, 4),
    ];
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn init_block_gives_every_satisfying_valuation() {
    let m = module("M", vec![cmd(None, boolean(true), vec![(int(1), vec![])])]);
    let mut p = program(
        ModelType::Mdp,
        vec![
            int_var("x", 0, 3, 0, Some(0)),
            bool_var("b", false, Some(0)),
        ],
        vec![m],
        &[],
    );
    // init x >= 2 & (b | x = 3) endinit
    p.init = Some(bin(
        BinOp::And,
        bin(BinOp::Ge, var(0), int(2)),
        bin(BinOp::Or, bvar(1), bin(BinOp::Eq, var(0), int(3))),
    ));
    let e = run(&p);
    assert_eq!(e.form.initial, vec![0, 1, 2]);
    let vals: Vec<Vec<i64>> = (0..3).map(|s| e.valuation(s)).collect();
    assert_eq!(vals, vec![vec![2, 1], vec![3, 0], vec![3, 1]]);
    assert_eq!(e.states(), 3);
    let init = ex(ExKind::Initial, Ty::Bool);
    assert_eq!(e.states_where(&init).unwrap(), vec![true; 3]);
    // No valuation at all: an error.
    p.init = Some(bin(BinOp::Gt, var(0), int(3)));
    assert!(error(&p).contains("no valuation"), "{}", error(&p));
}

#[test]
fn huge_init_enumerations_are_refused() {
    let m = module("M", vec![cmd(None, boolean(true), vec![(int(1), vec![])])]);
    let mut p = program(
        ModelType::Mdp,
        vec![
            int_var("x", 0, 1 << 20, 0, Some(0)),
            int_var("y", 0, 1 << 20, 0, Some(0)),
        ],
        vec![m],
        &[],
    );
    p.init = Some(bin(BinOp::Ne, var(0), var(1)));
    assert!(error(&p).contains("valuations"), "{}", error(&p));
    // Bounded by constants, it is cheap.
    p.init = Some(bin(
        BinOp::And,
        bin(BinOp::Eq, var(0), int(5)),
        bin(BinOp::Le, var(1), int(3)),
    ));
    assert_eq!(run(&p).states(), 4);
}

#[test]
fn the_state_limit_stops_exploration() {
    let m = module(
        "M",
        vec![cmd(
            None,
            bin(BinOp::Lt, var(0), int(100)),
            vec![(int(1), vec![(0, bin(BinOp::Add, var(0), int(1)))])],
        )],
    );
    let p = program(
        ModelType::Dtmc,
        vec![int_var("x", 0, 100, 0, Some(0))],
        vec![m],
        &[],
    );
    let options = Options {
        max_states: 50,
        ..Options::default()
    };
    assert_eq!(
        explore(&p, &options).unwrap_err(),
        ExploreError::TooManyStates { limit: 50 }
    );
    let options = Options {
        max_states: 101,
        ..Options::default()
    };
    assert_eq!(explore(&p, &options).unwrap().states(), 101);
}

#[test]
fn progress_is_reported() {
    let m = module(
        "M",
        vec![cmd(
            None,
            bin(BinOp::Lt, var(0), int(250_000)),
            vec![(int(1), vec![(0, bin(BinOp::Add, var(0), int(1)))])],
        )],
    );
    let p = program(
        ModelType::Dtmc,
        vec![int_var("x", 0, 250_000, 0, Some(0))],
        vec![m],
        &[],
    );
    let seen = std::sync::Mutex::new(Vec::new());
    let progress = |n: usize| seen.lock().unwrap().push(n);
    let options = Options {
        progress: Some(&progress),
        ..Options::default()
    };
    explore(&p, &options).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![100_000, 200_000]);
}

#[test]
fn two_modules_writing_one_variable_in_a_step_is_an_error() {
    // A global g written by both modules' [a] commands.
    let a = module(
        "A",
        vec![cmd(
            Some(0),
            boolean(true),
            vec![(int(1), vec![(0, int(1))])],
        )],
    );
    let b = module(
        "B",
        vec![cmd(
            Some(0),
            boolean(true),
            vec![(int(1), vec![(0, int(0))])],
        )],
    );
    let p = program(
        ModelType::Mdp,
        vec![int_var("g", 0, 1, 0, None)],
        vec![a, b],
        &["a"],
    );
    assert_eq!(
        error(&p),
        "in state (g=0) modules A and B both assign g in one synchronised step of action [a]"
    );
}

#[test]
fn labels_init_and_deadlock_in_state_formulas() {
    let e = run(&synchronised(ModelType::Mdp));
    let dead = e.states_where(&ex(ExKind::Deadlock, Ty::Bool)).unwrap();
    assert_eq!(dead.iter().filter(|&&d| d).count(), 5);
    let f = bin(
        BinOp::And,
        not(ex(ExKind::Initial, Ty::Bool)),
        bin(BinOp::Eq, var(0), var(1)),
    );
    let got = e.states_where(&f).unwrap();
    let want: Vec<bool> = (0..e.states() as u32)
        .map(|s| {
            let v = e.valuation(s);
            s != 0 && v[0] == v[1]
        })
        .collect();
    assert_eq!(got, want);
    // A failing formula names the state.
    let bad = bin(BinOp::Eq, call(Func::Mod, vec![int(1), var(0)]), int(0));
    let msg = e.states_where(&bad).unwrap_err().message;
    assert!(msg.starts_with("in state (x=0, y=0)"), "{msg}");
}

fn reward(action: Option<Option<u32>>, guard: Ex, value: Ex) -> RewardItem {
    RewardItem {
        action,
        guard,
        value,
        span: Span::new(1, 2),
    }
}

/// One module, `x : [0..1]`: `[a] x = 0 -> x' = 1`, `[b] x = 0 -> x' = 1`,
/// `[] x = 0 -> true`; rewards `[a] 2`, `[b] 4`, `[] 10`, state reward `x = 0 : 1/3`.
fn rewarded(kind: ModelType) -> Program {
    let zero = || bin(BinOp::Eq, var(0), int(0));
    let m = module(
        "M",
        vec![
            cmd(Some(0), zero(), vec![(int(1), vec![(0, int(1))])]),
            cmd(Some(1), zero(), vec![(int(1), vec![(0, int(1))])]),
            cmd(None, zero(), vec![(int(1), vec![])]),
        ],
    );
    let mut p = program(
        kind,
        vec![int_var("x", 0, 1, 0, Some(0))],
        vec![m],
        &["a", "b"],
    );
    p.rewards.push(crate::program::Rewards {
        name: None,
        items: vec![
            reward(Some(Some(0)), boolean(true), int(2)),
            reward(Some(Some(1)), boolean(true), int(4)),
            reward(Some(None), boolean(true), int(10)),
            reward(None, zero(), bin(BinOp::Div, int(1), int(3))),
            reward(None, zero(), int(0)),
        ],
        span: Span::default(),
    });
    p
}

#[test]
fn mdp_transition_rewards_follow_the_choice_action() {
    let p = rewarded(ModelType::Mdp);
    let e = run(&p);
    // State 0: the unlabelled command first, then a, then b; state 1 deadlocks.
    assert_eq!(e.action(0), None);
    assert_eq!(e.action(1), Some(0));
    assert_eq!(e.action(2), Some(1));
    let r = e.rewards(&p, 0).unwrap();
    assert_eq!(r.choice, vec![10.0, 2.0, 4.0, 0.0]);
    assert_eq!(r.state, vec![1.0 / 3.0, 0.0]);
    let x = e.exact_rewards(&p, 0).unwrap();
    assert_eq!(x.state, vec![ratio(1, 3), ratio(0, 1)]);
    assert_eq!(x.choice[1], ratio(2, 1));
}

#[test]
fn dtmc_transition_rewards_are_shared_like_probabilities() {
    let p = rewarded(ModelType::Dtmc);
    let e = run(&p);
    let r = e.rewards(&p, 0).unwrap();
    // Three commands each weighted 1/3: (2 + 4 + 10) / 3.
    assert_eq!(r.choice.len(), 2);
    assert!(close(r.choice[0], 16.0 / 3.0));
    assert_eq!(r.choice[1], 0.0);
    let x = e.exact_rewards(&p, 0).unwrap();
    assert_eq!(x.choice, vec![ratio(16, 3), ratio(0, 1)]);
}

#[test]
fn negative_rewards_are_errors() {
    let mut p = rewarded(ModelType::Mdp);
    p.rewards[0]
        .items
        .push(reward(None, bin(BinOp::Eq, var(0), int(1)), int(-2)));
    let e = run(&p);
    let err = e.rewards(&p, 0).unwrap_err();
    assert_eq!(err.span, Span::new(1, 2));
    assert_eq!(
        err.message,
        "in state (x=1) this reward is -2; rewards must be finite and at least 0"
    );
    assert!(e.exact_rewards(&p, 0).is_err());
}

#[test]
fn rewards_without_items_of_a_kind_are_empty() {
    let mut p = rewarded(ModelType::Mdp);
    p.rewards[0].items.retain(|i| i.action.is_none());
    let e = run(&p);
    let r = e.rewards(&p, 0).unwrap();
    assert!(r.choice.is_empty());
    assert_eq!(r.state.len(), 2);
}

#[test]
fn wide_states_use_several_words() {
    // Five variables of 20 bits: two words at least.
    let vars: Vec<Var> = (0..5)
        .map(|i| {
            int_var(
                &format!("v{i}"),
                -500_000,
                500_000,
                i as i64 * 1000,
                Some(0),
            )
        })
        .collect();
    let cmds = (0..5)
        .map(|i| {
            cmd(
                None,
                bin(BinOp::Lt, var(i), int(i as i64 * 1000 + 3)),
                vec![(int(1), vec![(i, bin(BinOp::Add, var(i), int(1)))])],
            )
        })
        .collect();
    let p = program(ModelType::Mdp, vars, vec![module("M", cmds)], &[]);
    let e = run(&p);
    assert_eq!(e.states(), 4usize.pow(5));
    assert_eq!(
        e.find(&[3, 1002, 2000, 3001, 4003]).map(|s| e.valuation(s)),
        Some(vec![3, 1002, 2000, 3001, 4003])
    );
    assert_eq!(e.find(&[0, 0, 0, 0, 0]), None);
}

// ---------------------------------------------------------------- from text

fn parse(text: &str) -> Program {
    let model =
        crate::parser::parse_model(text).unwrap_or_else(|e| panic!("{}", e.render("m", text)));
    crate::resolve::resolve(&model, &[]).unwrap_or_else(|e| panic!("{}", e.render("m", text)))
}

#[test]
fn text_dice_dtmc() {
    // Knuth and Yao's die from a fair coin.
    let p = parse(
        "dtmc
        module die
          s : [0..7] init 0;
          d : [0..6] init 0;
          [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);
          [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);
          [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);
          [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);
          [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);
          [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);
          [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);
          [] s=7 -> (s'=7);
        endmodule
        rewards \"coin\" s < 7 : 1; endrewards",
    );
    let e = run(&p);
    assert_eq!(e.states(), 13);
    assert_eq!(e.transitions(), 20);
    assert_eq!(e.deadlocks, 0);
    let r = e.rewards(&p, 0).unwrap();
    assert_eq!(r.state.iter().filter(|&&v| v == 1.0).count(), 7);
    let x = run_exact(&p);
    let probs = x.form.exact.as_ref().unwrap();
    assert_eq!(probs.values.len(), 2, "1 and 1/2");
}

#[test]
fn text_synchronisation_and_errors() {
    let text = "mdp
        const int N = 3;
        module a
          x : [0..N] init 0;
          [go] x < N -> 0.3 : (x'=x+1) + 0.7 : true;
          [] x = N -> (x'=0);
        endmodule
        module b = a [x=y] endmodule
        ";
    let p = parse(text);
    let e = run(&p);
    assert_eq!(e.states(), 16);
    let s = e.find(&[0, 0]).unwrap();
    let c = choices_of(&e, s);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].0, Some(0));
    assert_eq!(c[0].1.len(), 4);
    // x = 3, y = 3: two unlabelled choices, a's then b's.
    let s = e.find(&[3, 3]).unwrap();
    let c = choices_of(&e, s);
    assert_eq!(
        c,
        vec![
            (None, vec![(vec![0, 3], 1.0)]),
            (None, vec![(vec![3, 0], 1.0)])
        ]
    );

    let bad = parse(
        "dtmc
        module m
          x : [0..3] init 0;
          [] true -> 0.5 : (x'=x+1) + 0.4 : (x'=x);
        endmodule",
    );
    let err = explore(&bad, &Options::default()).unwrap_err();
    let ExploreError::Model(err) = err else {
        panic!()
    };
    assert_eq!(
        err.message,
        "in state (x=0) the probabilities of this command add up to 0.9, not 1"
    );
    let line = "          [] true -> 0.5 : (x'=x+1) + 0.4 : (x'=x);";
    let text = "dtmc\n        module m\n          x : [0..3] init 0;\n".to_string() + line;
    assert_eq!(err.line_col(&(text + "\nendmodule")).0, 4);

    let over = parse(
        "mdp
        module m
          x : [0..3] init 2;
          [] true -> (x'=x+2);
        endmodule",
    );
    assert_eq!(
        error(&over),
        "in state (x=2) this update sets x to 4, outside its range 0..3"
    );
}

#[test]
fn text_init_block_and_labels() {
    let p = parse(
        "mdp
        module m
          x : [0..9];
          b : bool;
          [] x < 9 & b -> (x'=x+1);
        endmodule
        init x < 2 endinit
        label \"end\" = x = 9;",
    );
    let e = run(&p);
    assert_eq!(e.form.initial, vec![0, 1, 2, 3]);
    assert_eq!(e.states(), 4 + 8);
    let end = &p.labels[0].1;
    assert_eq!(
        e.states_where(end).unwrap().iter().filter(|&&b| b).count(),
        1
    );
}

// ---------------------------------------------------------------- brute force

/// A naive explorer, written for clarity: valuations as vectors, a `HashMap` of them,
/// every expression evaluated by the tree-walking evaluator.
struct Naive {
    states: Vec<Vec<i64>>,
    /// Per state, its choices: action, and transitions (target id, probability) merged
    /// and sorted by target.
    choices: Vec<Vec<Choice<usize>>>,
}

fn assigned(e: &Ex, vals: &[i64]) -> i64 {
    if e.ty == Ty::Bool {
        crate::eval::eval_bool(e, vals).unwrap() as i64
    } else {
        crate::eval::eval_int(e, vals).unwrap()
    }
}

fn merged(mut t: Vec<(usize, f64)>, k: f64) -> Vec<(usize, f64)> {
    t.sort_by_key(|x| x.0);
    let mut out: Vec<(usize, f64)> = Vec::new();
    for (s, p) in t {
        match out.last_mut() {
            Some(last) if last.0 == s => last.1 += p,
            _ => out.push((s, p)),
        }
    }
    for x in &mut out {
        x.1 /= k;
    }
    out
}

fn naive(p: &Program) -> Naive {
    use crate::eval::{eval_bool, eval_f64};
    let mut states: Vec<Vec<i64>> = Vec::new();
    let mut index: HashMap<Vec<i64>, usize> = HashMap::new();
    let mut add = |v: Vec<i64>, states: &mut Vec<Vec<i64>>| -> usize {
        *index.entry(v.clone()).or_insert_with(|| {
            states.push(v);
            states.len() - 1
        })
    };
    match &p.init {
        None => {
            let v = p.variables.iter().map(|v| v.init).collect();
            add(v, &mut states);
        }
        Some(init) => {
            let mut all: Vec<Vec<i64>> = vec![vec![]];
            for var in &p.variables {
                // A wide variable is fixed to its lowest value by the init blocks of
                // the random programs.
                let high = if var.high - var.low > 1000 {
                    var.low
                } else {
                    var.high
                };
                all = all
                    .into_iter()
                    .flat_map(|prefix| {
                        (var.low..=high).map(move |x| {
                            let mut v = prefix.clone();
                            v.push(x);
                            v
                        })
                    })
                    .collect();
            }
            for v in all {
                if eval_bool(init, &v).unwrap() {
                    add(v, &mut states);
                }
            }
        }
    }
    let dist = |c: &Command, vals: &[i64]| -> Vec<(Vec<i64>, f64)> {
        let mut out = Vec::new();
        for u in &c.updates {
            let prob = eval_f64(&u.prob, vals).unwrap();
            if prob == 0.0 {
                continue;
            }
            let mut t = vals.to_vec();
            for (x, e) in &u.assigns {
                t[*x as usize] = assigned(e, vals);
            }
            out.push((t, prob));
        }
        out
    };
    let mut choices = Vec::new();
    let mut s = 0;
    while s < states.len() {
        let vals = states[s].clone();
        let mut subs: Vec<Choice<Vec<i64>>> = Vec::new();
        for m in &p.modules {
            for c in &m.commands {
                if c.action.is_none() && eval_bool(&c.guard, &vals).unwrap() {
                    subs.push((None, dist(c, &vals)));
                }
            }
        }
        for a in 0..p.actions.len() as u32 {
            let mut per_module: Vec<Vec<&Command>> = Vec::new();
            for m in p.modules.iter().filter(|m| m.alphabet.contains(&a)) {
                per_module.push(
                    m.commands
                        .iter()
                        .filter(|c| c.action == Some(a) && eval_bool(&c.guard, &vals).unwrap())
                        .collect(),
                );
            }
            if per_module.is_empty() || per_module.iter().any(|l| l.is_empty()) {
                continue;
            }
            // Every combination of commands, the last module turning fastest.
            let mut combos: Vec<Vec<&Command>> = vec![vec![]];
            for list in &per_module {
                combos = combos
                    .into_iter()
                    .flat_map(|prefix| {
                        list.iter().map(move |c| {
                            let mut v = prefix.clone();
                            v.push(*c);
                            v
                        })
                    })
                    .collect();
            }
            for combo in combos {
                let mut d: Vec<(Vec<i64>, f64)> = vec![(vals.clone(), 1.0)];
                for c in combo {
                    let mine = dist(c, &vals);
                    d = d
                        .into_iter()
                        .flat_map(|(t, p)| {
                            let vals = &vals;
                            mine.iter().map(move |(u, q)| {
                                let mut t = t.clone();
                                for (i, (&new, &old)) in u.iter().zip(vals).enumerate() {
                                    if new != old {
                                        t[i] = new;
                                    }
                                }
                                (t, p * q)
                            })
                        })
                        .collect();
                }
                subs.push((Some(a), d));
            }
        }
        if subs.is_empty() {
            subs.push((None, vec![(vals.clone(), 1.0)]));
        }
        let mut ided: Vec<Choice<usize>> = Vec::new();
        for (a, d) in subs {
            let t = d
                .into_iter()
                .map(|(v, p)| (add(v, &mut states), p))
                .collect();
            ided.push((a, t));
        }
        if p.kind == ModelType::Mdp {
            choices.push(ided.into_iter().map(|(a, t)| (a, merged(t, 1.0))).collect());
        } else {
            let k = ided.len() as f64;
            let all = ided.into_iter().flat_map(|(_, t)| t).collect();
            choices.push(vec![(None, merged(all, k))]);
        }
        s += 1;
    }
    Naive { states, choices }
}

/// A small deterministic generator, so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, k: u64) -> bool {
        self.below(k) == 0
    }
}

fn random_guard(rng: &mut Rng, vars: &[Var], depth: u32) -> Ex {
    let i = rng.below(vars.len() as u64) as u32;
    let v = &vars[i as usize];
    match rng.below(if depth > 0 { 6 } else { 4 }) {
        0 => boolean(rng.below(4) != 0),
        1 if v.is_bool => bvar(i),
        1 | 2 if !v.is_bool => {
            let ops = [
                BinOp::Lt,
                BinOp::Le,
                BinOp::Gt,
                BinOp::Ge,
                BinOp::Eq,
                BinOp::Ne,
            ];
            let op = ops[rng.below(6) as usize];
            let k = v.low + rng.below((v.high - v.low + 2) as u64) as i64;
            if rng.chance(2) {
                bin(op, var(i), int(k))
            } else {
                bin(op, int(k), var(i))
            }
        }
        1 | 2 => not(bvar(i)),
        3 => {
            // x + y <= k on two integer variables (or a boolean read as a comparison).
            let j = rng.below(vars.len() as u64) as u32;
            let a = if v.is_bool {
                ite(bvar(i), int(1), int(0))
            } else {
                var(i)
            };
            let b = if vars[j as usize].is_bool {
                ite(bvar(j), int(1), int(0))
            } else {
                var(j)
            };
            bin(BinOp::Le, bin(BinOp::Add, a, b), int(rng.below(5) as i64))
        }
        4 => bin(
            BinOp::And,
            random_guard(rng, vars, depth - 1),
            random_guard(rng, vars, depth - 1),
        ),
        _ => bin(
            BinOp::Or,
            random_guard(rng, vars, depth - 1),
            random_guard(rng, vars, depth - 1),
        ),
    }
}

/// A value for variable `i` always within its range.
fn random_value(rng: &mut Rng, vars: &[Var], i: u32) -> Ex {
    let v = &vars[i as usize];
    if v.is_bool {
        return match rng.below(3) {
            0 => not(bvar(i)),
            1 => boolean(rng.chance(2)),
            _ => random_guard(rng, vars, 1),
        };
    }
    let (lo, hi) = (v.low, v.high);
    match rng.below(5) {
        0 => int(lo + rng.below((hi - lo + 1) as u64) as i64),
        1 => call(Func::Min, vec![bin(BinOp::Add, var(i), int(1)), int(hi)]),
        2 => call(Func::Max, vec![bin(BinOp::Sub, var(i), int(1)), int(lo)]),
        3 => {
            // mod(y + k - lo, size) + lo for any integer y.
            let ints: Vec<u32> = (0..vars.len() as u32)
                .filter(|&j| !vars[j as usize].is_bool)
                .collect();
            let j = ints[rng.below(ints.len() as u64) as usize];
            let shifted = bin(BinOp::Add, var(j), int(rng.below(3) as i64 - lo));
            bin(
                BinOp::Add,
                call(Func::Mod, vec![shifted, int(hi - lo + 1)]),
                int(lo),
            )
        }
        _ => ite(random_guard(rng, vars, 1), int(lo), int(hi)),
    }
}

fn random_program(rng: &mut Rng) -> Program {
    let kind = if rng.chance(2) {
        ModelType::Dtmc
    } else {
        ModelType::Mdp
    };
    let modules = 1 + rng.below(3) as usize;
    let actions = rng.below(3) as u32;
    let mut vars = Vec::new();
    let global = rng.chance(3);
    if global {
        vars.push(int_var("g", 0, 2, rng.below(3) as i64, None));
    }
    // A wide variable that never changes: states no longer fit in 32 bits, which the
    // state table stores differently.
    let pad = rng.chance(3).then(|| {
        vars.push(int_var("pad", 0, 1 << 40, 0, None));
        vars.len() as u32 - 1
    });
    let mut owned: Vec<Vec<u32>> = Vec::new();
    for m in 0..modules {
        let mut mine = Vec::new();
        for k in 0..1 + rng.below(2) {
            mine.push(vars.len() as u32);
            let name = format!("v{m}_{k}");
            if rng.chance(4) {
                vars.push(bool_var(&name, rng.chance(2), Some(m)));
            } else {
                let lo = [0, -1, 2][rng.below(3) as usize];
                let hi = lo + 1 + rng.below(3) as i64;
                let init = lo + rng.below((hi - lo + 1) as u64) as i64;
                vars.push(int_var(&name, lo, hi, init, Some(m)));
            }
        }
        owned.push(mine);
    }
    let dists: [&[(i64, i64)]; 6] = [
        &[(1, 1)],
        &[(1, 2), (1, 2)],
        &[(1, 4), (3, 4)],
        &[(1, 5), (3, 10), (1, 2)],
        &[(0, 1), (1, 1)],
        &[(1, 3), (1, 3), (1, 3)],
    ];
    let mut mods = Vec::new();
    for (m, mine) in owned.iter().enumerate() {
        let mut cmds = Vec::new();
        for _ in 0..1 + rng.below(6) {
            let action = (actions > 0 && rng.chance(2)).then(|| rng.below(actions as u64) as u32);
            let mut guard = random_guard(rng, &vars, 2);
            let own = mine[rng.below(mine.len() as u64) as usize];
            let v = &vars[own as usize];
            if !v.is_bool && rng.chance(2) {
                // A location test, as most PRISM commands have: what dispatch works on.
                let k = v.low + rng.below((v.high - v.low + 1) as u64) as i64;
                guard = bin(BinOp::And, bin(BinOp::Eq, var(own), int(k)), guard);
            }
            // Probabilities that depend on the state: (x - low + 1) / (high - low + 2)
            // and the rest.
            let dynamic = (!v.is_bool && rng.chance(5)).then(|| {
                let p = bin(
                    BinOp::Div,
                    bin(BinOp::Sub, var(own), int(v.low - 1)),
                    int(v.high - v.low + 2),
                );
                [p.clone(), bin(BinOp::Sub, int(1), p)]
            });
            let dist: &[(i64, i64)] = match dynamic {
                Some(_) => &[(0, 0), (1, 1)],
                None => dists[rng.below(dists.len() as u64) as usize],
            };
            let mut updates = Vec::new();
            for (i, &(n, d)) in dist.iter().enumerate() {
                let prob = match &dynamic {
                    Some(ps) => ps[i].clone(),
                    None if d == 1 => int(n),
                    None => real(n, d),
                };
                let mut assigns = Vec::new();
                let mut writable = mine.clone();
                if global && action.is_none() {
                    writable.push(0);
                }
                for &x in &writable {
                    if rng.chance(2) {
                        assigns.push((x, random_value(rng, &vars, x)));
                    }
                }
                updates.push((prob, assigns));
            }
            cmds.push(cmd(action, guard, updates));
        }
        mods.push(module(&format!("M{m}"), cmds));
    }
    let names: Vec<String> = (0..actions).map(|a| format!("a{a}")).collect();
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let mut p = program(kind, vars, mods, &names);
    if rng.chance(4) {
        let init = random_guard(rng, &p.variables, 2);
        p.init = Some(match pad {
            Some(x) => bin(BinOp::And, bin(BinOp::Eq, var(x), int(0)), init),
            None => init,
        });
    }
    p
}

/// The explorer's states, choices and probabilities are the naive explorer's, and exact
/// mode gives the same graph with rationals whose nearest `f64` are the probabilities.
fn same_as_naive(p: &Program, e: &Explored, what: &str) {
    let n = naive(p);
    assert_eq!(e.states(), n.states.len(), "{what}");
    for s in 0..e.states() {
        assert_eq!(e.valuation(s as u32), n.states[s], "{what} state {s}");
        let mine: Vec<Choice<usize>> = e
            .form
            .choices_of(s)
            .map(|c| {
                let t = e
                    .form
                    .transitions_of(c)
                    .map(|t| (e.form.to[t] as usize, e.form.prob[t]))
                    .collect();
                (e.action(c), t)
            })
            .collect();
        let theirs = &n.choices[s];
        assert_eq!(mine.len(), theirs.len(), "{what} state {s}");
        for ((a, t), (b, u)) in mine.iter().zip(theirs) {
            assert_eq!(a, b, "{what} state {s}");
            assert_eq!(t.len(), u.len(), "{what} state {s}: {t:?} {u:?}");
            for (x, y) in t.iter().zip(u) {
                assert_eq!(x.0, y.0, "{what} state {s}");
                assert!(close(x.1, y.1), "{what} state {s}: {t:?} {u:?}");
            }
        }
    }
    // Exact mode gives the same graph, with rationals whose nearest f64 are the
    // probabilities.
    let x = run_exact(p);
    assert_eq!(x.form.to, e.form.to);
    assert_eq!(x.form.row, e.form.row);
    let probs = x.form.exact.as_ref().unwrap();
    for (t, &id) in probs.id.iter().enumerate() {
        let q = &probs.values[id as usize];
        assert!(close(x.form.prob[t], e.form.prob[t]));
        assert_eq!(x.form.prob[t], num_traits::ToPrimitive::to_f64(q).unwrap());
    }
}

#[test]
fn a_grid_of_commands_is_split_by_each_coordinate() {
    // A command per cell of a 8 x 8 x 8 grid, as models of a robot on a grid have
    // (thousands of them): each state's commands are found by its x, then its y, then
    // its z, and the exploration is the naive one's.
    let vars = vec![
        int_var("x", 0, 7, 0, Some(0)),
        int_var("y", 0, 7, 0, Some(0)),
        int_var("z", 0, 7, 0, Some(0)),
    ];
    let mut cmds = Vec::new();
    for (i, j, k) in (0..8).flat_map(|i| (0..8).flat_map(move |j| (0..8).map(move |k| (i, j, k)))) {
        let at = |x: u32, v: i64| bin(BinOp::Eq, var(x), int(v));
        let guard = bin(BinOp::And, bin(BinOp::And, at(0, i), at(1, j)), at(2, k));
        let step = |x: u32, v: i64| (real(1, 3), vec![(x, int((v + 1) % 8))]);
        cmds.push(cmd(None, guard, vec![step(0, i), step(1, j), step(2, k)]));
    }
    let p = program(ModelType::Dtmc, vars, vec![module("robot", cmds)], &[]);
    let e = run(&p);
    assert_eq!(e.states(), 512);
    same_as_naive(&p, &e, "grid");
    // Split by x, each share (64 commands) by y, each of those (8) by z: 1 + 8 + 64
    // lists.
    assert_eq!(build::CModel::new(&p, None).unwrap().splits(), 73);
}

#[test]
fn random_programs_match_the_naive_explorer() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    let mut stats = (0, 0, 0, 0, 0);
    let mut splits = 0;
    for round in 0..400 {
        let p = random_program(&mut rng);
        let e = match explore(&p, &Options::default()) {
            Ok(e) => e,
            Err(err) if p.init.is_some() => {
                // An init block that no valuation satisfies.
                assert!(err.to_string().contains("no valuation"), "{err}");
                continue;
            }
            Err(err) => panic!("round {round}: {err}\n{p:#?}"),
        };
        same_as_naive(&p, &e, &format!("round {round}"));
        checked += 1;
        splits += build::CModel::new(&p, None).unwrap().splits();
        stats.0 += e.states();
        stats.1 += e.choices();
        stats.2 += e.deadlocks;
        stats.3 += p.modules.iter().filter(|m| !m.alphabet.is_empty()).count();
        stats.4 += (p.kind == ModelType::Dtmc) as usize;
    }
    // Enough variety to mean something: states, extra choices, deadlocks, modules with
    // actions, Markov chains.
    assert!(checked > 300, "{checked}");
    assert!(stats.0 > 3000 && stats.1 > stats.0 + 3000, "{stats:?}");
    // Command lists split by a variable's value, so that states skip some guards.
    assert!(splits > 100, "{splits}");
    assert!(stats.2 > 100 && stats.3 > 200 && stats.4 > 150, "{stats:?}");
}

#[test]
fn action_lists_keep_every_action() {
    for actions in [3usize, 300, 70_000] {
        let mut list = build::ActionList::new(actions);
        let picks = [0, 1, actions as u32 - 1, build::NO_ACTION, 2];
        for &a in &picks {
            list.push(a);
        }
        let got: Vec<Option<u32>> = (0..6).map(|c| list.get(c)).collect();
        let mut want: Vec<Option<u32>> = picks
            .iter()
            .map(|&a| (a != build::NO_ACTION).then_some(a))
            .collect();
        want.push(None);
        assert_eq!(got, want, "{actions} actions");
    }
}

/// A random condition on three integer variables in 0..=2: interval tests, `!`, `&`, `|`
/// and `=>` nested, and conjuncts that can fail (`mod(x, y) = 0` with `y = 0`).
fn random_condition(rng: &mut Rng, depth: u32) -> Ex {
    let x = rng.below(3) as u32;
    let k = rng.below(4) as i64 - 1;
    match rng.below(if depth > 0 { 8 } else { 3 }) {
        0 => bin(BinOp::Eq, var(x), int(k)),
        1 => bin(BinOp::Lt, int(k), var(x)),
        2 => bin(
            BinOp::Eq,
            call(Func::Mod, vec![var(x), var((x + 1) % 3)]),
            int(0),
        ),
        3 => not(random_condition(rng, depth - 1)),
        4 | 5 => bin(
            BinOp::And,
            random_condition(rng, depth - 1),
            random_condition(rng, depth - 1),
        ),
        6 => bin(
            BinOp::Or,
            random_condition(rng, depth - 1),
            random_condition(rng, depth - 1),
        ),
        _ => bin(
            BinOp::Implies,
            random_condition(rng, depth - 1),
            random_condition(rng, depth - 1),
        ),
    }
}

#[test]
fn compiled_conditions_agree_with_the_evaluator() {
    let mut rng = Rng(0x5eed_c0de);
    let mut stack = Vec::new();
    let (mut faults, mut spared) = (0, 0);
    for _ in 0..3000 {
        let cond = random_condition(&mut rng, 4);
        let code = compile::compile(&cond, Ty::Bool, 3);
        for s in 0..27 {
            let vals = [s % 3, s / 3 % 3, s / 9, 0, 0];
            let compiled = code.eval_bool(&vals, &mut stack);
            match crate::eval::eval_bool(&cond, &vals[..3]) {
                Ok(v) => assert_eq!(compiled, Ok(v), "{cond:?} in {vals:?}"),
                // Interval tests go first, and can spare an evaluation that fails; they
                // never cause one, and never change a value.
                Err(_) if compiled.is_ok() => spared += 1,
                Err(_) => faults += 1,
            }
        }
    }
    assert!(
        faults > 1000 && spared > 0,
        "{faults} faults, {spared} spared"
    );
}
