//! The rules of Snakes and Ladders for one player: the board with its snakes and
//! ladders, the spinner, what happens to a spin that would pass the last square, and
//! where one spin takes the player.
//!
//! The player starts off the board, on square 0, and must reach the last square. A spin
//! moves the counter forward by the number shown; landing at the foot of a ladder climbs
//! it, landing on the head of a snake slides down it. Chains (a snake or ladder ending
//! where another starts) are refused: a board says where each one leads, in one step.

use std::fmt;

/// The fewest and most squares a board may have.
pub const MIN_SQUARES: u32 = 2;
pub const MAX_SQUARES: u32 = 10_000;
/// The fewest and most faces a spinner may have.
pub const MIN_SPINNER: u32 = 2;
pub const MAX_SPINNER: u32 = 100;

/// A snake or a ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Ladder,
    Snake,
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Piece::Ladder => "ladder",
            Piece::Snake => "snake",
        })
    }
}

/// One snake or ladder: landing on `from` moves the counter to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Link {
    pub piece: Piece,
    pub from: u32,
    pub to: u32,
}

impl fmt::Display for Link {
    /// As the board file writes it: `ladder 1 38`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.piece, self.from, self.to)
    }
}

/// Which end of a link is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    From,
    To,
}

/// Why a board is not well formed. `link` and `other` are indices into the links as
/// given, so that a parser can point at the words at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The number of squares is out of range.
    Squares(u64),
    /// An end of a link is not a square of the board (squares are 1 to N).
    OffBoard {
        link: usize,
        end: End,
        square: u64,
        squares: u32,
    },
    /// A ladder that does not go up, or a snake that does not go down.
    Direction { link: usize, shown: Link },
    /// A snake on the last square, where the game is already over.
    OnLastSquare { link: usize, shown: Link },
    /// Two links start on the same square.
    TwoStarts {
        link: usize,
        other: usize,
        shown: Link,
        first: Link,
    },
    /// A link ends where another starts.
    Chain {
        link: usize,
        other: usize,
        shown: Link,
        next: Link,
    },
}

impl BoardError {
    /// The link at fault and which of its parts to point at (`None`: its first word),
    /// or `None` for the number of squares.
    pub fn blame(&self) -> Option<(usize, Option<End>)> {
        match *self {
            BoardError::Squares(_) => None,
            BoardError::OffBoard { link, end, .. } => Some((link, Some(end))),
            BoardError::Direction { link, .. } => Some((link, None)),
            BoardError::OnLastSquare { link, .. } | BoardError::TwoStarts { link, .. } => {
                Some((link, Some(End::From)))
            }
            BoardError::Chain { link, .. } => Some((link, Some(End::To))),
        }
    }

    /// The other link the error is about, if any: its index and the link.
    pub fn other(&self) -> Option<(usize, Link)> {
        match *self {
            BoardError::TwoStarts {
                other, first: l, ..
            }
            | BoardError::Chain { other, next: l, .. } => Some((other, l)),
            _ => None,
        }
    }
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Squares(n) => write!(
                f,
                "a board of {n} square{}; a board has {MIN_SQUARES} to {MAX_SQUARES} squares",
                if *n == 1 { "" } else { "s" }
            ),
            BoardError::OffBoard {
                end,
                square,
                squares,
                ..
            } => write!(
                f,
                "square {square} is not on the board; expected {}, a square from 1 to {squares}",
                match end {
                    End::From => "FROM",
                    End::To => "TO",
                }
            ),
            BoardError::Direction { shown, .. } => {
                let (way, rule) = match shown.piece {
                    Piece::Ladder => ("down", "a ladder goes up, FROM below TO"),
                    Piece::Snake => ("up", "a snake goes down, FROM above TO"),
                };
                let way = if shown.from == shown.to {
                    "nowhere"
                } else {
                    way
                };
                write!(f, "`{shown}` goes {way}; {rule}")
            }
            BoardError::OnLastSquare { shown, .. } => write!(
                f,
                "`{shown}` starts on the last square, where the game is over; a snake \
                 starts below the last square"
            ),
            BoardError::TwoStarts { shown, first, .. } => write!(
                f,
                "`{shown}` starts on square {}, where `{first}` starts already; a square \
                 starts at most one snake or ladder",
                shown.from
            ),
            BoardError::Chain { shown, next, .. } => write!(
                f,
                "`{shown}` ends on square {}, where `{next}` starts; chains are not \
                 allowed: let it end where the chain ends",
                shown.to
            ),
        }
    }
}

