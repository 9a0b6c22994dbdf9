//! The One Person Game: dice, reset combinations, and what one throw does.
//!
//! A counter starts at 0. Each throw rolls every die; if the dice show one of the reset
//! combinations (in order: the first die shows the first face, ...) the counter goes back
//! to 0, otherwise the sum of the faces is added. The game ends as soon as the counter
//! exceeds the limit. The question is the expected number of throws.

use std::fmt;

/// The most dice a game may have.
pub const MAX_DICE: usize = 8;
/// The fewest and most faces a die may have.
pub const MIN_FACES: u32 = 2;
pub const MAX_FACES: u32 = 100;

/// Why a game is not well formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    NoDice,
    TooManyDice(usize),
    Faces {
        die: usize,
        faces: u32,
    },
    ResetLength {
        reset: usize,
        len: usize,
        dice: usize,
    },
    ResetFace {
        reset: usize,
        die: usize,
        face: u32,
        faces: u32,
    },
    /// Every outcome of a throw resets the counter: the game never ends.
    AlwaysReset,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::NoDice => write!(f, "a game needs at least one die"),
            RuleError::TooManyDice(n) => {
                write!(f, "a game has at most {MAX_DICE} dice, not {n}")
            }
            RuleError::Faces { die, faces } => write!(
                f,
                "die {die} has {faces} faces; a die has {MIN_FACES} to {MAX_FACES} faces"
            ),
            RuleError::ResetLength { reset, len, dice } => write!(
                f,
                "reset combination {reset} lists {len} faces, one per die is needed ({dice})"
            ),
            RuleError::ResetFace {
                reset,
                die,
                face,
                faces,
            } => write!(
                f,
                "reset combination {reset} puts face {face} on die {die}, which has faces 1 to {faces}"
            ),
            RuleError::AlwaysReset => write!(
                f,
                "every outcome of a throw is a reset combination, so the game never ends"
            ),
        }
    }
}

/// A game: the dice (faces of each), the reset combinations, and the limit the counter
/// must exceed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub faces: Vec<u32>,
    pub resets: Vec<Vec<u32>>,
    pub limit: u64,
}

impl Game {
    /// Checks the dice and the reset combinations (repeated combinations count once).
    pub fn new(faces: Vec<u32>, resets: Vec<Vec<u32>>, limit: u64) -> Result<Game, RuleError> {
        if faces.is_empty() {
            return Err(RuleError::NoDice);
        }
        if faces.len() > MAX_DICE {
            return Err(RuleError::TooManyDice(faces.len()));
        }
        for (i, &k) in faces.iter().enumerate() {
            if !(MIN_FACES..=MAX_FACES).contains(&k) {
                return Err(RuleError::Faces {
                    die: i + 1,
                    faces: k,
                });
            }
        }
        for (r, reset) in resets.iter().enumerate() {
            if reset.len() != faces.len() {
                return Err(RuleError::ResetLength {
                    reset: r + 1,
                    len: reset.len(),
                    dice: faces.len(),
                });
            }
            for (d, (&face, &k)) in reset.iter().zip(&faces).enumerate() {
                if face == 0 || face > k {
                    return Err(RuleError::ResetFace {
                        reset: r + 1,
                        die: d + 1,
                        face,
                        faces: k,
                    });
                }
            }
        }
        let mut unique: Vec<Vec<u32>> = Vec::with_capacity(resets.len());
        for r in resets {
            if !unique.contains(&r) {
                unique.push(r);
            }
        }
        let game = Game {
            faces,
            resets: unique,
            limit,
        };
        if game.throw().sums.is_empty() {
            return Err(RuleError::AlwaysReset);
        }
        Ok(game)
    }

    /// What one throw does, as counts of equally likely outcomes.
    pub fn throw(&self) -> Throw {
        // Ways to reach each sum, one die at a time.
        let mut ways: Vec<u64> = vec![1];
        for &k in &self.faces {
            let mut next = vec![0u64; ways.len() + k as usize];
            for (s, &w) in ways.iter().enumerate() {
                for face in 1..=k as usize {
                    next[s + face] += w;
                }
            }
            ways = next;
        }
        for reset in &self.resets {
            let sum: u32 = reset.iter().sum();
            ways[sum as usize] -= 1;
        }
        Throw {
            total: self.faces.iter().map(|&k| u64::from(k)).product(),
            reset: self.resets.len() as u64,
            sums: ways
                .iter()
                .enumerate()
                .filter(|(_, &w)| w > 0)
                .map(|(s, &w)| (s as u64, w))
                .collect(),
        }
    }
}

