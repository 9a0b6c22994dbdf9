//! One turn of three rolls, worked out for [`LANES`] positions side by side.
//!
//! Each lane is a position; the lanes share the order of work over the dice, so every
//! step below is the same arithmetic on a row of lanes, which the compiler turns into
//! vector instructions. Only the scoring of the last roll differs from lane to lane.
//!
//! Working back from the last roll: the value of a keep is the mean over one more die
//! (see [`Dice`]); the value of a roll is its best keep, which is the best over its
//! sub-multisets, found in increasing size as "this keep, or the best with one die
//! fewer". Both steps work in place on one array indexed by keep, where the rolls are
//! the keeps of five dice.
//!
//! What makes it fast, each measured on the whole free-joker solve:
//! - a choice between lanes is written on the bits of the numbers (`pick`), so that
//!   the compiler makes whole-vector masked moves of it; a plain `if` over the lanes was
//!   compiled into vectors of 8, 4 and 2 lanes and single lanes behind a branch;
//! - every row of lanes starts a cache line ([`Rows`]): rows placed by the allocator
//!   across two lines made every vector read and write two (13% of the solve);
//! - the inner loops find a row by its offset (`at`): one mask, and the processor's
//!   addressing scales it (6%);
//! - eight lanes, one AVX-512 vector: a turn's work then nearly fits the first-level
//!   cache, and fewer lanes go unused in groups of few positions;
//! - the positions of both Yahtzee flags share the lanes of a group: only the 100
//!   bonus of the Yahtzee rolls differs between them, added per lane;
//! - a division by six is a product and one fused correction ([`sixth`]), with the
//!   same bits;
//! - each keep's keeps with one die fewer are padded to five, and the keeps, in order of
//!   size, are grouped into runs with the same number of them, so the inner loops are
//!   unrolled and free of branches;
//! - a choice among many is made in two halves, the second taken only where it is
//!   strictly greater: the same choice as one run in order (the first of the best), in
//!   half the chain of dependent steps (a test holds it to one run);
//! - indices are masked to the power-of-two room of the work instead of bounds-checked;
//! - a lower box leads from every roll that is not a Yahtzee to the same successor
//!   slot, so the lower boxes' futures are read once per turn into registers, and each
//!   roll weighs them on its points alone ([`Scoring`]): the scoring of the last roll
//!   had read two rows for every choice (7%);
//! - a group's last four positions or fewer are worked out on four lanes ([`NARROW`]),
//!   four fifths of the time of eight (1%).
//!
//! Every step is the same arithmetic, in the same order, as a plain loop lane by lane,
//! so the plain, AVX2 and AVX-512 builds give the same bits (a test), whatever the
//! lanes are grouped with. That matters beyond tidiness: keeps with equal means are
//! common, and the second moment follows the first of them; a step rounded otherwise
//! (a product by a sixth in place of the division) moves the standard deviation in its
//! fourth decimal.

use super::dice::Dice;

/// Positions worked out side by side: eight is fastest here (one AVX-512 vector; the
/// work of a turn, two numbers per keep and lane, then nearly fits the first-level
/// cache, and fewer lanes go unused in groups of few positions; four lanes take 13%
/// longer, sixteen as long).
pub const LANES: usize = 8;
/// The lanes of the narrow turn, for a group's last four positions or fewer (one chunk
/// in twelve): the same arithmetic on half of each row takes four fifths of the time,
/// not half, as the rows still fill their cache lines.
pub const NARROW: usize = 4;
/// Successor slots of a position: six outcomes for each of the thirteen boxes (see
/// [`super::solve`](mod@super::solve)).
pub const SLOTS: usize = 13 * 6;
/// One number per lane.
pub type Lane = [f64; LANES];
/// One number for each of the first `L` lanes: the turn works on all [`LANES`], or on
/// the first four for a group's last few positions (see [`NARROW`]).
pub type Lanes<const L: usize> = [f64; L];
/// Room for the 462 keeps, rounded up to a power of two: an index masked to it needs
/// no bounds check in the hot loops, where the checks were a third of the instructions.
pub const KEEP_ROOM: usize = 512;
/// Room for the successor slots, the same way.
pub const SLOT_ROOM: usize = 128;
/// Room for the best upper box of each count of the open upper faces (see
/// [`Scoring`]): at most 126, with four upper boxes open.
pub const UPPER_ROOM: usize = 128;

/// The slot of keep `k` in [`Work`].
#[inline(always)]
fn keep(k: u16) -> usize {
    usize::from(k) & (KEEP_ROOM - 1)
}

