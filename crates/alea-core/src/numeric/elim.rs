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
//! least (mentions x terms): the fill-in it can cause (Markowitz's rule); or, where the
//! chain is a few cycles through a few states (a counter that a throw resets, a board
//! whose snakes lead back), the order in which a depth-first search finishes the states,
//! the states it meets again on its own path last: each state's row then holds those
//! few states' columns alone when it is eliminated, and no order is searched for. At the
//! end the eliminated equations are solved back in reverse order.
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
use std::ops::Range;

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
    /// Whether it is 0: a coefficient that needs no work.
    fn vanishes(&self) -> bool;
    /// Coefficients of a dense row updated for one unit of `work`, which counts the
    /// sparse merges' coefficients: in `f64`, whose dense updates run four or more to an
    /// instruction, a merge's coefficient costs some thirty times a dense update.
    const DENSE_PER_UNIT: usize;
}

impl Field for Exact {
    /// In rationals the arithmetic is the cost, dense or merged alike: the numbers of a
    /// model with decimal constants grow to dozens of digits, and a dense column of every
    /// row does as many multiplications as a merge would with little fill-in (some 8%
    /// slower on oscillators N=8 than Markowitz's rule, where the cut states' order was
    /// priced as if a dense update cost an eighth of a merge's).
    const DENSE_PER_UNIT: usize = 1;
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
    fn vanishes(&self) -> bool {
        self.is_zero()
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
    fn vanishes(&self) -> bool {
        *self == 0.0
    }
    const DENSE_PER_UNIT: usize = 32;
}

/// A sparse row: (column, coefficient), ascending by column, no column twice.
pub(crate) type Row<T = Exact> = Vec<(u32, T)>;

/// A system's rows in one block: row `i` is `entries[start[i]..start[i + 1]]`, each
/// ascending by column with no column twice. One allocation for every row: a chain of
/// a few hundred states is solved in about the time its rows once took to allocate.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rows<T = Exact> {
    start: Vec<usize>,
    entries: Vec<(u32, T)>,
}

impl<T: Field> Rows<T> {
    pub fn with_capacity(rows: usize, entries: usize) -> Rows<T> {
        let mut start = Vec::with_capacity(rows + 1);
        start.push(0);
        Rows {
            start,
            entries: Vec::with_capacity(entries),
        }
    }

    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// The coefficients held, in every row.
    pub fn held(&self) -> usize {
        self.entries.len()
    }

    pub fn row(&self, i: usize) -> &[(u32, T)] {
        &self.entries[self.start[i]..self.start[i + 1]]
    }

    /// Where the entries of the rows `rows` are: see [`Rows::column`].
    pub fn span(&self, rows: Range<usize>) -> Range<usize> {
        self.start[rows.start]..self.start[rows.end]
    }

    /// The column of the entry at `t` of every row's entries.
    pub fn column(&self, t: usize) -> u32 {
        self.entries[t].0
    }

    pub fn iter(&self) -> impl Iterator<Item = &[(u32, T)]> {
        self.start.windows(2).map(|w| &self.entries[w[0]..w[1]])
    }

    /// Adds `a` in column `j` to the row being written.
    pub fn push(&mut self, j: u32, a: T) {
        self.entries.push((j, a));
    }

    /// Ends the row being written: its entries sorted by column, those of one column
    /// summed (a state may lead to another by two transitions).
    pub fn end_row(&mut self) {
        let from = self.start[self.len()];
        let row = &mut self.entries[from..];
        if !row.is_sorted_by(|a, b| a.0 < b.0) {
            row.sort_unstable_by_key(|e| e.0);
            let mut kept = from;
            for r in from..self.entries.len() {
                if kept > from && self.entries[kept - 1].0 == self.entries[r].0 {
                    let a = std::mem::replace(&mut self.entries[r].1, T::zero());
                    self.entries[kept - 1].1.add(a);
                } else {
                    self.entries.swap(kept, r);
                    kept += 1;
                }
            }
            self.entries.truncate(kept);
        }
        self.start.push(self.entries.len());
    }

