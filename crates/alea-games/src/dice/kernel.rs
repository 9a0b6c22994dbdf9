//! The expected number of throws in `f64` by one backward pass over the counter,
//! linear in the limit and with memory for one throw's largest sum only.
//!
//! Every counter's expectation is `E_c = A_c + B_c E_0` (`B_c` the probability of being
//! reset before the end). The textbook answer `E_0 = A_0 / (1 - B_0)` loses digits when a
//! reset is nearly certain; this pass carries `M_c = 1 - B_c`, the probability of
//! finishing without a reset, by its own recurrence instead, so no step subtracts:
//! `A_c = 1 + sum_s p_s A_{c+s}`, `M_c = sum_s p_s M_{c+s}` (with `A = 0`, `M = 1` past
//! the limit), and `E_0 = A_0 / M_0`.

use super::rules::Throw;

/// What the pass found: the expectation, and whether `f64` could hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expectation {
    pub expected: f64,
    /// The probability of finishing from 0 without a reset, as computed.
    pub no_reset: f64,
}

impl Expectation {
    /// Whether the figure can be trusted: the probability of finishing without a reset
    /// did not underflow and the expectation is a finite number. The pass subtracts
    /// nothing, so rounding alone costs at most a few units in the last place per throw
    /// of the longest game; only the range of `f64` can fail it.
    pub fn trusted(&self) -> bool {
        self.no_reset.is_normal() && self.expected.is_finite()
    }
}

/// The expected number of throws from counter 0.
pub fn expected_throws(throw: &Throw, limit: u64) -> Expectation {
    let probabilities: Vec<(usize, f64)> = throw
        .sums
        .iter()
        .map(|&(s, w)| (s as usize, w as f64 / throw.total as f64))
        .collect();
    // A ring of the next `span` counters' values: c + s for s <= max sum.
    let span = throw.max_sum() as usize + 1;
    let mut a = vec![0.0f64; span];
    let mut m = vec![1.0f64; span];
    // Counters above the limit: A = 0, M = 1, which the ring holds at start.
    let mut c = limit;
    loop {
        let mut sum_a = 1.0;
        let mut sum_m = 0.0;
        for &(s, p) in &probabilities {
            // The ring slot of counter c + s; past the limit it still holds 0 and 1.
            let slot = ((c as usize % span) + s) % span;
            sum_a += p * a[slot];
            sum_m += p * m[slot];
        }
        let slot = c as usize % span;
        a[slot] = sum_a;
        m[slot] = sum_m;
        if c == 0 {
            return Expectation {
                expected: sum_a / sum_m,
                no_reset: sum_m,
            };
        }
        c -= 1;
    }
}
