//! The whole solitaire game solved for the largest expected score: the value of every
//! turn-start position (boxes filled, upper total capped at 63, whether the Yahtzee box
//! holds 50), from the last turn back to the first, each turn's three rolls worked out
//! in full. The second moment of the score under the same play rides along, for the
//! standard deviation. Positions that differ only in their upper total are solved side
//! by side (see [`super::turn`]).

use rayon::prelude::*;

use super::rules::{choices_scored, Rules, Scored, UPPER, UPPER_BONUS, UPPER_BONUS_AT, YAHTZEE};
use super::turn::{
    offset, turn, Lane, Plan, Scoring, Successors, Upper, Work, LANES, NARROW, UPPER_ROOM,
};

const BOXES: usize = 13;
const CAP: usize = UPPER_BONUS_AT as usize;
/// The full card: no turn left.
const FULL: u16 = (1 << BOXES) - 1;
/// Positions in the table, reachable or not: see [`Position::index`].
pub(crate) const TABLE_LEN: usize = 1 << (BOXES + 1 + 6);
/// Positions per set of filled boxes: both flags, every upper total. A set's positions
/// are one block of the table.
const BLOCK: usize = 1 << (1 + 6);

/// A turn-start position: filled boxes (bit per box), upper total capped at 63, and
/// whether the Yahtzee box holds 50.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub filled: u16,
    pub upper: u8,
    pub yahtzee_50: bool,
}

impl Position {
    /// The index of the position in the solved table: the positions that differ only in
    /// their upper total are side by side, as the solver works on them together.
    pub fn index(self) -> usize {
        (((usize::from(self.filled) << 1) | usize::from(self.yahtzee_50)) << 6)
            | usize::from(self.upper)
    }
}

/// The expected score still to come, and its second moment, under optimal play.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    pub mean: f64,
    pub square: f64,
}

/// The value of every reachable turn-start position.
pub struct Table {
    pub rules: Rules,
    pub values: Vec<Moments>,
    /// Positions solved (reachable ones only).
    pub positions: usize,
}

impl Table {
    pub fn get(&self, p: Position) -> Moments {
        self.values[p.index()]
    }

    /// The expected score and its standard deviation from the empty card.
    pub fn expected_score(&self) -> (f64, f64) {
        let m = self.get(Position {
            filled: 0,
            upper: 0,
            yahtzee_50: false,
        });
        (m.mean, (m.square - m.mean * m.mean).max(0.0).sqrt())
    }
}

/// For each set of filled upper boxes, the upper totals (capped at 63) it can have.
fn reachable_upper() -> [u64; 64] {
    std::array::from_fn(|mask| {
        let mut sums: u64 = 1; // bit u: total u reachable
        for face in 0..UPPER {
            if mask & (1 << face) == 0 {
                continue;
            }
            let mut next = 0u64;
            for n in 0..=5 {
                let add = (face + 1) * n;
                for u in 0..=CAP {
                    if sums & (1 << u) != 0 {
                        next |= 1 << (u + add).min(CAP);
                    }
                }
            }
            sums = next;
        }
        sums
    })
}

/// The successor slot of scoring `points` in box `b`: what the next position depends
/// on besides the box, the count of the face for an upper box and 50 or not for the
/// Yahtzee box.
pub(crate) fn slot(b: usize, points: u32) -> usize {
    let outcome = if b < UPPER {
        points as usize / (b + 1)
    } else if b == YAHTZEE {
        usize::from(points == 50)
    } else {
        0
    };
    b * 6 + outcome
}

/// The upper total after scoring `n` dice of face `b + 1` in upper box `b` from total
/// `upper`, and the upper bonus that this earns.
fn upper_after(upper: u8, b: usize, n: usize) -> (u8, u32) {
    let next = (usize::from(upper) + n * (b + 1)).min(CAP) as u8;
    let bonus = if usize::from(upper) < CAP && usize::from(next) == CAP {
        UPPER_BONUS
    } else {
        0
    };
    (next, bonus)
}

