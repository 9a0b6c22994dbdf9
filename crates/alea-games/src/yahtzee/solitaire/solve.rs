//! The whole solitaire game solved for the largest expected score: the value of every
//! turn-start position (boxes filled, upper total capped at 63, whether the Yahtzee box
//! holds 50), from the last turn back to the first, each turn's three rolls worked out
//! in full. The second moment of the score under the same play rides along, for the
//! standard deviation.

use rayon::prelude::*;

use super::dice::Dice;
use super::rules::{
    choices_scored, yahtzee_bonus, Rules, Scored, UPPER, UPPER_BONUS, UPPER_BONUS_AT, YAHTZEE,
};

const BOXES: usize = 13;
const CAP: usize = UPPER_BONUS_AT as usize;

/// A turn-start position: filled boxes (bit per box), upper total capped at 63, and
/// whether the Yahtzee box holds 50.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub filled: u16,
    pub upper: u8,
    pub yahtzee_50: bool,
}

impl Position {
    /// The index of the position in the solved table.
    pub fn index(self) -> usize {
        (usize::from(self.filled) << 7)
            | (usize::from(self.upper) << 1)
            | usize::from(self.yahtzee_50)
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

/// What scoring a box can lead to from a position: for each box and each outcome that
/// matters to the next position (the count of the face for an upper box, 50 or not for
/// the Yahtzee box), the upper bonus it earns and the moments of the future after it.
/// Read once per position instead of once per roll and box: the table is large, and
/// these reads were most of the time.
type Successors = [[(u32, Moments); 6]; BOXES];

/// Which entry of [`Successors`] scoring `points` in box `b` leads to.
fn outcome(b: usize, points: u32) -> usize {
    if b < UPPER {
        points as usize / (b + 1)
    } else if b == YAHTZEE {
        usize::from(points == 50)
    } else {
        0
    }
}

fn successors(at: Position, values: &[Moments]) -> Successors {
    let mut next = [[(0, Moments::default()); 6]; BOXES];
    for b in (0..BOXES).filter(|&b| at.filled & (1 << b) == 0) {
        let outcomes = if b < UPPER {
            6
        } else if b == YAHTZEE {
            2
        } else {
            1
        };
        for (n, slot) in next[b].iter_mut().enumerate().take(outcomes) {
            let mut upper = at.upper;
            let mut bonus = 0;
            if b < UPPER {
                let points = (n * (b + 1)) as u8;
                upper = (usize::from(at.upper) + usize::from(points)).min(CAP) as u8;
                if usize::from(at.upper) < CAP && usize::from(upper) == CAP {
                    bonus = UPPER_BONUS;
                }
            }
            let position = Position {
                filled: at.filled | 1 << b,
                upper,
                yahtzee_50: at.yahtzee_50 || (b == YAHTZEE && n == 1),
            };
            let future = if position.filled == (1 << BOXES) - 1 {
                Moments::default()
            } else {
                values[position.index()]
            };
            *slot = (bonus, future);
        }
    }
    next
}

/// The moments of the future from a final roll scored in the best box.
fn final_value(
    rules: Rules,
    at: Position,
    roll: &Scored,
    extra: u32,
    next: &Successors,
) -> Moments {
    let extra = if at.yahtzee_50 { extra } else { 0 };
    let mut best = Moments {
        mean: f64::NEG_INFINITY,
        square: 0.0,
    };
    choices_scored(rules, at.filled, roll, |b, points| {
        let (bonus, future) = next[b][outcome(b, points)];
        let g = f64::from(points + extra + bonus);
        let mean = g + future.mean;
        if mean > best.mean {
            best = Moments {
                mean,
                square: g * g + 2.0 * g * future.mean + future.square,
            };
        }
    });
    best
}

/// One turn from a position: the moments of the best play.
///
/// Working back from the last roll: the value of a keep is the mean over one more die
/// (see [`Dice`]); the value of a roll is its best keep, which is the best over its
/// sub-multisets, found in increasing size as "this keep, or the best with one die
/// fewer" (about 1,400 steps, where trying every keep of every roll takes 4,368). The
/// first roll is a plain mean over the 252 rolls.
/// Each roll's scores, and the 100 bonus it earns while the Yahtzee box holds 50.
struct Rolls {
    scored: Vec<Scored>,
    bonus: Vec<u32>,
}

fn turn(dice: &Dice, rolls: &Rolls, rules: Rules, at: Position, values: &[Moments]) -> Moments {
    let mut keep = vec![Moments::default(); dice.keeps.len()];
    let mut best = vec![Moments::default(); dice.keeps.len()];
    let next = successors(at, values);
    let mut rolled: Vec<Moments> = (0..dice.rolls.len())
        .map(|i| final_value(rules, at, &rolls.scored[i], rolls.bonus[i], &next))
        .collect();
    for _ in 0..2 {
        for (i, &r) in dice.rolls.iter().enumerate() {
            keep[r] = rolled[i];
        }
        // Smaller keeps: the mean over one more die.
        for size in (0..5).rev() {
            for &k in &dice.by_size[5 - size] {
                let mut m = Moments::default();
                for &next in &dice.with_face[k] {
                    m.mean += keep[next].mean;
                    m.square += keep[next].square;
                }
                keep[k] = Moments {
                    mean: m.mean / 6.0,
                    square: m.square / 6.0,
                };
            }
        }
        // The best keep within each multiset, smallest first.
        for size in 0..=5 {
            for &k in &dice.by_size[5 - size] {
                let mut b = keep[k];
                for &less in &dice.without_one[k] {
                    if best[less].mean > b.mean {
                        b = best[less];
                    }
                }
                best[k] = b;
            }
        }
        for (i, &r) in dice.rolls.iter().enumerate() {
            rolled[i] = best[r];
        }
    }
    let mut start = Moments::default();
    for (i, m) in rolled.iter().enumerate() {
        start.mean += dice.roll_probability[i] * m.mean;
        start.square += dice.roll_probability[i] * m.square;
    }
    start
}

/// Solves the game under `rules`.
pub fn solve(rules: Rules) -> Table {
    let dice = Dice::new();
    let rolls = Rolls {
        scored: dice
            .rolls
            .iter()
            .map(|&r| Scored::new(&dice.keeps[r]))
            .collect(),
        bonus: dice
            .rolls
            .iter()
            .map(|&r| yahtzee_bonus(rules, true, &dice.keeps[r]))
            .collect(),
    };
    let reachable = reachable_upper();
    let mut values = vec![Moments::default(); 1 << 20];
    let mut positions = 0;
    for filled_count in (0..BOXES).rev() {
        let masks: Vec<u16> = (0..1u16 << BOXES)
            .filter(|m| m.count_ones() as usize == filled_count)
            .collect();
        let solved: Vec<(usize, Moments)> = masks
            .par_iter()
            .flat_map_iter(|&filled| {
                let upper_sums = reachable[usize::from(filled) & 63];
                let yahtzee_filled = filled & (1 << YAHTZEE) != 0;
                let values = &values;
                let dice = &dice;
                let rolls = &rolls;
                (0..=CAP as u8)
                    .filter(move |&u| upper_sums & (1 << u) != 0)
                    .flat_map(move |u| {
                        let flags: &[bool] = if yahtzee_filled {
                            &[false, true]
                        } else {
                            &[false]
                        };
                        flags.iter().map(move |&y| Position {
                            filled,
                            upper: u,
                            yahtzee_50: y,
                        })
                    })
                    .map(move |at| (at.index(), turn(dice, rolls, rules, at, values)))
            })
            .collect();
        positions += solved.len();
        for (i, m) in solved {
            values[i] = m;
        }
    }
    Table {
        rules,
        values,
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_upper_totals() {
        let r = reachable_upper();
        assert_eq!(r[0], 1);
        assert_eq!(r[1], 0b11_1111); // ones: 0 to 5
        assert_eq!(r[2], 0b101_0101_0101); // twos: 0, 2, ..., 10
        assert!(r[63] & (1 << 63) != 0);
    }
}
