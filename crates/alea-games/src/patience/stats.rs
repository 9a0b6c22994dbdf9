//! Many random deals at once: how often the random player wins, how many deals can be
//! won at all, and how the win probabilities spread.

use std::ops::{Range, RangeInclusive};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::analysis::winning_line;
use super::deal::{Deal, PILES, PILE_CARDS};
use super::kernel::{Kernel, Tableau};
use alea_core::Result;

/// Bins of the win-probability histogram, each a tenth wide (the last includes 1).
pub const BINS: usize = 10;

/// Deals solved together by [`stats`]: enough to keep every core busy, few enough that
/// memory stays flat however many deals are asked for.
const CHUNK: usize = 4096;

/// An endless stream of fresh deals from a seed. The same seed always gives the same
/// deals, in the same order, on any machine and with any number of threads.
pub struct RandomDeals {
    rng: ChaCha8Rng,
}

impl RandomDeals {
    pub fn new(seed: u64) -> Self {
        RandomDeals {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl RandomDeals {
    /// Passes over the next `count` deals without dealing them: the generator moves on
    /// exactly as dealing would (a shuffle draws according to the deck's size only), so
    /// a worker given deals `a..b` of a seed starts where the whole stream would be.
    pub fn skip_deals(&mut self, count: u64) {
        let mut deck = [0u8; PILES * PILE_CARDS];
        for _ in 0..count {
            deck.shuffle(&mut self.rng);
        }
    }
}

impl Iterator for RandomDeals {
    type Item = Deal;
    fn next(&mut self) -> Option<Deal> {
        Some(Deal::random(&mut self.rng))
    }
}

/// The first `count` deals of [`RandomDeals`] for `seed`.
pub fn random_deals(count: usize, seed: u64) -> Vec<Deal> {
    RandomDeals::new(seed).take(count).collect()
}

/// The random player's win probability for every deal, in parallel, in input order.
/// `tick` is called once per deal solved (for a progress bar).
pub fn random_play_all(deals: &[Deal], tick: &(dyn Fn() + Sync)) -> Result<Vec<f64>> {
    deals
        .par_iter()
        .map_init(Kernel::default, |kernel, deal| {
            let (p, _) = kernel.random_play(deal);
            tick();
            Ok(p)
        })
        .collect()
}

/// [`random_play_all`] for positions read by ranks ([`super::judge_tableaus`]).
pub fn random_play_tableaus(tableaus: &[Tableau], tick: &(dyn Fn() + Sync)) -> Vec<f64> {
    tableaus
        .par_iter()
        // Each piece of work sets up a kernel and its table: pieces of at least a few
        // deals set up few, and pieces that small still balance the threads at the end.
        .with_min_len(16)
        .map_init(Kernel::default, |kernel, t| {
            let (p, _) = kernel.solve(t);
            tick();
            p
        })
        .collect()
}

/// Figures over a set of deals.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub deals: usize,
    /// The mean over deals of the random player's win probability.
    pub mean_random_play: f64,
    /// The sample standard deviation of that probability across deals.
    pub std_dev: f64,
    /// Deals that some sequence of moves clears.
    pub winnable: usize,
    /// Deals whose random-play probability falls in each tenth of [0, 1].
    pub histogram: [usize; BINS],
}

impl Stats {
    /// Half the width of the 95% interval for the mean over all deals, or `None` with
    /// fewer than two deals.
    pub fn half_width_95(&self) -> Option<f64> {
        (self.deals > 1).then(|| 1.959_963_984_540_054 * self.std_dev / (self.deals as f64).sqrt())
    }

    pub fn winnable_share(&self) -> f64 {
        if self.deals == 0 {
            0.0
        } else {
            self.winnable as f64 / self.deals as f64
        }
    }
}

/// The bin of a probability: tenths, with 1 in the last bin.
pub fn bin(p: f64) -> usize {
    ((p * BINS as f64) as usize).min(BINS - 1)
}

/// The figures of consecutive deals, before they are summed: the random player's win
/// probability of each deal in order, and how many of them are winnable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub random_play: Vec<f64>,
    pub winnable: usize,
}

/// Solves `deals` (random play and winnability) in parallel: their [`Block`]. `tick` is
/// called once per deal solved.
pub fn solve_block(deals: &[Deal], tick: &(dyn Fn() + Sync)) -> Result<Block> {
    let solved: Vec<Result<(f64, bool)>> = deals
        .par_iter()
        .map_init(Kernel::default, |kernel, deal| {
            let (p, _) = kernel.random_play(deal);
            let w = winning_line(deal)?.is_some();
            tick();
            Ok((p, w))
        })
        .collect();
    let mut block = Block {
        random_play: Vec::with_capacity(deals.len()),
        winnable: 0,
    };
    // The first failure in the order of the deals, whichever thread met it first.
    for result in solved {
        let (p, w) = result?;
        block.random_play.push(p);
        block.winnable += usize::from(w);
    }
    Ok(block)
}

/// A [`Block`] as it travels between processes: in plain types, the same size on every
/// machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealFigures {
    pub random_play: Vec<f64>,
    pub winnable: u64,
}

