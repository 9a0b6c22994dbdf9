//! Solution of a Markov chain's linear system `x = b + A x` (one strongly connected
//! component: `A` substochastic and every state able to leave, so `I - A` is nonsingular)
//! by eliminating the unknowns one at a time, in exact rationals or in `f64` (a guess for
//! the interval iteration to certify, see `interval`).
//!
//! Eliminating `i` solves its equation for `x_i` (dividing by `1 - a_ii`) and substitutes
//! it into the equations that mention `x_i`, which may gain new terms (fill-in). The
//! reduced system is again a chain's (the paths through `i` folded into its neighbours),
//! so every `1 - a_ii` met is positive and no number changes sign: no pivoting, and the
//! fractions stay as small as the chain allows. The next state to eliminate is the one of
//! least (mentions x terms): the fill-in it can cause (Markowitz's rule). At the end the
//! eliminated equations are solved back in reverse order.
//!
//! In `f64` the same steps are backward stable (no cancellation: every term is
//! nonnegative), but for the pivots `1 - a_ii`: a strategy that hardly leaves makes that
//! difference lose its digits. Given each row's escape (its probability of leaving the
//! system, which the caller knows without a subtraction), the pivot is formed instead as
//! the escape plus the row's other coefficients, and the escapes are eliminated along
//! with the rest (Grassmann, Taksar and Heyman's way): nothing is subtracted at all.
//! A pivot of 0 is refused, as is fill-in beyond a budget: the caller then iterates
//! instead.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use num_traits::Zero;

use super::rational;
use crate::numeric::value::Exact;

/// The numbers the elimination works in.
pub(crate) trait Field: Clone {
    fn zero() -> Self;
    /// `1 / (1 - self)`, when `1 - self` can be divided by.
    fn leave(&self) -> Option<Self>;
    fn times(&self, o: &Self) -> Self;
    fn add(&mut self, o: Self);
    fn scale(&mut self, by: &Self);
    /// `1 / self`, when it can be divided by.
    fn recip(&self) -> Option<Self>;
}

impl Field for Exact {
    fn zero() -> Self {
        Zero::zero()
    }
    fn leave(&self) -> Option<Self> {
        rational::leave(self)
    }
    fn times(&self, o: &Self) -> Self {
        rational::mul(self, o)
    }
    fn add(&mut self, o: Self) {
        *self = rational::add(self, &o);
    }
    fn scale(&mut self, by: &Self) {
        *self = rational::mul(self, by);
    }
    fn recip(&self) -> Option<Self> {
        (!self.is_zero()).then(|| Exact::recip(self))
    }
}

/// Below this, `1 - a_ii` in `f64` is taken for a strategy that never leaves: the
/// rounding of the sums that made `a_ii` is about 1e-16.
const LEAST_LEAVING: f64 = 1e-12;

impl Field for f64 {
    fn zero() -> Self {
        0.0
    }
    fn leave(&self) -> Option<Self> {
        let keep = 1.0 - self;
        (keep > LEAST_LEAVING).then(|| 1.0 / keep)
    }
    fn times(&self, o: &Self) -> Self {
        self * o
    }
    fn add(&mut self, o: Self) {
        *self += o;
    }
    fn scale(&mut self, by: &Self) {
        *self *= by;
    }
    fn recip(&self) -> Option<Self> {
        (*self > 0.0).then(|| 1.0 / self)
    }
}

/// A sparse row: (column, coefficient), ascending by column, no column twice.
pub(crate) type Row<T = Exact> = Vec<(u32, T)>;

