//! How numbers and tables are printed: decimals from floating point, fractions from
//! exact arithmetic, and columns as wide as their widest entry (fractions can be long).

use std::io::Write;

use alea_core::{fraction, Exact, Value};

/// A number as text: `places` decimals, or the reduced fraction for exact values.
pub trait Shown: Value {
    fn text(&self, places: usize) -> String;
    /// The fraction `p/q` when the arithmetic is exact (JSON adds it beside the f64).
    fn exact_text(&self) -> Option<String>;
}

impl Shown for f64 {
    fn text(&self, places: usize) -> String {
        format!("{self:.places$}")
    }
    fn exact_text(&self) -> Option<String> {
        None
    }
}

impl Shown for Exact {
    fn text(&self, _: usize) -> String {
        fraction(self)
    }
    fn exact_text(&self) -> Option<String> {
        Some(fraction(self))
    }
}

/// Writes `header` and `rows` indented by two spaces, every column but the last padded
/// to its widest entry.
pub fn table<const N: usize>(
    out: &mut dyn Write,
    header: [&str; N],
    rows: &[[String; N]],
) -> std::io::Result<()> {
    let header = header.map(String::from);
    let widths: [usize; N] = std::array::from_fn(|c| {
        rows.iter()
            .chain([&header])
            .map(|r| r[c].len())
            .max()
            .unwrap_or(0)
    });
    for row in [&header].into_iter().chain(rows) {
        let mut line = String::from(" ");
        for (c, cell) in row.iter().enumerate() {
            line.push(' ');
            if c + 1 < N {
                line.push_str(&format!("{cell:<w$} ", w = widths[c]));
            } else {
                line.push_str(cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
