//! PRISM models, property files and expressions from arbitrary text: each reader returns
//! a syntax tree or an error, never panics or overflows its stack, and an error's span
//! lies within the text.
#![no_main]

use alea_prism::parser::{parse_expression, parse_model, parse_properties};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let errors = [
        parse_model(text).err(),
        parse_properties(text).err(),
        parse_expression(text).err(),
    ];
    for error in errors.into_iter().flatten() {
        assert!(error.span.start <= error.span.end, "{error:?}");
        assert!(error.span.end <= text.len(), "{error:?}");
        assert!(!error.message.is_empty());
        // Rendering reads the line and column back from the span.
        let _ = error.render("input", text);
    }
});
