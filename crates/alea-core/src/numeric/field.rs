//! Arithmetic modulo a prime below 2^31: the answers judges ask "modulo 998244353",
//! and the residues from which exact integers are rebuilt (see [`crt`]).
//!
//! A rational `a/b` maps to `a * b^-1 mod P` whenever `P` does not divide `b`, so a
//! solver run in the field gives the residue of the exact answer. The field has no
//! order: `compare` only recognises equal values.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigUint;

use crate::numeric::value::Value;

/// A residue modulo the prime `P` (below 2^31, so that sums of products fit in `u64`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fp<const P: u32>(u32);

/// The judges' prime, 998244353 = 119 * 2^23 + 1.
pub const JUDGE_PRIME: u32 = 998_244_353;

/// Residues modulo 998244353.
pub type ModP = Fp<JUDGE_PRIME>;

/// `base^exp mod p`.
pub fn pow_mod(base: u64, mut exp: u64, p: u32) -> u32 {
    let p = u64::from(p);
    let mut base = base % p;
    let mut result = 1 % p;
    while exp > 0 {
        if exp & 1 == 1 {
            result = result * base % p;
        }
        base = base * base % p;
        exp >>= 1;
    }
    result as u32
}

/// The inverse of `a` modulo the prime `p`, by Fermat; `None` for a multiple of `p`.
pub fn inverse_mod(a: u64, p: u32) -> Option<u32> {
    (!a.is_multiple_of(u64::from(p))).then(|| pow_mod(a, u64::from(p) - 2, p))
}

impl<const P: u32> Fp<P> {
    /// The residue of `n`.
    pub fn new(n: u64) -> Self {
        Fp((n % u64::from(P)) as u32)
    }

    /// The residue as an integer in `0..P`.
    pub fn residue(self) -> u32 {
        self.0
    }

    /// The inverse, or `None` for zero.
    pub fn inverse(self) -> Option<Self> {
        inverse_mod(u64::from(self.0), P).map(Fp)
    }

    fn of_i64(n: i64) -> Self {
        let r = n.rem_euclid(i64::from(P));
        Fp(r as u32)
    }
}

impl<const P: u32> fmt::Display for Fp<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl<const P: u32> Value for Fp<P> {
    const NAME: &'static str = "mod-p";

    fn zero() -> Self {
        Fp(0)
    }
    fn one() -> Self {
        Fp(1 % P)
    }
    fn from_int(n: i64) -> Self {
        Self::of_i64(n)
    }
    /// Panics when `P` divides `den`: the rational has no residue.
    fn from_ratio(num: i64, den: u64) -> Self {
        let d = Fp::<P>::new(den)
            .inverse()
            .unwrap_or_else(|| panic!("{den} has no inverse modulo {P}"));
        Self::of_i64(num).mul(&d)
    }
    fn add(&self, other: &Self) -> Self {
        Fp(((u64::from(self.0) + u64::from(other.0)) % u64::from(P)) as u32)
    }
    fn sub(&self, other: &Self) -> Self {
        Fp(((u64::from(self.0) + u64::from(P) - u64::from(other.0)) % u64::from(P)) as u32)
    }
    fn mul(&self, other: &Self) -> Self {
        Fp((u64::from(self.0) * u64::from(other.0) % u64::from(P)) as u32)
    }
    /// Panics on a division by a residue of zero, which has no answer in the field.
    fn div(&self, other: &Self) -> Self {
        let inv = other
            .inverse()
            .unwrap_or_else(|| panic!("division by a multiple of {P}"));
        self.mul(&inv)
    }
    /// Equal residues compare equal; any other pair has no order.
    fn compare(&self, other: &Self) -> Option<Ordering> {
        (self == other).then_some(Ordering::Equal)
    }
    /// A residue is not a real number: always NaN.
    fn to_f64(&self) -> f64 {
        f64::NAN
    }
}

/// The primes below 2^31, largest first, `count` of them: moduli for [`crt`].
pub fn primes_below_2_31(count: usize) -> Vec<u32> {
    let is_prime = |n: u32| {
        n >= 2
            && (2..)
                .map(|d: u32| d)
                .take_while(|&d| u64::from(d) * u64::from(d) <= u64::from(n))
                .all(|d| !n.is_multiple_of(d))
    };
    (2..(1u32 << 31))
        .rev()
        .filter(|&n| is_prime(n))
        .take(count)
        .collect()
}