/// Where each successor slot leads from `at`: the upper bonus it earns and the next
/// position (`None` when the card is then full).
pub(crate) fn successor(at: Position, slot: usize) -> (u32, Option<Position>) {
    let (b, n) = (slot / 6, slot % 6);
    let (upper, bonus) = if b < UPPER {
        upper_after(at.upper, b, n)
    } else {
        (at.upper, 0)
    };
    let next = Position {
        filled: at.filled | 1 << b,
        upper,
        yahtzee_50: at.yahtzee_50 || (b == YAHTZEE && n == 1),
    };
    (bonus, (next.filled != FULL).then_some(next))
}

/// The slots that scoring from `filled` can use.
pub(crate) fn open_slots(filled: u16) -> impl Iterator<Item = usize> {
    (0..BOXES)
        .filter(move |&b| filled & (1 << b) == 0)
        .flat_map(|b| (0..outcomes(b)).map(move |n| b * 6 + n))
}

/// How many successor slots box `b` has: see [`slot`].
fn outcomes(b: usize) -> usize {
    if b < UPPER {
        6
    } else if b == YAHTZEE {
        2
    } else {
        1
    }
}

/// The expected future and its second moment after scoring through `slot` from `at`,
/// the upper bonus included.
pub(crate) fn after(at: Position, slot: usize, values: &[Moments]) -> Moments {
    let (bonus, next) = successor(at, slot);
    with_bonus(
        bonus,
        next.map_or(Moments::default(), |p| values[p.index()]),
    )
}

/// The moments of `bonus` points now and `future` after.
#[inline(always)]
fn with_bonus(bonus: u32, future: Moments) -> Moments {
    let g = f64::from(bonus);
    Moments {
        mean: g + future.mean,
        square: g * g + 2.0 * g * future.mean + future.square,
    }
}

/// The solved blocks of the turn after the one being solved: every successor of a
/// position is there, one box more being filled.
struct Later<'a> {
    /// By set of filled boxes; empty for the other turns.
    blocks: Vec<&'a [Moments]>,
}

impl Later<'_> {
    fn block(&self, filled: u16) -> &[Moments] {
        self.blocks[usize::from(filled)]
    }
}

/// Fills the successor slots that scoring from `filled` can use, for the positions of
/// `chunk` (lanes beyond it repeat its last position): per lane, [`after`] and the
/// variance of the future. Box by box, so that a box's next positions are found from
/// one block, each lane's place in it worked out once a chunk: this runs for every
/// chunk (through [`after`], a slot and a lane at a time, it took a sixth of the solve).
fn fill_successors(filled: u16, chunk: &[Position], later: &Later, next: &mut Successors) {
    let at = |l: usize| chunk[l.min(chunk.len() - 1)];
    let upper: [usize; LANES] = std::array::from_fn(|l| usize::from(at(l).upper));
    // Each lane's place in a block: the flag above the upper total (see
    // [`Position::index`]).
    let place: [usize; LANES] =
        std::array::from_fn(|l| usize::from(at(l).yahtzee_50) << 6 | upper[l]);
    for b in (0..BOXES).filter(|&b| filled & (1 << b) == 0) {
        let next_filled = filled | 1 << b;
        if next_filled == FULL {
            // The last box: only its upper bonus is still to come.
            for n in 0..outcomes(b) {
                let slot = b * 6 + n;
                for (l, &u) in upper.iter().enumerate() {
                    let bonus = if b < UPPER {
                        upper_after(u as u8, b, n).1
                    } else {
                        0
                    };
                    let m = with_bonus(bonus, Moments::default());
                    next.mean[slot][l] = m.mean;
                    next.variance[slot][l] = m.square - m.mean * m.mean;
                }
            }
            continue;
        }
        let block: &[Moments; BLOCK] = later
            .block(next_filled)
            .try_into()
            .expect("a block of the turn after");
        if b < UPPER {
            for n in 0..6 {
                let slot = b * 6 + n;
                let (mean, variance) = (&mut next.mean[slot], &mut next.variance[slot]);
                for l in 0..LANES {
                    let (total, bonus) = upper_after(upper[l] as u8, b, n);
                    let future = block[(place[l] - upper[l] + usize::from(total)) & (BLOCK - 1)];
                    let m = if bonus == 0 {
                        future
                    } else {
                        with_bonus(bonus, future)
                    };
                    mean[l] = m.mean;
                    variance[l] = m.square - m.mean * m.mean;
                }
            }
        } else {
            for n in 0..outcomes(b) {
                let slot = b * 6 + n;
                // Scoring 50 in the Yahtzee box sets the flag.
                let fifty = if b == YAHTZEE && n == 1 { 1 << 6 } else { 0 };
                let (mean, variance) = (&mut next.mean[slot], &mut next.variance[slot]);
                for l in 0..LANES {
                    let future = block[(place[l] | fifty) & (BLOCK - 1)];
                    mean[l] = future.mean;
                    variance[l] = future.square - future.mean * future.mean;
                }
            }
        }
    }
}

