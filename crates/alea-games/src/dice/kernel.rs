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

/// The same pass in exact arithmetic, in integers: every value is kept as a numerator
/// over a power of the number of outcomes `T`, so no step needs a gcd; the one fraction
/// is reduced at the end.
///
/// From counter `c` at most `e_c = ceil((limit - c + 1) / s_min)` throws without a reset
/// end the game (`s_min` the least sum), so `A_c` and `M_c` are multiples of `T^-e_c`:
/// `A_c = a_c / T^e_c`, `M_c = m_c / T^e_c`, with `e = 0` past the limit (`a = 0`, `m = 1`).
/// Then `a_c = T^e_c + sum_s w_s a_{c+s} T^(e_c - 1 - e_{c+s})`, likewise `m_c` without the
/// first term, and `E_0 = a_0 / m_0`. The sums are grouped by their power of `T` and the
/// groups combined by Horner's rule, so every step multiplies a big number by a machine
/// word only: the cost is linear in the size of the numbers.
pub fn expected_throws_exact(throw: &Throw, limit: u64) -> alea_core::Exact {
    use num_bigint::BigInt;
    use num_rational::BigRational;
    use num_traits::Zero;

    let s_min = throw.sums.first().map_or(1, |&(s, _)| s).max(1);
    let exponent = |x: u64| -> u64 {
        if x > limit {
            0
        } else {
            (limit - x + 1).div_ceil(s_min)
        }
    };
    let t = throw.total;
    let span = throw.max_sum() as usize + 1;
    let mut a: Vec<BigInt> = vec![BigInt::zero(); span];
    let mut m: Vec<BigInt> = vec![BigInt::from(1); span];
    // T^e_c, kept up to date as c goes down (e_c only grows).
    let mut t_power = BigInt::from(1);
    let mut t_exponent = 0u64;
    let groups = (throw.max_sum() / s_min + 1) as usize;
    let (mut group_a, mut group_m) = (vec![BigInt::zero(); groups], vec![BigInt::zero(); groups]);
    let mut c = limit;
    loop {
        let e = exponent(c);
        while t_exponent < e {
            t_power *= t;
            t_exponent += 1;
        }
        group_a
            .iter_mut()
            .chain(group_m.iter_mut())
            .for_each(BigInt::set_zero);
        let mut top = 0;
        for &(s, w) in &throw.sums {
            let slot = ((c as usize % span) + s as usize) % span;
            let d = (e - 1 - exponent(c + s)) as usize;
            top = top.max(d);
            group_a[d] += &a[slot] * w;
            group_m[d] += &m[slot] * w;
        }
        let (mut sum_a, mut sum_m) = (BigInt::zero(), BigInt::zero());
        for d in (0..=top).rev() {
            sum_a = sum_a * t + &group_a[d];
            sum_m = sum_m * t + &group_m[d];
        }
        sum_a += &t_power;
        if c == 0 {
            return BigRational::new(sum_a, sum_m);
        }
        let slot = c as usize % span;
        a[slot] = sum_a;
        m[slot] = sum_m;
        c -= 1;
    }
}
