//! Advice for a position a player describes: a score card (`box=score`, comma
//! separated), and the dice with the rolls still to come. Each option comes with the
//! expected score from here if it is taken and play is optimal afterwards.

use std::cell::RefCell;
use std::collections::BTreeSet;

use crate::text::ParseError;

use super::dice::{Counts, Dice};
use super::play::{BoxChoice, Player, Turns};
use super::rules::{plain_score, BOXES, UPPER, UPPER_BONUS, UPPER_BONUS_AT, YAHTZEE};
use super::solve::Position;

/// The filled boxes of a card and their scores, in card order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    pub scores: [Option<u32>; 13],
}

/// The scores a box can hold: what some roll scores there (zero included, but for
/// chance, which always scores the dice). A joker scores no more than a plain roll:
/// the full house and straights' joker values are their plain scores.
pub fn possible_scores(dice: &Dice, b: usize) -> BTreeSet<u32> {
    dice.rolls
        .iter()
        .map(|&r| plain_score(b, &dice.keeps[r]))
        .collect()
}

/// A set of scores as short text: a run of consecutive values after the first as
/// `a to b`.
fn describe(scores: &BTreeSet<u32>) -> String {
    let v: Vec<u32> = scores.iter().copied().collect();
    let run = |v: &[u32]| v.len() > 4 && v.windows(2).all(|w| w[1] == w[0] + 1);
    if run(&v) {
        return format!("{} to {}", v[0], v[v.len() - 1]);
    }
    if run(&v[1..]) {
        return format!("{}, or {} to {}", v[0], v[1], v[v.len() - 1]);
    }
    let shown: Vec<String> = v.iter().map(u32::to_string).collect();
    shown.join(", ")
}

impl Card {
    /// Reads `box=score,box=score,...`; an empty spec is an empty card. Columns in
    /// errors count bytes from 1.
    pub fn parse(spec: &str, dice: &Dice) -> Result<Card, ParseError> {
        let mut card = Card::default();
        let mut col = 1;
        for raw in spec.split(',') {
            let start = col;
            col += raw.len() + 1;
            let at = start + leading_blanks(raw);
            let item = raw.trim();
            if item.is_empty() {
                if spec.trim().is_empty() {
                    break;
                }
                return Err(ParseError::at(1, at, "expected `box=score` between commas"));
            }
            let Some((name, score)) = raw.split_once('=') else {
                return Err(ParseError::at(
                    1,
                    at,
                    format!("expected `box=score`, found `{}`", item.escape_debug()),
                ));
            };
            let score_at = start + name.len() + 1 + leading_blanks(score);
            let (name, score) = (name.trim(), score.trim());
            let Some(b) = BOXES.iter().position(|&n| n == name) else {
                return Err(ParseError::at(
                    1,
                    at,
                    format!(
                        "unknown box `{}` (boxes: {})",
                        name.escape_debug(),
                        BOXES.join(", ")
                    ),
                ));
            };
            // Digits only (no sign); a number too large for u32 is no score either.
            let digits = !score.is_empty() && score.bytes().all(|b| b.is_ascii_digit());
            let Some(points) = digits.then(|| score.parse::<u32>().unwrap_or(u32::MAX)) else {
                return Err(ParseError::at(
                    1,
                    score_at,
                    format!(
                        "expected the score of {name} as a whole number, found `{}`",
                        score.escape_debug()
                    ),
                ));
            };
            let possible = possible_scores(dice, b);
            if !possible.contains(&points) {
                return Err(ParseError::at(
                    1,
                    score_at,
                    format!(
                        "{score} is not a possible score of {name} (it can hold {})",
                        describe(&possible)
                    ),
                ));
            }
            if card.scores[b].is_some() {
                return Err(ParseError::at(1, at, format!("{name} is filled twice")));
            }
            card.scores[b] = Some(points);
        }
        Ok(card)
    }

    /// The turn-start position of the card.
    pub fn position(&self) -> Position {
        let filled = (0..13)
            .filter(|&b| self.scores[b].is_some())
            .fold(0u16, |m, b| m | 1 << b);
        Position {
            filled,
            upper: self.upper_total().min(UPPER_BONUS_AT) as u8,
            yahtzee_50: self.scores[YAHTZEE] == Some(50),
        }
    }

    /// The points on the card so far, the upper bonus included (a card does not say
    /// how many 100 bonuses were earned, so they are not).
    pub fn total(&self) -> u32 {
        let all: u32 = self.scores.iter().flatten().sum();
        all + if self.upper_total() >= UPPER_BONUS_AT {
            UPPER_BONUS
        } else {
            0
        }
    }

    /// The sum of the upper boxes filled so far, not capped.
    pub fn upper_total(&self) -> u32 {
        self.scores[..UPPER].iter().flatten().sum()
    }

    pub fn is_full(&self) -> bool {
        self.scores.iter().all(Option::is_some)
    }
}