/// The boxes each roll may be scored in from `filled`: what every lane of a group
/// shares. Written into `s`, whose room is reused from group to group: the rolls that
/// are not Yahtzees are referred to `plain`'s tables (see [`Scoring`]), and only the
/// Yahtzees' boxes, which depend on the joker rules, are listed.
fn scoring_into<'a>(s: &mut Scoring<'a>, rules: Rules, plain: &'a Plain, filled: u16) {
    s.rolls = &plain.others;
    s.upper = match &plain.upper[usize::from(!filled) & ((1 << UPPER) - 1)] {
        UpperBoxes::Each(0, _) => Upper::None,
        UpperBoxes::Each(n, choices) => Upper::Each { n: *n, choices },
        UpperBoxes::Counts(u) => Upper::Counts {
            of_roll: &u.of_roll,
            start: &u.start,
            choices: &u.choices,
        },
    };
    s.lower.clear();
    let mut lower_open = 0;
    for b in (UPPER..BOXES).filter(|&b| filled & (1 << b) == 0) {
        lower_open |= 1 << (b - UPPER);
        // Scored by a roll that is not a Yahtzee, a lower box holds no 50.
        s.lower.push(offset(slot(b, 0)));
    }
    s.points = &plain.points[lower_open];
    s.yahtzees = &plain.yahtzees;
    s.start.clear();
    s.choices.clear();
    s.bonus.clear();
    for roll in &plain.yahtzee_scores {
        s.start.push(s.choices.len() as u32);
        s.bonus.push(f64::from(roll.bonus(rules)));
        choices_scored(rules, filled, roll, |b, points| {
            s.choices.push((f64::from(points), offset(slot(b, points))));
        });
    }
    s.start.push(s.choices.len() as u32);
}

/// What the rolls that are not Yahtzees may score, for every set of open boxes, worked
/// out once for a solve (see [`Scoring`]); and the Yahtzees apart.
struct Plain {
    /// The rolls that are not Yahtzees, as offsets.
    others: Vec<u16>,
    /// The Yahtzees, as offsets, and their scores.
    yahtzees: Vec<u16>,
    yahtzee_scores: Vec<Scored>,
    /// By the set of open upper boxes (bit per box): the choices of each roll that is
    /// not a Yahtzee in them.
    upper: Vec<UpperBoxes>,
    /// By the set of open lower boxes (bit per lower box): the points of each roll that
    /// is not a Yahtzee in them, in order (880 kB in all).
    points: Vec<Vec<f64>>,
}

/// See [`Upper`].
enum UpperBoxes {
    Each(usize, Vec<(f64, u16)>),
    Counts(UpperCounts),
}

/// See [`Upper::Counts`].
struct UpperCounts {
    of_roll: Vec<u16>,
    start: Vec<u32>,
    choices: Vec<(f64, u16)>,
}

