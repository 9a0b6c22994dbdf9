//! Whole games played by the optimal strategy with seeded dice: the spread of the final
//! score, as a count of games per score.
//!
//! Game `i` rolls from its own generator, xoshiro256++ started from the seed and `i`
//! (see [`game_dice`]), so the result depends on the seed and the number of games only,
//! not on the number of threads. A throw of `n` dice is one draw below 6^n, read as `n`
//! digits in base six.
//!
//! Working out a turn's keep values takes microseconds, and playing the turn from them
//! well under one; yet a million games visit only about 180,000 distinct turn-start
//! positions, and only about 137,000 once positions whose upper totals earn the bonus
//! alike are played as one (they have the same best play: see `Classes` in the
//! solver). So the games are played in blocks, all of a block's games one turn at a
//! time: the positions they reached that were never met before are worked out together
//! ([`LANES`] at a time, in parallel), their best play for every roll is kept in a
//! [`Book`] (a kilobyte a position), and then every game plays its turn by looking its
//! rolls up. The book is a function of the table alone, so the games are the same die
//! for die whatever the blocks, the threads or the order of work.

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::{Range, RangeInclusive};
use std::sync::atomic::{AtomicU32, Ordering};

use alea_core::Estimate;

use super::dice::Counts;
use super::play::{Decisions, Player, ROLLS};
use super::rules::Rules;
use super::solve::{slot, successor, Classes, Position, TABLE_LEN};
use super::turn::LANES;

/// Games played together, one turn at a time: the more, the more of the new positions
/// each step works out together, and the fewer the steps. A game under way is 40 bytes
/// (its generator 32), so a block is 20 MB. With a generator of 300 bytes (ChaCha8),
/// blocks of 8,192 had been best; with this one, a million games play in 0.87 s in
/// blocks of 131,072 and in 0.83 s in blocks of 524,288, as in one block.
const BLOCK: u64 = 1 << 19;
/// Games per parallel task within a turn.
const CHUNK: usize = 1024;
/// Turns in a game: one per box.
const TURNS: usize = 13;
/// The games in a block when the games of a simulation are shared between processes,
/// each block played by [`simulate_range`]: a block of the smallest size is still a
/// fraction of a second's play; a block of the largest, one parallel step of the single
/// process's simulation.
pub const BLOCK_GAMES: RangeInclusive<u64> = 256..=1 << 16;

/// How many games ended with each score: also the part of a simulation that travels
/// between processes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

    /// Adds the games of `other`: counts add up in any order, so the games of a
    /// simulation may be played in parts anywhere and summed.
    pub fn merge(&mut self, other: &Scores) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, &theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
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

/// The best play of every turn-start position met so far, under one set of rules.
pub struct Book {
    /// Per position (by [`Position::index`]), its number in the book, or `NONE`, or
    /// `PENDING` from when a game reaches it first until it is worked out. Atomic, so
    /// that the games of every thread mark the new positions they reach as they play.
    place: Vec<AtomicU32>,
    /// The decisions, by number: each written in place by the thread that works it out.
    decisions: Vec<Decisions>,
    /// The rules of the table the decisions come from, once there are any.
    rules: Option<Rules>,
    /// Positions that differ only in upper totals that earn the bonus alike have the
    /// same best play: the book keeps one of them, which leaves fewer to work out.
    classes: Classes,
}

const NONE: u32 = u32::MAX;
/// The turn-start positions a game can reach.
const REACHABLE: usize = 536_320;
/// A position being worked out.
const PENDING: u32 = u32::MAX - 1;

impl Book {
    pub fn new() -> Book {
        Book {
            place: (0..TABLE_LEN).map(|_| AtomicU32::new(NONE)).collect(),
            decisions: Vec::new(),
            rules: None,
            classes: Classes::new(),
        }
    }

    /// The positions kept.
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// The number in the book of a position, once kept.
    fn place(&self, at: Position) -> u32 {
        self.place[self.classes.stand_in(at).index()].load(Ordering::Relaxed)
    }

    /// The decisions kept as number `d`.
    fn decisions(&self, d: u32) -> &Decisions {
        &self.decisions[d as usize]
    }

    /// Adds the position that stands for `at` to `new` if no game has reached it, or one
    /// it stands for, before: each once, by the game that marks it first.
    fn claim(&self, at: Position, new: &mut Vec<Position>) {
        let at = self.classes.stand_in(at);
        let place = &self.place[at.index()];
        if place.load(Ordering::Relaxed) == NONE
            && place
                .compare_exchange(NONE, PENDING, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            new.push(at);
        }
    }

