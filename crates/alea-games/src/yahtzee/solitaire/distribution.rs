//! The distribution of the final score under optimal play from a position: from the
//! games of a seeded simulation (each score's share with its 95% interval), or, when few
//! boxes are open, worked out exactly over every roll.
//!
//! The statistics of a simulation: the mean with its 95% interval, the standard
//! deviation with its 95% interval (the sample variance is close to normal, with the
//! variance `(mu4 - sigma^4 (n - 3) / (n - 1)) / n`, estimated from the sample's fourth
//! central moment), percentiles by nearest rank, and the probability of every score, of
//! every bin of scores and of reaching a target, each with its 95% Wilson interval.
//!
//! The exact distribution plays forward turn by turn from the position: each turn's
//! rolls are pushed through the optimal player's keeps (the first of the best, as in a
//! simulation) one die at a time, and its last rolls into the player's boxes, giving the
//! probability of each (points earned, next position); the probabilities of the scores
//! so far ride along per position. With `k` boxes open it takes `k` turns over the few
//! positions they reach.

use std::collections::BTreeMap;

use crate::text::ParseError;

use super::advise::{advise, AdviceError, Card};
use super::dice::{Counts, Dice};
use super::play::{Player, Turns};
use super::simulate::{Scores, Start};
use super::solve::{slot, successor, Position};
use super::turn::LANES;

/// The percentiles reported, in percent.
pub const PERCENTILES: [u32; 7] = [1, 5, 25, 50, 75, 95, 99];

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The most open boxes for which the command works out the distribution exactly
/// ([`exact_scores`]) instead of simulating: five turns from the position take at most
/// some tens of milliseconds (three take under one; each box more multiplies the work
/// by about three).
pub const EXACT_MAX_OPEN: u32 = 5;

/// Percent of the probability in each tail of a [`Distribution::histogram`] gathered
/// in one bin: the rare extremes take one line each end instead of many.
pub const HISTOGRAM_TAIL: f64 = 0.1;

/// The full card: every box filled.
const FULL: u16 = (1 << 13) - 1;

/// The exact expected final score from a position, and its standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactScore {
    /// The card's points plus the position's value.
    pub mean: f64,
    /// From the table's second moment, at the start of a turn only: within a turn the
    /// table keeps no spread.
    pub std_dev: Option<f64>,
}

/// The exact expected final score from `card`, at the start of a turn or with the dice
/// and rolls left of `roll`, under optimal play: the card's points (boxes and upper
/// bonus) and what is still to come.
pub fn exact_score(
    player: &Player,
    card: &Card,
    roll: Option<(Counts, usize)>,
) -> Result<ExactScore, AdviceError> {
    let points = f64::from(card.total());
    Ok(match roll {
        None if card.is_full() => ExactScore {
            mean: points,
            std_dev: Some(0.0),
        },
        None => {
            let m = player.table.get(card.position());
            ExactScore {
                mean: points + m.mean,
                std_dev: Some((m.square - m.mean * m.mean).max(0.0).sqrt()),
            }
        }
        Some(roll) => ExactScore {
            mean: points + advise(player, card, Some(roll))?.value,
            std_dev: None,
        },
    })
}

/// The 95% Wilson score interval of a probability seen `k` times in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (kf, nf) = (k as f64, n as f64);
    let z2 = Z95 * Z95;
    let p = kf / nf;
    let scale = 1.0 + z2 / nf;
    let center = (p + z2 / (2.0 * nf)) / scale;
    let half = Z95 / scale * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    // The ends are exact where no rounding should move them.
    let lo = if k == 0 {
        0.0
    } else {
        (center - half).max(0.0)
    };
    let hi = if k >= n {
        1.0
    } else {
        (center + half).min(1.0)
    };
    (lo, hi)
}

/// A range of final scores, `low` to `high` inclusive, and its share of the games.
#[derive(Clone, Debug, PartialEq)]
pub struct Bin {
    pub low: u32,
    pub high: u32,
    /// The games that ended in the range; `None` for an exact distribution.
    pub count: Option<u64>,
    pub probability: f64,
    /// The 95% Wilson interval of the probability; `None` for an exact distribution.
    pub interval: Option<(f64, f64)>,
}

/// Where the probabilities come from.
#[derive(Clone, Debug, PartialEq)]
enum Source {
    Games(Scores),
    Exact(Vec<f64>),
}

