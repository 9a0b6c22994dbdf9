//! The thirteen categories of the judge's Yahtzee and what a round of five dice scores in
//! each.

/// Categories in the judge's output order.
pub const CATEGORIES: [&str; 13] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "chance",
    "three-of-a-kind",
    "four-of-a-kind",
    "five-of-a-kind",
    "short-straight",
    "long-straight",
    "full-house",
];
/// The upper section: ones to sixes.
pub const UPPER: usize = 6;
/// The upper section's bonus, and the total it needs.
pub const BONUS: u32 = 35;
pub const BONUS_AT: u32 = 63;

/// One round: five dice, each 1 to 6.
pub type Round = [u8; 5];

/// What `round` scores in category `c` (an index into [`CATEGORIES`]). With
/// `strict_full_house`, five of a kind is not a full house.
pub fn score(c: usize, round: &Round, strict_full_house: bool) -> u32 {
    let mut counts = [0u8; 7];
    for &d in round {
        counts[usize::from(d)] += 1;
    }
    let sum: u32 = round.iter().map(|&d| u32::from(d)).sum();
    let most = *counts.iter().max().expect("seven counts");
    let has = |faces: &[usize]| faces.iter().all(|&f| counts[f] > 0);
    match c {
        0..=5 => u32::from(counts[c + 1]) * (c as u32 + 1),
        6 => sum,
        7 => {
            if most >= 3 {
                sum
            } else {
                0
            }
        }
        8 => {
            if most >= 4 {
                sum
            } else {
                0
            }
        }
        9 => {
            if most == 5 {
                50
            } else {
                0
            }
        }
        10 => {
            if has(&[1, 2, 3, 4]) || has(&[2, 3, 4, 5]) || has(&[3, 4, 5, 6]) {
                25
            } else {
                0
            }
        }
        11 => {
            if has(&[1, 2, 3, 4, 5]) || has(&[2, 3, 4, 5, 6]) {
                35
            } else {
                0
            }
        }
        12 => {
            let three_two = counts.contains(&3) && counts.contains(&2);
            if three_two || (most == 5 && !strict_full_house) {
                40
            } else {
                0
            }
        }
        _ => panic!("category index {c} out of range"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(round: Round, strict: bool) -> Vec<u32> {
        (0..13).map(|c| score(c, &round, strict)).collect()
    }

    #[test]
    fn scores_by_category() {
        assert_eq!(
            all([1, 2, 3, 4, 5], false),
            vec![1, 2, 3, 4, 5, 0, 15, 0, 0, 0, 25, 35, 0]
        );
        assert_eq!(
            all([6, 6, 6, 1, 1], false),
            vec![2, 0, 0, 0, 0, 18, 20, 20, 0, 0, 0, 0, 40]
        );
        assert_eq!(
            all([5, 5, 5, 5, 6], false),
            vec![0, 0, 0, 0, 20, 6, 26, 26, 26, 0, 0, 0, 0]
        );
        assert_eq!(all([3, 4, 1, 2, 6], false)[10], 25);
        assert_eq!(all([3, 4, 1, 2, 6], false)[11], 0);
    }

    #[test]
    fn five_of_a_kind_is_a_full_house_unless_strict() {
        assert_eq!(score(12, &[4; 5], false), 40);
        assert_eq!(score(12, &[4; 5], true), 0);
        assert_eq!(score(9, &[4; 5], true), 50);
        assert_eq!(score(8, &[4; 5], true), 20);
    }
}
