//! The dice of one turn: the 252 distinct rolls of five dice, the 462 distinct sets of
//! kept dice (zero to five), and the ways between them.
//!
//! A roll or a keep is a multiset of faces, stored as counts per face. Rolling `n` dice
//! to complete a keep of `5 - n` is the same as rolling one die, then the other `n - 1`:
//! so the value of a keep is the mean, over the six faces, of the value of the keep with
//! that face added. That recurrence, one level of keep size at a time, replaces the
//! table of probabilities from every keep to every roll.

/// Counts of each face, 1 to 6.
pub type Counts = [u8; 6];

/// The rolls, keeps and links between them, built once.
#[derive(Debug)]
pub struct Dice {
    /// Every multiset of 0 to 5 dice; rolls (5 dice) are a subset.
    pub keeps: Vec<Counts>,
    /// Index into `keeps` of each roll, in `rolls` order.
    pub rolls: Vec<usize>,
    /// The probability of each roll when five dice are thrown.
    pub roll_probability: Vec<f64>,
    /// For each keep of fewer than five dice, the keeps with one face 1..6 added.
    pub with_face: Vec<[usize; 6]>,
    /// For each keep, the distinct keeps with one die fewer (one per face it holds).
    pub without_one: Vec<Vec<usize>>,
    /// For each roll, the distinct keeps it allows (its sub-multisets, itself included).
    pub keeps_of_roll: Vec<Vec<usize>>,
    /// Keeps grouped by size, from five dice down to none.
    pub by_size: [Vec<usize>; 6],
}

fn size(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

/// All multisets of faces with at most `max` dice, in a fixed order.
fn multisets(max: usize) -> Vec<Counts> {
    let mut all = Vec::new();
    let mut c = [0u8; 6];
    fn fill(face: usize, left: usize, c: &mut Counts, all: &mut Vec<Counts>) {
        if face == 6 {
            all.push(*c);
            return;
        }
        for n in 0..=left {
            c[face] = n as u8;
            fill(face + 1, left - n, c, all);
        }
        c[face] = 0;
    }
    fill(0, max, &mut c, &mut all);
    all
}

fn factorial(n: usize) -> f64 {
    (1..=n).map(|k| k as f64).product()
}

impl Dice {
    pub fn new() -> Dice {
        let keeps = multisets(5);
        let index: std::collections::HashMap<Counts, usize> =
            keeps.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let rolls: Vec<usize> = (0..keeps.len()).filter(|&i| size(&keeps[i]) == 5).collect();
        let roll_probability = rolls
            .iter()
            .map(|&i| {
                let ways = factorial(5)
                    / keeps[i]
                        .iter()
                        .map(|&n| factorial(usize::from(n)))
                        .product::<f64>();
                ways / 7776.0
            })
            .collect();
        let with_face = keeps
            .iter()
            .map(|k| {
                std::array::from_fn(|f| {
                    if size(k) == 5 {
                        return usize::MAX;
                    }
                    let mut next = *k;
                    next[f] += 1;
                    index[&next]
                })
            })
            .collect();
        let without_one = keeps
            .iter()
            .map(|k| {
                (0..6)
                    .filter(|&f| k[f] > 0)
                    .map(|f| {
                        let mut less = *k;
                        less[f] -= 1;
                        index[&less]
                    })
                    .collect()
            })
            .collect();
        let keeps_of_roll = rolls
            .iter()
            .map(|&r| {
                let roll = keeps[r];
                (0..keeps.len())
                    .filter(|&k| (0..6).all(|f| keeps[k][f] <= roll[f]))
                    .collect()
            })
            .collect();
        let by_size = std::array::from_fn(|s| {
            (0..keeps.len())
                .filter(|&k| size(&keeps[k]) == 5 - s)
                .collect()
        });
        Dice {
            keeps,
            rolls,
            roll_probability,
            with_face,
            without_one,
            keeps_of_roll,
            by_size,
        }
    }
}

impl Dice {
    /// The index of the keep (or roll) with these counts.
    pub fn keep_of(&self, counts: &Counts) -> Option<usize> {
        self.keeps.iter().position(|k| k == counts)
    }

    /// The number of dice in a keep.
    pub fn size(&self, keep: usize) -> usize {
        size(&self.keeps[keep])
    }

    /// The place of a roll (a keep of five dice) in `rolls`.
    pub fn roll_number(&self, keep: usize) -> Option<usize> {
        self.rolls.binary_search(&keep).ok()
    }

    /// The faces of a keep, smallest first.
    pub fn faces(&self, keep: usize) -> Vec<u8> {
        (0..6)
            .flat_map(|f| std::iter::repeat_n(f as u8 + 1, usize::from(self.keeps[keep][f])))
            .collect()
    }
}

impl Default for Dice {
    fn default() -> Self {
        Dice::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_of_rolls_and_keeps() {
        let d = Dice::new();
        assert_eq!(d.rolls.len(), 252);
        assert_eq!(d.keeps.len(), 462);
        let total: f64 = d.roll_probability.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        let pairs: usize = d.keeps_of_roll.iter().map(Vec::len).sum();
        assert_eq!(pairs, 4368);
        assert_eq!(d.by_size.iter().map(Vec::len).sum::<usize>(), 462);
        assert_eq!(d.by_size[5].len(), 1); // keeping nothing
    }

    #[test]
    fn every_sub_multiset_is_reached_by_removing_dice_one_by_one() {
        let d = Dice::new();
        for (i, keeps) in d.keeps_of_roll.iter().enumerate() {
            let mut reached = vec![false; d.keeps.len()];
            let mut todo = vec![d.rolls[i]];
            while let Some(k) = todo.pop() {
                if !reached[k] {
                    reached[k] = true;
                    todo.extend(&d.without_one[k]);
                }
            }
            let found: Vec<usize> = (0..d.keeps.len()).filter(|&k| reached[k]).collect();
            assert_eq!(&found, keeps);
        }
    }

    #[test]
    fn keeping_nothing_and_adding_dice_one_by_one_gives_the_roll_probabilities() {
        // Push probability 1 from the empty keep through `with_face`, five times.
        let d = Dice::new();
        let mut p = vec![0.0; d.keeps.len()];
        p[d.by_size[5][0]] = 1.0;
        for s in (1..=5).rev() {
            for &k in &d.by_size[s] {
                for f in 0..6 {
                    p[d.with_face[k][f]] += p[k] / 6.0;
                }
            }
        }
        for (i, &r) in d.rolls.iter().enumerate() {
            assert!((p[r] - d.roll_probability[i]).abs() < 1e-15);
        }
    }
}
