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

use super::dice::Dice;

/// Positions worked out side by side: sixteen is fastest here (two vectors of eight
/// with AVX-512; eight or thirty-two lanes take longer).
pub const LANES: usize = 16;
/// Successor slots of a position: six outcomes for each of the thirteen boxes (see
/// [`super::solve`]).
pub const SLOTS: usize = 13 * 6;
/// One number per lane.
pub type Lane = [f64; LANES];

/// The order of work over the keeps, flattened from [`Dice`] for the hot loops.
#[derive(Debug)]
pub struct Plan {
    pub dice: Dice,
    /// Keeps of fewer than five dice, largest first, with the keeps one face more.
    average: Vec<(u16, [u16; 6])>,
    /// Keeps of one die or more, smallest first, with their range in `fewer`.
    best: Vec<(u16, u32, u32)>,
    /// The distinct keeps with one die fewer, for each keep of `best` in turn.
    fewer: Vec<u16>,
    /// The keep index of each roll, in the order of `dice.rolls`.
    pub rolls: Vec<u16>,
}

impl Plan {
    pub fn new() -> Plan {
        let dice = Dice::new();
        let short = |k: usize| k as u16;
        let average = (1..6)
            .flat_map(|s| dice.by_size[s].iter())
            .map(|&k| (short(k), dice.with_face[k].map(short)))
            .collect();
        let mut best = Vec::new();
        let mut fewer = Vec::new();
        for s in (0..5).rev() {
            for &k in &dice.by_size[s] {
                let start = fewer.len() as u32;
                fewer.extend(dice.without_one[k].iter().map(|&l| short(l)));
                best.push((short(k), start, fewer.len() as u32));
            }
        }
        let rolls = dice.rolls.iter().map(|&r| short(r)).collect();
        Plan {
            dice,
            average,
            best,
            fewer,
            rolls,
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
    pub mean: Vec<Lane>,
    pub square: Vec<Lane>,
}

impl Work {
    pub fn new(plan: &Plan) -> Work {
        let n = plan.dice.keeps.len();
        Work {
            mean: vec![[0.0; LANES]; n],
            square: vec![[0.0; LANES]; n],
        }
    }
}

/// Keeps of fewer than five dice: the mean over the face added. With `SQUARE`, the
/// second moment too.
#[inline(always)]
pub fn average<const SQUARE: bool>(plan: &Plan, work: &mut Work) {
    for &(k, next) in &plan.average {
        let mut mean = [0.0; LANES];
        let mut square = [0.0; LANES];
        for &n in &next {
            let m = work.mean[usize::from(n)];
            for l in 0..LANES {
                mean[l] += m[l];
            }
            if SQUARE {
                let s = work.square[usize::from(n)];
                for l in 0..LANES {
                    square[l] += s[l];
                }
            }
        }
        for l in 0..LANES {
            mean[l] /= 6.0;
            square[l] /= 6.0;
        }
        work.mean[usize::from(k)] = mean;
        if SQUARE {
            work.square[usize::from(k)] = square;
        }
    }
}

/// Each keep becomes the best keep within it, in place, smallest first: after this,
/// a roll's slot holds the value of its best keep. The second moment, with `SQUARE`,
/// follows the best mean.
#[inline(always)]
pub fn best<const SQUARE: bool>(plan: &Plan, work: &mut Work) {
    for &(k, start, end) in &plan.best {
        let k = usize::from(k);
        let mut mean = work.mean[k];
        let mut square = work.square[k];
        for &f in &plan.fewer[start as usize..end as usize] {
            let m = work.mean[usize::from(f)];
            let s = work.square[usize::from(f)];
            for l in 0..LANES {
                let better = m[l] > mean[l];
                mean[l] = if better { m[l] } else { mean[l] };
                if SQUARE {
                    square[l] = if better { s[l] } else { square[l] };
                }
            }
        }
        work.mean[k] = mean;
        if SQUARE {
            work.square[k] = square;
        }
    }
}

/// The expected value over the first roll of the turn, from the rolls' slots.
#[inline(always)]
pub fn first_roll(plan: &Plan, values: &[Lane]) -> Lane {
    let mut total = [0.0; LANES];
    for (&r, &p) in plan.rolls.iter().zip(&plan.dice.roll_probability) {
        let v = values[usize::from(r)];
        for l in 0..LANES {
            total[l] += p * v[l];
        }
    }
    total
}

/// How the lanes may score a last roll when they share their open boxes: for each box
/// (and outcome, see [`super::solve`]) a successor slot holding, per lane, the points
/// that come with it beyond the box's own (the upper bonus) plus the expected future,
/// and the variance of that future.
#[derive(Clone, Debug)]
pub struct Successors {
    pub mean: Vec<Lane>,
    pub variance: Vec<Lane>,
}

/// For each roll, the boxes it may be scored in: the points the roll itself earns
/// there (the 100 bonus included) and the successor slot.
#[derive(Clone, Debug, Default)]
pub struct Scoring {
    /// `choices[start[i]..start[i + 1]]` belong to roll `i`.
    pub start: Vec<u32>,
    pub choices: Vec<(f64, u16)>,
}

/// Fills the rolls' slots with the best last-roll scoring, per lane, and its second
/// moment: the square of the total is the square of its mean plus the variance of the
/// future, which does not depend on the points.
#[inline(always)]
pub fn score_rolls(plan: &Plan, scoring: &Scoring, next: &Successors, work: &mut Work) {
    for (i, &r) in plan.rolls.iter().enumerate() {
        let mut mean = [f64::NEG_INFINITY; LANES];
        let mut variance = [0.0; LANES];
        let choices = &scoring.choices[scoring.start[i] as usize..scoring.start[i + 1] as usize];
        for &(points, slot) in choices {
            let m = next.mean[usize::from(slot)];
            let v = next.variance[usize::from(slot)];
            for l in 0..LANES {
                let total = points + m[l];
                let better = total > mean[l];
                mean[l] = if better { total } else { mean[l] };
                variance[l] = if better { v[l] } else { variance[l] };
            }
        }
        let mut square = [0.0; LANES];
        for l in 0..LANES {
            square[l] = mean[l] * mean[l] + variance[l];
        }
        work.mean[usize::from(r)] = mean;
        work.square[usize::from(r)] = square;
    }
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
        work.mean[usize::from(r)] = mean;
    }
}

/// A whole turn for lanes that share their open boxes: the expected future score at the
/// start of the turn, and its second moment.
#[inline(always)]
pub fn turn(plan: &Plan, scoring: &Scoring, next: &Successors, work: &mut Work) -> (Lane, Lane) {
    score_rolls(plan, scoring, next, work);
    for _ in 0..2 {
        average::<true>(plan, work);
        best::<true>(plan, work);
    }
    (first_roll(plan, &work.mean), first_roll(plan, &work.square))
}