/// Where a row starts in `N` rows (a power of two) read as one array of numbers, from
/// the row's offset: its index times [`LANES`], as [`Plan`] and [`Scoring`] keep them.
/// The hot loops find their rows this way: one mask, and the processor's addressing
/// scales the offset, where an index took a mask and a shift (about a tenth of their
/// instructions; the solve is 6% faster).
#[inline(always)]
fn at<const N: usize>(offset: u16) -> usize {
    usize::from(offset) & (N * LANES - LANES)
}

/// The first `L` lanes of the row at `offset` (see [`at`]).
#[inline(always)]
fn row<const N: usize, const L: usize>(rows: &[Lane; N], offset: u16) -> Lanes<L> {
    let o = at::<N>(offset);
    rows.as_flattened()[o..o + L]
        .try_into()
        .expect("a row has at least L lanes")
}

/// Writes the first `L` lanes of the row at `offset` (see [`at`]).
#[inline(always)]
fn set_row<const N: usize, const L: usize>(rows: &mut [Lane; N], offset: u16, value: Lanes<L>) {
    let o = at::<N>(offset);
    rows.as_flattened_mut()[o..o + L].copy_from_slice(&value);
}

/// The offset of row `index`: the index times [`LANES`], how the hot loops find a row.
pub fn offset(index: usize) -> u16 {
    (index * LANES) as u16
}

/// Lanes for each of `N` keeps or slots, each row on a cache line of its own: a row
/// the allocator placed across two lines cost two reads for every vector read.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Rows<const N: usize>([Lane; N]);

impl<const N: usize> std::ops::Deref for Rows<N> {
    type Target = [Lane; N];
    fn deref(&self) -> &[Lane; N] {
        &self.0
    }
}

impl<const N: usize> std::ops::DerefMut for Rows<N> {
    fn deref_mut(&mut self) -> &mut [Lane; N] {
        &mut self.0
    }
}

/// Lanes for each of `N` keeps or slots, all zero.
fn lanes<const N: usize>() -> Box<Rows<N>> {
    Box::new(Rows([[0.0; LANES]; N]))
}

/// A keep and its keeps with one die fewer, padded to five, as offsets (see [`at`]).
type Fewer = (u16, [u16; 5]);

/// The order of work over the keeps, flattened from [`Dice`] for the hot loops.
#[derive(Debug)]
pub struct Plan {
    pub dice: Dice,
    /// Keeps of fewer than five dice, largest first, with the keeps one face more, as
    /// offsets (see [`at`]).
    average: Vec<(u16, [u16; 6])>,
    /// Keeps of one die or more, smallest first, each with its distinct keeps of one
    /// die fewer (one per face it holds, the last repeated to fill five). Within a size
    /// the keeps are sorted by how many there are, and grouped into runs of the same
    /// number (a run may go on into the next size): each run is that number and its
    /// keeps, so that the inner loop of a run is unrolled and has no branch.
    best: Vec<(u8, Vec<Fewer>)>,
    /// The keep index of each roll, in the order of `dice.rolls`.
    pub rolls: Vec<u16>,
    /// The same as offsets (see [`at`]).
    roll_offsets: Vec<u16>,
}

impl Plan {
    pub fn new() -> Plan {
        let dice = Dice::new();
        let short = |k: usize| k as u16;
        let average = (1..6)
            .flat_map(|s| dice.by_size[s].iter())
            .map(|&k| (offset(k), dice.with_face[k].map(offset)))
            .collect();
        let mut best: Vec<(u8, Vec<Fewer>)> = Vec::new();
        for s in (0..5).rev() {
            let mut keeps: Vec<(u8, u16, [u16; 5])> = dice.by_size[s]
                .iter()
                .map(|&k| {
                    let fewer = &dice.without_one[k];
                    let padded = std::array::from_fn(|i| offset(fewer[i.min(fewer.len() - 1)]));
                    (fewer.len() as u8, offset(k), padded)
                })
                .collect();
            keeps.sort_by_key(|&(n, _, _)| n);
            for (n, k, padded) in keeps {
                match best.last_mut() {
                    Some((m, run)) if *m == n => run.push((k, padded)),
                    _ => best.push((n, vec![(k, padded)])),
                }
            }
        }
        let rolls = dice.rolls.iter().map(|&r| short(r)).collect();
        let roll_offsets = dice.rolls.iter().map(|&r| offset(r)).collect();
        Plan {
            dice,
            average,
            best,
            rolls,
            roll_offsets,
        }
    }
}

impl Default for Plan {
    fn default() -> Self {
        Plan::new()
    }
}

/// Per keep, each lane's expected future score and, if asked for, its second moment.
#[derive(Clone, Debug)]
pub struct Work {
    pub mean: Box<Rows<KEEP_ROOM>>,
    pub square: Box<Rows<KEEP_ROOM>>,
    /// The best upper box of each count of the open upper faces, its mean and the
    /// variance of its future (see [`Scoring`]).
    upper_mean: Box<Rows<UPPER_ROOM>>,
    upper_variance: Box<Rows<UPPER_ROOM>>,
}