/// The distribution of the final score: a simulation's counts, or exact probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    source: Source,
    pub mean: f64,
    /// The 95% interval of the mean: a simulation of two games or more only.
    pub mean_interval: Option<(f64, f64)>,
    /// The standard deviation of the final score (of a simulation, the sample's).
    pub std_dev: f64,
    /// Its 95% interval: a simulation of two games or more only.
    pub std_dev_interval: Option<(f64, f64)>,
}

impl Distribution {
    /// The distribution of the games of a simulation.
    pub fn simulated(scores: &Scores) -> Distribution {
        let e = scores.estimate();
        let n = e.games;
        let (mean_interval, std_dev_interval) = if n >= 2 {
            let variance = e.std_dev * e.std_dev;
            // The fourth central moment of the sample, for the spread of its variance.
            let m4 = scores
                .counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(s, &c)| c as f64 * (s as f64 - e.mean).powi(4))
                .sum::<f64>()
                / n as f64;
            let nf = n as f64;
            let spread = ((m4 - variance * variance * (nf - 3.0) / (nf - 1.0)) / nf).max(0.0);
            let half = Z95 * spread.sqrt();
            (
                Some(e.interval()),
                Some(((variance - half).max(0.0).sqrt(), (variance + half).sqrt())),
            )
        } else {
            (None, None)
        };
        Distribution {
            source: Source::Games(scores.clone()),
            mean: e.mean,
            mean_interval,
            std_dev: e.std_dev,
            std_dev_interval,
        }
    }

    /// The distribution of exact probabilities by score (`probabilities[s]` for the
    /// score `s`), as [`exact_scores`] works them out.
    pub fn exact(probabilities: Vec<f64>) -> Distribution {
        let mean: f64 = probabilities
            .iter()
            .enumerate()
            .map(|(s, &p)| s as f64 * p)
            .sum();
        let variance: f64 = probabilities
            .iter()
            .enumerate()
            .map(|(s, &p)| (s as f64 - mean).powi(2) * p)
            .sum();
        Distribution {
            source: Source::Exact(probabilities),
            mean,
            mean_interval: None,
            std_dev: variance.max(0.0).sqrt(),
            std_dev_interval: None,
        }
    }

    /// Whether the probabilities are exact rather than a simulation's.
    pub fn is_exact(&self) -> bool {
        matches!(self.source, Source::Exact(_))
    }

    /// The games played; `None` for an exact distribution.
    pub fn games(&self) -> Option<u64> {
        match &self.source {
            Source::Games(scores) => Some(scores.games()),
            Source::Exact(_) => None,
        }
    }

    /// Past the highest score that occurs.
    fn len(&self) -> usize {
        match &self.source {
            Source::Games(scores) => scores.counts.len(),
            Source::Exact(p) => p.len(),
        }
    }

    /// The games and probability of the scores `low..=high`.
    fn range(&self, low: u32, high: u32) -> Bin {
        let end = (high as usize + 1).min(self.len());
        let span = (low as usize).min(end)..end;
        match &self.source {
            Source::Games(scores) => {
                let n = scores.games();
                let k: u64 = scores.counts[span].iter().sum();
                Bin {
                    low,
                    high,
                    count: Some(k),
                    probability: k as f64 / n.max(1) as f64,
                    interval: Some(wilson(k, n)),
                }
            }
            Source::Exact(p) => Bin {
                low,
                high,
                count: None,
                probability: p[span].iter().sum(),
                interval: None,
            },
        }
    }

    /// Whether the score `s` occurs (was played, or has a positive probability).
    fn occurs(&self, s: usize) -> bool {
        match &self.source {
            Source::Games(scores) => scores.counts[s] > 0,
            Source::Exact(p) => p[s] > 0.0,
        }
    }

    /// The lowest and the highest score that occur.
    pub fn extremes(&self) -> Option<(u32, u32)> {
        let low = (0..self.len()).find(|&s| self.occurs(s))?;
        let high = (0..self.len()).rev().find(|&s| self.occurs(s))?;
        Some((low as u32, high as u32))
    }

    /// The score below which `p` percent of the games fall, by nearest rank: the
    /// smallest score with at least `p` percent at or below it. (Exactly: within 1e-12,
    /// so that rounding never moves a percentile that falls on a boundary.)
    pub fn percentile(&self, p: f64) -> Option<u32> {
        match &self.source {
            Source::Games(scores) => scores.percentile(p),
            Source::Exact(probabilities) => {
                let mut below = 0.0;
                let (low, high) = self.extremes()?;
                for (s, &q) in probabilities.iter().enumerate() {
                    below += q;
                    if below >= p / 100.0 - 1e-12 {
                        return Some((s as u32).clamp(low, high));
                    }
                }
                Some(high)
            }
        }
    }

    /// The [`PERCENTILES`], with the score of each.
    pub fn percentiles(&self) -> Vec<(u32, u32)> {
        PERCENTILES
            .iter()
            .filter_map(|&p| Some((p, self.percentile(f64::from(p))?)))
            .collect()
    }

    /// The probability that the final score is at least `target` (a bin from `target`
    /// up).
    pub fn at_least(&self, target: u32) -> Bin {
        self.range(target, u32::MAX)
    }

    /// Every score that occurs, as a bin of one point.
    pub fn scores(&self) -> Vec<Bin> {
        (0..self.len())
            .filter(|&s| self.occurs(s))
            .map(|s| self.range(s as u32, s as u32))
            .collect()
    }

    /// Bins of `width` points (from a multiple of it) from the lowest score to the
    /// highest; the [`HISTOGRAM_TAIL`] percent at each end, below the bin of that
    /// percentile or above the bin of the other, gathered in one bin, and so is each
    /// run of empty bins.
    pub fn histogram(&self, width: u32) -> Vec<Bin> {
        let width = width.max(1);
        let Some((low, high)) = self.extremes() else {
            return Vec::new();
        };
        let floor = |s: u32| s / width * width;
        let first = self.percentile(HISTOGRAM_TAIL).map_or(low, floor);
        let last = self.percentile(100.0 - HISTOGRAM_TAIL).map_or(high, floor);
        let mut bins = Vec::new();
        if low < first {
            bins.push(self.range(low, first - 1));
        }
        let mut b = first;
        while b <= last {
            bins.push(self.range(b, b + width - 1));
            b += width;
        }
        if b <= high {
            bins.push(self.range(b, high));
        }
        // A run of empty bins (a gap between scores) in one.
        let mut merged: Vec<Bin> = Vec::with_capacity(bins.len());
        for bin in bins {
            match merged.last_mut() {
                Some(last) if last.probability == 0.0 && bin.probability == 0.0 => {
                    *last = self.range(last.low, bin.high);
                }
                _ => merged.push(bin),
            }
        }
        merged
    }
}

