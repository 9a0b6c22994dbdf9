//! Optimal play from any position, read from the solved table: the value of every keep
//! and of every box, for advice and for simulation.
//!
//! The table holds only turn-start positions; within a turn, the values of the keeps
//! are worked out again, for up to [`LANES`] positions at once (each game of a
//! simulation is a lane).

use super::dice::Counts;
use super::rules::{choices_scored, Scored, UPPER, YAHTZEE};
use super::solve::{after, open_slots, scored_rolls, slot, successor, Position, Table};
use super::turn::{
    average, best, best_which, first_roll, score_rolls_apart, Lane, Plan, Work, KEEP_ROOM, LANES,
    SLOTS,
};

/// The table with what it takes to read play from it.
pub struct Player<'a> {
    pub table: &'a Table,
    pub plan: Plan,
    rolls: Vec<Scored>,
    /// Per box and roll, the plain score: box by box, so that scoring every roll in one
    /// box is a run over contiguous numbers.
    plain: [Vec<f64>; 13],
    /// Per face and roll, how many dice show the face: the successor of an upper box.
    count: [Vec<u8>; 6],
    /// The rolls that are Yahtzees, which may take the joker and the 100 bonus.
    yahtzees: Vec<usize>,
    /// Per keep, its number among the rolls (for keeps of five dice).
    roll_numbers: Vec<u16>,
    /// Per roll number and keep, the keep's place among the roll's keeps (see
    /// [`Decisions::keep`]); `u8::MAX` for a keep the roll does not hold.
    place_in_roll: Vec<u8>,
}

/// The values within the turns of up to [`LANES`] positions.
pub struct Turns {
    positions: Vec<Position>,
    /// Per lane and successor slot: the points beyond the box's own, plus the
    /// expected future.
    futures: Vec<[f64; SLOTS]>,
    /// Per lane and roll, the value of the roll as the last of the turn.
    last: Vec<Vec<f64>>,
    /// Per lane and roll, the best box for the roll as the last of the turn (the first
    /// of the best in card order) and the points it gets there.
    last_box: Vec<Vec<(u8, u8)>>,
    /// Room for one lane's best boxes, as numbers.
    chosen: Vec<f64>,
    /// The value of each keep with one roll to come.
    one: Vec<Lane>,
    /// ... and with two rolls to come.
    two: Vec<Lane>,
    /// The value of each turn at its start.
    start: Lane,
    work: Work,
}

/// The rolls of five dice.
pub const ROLLS: usize = 252;

/// The best play of one turn-start position for every roll, by the roll's number in the
/// plan's rolls: what [`Player::best_keep`] and [`Player::best_box`] choose, kept in a
/// kilobyte for a simulation to read many times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decisions {
    /// With one roll to come (`keep[0]`) and with two (`keep[1]`): the best keep, as
    /// its place in [`super::Dice::keeps_of_roll`].
    pub keep: [[u8; ROLLS]; 2],
    /// The best box for the last roll, and the points it gets there.
    pub last_box: [(u8, u8); ROLLS],
}

/// A box a last roll may be scored in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxChoice {
    /// The box, in card order.
    pub index: usize,
    /// What the box receives.
    pub points: u32,
    /// All the points this choice earns now: the box's, the upper bonus if it completes
    /// it, the 100 bonus of a further Yahtzee.
    pub earned: u32,
    /// The expected score from here, `earned` included.
    pub value: f64,
}

