//! Optimal play from any position, read from the solved table: the value of every keep
//! and of every box, for advice and for simulation.
//!
//! The table holds only turn-start positions; within a turn, the values of the keeps
//! are worked out again, for up to [`LANES`] positions at once (each game of a
//! simulation is a lane).

use super::dice::Counts;
use super::rules::{choices_scored, Scored};
use super::solve::{after, open_slots, scored_rolls, scoring, slot, successor, Position, Table};
use super::turn::{
    average, best, first_roll, score_rolls_apart, Lane, Plan, Scoring, Work, LANES, SLOTS,
};

/// The table with what it takes to read play from it.
pub struct Player<'a> {
    pub table: &'a Table,
    pub plan: Plan,
    rolls: Vec<Scored>,
}

/// The values within the turns of up to [`LANES`] positions.
pub struct Turns {
    positions: Vec<Position>,
    /// Per lane and successor slot: the points beyond the box's own, plus the
    /// expected future.
    futures: Vec<[f64; SLOTS]>,
    scoring: Vec<Scoring>,
    /// The value of each keep with one roll to come.
    one: Vec<Lane>,
    /// ... and with two rolls to come.
    two: Vec<Lane>,
    /// The value of each turn at its start.
    start: Lane,
    work: Work,
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
        Player { table, plan, rolls }
    }

    /// Room for the turns of [`LANES`] positions.
    pub fn turns(&self) -> Turns {
        Turns {
            positions: Vec::with_capacity(LANES),
            futures: Vec::with_capacity(LANES),
            scoring: Vec::with_capacity(LANES),
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
        turns.scoring.clear();
        for &at in positions {
            let mut f = [f64::NEG_INFINITY; SLOTS];
            for s in open_slots(at.filled) {
                f[s] = after(at, s, &self.table.values).mean;
            }
            turns.futures.push(f);
            turns.scoring.push(scoring(
                self.table.rules,
                &self.rolls,
                at.filled,
                at.yahtzee_50,
            ));
        }
        keep_values(&self.plan, turns);
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
        let at = turns.positions[lane];
        let n = self
            .plan
            .dice
            .roll_number(roll)
            .expect("a roll of five dice");
        let scored = &self.rolls[n];
        let extra = if at.yahtzee_50 {
            scored.bonus(self.table.rules)
        } else {
            0
        };
        let mut choices = Vec::new();
        choices_scored(self.table.rules, at.filled, scored, |b, points| {
            let s = slot(b, points);
            let (bonus, _) = successor(at, s);
            choices.push(BoxChoice {
                index: b,
                points,
                earned: points + extra + bonus,
                value: f64::from(points + extra) + turns.futures[lane][s],
            });
        });
        choices
    }

    /// The best box for the last roll: the first of the best, in card order.
    pub fn best_box(&self, turns: &Turns, lane: usize, roll: usize) -> BoxChoice {
        let choices = self.box_choices(turns, lane, roll);
        let mut best = choices[0];
        for c in &choices[1..] {
            if c.value > best.value {
                best = *c;
            }
        }
        best
    }

    /// The keep index of these counts.
    pub fn keep_of(&self, counts: &Counts) -> usize {
        self.plan.dice.keep_of(counts).expect("at most five dice")
    }
}

/// From the last roll back to the first: the keeps' values with one and two rolls to
/// come, and the value at the start. Compiled for the vector units this processor has.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn keep_values(plan: &Plan, turns: &mut Turns) {
    let work = &mut turns.work;
    score_rolls_apart(plan, &turns.scoring, &turns.futures, work);
    average::<false>(plan, work);
    turns.one.copy_from_slice(&work.mean);
    best::<false>(plan, work);
    average::<false>(plan, work);
    turns.two.copy_from_slice(&work.mean);
    best::<false>(plan, work);
    turns.start = first_roll(plan, &work.mean);
}
