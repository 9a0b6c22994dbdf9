//! Many random deals at once: how often the random player wins, how many deals can be
//! won at all, and how the win probabilities spread.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::analysis::winning_line;
use super::deal::Deal;
use super::kernel::Kernel;
use alea_core::Result;

/// Bins of the win-probability histogram, each a tenth wide (the last includes 1).
pub const BINS: usize = 10;

/// `count` fresh deals from `seed`. The same seed always gives the same deals, in the
/// same order, on any machine and with any number of threads.
pub fn random_deals(count: usize, seed: u64) -> Vec<Deal> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| Deal::random(&mut rng)).collect()
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

/// Solves every deal (random play and winnability) and gathers the figures.
pub fn stats(deals: &[Deal], tick: &(dyn Fn() + Sync)) -> Result<Stats> {
    let solved: Vec<(f64, bool)> = deals
        .par_iter()
        .map_init(Kernel::default, |kernel, deal| {
            let (p, _) = kernel.random_play(deal);
            let winnable = winning_line(deal)?.is_some();
            tick();
            Ok((p, winnable))
        })
        .collect::<Result<_>>()?;
    let n = solved.len();
    let mean = solved.iter().map(|(p, _)| p).sum::<f64>() / n.max(1) as f64;
    let var = if n > 1 {
        solved.iter().map(|(p, _)| (p - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let mut histogram = [0; BINS];
    for (p, _) in &solved {
        histogram[bin(*p)] += 1;
    }
    Ok(Stats {
        deals: n,
        mean_random_play: mean,
        std_dev: var.sqrt(),
        winnable: solved.iter().filter(|(_, w)| *w).count(),
        histogram,
    })
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
        let s = stats(&deals, &|| {}).unwrap();
        assert_eq!(s.deals, 40);
        assert_eq!(s.histogram.iter().sum::<usize>(), 40);
        assert!(s.winnable <= 40);
        // A deal the random player can win is winnable; the converse need not hold.
        let ps = random_play_all(&deals, &|| {}).unwrap();
        assert!(ps.iter().filter(|&&p| p > 0.0).count() <= s.winnable);
        assert!((0.0..=1.0).contains(&s.mean_random_play));
    }
}