/// Reads target scores `a,b,c` (whole numbers of points, at least 0). Columns in errors
/// count bytes from 1.
pub fn parse_targets(spec: &str) -> Result<Vec<u32>, ParseError> {
    if spec.trim().is_empty() {
        return Err(ParseError::at(
            1,
            1,
            "expected target scores separated by commas, like 200,250,300",
        ));
    }
    let mut targets = Vec::new();
    let mut col = 1;
    for raw in spec.split(',') {
        let at = col + (raw.len() - raw.trim_start().len());
        col += raw.len() + 1;
        let item = raw.trim();
        if item.is_empty() {
            return Err(ParseError::at(
                1,
                at,
                "expected a target score between commas",
            ));
        }
        if !item.bytes().all(|b| b.is_ascii_digit()) {
            let message = match item.strip_prefix('-') {
                Some(rest) if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                    format!("a target score is at least 0, not {item}")
                }
                _ => format!(
                    "expected a target score (a whole number of points), found `{}`",
                    item.escape_debug()
                ),
            };
            return Err(ParseError::at(1, at, message));
        }
        let score = item.parse::<u32>().map_err(|_| {
            ParseError::at(
                1,
                at,
                format!("{item} is too large for a score (at most {})", u32::MAX),
            )
        })?;
        targets.push(score);
    }
    Ok(targets)
}

/// The number of open boxes at `start`.
pub fn open_boxes(start: &Start) -> u32 {
    13 - start.position.filled.count_ones()
}