impl Work {
    pub fn new(plan: &Plan) -> Work {
        assert!(plan.dice.keeps.len() <= KEEP_ROOM);
        Work {
            mean: lanes(),
            square: lanes(),
            upper_mean: lanes(),
            upper_variance: lanes(),
        }
    }
}

/// All ones where `a > b`, else all zeros: the mask of a choice, per lane.
#[inline(always)]
pub(crate) fn greater(a: f64, b: f64) -> u64 {
    0u64.wrapping_sub(u64::from(a > b))
}

/// All ones where `a == b`, else all zeros.
#[inline(always)]
pub(crate) fn equal(a: f64, b: f64) -> u64 {
    0u64.wrapping_sub(u64::from(a == b))
}

/// `a` where `mask` is all ones, else `b`. Written on the bits, so that the compiler
/// turns a row of lanes into whole-vector masked moves: a plain `if` over a row of lanes
/// was split into vectors of 8, 4, 2 and single lanes with a branch.
#[inline(always)]
pub(crate) fn pick(mask: u64, a: f64, b: f64) -> f64 {
    f64::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}

/// `x / 6`, to the same bits. With `FMA`, by a product and one correction, which take
/// less time than a division: the product `q` of `x` and the nearest number to a sixth
/// is within an ulp of the quotient, the remainder `x - 6q` is exact in one fused
/// multiply-add, and `q` plus a sixth of it, in another, is the correctly rounded
/// quotient (Markstein's theorem; a test checks it against the division).
#[inline(always)]
pub fn sixth<const FMA: bool>(x: f64) -> f64 {
    if !FMA {
        return x / 6.0;
    }
    const R: f64 = 1.0 / 6.0;
    let q = x * R;
    let r = (-q).mul_add(6.0, x);
    r.mul_add(R, q)
}

/// Keeps of fewer than five dice: the mean over the face added. With `SQUARE`, the
/// second moment too.
/// `FMA` says whether the processor has fused multiply-adds (see [`sixth`]).
#[inline(always)]
pub fn average<const SQUARE: bool, const FMA: bool, const L: usize>(plan: &Plan, work: &mut Work) {
    for &(k, next) in &plan.average {
        // The sums start from the first face's values, not from zero: the same bits
        // (adding zero changes only a -0, which no value is), two additions fewer.
        let mut mean = row::<_, L>(&work.mean, next[0]);
        let mut square = if SQUARE {
            row::<_, L>(&work.square, next[0])
        } else {
            [0.0; L]
        };
        for &n in &next[1..] {
            let m = row::<_, L>(&work.mean, n);
            for l in 0..L {
                mean[l] += m[l];
            }
            if SQUARE {
                let s = row::<_, L>(&work.square, n);
                for l in 0..L {
                    square[l] += s[l];
                }
            }
        }
        for l in 0..L {
            mean[l] = sixth::<FMA>(mean[l]);
            square[l] = sixth::<FMA>(square[l]);
        }
        set_row(&mut work.mean, k, mean);
        if SQUARE {
            set_row(&mut work.square, k, square);
        }
    }
}

/// Each keep becomes the best keep within it, in place, smallest first: after this,
/// a roll's slot holds the value of its best keep. The second moment, with `SQUARE`,
/// follows the best mean.
#[inline(always)]
pub fn best<const SQUARE: bool, const L: usize>(plan: &Plan, work: &mut Work) {
    for (n, keeps) in &plan.best {
        match n {
            1 => best_run::<SQUARE, 1, L>(keeps, work),
            2 => best_run::<SQUARE, 2, L>(keeps, work),
            3 => best_run::<SQUARE, 3, L>(keeps, work),
            4 => best_run::<SQUARE, 4, L>(keeps, work),
            _ => best_run::<SQUARE, 5, L>(keeps, work),
        }
    }
}

/// [`best_of`] for a run of keeps with `N` keeps of one die fewer each.
#[inline(always)]
fn best_run<const SQUARE: bool, const N: usize, const L: usize>(keeps: &[Fewer], work: &mut Work) {
    for (k, fewer) in keeps {
        best_of::<SQUARE, N, L>(*k, fewer, work);
    }
}

