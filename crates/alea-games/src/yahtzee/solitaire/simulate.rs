//! Whole games played by the optimal strategy with seeded dice: the spread of the final
//! score, as a count of games per score.
//!
//! Game `i` rolls from its own random stream (the seed, stream `i`), so the result
//! depends on the seed and the number of games only, not on the number of threads.
//! Games are played [`LANES`] at a time, in step, so that each turn's keep values are
//! worked out for all of them together.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use alea_core::Estimate;

use super::dice::Counts;
use super::play::{Player, Turns};
use super::solve::{slot, successor, Position};
use super::turn::LANES;

/// Games per parallel task.
const CHUNK: u64 = 1024;
/// Turns in a game: one per box.
const TURNS: usize = 13;

/// How many games ended with each score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    /// `counts[s]`: the games that scored `s`.
    pub counts: Vec<u64>,
}

impl Scores {
    fn add(&mut self, score: u32) {
        let s = score as usize;
        if self.counts.len() <= s {
            self.counts.resize(s + 1, 0);
        }
        self.counts[s] += 1;
    }

    fn merge(mut self, other: Scores) -> Scores {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self
    }

    pub fn games(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean score and the sample standard deviation, with the 95% interval of the
    /// mean.
    pub fn estimate(&self) -> Estimate {
        let n = self.games();
        // Sums of integers are exact; only the last divisions round.
        let (sum, squares) =
            self.counts
                .iter()
                .enumerate()
                .fold((0u128, 0u128), |(s, q), (score, &c)| {
                    let (score, c) = (score as u128, u128::from(c));
                    (s + score * c, q + score * score * c)
                });
        let mean = sum as f64 / n.max(1) as f64;
        let std_dev = if n < 2 {
            0.0
        } else {
            let n = n as u128;
            // n * sum of squares - sum^2 = n^2 times the population variance.
            let spread = (n * squares - sum * sum) as f64;
            (spread / (n as f64 * (n - 1) as f64)).sqrt()
        };
        Estimate {
            games: n,
            mean,
            std_dev,
        }
    }

    /// The score below which `p` percent of games fall, by nearest rank: the smallest
    /// score whose games, with all lower ones, are at least `p` percent of the games.
    pub fn percentile(&self, p: f64) -> Option<u32> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let rank = ((p / 100.0 * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (score, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(score as u32);
            }
        }
        None
    }
}

/// Plays `games` games optimally, calling `progress(games_done)` as chunks finish.
pub fn simulate(player: &Player, games: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> Scores {
    simulate_from(player, &Start::game(), games, seed, progress)
}

/// Where games start: a turn-start position and the points already on its card, and
/// within the first turn the dice on the table with the rolls left (without them, the
/// turn starts with a roll of all five).
#[derive(Clone, Copy, Debug)]
pub struct Start {
    pub position: Position,
    pub points: u32,
    pub roll: Option<(Counts, usize)>,
}

impl Start {
    /// The start of the game.
    pub fn game() -> Start {
        Start {
            position: Position {
                filled: 0,
                upper: 0,
                yahtzee_50: false,
            },
            points: 0,
            roll: None,
        }
    }
}

/// [`simulate`] from `start`: the final scores, the card's points included. From the
/// start of the game the games are those of [`simulate`], die for die.
pub fn simulate_from(
    player: &Player,
    start: &Start,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Scores {
    let chunks = games.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map_init(
            || player.turns(),
            |turns, c| {
                let first = c * CHUNK;
                let last = (first + CHUNK).min(games);
                let mut scores = Scores::default();
                let mut g = first;
                while g < last {
                    let n = (last - g).min(LANES as u64);
                    for s in play(player, turns, start, seed, g, n as usize) {
                        scores.add(s);
                    }
                    g += n;
                }
                progress(last - first);
                scores
            },
        )
        .reduce(Scores::default, Scores::merge)
}

/// Plays games `first..first + n` side by side and returns their final scores.
fn play(
    player: &Player,
    turns: &mut Turns,
    start: &Start,
    seed: u64,
    first: u64,
    n: usize,
) -> Vec<u32> {
    let dice = &player.plan.dice;
    let mut rngs: Vec<ChaCha8Rng> = (0..n as u64)
        .map(|i| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(first + i);
            rng
        })
        .collect();
    let mut positions = vec![start.position; n];
    let mut scores = vec![start.points; n];
    let nothing = dice.by_size[5][0];
    // Rolls the dice not kept.
    let complete = |mut keep: usize, rng: &mut ChaCha8Rng| {
        for _ in dice.size(keep)..5 {
            keep = dice.with_face[keep][rng.gen_range(0..6)];
        }
        keep
    };
    let open = TURNS - start.position.filled.count_ones() as usize;
    for turn in 0..open {
        player.prepare(turns, &positions);
        for l in 0..n {
            let rng = &mut rngs[l];
            let (mut roll, rolls) = match start.roll {
                Some((dice, rolls)) if turn == 0 => (player.keep_of(&dice), rolls),
                _ => (complete(nothing, rng), 2),
            };
            for rolls_left in (1..=rolls).rev() {
                let keep = player.best_keep(turns, l, roll, rolls_left);
                roll = complete(keep, rng);
            }
            let choice = player.best_box(turns, l, roll);
            scores[l] += choice.earned;
            let (_, next) = successor(positions[l], slot(choice.index, choice.points));
            if let Some(next) = next {
                positions[l] = next;
            }
        }
    }
    scores
}
