//! Tests of resolution, through the parser: constants, variables, formulas, renaming,
//! commands, rewards, labels, properties, and every error with its place and message.

use super::*;
use crate::ast::{Func, ModelType};
use crate::eval::{eval_bool, eval_exact, eval_f64, eval_int};
use crate::parser::{parse_expression, parse_model, parse_properties};
use crate::program::{Ex, ExKind, Ty, Value};
use num_bigint::BigInt;

fn parse(text: &str) -> ast::Model {
    match parse_model(text) {
        Ok(m) => m,
        Err(e) => panic!("parse: {} at {:?}", e.message, e.line_col(text)),
    }
}

fn given(pairs: &[(&str, &str)]) -> Vec<(String, ast::Expr)> {
    pairs
        .iter()
        .map(|(n, v)| (n.to_string(), parse_expression(v).unwrap()))
        .collect()
}

fn ok_with(text: &str, consts: &[(&str, &str)]) -> Program {
    match resolve(&parse(text), &given(consts)) {
        Ok(p) => p,
        Err(e) => panic!("resolve: {} at {:?}", e.message, e.line_col(text)),
    }
}

fn ok(text: &str) -> Program {
    ok_with(text, &[])
}

/// The error as (line, column, message).
fn err_with(text: &str, consts: &[(&str, &str)]) -> (usize, usize, String) {
    let e = resolve(&parse(text), &given(consts)).expect_err("an error");
    let (line, col) = e.line_col(text);
    (line, col, e.message)
}

fn err(text: &str) -> (usize, usize, String) {
    err_with(text, &[])
}

/// Asserts the error is at `line:col` and its message contains `part`.
#[track_caller]
fn assert_err(text: &str, line: usize, col: usize, part: &str) {
    let (l, c, m) = err(text);
    assert_eq!((l, c), (line, col), "{m}");
    assert!(m.contains(part), "`{m}` does not contain `{part}`");
}

fn q(n: i64, d: i64) -> Exact {
    Exact::new(BigInt::from(n), BigInt::from(d))
}

fn constant<'p>(p: &'p Program, name: &str) -> &'p Value {
    &p.constants.iter().find(|(n, _)| n == name).unwrap().1
}

fn real(v: &Value) -> (f64, Option<Exact>) {
    match v {
        Value::Real(r) => (r.approx, r.exact.clone()),
        other => panic!("not a real: {other:?}"),
    }
}

const DIE: &str = "dtmc
const int N = 6;
module die
  d : [0..N] init 0;
  [roll] d = 0 -> 1/N : (d'=1) + 1/N : (d'=2) + 1/N : (d'=3) + 1/N : (d'=4) + 1/N : (d'=5) + 1/N : (d'=6);
  [] d > 0 -> true;
endmodule
label \"six\" = d = N;
rewards \"rolls\" [roll] true : 1; endrewards
";

#[test]
fn a_small_model() {
    let p = ok(DIE);
    assert_eq!(p.kind, ModelType::Dtmc);
    assert_eq!(p.variables.len(), 1);
    let d = &p.variables[0];
    assert_eq!((d.name.as_str(), d.low, d.high, d.init), ("d", 0, 6, 0));
    assert_eq!(d.module, Some(0));
    assert!(!d.is_bool);
    assert_eq!(p.actions, vec!["roll".to_string()]);
    assert_eq!(p.modules[0].alphabet, vec![0]);
    let c = &p.modules[0].commands[0];
    assert_eq!(c.action, Some(0));
    assert_eq!(c.updates.len(), 6);
    // `1/N` is folded to the exact 1/6.
    let ExKind::Value(v) = &c.updates[0].prob.kind else {
        panic!("not folded: {:?}", c.updates[0].prob)
    };
    assert_eq!(real(v).1, Some(q(1, 6)));
    // A lone update has probability 1.
    let lone = &p.modules[0].commands[1].updates[0];
    assert_eq!(lone.prob.kind, ExKind::Value(Value::Int(1)));
    assert!(lone.assigns.is_empty());
    assert_eq!(p.labels[0].0, "six");
    assert!(eval_bool(&p.labels[0].1, &[6]).unwrap());
    assert!(!eval_bool(&p.labels[0].1, &[5]).unwrap());
    assert_eq!(p.rewards[0].name.as_deref(), Some("rolls"));
    assert_eq!(p.rewards[0].items[0].action, Some(Some(0)));
    assert_eq!(*constant(&p, "N"), Value::Int(6));
}

#[test]
fn constants_in_any_order_and_exact_literals() {
    let p = ok("dtmc
const double q = p * 2;
const double p = 0.1;
const int K = M + 1;
const int M = 3;
const double r = 1e-3;
const double half = 1/2;
const double whole = K;
const bool b = K > M;
module m x : [0..K]; endmodule");
    assert_eq!(real(constant(&p, "p")).1, Some(q(1, 10)));
    assert_eq!(real(constant(&p, "q")).1, Some(q(1, 5)));
    assert_eq!(real(constant(&p, "r")).1, Some(q(1, 1000)));
    assert_eq!(real(constant(&p, "half")), (0.5, Some(q(1, 2))));
    // A double constant with an int value is a double.
    assert_eq!(real(constant(&p, "whole")), (4.0, Some(q(4, 1))));
    assert_eq!(*constant(&p, "K"), Value::Int(4));
    assert_eq!(*constant(&p, "b"), Value::Bool(true));
    // In order of declaration.
    let names: Vec<&str> = p.constants.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["q", "p", "K", "M", "r", "half", "whole", "b"]);
    assert_eq!(p.variables[0].high, 4);
}