/// Keep `k` becomes the best of itself and its first `N` keeps with one die fewer, the
/// first of the best on ties. Two runs, over the first half of the candidates and over
/// the second, then the second's best only if it is greater: the same choice as one run
/// in order, in half the chain of dependent steps. Each run starts from its first
/// candidate (the values are finite, so that is what a start below them would choose).
#[inline(always)]
fn best_of<const SQUARE: bool, const N: usize, const L: usize>(
    k: u16,
    fewer: &[u16; 5],
    work: &mut Work,
) {
    let split = N.div_ceil(2);
    let mut first = (row::<_, L>(&work.mean, k), row::<_, L>(&work.square, k));
    for &f in &fewer[..split] {
        better_of::<SQUARE, L>(&mut first, work, f);
    }
    let (mean, square) = if N > 1 {
        let s = fewer[split];
        let mut second = (row::<_, L>(&work.mean, s), row::<_, L>(&work.square, s));
        for &f in &fewer[split + 1..N] {
            better_of::<SQUARE, L>(&mut second, work, f);
        }
        choose::<SQUARE, L>(first, second)
    } else {
        first
    };
    set_row(&mut work.mean, k, mean);
    if SQUARE {
        set_row(&mut work.square, k, square);
    }
}

/// `best` becomes keep `f` in the lanes where `f` is greater.
#[inline(always)]
fn better_of<const SQUARE: bool, const L: usize>(
    best: &mut (Lanes<L>, Lanes<L>),
    work: &Work,
    f: u16,
) {
    let m = row(&work.mean, f);
    take_greater::<SQUARE, L>(best, &m, &row(&work.square, f));
}

/// The best of two runs, the first on ties: the second only where it is greater.
#[inline(always)]
fn choose<const SQUARE: bool, const L: usize>(
    first: (Lanes<L>, Lanes<L>),
    second: (Lanes<L>, Lanes<L>),
) -> (Lanes<L>, Lanes<L>) {
    let mut out = first;
    take_greater::<SQUARE, L>(&mut out, &second.0, &second.1);
    out
}

/// `best` becomes `(mean, other)` in the lanes where `mean` is greater: the step of
/// every choice here, the first of the best kept on ties. `other` (the second moment or
/// the variance that follows the mean) only with `SECOND`.
#[inline(always)]
fn take_greater<const SECOND: bool, const L: usize>(
    best: &mut (Lanes<L>, Lanes<L>),
    mean: &Lanes<L>,
    other: &Lanes<L>,
) {
    let mut better = [0; L];
    for l in 0..L {
        better[l] = greater(mean[l], best.0[l]);
    }
    for l in 0..L {
        best.0[l] = pick(better[l], mean[l], best.0[l]);
        if SECOND {
            best.1[l] = pick(better[l], other[l], best.1[l]);
        }
    }
}

/// For each keep, per lane, the best keep within it by `values`, the keeps' own values
/// (overwritten with the best's), and which keep that is, in `which` (its index as a
/// number). As [`best`] does, smallest first, from the keeps with one die fewer; ties go
/// to the smaller index, so that the choice is the same whatever the order of the work,
/// and is the first of the best in [`Dice::keeps_of_roll`], which lists each roll's
/// keeps by index.
#[inline(always)]
pub fn best_which(plan: &Plan, values: &mut [Lane; KEEP_ROOM], which: &mut [Lane; KEEP_ROOM]) {
    for (k, w) in which.iter_mut().enumerate().take(plan.dice.keeps.len()) {
        *w = [k as f64; LANES];
    }
    for (n, keeps) in &plan.best {
        match n {
            1 => which_run::<1>(keeps, values, which),
            2 => which_run::<2>(keeps, values, which),
            3 => which_run::<3>(keeps, values, which),
            4 => which_run::<4>(keeps, values, which),
            _ => which_run::<5>(keeps, values, which),
        }
    }
}

/// [`best_which`] for a run of keeps with `N` keeps of one die fewer each.
#[inline(always)]
fn which_run<const N: usize>(
    keeps: &[Fewer],
    values: &mut [Lane; KEEP_ROOM],
    which: &mut [Lane; KEEP_ROOM],
) {
    for (k, fewer) in keeps {
        let k = *k;
        let (mut value, mut index) = (row::<_, LANES>(values, k), row::<_, LANES>(which, k));
        for &f in &fewer[..N] {
            let (v, i) = (row::<_, LANES>(values, f), row::<_, LANES>(which, f));
            for l in 0..LANES {
                let better =
                    greater(v[l], value[l]) | (equal(v[l], value[l]) & greater(index[l], i[l]));
                value[l] = pick(better, v[l], value[l]);
                index[l] = pick(better, i[l], index[l]);
            }
        }
        set_row(values, k, value);
        set_row(which, k, index);
    }
}

/// The expected value over the first roll of the turn, from the rolls' slots.
#[inline(always)]
pub fn first_roll(plan: &Plan, values: &[Lane; KEEP_ROOM]) -> Lane {
    let mut total = [0.0; LANES];
    for (&r, &p) in plan.roll_offsets.iter().zip(&plan.dice.roll_probability) {
        let v = row::<_, LANES>(values, r);
        for l in 0..LANES {
            total[l] += p * v[l];
        }
    }
    total
}

