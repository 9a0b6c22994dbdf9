//! Exploration speed on a generated model: three modules, each a counter `c : [0..N]`
//! that an unlabelled command raises with probability 1/2 and a `[tick]` command, taken by
//! all three together, lowers. Every one of the `(N + 1)^3` valuations is reachable; a
//! state has up to four choices (an MDP) or one merged distribution (a DTMC), with up to
//! two transitions per unlabelled choice. States per second, in `f64` and exact mode.

use alea_core::Exact;
use alea_prism::ast::{BinOp, ModelType};
use alea_prism::explore::{explore, Options};
use alea_prism::program::{Command, Ex, ExKind, Module, Program, Real, Ty, Update, Value, Var};
use alea_prism::Span;

fn main() {
    divan::main();
}

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

fn half() -> Ex {
    ex(
        ExKind::Value(Value::Real(Real {
            approx: 0.5,
            exact: Some(Exact::new(1.into(), 2.into())),
        })),
        Ty::Real,
    )
}

fn var(i: u32) -> Ex {
    ex(ExKind::Var(i), Ty::Int)
}

fn bin(op: BinOp, a: Ex, b: Ex, ty: Ty) -> Ex {
    ex(ExKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

fn update(prob: Ex, assigns: Vec<(u32, Ex)>) -> Update {
    Update {
        prob,
        assigns,
        span: Span::default(),
    }
}

/// The three counters of `0..=n`.
fn counters(kind: ModelType, n: i64) -> Program {
    let mut variables = Vec::new();
    let mut modules = Vec::new();
    for m in 0..3u32 {
        variables.push(Var {
            name: format!("c{m}"),
            low: 0,
            high: n,
            init: 0,
            is_bool: false,
            module: Some(m as usize),
            span: Span::default(),
        });
        let raise = Command {
            action: None,
            guard: bin(BinOp::Lt, var(m), int(n), Ty::Bool),
            updates: vec![
                update(half(), vec![(m, bin(BinOp::Add, var(m), int(1), Ty::Int))]),
                update(half(), vec![]),
            ],
            span: Span::default(),
        };
        let lower = Command {
            action: Some(0),
            guard: bin(BinOp::Gt, var(m), int(0), Ty::Bool),
            updates: vec![update(
                int(1),
                vec![(m, bin(BinOp::Sub, var(m), int(1), Ty::Int))],
            )],
            span: Span::default(),
        };
        modules.push(Module {
            name: format!("M{m}"),
            commands: vec![raise, lower],
            alphabet: vec![0],
            span: Span::default(),
        });
    }
    Program {
        kind,
        variables,
        init: None,
        modules,
        actions: vec!["tick".into()],
        labels: Vec::new(),
        rewards: Vec::new(),
        constants: Vec::new(),
        exact: false,
        players: Default::default(),
    }
}

fn run(bencher: divan::Bencher, kind: ModelType, n: i64, exact: bool) {
    let program = counters(kind, n);
    let states = (n as u64 + 1).pow(3);
    let options = Options {
        exact,
        ..Options::default()
    };
    bencher
        .counter(divan::counter::ItemsCount::new(states))
        .bench(|| {
            let e = explore(&program, &options).unwrap();
            assert_eq!(e.states() as u64, states);
            e.transitions()
        });
}

#[divan::bench(args = [50, 200], sample_count = 3, sample_size = 1)]
fn dtmc(bencher: divan::Bencher, n: i64) {
    run(bencher, ModelType::Dtmc, n, false);
}

#[divan::bench(args = [50, 200], sample_count = 3, sample_size = 1)]
fn mdp(bencher: divan::Bencher, n: i64) {
    run(bencher, ModelType::Mdp, n, false);
}

#[divan::bench(args = [50], sample_count = 3, sample_size = 1)]
fn mdp_exact(bencher: divan::Bencher, n: i64) {
    run(bencher, ModelType::Mdp, n, true);
}
