//! Arithmetic as a type parameter: one solver serves floating point and exact rationals
//! (and, through the same trait, a prime field, whose values have no order).

use std::cmp::Ordering;
use std::fmt::Debug;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

/// The numbers a solver computes with.
///
/// Methods take references so that big-number backends do not clone on every operation.
pub trait Value: Clone + Debug + Send + Sync + 'static {
    /// A short name for messages (`f64`, `exact`).
    const NAME: &'static str;

    fn zero() -> Self;
    fn one() -> Self;
    fn from_int(n: i64) -> Self;
    /// `num / den`; `den` is never 0.
    fn from_ratio(num: i64, den: u64) -> Self;
    fn add(&self, other: &Self) -> Self;
    fn sub(&self, other: &Self) -> Self;
    fn mul(&self, other: &Self) -> Self;
    /// `self / other`; callers never divide by zero.
    fn div(&self, other: &Self) -> Self;
    /// The order of two values, or `None` when the arithmetic has none (a prime field):
    /// then a maximising or minimising choice cannot be evaluated.
    fn compare(&self, other: &Self) -> Option<Ordering>;
    /// The nearest `f64`, for display and for comparing backends.
    fn to_f64(&self) -> f64;
}

impl Value for f64 {
    const NAME: &'static str = "f64";

    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn from_int(n: i64) -> Self {
        n as f64
    }
    fn from_ratio(num: i64, den: u64) -> Self {
        num as f64 / den as f64
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn div(&self, other: &Self) -> Self {
        self / other
    }
    fn compare(&self, other: &Self) -> Option<Ordering> {
        self.partial_cmp(other)
    }
    fn to_f64(&self) -> f64 {
        *self
    }
}

/// Exact rational numbers over big integers, always in lowest terms.
pub type Exact = BigRational;

impl Value for Exact {
    const NAME: &'static str = "exact";

    fn zero() -> Self {
        <BigRational as num_traits::Zero>::zero()
    }
    fn one() -> Self {
        <BigRational as num_traits::One>::one()
    }
    fn from_int(n: i64) -> Self {
        BigRational::from_integer(BigInt::from(n))
    }
    fn from_ratio(num: i64, den: u64) -> Self {
        BigRational::new(BigInt::from(num), BigInt::from(den))
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn div(&self, other: &Self) -> Self {
        self / other
    }
    fn compare(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    fn to_f64(&self) -> f64 {
        // Dividing the integer parts directly overflows for huge numerators and
        // denominators: keep each one's top 64 bits and put the difference of the shifts
        // back as a power of two, in two halves so that neither overflows on its own.
        if let Some(f) = direct_f64(self) {
            return f;
        }
        let num = self.numer().abs();
        let den = self.denom();
        let shift_n = num.bits().saturating_sub(64);
        let shift_d = den.bits().saturating_sub(64);
        let n = (num >> shift_n).to_f64().unwrap_or(f64::INFINITY);
        let d = (den >> shift_d).to_f64().unwrap_or(f64::INFINITY);
        let exponent = shift_n as i64 - shift_d as i64;
        let half = (exponent / 2).clamp(-4000, 4000) as i32;
        let rest = (exponent - exponent / 2).clamp(-4000, 4000) as i32;
        let f = n / d * 2f64.powi(half) * 2f64.powi(rest);
        if self.is_negative() {
            -f
        } else {
            f
        }
    }
}

/// `numer / denom` in floating point when both convert without overflow.
fn direct_f64(q: &Exact) -> Option<f64> {
    let n = q.numer().to_f64()?;
    let d = q.denom().to_f64()?;
    (n.is_finite() && d.is_finite()).then(|| n / d)
}

/// A rational as `p/q` in lowest terms, always with the slash (`0/1`, `1/1`), so that
/// scripts can split every answer the same way.
pub fn fraction(q: &Exact) -> String {
    format!("{}/{}", q.numer(), q.denom())
}

/// A rational as a decimal with `places` digits after the point, rounded half away from
/// zero: for numbers too large or too precise for `f64`.
pub fn decimal(q: &Exact, places: u32) -> String {
    use num_integer::Integer;
    let scaled = q * BigInt::from(10).pow(places);
    let (mut digits, rest) = scaled.numer().abs().div_rem(scaled.denom());
    if rest * 2 >= *scaled.denom() {
        digits += 1;
    }
    let mut text = format!("{digits:0>width$}", width = places as usize + 1);
    if places > 0 {
        text.insert(text.len() - places as usize, '.');
    }
    if q.is_negative() && digits.bits() > 0 {
        text.insert(0, '-');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_arithmetic_stays_reduced() {
        let a = Exact::from_ratio(1, 3);
        let b = Exact::from_ratio(1, 6);
        assert_eq!(fraction(&a.add(&b)), "1/2");
        assert_eq!(fraction(&a.sub(&a)), "0/1");
        assert_eq!(fraction(&a.div(&a)), "1/1");
        assert_eq!(fraction(&Exact::from_ratio(-4, 6)), "-2/3");
    }

    #[test]
    fn decimals_of_exact_values() {
        assert_eq!(decimal(&Exact::from_ratio(8, 7), 15), "1.142857142857143");
        assert_eq!(
            decimal(&Exact::from_ratio(216, 215), 15),
            "1.004651162790698"
        );
        assert_eq!(decimal(&Exact::from_ratio(-1, 8), 2), "-0.13");
        assert_eq!(decimal(&Exact::from_ratio(1, 3), 0), "0");
        assert_eq!(decimal(&Exact::from_int(0), 3), "0.000");
        let huge = BigRational::from_integer(BigInt::from(10).pow(400)) + Exact::from_ratio(1, 4);
        let text = decimal(&huge, 1);
        assert!(text.starts_with("1000") && text.ends_with(".3") && text.len() == 403);
    }

    #[test]
    fn exact_to_f64_handles_huge_terms() {
        let big = BigInt::from(10).pow(400);
        let q = BigRational::new(big.clone() * 2, big * 3);
        assert!((Value::to_f64(&q) - 2.0 / 3.0).abs() < 1e-15);
        let tiny = BigRational::new(BigInt::from(-1), BigInt::from(10).pow(400));
        assert_eq!(Value::to_f64(&tiny), -0.0);
        // Unbalanced terms: about 2^900 and 2^-900, both finite.
        let two = BigInt::from(2);
        let q = BigRational::new(two.pow(2000), two.pow(1100) + 1);
        let f = Value::to_f64(&q);
        assert!((f / 2f64.powi(900) - 1.0).abs() < 1e-15, "{f}");
        let r = Value::to_f64(&q.recip());
        assert!((r * 2f64.powi(900) - 1.0).abs() < 1e-15, "{r}");
    }

    #[test]
    fn f64_backend_matches_exact_on_simple_values() {
        let q = Exact::from_ratio(7, 8).mul(&Exact::from_int(3));
        let f = f64::from_ratio(7, 8).mul(&f64::from_int(3));
        assert_eq!(Value::to_f64(&q), f);
        assert_eq!(
            <f64 as Value>::zero().compare(&<f64 as Value>::one()),
            Some(Ordering::Less)
        );
    }
}