impl From<Block> for DealFigures {
    fn from(block: Block) -> DealFigures {
        DealFigures {
            random_play: block.random_play,
            winnable: block.winnable as u64,
        }
    }
}

impl From<DealFigures> for Block {
    fn from(figures: DealFigures) -> Block {
        Block {
            random_play: figures.random_play,
            winnable: figures.winnable as usize,
        }
    }
}

/// The deals in a block when the deals of [`stats`] are shared between processes: some
/// milliseconds of work at least; the single process's chunk at most.
pub const BLOCK_DEALS: RangeInclusive<u64> = 16..=CHUNK as u64;

/// The deals of a seed solved block by block, as a process that shares the deals of
/// [`stats`] with others solves its own: blocks of deals by their numbers, each after
/// the last, whose figures [added](Sums::add) in the order of the deals are those of
/// [`stats`] to the bit.
pub struct DealBlocks {
    stream: RandomDeals,
    /// The number of the next deal of the stream.
    next: u64,
}

impl DealBlocks {
    pub fn new(seed: u64) -> DealBlocks {
        DealBlocks {
            stream: RandomDeals::new(seed),
            next: 0,
        }
    }

    /// The figures of deals `range`, which starts at or after the end of the last block.
    pub fn solve(&mut self, range: Range<u64>) -> Result<DealFigures> {
        // The deals of a seed are one stream: a process draws past the deals of the
        // others' blocks. Passing a deal takes a third of a microsecond, solving it some
        // sixty: little beside the work up to some dozens of workers.
        self.stream.skip_deals(range.start - self.next);
        self.next = range.end;
        let dealt: Vec<Deal> = self
            .stream
            .by_ref()
            .take((range.end - range.start) as usize)
            .collect();
        Ok(solve_block(&dealt, &|| {})?.into())
    }
}

/// The running sums behind [`Stats`], fed blocks in the order of their deals. The sums
/// add one deal at a time in that order, so however the deals were cut into blocks (and
/// wherever the blocks were solved), the floating-point figures are the same to the bit.
#[derive(Clone, Debug, Default)]
pub struct Sums {
    deals: usize,
    sum: f64,
    sum_sq: f64,
    winnable: usize,
    histogram: [usize; BINS],
}

impl Sums {
    /// Adds the deals of `block`, which follow those added so far.
    pub fn add(&mut self, block: &Block) {
        for &p in &block.random_play {
            self.sum += p;
            self.sum_sq += p * p;
            self.histogram[bin(p)] += 1;
        }
        self.deals += block.random_play.len();
        self.winnable += block.winnable;
    }

