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
//! - Greatest common divisors themselves ([`gcd`]) of numbers of up to 128 bits by a
//!   binary loop in machine integers: the big-integer crate's binary algorithm allocates
//!   at every shift (longer numbers are left to it).
//! - Products and sums of two fractions ([`mul`], [`add`]) take the greatest common
//!   divisors of the smaller parts only (cross-cancelling; Knuth's sum), as the
//!   elimination needs them.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, PrimInt, ToPrimitive, Zero};

use crate::numeric::value::Exact;

/// `p * v`, reduced, for `p` a probability (nonnegative) and `v` reduced (of any sign).
pub(crate) fn times(p: &Exact, v: &Exact) -> Exact {
    let (Some(a), Some(b)) = (p.numer().to_u64(), p.denom().to_u64()) else {
        return p * v;
    };
    if a == 0 || v.is_zero() {
        return Exact::zero();
    }
    // `v = n/d` and `p = a/b` are reduced, so the product's common factors are those of
    // `n` with `b` and of `a` with `d`; dividing them out leaves it reduced.
    let small = |x: &BigInt, m: u64| -> u64 {
        (x.magnitude() % m)
            .to_u64()
            .expect("a remainder by a u64 fits in one")
    };
    let g1 = small(v.numer(), b).gcd(&b);
    let g2 = small(v.denom(), a).gcd(&a);
    let numer = v.numer() / g1 * (a / g2);
    let denom = v.denom() / g2 * (b / g1);
    Exact::new_raw(numer, denom)
}

/// The greatest common divisor of two machine integers, by the binary algorithm.
fn binary_gcd<T: PrimInt>(mut a: T, mut b: T) -> T {
    if a.is_zero() || b.is_zero() {
        return a | b;
    }
    let shift = (a | b).trailing_zeros() as usize;
    a = a >> a.trailing_zeros() as usize;
    loop {
        b = b >> b.trailing_zeros() as usize;
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b = b - a;
        if b.is_zero() {
            return a << shift;
        }
    }
}

/// The greatest common divisor of the magnitudes of `a` and `b` (nonnegative; 0 only
/// when both are 0).
pub(crate) fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    BigInt::from_biguint(Sign::Plus, gcd_magnitudes(a.magnitude(), b.magnitude()))
}

fn gcd_magnitudes(a: &BigUint, b: &BigUint) -> BigUint {
    // Most divisors met are of a word or two: a machine loop; longer ones by the
    // crate's algorithm.
    if let (Some(x), Some(y)) = (a.to_u64(), b.to_u64()) {
        return BigUint::from(binary_gcd(x, y));
    }
    match (a.to_u128(), b.to_u128()) {
        (Some(x), Some(y)) => BigUint::from(binary_gcd(x, y)),
        _ => a.gcd(b),
    }
}

/// `n / d` in lowest terms (`d` nonzero).
pub(crate) fn reduced(n: BigInt, d: BigInt) -> Exact {
    let (n, d) = if d.sign() == Sign::Minus {
        (-n, -d)
    } else {
        (n, d)
    };
    if n.is_zero() {
        return Exact::zero();
    }
    let g = gcd(&n, &d);
    if g.is_one() {
        Exact::new_raw(n, d)
    } else {
        Exact::new_raw(n / &g, d / g)
    }
}

/// `x * y`, reduced, cancelling across before multiplying: `gcd(a, d)` and `gcd(c, b)`
/// for `a/b * c/d` are of the parts, not of the products.
pub(crate) fn mul(x: &Exact, y: &Exact) -> Exact {
    if x.is_zero() || y.is_zero() {
        return Exact::zero();
    }
    let (a, b, c, d) = (x.numer(), x.denom(), y.numer(), y.denom());
    let g1 = gcd(a, d);
    let g2 = gcd(c, b);
    let (numer, denom) = match (g1.is_one(), g2.is_one()) {
        (true, true) => (a * c, b * d),
        (false, true) => (a / &g1 * c, b * (d / &g1)),
        (true, false) => (a * (c / &g2), b / &g2 * d),
        (false, false) => (a / &g1 * (c / &g2), b / &g2 * (d / &g1)),
    };
    Exact::new_raw(numer, denom)
}