    /// The same rows with every coefficient mapped, or `None` if one maps to none.
    pub fn map<U: Field>(&self, f: impl Fn(&T) -> Option<U>) -> Option<Rows<U>> {
        Some(Rows {
            start: self.start.clone(),
            entries: self
                .entries
                .iter()
                .map(|(j, a)| Some((*j, f(a)?)))
                .collect::<Option<_>>()?,
        })
    }

    /// [`search_order`] over these rows.
    fn search_order(&self) -> Option<(Vec<u32>, usize)> {
        let row = |v: u32| self.start[v as usize]..self.start[v as usize + 1];
        search_order(self.len(), row, |t| self.entries[t].0, |_| false)
    }

    /// A row apiece, for an elimination that fills rows in.
    fn into_rows(self) -> Vec<Row<T>> {
        let mut entries = self.entries.into_iter();
        self.start
            .windows(2)
            .map(|w| entries.by_ref().take(w[1] - w[0]).collect())
            .collect()
    }
}

#[cfg(test)]
impl<T: Field> From<Vec<Row<T>>> for Rows<T> {
    fn from(rows: Vec<Row<T>>) -> Rows<T> {
        let mut out = Rows::with_capacity(rows.len(), rows.iter().map(Vec::len).sum());
        for row in rows {
            for (j, a) in row {
                out.push(j, a);
            }
            out.end_row();
        }
        out
    }
}

/// Solves `x = b + A x`, `A` given by its rows; `None` when a state cannot leave what
/// is left of the system, when the rows would hold more than `budget` coefficients, or
/// when the coefficients written would exceed `work` (which counts them down). With
/// `escape`, each row's probability of leaving the system, the pivots take no
/// subtraction (see the module's comment).
pub(crate) fn solve<T: Field>(
    rows: Rows<T>,
    b: Vec<T>,
    escape: Option<Vec<T>>,
    budget: usize,
    work: &mut u64,
) -> Option<Vec<T>> {
    let b = b.into_iter().map(|b| [b]).collect();
    let x = solve_many(rows, b, escape, budget, work)?;
    Some(x.into_iter().map(|[x]| x).collect())
}

/// [`solve`] for `K` right-hand sides at once: the eliminations, which cost nearly all
/// the time, are shared.
pub(crate) fn solve_many<T: Field, const K: usize>(
    mut rows: Rows<T>,
    b: Vec<[T; K]>,
    escape: Option<Vec<T>>,
    budget: usize,
    work: &mut u64,
) -> Option<Vec<[T; K]>> {
    let n = rows.len();
    let (finished, cuts) = rows.search_order()?;
    if through_cuts_fit::<T>(n, rows.held() as u64, cuts, None) {
        through_cuts(&mut rows, b, escape, &finished, cuts, work)
    } else {
        markowitz(rows, b, escape, budget, work)
    }
}

/// [`solve_many`] by Markowitz's rule.
fn markowitz<T: Field, const K: usize>(
    rows: Rows<T>,
    mut b: Vec<[T; K]>,
    mut escape: Option<Vec<T>>,
    budget: usize,
    work: &mut u64,
) -> Option<Vec<[T; K]>> {
    let n = rows.len();
    let mut held = rows.held();
    let mut rows = rows.into_rows();
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
    // The least cost each unknown has in the heap: an unknown whose cost grew keeps its
    // entry, found stale when it comes up and put back with its cost then; one whose cost
    // fell gets a new entry. (Costs mostly grow, as rows fill in.)
    let mut queued: Vec<u64> = (0..n).map(|i| cost(&rows, &mentions, i)).collect();
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> =
        (0..n).map(|i| Reverse((queued[i], i as u32))).collect();
    let mut done = vec![false; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut spare: Row<T> = Vec::new();
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if done[i] || c != queued[i] {
            continue;
        }
        let now = cost(&rows, &mentions, i);
        if now != c {
            queued[i] = now;
            heap.push(Reverse((now, i as u32)));
            continue;
        }
        let mut row = std::mem::take(&mut rows[i]);
        if let Ok(k) = row.binary_search_by_key(&(i as u32), |e| e.0) {
            let own = row.remove(k).1;
            let inv = pivot(&mut escape, i, row.iter().map(|e| &e.1), &own)?;
            for e in &mut row {
                e.1.scale(&inv);
            }
            for b in &mut b[i] {
                b.scale(&inv);
            }
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
            add_scaled_at(&mut b, &mut escape, u, i, &a);
            held -= rows[u].len() + 1;
            merge(&mut rows[u], &row, &a, &mut spare, |j| {
                if j as usize != u {
                    mentions[j as usize].push(u as u32);
                }
            });
            // The merged row in place, the old one's room (drained) kept for the next.
            std::mem::swap(&mut rows[u], &mut spare);
            held += rows[u].len();
            *work = work.checked_sub(rows[u].len() as u64 + 1)?;
            if held > budget {
                return None;
            }
            let c = cost(&rows, &mentions, u);
            if c < queued[u] {
                queued[u] = c;
                heap.push(Reverse((c, u as u32)));
            }
        }
        for &(j, _) in &row {
            let j = j as usize;
            let c = cost(&rows, &mentions, j);
            if c < queued[j] {
                queued[j] = c;
                heap.push(Reverse((c, j as u32)));
            }
        }
        rows[i] = row;
        done[i] = true;
        order.push(i as u32);
    }
    let mut x: Vec<[T; K]> = vec![std::array::from_fn(|_| T::zero()); n];
    for &i in order.iter().rev() {
        let i = i as usize;
        let mut v = b[i].clone();
        for (j, a) in &rows[i] {
            for (v, x) in v.iter_mut().zip(&x[*j as usize]) {
                v.add(a.times(x));
            }
        }
        x[i] = v;
    }
    Some(x)
}