impl Plain {
    fn new(plan: &Plan, rolls: &[Scored]) -> Plain {
        let (mut others, mut yahtzees, mut yahtzee_scores, mut other_scores) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (&k, roll) in plan.rolls.iter().zip(rolls) {
            if roll.yahtzee_face.is_some() {
                yahtzees.push(offset(usize::from(k)));
                yahtzee_scores.push(*roll);
            } else {
                others.push(offset(usize::from(k)));
                other_scores.push(*roll);
            }
        }
        let choice = |roll: &Scored, b: usize| {
            let points = roll.plain[b];
            (f64::from(points), offset(slot(b, points)))
        };
        let upper = (0..1usize << UPPER)
            .map(|open| {
                let faces: Vec<usize> = (0..UPPER).filter(|&b| open & (1 << b) != 0).collect();
                // With one upper box open the count is the choice itself, and with five
                // or six the counts tell every roll apart: nothing to share.
                if !(2..=4).contains(&faces.len()) {
                    let choices = other_scores
                        .iter()
                        .flat_map(|roll| faces.iter().map(|&b| choice(roll, b)))
                        .collect();
                    return UpperBoxes::Each(faces.len(), choices);
                }
                // The counts of the open faces, read as a number in base 6.
                let mut count_of = vec![u16::MAX; 6usize.pow(faces.len() as u32)];
                let mut u = UpperCounts {
                    of_roll: Vec::new(),
                    start: vec![0],
                    choices: Vec::new(),
                };
                for roll in &other_scores {
                    let key = faces
                        .iter()
                        .fold(0, |key, &b| key * 6 + roll.plain[b] as usize / (b + 1));
                    if count_of[key] == u16::MAX {
                        count_of[key] = (u.start.len() - 1) as u16;
                        u.choices.extend(faces.iter().map(|&b| choice(roll, b)));
                        u.start.push(u.choices.len() as u32);
                    }
                    u.of_roll.push(count_of[key]);
                }
                assert!(u.start.len() - 1 <= UPPER_ROOM, "room for every count");
                UpperBoxes::Counts(u)
            })
            .collect();
        let points = (0..1usize << Scoring::LOWER)
            .map(|open| {
                other_scores
                    .iter()
                    .flat_map(|roll| {
                        (0..Scoring::LOWER)
                            .filter(move |&j| open & (1 << j) != 0)
                            .map(|j| f64::from(roll.plain[UPPER + j]))
                    })
                    .collect()
            })
            .collect();
        Plain {
            others,
            yahtzees,
            yahtzee_scores,
            upper,
            points,
        }
    }
}

/// Each roll's scores, in the order of the plan's rolls.
pub(crate) fn scored_rolls(plan: &Plan) -> Vec<Scored> {
    plan.dice
        .rolls
        .iter()
        .map(|&r| Scored::new(&plan.dice.keeps[r]))
        .collect()
}

/// The upper totals of the positions with a given set of upper boxes filled, and the
/// ones worth solving. Two totals have the same value when the upper boxes still open
/// earn the bonus in the same cases from both: the bonus comes with the first score that
/// brings the total to 63, so a total below 63 earns it from exactly the additions of at
/// least 63 minus it, and what tells two totals apart is the least addition the open
/// boxes can make that reaches 63 (none, for 63 itself or a bonus out of reach). Each
/// such class is solved once, for its smallest total: in the endgame, where the open
/// upper boxes add few distinct amounts, that leaves 12% fewer lanes to solve (340,000
/// in place of 385,000). The totals of a class have the same successors in every box,
/// so the same bits.
#[derive(Debug)]
struct Uppers {
    /// Each reachable total with the total it has the value of.
    same_as: Vec<(u8, u8)>,
    /// The totals to solve.
    solve: Vec<u8>,
}