/// [`first_roll`] of the means and of the second moments, in one loop: each sum is a
/// chain of dependent additions, and two chains side by side take the time of one.
#[inline(always)]
pub fn first_roll_moments<const L: usize>(plan: &Plan, work: &Work) -> (Lanes<L>, Lanes<L>) {
    let mut mean = [0.0; L];
    let mut square = [0.0; L];
    for (&r, &p) in plan.roll_offsets.iter().zip(&plan.dice.roll_probability) {
        let (m, s) = (row::<_, L>(&work.mean, r), row::<_, L>(&work.square, r));
        for l in 0..L {
            mean[l] += p * m[l];
            square[l] += p * s[l];
        }
    }
    (mean, square)
}

/// How the lanes may score a last roll when they share their open boxes: for each box
/// (and outcome, see [`super::solve`](mod@super::solve)) a successor slot holding, per
/// lane, the points that come with it beyond the box's own (the upper bonus) plus the
/// expected future, and the variance of that future.
#[derive(Clone, Debug)]
pub struct Successors {
    pub mean: Box<Rows<SLOT_ROOM>>,
    pub variance: Box<Rows<SLOT_ROOM>>,
}

impl Successors {
    pub fn new() -> Successors {
        Successors {
            mean: lanes(),
            variance: lanes(),
        }
    }
}

impl Default for Successors {
    fn default() -> Self {
        Successors::new()
    }
}

/// The boxes each roll may be scored in, which every lane of a group shares: the points
/// the roll itself earns there and the successor slot (as an [`offset`]).
///
/// A roll that is not a Yahtzee may go in every open box with its plain score, so its
/// choices are found from tables worked out once for a solve, and only referred to
/// here: the scoring of a group is made ready without a pass over its rolls.
///
/// Such a roll leads, from a lower box, to the same slot whatever the roll (the slot
/// of a box scored, see [`super::solve`](mod@super::solve)), so those slots' rows are
/// read once per turn, and the roll keeps only its points there ([`Scoring::points`]):
/// its lower boxes are weighed on numbers held in registers, where each choice had read
/// two rows.
///
/// What a roll earns in an upper box depends only on how many dice show that box's
/// face. With two to four upper boxes open, many rolls show the same counts of the
/// open faces (53 counts among the 246 rolls that are not Yahtzees, with three open),
/// so the best upper box is found once for each count ([`Upper::Counts`]).
///
/// Either way a roll's choices are weighed in the order of the boxes, upper ones
/// first, and the first of the best is taken: the same choice, to the bit, as weighing
/// every box in order (a test holds it to a plain reading of the rules).
#[derive(Clone, Debug, Default)]
pub struct Scoring<'a> {
    /// The rolls that are not Yahtzees, as offsets.
    pub rolls: &'a [u16],
    /// Their open upper boxes.
    pub upper: Upper<'a>,
    /// The slots of the open lower boxes, in order, as offsets.
    pub lower: Vec<u16>,
    /// `points[i * K..(i + 1) * K]`: the points of roll `i` in the `K` open lower boxes.
    pub points: &'a [f64],
    /// The Yahtzees, as offsets, whose boxes depend on the joker rules: Yahtzee `y` may go
    /// in `choices[start[y]..start[y + 1]]`, and earns `bonus[y]` besides in the lanes
    /// whose Yahtzee box holds 50.
    pub yahtzees: &'a [u16],
    pub start: Vec<u32>,
    pub choices: Vec<(f64, u16)>,
    pub bonus: Vec<f64>,
}

/// The open upper boxes of the rolls that are not Yahtzees (see [`Scoring`]).
#[derive(Clone, Copy, Debug, Default)]
pub enum Upper<'a> {
    /// None is open.
    #[default]
    None,
    /// `choices[i * n..(i + 1) * n]`: the choices of roll `i` in the `n` open boxes.
    Each { n: usize, choices: &'a [(f64, u16)] },
    /// Roll `i` weighs the best upper box of count `of_roll[i]` of the open faces, and
    /// `choices[start[j]..start[j + 1]]` are the open boxes of count `j`, in order.
    Counts {
        of_roll: &'a [u16],
        start: &'a [u32],
        choices: &'a [(f64, u16)],
    },
}

impl Scoring<'_> {
    /// The most lower boxes.
    pub const LOWER: usize = 7;
}

