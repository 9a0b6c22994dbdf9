//! How long the game lasts: the probability that the last square is reached within t
//! spins, by moving the probability of each square forward one spin at a time.

use super::rules::{Board, Rules};

/// `finished[t - 1]` is the probability that the counter has reached the last square
/// within `t` spins, for `t = 1..=spins`; non-decreasing and at most 1. Costs up to
/// `spins * N * spinner` steps; the rules must have passed `check`.
pub fn finished_within(board: &Board, rules: &Rules, spins: usize) -> Vec<f64> {
    let n = board.squares() as usize;
    let p = 1.0 / f64::from(rules.spinner.max(1));
    // Where each face leads from each square, with the overshooting faces of `stay`
    // and `finish` merged into one move.
    let mut moves: Vec<(u32, f64)> = Vec::with_capacity(n * rules.spinner as usize);
    let mut first = Vec::with_capacity(n + 1);
    for square in 0..n as u32 {
        first.push(moves.len());
        let from = moves.len();
        for face in 1..=rules.spinner {
            let to = board.spin(rules, square, face);
            match moves[from..].last_mut() {
                Some(m) if m.0 == to => m.1 += p,
                _ => moves.push((to, p)),
            }
        }
    }
    first.push(moves.len());

    let mut at = vec![0.0f64; n];
    at[0] = 1.0;
    let mut next = vec![0.0f64; n];
    let mut finished = 0.0f64;
    let mut result = Vec::with_capacity(spins);
    while result.len() < spins {
        next.fill(0.0);
        let mut arrived = 0.0;
        let mut playing = false;
        for (square, &mass) in at.iter().enumerate() {
            // Below the smallest normal number a square's probability can no longer
            // show in the sum, and subnormal arithmetic is slow: it is dropped.
            if mass < f64::MIN_POSITIVE {
                continue;
            }
            playing = true;
            for &(to, q) in &moves[first[square]..first[square + 1]] {
                if to as usize == n {
                    arrived += mass * q;
                } else {
                    next[to as usize] += mass * q;
                }
            }
        }
        if !playing {
            // Nothing is left on the board: every later spin finds the game over.
            result.resize(spins, finished.min(1.0));
            break;
        }
        finished += arrived;
        result.push(finished.min(1.0));
        std::mem::swap(&mut at, &mut next);
    }
    result
}