impl Uppers {
    fn new(upper_filled: usize, reachable: u64) -> Uppers {
        // Bit a: the boxes still open can add a to the upper total.
        let mut additions: u128 = 1;
        for b in (0..UPPER).filter(|&b| upper_filled & (1 << b) == 0) {
            additions = (0..=5).fold(0, |sum, n| sum | additions << (n * (b + 1)));
        }
        let least_reaching = |u: u8| -> Option<u32> {
            let short = CAP.checked_sub(usize::from(u)).filter(|&s| s > 0)?;
            let reaching = additions >> short;
            (reaching != 0).then(|| short as u32 + reaching.trailing_zeros())
        };
        let mut stand_ins: Vec<(Option<u32>, u8)> = Vec::new();
        let same_as: Vec<(u8, u8)> = (0..=CAP as u8)
            .filter(|&u| reachable & (1 << u) != 0)
            .map(|u| {
                let class = least_reaching(u);
                match stand_ins.iter().find(|&&(c, _)| c == class) {
                    Some(&(_, s)) => (u, s),
                    None => {
                        stand_ins.push((class, u));
                        (u, u)
                    }
                }
            })
            .collect();
        let solve = stand_ins.iter().map(|&(_, s)| s).collect();
        Uppers { same_as, solve }
    }
}

/// For each set of filled upper boxes, the total each upper total shares its value with
/// (see [`Uppers`]); and so its best play too, every successor of one being worth what
/// the same successor of the other is, to the bit.
pub(crate) struct Classes([[u8; CAP + 1]; 64]);

impl Classes {
    pub(crate) fn new() -> Classes {
        let reachable = reachable_upper();
        Classes(std::array::from_fn(|mask| {
            let mut stand_in: [u8; CAP + 1] = std::array::from_fn(|u| u as u8);
            for (u, s) in Uppers::new(mask, reachable[mask]).same_as {
                stand_in[usize::from(u)] = s;
            }
            stand_in
        }))
    }

    /// The position that stands for `p`: the same but for the upper total.
    #[inline]
    pub(crate) fn stand_in(&self, p: Position) -> Position {
        Position {
            upper: self.0[usize::from(p.filled) & 63][usize::from(p.upper).min(CAP)],
            ..p
        }
    }
}

/// Solves one group: the positions with the same boxes filled, one per reachable upper
/// total and Yahtzee flag, [`LANES`] at a time. Writes the value of each reachable
/// position into the group's `block` of the table, and returns how many there are.
#[allow(clippy::too_many_arguments)]
fn solve_group(
    plan: &Plan,
    scoring: &Scoring,
    filled: u16,
    uppers: &Uppers,
    later: &Later,
    work: &mut Work,
    next: &mut Successors,
    block: &mut [Moments],
) -> usize {
    let flags = yahtzee_flags(filled);
    let lanes: Vec<Position> = flags
        .iter()
        .flat_map(|&yahtzee_50| {
            uppers.solve.iter().map(move |&upper| Position {
                filled,
                upper,
                yahtzee_50,
            })
        })
        .collect();
    let mut solved = vec![Moments::default(); lanes.len()];
    for (chunk, solved) in lanes.chunks(LANES).zip(solved.chunks_mut(LANES)) {
        let at = |l: usize| chunk[l.min(chunk.len() - 1)];
        fill_successors(filled, chunk, later, next);
        let fifty = std::array::from_fn(|l| f64::from(u8::from(at(l).yahtzee_50)));
        let (mean, square) = solve_lanes(plan, scoring, &fifty, next, work, chunk.len());
        for (l, m) in solved.iter_mut().enumerate() {
            *m = Moments {
                mean: mean[l],
                square: square[l],
            };
        }
    }
    // The value of each reachable position, from the lane of the total it has the
    // value of: lanes go by flag, then by the totals solved.
    let mut lane_of = [0; CAP + 1];
    for (i, &u) in uppers.solve.iter().enumerate() {
        lane_of[usize::from(u)] = i;
    }
    for f in 0..flags.len() {
        for &(upper, s) in &uppers.same_as {
            block[f << 6 | usize::from(upper)] =
                solved[f * uppers.solve.len() + lane_of[usize::from(s)]];
        }
    }
    flags.len() * uppers.same_as.len()
}