/// `1 / (1 - own)` for row `i`, whose other coefficients are `others`: with the rows'
/// escapes, formed as the escape plus the others (no subtraction), and the escape of
/// row `i` divided by it as the row will be.
fn pivot<'a, T: Field + 'a>(
    escape: &mut Option<Vec<T>>,
    i: usize,
    others: impl Iterator<Item = &'a T>,
    own: &T,
) -> Option<T> {
    match escape.as_mut() {
        Some(escape) => {
            let mut keep = escape[i].clone();
            for a in others {
                keep.add(a.clone());
            }
            let inv = keep.recip()?;
            escape[i].scale(&inv);
            Some(inv)
        }
        None => own.leave(),
    }
}

/// Row `i`'s right-hand sides `bi` and escape `ei`, `a` times, into another row's `bu`
/// and `eu`: what substituting `x_i` into that row's equation adds besides the
/// coefficients.
fn add_scaled<T: Field, const K: usize>(
    (bu, eu): (&mut [T; K], Option<&mut T>),
    (bi, ei): (&[T; K], Option<&T>),
    a: &T,
) {
    if let (Some(eu), Some(ei)) = (eu, ei) {
        eu.add(a.times(ei));
    }
    for (to, from) in bu.iter_mut().zip(bi) {
        to.add(a.times(from));
    }
}

/// [`add_scaled`] from row `i` into row `u` of the arrays (`u` and `i` differ).
fn add_scaled_at<T: Field, const K: usize>(
    b: &mut [[T; K]],
    escape: &mut Option<Vec<T>>,
    u: usize,
    i: usize,
    a: &T,
) {
    let (bu, bi) = pair(b, u, i);
    let (eu, ei) = escape.as_mut().map(|e| pair(e, u, i)).unzip();
    add_scaled((bu, eu), (bi, ei), a);
}

/// `v[u]` to change and `v[i]` to read (`u` and `i` differ).
fn pair<T>(v: &mut [T], u: usize, i: usize) -> (&mut T, &T) {
    if i < u {
        let (low, high) = v.split_at_mut(u);
        (&mut high[0], &low[i])
    } else {
        let (low, high) = v.split_at_mut(i);
        (&mut low[u], &high[0])
    }
}

/// The most memory the cut states' columns of every row may take (see [`through_cuts`]):
/// beyond, the fill-in is left to Markowitz's rule.
const DENSE_BYTES: usize = 1 << 26;

/// The most work per coefficient of the rows for which [`through_cuts`] is chosen.
const DENSE_PER_HELD: u64 = 16;