/// A board: its number of squares and its snakes and ladders, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    squares: u32,
    links: Vec<Link>,
    /// Where landing on each square (0 to N) leaves the counter.
    lands: Vec<u32>,
}

/// The classic 100-square board (Milton Bradley, as analysed by Althoen, King and
/// Schilling, 1993).
const CLASSIC_LADDERS: [(u32, u32); 9] = [
    (1, 38),
    (4, 14),
    (9, 31),
    (21, 42),
    (28, 84),
    (36, 44),
    (51, 67),
    (71, 91),
    (80, 100),
];
const CLASSIC_SNAKES: [(u32, u32); 10] = [
    (16, 6),
    (47, 26),
    (49, 11),
    (56, 53),
    (62, 19),
    (64, 60),
    (87, 24),
    (93, 73),
    (95, 75),
    (98, 78),
];

impl Board {
    /// Checks a board: 2 to 10,000 squares; every link between squares 1 and N; ladders
    /// going up and snakes down; no snake on the last square; at most one link starting
    /// on a square; no link ending where another starts. Errors name the first link at
    /// fault, in the order given.
    pub fn new(squares: u64, links: Vec<Link>) -> Result<Board, BoardError> {
        if !(u64::from(MIN_SQUARES)..=u64::from(MAX_SQUARES)).contains(&squares) {
            return Err(BoardError::Squares(squares));
        }
        let n = squares as u32;
        // Which link starts on each square.
        let mut starts: Vec<Option<usize>> = vec![None; n as usize + 1];
        for (i, l) in links.iter().enumerate() {
            for (end, square) in [(End::From, l.from), (End::To, l.to)] {
                if square == 0 || square > n {
                    return Err(BoardError::OffBoard {
                        link: i,
                        end,
                        square: u64::from(square),
                        squares: n,
                    });
                }
            }
            let goes_right = match l.piece {
                Piece::Ladder => l.from < l.to,
                Piece::Snake => l.from > l.to,
            };
            if !goes_right {
                return Err(BoardError::Direction { link: i, shown: *l });
            }
            if l.from == n {
                return Err(BoardError::OnLastSquare { link: i, shown: *l });
            }
            if let Some(other) = starts[l.from as usize] {
                return Err(BoardError::TwoStarts {
                    link: i,
                    other,
                    shown: *l,
                    first: links[other],
                });
            }
            starts[l.from as usize] = Some(i);
        }
        for (i, l) in links.iter().enumerate() {
            if let Some(other) = starts[l.to as usize] {
                return Err(BoardError::Chain {
                    link: i,
                    other,
                    shown: *l,
                    next: links[other],
                });
            }
        }
        let mut lands: Vec<u32> = (0..=n).collect();
        for l in &links {
            lands[l.from as usize] = l.to;
        }
        Ok(Board {
            squares: n,
            links,
            lands,
        })
    }

    /// The classic 100-square board: 9 ladders and 10 snakes.
    pub fn classic() -> Board {
        let ladders = CLASSIC_LADDERS.iter().map(|&(from, to)| Link {
            piece: Piece::Ladder,
            from,
            to,
        });
        let snakes = CLASSIC_SNAKES.iter().map(|&(from, to)| Link {
            piece: Piece::Snake,
            from,
            to,
        });
        Board::new(100, ladders.chain(snakes).collect()).expect("the classic board is valid")
    }

    /// The number of squares N; the last square is N.
    pub fn squares(&self) -> u32 {
        self.squares
    }

    /// The snakes and ladders, in the order given.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// Where the counter ends up after landing on `square` (0 to N): the other end of a
    /// snake or ladder that starts there, or the square itself.
    pub fn after_landing(&self, square: u32) -> u32 {
        self.lands[square as usize]
    }

    /// Where a spin of `face` takes the counter from `square` (0 to N - 1).
    pub fn spin(&self, rules: &Rules, square: u32, face: u32) -> u32 {
        let n = self.squares;
        let target = square + face;
        let landed = if target <= n {
            target
        } else {
            match rules.overshoot {
                Overshoot::Stay => return square,
                Overshoot::Finish => return n,
                // Saturating: only a spinner larger than the board (refused by
                // `check`) could bounce back past the start.
                Overshoot::Bounce => (2 * n).saturating_sub(target),
            }
        };
        self.lands[landed as usize]
    }
}

/// What happens to a spin that would take the counter past the last square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Overshoot {
    /// The counter does not move (the classic rule).
    #[default]
    Stay,
    /// The counter goes to the last square and back by the excess.
    Bounce,
    /// Reaching or passing the last square wins.
    Finish,
}