/// `x + y`, reduced (Knuth's way: with `g = gcd(b, d)`, the sum's common factors are
/// those of its numerator with `g`).
pub(crate) fn add(x: &Exact, y: &Exact) -> Exact {
    if x.is_zero() {
        return y.clone();
    }
    if y.is_zero() {
        return x.clone();
    }
    let (a, b, c, d) = (x.numer(), x.denom(), y.numer(), y.denom());
    if b == d {
        return reduced(a + c, b.clone());
    }
    let g = gcd(b, d);
    if g.is_one() {
        // Coprime denominators: a prime of `b d` divides exactly one term of `a d + c b`.
        return Exact::new_raw(a * d + c * b, b * d);
    }
    let (bg, dg) = (b / &g, d / &g);
    let t = a * &dg + c * &bg;
    if t.is_zero() {
        return Exact::zero();
    }
    let g2 = gcd(&t, &g);
    if g2.is_one() {
        Exact::new_raw(t, bg * d)
    } else {
        Exact::new_raw(t / &g2, bg * (d / g2))
    }
}

/// `1 / (1 - x)` for `x < 1`, reduced: `1 - a/b = (b - a)/b` shares no factor with `b`.
pub(crate) fn leave(x: &Exact) -> Option<Exact> {
    let keep = x.denom() - x.numer();
    (keep.sign() == Sign::Plus).then(|| Exact::new_raw(x.denom().clone(), keep))
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
            let g = gcd(&self.denom, &d);
            let (dg, sg) = (&d / &g, &self.denom / &g);
            self.numer = &self.numer * &dg + n * sg;
            self.denom *= dg;
        }
    }

    /// The sum, reduced.
    pub fn finish(self) -> Exact {
        reduced(self.numer, self.denom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Integers of every size the solvers meet: a word, two, and far beyond, with
    /// shared factors made likely.
    fn big() -> impl Strategy<Value = BigInt> {
        (
            prop::collection::vec(any::<u64>(), 1..5),
            0u32..200,
            any::<bool>(),
        )
            .prop_map(|(words, twos, negative)| {
                let mut n = BigInt::zero();
                for w in words {
                    n = (n << 64) + BigInt::from(w);
                }
                // Common factors: powers of two and of small primes.
                n = (n + 1) * (BigInt::from(2).pow(twos % 70)) * BigInt::from(3u64.pow(twos % 20));
                if negative {
                    -n
                } else {
                    n
                }
            })
    }

    fn fraction() -> impl Strategy<Value = Exact> {
        (big(), big()).prop_map(|(n, d)| {
            let d = d.magnitude().clone();
            Exact::new(n, BigInt::from_biguint(Sign::Plus, d))
        })
    }

    proptest! {
        #[test]
        fn gcd_is_the_crates(a in big(), b in big()) {
            prop_assert_eq!(gcd(&a, &b), a.gcd(&b));
            prop_assert_eq!(gcd(&a, &BigInt::zero()), a.gcd(&BigInt::zero()));
        }

        #[test]
        fn products_and_sums_are_the_crates(x in fraction(), y in fraction()) {
            // Equal and in lowest terms: equal parts.
            let same = |q: Exact, r: Exact| (q.numer().clone(), q.denom().clone()) == (r.numer().clone(), r.denom().clone());
            prop_assert!(same(mul(&x, &y), &x * &y));
            prop_assert!(same(add(&x, &y), &x + &y));
            prop_assert!(same(add(&x, &-x.clone()), Exact::zero()));
            prop_assert!(same(add(&x, &x), &x + &x));
            prop_assert!(same(reduced(x.numer() * 6, x.denom() * -6), -x.clone()));
            let below = mul(&x, &x) / (mul(&x, &x) + Exact::one());
            prop_assert!(same(leave(&below).expect("below 1"), (Exact::one() - &below).recip()));
            prop_assert!(leave(&Exact::one()).is_none());
        }
    }

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
            q(-5, 12),
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