impl<'a> Player<'a> {
    pub fn new(table: &'a Table) -> Player<'a> {
        let plan = Plan::new();
        let rolls = scored_rolls(&plan);
        let plain = std::array::from_fn(|b| rolls.iter().map(|r| f64::from(r.plain[b])).collect());
        let count = std::array::from_fn(|f| {
            plan.dice
                .rolls
                .iter()
                .map(|&r| plan.dice.keeps[r][f])
                .collect()
        });
        let yahtzees = (0..rolls.len())
            .filter(|&i| rolls[i].yahtzee_face.is_some())
            .collect();
        let mut roll_numbers = vec![u16::MAX; plan.dice.keeps.len()];
        for (n, &r) in plan.dice.rolls.iter().enumerate() {
            roll_numbers[r] = n as u16;
        }
        let keeps = plan.dice.keeps.len();
        let mut place_in_roll = vec![u8::MAX; plan.dice.rolls.len() * keeps];
        for (n, roll_keeps) in plan.dice.keeps_of_roll.iter().enumerate() {
            for (place, &k) in roll_keeps.iter().enumerate() {
                place_in_roll[n * keeps + k] = place as u8;
            }
        }
        Player {
            table,
            plan,
            rolls,
            plain,
            count,
            yahtzees,
            roll_numbers,
            place_in_roll,
        }
    }

    /// Room for the turns of [`LANES`] positions.
    pub fn turns(&self) -> Turns {
        Turns {
            positions: Vec::with_capacity(LANES),
            futures: Vec::with_capacity(LANES),
            last: vec![vec![0.0; self.rolls.len()]; LANES],
            last_box: vec![vec![(0, 0); self.rolls.len()]; LANES],
            chosen: vec![0.0; self.rolls.len()],
            one: vec![[0.0; LANES]; self.plan.dice.keeps.len()],
            two: vec![[0.0; LANES]; self.plan.dice.keeps.len()],
            start: [0.0; LANES],
            work: Work::new(&self.plan),
        }
    }

    /// Works out the turns from `positions` (at most [`LANES`], none of them a full
    /// card): lane `l` is `positions[l]`.
    pub fn prepare(&self, turns: &mut Turns, positions: &[Position]) {
        assert!(
            positions.len() <= LANES,
            "at most {LANES} positions at once"
        );
        turns.positions.clear();
        turns.positions.extend_from_slice(positions);
        turns.futures.clear();
        for &at in positions {
            let mut f = [f64::NEG_INFINITY; SLOTS];
            for s in open_slots(at.filled) {
                f[s] = after(at, s, &self.table.values).mean;
            }
            turns.futures.push(f);
        }
        for l in 0..positions.len() {
            let (at, futures) = (turns.positions[l], &turns.futures[l]);
            let (last, last_box) = (&mut turns.last[l], &mut turns.last_box[l]);
            let chosen = &mut turns.chosen;
            last_roll_values(self, at.filled, futures, last, chosen);
            for (n, (to, &b)) in last_box.iter_mut().zip(chosen.iter()).enumerate() {
                let b = b as usize;
                *to = (b as u8, self.plain[b][n] as u8);
            }
            // The Yahtzees, by the full rules.
            for &i in &self.yahtzees {
                let best = self.best_of(at, futures, i);
                last[i] = best.value;
                last_box[i] = (best.index as u8, best.points as u8);
            }
        }
        let last = &turns.last;
        let value = |l: usize, i: usize| last[l][i];
        score_rolls_apart(&self.plan, positions.len(), value, &mut turns.work);
        keep_values(&self.plan, turns);
    }

    /// Calls `visit` with every box the roll `roll` (by its place in the plan's rolls)
    /// may go in from `at`, where `futures` are the values after each slot.
    fn each_box(
        &self,
        at: Position,
        futures: &[f64; SLOTS],
        roll: usize,
        mut visit: impl FnMut(BoxChoice),
    ) {
        let scored = &self.rolls[roll];
        let extra = if at.yahtzee_50 {
            scored.bonus(self.table.rules)
        } else {
            0
        };
        choices_scored(self.table.rules, at.filled, scored, |b, points| {
            let s = slot(b, points);
            let (bonus, _) = successor(at, s);
            visit(BoxChoice {
                index: b,
                points,
                earned: points + extra + bonus,
                value: f64::from(points + extra) + futures[s],
            });
        });
    }

    /// The value of keeping `keep` in lane `lane` with `rolls_left` (1 or 2) rolls to come.
    pub fn keep_value(&self, turns: &Turns, lane: usize, keep: usize, rolls_left: usize) -> f64 {
        match rolls_left {
            1 => turns.one[keep][lane],
            2 => turns.two[keep][lane],
            _ => panic!("a keep has one or two rolls to come, not {rolls_left}"),
        }
    }

    /// The value of lane `lane` at the start of its turn, worked out afresh.
    pub fn start_value(&self, turns: &Turns, lane: usize) -> f64 {
        turns.start[lane]
    }

    /// The best keep from the roll `roll` (a keep index) with `rolls_left` to come:
    /// the first of the best, in the order of [`super::Dice::keeps_of_roll`].
    pub fn best_keep(&self, turns: &Turns, lane: usize, roll: usize, rolls_left: usize) -> usize {
        let n = self
            .plan
            .dice
            .roll_number(roll)
            .expect("a roll of five dice");
        let mut best = (f64::NEG_INFINITY, roll);
        for &k in &self.plan.dice.keeps_of_roll[n] {
            let v = self.keep_value(turns, lane, k, rolls_left);
            if v > best.0 {
                best = (v, k);
            }
        }
        best.1
    }

    /// Every box the last roll `roll` (a keep index) may go in, in card order.
    pub fn box_choices(&self, turns: &Turns, lane: usize, roll: usize) -> Vec<BoxChoice> {
        let n = self
            .plan
            .dice
            .roll_number(roll)
            .expect("a roll of five dice");
        let mut choices = Vec::new();
        self.each_box(turns.positions[lane], &turns.futures[lane], n, |c| {
            choices.push(c);
        });
        choices
    }

    /// The best box for the last roll: the first of the best, in card order.
    pub fn best_box(&self, turns: &Turns, lane: usize, roll: usize) -> BoxChoice {
        let n = self
            .plan
            .dice
            .roll_number(roll)
            .expect("a roll of five dice");
        self.best_of(turns.positions[lane], &turns.futures[lane], n)
    }

    /// The first of the best boxes, in card order, for the roll numbered `roll`.
    fn best_of(&self, at: Position, futures: &[f64; SLOTS], roll: usize) -> BoxChoice {
        let mut best: Option<BoxChoice> = None;
        self.each_box(at, futures, roll, |c| {
            if best.is_none_or(|b| c.value > b.value) {
                best = Some(c);
            }
        });
        best.expect("a position with an open box")
    }

    /// The decisions of the first `decisions.len()` lanes of `turns`, once prepared.
    /// Uses the room of `turns` for its work.
    pub fn decide(&self, turns: &mut Turns, decisions: &mut [Decisions]) {
        let keeps = self.plan.dice.keeps.len();
        for stage in 0..2 {
            let values = if stage == 0 { &turns.one } else { &turns.two };
            let work = &mut turns.work;
            work.mean[..keeps].copy_from_slice(values);
            best_keeps(&self.plan, &mut work.mean, &mut work.square);
            for (n, &r) in self.plan.rolls.iter().enumerate() {
                let places = &self.place_in_roll[n * keeps..(n + 1) * keeps];
                for (d, &k) in decisions.iter_mut().zip(&work.square[usize::from(r)]) {
                    d.keep[stage][n] = places[k as usize];
                }
            }
        }
        for (d, last_box) in decisions.iter_mut().zip(&turns.last_box) {
            d.last_box.copy_from_slice(last_box);
        }
    }

    /// The number among the rolls of a keep of five dice.
    pub fn roll_number(&self, keep: usize) -> usize {
        usize::from(self.roll_numbers[keep])
    }

    /// The 100 bonus that the roll numbered `roll` earns from `at`, whatever its box.
    pub fn yahtzee_bonus(&self, at: Position, roll: usize) -> u32 {
        if at.yahtzee_50 {
            self.rolls[roll].bonus(self.table.rules)
        } else {
            0
        }
    }

    /// The keep index of these counts.
    pub fn keep_of(&self, counts: &Counts) -> usize {
        self.plan.dice.keep_of(counts).expect("at most five dice")
    }
}

/// The value of each roll as the last of the turn, scored by plain rules in the best
/// open box (right for every roll but the Yahtzees), box by box over all rolls; and the
/// box (the first of the best, in card order), as a number so that it follows the value
/// in the same vector instructions.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn last_roll_values(
    player: &Player,
    filled: u16,
    futures: &[f64; SLOTS],
    last: &mut [f64],
    chosen: &mut [f64],
) {
    last.fill(f64::NEG_INFINITY);
    for b in (0..13).filter(|&b| filled & (1 << b) == 0) {
        let this = b as f64;
        let take = |v: &mut f64, c: &mut f64, value: f64| {
            let better = value > *v;
            *v = if better { value } else { *v };
            *c = if better { this } else { *c };
        };
        let rolls = last.iter_mut().zip(chosen.iter_mut());
        if b < UPPER {
            // The points and the future depend on the count of the face.
            let by_count: [f64; 6] =
                std::array::from_fn(|n| (n * (b + 1)) as f64 + futures[b * 6 + n]);
            for ((v, c), &n) in rolls.zip(&player.count[b]) {
                take(v, c, by_count[usize::from(n)]);
            }
        } else if b == YAHTZEE {
            let (miss, hit) = (futures[b * 6], 50.0 + futures[b * 6 + 1]);
            for ((v, c), &p) in rolls.zip(&player.plain[b]) {
                take(v, c, if p > 0.0 { hit } else { miss });
            }
        } else {
            let future = futures[b * 6];
            for ((v, c), &p) in rolls.zip(&player.plain[b]) {
                take(v, c, p + future);
            }
        }
    }
}