impl Overshoot {
    /// Every rule, in the order they are listed.
    pub const ALL: [Overshoot; 3] = [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish];

    pub fn name(self) -> &'static str {
        match self {
            Overshoot::Stay => "stay",
            Overshoot::Bounce => "bounce",
            Overshoot::Finish => "finish",
        }
    }

    /// The rule [`name`](Overshoot::name) gives `name`, if any.
    pub fn from_name(name: &str) -> Option<Overshoot> {
        Overshoot::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// The spinner and the overshoot rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The spinner shows 1 to `spinner`, each equally likely.
    pub spinner: u32,
    pub overshoot: Overshoot,
}

impl Default for Rules {
    /// A spinner of 1 to 6; a spin past the last square does not move.
    fn default() -> Self {
        Rules {
            spinner: 6,
            overshoot: Overshoot::Stay,
        }
    }
}

/// Why a board cannot be played with some rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The spinner has too few or too many faces.
    Spinner(u32),
    /// A bounce could go back past the start.
    SpinnerBeyondBoard { spinner: u32, squares: u32 },
    /// From `from`, which the start leads to, the last square can never be reached: the
    /// game may go on forever and the expected number of spins is infinite.
    NeverFinishes { from: u32, squares: u32 },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameError::Spinner(k) => write!(
                f,
                "a spinner of {k} faces; a spinner has {MIN_SPINNER} to {MAX_SPINNER} faces"
            ),
            GameError::SpinnerBeyondBoard { spinner, squares } => write!(
                f,
                "a spinner of {spinner} faces could bounce back past the start of a board \
                 of {squares} squares; with --overshoot bounce the spinner has at most as \
                 many faces as the board has squares"
            ),
            GameError::NeverFinishes { from: 0, squares } => write!(
                f,
                "no sequence of spins leads from the start to the last square {squares}, so \
                 the expected number of spins is infinite; a board must let every square \
                 the counter can reach go on to the last square"
            ),
            GameError::NeverFinishes { from, squares } => write!(
                f,
                "the counter can reach square {from}, from which no sequence of spins leads \
                 to the last square {squares}, so the game may never end and the expected \
                 number of spins is infinite; a board must let every square the counter \
                 can reach go on to the last square"
            ),
        }
    }
}