/// Fills the rolls' slots with the best last-roll scoring, per lane, and its second
/// moment. `fifty` is 1 in the lanes whose Yahtzee box holds 50, else 0.
#[inline(always)]
pub fn score_rolls<const L: usize>(
    scoring: &Scoring,
    fifty: &Lanes<L>,
    next: &Successors,
    work: &mut Work,
) {
    if let Upper::Counts { start, choices, .. } = scoring.upper {
        for (j, ends) in start.windows(2).enumerate() {
            let choices = &choices[ends[0] as usize..ends[1] as usize];
            let (mean, variance) = best_choice::<L>(choices, next, |points, _| points);
            set_row(&mut work.upper_mean, offset(j), mean);
            set_row(&mut work.upper_variance, offset(j), variance);
        }
    }
    // Unrolled for each number of open lower boxes.
    match scoring.lower.len() {
        0 => score_others::<L, 0>(scoring, next, work),
        1 => score_others::<L, 1>(scoring, next, work),
        2 => score_others::<L, 2>(scoring, next, work),
        3 => score_others::<L, 3>(scoring, next, work),
        4 => score_others::<L, 4>(scoring, next, work),
        5 => score_others::<L, 5>(scoring, next, work),
        6 => score_others::<L, 6>(scoring, next, work),
        _ => score_others::<L, { Scoring::LOWER }>(scoring, next, work),
    }
    for (y, &r) in scoring.yahtzees.iter().enumerate() {
        let choices = &scoring.choices[scoring.start[y] as usize..scoring.start[y + 1] as usize];
        // Whole numbers: the bonus added to the points is exact, so a lane's total is
        // the same number as if the bonus were in the points.
        let mut extra = [0.0; L];
        for l in 0..L {
            extra[l] = scoring.bonus[y] * fifty[l];
        }
        let (mean, variance) = best_choice::<L>(choices, next, |points, l| points + extra[l]);
        set_moments(work, r, mean, variance);
    }
}

/// Writes the slot of roll `r`: the mean, and the second moment, the square of the
/// mean plus the variance of the future, which does not depend on the points.
#[inline(always)]
fn set_moments<const L: usize>(work: &mut Work, r: u16, mean: Lanes<L>, variance: Lanes<L>) {
    let mut square = [0.0; L];
    for l in 0..L {
        square[l] = mean[l] * mean[l] + variance[l];
    }
    set_row(&mut work.mean, r, mean);
    set_row(&mut work.square, r, square);
}

/// [`score_rolls`] for the rolls that are not Yahtzees, with `K` lower boxes open, after
/// the upper boxes' counts.
#[inline(always)]
fn score_others<const L: usize, const K: usize>(
    scoring: &Scoring,
    next: &Successors,
    work: &mut Work,
) {
    let lower: [(Lanes<L>, Lanes<L>); K] = std::array::from_fn(|j| {
        let slot = scoring.lower[j];
        (row(&next.mean, slot), row(&next.variance, slot))
    });
    for (i, &r) in scoring.rolls.iter().enumerate() {
        let points: &[f64; K] = scoring.points[i * K..i * K + K]
            .try_into()
            .expect("K points a roll");
        let upper = match scoring.upper {
            Upper::None => None,
            Upper::Each { n, choices } => Some(best_choice(
                &choices[i * n..i * n + n],
                next,
                |points, _| points,
            )),
            Upper::Counts { of_roll, .. } => {
                let j = offset(usize::from(of_roll[i]));
                Some((row(&work.upper_mean, j), row(&work.upper_variance, j)))
            }
        };
        let (mean, variance) = match upper {
            Some(start) => best_lower_after(start, points, &lower, 0),
            None => {
                let first = lower_choice(
                    *points.first().expect("a roll has at least one box"),
                    lower.first().expect("a roll has at least one box"),
                );
                best_lower_after(first, points, &lower, 1)
            }
        };
        set_moments(work, r, mean, variance);
    }
}

/// The first of the best of `start` and then the lower boxes `from..K`, worth `points`
/// beside the futures `lower`. Two runs, as in [`best_choice_after`].
#[inline(always)]
fn best_lower_after<const L: usize, const K: usize>(
    start: (Lanes<L>, Lanes<L>),
    points: &[f64; K],
    lower: &[(Lanes<L>, Lanes<L>); K],
    from: usize,
) -> (Lanes<L>, Lanes<L>) {
    let split = from + (K - from) / 2;
    let mut first = start;
    if split == K {
        return first;
    }
    let mut second = lower_choice(points[split], &lower[split]);
    for j in from..split {
        better_lower(&mut first, points[j], &lower[j]);
    }
    for j in split + 1..K {
        better_lower(&mut second, points[j], &lower[j]);
    }
    choose::<true, L>(first, second)
}

