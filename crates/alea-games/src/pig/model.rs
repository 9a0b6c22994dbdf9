//! Pig as an engine model, seen from the first player: its decisions maximise, the
//! second player's minimise, a win of the first player is worth 1 and of the second 0.
//! It is the game written a second way, for the engine's solvers of cycles through
//! choices, and a check of the dedicated kernel.

use alea_core::{Expansion, Model, Pick};

use super::rules::Rules;

/// A position packed into a word: kind (2 bits), the player concerned (1 bit), the
/// first player's banked score, the second's and the turn total (20 bits each).
pub type State = u64;

const THROW: u64 = 0;
const DECIDE: u64 = 1;
const WON: u64 = 2;
const FIELD: u64 = (1 << 20) - 1;

fn pack(kind: u64, player: u64, first: u64, second: u64, turn: u64) -> State {
    kind << 62 | player << 61 | first << 40 | second << 20 | turn
}

/// A position's parts: kind, player, first's score, second's score, turn total.
fn unpack(s: State) -> (u64, u64, u64, u64, u64) {
    (
        s >> 62,
        (s >> 61) & 1,
        (s >> 40) & FIELD,
        (s >> 20) & FIELD,
        s & FIELD,
    )
}

/// The game, with each seat either playing best or holding at a fixed total.
#[derive(Clone, Debug)]
pub struct Pig {
    rules: Rules,
    /// `Some(h)`: that seat holds as soon as its turn total reaches h.
    fixed: [Option<u32>; 2],
}

impl Pig {
    /// Both players playing best.
    pub fn new(rules: &Rules) -> Pig {
        Pig {
            rules: rules.clone(),
            fixed: [None, None],
        }
    }

    /// Seat `seat` (0: moves first) holds at `hold_at`; the other plays best.
    pub fn with_fixed(rules: &Rules, seat: usize, hold_at: u32) -> Pig {
        let mut fixed = [None, None];
        fixed[seat & 1] = Some(hold_at);
        Pig {
            rules: rules.clone(),
            fixed,
        }
    }

    /// The position where `player` (0 or 1) is about to throw with turn total `turn`
    /// (0: the start of the turn), the first player having banked `first` and the second
    /// `second`.
    pub fn throw(player: u64, first: u64, second: u64, turn: u64) -> State {
        pack(THROW, player, first, second, turn)
    }

    /// The position where `player` decides to throw again or hold.
    pub fn decide(player: u64, first: u64, second: u64, turn: u64) -> State {
        pack(DECIDE, player, first, second, turn)
    }

    /// The end of the game, won by `player`.
    pub fn won(player: u64) -> State {
        pack(WON, player, 0, 0, 0)
    }
}

impl Model for Pig {
    type State = State;

    fn start(&self) -> State {
        Pig::throw(0, 0, 0, 0)
    }

    fn expand(&self, s: State, out: &mut Expansion<State>) {
        let (kind, player, first, second, turn) = unpack(s);
        let other = 1 - player;
        let banked = if player == 0 { first } else { second };
        let goal = u64::from(self.rules.goal());
        match kind {
            WON => out.terminal(if player == 0 { 1 } else { 0 }),
            THROW => {
                out.chance(0);
                // A 1 (tails): the turn total is lost and the other player starts.
                out.edge(Pig::throw(other, first, second, 0));
                let mut wins = 0;
                for &r in self.rules.gains() {
                    let t = turn + r as u64;
                    if banked + t >= goal {
                        wins += 1;
                    } else {
                        out.edge(Pig::decide(player, first, second, t));
                    }
                }
                out.weighted(Pig::won(player), wins);
            }
            _ => {
                let (f, s2) = if player == 0 {
                    (first + turn, second)
                } else {
                    (first, second + turn)
                };
                let hold = Pig::throw(other, f, s2, 0);
                let again = Pig::throw(player, first, second, turn);
                match self.fixed[player as usize] {
                    Some(h) => {
                        // A fixed player's decision is no choice: one way on.
                        out.chance(0);
                        out.edge(if turn >= u64::from(h) { hold } else { again });
                    }
                    None => {
                        out.choice(if player == 0 { Pick::Max } else { Pick::Min }, 0);
                        out.edge(hold);
                        out.edge(again);
                    }
                }
            }
        }
    }
}