/// One throw's outcomes: `total` equally likely ones, `reset` of them reset the counter,
/// and `sums[i] = (s, w)`: `w` of them add `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Throw {
    pub total: u64,
    pub reset: u64,
    pub sums: Vec<(u64, u64)>,
}

impl Throw {
    /// The largest sum a throw can add (0 when every outcome resets).
    pub fn max_sum(&self) -> u64 {
        self.sums.last().map_or(0, |&(s, _)| s)
    }

    /// The steps of the floating-point pass up to `limit`: one per counter and sum.
    pub fn work(&self, limit: u64) -> u64 {
        limit
            .saturating_add(1)
            .saturating_mul(self.sums.len() as u64)
    }

    /// An estimate of the 64-bit word operations of the exact pass up to `limit`: for
    /// each counter, one operation per sum and per power of `T` it spans, on numbers of
    /// up to `T^(limit / least sum)`.
    pub fn exact_work(&self, limit: u64) -> u64 {
        let least = self.sums.first().map_or(1, |&(s, _)| s).max(1);
        let throws = limit / least + 1;
        let bits = (throws as f64 * (self.total as f64).log2()).ceil() as u64;
        let per_counter = self.sums.len() as u64 + self.max_sum() / least + 1;
        limit
            .saturating_add(1)
            .saturating_mul(per_counter)
            .saturating_mul(bits / 64 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_dice_with_one_reset() {
        let g = Game::new(vec![2, 2, 2], vec![vec![1, 1, 1]], 0).unwrap();
        let t = g.throw();
        assert_eq!(t.total, 8);
        assert_eq!(t.reset, 1);
        // Sum 3 only by 1,1,1, which resets.
        assert_eq!(t.sums, vec![(4, 3), (5, 3), (6, 1)]);
    }

    #[test]
    fn outcomes_add_up() {
        let g = Game::new(vec![4, 5, 100], vec![vec![1, 1, 1], vec![4, 5, 100]], 9).unwrap();
        let t = g.throw();
        let counted: u64 = t.sums.iter().map(|&(_, w)| w).sum::<u64>() + t.reset;
        assert_eq!(counted, t.total);
        assert_eq!(t.total, 2000);
        // 109 = 4 + 5 + 100 only by the second reset combination.
        assert_eq!(t.max_sum(), 108);
    }

    #[test]
    fn eight_dice_of_a_hundred_faces_fit() {
        let t = Game::new(vec![100; 8], vec![], 1).unwrap().throw();
        assert_eq!(t.total, 100u64.pow(8));
        assert_eq!(t.sums.iter().map(|&(_, w)| w).sum::<u64>(), t.total);
    }

    #[test]
    fn repeated_resets_count_once() {
        let g = Game::new(vec![6], vec![vec![3], vec![3]], 5).unwrap();
        assert_eq!(g.throw().reset, 1);
    }

    #[test]
    fn bad_games_are_refused() {
        assert_eq!(Game::new(vec![], vec![], 1), Err(RuleError::NoDice));
        assert_eq!(
            Game::new(vec![6; 9], vec![], 1),
            Err(RuleError::TooManyDice(9))
        );
        assert_eq!(
            Game::new(vec![6, 1], vec![], 1),
            Err(RuleError::Faces { die: 2, faces: 1 })
        );
        assert_eq!(
            Game::new(vec![4, 5], vec![vec![1, 6]], 1),
            Err(RuleError::ResetFace {
                reset: 1,
                die: 2,
                face: 6,
                faces: 5
            })
        );
        assert_eq!(
            Game::new(vec![2], vec![vec![1], vec![2]], 1),
            Err(RuleError::AlwaysReset)
        );
        assert_eq!(
            Game::new(vec![4, 5], vec![vec![1]], 1),
            Err(RuleError::ResetLength {
                reset: 1,
                len: 1,
                dice: 2
            })
        );
    }
}
