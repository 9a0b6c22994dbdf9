//! What the property tests share: a property checked on a model's text exactly and in
//! `f64`, and whether the `f64` value is within its bound of the exact one.

use std::sync::Arc;

use alea_core::Stop;
use alea_prism::check::Number;
use alea_prism::session::{given_constants, Loading, Quiet, Run, Settings, Source};

/// Checks `property` on the model `text` exactly and in `f64` (only the fair strategies
/// of an mdp counting when `fair`): the exact value, the `f64` one, and whether a bound
/// holds (the same in both).
pub fn check(text: &str, property: &str, fair: bool) -> (Number, Number, Option<bool>) {
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
            .unwrap_or_else(|f| panic!("{property} on\n{text}: {}", f.describe()))
            .checked
    };
    let (exact, float) = (run(true), run(false));
    assert_eq!(exact.holds, float.holds, "{property} on\n{text}");
    (
        exact.value.unwrap_or(Number::Exact(None)),
        float.value.unwrap_or(Number::Exact(None)),
        exact.holds,
    )
}

/// Whether the `f64` value is within its bound of the exact one.
pub fn within(exact: &Number, float: &Number) -> bool {
    let (Number::Exact(Some(q)), Number::Float { value, error_bound }) = (exact, float) else {
        return false;
    };
    let q = num_traits::ToPrimitive::to_f64(q).unwrap();
    (q - value).abs() <= error_bound + 1e-15
}