/// Whether the elimination through `cuts` cut states suits `n` unknowns whose rows hold
/// `held` coefficients (at most): where the cut states are few, at most some sixteen
/// units of work per coefficient, with room for their columns, and within `work` if
/// given. With many (a chain whose every other state is met again on the search's path),
/// Markowitz's rule fills in far less than the dense columns.
pub(crate) fn through_cuts_fit<T: Field>(
    n: usize,
    held: u64,
    cuts: usize,
    work: Option<u64>,
) -> bool {
    // Every coefficient of the rows a predecessor's update, and every pair of cut
    // states one (none skipped).
    let k = cuts as u64;
    let update = k / T::DENSE_PER_UNIT as u64 + 1;
    let most = n as u64 * k / T::DENSE_PER_UNIT as u64 + (held + k * k / 2) * update;
    most <= DENSE_PER_HELD * held.max(1)
        && work.is_none_or(|w| most <= w)
        && n.saturating_mul(cuts)
            .saturating_mul(std::mem::size_of::<T>())
            <= DENSE_BYTES
}

/// A system's rows as [`through_cuts`] reads them: each row once, entry by entry, as a
/// [`Rows`] holds it (ascending by column, no column twice).
pub(crate) trait RowSource<T> {
    fn len(&self) -> usize;
    /// Calls `f` on each entry of row `i`: its column and coefficient.
    fn each(&mut self, i: usize, f: impl FnMut(u32, &T));
}

impl<T: Field> RowSource<T> for Rows<T> {
    fn len(&self) -> usize {
        Rows::len(self)
    }

    fn each(&mut self, i: usize, mut f: impl FnMut(u32, &T)) {
        for (j, a) in self.row(i) {
            f(*j, a);
        }
    }
}