    /// Works out the positions `new` (claimed, not yet kept), in parallel.
    fn add(&mut self, player: &Player, new: &[Position]) {
        if self.decisions.capacity() == 0 {
            // Room for every reachable position at once: memory the book never fills is
            // only reserved, and growing never copies what is there.
            self.decisions.reserve_exact(REACHABLE);
        }
        let first = self.decisions.len();
        let empty = Decisions {
            keep: [[0; ROLLS]; 2],
            last_box: [(0, 0); ROLLS],
        };
        // Room made in parallel (its pages first touched by both threads), then each
        // group of positions written in its place.
        self.decisions
            .par_extend(rayon::iter::repeat_n(empty, new.len()));
        self.decisions[first..]
            .par_chunks_mut(LANES)
            .zip(new.par_chunks(LANES))
            .for_each_init(
                || player.turns(),
                |turns, (decided, chunk)| {
                    player.prepare(turns, chunk);
                    player.decide(turns, decided);
                },
            );
        for (i, p) in new.iter().enumerate() {
            *self.place[p.index()].get_mut() = (first + i) as u32;
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
    rng: Xoshiro256PlusPlus,
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
    simulate_in_blocks(player, book, start, 0..games, seed, BLOCK, progress)
}

/// Games `games` (by their numbers) of [`simulate_with`]: each game rolls its own dice,
/// so the scores of parts played apart and [merged](Scores::merge) are those of the
/// whole.
///
/// # Panics
/// As [`simulate_with`].
pub fn simulate_range(
    player: &Player,
    book: &mut Book,
    start: &Start,
    games: Range<u64>,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Scores {
    simulate_in_blocks(player, book, start, games, seed, BLOCK, progress)
}

/// Games `games` of [`simulate_with`], played in blocks of `block` games.
fn simulate_in_blocks(
    player: &Player,
    book: &mut Book,
    start: &Start,
    games: Range<u64>,
    seed: u64,
    block: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Scores {
    if let Some((dice, rolls_left)) = start.roll {
        let count: u32 = dice.iter().map(|&n| u32::from(n)).sum();
        assert_eq!(count, 5, "a roll of five dice");
        assert!(rolls_left <= 2, "at most two rolls left after a roll");
    }
    let rules = player.table.rules;
    assert!(
        book.rules.is_none_or(|r| r == rules),
        "a book kept for other rules"
    );
    book.rules = Some(rules);
    let open = TURNS - start.position.filled.count_ones() as usize;
    let roller = Roller::new(player);
    let mut scores = Scores::default();
    let mut first = games.start;
    while first < games.end {
        let n = (games.end - first).min(block);
        let mut playing: Vec<Game> = (first..first + n)
            .into_par_iter()
            .map(|g| Game {
                rng: dice_of(seed, g),
                at: start.position,
                score: start.points,
            })
            .collect();
        let mut new = Vec::new();
        if open > 0 {
            book.claim(start.position, &mut new);
        }
        for turn in 0..open {
            book.add(player, &new);
            let roll = start.roll.filter(|_| turn == 0);
            let book = &*book;
            let last = turn + 1 == open;
            let reached: Vec<Vec<Position>> = playing
                .par_chunks_mut(CHUNK)
                .map(|games| {
                    let mut new = Vec::new();
                    for group in games.chunks_mut(GROUP) {
                        play(player, &roller, book, group, roll, &mut new);
                    }
                    if last {
                        progress(games.len() as u64);
                    }
                    new
                })
                .collect();
            new = reached.concat();
        }
        for g in &playing {
            scores.add(g.score);
        }
        if open == 0 {
            progress(n);
        }
        first += n;
    }
    scores
}

/// The dice of game `game` of a simulation seeded `seed`, as the simulation rolls them.
pub fn game_dice(seed: u64, game: u64) -> impl RngCore {
    dice_of(seed, game)
}

/// [`game_dice`]: xoshiro256++ (32 bytes, a tenth of a ChaCha generator with its buffer,
/// and a third faster to play with), its four words drawn by SplitMix64 from the game's
/// number mixed with the seed's own SplitMix64 output, so that neighbouring games and
/// neighbouring seeds start far apart (the words of two games of a seed could only meet
/// if their numbers differed by a multiple of SplitMix64's step, some 2^62). The words
/// are worked out here, not by a crate's seeding, so that the games stay the same.
fn dice_of(seed: u64, game: u64) -> Xoshiro256PlusPlus {
    let mut x = split_mix(seed) ^ game;
    let mut bytes = [0u8; 32];
    for word in bytes.chunks_exact_mut(8) {
        x = x.wrapping_add(SPLIT_MIX_STEP);
        word.copy_from_slice(&split_mix_output(x).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// The increment of SplitMix64's state.
const SPLIT_MIX_STEP: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's first output from state `x`.
fn split_mix(x: u64) -> u64 {
    split_mix_output(x.wrapping_add(SPLIT_MIX_STEP))
}

/// SplitMix64's output function of its state `z`.
fn split_mix_output(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
    fn complete(&self, keep: u16, rng: &mut Xoshiro256PlusPlus) -> usize {
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
/// or from `roll` (the dice on the table and the rolls left); adds to `new` the
/// positions reached that the book has never met.
fn play(
    player: &Player,
    roller: &Roller,
    book: &Book,
    games: &mut [Game],
    roll: Option<(Counts, usize)>,
    new: &mut Vec<Position>,
) {
    let mut decisions = [0u32; GROUP];
    for (g, d) in games.iter().zip(&mut decisions) {
        *d = book.place(g.at);
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
            *place = book.decisions(d).keep[left - 1][n];
        }
        for ((g, r), &place) in games.iter_mut().zip(&mut rolls).zip(&read) {
            let keep = roller.keeps[*r][usize::from(place)];
            *r = player.roll_number(roller.complete(keep, &mut g.rng));
        }
    }
    let mut boxes = [(0, 0); GROUP];
    for ((&d, &n), to) in decisions.iter().zip(&rolls).zip(&mut boxes) {
        *to = book.decisions(d).last_box[n];
    }
    for ((g, &n), &(b, points)) in games.iter_mut().zip(&rolls).zip(&boxes) {
        let (b, points) = (usize::from(b), u32::from(points));
        let (bonus, next) = successor(g.at, slot(b, points));
        g.score += points + player.yahtzee_bonus(g.at, n) + bonus;
        if let Some(next) = next {
            g.at = next;
            book.claim(next, new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yahtzee::solitaire::{solve, Rules};

    #[test]
    fn a_games_dice_are_xoshiro_seeded_by_split_mix() {
        // The crate's own seeding from a number runs SplitMix64 too: the same words.
        for (seed, game) in [(1, 0), (1, 1), (7, 123_456), (u64::MAX, u64::MAX)] {
            let mut ours = dice_of(seed, game);
            let mut theirs = Xoshiro256PlusPlus::seed_from_u64(split_mix(seed) ^ game);
            for _ in 0..8 {
                assert_eq!(ours.next_u64(), theirs.next_u64());
            }
        }
        // And the games of a seed stay the same from release to release.
        let mut first = game_dice(1, 0);
        assert_eq!(first.next_u64(), FIRST_DRAW);
    }

    /// The first draw of game 0 of seed 1.
    const FIRST_DRAW: u64 = 8_089_978_747_140_965_633;

    #[test]
    fn a_position_is_played_as_the_one_that_stands_for_it() {
        // The book keeps one position of each class of upper totals: working out each
        // member itself must give the same decisions, under rules that differ in how
        // boxes score.
        use crate::yahtzee::solitaire::solve::reachable_positions;
        for rules in [Rules::FreeJoker, Rules::ForcedJoker] {
            let table = solve(rules);
            let player = Player::new(&table);
            let classes = Classes::new();
            let members: Vec<Position> = reachable_positions()
                .into_iter()
                .filter(|&p| classes.stand_in(p) != p)
                .step_by(97)
                .collect();
            assert!(members.len() > 200, "{}", members.len());
            let work = |positions: &[Position]| {
                let mut turns = player.turns();
                let empty = Decisions {
                    keep: [[0; ROLLS]; 2],
                    last_box: [(0, 0); ROLLS],
                };
                let mut decided = vec![empty; positions.len()];
                for (chunk, decided) in positions.chunks(LANES).zip(decided.chunks_mut(LANES)) {
                    player.prepare(&mut turns, chunk);
                    player.decide(&mut turns, decided);
                }
                decided
            };
            let stand_ins: Vec<Position> = members.iter().map(|&p| classes.stand_in(p)).collect();
            assert_eq!(work(&members), work(&stand_ins), "{rules:?}");
        }
    }

    #[test]
    fn the_games_do_not_depend_on_the_blocks() {
        let table = solve(Rules::FreeJoker);
        let player = Player::new(&table);
        let start = Start::game();
        let play = |book: &mut Book, block| {
            simulate_in_blocks(&player, book, &start, 0..3000, 11, block, &|_| {})
        };
        let whole = play(&mut Book::new(), BLOCK);
        assert_eq!(whole.games(), 3000);
        let mut shared = Book::new();
        for block in [1000, 7, 1] {
            assert_eq!(play(&mut Book::new(), block), whole, "blocks of {block}");
            assert_eq!(
                play(&mut shared, block),
                whole,
                "blocks of {block}, a book kept"
            );
        }
        // Parts played apart, each from a book of its own, in any order.
        let mut parts = Scores::default();
        for games in [2000..3000, 0..1, 1..1999, 1999..2000] {
            let part = simulate_range(&player, &mut Book::new(), &start, games, 11, &|_| {});
            parts.merge(&part);
        }
        assert_eq!(parts, whole);
    }
}