/// [`best_which`] compiled for the vector units this processor has: for each roll, per
/// lane, its best keep (the first of the best, as [`Player::best_keep`] chooses), as a
/// number in `which`. Through the keeps with one die fewer, this looks at a third of
/// the candidates that each roll's own keeps are. Its loops are plain and its choices
/// on the bits (see [`super::turn::pick`]): a closure or an iterator adapter would be
/// compiled apart, without the vector units of this function.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn best_keeps(plan: &Plan, values: &mut [Lane; KEEP_ROOM], which: &mut [Lane; KEEP_ROOM]) {
    best_which(plan, values, which);
}

/// From the last roll (already scored) back to the first: the keeps' values with one and two rolls to
/// come, and the value at the start. Compiled for the vector units this processor has.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn keep_values(plan: &Plan, turns: &mut Turns) {
    if multiversion::target::target_cfg_f!(target_feature = "fma") {
        keep_values_with::<true>(plan, turns)
    } else {
        keep_values_with::<false>(plan, turns)
    }
}

#[inline(always)]
fn keep_values_with<const FMA: bool>(plan: &Plan, turns: &mut Turns) {
    let work = &mut turns.work;
    average::<false, FMA, LANES>(plan, work);
    let n = turns.one.len();
    turns.one.copy_from_slice(&work.mean[..n]);
    best::<false, LANES>(plan, work);
    average::<false, FMA, LANES>(plan, work);
    turns.two.copy_from_slice(&work.mean[..n]);
    best::<false, LANES>(plan, work);
    turns.start = first_roll(plan, &work.mean);
}