/// The exact probability of each final score (`[s]` for the score `s`, the card's
/// points included) under the optimal play of `player` from `start`: the play of
/// [`super::simulate_from`], ties broken the same way. The work grows quickly with the
/// open boxes (see [`EXACT_MAX_OPEN`]).
pub fn exact_scores(player: &Player, start: &Start) -> Vec<f64> {
    let mut done = Vec::new();
    let mut points = vec![0.0; start.points as usize + 1];
    points[start.points as usize] = 1.0;
    if start.position.filled == FULL {
        return points;
    }
    // The turn-start positions, by index (an order that does not depend on anything
    // but the positions), with the probability of each score so far.
    let mut now: BTreeMap<usize, (Position, Vec<f64>)> = BTreeMap::new();
    now.insert(start.position.index(), (start.position, points));
    let mut roll = start.roll;
    let mut turns = player.turns();
    while !now.is_empty() {
        let first = roll.take();
        let mut next: BTreeMap<usize, (Position, Vec<f64>)> = BTreeMap::new();
        let all: Vec<(Position, Vec<f64>)> = std::mem::take(&mut now).into_values().collect();
        for group in all.chunks(LANES) {
            let positions: Vec<Position> = group.iter().map(|(p, _)| *p).collect();
            player.prepare(&mut turns, &positions);
            for (lane, (at, so_far)) in group.iter().enumerate() {
                for ((earned, s), p) in turn_outcomes(player, &turns, lane, first) {
                    match successor(*at, s).1 {
                        Some(to) => {
                            let (_, into) =
                                next.entry(to.index()).or_insert_with(|| (to, Vec::new()));
                            add(into, so_far, earned as usize, p);
                        }
                        None => add(&mut done, so_far, earned as usize, p),
                    }
                }
            }
        }
        now = next;
    }
    done
}

/// Adds the probabilities `from`, shifted up by `shift` points and scaled by `p`, to
/// `into`.
fn add(into: &mut Vec<f64>, from: &[f64], shift: usize, p: f64) {
    if into.len() < from.len() + shift {
        into.resize(from.len() + shift, 0.0);
    }
    for (s, &q) in from.iter().enumerate().filter(|&(_, &q)| q > 0.0) {
        into[s + shift] += p * q;
    }
}

/// Pushes the probabilities of keeps through the roll of their missing dice, one die
/// at a time: afterwards only rolls (keeps of five) hold probability.
fn roll_missing(dice: &Dice, p: &mut [f64]) {
    for size in (1..=5).rev() {
        for &k in &dice.by_size[size] {
            let q = std::mem::take(&mut p[k]);
            if q > 0.0 {
                for f in 0..6 {
                    p[dice.with_face[k][f]] += q / 6.0;
                }
            }
        }
    }
}