/// Checks that the board can be played with the rules and that every game ends with
/// probability one: every square the counter can reach can still reach the last
/// square. (In a finite chain that is exactly when the expected number of spins is
/// finite.) Costs `N * spinner` steps.
pub fn check(board: &Board, rules: &Rules) -> Result<(), GameError> {
    if !(MIN_SPINNER..=MAX_SPINNER).contains(&rules.spinner) {
        return Err(GameError::Spinner(rules.spinner));
    }
    let n = board.squares;
    if rules.overshoot == Overshoot::Bounce && rules.spinner > n {
        return Err(GameError::SpinnerBeyondBoard {
            spinner: rules.spinner,
            squares: n,
        });
    }
    // The squares the start leads to, in order of distance, and every move backwards.
    let size = n as usize + 1;
    let mut reached = vec![false; size];
    let mut order: Vec<u32> = vec![0];
    reached[0] = true;
    let mut into: Vec<Vec<u32>> = vec![Vec::new(); size];
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        i += 1;
        if s == n {
            continue;
        }
        for face in 1..=rules.spinner {
            let t = board.spin(rules, s, face);
            into[t as usize].push(s);
            if !reached[t as usize] {
                reached[t as usize] = true;
                order.push(t);
            }
        }
    }
    // The squares that can still reach the last one, walking the moves backwards.
    let mut finishes = vec![false; size];
    finishes[n as usize] = true;
    let mut queue = vec![n];
    while let Some(t) = queue.pop() {
        for &s in &into[t as usize] {
            if !finishes[s as usize] {
                finishes[s as usize] = true;
                queue.push(s);
            }
        }
    }
    match order.iter().find(|&&s| !finishes[s as usize]) {
        Some(&from) => Err(GameError::NeverFinishes { from, squares: n }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(piece: Piece, from: u32, to: u32) -> Link {
        Link { piece, from, to }
    }

    #[test]
    fn the_classic_board() {
        let b = Board::classic();
        assert_eq!(b.squares(), 100);
        assert_eq!(b.links().len(), 19);
        assert_eq!(b.after_landing(1), 38);
        assert_eq!(b.after_landing(98), 78);
        assert_eq!(b.after_landing(2), 2);
        let rules = Rules::default();
        assert_eq!(b.spin(&rules, 0, 1), 38);
        assert_eq!(b.spin(&rules, 97, 4), 97);
        assert_eq!(b.spin(&rules, 74, 6), 100);
        assert_eq!(check(&b, &rules), Ok(()));
    }

    #[test]
    fn overshoot_rules() {
        let b = Board::new(10, vec![link(Piece::Snake, 8, 2)]).unwrap();
        let stay = Rules::default();
        let bounce = Rules {
            overshoot: Overshoot::Bounce,
            ..stay
        };
        let finish = Rules {
            overshoot: Overshoot::Finish,
            ..stay
        };
        assert_eq!(b.spin(&stay, 7, 5), 7);
        assert_eq!(b.spin(&bounce, 7, 5), 2, "to 10, back to 8, down the snake");
        assert_eq!(b.spin(&bounce, 9, 6), 5);
        assert_eq!(b.spin(&finish, 7, 5), 10);
        assert_eq!(b.spin(&finish, 7, 3), 10);
        assert_eq!(b.spin(&stay, 7, 3), 10);
        for o in Overshoot::ALL {
            assert_eq!(Overshoot::from_name(o.name()), Some(o));
        }
        assert_eq!(Overshoot::from_name("wrap"), None);
    }

    #[test]
    fn bad_boards_are_refused() {
        use Piece::*;
        assert_eq!(Board::new(1, vec![]), Err(BoardError::Squares(1)));
        assert_eq!(Board::new(10_001, vec![]), Err(BoardError::Squares(10_001)));
        assert!(matches!(
            Board::new(10, vec![link(Ladder, 0, 3)]),
            Err(BoardError::OffBoard { end: End::From, .. })
        ));
        assert!(matches!(
            Board::new(10, vec![link(Ladder, 2, 11)]),
            Err(BoardError::OffBoard { end: End::To, .. })
        ));
        assert!(matches!(
            Board::new(10, vec![link(Ladder, 5, 3)]),
            Err(BoardError::Direction { link: 0, .. })
        ));
        assert!(matches!(
            Board::new(10, vec![link(Snake, 3, 3)]),
            Err(BoardError::Direction { link: 0, .. })
        ));
        assert!(matches!(
            Board::new(10, vec![link(Snake, 10, 3)]),
            Err(BoardError::OnLastSquare { link: 0, .. })
        ));
        assert!(matches!(
            Board::new(10, vec![link(Snake, 6, 3), link(Ladder, 6, 8)]),
            Err(BoardError::TwoStarts {
                link: 1,
                other: 0,
                ..
            })
        ));
        assert!(matches!(
            Board::new(10, vec![link(Ladder, 2, 6), link(Snake, 6, 1)]),
            Err(BoardError::Chain {
                link: 0,
                other: 1,
                ..
            })
        ));
    }

    #[test]
    fn games_that_never_end_are_found() {
        let rules = Rules::default();
        // Snakes on the six squares before the last: it can never be reached.
        let trap: Vec<Link> = (4..10).map(|s| link(Piece::Snake, s, 1)).collect();
        let b = Board::new(10, trap).unwrap();
        assert_eq!(
            check(&b, &rules),
            Err(GameError::NeverFinishes {
                from: 0,
                squares: 10
            })
        );
        // The ladders from the first six squares lead to 18 and 19; from there only a
        // bounce reaches 17, whose snake leads into a dead end at 7 (every square 7
        // leads to is a snake back to it). Staying put or finishing on an overshoot
        // never reaches it.
        let mut links: Vec<Link> = (1..=6)
            .map(|s| link(Piece::Ladder, s, 18 + s % 2))
            .collect();
        links.extend((8..=13).map(|s| link(Piece::Snake, s, 7)));
        links.push(link(Piece::Snake, 17, 7));
        let b = Board::new(20, links).unwrap();
        let bounce = Rules {
            overshoot: Overshoot::Bounce,
            ..rules
        };
        let finish = Rules {
            overshoot: Overshoot::Finish,
            ..rules
        };
        assert_eq!(check(&b, &rules), Ok(()));
        assert_eq!(check(&b, &finish), Ok(()));
        assert_eq!(
            check(&b, &bounce),
            Err(GameError::NeverFinishes {
                from: 7,
                squares: 20
            })
        );
        let big = Rules {
            spinner: 21,
            overshoot: Overshoot::Bounce,
        };
        assert_eq!(
            check(&b, &big),
            Err(GameError::SpinnerBeyondBoard {
                spinner: 21,
                squares: 20
            })
        );
        assert_eq!(
            check(
                &b,
                &Rules {
                    spinner: 1,
                    ..rules
                }
            ),
            Err(GameError::Spinner(1))
        );
    }
}
