//! Whole games played by the optimal strategy with seeded dice: the spread of the final
//! score, as a count of games per score.
//!
//! Game `i` rolls from its own random stream (the seed, stream `i`), so the result
//! depends on the seed and the number of games only, not on the number of threads. A
//! throw of `n` dice is one draw below 6^n, read as `n` digits in base six.
//!
//! Working out a turn's keep values takes microseconds, and playing the turn from them
//! well under one; yet a million games visit only about 180,000 distinct turn-start
//! positions. So the games are played in blocks, all of a block's games one turn at a
//! time: the positions they reached that were never met before are worked out together
//! ([`LANES`] at a time, in parallel), their best play for every roll is kept in a
//! [`Book`] (a kilobyte a position), and then every game plays its turn by looking its
//! rolls up. The book is a function of the table alone, so the games are the same die
//! for die whatever the blocks, the threads or the order of work.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use alea_core::Estimate;

use super::dice::Counts;
use super::play::{Decisions, Player};
use super::solve::{slot, successor, Position, TABLE_LEN};
use super::turn::LANES;

/// Games played together, one turn at a time: enough to share the work on positions
/// and to keep both cores busy, few enough that their random streams (some 300 bytes
/// each, 2.7 MB in all) stay in the cache; blocks four times as large took a third
/// longer to play.
const BLOCK: u64 = 1 << 13;
/// Games per parallel task within a turn.
const CHUNK: usize = 1024;
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

/// The best play of every turn-start position met so far.
pub struct Book {
    /// Per position (by [`Position::index`]), its place in `decisions`, or `NONE`.
    place: Vec<u32>,
    decisions: Vec<Decisions>,
}

const NONE: u32 = u32::MAX;
/// The turn-start positions a game can reach.
const REACHABLE: usize = 536_320;
/// A position being worked out.
const PENDING: u32 = u32::MAX - 1;

impl Book {
    pub fn new() -> Book {
        Book {
            place: vec![NONE; TABLE_LEN],
            decisions: Vec::new(),
        }
    }

    /// The positions kept.
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// Works out the positions of `at` not yet in the book, in parallel.
    fn add(&mut self, player: &Player, at: impl Iterator<Item = Position>) {
        // Each missing position once, marked as it is first met (a sort took longer
        // than all the rest of the step).
        let mut missing = Vec::new();
        for p in at {
            let place = &mut self.place[p.index()];
            if *place == NONE {
                *place = PENDING;
                missing.push(p);
            }
        }
        let decided: Vec<Vec<Decisions>> = missing
            .par_chunks(LANES)
            .map_init(
                || player.turns(),
                |turns, chunk| {
                    player.prepare(turns, chunk);
                    player.decide(turns, chunk.len())
                },
            )
            .collect();
        if self.decisions.capacity() == 0 {
            // Room for every reachable position at once: memory the book never fills is
            // only reserved, and growing never copies what is there.
            self.decisions.reserve_exact(REACHABLE);
        }
        for (p, d) in missing.iter().zip(decided.into_iter().flatten()) {
            self.place[p.index()] = self.decisions.len() as u32;
            self.decisions.push(d);
        }
    }
}

impl Default for Book {
    fn default() -> Self {
        Book::new()
    }
}

/// One game under way.
struct Game {
    rng: ChaCha8Rng,
    at: Position,
    score: u32,
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
    simulate_with(player, &mut Book::new(), start, games, seed, progress)
}

/// [`simulate_from`], reading and growing `book`: a caller that simulates again with
/// the same table may keep it.
///
/// # Panics
/// When the start's roll is not five dice.
pub fn simulate_with(
    player: &Player,
    book: &mut Book,
    start: &Start,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Scores {
    if let Some((dice, _)) = start.roll {
        let count: u32 = dice.iter().map(|&n| u32::from(n)).sum();
        assert_eq!(count, 5, "a roll of five dice");
    }
    let open = TURNS - start.position.filled.count_ones() as usize;
    let roller = Roller::new(player);
    let mut scores = Scores::default();
    let mut first = 0;
    while first < games {
        let n = (games - first).min(BLOCK);
        let mut block: Vec<Game> = (first..first + n)
            .into_par_iter()
            .map(|g| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(g);
                Game {
                    rng,
                    at: start.position,
                    score: start.points,
                }
            })
            .collect();
        for turn in 0..open {
            book.add(player, block.iter().map(|g| g.at));
            let roll = start.roll.filter(|_| turn == 0);
            let book = &*book;
            block.par_chunks_mut(CHUNK).for_each(|games| {
                for group in games.chunks_mut(GROUP) {
                    play(player, &roller, book, group, roll);
                }
            });
        }
        for g in &block {
            scores.add(g.score);
        }
        progress(n);
        first += n;
    }
    scores
}