/// The bytes of blank space that `s` starts with.
fn leading_blanks(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// Reads five dice `a,b,c,d,e`, each 1 to 6.
pub fn parse_dice(spec: &str) -> Result<Counts, ParseError> {
    let mut counts = [0u8; 6];
    let mut col = 1;
    let mut n = 0;
    for item in spec.split(',') {
        let at = col + leading_blanks(item);
        col += item.len() + 1;
        let item = item.trim();
        let die = (item.len() == 1).then(|| item.parse::<u8>().ok()).flatten();
        match die {
            Some(d @ 1..=6) if n < 5 => counts[usize::from(d) - 1] += 1,
            _ if n < 5 => {
                return Err(ParseError::at(
                    1,
                    at,
                    format!(
                        "expected a die from 1 to 6, found `{}`",
                        item.escape_debug()
                    ),
                ))
            }
            _ => return Err(ParseError::at(1, at, "expected five dice, found more")),
        }
        n += 1;
    }
    if n < 5 {
        return Err(ParseError::at(
            1,
            spec.len() + 1,
            format!("expected five dice, found {n}"),
        ));
    }
    Ok(counts)
}

/// What a player may do: keep some dice and roll the others, or score a box.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// The faces kept, smallest first.
    Keep(Vec<u8>),
    Score(BoxChoice),
}

/// One option with the expected score from here if taken, and what it gives up
/// against the best.
#[derive(Clone, Debug, PartialEq)]
pub struct Opt {
    pub choice: Choice,
    pub value: f64,
    pub loss: f64,
}

/// The value of a position and its options, best first (ties in card order, or in the
/// order of keeps).
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// The expected number of points still to be earned under optimal play.
    pub value: f64,
    pub options: Vec<Opt>,
}

/// Why there is no advice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdviceError {
    #[error("the card is full: no box is left to score the dice in")]
    FullCard,
    #[error("a turn has at most two rolls to come, not {0}")]
    RollsLeft(usize),
}

/// Advice for `card`, at the start of a turn or with `dice` rolled and `rolls_left` to
/// come.
pub fn advise(
    player: &Player,
    card: &Card,
    dice: Option<(Counts, usize)>,
) -> Result<Advice, AdviceError> {
    let Some((dice, rolls_left)) = dice else {
        let value = if card.is_full() {
            0.0
        } else {
            player.table.get(card.position()).mean
        };
        return Ok(Advice {
            value,
            options: Vec::new(),
        });
    };
    if card.is_full() {
        return Err(AdviceError::FullCard);
    }
    if rolls_left > 2 {
        return Err(AdviceError::RollsLeft(rolls_left));
    }
    // The room for a turn is the same for every position: one per thread, kept between
    // advices (allocating and freeing it cost more than the advice, where a server
    // answers many).
    thread_local! {
        static ROOM: RefCell<Option<Turns>> = const { RefCell::new(None) };
    }
    let mut turns = ROOM
        .with(|room| room.borrow_mut().take())
        .unwrap_or_else(|| player.turns());
    player.prepare(&mut turns, &[card.position()]);
    let roll = player.keep_of(&dice);
    let mut options: Vec<Opt> = if rolls_left == 0 {
        player
            .box_choices(&turns, 0, roll)
            .into_iter()
            .map(|c| Opt {
                choice: Choice::Score(c),
                value: c.value,
                loss: 0.0,
            })
            .collect()
    } else {
        let d = &player.plan.dice;
        let n = d.roll_number(roll).expect("five dice");
        d.keeps_of_roll[n]
            .iter()
            .rev()
            .map(|&k| Opt {
                choice: Choice::Keep(d.faces(k)),
                value: player.keep_value(&turns, 0, k, rolls_left),
                loss: 0.0,
            })
            .collect()
    };
    ROOM.with(|room| *room.borrow_mut() = Some(turns));
    options.sort_by(|a, b| b.value.total_cmp(&a.value));
    let value = options[0].value;
    for o in &mut options {
        o.loss = value - o.value;
    }
    Ok(Advice { value, options })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_gives_its_position() {
        let dice = Dice::new();
        let c = Card::parse(" sixes = 30 , fives=25,yahtzee=50,chance=17", &dice).unwrap();
        let p = c.position();
        assert_eq!(p.filled, 1 << 5 | 1 << 4 | 1 << YAHTZEE | 1 << 12);
        assert_eq!(p.upper, 55);
        assert!(p.yahtzee_50);
        assert_eq!(c.total(), 30 + 25 + 50 + 17);
        let c = Card::parse("sixes=30,fives=25,fours=12", &dice).unwrap();
        assert_eq!(c.position().upper, 63); // capped
        assert_eq!(c.total(), 67 + 35);
        assert!(
            !Card::parse("yahtzee=0", &dice)
                .unwrap()
                .position()
                .yahtzee_50
        );
        assert_eq!(Card::parse("", &dice).unwrap(), Card::default());
        assert_eq!(Card::parse("  ", &dice).unwrap(), Card::default());
    }

    #[test]
    fn errors_point_at_the_item() {
        let dice = Dice::new();
        let err = |spec: &str| Card::parse(spec, &dice).unwrap_err();
        assert_eq!(err("ones=1,,twos=2").col, 8);
        assert_eq!(err("ones=1, twos= 3").col, 15);
        assert_eq!(err("three-of-a-kind=4").col, 17);
        assert!(err("four-of-a-kind=31").message.contains("0, or 5 to 30"));
        assert!(err("chance=0").message.contains("(it can hold 5 to 30)"));
        assert!(err("ones=+3")
            .message
            .contains("as a whole number, found `+3`"));
        let huge = err("ones=99999999999").message;
        assert!(
            huge.starts_with("99999999999 is not a possible score of ones"),
            "{huge}"
        );
        assert!(Card::parse("four-of-a-kind=5,three-of-a-kind=30", &dice).is_ok());
        assert_eq!(parse_dice("6, 6,6,6,6").unwrap(), [0, 0, 0, 0, 0, 5]);
        assert_eq!(parse_dice("").unwrap_err().col, 1);
        assert_eq!(parse_dice("1,2,3,4,").unwrap_err().col, 9);
    }
}