/// [`turn`] compiled for the vector units this processor has, for the first `lanes`
/// lanes: on [`NARROW`] lanes when they are enough, else on all (the lanes beyond
/// `lanes` are then zero or the turn of a copy).
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn solve_lanes(
    plan: &Plan,
    scoring: &Scoring,
    fifty: &Lane,
    next: &Successors,
    work: &mut Work,
    lanes: usize,
) -> (Lane, Lane) {
    let fma = multiversion::target::target_cfg_f!(target_feature = "fma");
    if lanes <= NARROW {
        let fifty = fifty[..NARROW].try_into().expect("NARROW is below LANES");
        let (mean, square) = if fma {
            turn::<true, NARROW>(plan, scoring, fifty, next, work)
        } else {
            turn::<false, NARROW>(plan, scoring, fifty, next, work)
        };
        let widen = |x: [f64; NARROW]| std::array::from_fn(|l| x.get(l).copied().unwrap_or(0.0));
        (widen(mean), widen(square))
    } else if fma {
        turn::<true, LANES>(plan, scoring, fifty, next, work)
    } else {
        turn::<false, LANES>(plan, scoring, fifty, next, work)
    }
}

/// Whether the Yahtzee box may hold 50, for a set of filled boxes.
fn yahtzee_flags(filled: u16) -> &'static [bool] {
    if filled & (1 << YAHTZEE) != 0 {
        &[false, true]
    } else {
        &[false]
    }
}

/// Every reachable turn-start position, in the order of the table.
pub fn reachable_positions() -> Vec<Position> {
    let reachable = reachable_upper();
    (0..FULL)
        .flat_map(|filled| {
            let sums = reachable[usize::from(filled) & 63];
            yahtzee_flags(filled).iter().flat_map(move |&yahtzee_50| {
                (0..=CAP as u8)
                    .filter(move |&u| sums & (1 << u) != 0)
                    .map(move |upper| Position {
                        filled,
                        upper,
                        yahtzee_50,
                    })
            })
        })
        .collect()
}

/// Solves the game under `rules`.
pub fn solve(rules: Rules) -> Table {
    solve_with_progress(rules, &mut |_, _| {})
}

