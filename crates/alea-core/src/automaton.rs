//! "DP of DP": an inner dynamic program that reads its input one symbol at a time (a
//! recogniser of winning hands reading tile counts rank by rank, say) has finitely many
//! reachable states; as a deterministic automaton, an outer dynamic program can count
//! or weigh inputs by the state they lead to. Minimising the automaton merges states
//! that no input can tell apart, which shrinks every outer table in proportion.

use std::collections::VecDeque;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::guard::Limits;

/// An inner dynamic program seen as a recogniser: a start state, a step per symbol, and
/// which states accept.
pub trait Recogniser {
    type State: Clone + Eq + Hash;
    /// Symbols are `0..alphabet()`.
    fn alphabet(&self) -> usize;
    fn start(&self) -> Self::State;
    fn step(&self, state: &Self::State, symbol: usize) -> Self::State;
    fn accepts(&self, state: &Self::State) -> bool;
}

/// A complete deterministic automaton over the symbols `0..alphabet`, every state
/// reachable from the start, which is state 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    pub alphabet: usize,
    /// The successor of state `s` on symbol `a` is `next[s * alphabet + a]`.
    pub next: Vec<u32>,
    pub accepting: Vec<bool>,
}

impl Automaton {
    /// Every state the recogniser reaches from its start, in breadth-first order. Stops
    /// with [`Error::TooManyStates`] past `limits.max_states`.
    pub fn explore<R: Recogniser>(r: &R, limits: &Limits) -> Result<Automaton> {
        let alphabet = r.alphabet();
        let mut index: FxHashMap<R::State, u32> = FxHashMap::default();
        let mut states = vec![r.start()];
        index.insert(r.start(), 0);
        let mut next = Vec::new();
        let mut s = 0;
        while s < states.len() {
            for a in 0..alphabet {
                let t = r.step(&states[s], a);
                let id = match index.get(&t) {
                    Some(&id) => id,
                    None => {
                        if states.len() >= limits.max_states {
                            return Err(Error::TooManyStates {
                                limit: limits.max_states,
                            });
                        }
                        let id = states.len() as u32;
                        index.insert(t.clone(), id);
                        states.push(t);
                        id
                    }
                };
                next.push(id);
            }
            s += 1;
        }
        let accepting = states.iter().map(|s| r.accepts(s)).collect();
        Ok(Automaton {
            alphabet,
            next,
            accepting,
        })
    }

    pub fn states(&self) -> usize {
        self.accepting.len()
    }

    /// The successor of `state` on `symbol`.
    pub fn step(&self, state: u32, symbol: usize) -> u32 {
        self.next[state as usize * self.alphabet + symbol]
    }

    /// Whether the automaton accepts `word`.
    pub fn accepts(&self, word: &[usize]) -> bool {
        let end = word.iter().fold(0, |s, &a| self.step(s, a));
        self.accepting[end as usize]
    }

    /// The minimal automaton for the same language (Moore's partition refinement: split
    /// classes by the classes of their successors until nothing splits), its states
    /// numbered breadth-first from the start.
    pub fn minimise(&self) -> Automaton {
        let n = self.states();
        let mut class: Vec<u32> = self.accepting.iter().map(|&a| u32::from(a)).collect();
        let mut classes = 0;
        loop {
            let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            let mut refined = Vec::with_capacity(n);
            for s in 0..n {
                let mut signature = Vec::with_capacity(self.alphabet + 1);
                signature.push(class[s]);
                signature.extend(
                    self.next[s * self.alphabet..(s + 1) * self.alphabet]
                        .iter()
                        .map(|&t| class[t as usize]),
                );
                let fresh = ids.len() as u32;
                refined.push(*ids.entry(signature).or_insert(fresh));
            }
            class = refined;
            // A refinement never merges, so an unchanged count means a stable partition.
            if ids.len() == classes {
                break;
            }
            classes = ids.len();
        }
        // The quotient, renumbered breadth-first from the start's class.
        let mut number = vec![u32::MAX; classes];
        let mut representative = Vec::with_capacity(classes);
        let mut queue = VecDeque::from([0usize]);
        number[class[0] as usize] = 0;
        representative.push(0);
        let mut next = Vec::with_capacity(classes * self.alphabet);
        while let Some(s) = queue.pop_front() {
            for a in 0..self.alphabet {
                let t = self.next[s * self.alphabet + a] as usize;
                let c = class[t] as usize;
                if number[c] == u32::MAX {
                    number[c] = representative.len() as u32;
                    representative.push(t);
                    queue.push_back(t);
                }
                next.push(number[c]);
            }
        }
        let accepting = representative.iter().map(|&s| self.accepting[s]).collect();
        Automaton {
            alphabet: self.alphabet,
            next,
            accepting,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Binary numbers read most significant bit first, accepted when divisible by
    /// `modulus`; the state is the remainder times `scale` plus junk that does not
    /// matter, so many states are equivalent.
    struct Divisible {
        modulus: u64,
        scale: u64,
    }

    impl Recogniser for Divisible {
        type State = (u64, u64);
        fn alphabet(&self) -> usize {
            2
        }
        fn start(&self) -> (u64, u64) {
            (0, 0)
        }
        fn step(&self, &(r, junk): &(u64, u64), bit: usize) -> (u64, u64) {
            ((2 * r + bit as u64) % self.modulus, (junk + 1) % self.scale)
        }
        fn accepts(&self, &(r, _): &(u64, u64)) -> bool {
            r == 0
        }
    }

    #[test]
    fn minimising_merges_what_no_input_tells_apart() {
        let r = Divisible {
            modulus: 6,
            scale: 5,
        };
        let a = Automaton::explore(&r, &Limits::default()).unwrap();
        assert_eq!(a.states(), 30);
        let m = a.minimise();
        // Divisibility by 6 needs 4 states: the remainders {0}, {3}, {1, 4}, {2, 5}
        // (after one more bit, 1 and 4 both leave 2 mod 6, and 2 and 5 both leave 4).
        assert_eq!(m.states(), 4);
        for x in 0u64..200 {
            let bits: Vec<usize> = (0..8).rev().map(|i| ((x >> i) & 1) as usize).collect();
            assert_eq!(m.accepts(&bits), x % 6 == 0, "{x}");
            assert_eq!(a.accepts(&bits), x % 6 == 0, "{x}");
        }
        // Minimal already: a second pass changes nothing.
        assert_eq!(m.minimise(), m);
    }

    #[test]
    fn exploring_stops_at_the_state_limit() {
        let r = Divisible {
            modulus: 6,
            scale: 5,
        };
        let limits = Limits { max_states: 10 };
        assert_eq!(
            Automaton::explore(&r, &limits),
            Err(Error::TooManyStates { limit: 10 })
        );
    }
}
