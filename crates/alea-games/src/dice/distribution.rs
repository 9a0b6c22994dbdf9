//! How long the game lasts: the probability that it is over after t throws, by playing
//! the counter's distribution forward one throw at a time.

use super::rules::Throw;

/// `over[t - 1]` is the probability that the game has ended within `t` throws, for
/// `t = 1..=throws`. Costs `throws * (limit + 1) * sums` steps.
pub fn over_within(throw: &Throw, limit: u64, throws: usize) -> Vec<f64> {
    let total = throw.total as f64;
    let reset = throw.reset as f64 / total;
    let sums: Vec<(usize, f64)> = throw
        .sums
        .iter()
        .map(|&(s, w)| (s as usize, w as f64 / total))
        .collect();
    let size = limit as usize + 1;
    let mut at = vec![0.0f64; size];
    at[0] = 1.0;
    let mut next = vec![0.0f64; size];
    let mut over = 0.0;
    let mut result = Vec::with_capacity(throws);
    for _ in 0..throws {
        next.fill(0.0);
        let mut playing = 0.0;
        let mut ended = 0.0;
        for (c, &p) in at.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            playing += p;
            for &(s, q) in &sums {
                if c + s < size {
                    next[c + s] += p * q;
                } else {
                    ended += p * q;
                }
            }
        }
        next[0] += playing * reset;
        over += ended;
        result.push(over.min(1.0));
        std::mem::swap(&mut at, &mut next);
    }
    result
}