/// Solves `x = b + A x`, `A` given by its rows; `None` when a state cannot leave what
/// is left of the system, when the rows would hold more than `budget` coefficients, or
/// when the coefficients written would exceed `work` (which counts them down). With
/// `escape`, each row's probability of leaving the system, the pivots take no
/// subtraction (see the module's comment).
pub(crate) fn solve<T: Field>(
    mut rows: Vec<Row<T>>,
    mut b: Vec<T>,
    mut escape: Option<Vec<T>>,
    budget: usize,
    work: &mut u64,
) -> Option<Vec<T>> {
    let n = rows.len();
    let mut held: usize = rows.iter().map(Vec::len).sum();
    // Who mentions each unknown (with repeats and stale entries, cleaned when used).
    let mut mentions: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, row) in rows.iter().enumerate() {
        for &(j, _) in row {
            if j as usize != i {
                mentions[j as usize].push(i as u32);
            }
        }
    }
    let cost = |rows: &[Row<T>], mentions: &[Vec<u32>], i: usize| {
        mentions[i].len() as u64 * rows[i].len() as u64
    };
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = (0..n)
        .map(|i| Reverse((cost(&rows, &mentions, i), i as u32)))
        .collect();
    let mut done = vec![false; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if done[i] {
            continue;
        }
        let now = cost(&rows, &mentions, i);
        if now != c {
            heap.push(Reverse((now, i as u32)));
            continue;
        }
        let mut row = std::mem::take(&mut rows[i]);
        if let Ok(k) = row.binary_search_by_key(&(i as u32), |e| e.0) {
            let own = row.remove(k).1;
            let inv = match escape.as_mut() {
                Some(escape) => {
                    let mut keep = escape[i].clone();
                    for (_, a) in &row {
                        keep.add(a.clone());
                    }
                    let inv = keep.recip()?;
                    escape[i].scale(&inv);
                    inv
                }
                None => own.leave()?,
            };
            for e in &mut row {
                e.1.scale(&inv);
            }
            b[i].scale(&inv);
        }
        let mut users = std::mem::take(&mut mentions[i]);
        users.sort_unstable();
        users.dedup();
        for &u in &users {
            let u = u as usize;
            if done[u] || u == i {
                continue;
            }
            let Ok(k) = rows[u].binary_search_by_key(&(i as u32), |e| e.0) else {
                continue;
            };
            let a = rows[u].remove(k).1;
            let add = a.times(&b[i]);
            b[u].add(add);
            if let Some(escape) = escape.as_mut() {
                let gone = a.times(&escape[i]);
                escape[u].add(gone);
            }
            let old = std::mem::take(&mut rows[u]);
            held -= old.len() + 1;
            rows[u] = merge(old, &row, &a, |j| {
                if j as usize != u {
                    mentions[j as usize].push(u as u32);
                }
            });
            held += rows[u].len();
            *work = work.checked_sub(rows[u].len() as u64 + 1)?;
            if held > budget {
                return None;
            }
            heap.push(Reverse((cost(&rows, &mentions, u), u as u32)));
        }
        for &(j, _) in &row {
            heap.push(Reverse((cost(&rows, &mentions, j as usize), j)));
        }
        rows[i] = row;
        done[i] = true;
        order.push(i as u32);
    }
    let mut x = vec![T::zero(); n];
    for &i in order.iter().rev() {
        let i = i as usize;
        let mut v = b[i].clone();
        for (j, a) in &rows[i] {
            v.add(a.times(&x[*j as usize]));
        }
        x[i] = v;
    }
    Some(x)
}

/// `old + a * add`, both ascending by column; `fresh(j)` hears of each column new to
/// `old`.
fn merge<T: Field>(old: Row<T>, add: &Row<T>, a: &T, mut fresh: impl FnMut(u32)) -> Row<T> {
    let mut out = Vec::with_capacity(old.len() + add.len());
    let mut old = old.into_iter().peekable();
    for (j, v) in add {
        while let Some((k, _)) = old.peek() {
            if k < j {
                out.push(old.next().expect("peeked"));
            } else {
                break;
            }
        }
        let scaled = a.times(v);
        match old.peek() {
            Some((k, _)) if k == j => {
                let (k, mut w) = old.next().expect("peeked");
                w.add(scaled);
                out.push((k, w));
            }
            _ => {
                fresh(*j);
                out.push((*j, scaled));
            }
        }
    }
    out.extend(old);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(n.into(), d.into())
    }

    #[test]
    fn solves_a_small_cycle() {
        // x0 = 1/2 x1 + 1/2, x1 = 1/2 x0 + 1/4 x2, x2 = 1/3 x0 + 1/3 x2 + 1/3
        let rows = vec![
            vec![(1, q(1, 2))],
            vec![(0, q(1, 2)), (2, q(1, 4))],
            vec![(0, q(1, 3)), (2, q(1, 3))],
        ];
        let b = vec![q(1, 2), q(0, 1), q(1, 3)];
        let x = solve(rows.clone(), b.clone(), None, usize::MAX, &mut { u64::MAX })
            .expect("the chain leaves");
        for (i, row) in rows.iter().enumerate() {
            let mut v = b[i].clone();
            for (j, a) in row {
                v += a * &x[*j as usize];
            }
            assert_eq!(v, x[i], "equation {i}");
        }
    }
}