    /// The figures over every deal added.
    pub fn stats(&self) -> Stats {
        let count = self.deals;
        let n = count as f64;
        let mean = if count == 0 { 0.0 } else { self.sum / n };
        let var = if count > 1 {
            ((self.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        Stats {
            deals: count,
            mean_random_play: mean,
            std_dev: var.sqrt(),
            winnable: self.winnable,
            histogram: self.histogram,
        }
    }
}

/// Shuffles `count` deals from `seed`, solves each (random play and winnability), and
/// gathers the figures. `tick` is called once per deal solved.
pub fn stats(count: usize, seed: u64, tick: &(dyn Fn() + Sync)) -> Result<Stats> {
    let mut deals = RandomDeals::new(seed);
    let mut sums = Sums::default();
    let mut done = 0;
    while done < count {
        let chunk: Vec<Deal> = deals.by_ref().take(CHUNK.min(count - done)).collect();
        done += chunk.len();
        sums.add(&solve_block(&chunk, tick)?);
    }
    Ok(sums.stats())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_are_tenths_with_one_in_the_last() {
        assert_eq!(bin(0.0), 0);
        assert_eq!(bin(0.0999), 0);
        assert_eq!(bin(0.1), 1);
        assert_eq!(bin(0.95), 9);
        assert_eq!(bin(1.0), 9);
    }

    #[test]
    fn stats_add_up() {
        let deals = random_deals(40, 3);
        let s = stats(40, 3, &|| {}).unwrap();
        assert_eq!(s.deals, 40);
        assert_eq!(s.histogram.iter().sum::<usize>(), 40);
        assert!(s.winnable <= 40);
        // A deal the random player can win is winnable; the converse need not hold.
        let ps = random_play_all(&deals, &|| {}).unwrap();
        assert!(ps.iter().filter(|&&p| p > 0.0).count() <= s.winnable);
        assert!((0.0..=1.0).contains(&s.mean_random_play));
        let mean = ps.iter().sum::<f64>() / 40.0;
        assert!((s.mean_random_play - mean).abs() < 1e-12);
    }

    #[test]
    fn no_deals_and_one_deal() {
        let none = stats(0, 1, &|| {}).unwrap();
        assert_eq!(none.mean_random_play.to_bits(), 0.0f64.to_bits());
        assert_eq!(none.half_width_95(), None);
        assert_eq!(none.winnable_share(), 0.0);
        let one = stats(1, 1, &|| {}).unwrap();
        assert_eq!(one.std_dev, 0.0);
        assert_eq!(one.half_width_95(), None);
    }

    #[test]
    fn skipping_deals_leaves_the_stream_where_dealing_would() {
        for (seed, skipped) in [(1, 0), (1, 1), (7, 5), (9, 100)] {
            let mut skipping = RandomDeals::new(seed);
            skipping.skip_deals(skipped);
            let mut dealing = RandomDeals::new(seed);
            let expected = dealing.nth(skipped as usize);
            assert_eq!(skipping.next(), expected, "seed {seed}, {skipped} skipped");
        }
    }

    #[test]
    fn sums_of_blocks_cut_anywhere_are_the_same_to_the_bit() {
        let deals = random_deals(50, 8);
        let whole = stats(50, 8, &|| {}).unwrap();
        for cut in [1, 7, 50] {
            let mut sums = Sums::default();
            for part in deals.chunks(cut) {
                sums.add(&solve_block(part, &|| {}).unwrap());
            }
            let s = sums.stats();
            assert_eq!(s, whole, "blocks of {cut}");
            assert_eq!(
                s.mean_random_play.to_bits(),
                whole.mean_random_play.to_bits()
            );
            assert_eq!(s.std_dev.to_bits(), whole.std_dev.to_bits());
        }
    }

    #[test]
    fn deals_solved_in_blocks_apart_add_up_to_the_stats_to_the_bit() {
        let whole = stats(40, 4, &|| {}).unwrap();
        // Two processes taking every other block of 6 deals, each passing over the
        // other's.
        let blocks: Vec<Range<u64>> = (0..40).step_by(6).map(|a| a..(a + 6).min(40)).collect();
        let mut processes = [DealBlocks::new(4), DealBlocks::new(4)];
        let mut sums = Sums::default();
        for (b, range) in blocks.into_iter().enumerate() {
            let figures = processes[b % 2].solve(range).unwrap();
            sums.add(&figures.into());
        }
        let s = sums.stats();
        assert_eq!(s, whole);
        assert_eq!(
            s.mean_random_play.to_bits(),
            whole.mean_random_play.to_bits()
        );
        assert_eq!(s.std_dev.to_bits(), whole.std_dev.to_bits());
    }

    #[test]
    fn stats_do_not_depend_on_the_chunking() {
        // More deals than one chunk: the same figures as solving them one by one.
        let count = CHUNK + 17;
        let s = stats(count, 5, &|| {}).unwrap();
        let ps = random_play_all(&random_deals(count, 5), &|| {}).unwrap();
        assert_eq!(s.deals, count);
        let mean = ps.iter().sum::<f64>() / count as f64;
        assert!((s.mean_random_play - mean).abs() < 1e-12);
    }
}
