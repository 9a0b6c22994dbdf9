//! Tests of the parser: whole models and property files, every precedence level, the
//! error messages with their positions, hostile inputs, and a property test that prints
//! random expressions with as few parentheses as the precedences allow and reads them
//! back.

use super::*;
use crate::ast::*;
use proptest::prelude::*;

/// An expression as a compact prefix form, spans left out: `(| a (& b c))`.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Real(_, text) => text.clone(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Label(l) => format!("\"{l}\""),
        ExprKind::Unary(UnOp::Neg, x) => format!("(- {})", sx(x)),
        ExprKind::Unary(UnOp::Not, x) => format!("(! {})", sx(x)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), sx(a), sx(b)),
        ExprKind::Ite(c, a, b) => format!("(? {} {} {})", sx(c), sx(a), sx(b)),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(sx).collect();
            format!("({} {})", f.name(), args.join(" "))
        }
        ExprKind::Operator(_) => "(operator)".into(),
    }
}

fn ex(text: &str) -> String {
    match parse_expression(text) {
        Ok(e) => sx(&e),
        Err(e) => panic!("{text:?}: {} at {:?}", e.message, e.line_col(text)),
    }
}

/// The error for `text` under `parse`, as (line, column, message).
fn err_at<T: std::fmt::Debug>(parse: fn(&str) -> Result<T>, text: &str) -> (usize, usize, String) {
    let e = parse(text).expect_err(text);
    let (line, col) = e.line_col(text);
    (line, col, e.message)
}

fn model(text: &str) -> Model {
    match parse_model(text) {
        Ok(m) => m,
        Err(e) => panic!("{} at {:?}", e.message, e.line_col(text)),
    }
}

fn props(text: &str) -> PropertyFile {
    match parse_properties(text) {
        Ok(p) => p,
        Err(e) => panic!("{} at {:?}", e.message, e.line_col(text)),
    }
}

fn slice(text: &str, span: Span) -> &str {
    &text[span.start..span.end]
}

// ----- Expressions ------------------------------------------------------------------

#[test]
fn precedence_of_boolean_operators() {
    assert_eq!(ex("a | b & c"), "(| a (& b c))");
    assert_eq!(ex("a & b | c"), "(| (& a b) c)");
    assert_eq!(ex("!a & b"), "(& (! a) b)");
    assert_eq!(ex("!x = 1"), "(! (= x 1))");
    assert_eq!(ex("!!a"), "(! (! a))");
    assert_eq!(ex("a => b => c"), "(=> a (=> b c))");
    assert_eq!(ex("a <=> b <=> c"), "(<=> (<=> a b) c)");
    // As in PRISM, `<=>` binds tighter than `=>`.
    assert_eq!(ex("a => b <=> c"), "(=> a (<=> b c))");
    assert_eq!(ex("a <=> b => c"), "(=> (<=> a b) c)");
    assert_eq!(ex("a | b <=> c"), "(<=> (| a b) c)");
    assert_eq!(ex("a => b | c"), "(=> a (| b c))");
}

#[test]
fn precedence_of_arithmetic_and_comparisons() {
    assert_eq!(ex("x + y * z"), "(+ x (* y z))");
    assert_eq!(ex("x - y - z"), "(- (- x y) z)");
    assert_eq!(ex("x / y * z"), "(* (/ x y) z)");
    assert_eq!(ex("-x * y"), "(* (- x) y)");
    assert_eq!(ex("--x"), "(- (- x))");
    assert_eq!(ex("x - -1"), "(- x (- 1))");
    assert_eq!(ex("x + 1 < y * 2"), "(< (+ x 1) (* y 2))");
    assert_eq!(ex("x < y = b"), "(= (< x y) b)");
    assert_eq!(ex("x = y & y != z"), "(& (= x y) (!= y z))");
    assert_eq!(
        ex("x <= 1 | x >= 3 & x > 0"),
        "(| (<= x 1) (& (>= x 3) (> x 0)))"
    );
    assert_eq!(ex("(x + y) * z"), "(* (+ x y) z)");
    assert_eq!(ex("2 ^ 3 ^ 2"), "(pow 2 (pow 3 2))");
    assert_eq!(ex("-2 ^ 2"), "(pow (- 2) 2)");
    assert_eq!(ex("2 * x ^ -1"), "(* 2 (pow x (- 1)))");
}

#[test]
fn conditionals() {
    assert_eq!(ex("c ? 1 : 2 + 3"), "(? c 1 (+ 2 3))");
    assert_eq!(ex("a ? 1 : b ? 2 : 3"), "(? a 1 (? b 2 3))");
    assert_eq!(ex("a ? b ? 1 : 2 : 3"), "(? a (? b 1 2) 3)");
    assert_eq!(ex("a | b ? x : y"), "(? (| a b) x y)");
    assert_eq!(ex("a => b ? 1 : 0"), "(? (=> a b) 1 0)");
    assert_eq!(ex("(c ? 1 : 2) + 3"), "(+ (? c 1 2) 3)");
}

#[test]
fn literals_names_labels_and_calls() {
    assert_eq!(ex("0.5"), "0.5");
    assert_eq!(ex("1e-3 + .25 + 2E+2"), "(+ (+ 1e-3 .25) 2E+2)");
    let e = parse_expression("0.1").unwrap();
    assert_eq!(e.kind, ExprKind::Real(0.1, "0.1".into()));
    assert_eq!(
        parse_expression("9223372036854775807").unwrap().kind,
        ExprKind::Int(i64::MAX)
    );
    assert_eq!(ex("true & !false"), "(& true (! false))");
    assert_eq!(
        ex("\"goal\" | \"init\" | \"deadlock\""),
        "(| (| \"goal\" \"init\") \"deadlock\")"
    );
    assert_eq!(ex("_a1 + B_2"), "(+ _a1 B_2)");
    assert_eq!(ex("min(a, b, c)"), "(min a b c)");
    assert_eq!(ex("max(x)"), "(max x)");
    assert_eq!(
        ex("floor(x/2) + ceil(1.5)"),
        "(+ (floor (/ x 2)) (ceil 1.5))"
    );
    assert_eq!(
        ex("pow(2, n) * mod(i, N) - log(8, 2)"),
        "(- (* (pow 2 n) (mod i N)) (log 8 2))"
    );
    assert_eq!(ex("func(min, a, b)"), "(min a b)");
    assert_eq!(ex("func(mod, 7, 3)"), "(mod 7 3)");
    // `min` without parentheses is just a name.
    assert_eq!(ex("min + 1"), "(+ min 1)");
}

