//! Sums of products `p * v` in rationals, as the exact solvers take them (a choice's
//! value: its successors' values weighted by probability), without most of the greatest
//! common divisors of long numbers that adding and multiplying fractions one by one
//! costs (they dominate the exact solvers' time otherwise).
//!
//! - A product of a probability with a small numerator and denominator (most models') and
//!   a reduced value is reduced by remainders by those small numbers alone (see [`times`]).
//! - The sum is kept over one running denominator: a term whose denominator divides it
//!   (or that it divides) is added by one multiplication; only other terms take a greatest
//!   common divisor; the result is reduced once, at the end.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use crate::value::Exact;

/// `p * v`, reduced, for `p` a probability (nonnegative) and `v` reduced.
pub(crate) fn times(p: &Exact, v: &Exact) -> Exact {
    let (Some(a), Some(b)) = (p.numer().to_u64(), p.denom().to_u64()) else {
        return p * v;
    };
    if a == 0 || v.is_zero() {
        return Exact::zero();
    }
    // `v = n/d` and `p = a/b` are reduced, so the product's common factors are those of
    // `n` with `b` and of `a` with `d`; dividing them out leaves it reduced.
    let small =
        |x: &BigInt, m: u64| -> u64 { (x % m).to_u64().expect("a remainder by a u64 fits in one") };
    let g1 = small(v.numer(), b).gcd(&b);
    let g2 = small(v.denom(), a).gcd(&a);
    let numer = v.numer() / g1 * (a / g2);
    let denom = v.denom() / g2 * (b / g1);
    Exact::new_raw(numer, denom)
}

/// A sum of rationals over one running denominator.
pub(crate) struct Sum {
    numer: BigInt,
    denom: BigInt,
}

impl Sum {
    pub fn new(start: &Exact) -> Sum {
        Sum {
            numer: start.numer().clone(),
            denom: start.denom().clone(),
        }
    }

    /// Adds `p * v` (`p` a probability, `v` reduced).
    pub fn add_product(&mut self, p: &Exact, v: &Exact) {
        if v.is_zero() {
            return;
        }
        self.add(times(p, v));
    }

    pub fn add(&mut self, term: Exact) {
        let (n, d) = term.into_raw();
        if n.is_zero() {
            return;
        }
        if d == self.denom {
            self.numer += n;
        } else if (&self.denom % &d).is_zero() {
            self.numer += n * (&self.denom / &d);
        } else if (&d % &self.denom).is_zero() {
            self.numer = &self.numer * (&d / &self.denom) + n;
            self.denom = d;
        } else {
            let g = self.denom.gcd(&d);
            let (dg, sg) = (&d / &g, &self.denom / &g);
            self.numer = &self.numer * &dg + n * sg;
            self.denom *= dg;
        }
    }

    /// The sum, reduced.
    pub fn finish(self) -> Exact {
        Exact::new(self.numer, self.denom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(n.into(), d.into())
    }

    #[test]
    fn sums_and_products_equal_plain_fractions() {
        let values = [
            q(0, 1),
            q(1, 3),
            q(5, 12),
            q(7, 10),
            q(1, 1),
            q(9, 4),
            q(1, 1024),
        ];
        let probs = [q(1, 2), q(3, 10), q(2, 3), q(1, 7), q(0, 1), q(1, 1)];
        for p in &probs {
            for v in &values {
                let t = times(p, v);
                assert_eq!(t, p * v);
                // Reduced as built: equal fractions have equal parts.
                let plain = p * v;
                assert_eq!((t.numer(), t.denom()), (plain.numer(), plain.denom()));
            }
        }
        for start in &values {
            let mut sum = Sum::new(start);
            let mut plain = start.clone();
            for (p, v) in probs.iter().zip(values.iter().rev()) {
                sum.add_product(p, v);
                plain += p * v;
            }
            assert_eq!(sum.finish(), plain);
        }
    }
}