/// [`solve_many`] in the search's order (see [`search_order`]), each row kept as its
/// coefficients on the `cuts` cut states, in one dense vector: each state's vector is
/// gathered from its successors' (which come before it, or are cut), and the cut states'
/// own system, dense and small, is eliminated last. The rows are read as they are
/// needed, so a caller may compute them rather than store them.
pub(crate) fn through_cuts<T: Field, const K: usize>(
    rows: &mut impl RowSource<T>,
    mut b: Vec<[T; K]>,
    mut escape: Option<Vec<T>>,
    order: &[u32],
    cuts: usize,
    work: &mut u64,
) -> Option<Vec<[T; K]>> {
    let n = rows.len();
    let k = cuts;
    let first_cut = n - k;
    let mut cut_of = vec![u32::MAX; n];
    for (c, &v) in order[first_cut..].iter().enumerate() {
        cut_of[v as usize] = c as u32;
    }
    *work = work.checked_sub((n * k / T::DENSE_PER_UNIT) as u64)?;
    // Every row's `k` columns in one block: one allocation, not one per row.
    let mut dense: Vec<T> = vec![T::zero(); n * k];
    let mut row: Vec<T> = vec![T::zero(); k];
    // Each state's row gathered from its successors': every successor that is not cut
    // finished before it in the search, so was eliminated already (its row holds the cut
    // states' columns alone). A state that is not cut is then eliminated: only its own
    // loop, if any, is left to divide by.
    let per_update = (k / T::DENSE_PER_UNIT) as u64 + 1;
    for &u in order {
        let u = u as usize;
        let mut own: Option<T> = None;
        let mut updates = 0;
        // The row's right-hand sides, escape and first column (often the only one) summed
        // apart from the arrays, in the same order: a sum kept in an array would wait on
        // its own store at every entry.
        let mut bu = std::mem::replace(&mut b[u], std::array::from_fn(|_| T::zero()));
        let mut eu = escape
            .as_mut()
            .map(|e| std::mem::replace(&mut e[u], T::zero()));
        let mut first = T::zero();
        rows.each(u, |j, a| {
            let j = j as usize;
            match cut_of[j] {
                0 => first.add(a.clone()),
                c if c != u32::MAX => row[c as usize].add(a.clone()),
                _ if j == u => own = Some(a.clone()),
                _ => {
                    updates += 1;
                    if let Some((d, rest)) = dense[j * k..(j + 1) * k].split_first() {
                        first.add(a.times(d));
                        for (x, r) in row[1..].iter_mut().zip(rest) {
                            x.add(a.times(r));
                        }
                    }
                    let ej = escape.as_ref().map(|e| &e[j]);
                    add_scaled((&mut bu, eu.as_mut()), (&b[j], ej), a);
                }
            }
        });
        b[u] = bu;
        if let (Some(eu), Some(escape)) = (eu, escape.as_mut()) {
            escape[u] = eu;
        }
        if let Some(x) = row.first_mut() {
            *x = first;
        }
        *work = work.checked_sub(updates * per_update)?;
        if let Some(a) = own {
            let inv = pivot(&mut escape, u, row.iter(), &a)?;
            for a in &mut row {
                a.scale(&inv);
            }
            for b in &mut b[u] {
                b.scale(&inv);
            }
        }
        // The block was all zeros: the scratch row is again.
        row.swap_with_slice(&mut dense[u * k..(u + 1) * k]);
    }
    // The cut states' system: eliminated in their order, each pivot formed from the
    // escape and the coefficients on the states still to eliminate, as above.
    let cut: Vec<usize> = order[first_cut..].iter().map(|&v| v as usize).collect();
    let mut pivots: Vec<T> = Vec::with_capacity(k);
    for j in 0..k {
        let v = cut[j];
        let d = match escape.as_ref() {
            Some(escape) => {
                let mut keep = escape[v].clone();
                for a in &dense[v * k + j + 1..(v + 1) * k] {
                    keep.add(a.clone());
                }
                keep.recip()?
            }
            None => dense[v * k + j].leave()?,
        };
        row.swap_with_slice(&mut dense[v * k..(v + 1) * k]);
        for &u in &cut[j + 1..] {
            // A cut state that does not lead to this one has nothing to gain from it (the
            // cut states of a board's snakes lead to few of the others).
            if dense[u * k + j].vanishes() {
                continue;
            }
            let mut scale = std::mem::replace(&mut dense[u * k + j], T::zero());
            scale.scale(&d);
            *work = work.checked_sub((k / T::DENSE_PER_UNIT) as u64 + 1)?;
            for (x, r) in dense[u * k + j + 1..(u + 1) * k]
                .iter_mut()
                .zip(&row[j + 1..])
            {
                x.add(scale.times(r));
            }
            add_scaled_at(&mut b, &mut escape, u, v, &scale);
        }
        row.swap_with_slice(&mut dense[v * k..(v + 1) * k]);
        pivots.push(d);
    }
    let mut x: Vec<[T; K]> = vec![std::array::from_fn(|_| T::zero()); n];
    for j in (0..k).rev() {
        let v = cut[j];
        let mut value = b[v].clone();
        for (a, &c) in dense[v * k + j + 1..(v + 1) * k].iter().zip(&cut[j + 1..]) {
            for (value, x) in value.iter_mut().zip(&x[c]) {
                value.add(a.times(x));
            }
        }
        for value in &mut value {
            value.scale(&pivots[j]);
        }
        x[v] = value;
    }
    for &i in &order[..first_cut] {
        let i = i as usize;
        let mut value = b[i].clone();
        for (a, &c) in dense[i * k..(i + 1) * k].iter().zip(&cut) {
            for (value, x) in value.iter_mut().zip(&x[c]) {
                value.add(a.times(x));
            }
        }
        x[i] = value;
    }
    Some(x)
}

/// The order in which a depth-first search over unknowns `0..n` (from each in turn)
/// finishes them, those it meets again on its own path (the cut states) last, and how
/// many cut states there are; `None` as soon as `too_many(cuts)`. `v`'s row is the
/// entries `row(v)`, each `entry(t)` a successor, or none if it is `n` or more.
pub(crate) fn search_order(
    n: usize,
    row: impl Fn(u32) -> Range<usize>,
    entry: impl Fn(usize) -> u32,
    too_many: impl Fn(usize) -> bool,
) -> Option<(Vec<u32>, usize)> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    const CUT: u8 = 4;
    let mut mark = vec![NEW; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut stack: Vec<(u32, Range<usize>)> = Vec::new();
    let mut cuts = 0;
    for root in 0..n {
        if mark[root] != NEW {
            continue;
        }
        mark[root] = OPEN;
        stack.push((root as u32, row(root as u32)));
        while let Some((v, entries)) = stack.last_mut() {
            let v = *v;
            if let Some(t) = entries.next() {
                let j = entry(t);
                match mark.get(j as usize).map(|m| m & !CUT) {
                    Some(NEW) => {
                        mark[j as usize] = OPEN;
                        stack.push((j, row(j)));
                    }
                    Some(OPEN) if j != v && mark[j as usize] & CUT == 0 => {
                        mark[j as usize] |= CUT;
                        cuts += 1;
                        if too_many(cuts) {
                            return None;
                        }
                    }
                    _ => {}
                }
                continue;
            }
            mark[v as usize] = (mark[v as usize] & CUT) | DONE;
            stack.pop();
            if mark[v as usize] & CUT == 0 {
                order.push(v);
            }
        }
    }
    order.extend((0..n as u32).filter(|&v| mark[v as usize] & CUT != 0));
    Some((order, cuts))
}