/// The mean and the variance of the future of a lower box worth `points`.
#[inline(always)]
fn lower_choice<const L: usize>(
    points: f64,
    (mean, variance): &(Lanes<L>, Lanes<L>),
) -> (Lanes<L>, Lanes<L>) {
    let mut total = [0.0; L];
    for l in 0..L {
        total[l] = points + mean[l];
    }
    (total, *variance)
}

/// `best` becomes the lower box worth `points` in the lanes where it is worth more.
#[inline(always)]
fn better_lower<const L: usize>(
    best: &mut (Lanes<L>, Lanes<L>),
    points: f64,
    future: &(Lanes<L>, Lanes<L>),
) {
    let (total, variance) = lower_choice(points, future);
    take_greater::<true, L>(best, &total, &variance);
}

/// The best of `choices` per lane, with `points(p, lane)` the points of a choice worth
/// `p` in lane `lane`: its mean and the variance of its future. The first of the best
/// on ties, in two runs as in [`best_of`]. A roll has at least one choice.
#[inline(always)]
fn best_choice<const L: usize>(
    choices: &[(f64, u16)],
    next: &Successors,
    points: impl Fn(f64, usize) -> f64,
) -> (Lanes<L>, Lanes<L>) {
    let (&first, rest) = choices
        .split_first()
        .expect("a roll has at least one choice");
    best_choice_after(start_choice(next, first, &points), rest, next, points)
}

/// The first of the best of `start` and then `choices` (perhaps none), per lane. Two
/// runs, as in [`best_of`]: `start` and the first half of `choices`, and the second
/// half, taken only where it is greater: the same choice as one run in order.
#[inline(always)]
fn best_choice_after<const L: usize>(
    start: (Lanes<L>, Lanes<L>),
    choices: &[(f64, u16)],
    next: &Successors,
    points: impl Fn(f64, usize) -> f64,
) -> (Lanes<L>, Lanes<L>) {
    // The first run is `start` and the first half of `choices`.
    let (firsts, seconds) = choices.split_at(choices.len() / 2);
    let mut first = start;
    let Some((&s, seconds)) = seconds.split_first() else {
        return first;
    };
    let mut second = start_choice(next, s, &points);
    for (i, &c) in seconds.iter().enumerate() {
        better_choice(&mut second, next, c, &points);
        if let Some(&c) = firsts.get(i) {
            better_choice(&mut first, next, c, &points);
        }
    }
    for &c in firsts.iter().skip(seconds.len()) {
        better_choice(&mut first, next, c, &points);
    }
    choose::<true, L>(first, second)
}

/// The mean and the variance of the future of `choice`, in every lane.
#[inline(always)]
fn start_choice<const L: usize>(
    next: &Successors,
    (p, slot): (f64, u16),
    points: &impl Fn(f64, usize) -> f64,
) -> (Lanes<L>, Lanes<L>) {
    let m = row::<_, L>(&next.mean, slot);
    let mut total = [0.0; L];
    for l in 0..L {
        total[l] = points(p, l) + m[l];
    }
    (total, row::<_, L>(&next.variance, slot))
}

/// `best` becomes `choice` in the lanes where it is worth more.
#[inline(always)]
fn better_choice<const L: usize>(
    best: &mut (Lanes<L>, Lanes<L>),
    next: &Successors,
    (p, slot): (f64, u16),
    points: &impl Fn(f64, usize) -> f64,
) {
    let (total, variance) = start_choice(next, (p, slot), points);
    take_greater::<true, L>(best, &total, &variance);
}

/// Fills the rolls' slots of the first `lanes` lanes with `value(lane, roll)`, the
/// best last-roll mean of each roll (by its place in the plan's rolls), for lanes that
/// each have their own boxes. The other lanes are set to zero.
pub fn score_rolls_apart(
    plan: &Plan,
    lanes: usize,
    value: impl Fn(usize, usize) -> f64,
    work: &mut Work,
) {
    for (i, &r) in plan.rolls.iter().enumerate() {
        let mut mean = [0.0; LANES];
        for (l, m) in mean.iter_mut().enumerate().take(lanes) {
            *m = value(l, i);
        }
        work.mean[keep(r)] = mean;
    }
}

/// A whole turn for lanes that share their open boxes: the expected future score at the
/// start of the turn, and its second moment.
#[inline(always)]
pub fn turn<const FMA: bool, const L: usize>(
    plan: &Plan,
    scoring: &Scoring,
    fifty: &Lanes<L>,
    next: &Successors,
    work: &mut Work,
) -> (Lanes<L>, Lanes<L>) {
    score_rolls(scoring, fifty, next, work);
    for _ in 0..2 {
        average::<true, FMA, L>(plan, work);
        best::<true, L>(plan, work);
    }
    first_roll_moments(plan, work)
}

