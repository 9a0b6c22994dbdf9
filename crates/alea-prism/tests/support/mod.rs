//! What the property tests share: the text of a random model's commands and labels, a
//! property checked on a model's text exactly and in `f64`, and whether the `f64` value
//! is within its bound of the exact one.

use std::sync::Arc;

use proptest::prelude::*;

use alea_core::Stop;
use alea_prism::check::Number;
use alea_prism::session::{given_constants, Loading, Quiet, Run, Settings, Source};

/// Checks `property` on the model `text` exactly and in `f64` (only the fair strategies
/// of an mdp counting when `fair`): the exact value, the `f64` one, and whether a bound
/// holds (the same in both).
pub fn check(text: &str, property: &str, fair: bool) -> (Number, Number, Option<bool>) {
    try_check(text, property, fair).unwrap_or_else(|e| panic!("{property} on\n{text}: {e}"))
}

/// [`check`], or the error that both the exact and the `f64` check give.
pub fn try_check(
    text: &str,
    property: &str,
    fair: bool,
) -> Result<(Number, Number, Option<bool>), String> {
    let run = |exact: bool| {
        let mut loading = Loading::parse(Source::new("<model>", text.to_string())).unwrap();
        loading
            .add_properties(Source::new("<properties>", property), true)
            .unwrap();
        let session = Arc::new(
            loading
                .resolve(&given_constants(&[]).unwrap(), exact)
                .unwrap(),
        );
        let settings = Settings {
            exact,
            precision: 1e-12,
            max_states: 1000,
            prune: false,
            fair,
            weights: false,
            stop: Stop::default(),
        };
        let mut run = Run::explore(Arc::clone(&session), settings, &Quiet).unwrap();
        let id = session.property_ids()[0];
        run.check(id, &Quiet)
            .map(|answer| answer.checked)
            .map_err(|f| f.describe())
    };
    let (exact, float) = match (run(true), run(false)) {
        (Ok(exact), Ok(float)) => (exact, float),
        (Err(e), Err(f)) if e == f => return Err(e),
        (exact, float) => panic!("{property} on\n{text}: {exact:?} exactly, {float:?} in f64"),
    };
    assert_eq!(exact.holds, float.holds, "{property} on\n{text}");
    Ok((
        exact.value.unwrap_or(Number::Exact(None)),
        float.value.unwrap_or(Number::Exact(None)),
        exact.holds,
    ))
}

/// Whether the `f64` value is within its bound of the exact one.
pub fn within(exact: &Number, float: &Number) -> bool {
    let (Number::Exact(Some(q)), Number::Float { value, error_bound }) = (exact, float) else {
        return false;
    };
    let q = num_traits::ToPrimitive::to_f64(q).unwrap();
    (q - value).abs() <= error_bound + 1e-15
}

/// A random model's states: `choices[s]` lists the choices of state `s`, each a list of
/// (successor, numerator) with probabilities numerator / 4.
pub type Choices = Vec<Vec<Vec<(usize, u32)>>>;

/// A random choice among `n` states: one successor with 4/4, or two with k/4 and (4-k)/4.
pub fn choice(n: usize) -> impl Strategy<Value = Vec<(usize, u32)>> {
    prop_oneof![
        (0..n).prop_map(|t| vec![(t, 4)]),
        (0..n, 0..n, 1u32..=3).prop_map(|(t, u, k)| vec![(t, k), (u, 4 - k)]),
    ]
}

/// The commands of `choices` over the variable `s`, each with the action `action(s)` of
/// its state (empty for none).
pub fn commands(choices: &Choices, action: impl Fn(usize) -> &'static str) -> String {
    let mut t = String::new();
    for (s, cs) in choices.iter().enumerate() {
        for choice in cs {
            let updates: Vec<String> = choice
                .iter()
                .map(|&(t, k)| format!("{k}/4 : (s'={t})"))
                .collect();
            t.push_str(&format!(
                "  [{}] s={s} -> {};\n",
                action(s),
                updates.join(" + ")
            ));
        }
    }
    t
}

/// The states of `v` as a condition on `s`.
pub fn states(v: &[bool]) -> String {
    let terms: Vec<String> = (0..v.len())
        .filter(|&s| v[s])
        .map(|s| format!("s={s}"))
        .collect();
    if terms.is_empty() {
        "false".into()
    } else {
        terms.join(" | ")
    }
}

/// The end of the module and the labels `a` and `b`.
pub fn labels(a: &[bool], b: &[bool]) -> String {
    format!(
        "endmodule\nlabel \"a\" = {};\nlabel \"b\" = {};\n",
        states(a),
        states(b)
    )
}