/// `old + a * add` into `out` (emptied first), both ascending by column, draining `old`
/// (its room stays for later); `fresh(j)` hears of each column new to `old`.
fn merge<T: Field>(
    old: &mut Row<T>,
    add: &Row<T>,
    a: &T,
    out: &mut Row<T>,
    mut fresh: impl FnMut(u32),
) {
    out.clear();
    out.reserve(old.len() + add.len());
    let mut old = old.drain(..).peekable();
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(n.into(), d.into())
    }

    /// A random chain's system: each state moves to a few others (back to the first ones
    /// often, as a reset does) with probabilities of small denominators and leaves with
    /// the rest; constants of any sign.
    fn system(seed: u64, n: usize) -> (Rows, Vec<Exact>, Vec<Exact>) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut rows = Vec::new();
        let (mut b, mut escape) = (Vec::new(), Vec::new());
        for i in 0..n {
            let d = rng.gen_range(4i64..12);
            let mut left = d;
            let mut row: Row = Vec::new();
            for _ in 0..rng.gen_range(1..4) {
                let j = if rng.gen_bool(0.3) {
                    rng.gen_range(0..n.min(3))
                } else {
                    (i + rng.gen_range(0..5)) % n
                } as u32;
                let w = rng.gen_range(1..=3).min(left - 1);
                if w > 0 && !row.iter().any(|e| e.0 == j) {
                    row.push((j, q(w, d)));
                    left -= w;
                }
            }
            row.sort_unstable_by_key(|e| e.0);
            rows.push(row);
            b.push(q(rng.gen_range(-20..20), rng.gen_range(1..9)));
            escape.push(q(left, d));
        }
        (Rows::from(rows), b, escape)
    }

    #[test]
    fn both_orders_solve_alike() {
        for seed in 0..60 {
            let (mut rows, b, escape) = system(seed, 2 + seed as usize % 40);
            let wrap = |b: &[Exact]| b.iter().map(|x| [x.clone()]).collect::<Vec<_>>();
            let (order, cuts) = rows.search_order().expect("not refused");
            let dense = through_cuts(&mut rows, wrap(&b), None, &order, cuts, &mut { u64::MAX });
            let sparse = markowitz(rows.clone(), wrap(&b), None, usize::MAX, &mut { u64::MAX });
            assert_eq!(dense, sparse, "seed {seed}");
            // In f64, without a subtraction in the pivots: within rounding of the exact.
            let f = |x: &Exact| crate::numeric::value::Value::to_f64(x);
            let mut rows_f: Rows<f64> = rows.map(|a| Some(f(a))).expect("every coefficient maps");
            let b_f: Vec<[f64; 1]> = b.iter().map(|x| [f(x)]).collect();
            let escape_f: Vec<f64> = escape.iter().map(f).collect();
            let x = through_cuts(&mut rows_f, b_f, Some(escape_f), &order, cuts, &mut {
                u64::MAX
            })
            .expect("the chain leaves");
            for (got, want) in x.iter().zip(dense.expect("the chain leaves")) {
                let want = f(&want[0]);
                assert!(
                    (got[0] - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "seed {seed}"
                );
            }
        }
    }

    #[test]
    fn solves_a_small_cycle() {
        // x0 = 1/2 x1 + 1/2, x1 = 1/2 x0 + 1/4 x2, x2 = 1/3 x0 + 1/3 x2 + 1/3
        let rows = Rows::from(vec![
            vec![(1, q(1, 2))],
            vec![(0, q(1, 2)), (2, q(1, 4))],
            vec![(0, q(1, 3)), (2, q(1, 3))],
        ]);
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
