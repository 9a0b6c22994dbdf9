//! Exact solution of a chain's linear system (see `elim`) by elimination modulo word-sized
//! primes, rational reconstruction, and an exact check of every equation.
//!
//! Eliminating in rationals, the intermediate fractions of a large component can be far
//! longer than the solution's (thousands of bits where the values have seventy), and their
//! greatest common divisors take nearly all the time. Modulo a prime every number is one
//! word: the same elimination (same order, same fill-in) runs in machine arithmetic, on
//! several primes at once, and the values are read back from their residues (Chinese
//! remainders, then the fraction of least size with that residue, sharing the
//! denominator found so far, as the values of one system mostly do).
//!
//! Why the result is exact: it is not trusted because of the primes. Every equation
//! `x_i = b_i + sum_j a_ij x_j` is checked in rationals with the reconstructed values, and
//! the system has one solution (`I - A` is nonsingular for a chain that leaves), so values
//! that satisfy it are the solution. When the primes do not carry enough bits, or one
//! divides a pivot (an unlucky prime), the caller is told (`None`) and eliminates in
//! rationals instead.

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::elim::{self, Field, Rows};
use super::rational::{self, Sum};
use crate::numeric::value::Exact;
use std::sync::OnceLock;

/// Primes just below 2^62 (the largest sixteen), so that Montgomery's reduction of a
/// product of two residues fits in 128 bits.
const PRIMES: [u64; 16] = [
    4611686018427387847,
    4611686018427387817,
    4611686018427387787,
    4611686018427387761,
    4611686018427387751,
    4611686018427387737,
    4611686018427387733,
    4611686018427387709,
    4611686018427387701,
    4611686018427387631,
    4611686018427387617,
    4611686018427387587,
    4611686018427387461,
    4611686018427387421,
    4611686018427387409,
    4611686018427387329,
];

/// A prime with its constants for Montgomery multiplication (`R = 2^64`): residues are
/// kept as `x R mod p`, and a product is reduced by multiplications and a shift instead of
/// a 128-bit division.
#[derive(Clone, Copy)]
struct Mont {
    p: u64,
    /// `-p^-1 mod 2^64`.
    neg_inv: u64,
    /// `R mod p`: one.
    one: u64,
    /// `R^2 mod p`: brings a plain residue into the form.
    r2: u64,
}