/// The outcomes of the turn of lane `lane` (prepared in `turns`) under optimal play,
/// from a roll of all five dice or from `first` (the dice and the rolls left): the
/// probability of each (points earned, successor slot).
fn turn_outcomes(
    player: &Player,
    turns: &Turns,
    lane: usize,
    first: Option<(Counts, usize)>,
) -> BTreeMap<(u32, usize), f64> {
    let dice = &player.plan.dice;
    let mut p = vec![0.0; dice.keeps.len()];
    let rolls_left = match first {
        Some((counts, rolls_left)) => {
            p[player.keep_of(&counts)] = 1.0;
            rolls_left
        }
        None => {
            p[dice.by_size[5][0]] = 1.0;
            roll_missing(dice, &mut p);
            2
        }
    };
    for left in (1..=rolls_left).rev() {
        let mut kept = vec![0.0; dice.keeps.len()];
        for &r in &dice.rolls {
            if p[r] > 0.0 {
                kept[player.best_keep(turns, lane, r, left)] += p[r];
            }
        }
        roll_missing(dice, &mut kept);
        p = kept;
    }
    let mut outcomes = BTreeMap::new();
    for &r in &dice.rolls {
        if p[r] > 0.0 {
            let c = player.best_box(turns, lane, r);
            *outcomes
                .entry((c.earned, slot(c.index, c.points)))
                .or_insert(0.0) += p[r];
        }
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals() {
        let (lo, hi) = wilson(0, 100);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.036_995).abs() < 1e-5, "{hi}");
        let (lo, hi) = wilson(100, 100);
        assert_eq!(hi, 1.0);
        assert!((lo - 0.963_005).abs() < 1e-5, "{lo}");
        // 50 of 100: 0.4038 to 0.5962.
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.403_832).abs() < 1e-5 && (hi - 0.596_168).abs() < 1e-5);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn targets_are_read_with_the_column_of_a_mistake() {
        assert_eq!(parse_targets("200, 250 ,300").unwrap(), [200, 250, 300]);
        assert_eq!(parse_targets("0").unwrap(), [0]);
        let err = |s: &str| {
            let e = parse_targets(s).unwrap_err();
            (e.col, e.message)
        };
        assert_eq!(err("").0, 1);
        assert_eq!(err("  ").0, 1);
        assert_eq!(
            err("200,,300"),
            (5, "expected a target score between commas".into())
        );
        assert_eq!(
            err("200,"),
            (5, "expected a target score between commas".into())
        );
        assert_eq!(
            err("200, -5"),
            (6, "a target score is at least 0, not -5".into())
        );
        assert_eq!(
            err("2x0"),
            (
                1,
                "expected a target score (a whole number of points), found `2x0`".into()
            )
        );
        assert!(err("1,99999999999").1.contains("too large"));
        assert_eq!(err("1,+2").0, 3);
    }

    #[test]
    fn statistics_of_counted_games() {
        // Scores 10 (one game), 20 (two), 30 (one).
        let mut counts = vec![0; 31];
        counts[10] = 1;
        counts[20] = 2;
        counts[30] = 1;
        let d = Distribution::simulated(&Scores { counts });
        assert_eq!(d.games(), Some(4));
        assert!(!d.is_exact());
        assert_eq!(d.mean, 20.0);
        assert!((d.std_dev - (200.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(d.extremes(), Some((10, 30)));
        assert_eq!(d.percentile(50.0), Some(20));
        assert_eq!(d.percentile(99.0), Some(30));
        let t = d.at_least(20);
        assert_eq!((t.count, t.probability), (Some(3), 0.75));
        assert_eq!(d.at_least(31).count, Some(0));
        let scores: Vec<(u32, Option<u64>)> = d.scores().iter().map(|b| (b.low, b.count)).collect();
        assert_eq!(scores, [(10, Some(1)), (20, Some(2)), (30, Some(1))]);
        let h: Vec<(u32, u32, Option<u64>)> = d
            .histogram(10)
            .iter()
            .map(|b| (b.low, b.high, b.count))
            .collect();
        assert_eq!(h, [(10, 19, Some(1)), (20, 29, Some(2)), (30, 39, Some(1))]);
        let (lo, hi) = d.std_dev_interval.unwrap();
        assert!(lo <= d.std_dev && d.std_dev <= hi);
    }

    #[test]
    fn statistics_of_exact_probabilities() {
        let mut p = vec![0.0; 13];
        p[2] = 0.25;
        p[7] = 0.5;
        p[12] = 0.25;
        let d = Distribution::exact(p);
        assert!(d.is_exact());
        assert_eq!(d.games(), None);
        assert_eq!(d.mean, 7.0);
        assert!((d.std_dev - 12.5f64.sqrt()).abs() < 1e-12);
        // 25% fall at 2 exactly: the 25th percentile is 2, the 26th 7.
        assert_eq!(d.percentile(25.0), Some(2));
        assert_eq!(d.percentile(26.0), Some(7));
        assert_eq!(d.percentile(100.0), Some(12));
        assert_eq!(d.at_least(3).probability, 0.75);
        assert_eq!(d.at_least(3).interval, None);
        // The tails' 0.1% are the lowest and highest scores themselves.
        let h: Vec<(u32, u32, f64)> = d
            .histogram(5)
            .iter()
            .map(|b| (b.low, b.high, b.probability))
            .collect();
        assert_eq!(h, [(0, 4, 0.25), (5, 9, 0.5), (10, 14, 0.25)]);
    }

    #[test]
    fn gaps_are_one_bin() {
        let mut p = vec![0.0; 60];
        p[0] = 0.5;
        p[59] = 0.5;
        let h: Vec<(u32, u32, f64)> = Distribution::exact(p)
            .histogram(10)
            .iter()
            .map(|b| (b.low, b.high, b.probability))
            .collect();
        assert_eq!(h, [(0, 9, 0.5), (10, 49, 0.0), (50, 59, 0.5)]);
    }

    #[test]
    fn rare_tails_are_gathered() {
        let mut counts = vec![0u64; 1001];
        counts[0] = 1;
        counts[500] = 9998;
        counts[1000] = 1;
        let d = Distribution::simulated(&Scores { counts });
        let h: Vec<(u32, u32, Option<u64>)> = d
            .histogram(10)
            .iter()
            .map(|b| (b.low, b.high, b.count))
            .collect();
        assert_eq!(
            h,
            [
                (0, 499, Some(1)),
                (500, 509, Some(9998)),
                (510, 1000, Some(1))
            ]
        );
    }
}
