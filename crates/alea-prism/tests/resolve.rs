//! Resolution of the test models: every model resolves (its open constants given values
//! of their types), its properties resolve in their scope, and the broken models fail
//! at the expected place.

use std::path::{Path, PathBuf};

use alea_prism::ast::{self, ExprKind, Operator, Type};
use alea_prism::parser::{parse_expression, parse_model, parse_properties};
use alea_prism::resolve::{resolve, Scope};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

/// A value of the right type for every constant declared without one.
fn open_constants(constants: &[ast::Constant]) -> Vec<(String, ast::Expr)> {
    constants
        .iter()
        .filter(|c| c.value.is_none())
        .map(|c| {
            let text = match c.ty {
                Type::Int => "1",
                Type::Double => "0.5",
                Type::Bool => "true",
            };
            (c.name.name.clone(), parse_expression(text).unwrap())
        })
        .collect()
}

/// The state formulas of a property's operators (a property with none is one itself).
fn expressions(p: &ast::Expr) -> Vec<&ast::Expr> {
    let ExprKind::Operator(o) = &p.kind else {
        return vec![p];
    };
    match &**o {
        Operator::Query { path, .. } | Operator::Quantified { path, .. } => match path {
            ast::Path::Eventually { target, .. }
            | ast::Path::Globally { target, .. }
            | ast::Path::Next { target }
            | ast::Path::Reach { target, .. }
            | ast::Path::Steady { target } => vec![target],
            ast::Path::Until { left, right, .. } => vec![left, right],
            ast::Path::Cumulative { .. } | ast::Path::Instant { .. } | ast::Path::LongRun => {
                vec![]
            }
            ast::Path::Ltl { formula, .. } => {
                let mut out = Vec::new();
                states_of(formula, &mut out);
                out
            }
        },
        Operator::Filter {
            property, states, ..
        } => {
            let mut out = expressions(property);
            out.extend(states);
            out
        }
        Operator::Multi { objectives } => objectives.iter().flat_map(expressions).collect(),
    }
}

/// The state formulas of a path of LTL.
fn states_of<'a>(f: &'a ast::Ltl, out: &mut Vec<&'a ast::Expr>) {
    match f {
        ast::Ltl::State(e) => out.push(e),
        ast::Ltl::Not(g) | ast::Ltl::Next(g) => states_of(g, out),
        ast::Ltl::Eventually(_, g) | ast::Ltl::Globally(_, g) => states_of(g, out),
        ast::Ltl::Binary(_, a, b) | ast::Ltl::Until(_, _, a, b) => {
            states_of(a, out);
            states_of(b, out);
        }
    }
}

#[test]
fn every_test_model_resolves() {
    let mut count = 0;
    for entry in std::fs::read_dir(models()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "prism") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let model = parse_model(&text).unwrap();
        let given = open_constants(&model.constants);
        let program = match resolve(&model, &given) {
            Ok(p) => p,
            Err(e) => panic!("{}", e.render(&path.display().to_string(), &text)),
        };
        assert!(!program.modules.is_empty());
        count += 1;
        let props_path = path.with_extension("props");
        let Ok(props_text) = std::fs::read_to_string(&props_path) else {
            continue;
        };
        let props = parse_properties(&props_text).unwrap();
        let given = open_constants(&props.constants);
        let scope = Scope::new(&program, &model, &props, &given)
            .unwrap_or_else(|e| panic!("{}", e.render("props", &props_text)));
        for named in &props.properties {
            for e in expressions(&named.property) {
                if let Err(e) = scope.state_formula(e) {
                    panic!(
                        "{}",
                        e.render(&props_path.display().to_string(), &props_text)
                    );
                }
            }
        }
    }
    assert!(count >= 10, "only {count} models");
}

#[test]
fn broken_models_fail_where_expected() {
    let cases = [
        ("unknown_name", 6, 23, "speed"),
        ("type_error", 6, 6, "bool"),
        ("missing_constant", 4, 11, "Horizon"),
        ("duplicate_variable", 11, 3, "count"),
        ("init_out_of_range", 5, 19, "range"),
    ];
    for (name, line, col, word) in cases {
        let path = models().join(format!("errors/{name}.prism"));
        let text = std::fs::read_to_string(&path).unwrap();
        let model = parse_model(&text).unwrap();
        let e = resolve(&model, &[]).expect_err(name);
        assert_eq!(e.line_col(&text), (line, col), "{name}: {}", e.message);
        assert!(e.message.contains(word), "{name}: {}", e.message);
    }
}