impl Mont {
    const fn new(p: u64) -> Mont {
        // Newton's iteration for the inverse modulo 2^64: `p` is its own inverse modulo 8,
        // and each step doubles the bits that are right.
        let mut inv = p;
        let mut i = 0;
        while i < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
            i += 1;
        }
        let one = ((1u128 << 64) % p as u128) as u64;
        let r2 = ((one as u128 * one as u128) % p as u128) as u64;
        Mont {
            p,
            neg_inv: inv.wrapping_neg(),
            one,
            r2,
        }
    }

    #[inline]
    fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + m as u128 * self.p as u128) >> 64) as u64;
        if u >= self.p {
            u - self.p
        } else {
            u
        }
    }

    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(a as u128 * b as u128)
    }

    #[inline]
    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.p {
            s - self.p
        } else {
            s
        }
    }

    fn encode(&self, x: u64) -> u64 {
        self.mul(x % self.p, self.r2)
    }

    fn decode(&self, x: u64) -> u64 {
        self.redc(x as u128)
    }

    /// The inverse, by Fermat (`x^(p-2)`); `None` for 0.
    fn inverse(&self, x: u64) -> Option<u64> {
        if x == 0 {
            return None;
        }
        let (mut base, mut e, mut out) = (x, self.p - 2, self.one);
        while e > 0 {
            if e & 1 == 1 {
                out = self.mul(out, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        Some(out)
    }

    /// The residue of an integer, in the form.
    fn of_int(&self, n: &BigInt) -> u64 {
        let plain = match n.to_i64() {
            Some(v) => v.rem_euclid(self.p as i64) as u64,
            None => {
                let r = (n % self.p)
                    .to_i64()
                    .expect("a remainder by a u64 fits in an i64");
                r.rem_euclid(self.p as i64) as u64
            }
        };
        self.encode(plain)
    }

    /// The residue of a fraction, in the form; `None` when the prime divides its
    /// denominator.
    fn of(&self, q: &Exact) -> Option<u64> {
        let d = self.inverse(self.of_int(q.denom()))?;
        Some(self.mul(self.of_int(q.numer()), d))
    }
}

const MONT: [Mont; 16] = {
    let mut out = [Mont::new(PRIMES[0]); 16];
    let mut i = 1;
    while i < 16 {
        out[i] = Mont::new(PRIMES[i]);
        i += 1;
    }
    out
};

/// A number modulo the first `K` primes.
#[derive(Clone, Copy)]
struct Residues<const K: usize>([u64; K]);

impl<const K: usize> Residues<K> {
    fn of(q: &Exact) -> Option<Self> {
        Residues([0; K]).per_prime(|m, _| m.of(q))
    }

    /// `f` of each residue with its prime's constants; `None` if one gives none.
    fn per_prime(&self, f: impl Fn(&Mont, u64) -> Option<u64>) -> Option<Self> {
        let mut out = [0; K];
        for ((o, &x), m) in out.iter_mut().zip(&self.0).zip(&MONT) {
            *o = f(m, x)?;
        }
        Some(Residues(out))
    }
}

impl<const K: usize> Field for Residues<K> {
    /// Residues are a few words: a merge's sorted walk and fresh row cost some eight
    /// times a dense update.
    const DENSE_PER_UNIT: usize = 8;
    fn zero() -> Self {
        Residues([0; K])
    }
    fn leave(&self) -> Option<Self> {
        self.per_prime(|m, x| m.inverse(m.add(m.one, m.p - x)))
    }
    fn times(&self, o: &Self) -> Self {
        let mut out = [0; K];
        for (((r, &a), &b), m) in out.iter_mut().zip(&self.0).zip(&o.0).zip(&MONT) {
            *r = m.mul(a, b);
        }
        Residues(out)
    }
    fn add(&mut self, o: Self) {
        for ((a, &b), m) in self.0.iter_mut().zip(&o.0).zip(&MONT) {
            *a = m.add(*a, b);
        }
    }
    fn scale(&mut self, by: &Self) {
        for ((a, &b), m) in self.0.iter_mut().zip(&by.0).zip(&MONT) {
            *a = m.mul(*a, b);
        }
    }
    fn recip(&self) -> Option<Self> {
        self.per_prime(|m, x| m.inverse(x))
    }
    fn vanishes(&self) -> bool {
        // Skipping a coefficient 0 in every residue changes no residue.
        self.0.iter().all(|&x| x == 0)
    }
}

/// Solves `x = b + A x` exactly (as `elim::solve` does in rationals), or `None` when the
/// primes do not suffice, or the elimination would hold more than `budget` coefficients
/// or write more than `work`: then the caller eliminates in rationals, or gives up.
pub(crate) fn solve(rows: &Rows, b: &[Exact], budget: usize, work: u64) -> Option<Vec<Exact>> {
    // About 250 bits first (values of up to about 120 bits over a shared denominator),
    // then about 1000.
    solve_with::<4>(rows, b, budget, work).or_else(|| solve_with::<16>(rows, b, budget, work))
}

fn solve_with<const K: usize>(
    rows: &Rows,
    b: &[Exact],
    budget: usize,
    work: u64,
) -> Option<Vec<Exact>> {
    let residue_rows = rows.map(Residues::<K>::of)?;
    let residue_b = b
        .iter()
        .map(Residues::<K>::of)
        .collect::<Option<Vec<_>>>()?;
    let x = elim::solve(residue_rows, residue_b, None, budget, &mut { work })?;
    let back = Reconstruct::get(K);
    let mut denominator = BigInt::one();
    let values = x
        .iter()
        .map(|r| back.fraction(r, &mut denominator))
        .collect::<Option<Vec<Exact>>>()?;
    satisfies(rows, b, &values).then_some(values)
}

/// Whether `x` satisfies every equation `x_i = b_i + sum_j a_ij x_j`, in rationals (the
/// `a_ij` are probabilities).
fn satisfies(rows: &Rows, b: &[Exact], x: &[Exact]) -> bool {
    rows.iter().zip(b).zip(x).all(|((row, b), xi)| {
        let mut sum = Sum::new(b);
        for (j, a) in row {
            sum.add_product(a, &x[*j as usize]);
        }
        sum.finish() == *xi
    })
}

/// Fractions from their residues modulo the first `k` primes.
struct Reconstruct {
    /// The product of the primes.
    modulus: BigInt,
    /// Half its bits: the fraction sought has numerator and denominator below
    /// `2^half`, so that it is the only one of its residue that small.
    half: u64,
    /// The Chinese-remainder weights: `c_i = 1 mod p_i`, `0 mod` the others.
    weights: Vec<BigInt>,
}

impl Reconstruct {
    /// The tables for the first `k` primes (4 or 16), computed once.
    fn get(k: usize) -> &'static Reconstruct {
        static TABLES: [OnceLock<Reconstruct>; 2] = [OnceLock::new(), OnceLock::new()];
        TABLES[usize::from(k > 4)].get_or_init(|| Reconstruct::new(k))
    }

    fn new(k: usize) -> Self {
        let modulus = PRIMES[..k]
            .iter()
            .fold(BigInt::one(), |acc, &p| acc * BigInt::from(p));
        let weights = PRIMES[..k]
            .iter()
            .map(|&p| {
                let p = BigInt::from(p);
                let rest = &modulus / &p;
                // `rest^(p-2) mod p` is its inverse modulo the prime `p`.
                let inv = (&rest % &p).modpow(&(&p - 2u32), &p);
                rest * inv % &modulus
            })
            .collect();
        let half = (modulus.bits() - 1) / 2;
        Reconstruct {
            modulus,
            half,
            weights,
        }
    }

    /// The fraction of `r`, given that the values met so far share `denominator` (which
    /// grows when this one needs more); `None` when there is none small enough.
    fn fraction<const K: usize>(&self, r: &Residues<K>, denominator: &mut BigInt) -> Option<Exact> {
        let mut u = BigInt::zero();
        for ((&x, m), w) in r.0.iter().zip(&MONT).zip(&self.weights) {
            u += w * m.decode(x);
        }
        let u = u % &self.modulus;
        // With the shared denominator the value is often an integer residue already: a
        // small one (in the symmetric range) is taken as it is.
        let scaled = (&u * &*denominator) % &self.modulus;
        let symmetric = if &scaled * 2u32 > self.modulus {
            scaled - &self.modulus
        } else {
            scaled
        };
        // Small as a fraction sought is (a random residue is not, but with odds of
        // 2^-half): then it is the fraction of its residue.
        if symmetric.bits() <= self.half && denominator.bits() <= self.half {
            return Some(rational::reduced(symmetric, denominator.clone()));
        }
        let (n, d) = self.smallest(&u)?;
        let value = rational::reduced(n, d);
        *denominator = denominator.lcm(value.denom());
        Some(value)
    }

    /// The fraction `n/d` with `n = u d` modulo the product and `|n|, d < 2^half`, by
    /// Euclid's algorithm stopped half way (Wang's rational reconstruction).
    fn smallest(&self, u: &BigInt) -> Option<(BigInt, BigInt)> {
        let (mut r0, mut r1) = (self.modulus.clone(), u.clone());
        let (mut s0, mut s1) = (BigInt::zero(), BigInt::one());
        while r1.bits() > self.half {
            let (q, r) = r0.div_rem(&r1);
            r0 = std::mem::replace(&mut r1, r);
            let s = &s0 - &q * &s1;
            s0 = std::mem::replace(&mut s1, s);
        }
        if s1.is_zero() || s1.bits() > self.half {
            return None;
        }
        Some(if s1.sign() == Sign::Minus {
            (-r1, -s1)
        } else {
            (r1, s1.abs())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random chain's system: each state moves to a few others with probabilities of
    /// small denominators and leaves with the rest; constants of any sign.
    fn system() -> impl Strategy<Value = (Rows, Vec<Exact>)> {
        (2usize..40).prop_flat_map(|n| {
            let row = prop::collection::vec((0..n as u32, 1i64..5), 1..4);
            (
                prop::collection::vec((row, 5i64..12), n),
                prop::collection::vec((-50i64..50, 1i64..30), n),
            )
                .prop_map(|(rows, b)| {
                    let rows = rows
                        .into_iter()
                        .map(|(entries, denominator)| {
                            // Weights summing below the denominator: every state leaves.
                            let mut row: elim::Row = Vec::new();
                            let mut left = denominator - 1;
                            for (j, w) in entries {
                                let w = w.min(left);
                                left -= w;
                                if w > 0 && !row.iter().any(|e| e.0 == j) {
                                    row.push((j, q(w, denominator)));
                                }
                            }
                            row.sort_unstable_by_key(|e| e.0);
                            row
                        })
                        .collect::<Vec<_>>();
                    let b = b.into_iter().map(|(n, d)| q(n, d)).collect();
                    (Rows::from(rows), b)
                })
        })
    }

    proptest! {
        #[test]
        fn random_chains_solve_as_in_rationals((rows, b) in system()) {
            let plain = elim::solve(rows.clone(), b.clone(), None, usize::MAX, &mut { u64::MAX });
            prop_assert!(plain.is_some());
            prop_assert_eq!(solve(&rows, &b, usize::MAX, u64::MAX), plain);
        }
    }

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(n.into(), d.into())
    }

    #[test]
    fn the_primes_are_primes_and_the_constants_right() {
        for m in &MONT {
            let p = BigInt::from(m.p);
            for a in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
                // Fermat's test to many bases: enough for a table checked once.
                assert!(
                    BigInt::from(a).modpow(&(&p - 1u32), &p).is_one(),
                    "{} is prime",
                    m.p
                );
            }
            assert_eq!(m.p.wrapping_mul(m.neg_inv.wrapping_neg()), 1);
            let x = m.encode(123_456_789);
            assert_eq!(m.decode(x), 123_456_789);
            let inv = m.inverse(x).expect("nonzero");
            assert_eq!(m.decode(m.mul(x, inv)), 1);
        }
    }

    #[test]
    fn solves_as_rationals_do() {
        // x0 = 1/2 x1 + 1/2, x1 = 1/2 x0 + 1/4 x2, x2 = 1/3 x0 + 1/3 x2 + 1/3
        let rows = Rows::from(vec![
            vec![(1, q(1, 2))],
            vec![(0, q(1, 2)), (2, q(1, 4))],
            vec![(0, q(1, 3)), (2, q(1, 3))],
        ]);
        let b = vec![q(1, 2), q(-7, 10), q(1, 3)];
        let plain = elim::solve(rows.clone(), b.clone(), None, usize::MAX, &mut { u64::MAX });
        assert_eq!(solve(&rows, &b, usize::MAX, u64::MAX), plain);
    }

    #[test]
    fn values_too_long_for_the_primes_are_refused() {
        // x0 = b0 + 1/2 x0: x0 = 2 b0, with a numerator of 1200 bits.
        let long = Exact::from_integer(BigInt::from(3).pow(760));
        let rows = Rows::from(vec![vec![(0, q(1, 2))]]);
        assert_eq!(
            solve_with::<4>(&rows, std::slice::from_ref(&long), usize::MAX, u64::MAX),
            None
        );
        assert_eq!(
            solve(&rows, std::slice::from_ref(&long), usize::MAX, u64::MAX),
            None
        );
        let half = Exact::from_integer(BigInt::from(3).pow(100));
        assert_eq!(
            solve(&rows, std::slice::from_ref(&half), usize::MAX, u64::MAX),
            Some(vec![&half + &half])
        );
    }
}
