//! The best assignment of a game's thirteen rounds to the thirteen categories.
//!
//! The upper bonus depends only on the upper section's total, so the problem splits.
//! Choose which six rounds go to the upper section (1716 ways). For a given choice the
//! upper and lower sections no longer interact, and the best upper assignment is the
//! one with the largest sum, which also earns the bonus whenever any assignment does. So
//! two small subset tables suffice:
//! - `upper[mask]`: the largest sum that puts ones, twos, ... (as many as `mask` has
//!   rounds) into the rounds of `mask`;
//! - `lower[mask]`: likewise for chance, three of a kind, ... full house.
//!
//! The answer is the best `upper[S] + bonus + lower[all - S]` over six-round sets `S`:
//! about sixty thousand steps a game, where a table over (categories used, upper total)
//! takes millions. Ties go to the first set and the lowest round, so the same game always
//! gives the same line.

use super::parse::{Game, ROUNDS};
use super::score::{score, BONUS, BONUS_AT, UPPER};

const ALL: usize = (1 << ROUNDS) - 1;

/// An optimal assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The score in each category, in the judge's order.
    pub scores: [u32; ROUNDS],
    /// The round (0-based) assigned to each category.
    pub rounds: [usize; ROUNDS],
    pub bonus: u32,
    pub total: u32,
}

/// The bonus earned by an upper-section total.
pub fn bonus_for(upper: u32) -> u32 {
    if upper >= BONUS_AT {
        BONUS
    } else {
        0
    }
}

/// `table[mask]`: the best sum putting categories `first..first + |mask|` into the
/// rounds of `mask`, for every mask of at most `count` rounds.
fn section_table(points: &[[u32; ROUNDS]; ROUNDS], first: usize, count: usize) -> Vec<u32> {
    let mut table = vec![0u32; 1 << ROUNDS];
    for mask in 1..=ALL {
        let k = mask.count_ones() as usize;
        if k > count {
            continue;
        }
        let category = first + k - 1;
        let mut best = 0;
        let mut rest = mask;
        while rest != 0 {
            let r = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            best = best.max(table[mask ^ (1 << r)] + points[r][category]);
        }
        table[mask] = best;
    }
    table
}

/// Walks a section table back from `mask`, recording which round took each category.
fn trace(
    table: &[u32],
    points: &[[u32; ROUNDS]; ROUNDS],
    first: usize,
    mut mask: usize,
    rounds: &mut [usize; ROUNDS],
) {
    while mask != 0 {
        let category = first + mask.count_ones() as usize - 1;
        let r = (0..ROUNDS)
            .find(|&r| {
                mask & (1 << r) != 0 && table[mask ^ (1 << r)] + points[r][category] == table[mask]
            })
            .expect("a table entry comes from one of its rounds");
        rounds[category] = r;
        mask ^= 1 << r;
    }
}

/// `points[r][c]`: what round `r` scores in category `c`.
fn points(game: &Game, strict_full_house: bool) -> [[u32; ROUNDS]; ROUNDS] {
    std::array::from_fn(|r| std::array::from_fn(|c| score(c, &game[r], strict_full_house)))
}

/// The assignment of the game's rounds to categories with the largest total.
pub fn best_assignment(game: &Game, strict_full_house: bool) -> Assignment {
    let points = points(game, strict_full_house);
    let upper = section_table(&points, 0, UPPER);
    let lower = section_table(&points, UPPER, ROUNDS - UPPER);

    let mut best: Option<(u32, usize)> = None;
    for set in 0..=ALL {
        if set.count_ones() as usize != UPPER {
            continue;
        }
        let total = upper[set] + bonus_for(upper[set]) + lower[ALL ^ set];
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, set));
        }
    }
    let (total, set) = best.expect("some six rounds go to the upper section");

    let mut rounds = [0usize; ROUNDS];
    trace(&upper, &points, 0, set, &mut rounds);
    trace(&lower, &points, UPPER, ALL ^ set, &mut rounds);
    let mut scores = [0u32; ROUNDS];
    for (c, s) in scores.iter_mut().enumerate() {
        *s = points[rounds[c]][c];
    }
    let bonus = bonus_for(scores[..UPPER].iter().sum());
    debug_assert_eq!(scores.iter().sum::<u32>() + bonus, total);
    Assignment {
        scores,
        rounds,
        bonus,
        total,
    }
}

/// The largest total by the classic table over (categories used, upper total capped at
/// 63): a different decomposition of the same problem, kept as an independent check of
/// [`best_assignment`] and as the yardstick its speed is measured against.
pub fn best_total_by_table(game: &Game, strict_full_house: bool) -> u32 {
    const CAP: usize = BONUS_AT as usize;
    let points = points(game, strict_full_house);
    // best[mask][u]: the most points still to come once the categories in `mask` are
    // used (the rounds in order) with upper total `u`, capped at 63.
    let mut best = vec![[0u32; CAP + 1]; 1 << ROUNDS];
    for mask in (0..ALL).rev() {
        let round = mask.count_ones() as usize;
        for u in 0..=CAP {
            let mut most = 0;
            for (c, &s) in points[round].iter().enumerate() {
                if mask & (1 << c) != 0 {
                    continue;
                }
                let (next_u, bonus) = if c < UPPER {
                    let next = (u + s as usize).min(CAP);
                    let bonus = if u < CAP && next == CAP { BONUS } else { 0 };
                    (next, bonus)
                } else {
                    (u, 0)
                };
                most = most.max(s + bonus + best[mask | (1 << c)][next_u]);
            }
            best[mask][u] = most;
        }
    }
    best[0][0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_sample_game() {
        let game = [[1, 2, 3, 4, 5]; ROUNDS];
        let a = best_assignment(&game, false);
        assert_eq!(a.scores, [1, 2, 3, 4, 5, 0, 15, 0, 0, 0, 25, 35, 0]);
        assert_eq!((a.bonus, a.total), (0, 90));
        let mut used = a.rounds;
        used.sort_unstable();
        assert_eq!(used, std::array::from_fn(|i| i));
    }
}