/// [`solve`], calling `progress(done, total)` in positions as each turn is solved.
pub fn solve_with_progress(rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> Table {
    let plan = Plan::new();
    let rolls = scored_rolls(&plan);
    let plain = Plain::new(&plan, &rolls);
    let reachable = reachable_upper();
    let uppers: Vec<Uppers> = reachable
        .iter()
        .enumerate()
        .map(|(mask, &sums)| Uppers::new(mask, sums))
        .collect();
    let total: usize = (0..FULL)
        .map(|filled| yahtzee_flags(filled).len() * uppers[usize::from(filled) & 63].same_as.len())
        .sum();
    let mut values = vec![Moments::default(); TABLE_LEN];
    let mut positions = 0;
    progress(0, total);
    // Each turn's groups write their own blocks of the table in parallel, and read the
    // blocks of the turn after.
    let mut blocks: Vec<&mut [Moments]> = values.chunks_mut(BLOCK).collect();
    for filled_count in (0..BOXES).rev() {
        let mut current: Vec<(u16, &mut [Moments])> = Vec::new();
        let mut later = Later {
            blocks: vec![&[]; blocks.len()],
        };
        for (filled, block) in blocks.iter_mut().enumerate() {
            let count = filled.count_ones() as usize;
            if count == filled_count {
                current.push((filled as u16, &mut **block));
            } else if count == filled_count + 1 {
                later.blocks[filled] = &**block;
            }
        }
        let solved: usize = current
            .par_iter_mut()
            .map_init(
                || (Work::new(&plan), Successors::new(), Scoring::default()),
                |(work, next, scoring), (filled, block)| {
                    scoring_into(scoring, rules, &plain, *filled);
                    let uppers = &uppers[usize::from(*filled) & 63];
                    solve_group(&plan, scoring, *filled, uppers, &later, work, next, block)
                },
            )
            .sum();
        positions += solved;
        progress(positions, total);
    }
    Table {
        rules,
        values,
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::super::turn::{score_rolls, xorshift, SLOTS};
    use super::*;

    /// The tests' numbers, from seed `x`.
    fn numbers(mut x: u64) -> impl FnMut() -> u64 {
        move || xorshift(&mut x)
    }

    #[test]
    fn reachable_upper_totals() {
        let r = reachable_upper();
        assert_eq!(r[0], 1);
        assert_eq!(r[1], 0b11_1111); // ones: 0 to 5
        assert_eq!(r[2], 0b101_0101_0101); // twos: 0, 2, ..., 10
        assert!(r[63] & (1 << 63) != 0);
    }

    #[test]
    fn totals_share_a_value_exactly_when_they_earn_the_bonus_alike() {
        // Against an enumeration of what the open upper boxes can add: two totals must
        // be solved once exactly when every addition earns the bonus from both or from
        // neither.
        let reachable = reachable_upper();
        let mut solved = 0;
        for (mask, &sums) in reachable.iter().enumerate() {
            let mut additions = vec![0usize];
            for b in (0..UPPER).filter(|&b| mask & (1 << b) == 0) {
                additions = additions
                    .iter()
                    .flat_map(|&a| (0..=5).map(move |n| a + n * (b + 1)))
                    .collect();
            }
            let earns = |u: u8, a: usize| usize::from(u) < CAP && usize::from(u) + a >= CAP;
            let uppers = Uppers::new(mask, sums);
            let stand_in = |u: u8| uppers.same_as.iter().find(|&&(t, _)| t == u).unwrap().1;
            let totals: Vec<u8> = (0..=CAP as u8).filter(|&u| sums & (1 << u) != 0).collect();
            assert_eq!(uppers.same_as.len(), totals.len());
            for &u in &totals {
                for &v in &totals {
                    let alike = additions.iter().all(|&a| earns(u, a) == earns(v, a));
                    assert_eq!(
                        stand_in(u) == stand_in(v),
                        alike,
                        "mask {mask}: {u} and {v}"
                    );
                }
                assert!(uppers.solve.contains(&stand_in(u)));
            }
            solved += uppers.solve.len();
        }
        // With every upper box open only 0 is reachable; with all filled, every total
        // is alike.
        assert_eq!(Uppers::new(0, reachable[0]).solve, vec![0]);
        assert_eq!(Uppers::new(63, reachable[63]).solve.len(), 1);
        assert!(solved < 64 * 64);
    }

    #[test]
    fn vector_and_plain_builds_compute_the_same_bits() {
        // `turn` called here is compiled for the baseline processor; `solve_lanes`
        // runs the build for the vector units this one has. Same inputs, same bits.
        let plan = Plan::new();
        let rolls = scored_rolls(&plan);
        let plain = Plain::new(&plan, &rolls);
        let mut work = Work::new(&plan);
        let mut numbers = numbers(0x2545_f491_4f6c_dd1d);
        let mut noise = move || (numbers() >> 11) as f64 / (1u64 << 53) as f64;
        for (filled, fifty) in [
            (0u16, [0.0; LANES]),
            (0b1_0000_0100_0011, [1.0; LANES]),
            (
                0b1_1000_0100_0011,
                std::array::from_fn(|l| (l % 3 % 2) as f64),
            ),
            (0b0_1111_1011_1110, [0.0; LANES]),
        ] {
            let mut scoring = Scoring::default();
            scoring_into(&mut scoring, Rules::FreeJoker, &plain, filled);
            let mut next = Successors::new();
            for slot in 0..SLOTS {
                next.mean[slot] = std::array::from_fn(|_| 300.0 * noise());
                next.variance[slot] = std::array::from_fn(|_| 900.0 * noise());
            }
            let plain = turn::<false, LANES>(&plan, &scoring, &fifty, &next, &mut work);
            let vector = solve_lanes(&plan, &scoring, &fifty, &next, &mut work, LANES);
            assert_eq!(plain.0.map(f64::to_bits), vector.0.map(f64::to_bits));
            assert_eq!(plain.1.map(f64::to_bits), vector.1.map(f64::to_bits));
            // The narrow turn: the same bits in its lanes, zero beyond.
            let narrow = solve_lanes(&plan, &scoring, &fifty, &next, &mut work, NARROW);
            for (wide, narrow) in [(plain.0, narrow.0), (plain.1, narrow.1)] {
                assert_eq!(wide[..NARROW], narrow[..NARROW]);
                assert!(narrow[NARROW..].iter().all(|&x| x == 0.0));
            }
        }
    }

    #[test]
    fn the_last_roll_is_scored_as_a_plain_reading_of_the_rules_would() {
        // Each roll weighs every box it may go in, in order, and takes the first of the
        // best, lane by lane. Futures from a few whole numbers, so that boxes tie often
        // and the order in which ties are broken shows; sets of boxes with no lower box
        // open and with all seven, and with none, one, two to four (found apart by
        // count) and five or six upper boxes open.
        let plan = Plan::new();
        let rolls = scored_rolls(&plan);
        let plain = Plain::new(&plan, &rolls);
        let mut work = Work::new(&plan);
        let mut numbers = numbers(0x9e37_79b9_7f4a_7c15);
        let mut small = move |n: u64| (numbers() % n) as f64;
        let mut found_apart = 0;
        for filled in [
            0u16,
            0b0_0000_0000_0011,
            0b1_0000_0000_0111,
            0b0_1010_0001_1100,
            0b1_1000_0110_0101,
            0b0_0111_1011_0001,
            0b1_0101_0101_1110,
            0b0_0000_0000_0001,
            0b1_1111_1100_0000,
            0b1_1111_1000_0000,
            0b0_0000_0011_1111,
            0b0_0000_0111_1111,
            0b1_0000_0100_0000,
            0b0_1111_1111_1011,
        ] {
            for rules in [
                Rules::FreeJoker,
                Rules::ForcedJoker,
                Rules::NoJoker,
                Rules::NoBonus,
            ] {
                let mut scoring = Scoring::default();
                scoring_into(&mut scoring, rules, &plain, filled);
                found_apart += usize::from(matches!(scoring.upper, Upper::Counts { .. }));
                for round in 0..3 {
                    let mut next = Successors::new();
                    for slot in 0..SLOTS {
                        next.mean[slot] = std::array::from_fn(|_| small(2 + round));
                        next.variance[slot] = std::array::from_fn(|_| small(900));
                    }
                    let fifty: Lane = std::array::from_fn(|l| (l % 2) as f64);
                    score_rolls::<LANES>(&scoring, &fifty, &next, &mut work);
                    for (roll, &k) in rolls.iter().zip(&plan.rolls) {
                        let k = usize::from(k);
                        for (l, &fifty) in fifty.iter().enumerate() {
                            let extra = f64::from(roll.bonus(rules)) * fifty;
                            let mut best = (f64::NEG_INFINITY, 0.0);
                            choices_scored(rules, filled, roll, |b, points| {
                                let slot = slot(b, points);
                                let total = (f64::from(points) + extra) + next.mean[slot][l];
                                if total > best.0 {
                                    best = (total, next.variance[slot][l]);
                                }
                            });
                            let square = best.0 * best.0 + best.1;
                            assert_eq!(work.mean[k][l].to_bits(), best.0.to_bits());
                            assert_eq!(work.square[k][l].to_bits(), square.to_bits());
                        }
                    }
                }
            }
        }
        assert!(found_apart > 0);
    }
}