#[test]
fn constant_errors() {
    assert_err(
        "dtmc\nconst int A = B;\nconst int B = A + 1;\nmodule m x : [0..1]; endmodule",
        2,
        11,
        "constant `A` is defined in terms of itself: `A` -> `B` -> `A`",
    );
    assert_err(
        "dtmc\nconst int N;\nmodule m x : [0..1]; endmodule",
        2,
        11,
        "constant `N` has no value; give it with --const N=...",
    );
    assert_err(
        "dtmc\nconst int N = 0.5;\nmodule m x : [0..1]; endmodule",
        2,
        15,
        "constant `N` is an int, its value is a double",
    );
    assert_err(
        "dtmc\nconst bool b = 1;\nmodule m x : [0..1]; endmodule",
        2,
        16,
        "constant `b` is a bool, its value is an int",
    );
    assert_err(
        "dtmc\nmodule m x : [0..1]; endmodule\nconst int N = x;",
        3,
        15,
        "`x` is a variable, but the value of constant `N` must be constant",
    );
    assert_err(
        "dtmc\nconst int N = mod(3, 0);\nmodule m x : [0..1]; endmodule",
        2,
        15,
        "modulo zero",
    );
    assert_err(
        "dtmc\nconst int N = 9223372036854775807 + 1;\nmodule m x : [0..1]; endmodule",
        2,
        15,
        "overflows",
    );
    assert_err(
        "dtmc\nconst int N = 3;\nconst int N = 4;\nmodule m x : [0..1]; endmodule",
        3,
        11,
        "`N` is already declared as a constant",
    );
}

#[test]
fn given_constants() {
    let text =
        "dtmc\nconst int N;\nconst double p;\nconst int M = N * 2;\nmodule m x : [0..M]; endmodule";
    let p = ok_with(text, &[("N", "3"), ("p", "1/4")]);
    assert_eq!(*constant(&p, "N"), Value::Int(3));
    assert_eq!(real(constant(&p, "p")), (0.25, Some(q(1, 4))));
    assert_eq!(p.variables[0].high, 6);
    // A double constant accepts an int.
    let p = ok_with(text, &[("N", "3"), ("p", "1")]);
    assert_eq!(real(constant(&p, "p")), (1.0, Some(q(1, 1))));

    let e = resolve(
        &parse(text),
        &given(&[("N", "3"), ("p", "0.5"), ("Q", "1")]),
    )
    .unwrap_err();
    assert_eq!(e.span, Span::default());
    assert_eq!(e.message, "no constant `Q` in the model");
    let (l, c, m) = err_with(text, &[("N", "0.5"), ("p", "1")]);
    assert_eq!((l, c), (2, 11));
    assert!(
        m.contains("constant `N` is declared an int, and the value given to it is a double"),
        "{m}"
    );
    let (l, c, m) = err_with(text, &[("N", "3"), ("p", "1"), ("M", "2")]);
    assert_eq!((l, c), (4, 11));
    assert!(m.contains("constant `M` already has a value"), "{m}");
    let e = resolve(&parse(text), &given(&[("N", "y"), ("p", "1")])).unwrap_err();
    assert_eq!(e.span, Span::default());
    assert!(
        e.message
            .starts_with("the value given to `N`: unknown name `y`"),
        "{}",
        e.message
    );
    // A given value may use the model's other constants.
    let p = ok_with(text, &[("N", "2"), ("p", "N / 10")]);
    assert_eq!(real(constant(&p, "p")).1, Some(q(1, 5)));
    let e = resolve(&parse(text), &given(&[("N", "3"), ("N", "4")])).unwrap_err();
    assert!(e.message.contains("given twice"));
}

#[test]
fn split_given_between_model_and_properties() {
    let model = parse("dtmc\nconst int N;\nmodule m x : [0..N]; endmodule");
    let props = parse_properties("const int k;\nP=? [F<=k x=1]").unwrap();
    let all = given(&[("N", "2"), ("k", "3")]);
    let mine = split_given(&model, &[&props], &all).unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].0, "N");
    let program = resolve(&model, &mine).unwrap();
    let scope = Scope::new(&program, &model, &props, &all).unwrap();
    assert_eq!(scope.constants(), &[("k".to_string(), Value::Int(3))]);
    let e = split_given(&model, &[&props], &given(&[("kk", "1")])).unwrap_err();
    assert_eq!(e.span, Span::default());
    assert_eq!(
        e.message,
        "no constant `kk` in the model or the properties; did you mean `k`?"
    );
}

