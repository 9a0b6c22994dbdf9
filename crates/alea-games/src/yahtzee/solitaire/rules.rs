//! American Yahtzee scoring and its variants of the joker rule.

use super::dice::Counts;

/// Boxes of the score card, in the order of the card.
pub const BOXES: [&str; 13] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three-of-a-kind",
    "four-of-a-kind",
    "full-house",
    "small-straight",
    "large-straight",
    "yahtzee",
    "chance",
];
pub const UPPER: usize = 6;
pub const FULL_HOUSE: usize = 8;
pub const SMALL_STRAIGHT: usize = 9;
pub const LARGE_STRAIGHT: usize = 10;
pub const YAHTZEE: usize = 11;
/// The upper bonus and the total that earns it.
pub const UPPER_BONUS: u32 = 35;
pub const UPPER_BONUS_AT: u32 = 63;
/// Each further Yahtzee while the Yahtzee box holds 50.
pub const YAHTZEE_BONUS: u32 = 100;

/// The variants of the joker rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// With the Yahtzee box filled (50 or 0), a Yahtzee may go in any open box; once
    /// the upper box of its face is filled too, full house, small and large straight
    /// take it at 25, 30, 40. (These are the rules behind the published optimum
    /// 254.5896095: letting the joker values apply while the upper box is still open
    /// gives 254.7112726.)
    FreeJoker,
    /// The official order: the matching upper box if open, else any open lower box
    /// with joker values, else a zero in an open upper box.
    ForcedJoker,
    /// The 100 bonus, but no joker.
    NoJoker,
    /// Neither the 100 bonus nor the joker.
    NoBonus,
}

impl Rules {
    pub const ALL: [Rules; 4] = [
        Rules::FreeJoker,
        Rules::ForcedJoker,
        Rules::NoJoker,
        Rules::NoBonus,
    ];

    /// The variant's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Rules::FreeJoker => "free-joker",
            Rules::ForcedJoker => "forced-joker",
            Rules::NoJoker => "no-joker",
            Rules::NoBonus => "no-bonus",
        }
    }

    fn joker(self) -> bool {
        matches!(self, Rules::FreeJoker | Rules::ForcedJoker)
    }

    fn bonus(self) -> bool {
        self != Rules::NoBonus
    }
}

fn sum(c: &Counts) -> u32 {
    c.iter()
        .enumerate()
        .map(|(f, &n)| (f as u32 + 1) * u32::from(n))
        .sum()
}

fn run(c: &Counts, from: usize, len: usize) -> bool {
    c[from..from + len].iter().all(|&n| n > 0)
}

/// A roll's score in a box by the plain rules (no joker).
pub fn plain_score(b: usize, c: &Counts) -> u32 {
    let most = *c.iter().max().expect("six faces");
    match b {
        0..=5 => (b as u32 + 1) * u32::from(c[b]),
        6 => {
            if most >= 3 {
                sum(c)
            } else {
                0
            }
        }
        7 => {
            if most >= 4 {
                sum(c)
            } else {
                0
            }
        }
        FULL_HOUSE => {
            if c.contains(&3) && c.contains(&2) {
                25
            } else {
                0
            }
        }
        SMALL_STRAIGHT => {
            if run(c, 0, 4) || run(c, 1, 4) || run(c, 2, 4) {
                30
            } else {
                0
            }
        }
        LARGE_STRAIGHT => {
            if run(c, 0, 5) || run(c, 1, 5) {
                40
            } else {
                0
            }
        }
        YAHTZEE => {
            if most == 5 {
                50
            } else {
                0
            }
        }
        _ => sum(c),
    }
}

/// The 100 bonus the roll `c` earns, whatever box it goes in: a further Yahtzee while
/// the Yahtzee box holds 50.
pub fn yahtzee_bonus(rules: Rules, yahtzee_50: bool, c: &Counts) -> u32 {
    if yahtzee_50 {
        Scored::new(c).bonus(rules)
    } else {
        0
    }
}

/// A roll's plain score in every box, and the face of a Yahtzee: what [`choices`]
/// needs, worked out once per roll rather than once per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub plain: [u32; 13],
    pub yahtzee_face: Option<usize>,
}

impl Scored {
    pub fn new(c: &Counts) -> Scored {
        Scored {
            plain: std::array::from_fn(|b| plain_score(b, c)),
            yahtzee_face: c.iter().position(|&n| n == 5),
        }
    }

    /// The 100 bonus this roll earns while the Yahtzee box holds 50.
    pub fn bonus(&self, rules: Rules) -> u32 {
        if self.yahtzee_face.is_some() && rules.bonus() {
            YAHTZEE_BONUS
        } else {
            0
        }
    }
}

/// Calls `visit(box, points)` for every box the roll `c` may be scored in, given the
/// filled boxes `filled` (bit `b` for box `b`); `points` is what the box itself
/// receives (neither the 100 bonus, see [`yahtzee_bonus`], nor the upper bonus).
pub fn choices(rules: Rules, filled: u16, c: &Counts, visit: impl FnMut(usize, u32)) {
    choices_scored(rules, filled, &Scored::new(c), visit);
}