/// 6^n for n dice.
const SIX_POWERS: [u32; 6] = [1, 6, 36, 216, 1296, 7776];

/// The dice's tables as the play reads them, flat and small.
struct Roller {
    /// Per keep, the dice left to roll.
    missing: Vec<u8>,
    /// Per keep of fewer than five dice, the keep with one face more.
    with_face: Vec<[u16; 6]>,
    /// Per roll number, its keeps in the order of [`super::Dice::keeps_of_roll`].
    keeps: Vec<[u16; 32]>,
    /// Keeping nothing.
    nothing: u16,
}

impl Roller {
    fn new(player: &Player) -> Roller {
        let dice = &player.plan.dice;
        let short = |k: usize| k as u16;
        let mut with_face = vec![[0; 6]; dice.keeps.len()];
        for (k, w) in with_face.iter_mut().enumerate() {
            if dice.size(k) < 5 {
                *w = dice.with_face[k].map(short);
            }
        }
        Roller {
            missing: (0..dice.keeps.len())
                .map(|k| (5 - dice.size(k)) as u8)
                .collect(),
            with_face,
            keeps: dice
                .keeps_of_roll
                .iter()
                .map(|keeps| {
                    let mut flat = [0; 32];
                    for (f, &k) in flat.iter_mut().zip(keeps) {
                        *f = short(k);
                    }
                    flat
                })
                .collect(),
            nothing: short(dice.by_size[5][0]),
        }
    }

    /// Rolls the dice not kept: the roll, as a keep of five dice. One draw gives all of
    /// them, as the
    /// digits in base six of a number below 6^n: a die at a time took three times as
    /// long, most of the play, in the random stream.
    #[inline(always)]
    fn complete(&self, keep: u16, rng: &mut ChaCha8Rng) -> usize {
        let mut keep = keep;
        let missing = self.missing[usize::from(keep)];
        let mut throw = rng.gen_range(0..SIX_POWERS[usize::from(missing)]);
        for _ in 0..missing {
            keep = self.with_face[usize::from(keep)][(throw % 6) as usize];
            throw /= 6;
        }
        usize::from(keep)
    }
}

/// Games whose turns are played step by step together. A game's decisions are a
/// kilobyte among a hundred megabytes, so reading one mostly waits for memory: each step
/// first reads the decisions of all the group's games in a tight loop of independent
/// loads, which the processor overlaps, instead of each game waiting for its own in turn
/// (a game at a time took twice as long).
const GROUP: usize = 64;

/// Plays one turn of each of `games` (at most [`GROUP`]), from a roll of all five dice,
/// or from `roll` (the dice on the table and the rolls left).
fn play(
    player: &Player,
    roller: &Roller,
    book: &Book,
    games: &mut [Game],
    roll: Option<(Counts, usize)>,
) {
    let mut decisions = [0u32; GROUP];
    for (g, d) in games.iter().zip(&mut decisions) {
        *d = book.place[g.at.index()];
    }
    let decisions = &decisions[..games.len()];
    // Each game's roll, by its number among the rolls.
    let mut rolls = [0; GROUP];
    let mut read = [0u8; GROUP];
    for (g, r) in games.iter_mut().zip(&mut rolls) {
        *r = match roll {
            Some((dice, _)) => player.roll_number(player.keep_of(&dice)),
            None => player.roll_number(roller.complete(roller.nothing, &mut g.rng)),
        };
    }
    for left in (1..=roll.map_or(2, |(_, r)| r)).rev() {
        for ((&d, &n), place) in decisions.iter().zip(&rolls).zip(&mut read) {
            *place = book.decisions[d as usize].keep[left - 1][n];
        }
        for ((g, r), &place) in games.iter_mut().zip(&mut rolls).zip(&read) {
            let keep = roller.keeps[*r][usize::from(place)];
            *r = player.roll_number(roller.complete(keep, &mut g.rng));
        }
    }
    let mut boxes = [(0, 0); GROUP];
    for ((&d, &n), to) in decisions.iter().zip(&rolls).zip(&mut boxes) {
        *to = book.decisions[d as usize].last_box[n];
    }
    for ((g, &n), &(b, points)) in games.iter_mut().zip(&rolls).zip(&boxes) {
        let (b, points) = (usize::from(b), u32::from(points));
        let (bonus, next) = successor(g.at, slot(b, points));
        g.score += points + player.yahtzee_bonus(g.at, n) + bonus;
        if let Some(next) = next {
            g.at = next;
        }
    }
}