#[test]
fn variables_and_their_checks() {
    let p = ok("mdp
global g : [1..3];
global h : bool init true;
module a x : [0..2] init 2; b : bool; endmodule
module c y : [-1..1]; endmodule");
    let names: Vec<&str> = p.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["g", "h", "x", "b", "y"]);
    let v = &p.variables;
    assert_eq!((v[0].init, v[0].module), (1, None));
    assert_eq!(
        (v[1].init, v[1].is_bool, v[1].low, v[1].high),
        (1, true, 0, 1)
    );
    assert_eq!((v[2].init, v[2].module), (2, Some(0)));
    assert_eq!((v[3].init, v[3].is_bool), (0, true));
    assert_eq!((v[4].init, v[4].low, v[4].module), (-1, -1, Some(1)));
    assert_eq!(p.kind, ModelType::Mdp);

    assert_err(
        "dtmc\nmodule m x : [3..1]; endmodule",
        2,
        10,
        "the range of `x` is empty: 3 > 1",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3] init 4; endmodule",
        2,
        26,
        "the initial value 4 of `x` is outside its range [0..3]",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3] init true; endmodule",
        2,
        26,
        "`x` is an int variable, its initial value is a bool",
    );
    assert_err(
        "dtmc\nmodule m x : [0..1.5]; endmodule",
        2,
        18,
        "the upper bound of `x` must be an int expression, this is a double",
    );
    assert_err(
        "dtmc\nmodule m x : [0..1]; y : [0..x]; endmodule",
        2,
        30,
        "`x` is a variable, but the range of `y` must be constant",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3] init 1; endmodule\ninit x = 1 endinit",
        2,
        26,
        "no variable may have an initial value of its own",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nmodule n x : [0..3]; endmodule",
        3,
        10,
        "`x` is already declared as a variable of module `m`",
    );
    assert_err(
        "dtmc\nformula x = 1;\nmodule m x : [0..3]; endmodule",
        3,
        10,
        "`x` is already declared as a formula",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nmodule m y : [0..3]; endmodule",
        3,
        8,
        "module `m` is already declared",
    );
}

#[test]
fn init_block() {
    let p = ok("dtmc\nmodule m x : [0..3]; endmodule\ninit x > 1 endinit");
    let init = p.init.as_ref().unwrap();
    assert!(eval_bool(init, &[2]).unwrap());
    assert!(!eval_bool(init, &[1]).unwrap());
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\ninit x + 1 endinit",
        3,
        6,
        "`init ... endinit` must be a bool expression, this is an int",
    );
}

#[test]
fn commands_and_their_checks() {
    assert_err(
        "dtmc\nmodule m x : [0..3];\n [] x -> (x'=1);\nendmodule",
        3,
        5,
        "the guard must be a bool expression, this is an int",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3];\n [] true -> (x'=x/2);\nendmodule",
        3,
        17,
        "`x` is an int variable, the expression is a double",
    );
    assert_err(
        "dtmc\nmodule m b : bool;\n [] true -> (b'=1);\nendmodule",
        3,
        17,
        "`b` is a bool variable, the expression is an int",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3];\n [] true -> true : (x'=1);\nendmodule",
        3,
        13,
        "the probability of an update must be a number, this is a bool",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3];\n [] true -> (x'=1) & (x'=2);\nendmodule",
        3,
        23,
        "`x` is updated twice in this update",
    );
    // A global may be changed by a command with an action too (two commands of one
    // synchronised step writing it are an error where the step is explored).
    ok("mdp\nglobal g : [0..3];\nmodule n y : [0..3];\n [a] true -> (g'=1);\nendmodule");
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nmodule n y : [0..3];\n [] true -> (x'=1);\nendmodule",
        4,
        14,
        "`x` belongs to module `m`: a command can only change its own module's variables",
    );
    assert_err(
        "dtmc\nconst int K = 1;\nmodule n y : [0..3];\n [] true -> (K'=1);\nendmodule",
        4,
        14,
        "`K` is a constant, not a variable",
    );
    assert_err(
        "dtmc\nmodule n count : [0..3];\n [] true -> (cont'=1);\nendmodule",
        3,
        14,
        "unknown variable `cont`; did you mean `count`?",
    );
    // Globals may be changed by unlabelled commands of any module.
    let p = ok("dtmc\nglobal g : [0..3];\nmodule n y : [0..3];\n [] g < 3 -> (g'=g+1);\nendmodule");
    assert_eq!(p.modules[0].commands[0].updates[0].assigns[0].0, 0);
}