#[test]
fn expression_spans_cover_their_text() {
    let text = "a + (b * c) - f(x)";
    let text = text.replace("f(x)", "min(x, 1)");
    let e = parse_expression(&text).unwrap();
    assert_eq!(e.span, Span::new(0, text.len()));
    let ExprKind::Binary(_, left, right) = &e.kind else {
        panic!()
    };
    assert_eq!(slice(&text, left.span), "a + (b * c)");
    assert_eq!(slice(&text, right.span), "min(x, 1)");
    let ExprKind::Binary(_, _, paren) = &left.kind else {
        panic!()
    };
    assert_eq!(slice(&text, paren.span), "(b * c)");
    let e = parse_expression("  -x ").unwrap();
    assert_eq!(e.span, Span::new(2, 4));
}

#[test]
fn expression_errors() {
    let p = parse_expression;
    assert_eq!(err_at(p, "1e400").2, "number `1e400` is too large");
    assert_eq!(
        err_at(p, "3 4"),
        (
            1,
            3,
            "expected an operator or the end of the expression, found `4`".into()
        )
    );
    assert_eq!(
        err_at(p, "x +"),
        (
            1,
            4,
            "unexpected end of input: expected an expression".into()
        )
    );
    assert_eq!(
        err_at(p, "99999999999999999999"),
        (
            1,
            1,
            "integer `99999999999999999999` is too large (the largest is 9223372036854775807)"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "pow(2)"),
        (1, 1, "`pow` takes 2 arguments, found 1".into())
    );
    assert_eq!(
        err_at(p, "floor(1, 2)"),
        (1, 1, "`floor` takes 1 argument, found 2".into())
    );
    assert_eq!(
        err_at(p, "min()"),
        (1, 1, "`min` takes at least 1 argument, found 0".into())
    );
    assert_eq!(
        err_at(p, "func(max)"),
        (1, 1, "`max` takes at least 1 argument, found 0".into())
    );
    assert_eq!(
        err_at(p, "1 + sqrt(2)"),
        (
            1,
            5,
            "unknown function `sqrt`: the functions are min, max, floor, ceil, round, pow, mod, log"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "(a + b"),
        (
            1,
            7,
            "unexpected end of input: expected an operator or `)` to close the `(` at line 1"
                .into()
        )
    );
    assert_eq!(err_at(p, "a ? b"), (1, 6, "unexpected end of input: expected an operator or `:` for the `?` at line 1 (a conditional is written `c ? a : b`)".into()));
    assert_eq!(
        err_at(p, "x = module"),
        (
            1,
            5,
            "expected an expression, found the keyword `module`".into()
        )
    );
    assert_eq!(
        err_at(p, "1e5000"),
        (
            1,
            1,
            "number `1e5000` is out of range: exponents go up to 1000 either way".into()
        )
    );
    assert_eq!(
        err_at(p, "min(1, 2"),
        (
            1,
            9,
            "unexpected end of input: expected an operator, `,` or `)` in the arguments of `min`"
                .into()
        )
    );
    assert_eq!(
        err_at(p, ""),
        (
            1,
            1,
            "unexpected end of input: expected an expression".into()
        )
    );
}

#[test]
fn hostile_nesting_is_an_error_not_a_crash() {
    // Run where the stack is small, to be sure the limits hold whatever runs the tests.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let ok = format!("{}x{}", "(".repeat(200), ")".repeat(200));
            assert_eq!(ex(&ok), "x");
            for text in [
                format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000)),
                "(".repeat(100_000),
                "!".repeat(100_000) + "x",
                "-".repeat(100_000) + "x",
                "x".to_string() + &"+x".repeat(100_000),
                "a".to_string() + &"=>a".repeat(100_000),
                "a".to_string() + &"^a".repeat(100_000),
                "a ? b : ".repeat(100_000) + "c",
                "min(".repeat(100_000),
            ] {
                let e = parse_expression(&text).unwrap_err();
                assert!(
                    e.message.contains("too deep") || e.message.contains("too deeply"),
                    "{}",
                    e.message
                );
            }
            let model = format!(
                "module M\n[] {}true -> true;\nendmodule",
                "!".repeat(50_000)
            );
            assert!(parse_model(&model).is_err());
            let prop = "filter(min, ".repeat(1000) + "P=? [F a]";
            assert!(parse_properties(&prop)
                .unwrap_err()
                .message
                .contains("too deep"));
        })
        .unwrap()
        .join()
        .unwrap();
}

// ----- Models -----------------------------------------------------------------------

/// Knuth and Yao's die from fair coin flips.
const DIE: &str = "\
// Knuth and Yao: a fair die from a fair coin
dtmc

const double p = 0.5;

