//! Progress bars on stderr, shown only when stderr is a terminal so that scripts and
//! logs never see them.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Set by the web server: the commands it runs for requests draw no bars.
static SILENT: AtomicBool = AtomicBool::new(false);

/// No bars from now on in this process.
pub fn silence() {
    SILENT.store(true, Ordering::Relaxed);
}

/// A bar counting `len` items of `what`; hidden when stderr is not a terminal.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    if SILENT.load(Ordering::Relaxed) || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A spinner with a message, for work of unknown length; hidden as [`bar`] is.
pub fn spinner(message: &str) -> ProgressBar {
    if SILENT.load(Ordering::Relaxed) || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}") {
        bar.set_style(style);
    }
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