#[test]
fn actions_in_order_of_appearance() {
    let p = ok("mdp
module a x : [0..1];
  [go] true -> true; [stop] true -> true; [go] true -> true; [] true -> true;
endmodule
module b y : [0..1];
  [wait] true -> true; [go] true -> true;
endmodule");
    assert_eq!(p.actions, ["go", "stop", "wait"]);
    assert_eq!(p.modules[0].alphabet, [0, 1]);
    assert_eq!(p.modules[1].alphabet, [0, 2]);
    assert_eq!(p.modules[0].commands[3].action, None);
}

#[test]
fn type_errors_say_what_was_found() {
    let cases = [
        (
            "x & true",
            "`&` takes bool operands, the left one is an int",
        ),
        (
            "true | x",
            "`|` takes bool operands, the right one is an int",
        ),
        ("b + 1 > 0", "`+` takes numbers, the left one is a bool"),
        ("x < b", "`<` compares numbers, the right one is a bool"),
        (
            "x = b",
            "`=` compares two bools or two numbers, this compares an int with a bool",
        ),
        ("!x", "`!` takes a bool, this is an int"),
        ("-b", "`-` takes a number, this is a bool"),
        (
            "(x ? 1 : 2) = 1",
            "the condition of `? :` must be a bool, this is an int",
        ),
        (
            "(b ? 1 : true)",
            "the branches of `? :` must both be bools or both numbers",
        ),
        (
            "mod(x, 1.5) = 0",
            "`mod` takes int arguments, argument 2 is a double",
        ),
        (
            "floor(b) = 0",
            "`floor` takes numbers, argument 1 is a bool",
        ),
        (
            "y = 1",
            "unknown name `y`: no variable, constant or formula has it",
        ),
        ("xx = 1", "did you mean `x`?"),
        (
            "\"goal\"",
            "labels can only be used in labels and properties",
        ),
    ];
    for (guard, message) in cases {
        let text = format!("dtmc\nmodule m x : [0..3]; b : bool;\n [] {guard} -> true;\nendmodule");
        let (line, _, m) = err(&text);
        assert_eq!(line, 3, "{guard}: {m}");
        assert!(m.contains(message), "{guard}: `{m}` lacks `{message}`");
    }
}

#[test]
fn typing_and_folding() {
    let p = ok("dtmc
const int N = 4;
module m x : [0..10]; b : bool;
  [] b = true & x >= N/2 & floor(x/3) = 1 & max(x, N) = 4 & pow(2, N) = 16 & mod(-1, 3) = 2 -> (x' = min(x + 1, 10));
  [] !b -> 0.5 : (b' = !b) + 0.5 : (x' = N > 2 ? ceil(x / 2) : 0);
endmodule");
    let c = &p.modules[0].commands;
    let g = &c[0].guard;
    assert_eq!(g.ty, Ty::Bool);
    // state: x, b
    assert!(eval_bool(g, &[4, 1]).unwrap());
    assert!(eval_bool(g, &[3, 1]).unwrap());
    assert!(!eval_bool(g, &[6, 1]).unwrap());
    assert!(!eval_bool(g, &[4, 0]).unwrap());
    let (_, new_x) = &c[0].updates[0].assigns[0];
    assert_eq!(new_x.ty, Ty::Int);
    assert_eq!(eval_int(new_x, &[10, 0]).unwrap(), 10);
    let (var, ceil) = &c[1].updates[1].assigns[0];
    assert_eq!(*var, 0);
    // `N > 2 ? ceil(x/2) : 0` folds its constant condition away.
    assert!(matches!(ceil.kind, ExKind::Call(Func::Ceil, _)), "{ceil:?}");
    assert_eq!(eval_int(ceil, &[5, 0]).unwrap(), 3);
    assert_eq!(
        c[1].updates[0].prob.kind,
        ExKind::Value(Value::Real(crate::program::Real {
            approx: 0.5,
            exact: Some(q(1, 2)),
        }))
    );
}

#[test]
fn formulas_expand_where_used() {
    let p = ok("dtmc
formula done = x = N;
formula next = min(x + step, N);
formula step = 2;
const int N = 5;
module m x : [0..N];
  [] !done -> (x' = next);
endmodule
label \"done\" = done;");
    let c = &p.modules[0].commands[0];
    assert!(eval_bool(&c.guard, &[4]).unwrap());
    assert!(!eval_bool(&c.guard, &[5]).unwrap());
    assert_eq!(eval_int(&c.updates[0].assigns[0].1, &[4]).unwrap(), 5);
    assert_eq!(eval_int(&c.updates[0].assigns[0].1, &[1]).unwrap(), 3);
    assert!(eval_bool(&p.labels[0].1, &[5]).unwrap());

    assert_err(
        "dtmc\nformula f = g + 1;\nformula g = f;\nmodule m x : [0..1]; endmodule",
        2,
        9,
        "formula `f` is defined in terms of itself: `f` -> `g` -> `f`",
    );
    assert_err(
        "dtmc\nformula f = y + 1;\nmodule m x : [0..1]; endmodule",
        2,
        13,
        "unknown name `y`",
    );
    // A formula used where a bool is needed.
    assert_err(
        "dtmc\nformula f = x + 1;\nmodule m x : [0..1];\n [] f -> true;\nendmodule",
        4,
        5,
        "the guard must be a bool expression, this is an int",
    );
    // A formula over a variable cannot give a constant its value.
    let (l, c, m) =
        err("dtmc\nformula f = x + 1;\nconst int K = f;\nmodule m x : [0..1]; endmodule");
    assert_eq!((l, c), (2, 13));
    assert!(
        m.contains(
            "`x` is a variable, but the value of constant `K` must be constant (in formula `f`)"
        ),
        "{m}"
    );
}

const RENAMED: &str = "mdp
const int N = 3;
const int M = 2;
formula at_end = x = N;
formula mine = x;
module A
  x : [0..N] init 1;
  [go] !at_end -> (x' = x + 1);
  [reset] at_end -> (x' = mine - N);
endmodule
module B = A [x = y, N = M, go = walk] endmodule
module C = B [y = z, walk = run] endmodule
";

#[test]
fn renamed_modules() {
    let p = ok(RENAMED);
    let names: Vec<&str> = p.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["x", "y", "z"]);
    let v = &p.variables;
    // B's range uses M for N: [0..2].
    assert_eq!(
        (v[1].low, v[1].high, v[1].init, v[1].module),
        (0, 2, 1, Some(1))
    );
    // C renames B's renaming: N stays M.
    assert_eq!((v[2].high, v[2].module), (2, Some(2)));
    assert_eq!(p.actions, ["go", "reset", "walk", "run"]);
    assert_eq!(p.modules[1].name, "B");
    assert_eq!(p.modules[1].alphabet, [1, 2]);
    assert_eq!(p.modules[2].alphabet, [1, 3]);
    // Formulas used by the copy are renamed too: B's `at_end` is `y = M`.
    let b = &p.modules[1].commands;
    let state = |y: i64| [0, y, 0];
    assert!(eval_bool(&b[0].guard, &state(1)).unwrap());
    assert!(!eval_bool(&b[0].guard, &state(2)).unwrap());
    assert_eq!(b[0].updates[0].assigns[0].0, 1);
    assert_eq!(
        eval_int(&b[0].updates[0].assigns[0].1, &state(1)).unwrap(),
        2
    );
    // `mine - N` is `y - M`.
    assert_eq!(
        eval_int(&b[1].updates[0].assigns[0].1, &state(2)).unwrap(),
        0
    );
    let c = &p.modules[2].commands;
    assert_eq!(c[0].updates[0].assigns[0].0, 2);
    assert!(eval_bool(&c[1].guard, &[0, 0, 2]).unwrap());
}

#[test]
fn renaming_formulas_by_name() {
    let p = ok("dtmc
formula fa = x > 0;
formula fb = x > 1;
module A x : [0..3]; [] fa -> (x' = 0); endmodule
module B = A [x = y, fa = fb] endmodule");
    // In B, `fa` is `fb`, whose `x` is renamed as well: `y > 1`.
    let g = &p.modules[1].commands[0].guard;
    assert!(!eval_bool(g, &[0, 1]).unwrap());
    assert!(eval_bool(g, &[0, 2]).unwrap());
    assert!(!eval_bool(g, &[3, 0]).unwrap());
}

#[test]
fn renaming_errors() {
    let base = "dtmc\nmodule A x : [0..1]; z : bool; [a] true -> (x'=0); endmodule\n";
    let check = |tail: &str, line, col, part: &str| {
        assert_err(&format!("{base}{tail}"), line, col, part);
    };
    check(
        "module B = A [x = y] endmodule",
        3,
        8,
        "module `B` must rename `z`, a variable of `A`",
    );
    check(
        "module B = Q [x = y, z = w] endmodule",
        3,
        12,
        "unknown module `Q`: the modules are `A` and `B`",
    );
    check(
        "module B = A [x = y, x = w, z = v] endmodule",
        3,
        22,
        "`x` is renamed twice",
    );
    check(
        "module B = A [x = y, z = w, q = r] endmodule",
        3,
        29,
        "`q` is not a variable, constant, formula or action of the model",
    );
    check(
        "module B = A [x = z, z = w] endmodule",
        3,
        19,
        "`z` is already declared as a variable of module `A`",
    );
    check(
        "module B = C [x = y, z = w] endmodule\nmodule C = B [x = y, z = w] endmodule",
        3,
        12,
        "module `B` is a renamed copy of itself",
    );
    // An error in the copied text says which copy it is in.
    let (l, c, m) = err("dtmc
module A x : [0..1]; [] x = N -> true; endmodule
const int N = 1;
const int K = 1;
module B = A [x = y, N = KK] endmodule");
    assert_eq!((l, c), (2, 29));
    assert!(m.contains("unknown name `KK`"), "{m}");
    assert!(m.contains("renames `N` of `A` to `KK`"), "{m}");
    assert!(m.contains("(in module `B`, a renamed copy of `A`)"), "{m}");
    // A renaming that makes a formula use itself.
    let (_, _, m) = err("dtmc
formula f = g + 1;
formula g = x;
module A x : [0..1]; [] f = 1 -> true; endmodule
module B = A [x = y, g = f] endmodule");
    assert!(
        m.contains("formula `f` is defined in terms of itself"),
        "{m}"
    );
}

#[test]
fn labels() {
    let p = ok("dtmc
module m x : [0..3]; endmodule
label \"low\" = x < 2;
label \"both\" = \"low\" & x > 0;
label \"start\" = \"init\";");
    assert!(eval_bool(&p.labels[1].1, &[1]).unwrap());
    assert!(!eval_bool(&p.labels[1].1, &[0]).unwrap());
    assert_eq!(p.labels[2].1.kind, ExKind::Initial);
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nlabel \"init\" = x = 1;",
        3,
        7,
        "\"init\" is a built-in label",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nlabel \"a\" = x = 1;\nlabel \"a\" = x = 2;",
        4,
        7,
        "label \"a\" is already declared",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nlabel \"a\" = x + 1;",
        3,
        13,
        "label \"a\" must be a bool expression, this is an int",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nlabel \"a\" = \"b\";\nlabel \"b\" = \"a\";",
        3,
        7,
        "label \"a\" is defined in terms of itself: \"a\" -> \"b\" -> \"a\"",
    );
    assert_err(
        "dtmc\nmodule m x : [0..3]; endmodule\nlabel \"a\" = \"c\";",
        3,
        13,
        "unknown label \"c\": the labels are \"a\", \"init\" and \"deadlock\"",
    );
}

#[test]
fn rewards() {
    let p = ok("mdp
module m x : [0..3]; [go] x < 3 -> (x'=x+1); [] true -> true; endmodule
rewards \"steps\" [go] true : 1; [] x > 0 : 0.5; endrewards
rewards x = 3 : x * 2; endrewards");
    assert_eq!(p.rewards.len(), 2);
    assert_eq!(p.rewards[0].items[0].action, Some(Some(0)));
    assert_eq!(p.rewards[0].items[1].action, Some(None));
    assert_eq!(p.rewards[1].name, None);
    assert_eq!(p.rewards[1].items[0].action, None);
    assert_eq!(eval_f64(&p.rewards[1].items[0].value, &[3]).unwrap(), 6.0);
    let base = "mdp\nmodule m x : [0..3]; [go] true -> true; endmodule\n";
    assert_err(
        &format!("{base}rewards \"r\" [goo] true : 1; endrewards"),
        3,
        14,
        "unknown action `goo`: no command has it (the actions are `go`); did you mean `go`?",
    );
    assert_err(
        &format!("{base}rewards \"r\" true : 1; endrewards\nrewards \"r\" true : 2; endrewards"),
        4,
        9,
        "reward structure \"r\" is already declared",
    );
    assert_err(
        &format!("{base}rewards \"r\" true : x > 1; endrewards"),
        3,
        20,
        "a reward must be a number, this is a bool",
    );
    assert_err(
        &format!("{base}rewards \"r\" x : 1; endrewards"),
        3,
        13,
        "the guard of a reward must be a bool expression, this is an int",
    );
}

/// The scope of `props` on `model`.
fn scope(model: &str, props: &str) -> (Program, Scope, ast::PropertyFile) {
    let m = parse(model);
    let program = resolve(&m, &[]).unwrap();
    let file = parse_properties(props).unwrap();
    let scope = Scope::new(&program, &m, &file, &[]).unwrap();
    (program, scope, file)
}

fn query_target(p: &ast::Expr) -> &ast::Expr {
    match &p.kind {
        ast::ExprKind::Operator(o) => match &**o {
            ast::Operator::Query {
                path: ast::Path::Eventually { target, .. },
                ..
            } => target,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn properties() {
    let (_, s, file) = scope(
        DIE,
        "const int k = 2;
formula big = d > k;
label \"odd\" = mod(d, 2) = 1;
P=? [F \"six\" | \"odd\" & big & !\"deadlock\" | \"init\"]
R{\"rolls\"}=? [F d > 0]
R{1}=? [C<=k+1]",
    );
    let target = s
        .state_formula(query_target(&file.properties[0].property))
        .unwrap();
    let ctx = |d: i64| [d];
    let free = crate::eval::Context::new(&[]);
    let _ = free;
    let eval = |d: i64, init: bool, dead: bool| {
        let state = ctx(d);
        crate::eval::Context::new(&state)
            .with_initial(init)
            .with_deadlock(dead)
            .eval_bool(&target)
            .unwrap()
    };
    assert!(eval(6, false, true));
    assert!(eval(3, false, false));
    assert!(!eval(3, false, true));
    assert!(!eval(1, false, false));
    assert!(eval(1, true, false));
    assert_eq!(s.reward_index(&None).unwrap(), 0);
    let named = ast::RewardRef::Name(ast::Ident {
        name: "rolls".into(),
        span: Span::default(),
    });
    assert_eq!(s.reward_index(&Some(named)).unwrap(), 0);
    let e = s
        .reward_index(&Some(ast::RewardRef::Name(ast::Ident {
            name: "roll".into(),
            span: Span::new(1, 2),
        })))
        .unwrap_err();
    assert_eq!(e.span, Span::new(1, 2));
    assert_eq!(
        e.message,
        "no reward structure \"roll\": the model has \"rolls\"; did you mean \"rolls\"?"
    );
    assert!(s
        .reward_index(&Some(ast::RewardRef::Index(2, Span::default())))
        .unwrap_err()
        .message
        .contains("no reward structure 2: the model has 1"));
    assert_eq!(
        s.reward_index(&Some(ast::RewardRef::Index(1, Span::default())))
            .unwrap(),
        0
    );
    let bound = parse_expression("k + 1").unwrap();
    assert_eq!(s.int_value(&bound).unwrap(), 3);
    let bad = parse_expression("d").unwrap();
    assert!(s
        .int_value(&bad)
        .unwrap_err()
        .message
        .contains("`d` is a variable, but a step bound must be constant"));
    let neg = parse_expression("k - 3").unwrap();
    assert_eq!(
        s.int_value(&neg).unwrap_err().message,
        "a step bound must be at least 0, this is -1"
    );
    let real = parse_expression("k / 2").unwrap();
    assert_eq!(
        s.int_value(&real).unwrap_err().message,
        "a step bound must be an int expression, this is a double"
    );
    let e = s
        .state_formula(&parse_expression("\"sx\"").unwrap())
        .unwrap_err();
    assert!(e.message.contains("unknown label \"sx\": the labels are \"six\", \"odd\", \"init\" and \"deadlock\"; did you mean \"six\"?"), "{}", e.message);
    let e = s
        .state_formula(&parse_expression("d + 1").unwrap())
        .unwrap_err();
    assert_eq!(
        e.message,
        "a state formula must be a bool expression, this is an int"
    );
    assert_eq!(
        s.expression(&parse_expression("d + k").unwrap())
            .unwrap()
            .ty,
        Ty::Int
    );
}

#[test]
fn property_scope_errors() {
    let model = parse("dtmc\nconst int N = 1;\nmodule m x : [0..N]; endmodule");
    let program = resolve(&model, &[]).unwrap();
    let run = |props: &str, given_: &[(&str, &str)]| {
        let file = parse_properties(props).unwrap();
        Scope::new(&program, &model, &file, &given(given_)).map(|_| ())
    };
    let text = "const int N = 2;\nP=? [F x=1]";
    let e = run(text, &[]).unwrap_err();
    assert_eq!(e.line_col(text), (1, 11));
    assert!(e
        .message
        .contains("`N` is already declared as a constant of the model"));
    // A constant without a value is an error only where it is used, as in PRISM.
    let file = parse_properties("const int k;\nconst int j = k + 1;\nP=? [F x=1]").unwrap();
    let s = Scope::new(&program, &model, &file, &[]).unwrap();
    let e = s
        .state_formula(&parse_expression("x = k").unwrap())
        .unwrap_err();
    assert_eq!(
        e.message,
        "constant `k` has no value; give it with --const k=..."
    );
    let e = s
        .state_formula(&parse_expression("x = j").unwrap())
        .unwrap_err();
    assert_eq!(
        e.message,
        "constant `j` has no value: it needs `k`, which has none; give it with --const k=..."
    );
    assert!(s.state_formula(&parse_expression("x = 1").unwrap()).is_ok());
    assert!(run(
        "const int k;\nP=? [F x=k]",
        &[("k", "1"), ("N", "1"), ("other", "2")]
    )
    .is_ok());
    let e = run("const int k = 1;\nP=? [F x=k]", &[("k", "1")]).unwrap_err();
    assert!(e.message.contains("already has a value"), "{}", e.message);
    let e = run("label \"deadlock\" = x = 1;\nP=? [F x=1]", &[]).unwrap_err();
    assert!(e.message.contains("built-in"), "{}", e.message);
    let e = run("formula f = x + true;\nP=? [F x=1]", &[]).unwrap_err();
    assert!(e.message.contains("`+` takes numbers"), "{}", e.message);
    // No reward structure at all.
    let file = parse_properties("P=? [F x=1]").unwrap();
    let s = Scope::new(&program, &model, &file, &[]).unwrap();
    let e = s.reward_index_at(&None, Span::new(4, 5)).unwrap_err();
    assert_eq!(e.span, Span::new(4, 5));
    assert!(e.message.starts_with("the model has no reward structure"));
}

#[test]
fn exact_values_through_resolution() {
    let p = ok("dtmc
const double p = 0.3;
module m x : [0..1];
  [] x = 0 -> p : (x'=1) + 1 - p : true;
  [] x = 1 -> log(4, 2) / 2 : true + 0.5 : true;
endmodule");
    let c = &p.modules[0].commands;
    assert_eq!(eval_exact(&c[0].updates[0].prob, &[0]).unwrap(), q(3, 10));
    assert_eq!(eval_exact(&c[0].updates[1].prob, &[0]).unwrap(), q(7, 10));
    // `log` stays unfolded, so exact evaluation can say why it fails.
    let e = eval_exact(&c[1].updates[0].prob, &[1]).unwrap_err();
    assert!(e.message.contains("`log`"), "{}", e.message);
    assert!((eval_f64(&c[1].updates[0].prob, &[1]).unwrap() - 1.0).abs() < 1e-12);
}

#[test]
fn deep_and_large_expressions_are_refused_not_overflowed() {
    // A long chain of formulas, each one deeper than the last.
    let mut text = String::from("dtmc\nformula f0 = x;\n");
    for i in 1..=1500 {
        text.push_str(&format!("formula f{i} = f{} + 1;\n", i - 1));
    }
    text.push_str("module m x : [0..1]; [] f1500 > 0 -> true; endmodule\n");
    let (_, _, m) = err(&text);
    assert!(m.contains("nests too deeply"), "{m}");
    // Formulas that double at each level.
    let mut text = String::from("dtmc\nformula g0 = x;\n");
    for i in 1..=40 {
        text.push_str(&format!("formula g{i} = g{0} + g{0};\n", i - 1));
    }
    text.push_str("module m x : [0..1]; endmodule\n");
    let (_, _, m) = err(&text);
    assert!(m.contains("too large"), "{m}");
    // A long chain of constants is fine.
    let mut text = String::from("dtmc\nconst int c0 = 1;\n");
    for i in 1..=3000 {
        text.push_str(&format!("const int c{i} = c{} + 1;\n", i - 1));
    }
    text.push_str("module m x : [0..c3000]; endmodule\n");
    assert_eq!(ok(&text).variables[0].high, 3001);
}

#[test]
fn the_tallest_written_expression_resolves() {
    // The parser accepts a height of MAX_DEPTH; resolution and evaluation must too, on
    // a test thread's small stack.
    let n = MAX_DEPTH - 2;
    let sum = format!("x{}", " + 1".repeat(n));
    let text = format!("dtmc\nmodule m x : [0..1]; [] {sum} > 0 -> true; endmodule");
    let p = ok(&text);
    let guard = &p.modules[0].commands[0].guard;
    assert_eq!(expr::depth(guard), MAX_DEPTH);
    assert!(eval_bool(guard, &[0]).unwrap());
    assert_eq!(
        eval_exact(&guard_left(guard), &[1]).unwrap(),
        q(n as i64 + 1, 1)
    );
    // One formula level more is refused.
    let text = format!(
        "dtmc\nformula f = x + 1;\nmodule m x : [0..1]; [] {} > 0 -> true; endmodule",
        sum.replacen('x', "f", 1)
    );
    let (_, _, m) = err(&text);
    assert!(m.contains("nests too deeply"), "{m}");
}

fn guard_left(g: &Ex) -> Ex {
    match &g.kind {
        ExKind::Binary(_, a, _) => (**a).clone(),
        _ => panic!(),
    }
}

#[test]
fn expression_types_are_recorded() {
    let p = ok("dtmc\nmodule m x : [0..3]; b : bool;\n [] true -> (x' = x) & (b' = b);\nendmodule");
    let a = &p.modules[0].commands[0].updates[0].assigns;
    assert_eq!(
        a[0].1,
        Ex {
            kind: ExKind::Var(0),
            ty: Ty::Int,
            span: a[0].1.span
        }
    );
    assert_eq!(a[1].1.ty, Ty::Bool);
    assert_eq!(a[1].1.kind, ExKind::Var(1));
}

#[test]
fn exact_resolution_decides_on_exact_values() {
    let text = "dtmc
const double p = (0.1 * 3 = 0.3 ? 0.5 : 0.25);
const int n = ceil(0.1 * 3 * 10);
const bool b = 1/3 > 0.333333333333333333;
module m
  x : [0..1] init 0;
  [] x = 0 -> p : (x'=1) + 1 - p : true;
  [] x = 1 & x / 3 = 0.333333333333333333 -> true;
endmodule
";
    let model = parse(text);
    let double = resolve(&model, &[]).unwrap();
    let exact = resolve_with(&model, &[], true).unwrap();
    assert!(!double.exact && exact.exact);
    // 0.1 * 3 is 0.30000000000000004 in double precision, and the nearest double to 1/3
    // is the one to 0.333333333333333333.
    assert_eq!(real(constant(&double, "p")), (0.25, Some(q(1, 4))));
    assert_eq!(real(constant(&exact, "p")), (0.5, Some(q(1, 2))));
    assert_eq!(constant(&double, "n"), &Value::Int(4));
    assert_eq!(constant(&exact, "n"), &Value::Int(3));
    assert_eq!(constant(&double, "b"), &Value::Bool(false));
    assert_eq!(constant(&exact, "b"), &Value::Bool(true));
    // A decision that depends on the state is wrapped, to be made in each state.
    let guard = |p: &Program| p.modules[0].commands[1].guard.clone();
    assert!(guard(&exact)
        .find(&mut |e| matches!(e.kind, ExKind::Exactly(_)))
        .is_some());
    assert!(guard(&double)
        .find(&mut |e| matches!(e.kind, ExKind::Exactly(_)))
        .is_none());
    assert!(eval_bool(&guard(&double), &[1]).unwrap());
    assert!(!eval_bool(&guard(&exact), &[1]).unwrap());
}

#[test]
fn exact_decisions_on_values_without_a_rational_form_fall_back_on_doubles() {
    let text = "dtmc
const bool root = pow(2, 0.5) > 1.4142;
const int k = floor(log(8, 2));
module m
  x : [0..1] init 0;
  [] x = 0 & pow(x + 2, 0.5) < 1.5 -> true;
endmodule
";
    let exact = resolve_with(&parse(text), &[], true).unwrap();
    assert_eq!(constant(&exact, "root"), &Value::Bool(true));
    assert_eq!(constant(&exact, "k"), &Value::Int(3));
    let guard = &exact.modules[0].commands[0].guard;
    assert!(eval_bool(guard, &[0]).unwrap());
}
