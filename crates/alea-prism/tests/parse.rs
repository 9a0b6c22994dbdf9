//! The PRISM readers through the crate's public interface: a model and its properties
//! as a user would write them, errors rendered as the command line shows them, and the
//! speed on a large model.

use alea_prism::ast::{ExprKind, FilterOp, ModelType, Module, Operator, Path, Query};
use alea_prism::parser::{parse_expression, parse_model, parse_properties};
use std::time::Instant;

/// A gambler with a bounded purse, choosing how much to bet.
const GAMBLER: &str = r#"
// The gambler's ruin, with a choice of stake.
mdp

const int GOAL = 10;
const double p = 0.49;  // probability of winning a bet

formula broke = money = 0;
label "rich" = money = GOAL;

module gambler
    money : [0..GOAL] init 5;

    [bet1] !broke & money < GOAL -> p : (money'=money+1) + 1-p : (money'=money-1);
    [bet2] money >= 2 & money <= GOAL-2 -> p : (money'=money+2) + 1-p : (money'=money-2);
    [stop] broke | money = GOAL -> true;
endmodule

rewards "bets"
    [bet1] true : 1;
    [bet2] true : 1;
endrewards
"#;

const GAMBLER_PROPS: &str = r#"
// Chances and costs
"win": Pmax=? [ F "rich" ]
Pmin=? [ !broke U<=20 "rich" ];
R{"bets"}min=? [ F "rich" | broke ]
filter(print, Pmax=? [ F "rich" ], money > 0)
"#;

#[test]
fn a_model_and_its_properties() {
    let model = parse_model(GAMBLER).unwrap();
    assert_eq!(model.kind, ModelType::Mdp);
    assert_eq!(model.constants.len(), 2);
    let Module::Defined { commands, .. } = &model.modules[0] else {
        panic!("a defined module")
    };
    assert_eq!(commands.len(), 3);
    assert_eq!(commands[0].updates.len(), 2);
    assert!(commands[2].updates[0].assigns.is_empty());

    let props = parse_properties(GAMBLER_PROPS).unwrap();
    assert_eq!(props.properties.len(), 4);
    assert_eq!(props.properties[0].name.as_deref(), Some("win"));
    assert_eq!(props.properties[0].text, r#"Pmax=? [ F "rich" ]"#);
    let operator = |i: usize| match &props.properties[i].property.kind {
        ExprKind::Operator(o) => o.as_ref().clone(),
        other => panic!("an operator: {other:?}"),
    };
    let Operator::Query { op, path, .. } = operator(1) else {
        panic!("a query")
    };
    assert!(matches!(op, Query::Probability(_)));
    assert!(matches!(path, Path::Until { bound: Some(_), .. }));
    assert!(matches!(
        operator(3),
        Operator::Filter {
            op: FilterOp::Print,
            states: Some(_),
            ..
        }
    ));
}

#[test]
fn values_from_the_command_line() {
    assert_eq!(parse_expression("3").unwrap().kind, ExprKind::Int(3));
    assert_eq!(
        parse_expression(" 0.25 ").unwrap().kind,
        ExprKind::Real(0.25, "0.25".into())
    );
    let e = parse_expression("3,").unwrap_err();
    assert_eq!(
        e.message,
        "expected an operator or the end of the expression, found `,`"
    );
}

#[test]
fn errors_render_with_the_place() {
    let text = "dtmc\nmodule M\n  x : [0..1] init 0;\n  [] x=0 -> (x'=1)\nendmodule\n";
    let e = parse_model(text).unwrap_err();
    let shown = e.render("m.pm", text);
    assert!(
        shown.contains("m.pm:5:1: expected `;` after the command, found `endmodule`"),
        "{shown}"
    );
    let text = "P=? [ F \"a\" & G \"b\" ]";
    let e = parse_properties(text).unwrap_err();
    assert_eq!(e.line_col(text), (1, 15));
}

#[test]
fn a_ten_thousand_line_model_reads_in_milliseconds() {
    let mut text = String::from("dtmc\nconst int N = 10000;\nmodule M\nx : [0..N] init 0;\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "  [a{i}] x={i} & x<N -> 0.25 : (x'=min(x+1, N)) + 0.75 : (x'=max(x-1, 0)); // step\n"
        ));
    }
    text.push_str("endmodule\n");
    // The best of a few runs, so that a busy machine does not fail the test.
    let best = (0..3)
        .map(|_| {
            let start = Instant::now();
            let model = parse_model(&text).unwrap();
            let took = start.elapsed();
            assert_eq!(model.modules.len(), 1);
            took
        })
        .min()
        .unwrap();
    eprintln!("10,000 lines in {best:?}");
    // About 60 ms here; the bound is loose so that a loaded machine does not fail it,
    // and still catches work that grows faster than the text.
    assert!(best.as_millis() < 1000, "{best:?}");
}