/// [`choices`] for a roll whose scores are worked out.
#[inline]
pub fn choices_scored(rules: Rules, filled: u16, roll: &Scored, mut visit: impl FnMut(usize, u32)) {
    let open = |b: usize| filled & (1 << b) == 0;
    let joker = roll.yahtzee_face.is_some() && !open(YAHTZEE) && rules.joker();
    if !joker {
        for b in (0..BOXES.len()).filter(|&b| open(b)) {
            visit(b, roll.plain[b]);
        }
        return;
    }
    let face = roll.yahtzee_face.expect("a Yahtzee");
    let joker_score = |b: usize| match b {
        FULL_HOUSE => 25,
        SMALL_STRAIGHT => 30,
        LARGE_STRAIGHT => 40,
        _ => roll.plain[b],
    };
    if rules == Rules::FreeJoker {
        for b in (0..BOXES.len()).filter(|&b| open(b)) {
            visit(
                b,
                if open(face) {
                    roll.plain[b]
                } else {
                    joker_score(b)
                },
            );
        }
        return;
    }
    // The forced order.
    if open(face) {
        visit(face, roll.plain[face]);
    } else if (UPPER..BOXES.len()).any(open) {
        for b in (UPPER..BOXES.len()).filter(|&b| open(b)) {
            visit(b, joker_score(b));
        }
    } else {
        for b in (0..UPPER).filter(|&b| open(b)) {
            visit(b, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(dice: [u8; 5]) -> Counts {
        let mut c = [0; 6];
        for d in dice {
            c[usize::from(d) - 1] += 1;
        }
        c
    }

    /// Every choice with its points, the 100 bonus included.
    fn all(rules: Rules, filled: u16, y50: bool, dice: [u8; 5]) -> Vec<(usize, u32)> {
        let c = counts(dice);
        let extra = yahtzee_bonus(rules, y50, &c);
        let mut v = Vec::new();
        choices(rules, filled, &c, |b, p| v.push((b, p + extra)));
        v
    }

    #[test]
    fn plain_scores() {
        let c = counts([2, 3, 4, 5, 6]);
        let s: Vec<u32> = (0..13).map(|b| plain_score(b, &c)).collect();
        assert_eq!(s, vec![0, 2, 3, 4, 5, 6, 0, 0, 0, 30, 40, 0, 20]);
        let fh = counts([3, 3, 5, 5, 5]);
        assert_eq!(plain_score(FULL_HOUSE, &fh), 25);
        assert_eq!(plain_score(6, &fh), 21);
        assert_eq!(plain_score(7, &fh), 0);
        assert_eq!(plain_score(FULL_HOUSE, &counts([4; 5])), 0);
        assert_eq!(plain_score(YAHTZEE, &counts([4; 5])), 50);
    }

    #[test]
    fn joker_variants() {
        let yahtzee_box = 1u16 << YAHTZEE;
        let fours = [4; 5];
        // Free joker: any open box, straights and full house at their values, +100.
        let free = all(Rules::FreeJoker, yahtzee_box, true, fours);
        assert_eq!(free.len(), 12);
        // The fours box is open: the straights take it at their plain score.
        assert!(free.contains(&(LARGE_STRAIGHT, 100)));
        assert!(free.contains(&(3, 120)));
        // With the fours box filled, at their joker values.
        let free = all(Rules::FreeJoker, yahtzee_box | 1 << 3, true, fours);
        assert_eq!(free.len(), 11);
        assert!(free.contains(&(LARGE_STRAIGHT, 140)));
        assert!(free.contains(&(0, 100)));
        // Forced: the fours box while it is open.
        assert_eq!(
            all(Rules::ForcedJoker, yahtzee_box, true, fours),
            vec![(3, 120)]
        );
        // Fours filled: any open lower box with joker values.
        let forced = all(Rules::ForcedJoker, yahtzee_box | 1 << 3, false, fours);
        assert!(forced.iter().all(|&(b, _)| b >= UPPER));
        assert!(forced.contains(&(FULL_HOUSE, 25)));
        // Every lower box filled: a zero in an open upper box.
        let lower = (UPPER..13).fold(0u16, |m, b| m | 1 << b) | 1 << 3;
        assert_eq!(
            all(Rules::ForcedJoker, lower, true, fours),
            vec![(0, 100), (1, 100), (2, 100), (4, 100), (5, 100)]
        );
        // No joker: the 100 bonus, plain scores.
        let plain = all(Rules::NoJoker, yahtzee_box, true, fours);
        assert!(plain.contains(&(LARGE_STRAIGHT, 100)));
        // No bonus: plain scores only.
        let none = all(Rules::NoBonus, yahtzee_box, true, fours);
        assert!(none.contains(&(LARGE_STRAIGHT, 0)));
        // A Yahtzee box holding 0 gives the joker but not the bonus.
        let zero = all(Rules::FreeJoker, yahtzee_box | 1 << 3, false, fours);
        assert!(zero.contains(&(FULL_HOUSE, 25)));
    }
}