/// The next number of a xorshift generator in state `x`: the tests' numbers.
#[cfg(test)]
pub(crate) fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A generator of tie-heavy numbers: whole numbers below `n`.
    fn small(x: &mut u64, n: u64) -> f64 {
        (xorshift(x) % n) as f64
    }

    #[test]
    fn the_best_in_two_halves_is_the_best_of_one_run_in_order() {
        let plan = Plan::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..50 {
            let mut work = Work::new(&plan);
            for k in 0..plan.dice.keeps.len() {
                work.mean[k] = std::array::from_fn(|_| small(&mut x, 1 + round % 5));
                work.square[k] = std::array::from_fn(|_| small(&mut x, 1000));
            }
            let mut one_run = work.clone();
            for (n, keeps) in &plan.best {
                for (k, fewer) in keeps {
                    // The plan's offsets, as keep indices.
                    let k = usize::from(*k) / LANES;
                    for &f in &fewer[..usize::from(*n)] {
                        let f = usize::from(f) / LANES;
                        for l in 0..LANES {
                            if one_run.mean[f][l] > one_run.mean[k][l] {
                                one_run.mean[k][l] = one_run.mean[f][l];
                                one_run.square[k][l] = one_run.square[f][l];
                            }
                        }
                    }
                }
            }
            best::<true, LANES>(&plan, &mut work);
            assert_eq!(work.mean, one_run.mean);
            assert_eq!(work.square, one_run.square);
        }
        let mut next = Successors::new();
        for round in 0..300 {
            for slot in 0..SLOTS {
                next.mean[slot] = std::array::from_fn(|_| small(&mut x, 1 + round % 4));
                next.variance[slot] = std::array::from_fn(|_| small(&mut x, 1000));
            }
            let choices: Vec<(f64, u16)> = (0..1 + round % 13)
                .map(|_| {
                    (
                        small(&mut x, 3),
                        offset(small(&mut x, SLOTS as u64) as usize),
                    )
                })
                .collect();
            let extra: Lane = std::array::from_fn(|_| small(&mut x, 2));
            let (mean, variance) = best_choice::<LANES>(&choices, &next, |p, l| p + extra[l]);
            for l in 0..LANES {
                let mut best = (f64::NEG_INFINITY, 0.0);
                for &(p, slot) in &choices {
                    let slot = usize::from(slot) / LANES;
                    let total = p + extra[l] + next.mean[slot][l];
                    if total > best.0 {
                        best = (total, next.variance[slot][l]);
                    }
                }
                assert_eq!((mean[l], variance[l]), best, "{choices:?}");
            }
        }
    }

    #[test]
    fn every_row_of_lanes_is_one_cache_line() {
        let plan = Plan::new();
        let (work, next) = (Work::new(&plan), Successors::new());
        for rows in [
            &work.mean[..],
            &work.square[..],
            &next.mean[..],
            &next.variance[..],
        ] {
            assert_eq!(std::mem::size_of_val(&rows[0]), 64);
            for row in rows {
                assert_eq!(row.as_ptr() as usize % 64, 0);
            }
        }
    }

    #[test]
    fn the_best_keep_within_a_roll_is_the_first_of_the_best_among_its_keeps() {
        // Values from a few numbers only, so that ties are everywhere.
        let plan = Plan::new();
        let n = plan.dice.keeps.len();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..20 {
            let mut values = vec![[0.0; LANES]; KEEP_ROOM].into_boxed_slice();
            for v in values.iter_mut().take(n) {
                for value in v.iter_mut() {
                    *value = small(&mut x, 2 + round % 4);
                }
            }
            let own: Vec<Lane> = values[..n].to_vec();
            let mut values: Box<[Lane; KEEP_ROOM]> = values.try_into().unwrap();
            let mut which = Box::new([[0.0; LANES]; KEEP_ROOM]);
            best_which(&plan, &mut values, &mut which);
            for (r, keeps) in plan.dice.rolls.iter().zip(&plan.dice.keeps_of_roll) {
                for l in 0..LANES {
                    let mut first = (f64::NEG_INFINITY, usize::MAX);
                    for &k in keeps {
                        if own[k][l] > first.0 {
                            first = (own[k][l], k);
                        }
                    }
                    assert_eq!(which[*r][l] as usize, first.1);
                    assert_eq!(values[*r][l], first.0);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn a_sixth_by_product_and_correction_is_the_division(
            bits in any::<u64>(),
            small in 0.0f64..1e6,
        ) {
            for x in [f64::from_bits(bits), small] {
                if x.is_finite() && x.abs() < 1e300 && (x == 0.0 || x.abs() > 1e-290) {
                    prop_assert_eq!(sixth::<true>(x).to_bits(), (x / 6.0).to_bits(), "{}", x);
                }
            }
        }
    }
}