/// The integer in `0..product(moduli)` with the given residues (Garner's method).
/// The moduli must be distinct primes.
pub fn crt(residues: &[u32], moduli: &[u32]) -> BigUint {
    assert_eq!(residues.len(), moduli.len(), "one residue per modulus");
    // Mixed-radix digits: x = d0 + d1 m0 + d2 m0 m1 + ...
    let mut digits: Vec<u32> = Vec::with_capacity(moduli.len());
    for (i, (&r, &m)) in residues.iter().zip(moduli).enumerate() {
        // x mod m from the digits so far, then the next digit.
        let mut value = 0u64;
        let mut radix = 1u64;
        for (j, &d) in digits.iter().enumerate() {
            value = (value + u64::from(d) * radix) % u64::from(m);
            radix = radix * u64::from(moduli[j]) % u64::from(m);
        }
        let diff = (u64::from(r) + u64::from(m) - value) % u64::from(m);
        let inv = inverse_mod(radix, m).expect("distinct primes");
        digits.push((diff * u64::from(inv) % u64::from(m)) as u32);
        debug_assert!(i < moduli.len());
    }
    let mut x = BigUint::from(0u32);
    for (d, &m) in digits.iter().zip(moduli).rev() {
        x = x * m + *d;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    type F7 = Fp<7>;

    #[test]
    fn field_arithmetic() {
        let a = F7::from_int(-1);
        assert_eq!(a.residue(), 6);
        assert_eq!(a.add(&F7::from_int(3)).residue(), 2);
        assert_eq!(F7::from_int(2).sub(&F7::from_int(5)).residue(), 4);
        assert_eq!(F7::from_ratio(1, 3).mul(&F7::from_int(3)), F7::one());
        assert_eq!(F7::from_int(5).div(&F7::from_int(5)), F7::one());
        assert_eq!(F7::from_int(0).inverse(), None);
        assert_eq!(
            F7::from_int(3).compare(&F7::from_int(10)),
            Some(Ordering::Equal)
        );
        assert_eq!(F7::from_int(3).compare(&F7::from_int(4)), None);
        // 9/7 modulo the judges' prime, as the judges print it.
        assert_eq!(ModP::from_ratio(9, 7).residue(), 713_031_682);
        assert_eq!(pow_mod(3, JUDGE_PRIME as u64 - 1, JUDGE_PRIME), 1);
    }

    /// Throws of a die with `sides` sides until the running total reaches `target`:
    /// chance nodes with unequal weights (the overshoot is merged), one point per throw.
    struct Throws {
        sides: u64,
        target: u64,
        choose: bool,
    }

    impl crate::model::Model for Throws {
        type State = u64;
        fn start(&self) -> u64 {
            0
        }
        fn expand(&self, total: u64, out: &mut crate::model::Expansion<u64>) {
            if total >= self.target {
                out.terminal(0);
            } else if self.choose && total == 1 {
                out.choice(crate::model::Pick::Max, 1);
                out.edge(total + 1);
                out.edge(total + 2);
            } else {
                out.chance(1);
                for face in 1..=self.sides {
                    out.weighted((total + face).min(self.target), 1 + face % 2);
                }
            }
        }
    }

    #[test]
    fn solvers_run_in_the_field() {
        use crate::numeric::value::Exact;
        let model = Throws {
            sides: 5,
            target: 12,
            choose: false,
        };
        let exact = crate::solve::<_, Exact>(&model, &Default::default()).unwrap();
        let field = crate::solve::<_, ModP>(&model, &Default::default()).unwrap();
        let q = exact.start_value();
        let num: i64 = q.numer().try_into().unwrap();
        let den: u64 = q.denom().try_into().unwrap();
        assert_eq!(*field.start_value(), ModP::from_ratio(num, den));
        // A maximising choice needs an order the field does not have.
        let choosing = Throws {
            choose: true,
            ..model
        };
        assert_eq!(
            crate::solve::<_, ModP>(&choosing, &Default::default()).err(),
            Some(crate::Error::Unordered("mod-p"))
        );
    }

    #[test]
    #[should_panic(expected = "no inverse modulo 7")]
    fn a_denominator_the_prime_divides_has_no_residue() {
        F7::from_ratio(1, 14);
    }

    #[test]
    fn chinese_remainders_rebuild_big_integers() {
        let moduli = primes_below_2_31(5);
        assert_eq!(moduli[0], 2_147_483_647);
        assert!(moduli.windows(2).all(|w| w[0] > w[1]));
        let x: BigUint = BigUint::from(3u32).pow(90) + 12345u32; // about 143 bits
        let residues: Vec<u32> = moduli
            .iter()
            .map(|&m| (&x % m).try_into().unwrap())
            .collect();
        assert_eq!(crt(&residues, &moduli), x);
        assert_eq!(crt(&[0, 0], &moduli[..2]), BigUint::from(0u32));
    }
}