module die
    // local state
    s : [0..7] init 0;
    // value of the die
    d : [0..6] init 0;

    [] s=0 -> p : (s'=1) + 1-p : (s'=2);
    [] s=1 -> p : (s'=3) + 1-p : (s'=4);
    [] s=2 -> p : (s'=5) + 1-p : (s'=6);
    [] s=3 -> p : (s'=1) + 1-p : (s'=7) & (d'=1);
    [] s=4 -> p : (s'=7) & (d'=2) + 1-p : (s'=7) & (d'=3);
    [] s=5 -> p : (s'=7) & (d'=4) + 1-p : (s'=7) & (d'=5);
    [] s=6 -> p : (s'=2) + 1-p : (s'=7) & (d'=6);
    [] s=7 -> (s'=7);
endmodule

rewards \"coin_flips\"
    [] s<7 : 1;
endrewards

label \"done\" = s=7;
formula six = d=6;
";

#[test]
fn knuth_yao_die() {
    let m = model(DIE);
    assert_eq!(m.kind, ModelType::Dtmc);
    assert_eq!(slice(DIE, m.kind_span), "dtmc");
    assert_eq!(m.constants.len(), 1);
    let c = &m.constants[0];
    assert_eq!((c.name.name.as_str(), c.ty), ("p", Type::Double));
    assert_eq!(sx(c.value.as_ref().unwrap()), "0.5");
    assert_eq!(slice(DIE, c.span), "const double p = 0.5;");
    let Module::Defined {
        name,
        variables,
        commands,
        span,
    } = &m.modules[0]
    else {
        panic!("not a defined module")
    };
    assert_eq!(name.name, "die");
    assert!(
        slice(DIE, *span).starts_with("module die") && slice(DIE, *span).ends_with("endmodule")
    );
    assert_eq!(variables.len(), 2);
    let VarType::Range(lo, hi) = &variables[0].ty else {
        panic!()
    };
    assert_eq!((sx(lo), sx(hi)), ("0".into(), "7".into()));
    assert_eq!(sx(variables[1].init.as_ref().unwrap()), "0");
    assert_eq!(slice(DIE, variables[0].span), "s : [0..7] init 0;");
    assert_eq!(commands.len(), 8);
    let c3 = &commands[3];
    assert_eq!(c3.action, None);
    assert_eq!(sx(&c3.guard), "(= s 3)");
    assert_eq!(c3.updates.len(), 2);
    assert_eq!(sx(c3.updates[1].prob.as_ref().unwrap()), "(- 1 p)");
    let assigns: Vec<(String, String)> = c3.updates[1]
        .assigns
        .iter()
        .map(|a| (a.var.name.clone(), sx(&a.value)))
        .collect();
    assert_eq!(
        assigns,
        vec![("s".into(), "7".into()), ("d".into(), "1".into())]
    );
    assert_eq!(slice(DIE, c3.updates[1].span), "1-p : (s'=7) & (d'=1)");
    assert_eq!(slice(DIE, c3.updates[1].assigns[1].span), "(d'=1)");
    assert_eq!(
        slice(DIE, c3.span),
        "[] s=3 -> p : (s'=1) + 1-p : (s'=7) & (d'=1);"
    );
    let last = &commands[7];
    assert_eq!(last.updates[0].prob, None);
    assert_eq!(last.updates[0].assigns.len(), 1);
    let r = &m.rewards[0];
    assert_eq!(r.name.as_ref().unwrap().name, "coin_flips");
    assert_eq!(r.items[0].action, Some(None));
    assert_eq!(
        (sx(&r.items[0].guard), sx(&r.items[0].value)),
        ("(< s 7)".into(), "1".into())
    );
    assert_eq!(m.labels[0].name.name, "done");
    assert_eq!(sx(&m.labels[0].expr), "(= s 7)");
    assert_eq!(m.formulas[0].name.name, "six");
    assert_eq!(m.init, None);
}

#[test]
fn two_modules_synchronising_with_globals() {
    let text = "\
mdp
const int N = 3;
const K;
const bool fast = true;
global turn : [1..2] init 1;
global done : bool;

module sender
    s : [0..N] init 0;
    [send] s<N & turn=1 -> 0.9 : (s'=s+1) & (turn'=2) + 0.1 : true;
    [tick] true -> true;
endmodule

module receiver
    r : [0..N];
    ok : bool init false;
    [send] r<N -> (r'=r+1);
    [] turn=2 -> (turn'=1);
    [tick] r=N -> (ok'=true) & (done'=true);
endmodule
";
    let m = model(text);
    assert_eq!(m.kind, ModelType::Mdp);
    let kinds: Vec<(&str, Type, bool)> = m
        .constants
        .iter()
        .map(|c| (c.name.name.as_str(), c.ty, c.value.is_some()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("N", Type::Int, true),
            ("K", Type::Int, false),
            ("fast", Type::Bool, true)
        ]
    );
    assert_eq!(m.globals.len(), 2);
    assert_eq!(
        slice(text, m.globals[0].span),
        "global turn : [1..2] init 1;"
    );
    assert_eq!(m.globals[1].ty, VarType::Bool);
    assert_eq!(m.globals[1].init, None);
    assert_eq!(m.modules.len(), 2);
    let Module::Defined {
        commands,
        variables,
        ..
    } = &m.modules[0]
    else {
        panic!()
    };
    assert_eq!(variables.len(), 1);
    assert_eq!(commands[0].action.as_ref().unwrap().name, "send");
    assert_eq!(sx(&commands[0].guard), "(& (< s N) (= turn 1))");
    assert_eq!(commands[0].updates[1].assigns, vec![]);
    assert_eq!(commands[1].updates[0].prob, None);
    assert_eq!(commands[1].updates[0].assigns, vec![]);
    let Module::Defined {
        variables,
        commands,
        ..
    } = &m.modules[1]
    else {
        panic!()
    };
    assert_eq!(variables[1].ty, VarType::Bool);
    assert_eq!(sx(variables[1].init.as_ref().unwrap()), "false");
    assert_eq!(commands[2].updates[0].assigns.len(), 2);
}

#[test]
fn renamed_modules_init_and_model_type_synonyms() {
    let text = "\
nondeterministic
formula near = x1 + 1 = x2;
module P1
    x1 : [0..3] init 0;
    [a1] x1<3 -> (x1'=x1+1);
endmodule
module P2 = P1 [x1=x2, a1=a2] endmodule
module P3=P1[x1=x3,a1=a3]endmodule
init x1 = 0 & x2 = 0 endinit
rewards
    x1 = 3 : 1.5;
    [a1] true : 2;
endrewards
";
    let m = model(text);
    assert_eq!(m.kind, ModelType::Mdp);
    let Module::Renamed {
        name,
        base,
        renames,
        span,
    } = &m.modules[1]
    else {
        panic!()
    };
    assert_eq!((name.name.as_str(), base.name.as_str()), ("P2", "P1"));
    let pairs: Vec<(&str, &str)> = renames
        .iter()
        .map(|(a, b)| (a.name.as_str(), b.name.as_str()))
        .collect();
    assert_eq!(pairs, vec![("x1", "x2"), ("a1", "a2")]);
    assert_eq!(
        slice(text, *span),
        "module P2 = P1 [x1=x2, a1=a2] endmodule"
    );
    assert!(matches!(&m.modules[2], Module::Renamed { renames, .. } if renames.len() == 2));
    assert_eq!(sx(m.init.as_ref().unwrap()), "(& (= x1 0) (= x2 0))");
    assert_eq!(sx(&m.formulas[0].expr), "(= (+ x1 1) x2)");
    let r = &m.rewards[0];
    assert_eq!(r.name, None);
    assert_eq!(r.items[0].action, None);
    assert_eq!(sx(&r.items[0].value), "1.5");
    assert_eq!(
        r.items[1].action.as_ref().unwrap().as_ref().unwrap().name,
        "a1"
    );
    assert_eq!(slice(text, r.items[1].span), "[a1] true : 2;");

    assert_eq!(model("probabilistic").kind, ModelType::Dtmc);
    // No model type: an MDP, as in PRISM.
    let m = model("module M x : bool; endmodule");
    assert_eq!((m.kind, m.kind_span), (ModelType::Mdp, Span::new(0, 0)));
    // The type may come after other declarations.
    assert_eq!(model("const N = 2; dtmc").kind, ModelType::Dtmc);
    assert_eq!(model("").modules, vec![]);
}

#[test]
fn comments_whitespace_and_odd_layout() {
    let text = "dtmc/*block\ncomment*/module\tM\r\n x:[0..1]init 0;[]x=0->0.5:(x'=1)+0.5:(x'=0);\u{a0}endmodule// end";
    let m = model(text);
    let Module::Defined { commands, .. } = &m.modules[0] else {
        panic!()
    };
    assert_eq!(commands[0].updates.len(), 2);
    // A probability that is a conditional, and one in parentheses.
    let m = model("module M x:[0..2]; [] true -> x>0 ? 0.5 : 0.2 : (x'=1) + (1-(x>0 ? 0.5 : 0.2)) : true; endmodule");
    let Module::Defined { commands, .. } = &m.modules[0] else {
        panic!()
    };
    assert_eq!(
        sx(commands[0].updates[0].prob.as_ref().unwrap()),
        "(? (> x 0) 0.5 0.2)"
    );
    assert_eq!(commands[0].updates[1].assigns, vec![]);
}

#[test]
fn ten_thousand_line_model_parses_quickly() {
    let mut text = String::from("dtmc\nconst int N = 10000;\nmodule M\nx : [0..N] init 0;\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "[a{i}] x={i} & x<N -> 0.25 : (x'=min(x+1, N)) + 0.75 : (x'=max(x-1, 0)); // step {i}\n"
        ));
    }
    text.push_str("endmodule\n");
    let start = std::time::Instant::now();
    let m = model(&text);
    let took = start.elapsed();
    let Module::Defined { commands, .. } = &m.modules[0] else {
        panic!()
    };
    assert_eq!(commands.len(), 10_000);
    // Generous, to hold in unoptimised builds on a busy machine; optimised, it is a few
    // milliseconds.
    assert!(took.as_millis() < 2000, "{took:?}");
}

// ----- Model errors -----------------------------------------------------------------

#[test]
fn model_errors_say_what_and_where() {
    let p = parse_model;
    assert_eq!(
        err_at(
            p,
            "dtmc\nmodule M\n  x : [0..1] init 0;\n  [] x=0 -> (x'=1)\nendmodule\n"
        ),
        (
            5,
            1,
            "expected `;` after the command, found `endmodule`".into()
        )
    );
    assert_eq!(
        err_at(p, "dtmc\n\nmodule M\n  x : [0..1] init 0;\n"),
        (
            5,
            1,
            "unexpected end of input: expected `endmodule` to close module `M` (opened at line 3)"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "dtmc\nmodule M\n x : bool;\nmodule N\n"),
        (4, 1, "expected a variable, a command `[...] guard -> updates;` or `endmodule` to close module `M` (opened at line 2), found `module`".into())
    );
    assert_eq!(
        err_at(p, "module module"),
        (
            1,
            8,
            "`module` is a keyword, expected a name for the module".into()
        )
    );
    assert_eq!(
        err_at(p, "module M init : bool; endmodule"),
        (
            1,
            10,
            "`init` is a keyword, expected a name for the variable".into()
        )
    );
    assert_eq!(
        err_at(p, "const int init = 1;"),
        (
            1,
            11,
            "`init` is a keyword, expected a name for the constant".into()
        )
    );
    assert_eq!(
        err_at(p, "// a chain\nctmc\n"),
        (
            2,
            1,
            "model type `ctmc` is not supported; alea reads dtmc, mdp and smg models".into()
        )
    );
    assert_eq!(
        err_at(p, "stochastic").2,
        "model type `stochastic` is not supported; alea reads dtmc, mdp and smg models"
    );
    assert_eq!(
        err_at(p, "pta").2,
        "model type `pta` is not supported; alea reads dtmc, mdp and smg models"
    );
    assert_eq!(
        err_at(p, "ma").2,
        "model type `ma` is not supported; alea reads dtmc, mdp and smg models"
    );
    let (line, col, message) = err_at(p, "dtmc\nmodule M endmodule\nsystem M endsystem\n");
    assert_eq!((line, col), (3, 1));
    assert!(
        message.starts_with("system ... endsystem is not supported; "),
        "{message}"
    );
    assert_eq!(
        err_at(p, "dtmc\nmdp"),
        (
            2,
            1,
            "the model type is given twice (first at line 1)".into()
        )
    );
    assert_eq!(
        err_at(p, "init true endinit\ninit false endinit"),
        (
            2,
            1,
            "`init ... endinit` is given twice (first at line 1)".into()
        )
    );
    assert_eq!(
        err_at(p, "init true"),
        (
            1,
            10,
            "unexpected end of input: expected `endinit` to close the `init` at line 1".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : int; endmodule"),
        (
            1,
            14,
            "unbounded `int` variables are not supported; give a range such as `[0..10]`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M t : clock; endmodule"),
        (
            1,
            14,
            "`clock` (of timed automata) is not supported; alea reads dtmc, mdp and smg models"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "module M invariant true endinvariant endmodule"),
        (1, 10, "`invariant ... endinvariant` (of timed automata) is not supported; alea reads dtmc, mdp and smg models".into())
    );
    assert_eq!(
        err_at(p, "rate").2,
        "`rate` (of continuous-time models) is not supported; alea reads dtmc, mdp and smg models"
    );
    assert_eq!(err_at(p, "observables x endobservables").0, 1);
    assert_eq!(
        err_at(
            p,
            "module M x : [0..1]; [] true -> [0.2, 0.3] : (x'=1); endmodule"
        ),
        (
            1,
            33,
            "an interval of probabilities `[lo, hi]` makes an interval Markov chain or \
             decision process, which is not supported: give each update one probability"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : [0..1]; [] true -> (x=1); endmodule"),
        (
            1,
            34,
            "expected `'` after `x`: an assignment is written `(x'=...)`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : [0..1]; [] true -> x'=1; endmodule"),
        (
            1,
            33,
            "an assignment is written in parentheses: `(x'=...)`".into()
        )
    );
    assert_eq!(
        err_at(
            p,
            "module M x : [0..1]; [] true -> 0.5 : (x'=1) & x'=0; endmodule"
        ),
        (
            1,
            48,
            "an assignment is written in parentheses: `(x'=...)`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : [0..1]; [] true -> 0.5 : (x=1); endmodule"),
        (
            1,
            41,
            "expected `'` after `x` (an assignment is written `(x'=...)`), found `=`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : [0..1]; [] x=0 (x'=1); endmodule"),
        (
            1,
            29,
            "expected an operator or `->` after the guard, found `(`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : [0..1]; [] x=0 -> 0.5 (x'=1); endmodule"),
        (
            1,
            36,
            "expected an operator or `:` after the probability of the update, found `(`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x [0..1]; endmodule"),
        (
            1,
            12,
            "expected `:` and a type after the variable name `x`, found `[`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : [0 1]; endmodule"),
        (
            1,
            17,
            "expected `..` between the bounds of the range, found `1`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M x : bool endmodule"),
        (
            1,
            19,
            "expected `;` after the declaration of `x`, found `endmodule`".into()
        )
    );
    assert_eq!(
        err_at(p, "module M [1] true -> true; endmodule"),
        (1, 11, "expected an action name or `]`, found `1`".into())
    );
    assert_eq!(
        err_at(p, "const float p = 0.5;"),
        (
            1,
            7,
            "unknown type `float` for a constant: expected `int`, `double` or `bool`".into()
        )
    );
    assert_eq!(err_at(p, "const N = 3"), (1, 12, "unexpected end of input: expected an operator or `;` after the value of the constant `N`".into()));
    assert_eq!(
        err_at(p, "label goal = true;"),
        (
            1,
            7,
            "expected a label name in quotes, such as `\"goal\"`, found `goal`".into()
        )
    );
    assert_eq!(
        err_at(p, "formula f = x + ;"),
        (1, 17, "expected an expression, found `;`".into())
    );
    assert_eq!(
        err_at(p, "rewards \"r\"\n true : 1;\nmodule"),
        (3, 1, "expected a reward `guard : value;` or `endrewards` to close the rewards at line 1, found `module`".into())
    );
    assert_eq!(
        err_at(p, "rewards true 1; endrewards"),
        (
            1,
            14,
            "expected an operator or `:` between the guard and the reward, found `1`".into()
        )
    );
    assert_eq!(
        err_at(p, "module B = A endmodule"),
        (
            1,
            14,
            "expected `[` and the renamings after `module B = A`, found `endmodule`".into()
        )
    );
    assert_eq!(
        err_at(p, "module B = A [x y] endmodule"),
        (
            1,
            17,
            "expected `=` and the new name for `x`, found `y`".into()
        )
    );
    assert_eq!(
        err_at(p, "x = 1;"),
        (1, 1, "expected the model type or a declaration (`const`, `global`, `formula`, `label`, `module`, `rewards` or `init`), found `x`".into())
    );
    assert_eq!(
        err_at(p, "module M global g : bool; endmodule"),
        (
            1,
            10,
            "global variables are declared outside modules".into()
        )
    );
    // Errors of the lexer come through with their positions.
    assert_eq!(
        err_at(p, "dtmc\nconst x = 1 $ 2;"),
        (2, 13, "unexpected character `$`".into())
    );
}

// ----- Properties -------------------------------------------------------------------

fn query(p: &NamedProperty) -> (&Query, &Path) {
    match &p.property.kind {
        ExprKind::Operator(o) => match &**o {
            Operator::Query { op, path, .. } => (op, path),
            other => panic!("not a query: {other:?}"),
        },
        other => panic!("not an operator: {other:?}"),
    }
}

/// The parts of a filter: its operator, property and states.
fn filter_of(e: &Expr) -> (FilterOp, &Expr, Option<&Expr>) {
    match &e.kind {
        ExprKind::Operator(o) => match &**o {
            Operator::Filter {
                op,
                property,
                states,
            } => (*op, property, states.as_ref()),
            other => panic!("not a filter: {other:?}"),
        },
        other => panic!("not an operator: {other:?}"),
    }
}

/// The last step of `<=k`.
fn upper(b: &Steps) -> &Expr {
    assert!(b.from.is_none());
    let (k, strict) = b.to.as_ref().expect("an upper bound");
    assert!(!strict);
    k
}

/// A path of LTL written back with every operator in parentheses, state formulas as `.`.
fn shape(f: &Ltl) -> String {
    match f {
        Ltl::State(_) => ".".into(),
        Ltl::Not(g) => format!("!{}", shape(g)),
        Ltl::Binary(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
        Ltl::Next(g) => format!("X{}", shape(g)),
        Ltl::Eventually(s, g) => format!("F{}{}", if s.is_some() { "k" } else { "" }, shape(g)),
        Ltl::Globally(s, g) => format!("G{}{}", if s.is_some() { "k" } else { "" }, shape(g)),
        Ltl::Until(op, _, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
    }
}

#[test]
fn paths_of_ltl_keep_prisms_precedence() {
    // Temporal operators bind looser than the boolean ones inside them (`G F a|b` is
    // `G F (a|b)`), a path joins others in parentheses, and the plain paths stay plain.
    let cases = [
        ("P=? [ G F s=3|s=4 ]", "GF."),
        ("P=? [ (G F a) & (F G b) ]", "(GF. And FG.)"),
        ("P=? [ !(F a) ]", "!F."),
        ("P=? [ G F (s=2 & (X s=5)) ]", "GF(. And X.)"),
        ("P=? [ (X b) => (G a) ]", "(X. Implies G.)"),
        ("P=? [ a U (b U c) ]", "(. Until (. Until .))"),
        ("P=? [ (F<=3 a) | (G>=2 !b) ]", "(Fk. Or Gk.)"),
        ("P=? [ x=1 ]", "."),
        ("P=? [ F a & b ]", "plain"),
        ("P=? [ (a | b) U c ]", "plain"),
        ("R=? [ (F a) | (F b) ]", "(F. Or F.)"),
    ];
    for (text, want) in cases {
        let f = props(text);
        let got = match query(&f.properties[0]).1 {
            Path::Ltl { formula, .. } => shape(formula),
            _ => "plain".into(),
        };
        assert_eq!(got, want, "{text}");
    }
}

#[test]
fn property_forms() {
    let text = "\
// Properties of the die
const int k = 4;
const double q;
label \"six\" = d=6;
formula even = mod(d, 2) = 0;

P=? [ F \"done\" & d=6 ]
\"reach\": Pmax=? [ F<=k \"goal\" ];  Pmin=? [ !\"bad\" U<=10 x>2 ]
P max=? [ true U \"goal\" ]
R{\"coin_flips\"}=? [ F s=7 ]
R{2}min=? [ C<=10 ]; Rmax{\"cost\"}=? [ F \"done\" ]
R{\"cost\"}max=? [ C<=k+1 ]
Rmin=? [ F \"done\" ]
T=? [ F \"done\" ] ; Tmin=? [F \"done\"]
\"tmax\" : Tmax=? [ F \"init\" | \"deadlock\" ]
filter(max, P=? [ F \"done\" ], s=0)
filter(forall, filter(avg, R=? [ F \"done\" ]))
P=? [ F
        s = 7 ]
";
    let f = props(text);
    assert_eq!(f.constants.len(), 2);
    assert_eq!(f.constants[1].value, None);
    assert_eq!(f.constants[1].ty, Type::Double);
    assert_eq!(f.labels[0].name.name, "six");
    assert_eq!(f.formulas[0].name.name, "even");
    let ps = &f.properties;
    assert_eq!(ps.len(), 15);

    let (op, path) = query(&ps[0]);
    assert_eq!(*op, Query::Probability(Opt::None));
    let Path::Eventually {
        bound: None,
        target,
    } = path
    else {
        panic!("{path:?}")
    };
    assert_eq!(sx(target), "(& \"done\" (= d 6))");
    assert_eq!(ps[0].name, None);
    assert_eq!(ps[0].text, "P=? [ F \"done\" & d=6 ]");

    assert_eq!(ps[1].name.as_deref(), Some("reach"));
    assert_eq!(ps[1].text, "Pmax=? [ F<=k \"goal\" ]");
    assert_eq!(
        slice(text, ps[1].span),
        "\"reach\": Pmax=? [ F<=k \"goal\" ]"
    );
    let (op, path) = query(&ps[1]);
    assert_eq!(*op, Query::Probability(Opt::Max));
    let Path::Eventually {
        bound: Some(k),
        target,
    } = path
    else {
        panic!()
    };
    assert_eq!((sx(upper(k)), sx(target)), ("k".into(), "\"goal\"".into()));

    let (op, path) = query(&ps[2]);
    assert_eq!(*op, Query::Probability(Opt::Min));
    let Path::Until {
        left,
        right,
        bound: Some(b),
        ..
    } = path
    else {
        panic!()
    };
    assert_eq!(
        (sx(left), sx(right), sx(upper(b))),
        ("(! \"bad\")".into(), "(> x 2)".into(), "10".into())
    );

    let (op, path) = query(&ps[3]);
    assert_eq!(*op, Query::Probability(Opt::Max));
    assert!(matches!(path, Path::Until { bound: None, .. }));

    let (op, _) = query(&ps[4]);
    let Query::Reward(Some(RewardRef::Name(n)), Opt::None) = op else {
        panic!("{op:?}")
    };
    assert_eq!(n.name, "coin_flips");

    let (op, path) = query(&ps[5]);
    assert!(matches!(
        op,
        Query::Reward(Some(RewardRef::Index(2, _)), Opt::Min)
    ));
    let Path::Cumulative { bound: Some(bound) } = path else {
        panic!()
    };
    assert_eq!(sx(bound), "10");

    let (op, _) = query(&ps[6]);
    assert!(matches!(op, Query::Reward(Some(RewardRef::Name(n)), Opt::Max) if n.name == "cost"));
    let (op, path) = query(&ps[7]);
    assert!(matches!(op, Query::Reward(Some(RewardRef::Name(n)), Opt::Max) if n.name == "cost"));
    assert!(matches!(path, Path::Cumulative { bound: Some(bound) } if sx(bound) == "(+ k 1)"));
    assert_eq!(*query(&ps[8]).0, Query::Reward(None, Opt::Min));
    assert_eq!(*query(&ps[9]).0, Query::Time(Opt::None));
    assert_eq!(*query(&ps[10]).0, Query::Time(Opt::Min));
    assert_eq!(ps[11].name.as_deref(), Some("tmax"));
    assert_eq!(*query(&ps[11]).0, Query::Time(Opt::Max));

    let (op, property, states) = filter_of(&ps[12].property);
    assert_eq!(op, FilterOp::Max);
    assert!(matches!(
        &property.kind,
        ExprKind::Operator(o) if matches!(**o, Operator::Query {
            op: Query::Probability(Opt::None),
            ..
        })
    ));
    assert_eq!(sx(states.unwrap()), "(= s 0)");
    assert_eq!(ps[12].text, "filter(max, P=? [ F \"done\" ], s=0)");

    let (op, property, states) = filter_of(&ps[13].property);
    assert!(op == FilterOp::Forall && states.is_none());
    let (op, _, states) = filter_of(property);
    assert!(op == FilterOp::Avg && states.is_none());
    // A property may run over lines inside its brackets.
    assert_eq!(ps[14].text, "P=? [ F\n        s = 7 ]");
}

#[test]
fn bounds_and_filters_in_detail() {
    // A bound is read as a sum, so a parenthesised target after a name is not a call.
    let f = props("P=? [ F<=N (x=1) ]\nP=? [ \"a\" U<=2*N-1 \"b\" ]\nP=? [F<=floor(N/2) x=1]");
    let Path::Eventually {
        bound: Some(b),
        target,
    } = query(&f.properties[0]).1
    else {
        panic!()
    };
    assert_eq!((sx(upper(b)), sx(target)), ("N".into(), "(= x 1)".into()));
    let Path::Until { bound: Some(b), .. } = query(&f.properties[1]).1 else {
        panic!()
    };
    assert_eq!(sx(upper(b)), "(- (* 2 N) 1)");
    let Path::Eventually { bound: Some(b), .. } = query(&f.properties[2]).1 else {
        panic!()
    };
    assert_eq!(sx(upper(b)), "(floor (/ N 2))");
    let ops = [
        "min", "max", "avg", "sum", "count", "forall", "exists", "first", "print",
    ];
    for (word, op) in ops.iter().zip([
        FilterOp::Min,
        FilterOp::Max,
        FilterOp::Avg,
        FilterOp::Sum,
        FilterOp::Count,
        FilterOp::Forall,
        FilterOp::Exists,
        FilterOp::First,
        FilterOp::Print,
    ]) {
        let f = props(&format!("filter({word}, P=? [F \"a\"], \"init\")"));
        assert_eq!(filter_of(&f.properties[0].property).0, op);
    }
    // Separators: `;` (any number) and line breaks; no properties at all is fine.
    assert_eq!(props("P=? [F a];;P=? [F b];\n\n;").properties.len(), 2);
    assert_eq!(props("// nothing\n").properties.len(), 0);
    assert_eq!(props("").properties.len(), 0);
    let f = props("\"a b\": P=? [F x=1]");
    assert_eq!(f.properties[0].name.as_deref(), Some("a b"));
}

#[test]
fn bound_queries() {
    let f =
        parse_properties("\"c1\": P>=1 [ F \"a\" ]\nR{\"c\"}max<2.5*k [ F b ]\nT>0 [F c]").unwrap();
    let bounds: Vec<(Rel, String)> = f
        .properties
        .iter()
        .map(|n| match &n.property.kind {
            ExprKind::Operator(o) => match &**o {
                Operator::Query { bound: Some(b), .. } => (b.rel, sx(&b.threshold)),
                other => panic!("not a bound: {other:?}"),
            },
            other => panic!("not an operator: {other:?}"),
        })
        .collect();
    assert_eq!(
        bounds,
        vec![
            (Rel::Ge, "1".to_string()),
            (Rel::Lt, "(* 2.5 k)".to_string()),
            (Rel::Gt, "0".to_string())
        ]
    );
    assert_eq!(f.properties[0].name.as_deref(), Some("c1"));
}

#[test]
fn property_errors_say_what_and_where() {
    let p = parse_properties;
    assert_eq!(
        err_at(p, "P>= [ F \"a\" ]"),
        (1, 5, "expected an expression, found `[`".into())
    );
    assert_eq!(
        err_at(p, "P=? [ C<=5 ]").2,
        "`C` is a reward path: it needs an `R` operator"
    );
    // Paths of LTL join by boolean operators in parentheses only, as in PRISM.
    assert_eq!(
        err_at(p, "\n P=? [ F a & F b ]"),
        (
            2,
            14,
            "`F` here is a temporal operator where a state formula is expected: put a path \
             combined with others in parentheses, as in `(F a) & (G b)`"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "P=? [ a U b U c ]"),
        (
            1,
            13,
            "expected an operator or `]` to close the `[` at line 1, found `U`".into()
        )
    );
    assert_eq!(
        err_at(p, "P=? [F a] P=? [F b]"),
        (
            1,
            11,
            "expected `;` or a line break after the property, found `P`".into()
        )
    );
    assert_eq!(
        err_at(p, "P=? [F a"),
        (
            1,
            9,
            "unexpected end of input: expected an operator or `]` to close the `[` at line 1"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "P [F a]"),
        (
            1,
            3,
            "expected `=?`, or a bound such as `>=0.5`, after `P`, found `[`".into()
        )
    );
    assert_eq!(
        err_at(p, "P=0.5 [F a]"),
        (
            1,
            2,
            "`P=` needs `?` (`P=?` asks for the value); a bound is written with `>=`, `>`, \
             `<=` or `<`"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "P{\"r\"}=? [F a]").2,
        "only `R` takes a reward structure `{...}`, not `P`"
    );
    assert_eq!(
        err_at(p, "R{0}=? [F a]").2,
        "reward structures are numbered from 1 (in the order of the model)"
    );
    assert_eq!(
        err_at(p, "R{x}=? [F a]").2,
        "expected a reward structure name in quotes, such as `\"cost\"`, or its number, found `x`"
    );
    assert_eq!(
        err_at(p, "P=? [F a {\"init\"}{avg}]").2,
        "expected `min` or `max` in a filter's `{...}`, found `avg`"
    );
    let list = "min, max, argmin, argmax, count, sum, avg, first, range, forall, exists, state, \
                print or printall";
    assert_eq!(
        err_at(p, "filter(median, P=? [F a])"),
        (
            1,
            8,
            format!("unknown filter operator `median`: expected {list}")
        )
    );
    assert_eq!(
        err_at(p, "filter(Max, P=? [F a])").2,
        format!("unknown filter operator `Max`: expected {list}")
    );
    assert_eq!(
        err_at(p, "filter(max, P=? [F a] \"init\")"),
        (
            1,
            23,
            "expected `,` or `)` to close the `filter(` at line 1, found `\"init\"`".into()
        )
    );
    assert_eq!(
        err_at(p, "multi(Pmax=? [F a], x>1)"),
        (
            1,
            21,
            "expected an objective of `multi`: a `P` or `R` query, such as `Pmax=? [F a]` or \
             `R{\"cost\"}<=10 [C]`, found `x`"
                .into()
        )
    );
    assert_eq!(
        err_at(p, "multi(Pmax=? [F a] P>=0.5 [F b])").2,
        "expected `,` and another objective, or `)` to close the `(` at line 1, found `P`"
    );
    let f = props("multi(Pmax=? [F a], P>=0.5 [(F b) & (G c)], R{\"r\"}<=3 [C<=5])");
    let ExprKind::Operator(op) = &f.properties[0].property.kind else {
        panic!()
    };
    let Operator::Multi { objectives } = &**op else {
        panic!()
    };
    assert_eq!(objectives.len(), 3);
    assert_eq!(
        err_at(p, "\"name\" P=? [F a]").2,
        "expected `;` or a line break after the property, found `P`"
    );
    assert_eq!(
        err_at(p, "const int k = 3\nP=? [F a]"),
        (
            2,
            1,
            "expected an operator or `;` after the value of the constant `k`, found `P`".into()
        )
    );
}

#[test]
fn the_whole_property_language_is_read() {
    let f = props(
        "P=? [ G \"a\" ]\nP=? [ X a ]\nP=? [ a W b ]\nP=? [ a R b ]\nP=? [ F>=3 \"a\" ]\n\
         P=? [ F[1,3] \"a\" ]\nP=? [ a U<3 b ]\nR=? [ C ]\nR=? [ I=5 ]\nR=? [ S ]\n\
         S=? [ \"a\" ]\nE [ F a ]\nA [ G<=2 a ]\nP=? [ F P>0.5 [ F a ] ]\nx > 1\n\
         1 - Pmax=? [ (F a) ]\n\"one\" + \"two\"\nfilter(argmax, P=? [F a])\n\
         filter(state, P=? [F a], x=1)\nP=? [ G=2 a ]\nP=? [ a U>1 b ]",
    );
    let ps = &f.properties;
    assert_eq!(ps.len(), 21);
    let steps = |i: usize| -> [Option<(String, bool)>; 2] {
        let b = match query(&ps[i]).1 {
            Path::Eventually { bound, .. }
            | Path::Globally { bound, .. }
            | Path::Until { bound, .. } => bound.clone().expect("a bound"),
            other => panic!("{other:?}"),
        };
        let show = |x: Option<(Expr, bool)>| x.map(|(e, strict)| (sx(&e), strict));
        [show(b.from), show(b.to)]
    };
    assert!(matches!(
        query(&ps[0]).1,
        Path::Globally { bound: None, .. }
    ));
    assert!(matches!(query(&ps[1]).1, Path::Next { .. }));
    assert!(matches!(
        query(&ps[2]).1,
        Path::Until {
            op: Temporal::WeakUntil,
            ..
        }
    ));
    assert!(matches!(
        query(&ps[3]).1,
        Path::Until {
            op: Temporal::Release,
            ..
        }
    ));
    assert_eq!(steps(4), [Some(("3".into(), false)), None]);
    assert_eq!(
        steps(5),
        [Some(("1".into(), false)), Some(("3".into(), false))]
    );
    assert_eq!(steps(6), [None, Some(("3".into(), true))]);
    assert!(matches!(query(&ps[7]).1, Path::Cumulative { bound: None }));
    assert!(matches!(query(&ps[8]).1, Path::Instant { at } if sx(at) == "5"));
    assert!(matches!(query(&ps[9]).1, Path::LongRun));
    assert!(matches!(
        query(&ps[10]),
        (Query::Steady(Opt::None), Path::Steady { .. })
    ));
    let quantified = |i: usize| match &ps[i].property.kind {
        ExprKind::Operator(o) => match &**o {
            Operator::Quantified { all, .. } => *all,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    assert!(!quantified(11));
    assert!(quantified(12));
    // Nested: the target of the outer path is itself an operator.
    let Path::Eventually { target, .. } = query(&ps[13]).1 else {
        panic!()
    };
    assert!(matches!(target.kind, ExprKind::Operator(_)));
    assert_eq!(sx(&ps[14].property), "(> x 1)");
    let ExprKind::Binary(BinOp::Sub, _, right) = &ps[15].property.kind else {
        panic!("{:?}", ps[15].property)
    };
    assert!(matches!(right.kind, ExprKind::Operator(_)));
    assert_eq!(sx(&ps[16].property), "(+ \"one\" \"two\")");
    assert_eq!(filter_of(&ps[17].property).0, FilterOp::ArgMax);
    // PRISM's older filters inside a query.
    let f = props("P=? [ F a {\"init\"} ]\nP=? [ F a {x>1}{min} ]\nP=? [ F a {true}{max}{min} ]");
    let ops: Vec<FilterOp> = f
        .properties
        .iter()
        .map(|p| filter_of(&p.property).0)
        .collect();
    assert_eq!(ops, [FilterOp::First, FilterOp::Min, FilterOp::Range]);
    assert_eq!(
        sx(filter_of(&f.properties[1].property).2.unwrap()),
        "(> x 1)"
    );
    assert_eq!(filter_of(&ps[18].property).0, FilterOp::State);
    assert_eq!(
        steps(19),
        [Some(("2".into(), false)), Some(("2".into(), false))]
    );
    assert_eq!(steps(20), [Some(("1".into(), true)), None]);
}

// ----- Random expressions read back -------------------------------------------------

/// Binding strength of the level an expression is printed at (higher binds tighter),
/// following the table in `expr.rs`.
fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Ite(..) => 0,
        ExprKind::Binary(op, ..) => match op {
            BinOp::Implies => 1,
            BinOp::Iff => 2,
            BinOp::Or => 3,
            BinOp::And => 4,
            BinOp::Eq | BinOp::Ne => 6,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
            BinOp::Add | BinOp::Sub => 8,
            BinOp::Mul | BinOp::Div => 9,
        },
        ExprKind::Unary(UnOp::Not, _) => 5,
        ExprKind::Call(Func::Pow, _) => 10,
        ExprKind::Unary(UnOp::Neg, _) => 11,
        _ => 12,
    }
}

/// Prints `e` with parentheses only where the precedences need them (`pow` as `^`), or
/// around every operation when `full`.
fn print(e: &Expr, min: u8, full: bool) -> String {
    let inner = match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Real(_, t) => t.clone(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Label(l) => format!("\"{l}\""),
        ExprKind::Operator(_) => unreachable!("expressions of models have no operators"),
        ExprKind::Unary(UnOp::Neg, x) => format!("-{}", print(x, 11, full)),
        ExprKind::Unary(UnOp::Not, x) => format!("!{}", print(x, 5, full)),
        ExprKind::Binary(op, a, b) => {
            let l = level(e);
            let (lmin, rmin) = if *op == BinOp::Implies {
                (l + 1, l)
            } else {
                (l, l + 1)
            };
            format!(
                "{} {} {}",
                print(a, lmin, full),
                op.symbol(),
                print(b, rmin, full)
            )
        }
        ExprKind::Ite(c, a, b) => {
            format!(
                "{} ? {} : {}",
                print(c, 1, full),
                print(a, 0, full),
                print(b, 0, full)
            )
        }
        ExprKind::Call(Func::Pow, args) if args.len() == 2 => {
            format!(
                "{} ^ {}",
                print(&args[0], 11, full),
                print(&args[1], 10, full)
            )
        }
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(|a| print(a, 0, full)).collect();
            format!("{}({})", f.name(), args.join(", "))
        }
    };
    let atomic = level(e) == 12;
    if (full && !atomic) || level(e) < min {
        format!("({inner})")
    } else {
        inner
    }
}

fn node(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0i64..1000).prop_map(ExprKind::Int),
        prop::sample::select(vec!["0.5", "1e-3", ".25", "2.5E+2", "10.0"])
            .prop_map(|t| ExprKind::Real(t.parse().unwrap(), t.to_string())),
        any::<bool>().prop_map(ExprKind::Bool),
        prop::sample::select(vec!["x", "y", "z_1", "N", "_p", "min"])
            .prop_map(|n| ExprKind::Name(n.to_string())),
        prop::sample::select(vec!["goal", "init"]).prop_map(|n| ExprKind::Label(n.to_string())),
    ]
    .prop_map(node);
    leaf.prop_recursive(6, 64, 4, |inner| {
        let binops = prop::sample::select(vec![
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::And,
            BinOp::Or,
            BinOp::Implies,
            BinOp::Iff,
        ]);
        prop_oneof![
            (
                prop::sample::select(vec![UnOp::Neg, UnOp::Not]),
                inner.clone()
            )
                .prop_map(|(op, x)| node(ExprKind::Unary(op, Box::new(x)))),
            (binops, inner.clone(), inner.clone()).prop_map(|(op, a, b)| node(ExprKind::Binary(
                op,
                Box::new(a),
                Box::new(b)
            ))),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| node(ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)))),
            (
                prop::sample::select(vec![
                    Func::Min,
                    Func::Max,
                    Func::Floor,
                    Func::Ceil,
                    Func::Pow,
                    Func::Mod,
                    Func::Log
                ]),
                prop::collection::vec(inner, 1..4)
            )
                .prop_map(|(f, mut args)| {
                    let arity = match f {
                        Func::Floor | Func::Ceil => 1,
                        Func::Pow | Func::Mod | Func::Log => 2,
                        _ => args.len(),
                    };
                    while args.len() < arity {
                        args.push(args[0].clone());
                    }
                    args.truncate(arity);
                    node(ExprKind::Call(f, args))
                }),
        ]
    })
}

/// Every sub-expression's span holds text that reads back as that sub-expression.
fn check_spans(text: &str, e: &Expr) {
    let piece = &text[e.span.start..e.span.end];
    assert_eq!(ex(piece), sx(e), "span {:?} of {text:?}", e.span);
    match &e.kind {
        ExprKind::Unary(_, x) => check_spans(text, x),
        ExprKind::Binary(_, a, b) => {
            check_spans(text, a);
            check_spans(text, b);
        }
        ExprKind::Ite(c, a, b) => {
            check_spans(text, c);
            check_spans(text, a);
            check_spans(text, b);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| check_spans(text, a)),
        _ => {}
    }
}

proptest! {
    #[test]
    fn random_expressions_read_back(e in arb_expr()) {
        let minimal = print(&e, 0, false);
        let parsed = parse_expression(&minimal).map_err(|err| {
            TestCaseError::fail(format!("{minimal:?}: {}", err.message))
        })?;
        prop_assert_eq!(sx(&parsed), sx(&e), "{}", minimal);
        check_spans(&minimal, &parsed);
        let full = print(&e, 0, true);
        prop_assert_eq!(ex(&full), sx(&e), "{}", full);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse_model(&text);
        let _ = parse_properties(&text);
        let _ = parse_expression(&text);
    }

    #[test]
    fn prism_like_soup_never_panics(words in prop::collection::vec(prop::sample::select(vec![
        "dtmc", "mdp", "module", "endmodule", "M", "x", "[", "]", "(", ")", "'", "=", "->",
        ":", ";", "+", "&", "0.5", "1", "..", "init", "rewards", "endrewards", "\"a\"", "P",
        "=?", "F", "U", "<=", "filter", "min", ",", "{", "}", "?", "\n", "true", "const",
        "formula", "label", "global", "bool", "R", "C", "!", "-", "^", "func",
    ]), 0..60)) {
        let text = words.join(" ");
        for result in [parse_model(&text).err(), parse_properties(&text).err()].into_iter().flatten() {
            prop_assert!(result.span.start <= result.span.end && result.span.end <= text.len());
            prop_assert!(!result.message.is_empty());
        }
    }
}
