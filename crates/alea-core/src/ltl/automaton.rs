//! The automaton of an LTL formula, built state by state as the product asks for it.
//!
//! For a co-safe formula it is a deterministic finite automaton: each state the formula
//! left to satisfy after the letters read, accepting once that is true.
//!
//! Otherwise it is limit-deterministic (Büchi), built on the master theorem of
//! Esparza, Křetínský and Sickert: a path satisfies `φ` iff for some set `X` of its least
//! fixed points (assumed to hold infinitely often) and some set `Y` of its greatest
//! (assumed to hold from some step on), (1) from some step `i` on, the formula left
//! after `i` letters holds with `[X]_ν` applied; (2) each `ψ` of `X` holds, with
//! `[Y]_μ` applied, infinitely often; (3) each `ψ` of `Y` holds, with `[X]_ν` applied,
//! from some step on. The initial part follows the formula left, deterministically; at
//! any step it may jump, guessing `X` and `Y` from the formula left. After the jump,
//! (1) and (3) are one safety formula, followed until it is violated (the run dies),
//! and each `ψ` of `X` has a monitor that follows every attempt started since it last
//! fired (their disjunction) and fires when one succeeds: the run accepts where every
//! monitor fires infinitely often. Once (1) holds it holds at every later step, so a
//! jump late enough with the right guess accepts: the jumps can wait until the product
//! with a decision process is in an end component, which makes the automaton good for
//! those processes (the greatest probability in the product is the process's). So the
//! product offers the jumps in the model's end components only.

use rustc_hash::FxHashMap;

use super::formula::{Id, Store, FALSE};
use super::progress::{Form, Letter, Progress, NO, YES};
use crate::error::{Error, Result};

/// A state of the automaton, or where a step ends for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Every continuation satisfies the formula.
    Accepted,
    /// None does.
    Rejected,
    State(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum State {
    /// The formula left to satisfy.
    Initial(Form),
    /// After the jump: the guess, the safety formula left, each monitor's attempts, and
    /// the monitors that fired on arriving here (a bit each).
    Guessed {
        guess: u32,
        safety: Form,
        monitors: Box<[Form]>,
        fired: u64,
    },
}

/// A guess: each monitor's formula (each `ψ[Y]_μ` of `ψ` in `X`).
struct Guess {
    targets: Vec<Form>,
}

/// The most atomic propositions over which a formula left is checked to hold on every
/// path (the normal form sees `a | !a` as true, but not `X a | X !a`).
const MAX_VALIDITY_ATOMS: usize = 8;

/// The largest number of guesses tried from one state: the sets of least and of
/// greatest fixed points of the formula left.
const MAX_GUESS_BITS: usize = 16;

pub struct Automaton {
    p: Progress,
    root: Id,
    start: Form,
    /// Only the initial part: the formula is co-safe and read as a finite automaton.
    finite: bool,
    states: Vec<State>,
    index: FxHashMap<State, u32>,
    steps: FxHashMap<(u32, Letter), Next>,
    guesses: Vec<Guess>,
    guess_index: FxHashMap<(Vec<Id>, Vec<Id>), u32>,
    jumps: FxHashMap<u32, Vec<Next>>,
}

impl Automaton {
    /// The limit-deterministic automaton of `f`.
    pub fn limit_deterministic(f: &super::Ltl) -> Automaton {
        Automaton::new(f, false)
    }

    /// The deterministic finite automaton of co-safe `f`: `None` when `f` is not
    /// co-safe (in negation normal form it has `G`, `W` or `R`).
    pub fn finite(f: &super::Ltl) -> Option<Automaton> {
        let a = Automaton::new(f, true);
        let root = a.root;
        a.p.store.is_cosafe(root).then_some(a)
    }

    fn new(f: &super::Ltl, finite: bool) -> Automaton {
        let mut store = Store::new();
        let root = store.add(f, false);
        let mut p = Progress::new(store);
        let start = p.of(root);
        Automaton {
            p,
            root,
            start,
            finite,
            states: Vec::new(),
            index: FxHashMap::default(),
            steps: FxHashMap::default(),
            guesses: Vec::new(),
            guess_index: FxHashMap::default(),
            jumps: FxHashMap::default(),
        }
    }

    /// Whether this is the finite automaton of a co-safe formula (no jumps).
    pub fn is_finite(&self) -> bool {
        self.finite
    }

    /// The states built so far.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    fn intern(&mut self, s: State) -> u32 {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        let i = self.states.len() as u32;
        self.states.push(s.clone());
        self.index.insert(s, i);
        i
    }

    fn initial(&mut self, f: Form) -> Next {
        match f {
            NO => Next::Rejected,
            YES => Next::Accepted,
            f if self.p.valid(f, MAX_VALIDITY_ATOMS) => Next::Accepted,
            f => Next::State(self.intern(State::Initial(f))),
        }
    }

    /// Where the automaton is after reading the first letter of a path.
    pub fn first(&mut self, letter: Letter) -> Next {
        let f = self.p.step(self.start, letter);
        self.initial(f)
    }

    /// Where state `q` goes on `letter`.
    pub fn step(&mut self, q: u32, letter: Letter) -> Next {
        if let Some(&n) = self.steps.get(&(q, letter)) {
            return n;
        }
        let next = match self.states[q as usize].clone() {
            State::Initial(f) => {
                let f = self.p.step(f, letter);
                self.initial(f)
            }
            State::Guessed {
                guess,
                safety,
                monitors,
                ..
            } => {
                let safety = self.p.step(safety, letter);
                if safety == NO {
                    Next::Rejected
                } else if safety == YES && monitors.is_empty() {
                    Next::Accepted
                } else {
                    let mut fired = 0u64;
                    let mut next = monitors.to_vec();
                    for (j, m) in next.iter_mut().enumerate() {
                        // The attempts so far, and one more from this letter.
                        let target = self.guesses[guess as usize].targets[j];
                        let tries = self.p.or(*m, target);
                        *m = self.p.step(tries, letter);
                        if *m == YES {
                            fired |= 1 << j;
                            *m = NO;
                        }
                    }
                    Next::State(self.intern(State::Guessed {
                        guess,
                        safety,
                        monitors: next.into_boxed_slice(),
                        fired,
                    }))
                }
            }
        };
        self.steps.insert((q, letter), next);
        next
    }

    /// Where state `q` may jump to without reading a letter (its guesses): empty after
    /// the jump, and in a finite automaton.
    pub fn jumps(&mut self, q: u32) -> Result<Vec<Next>> {
        if self.finite {
            return Ok(Vec::new());
        }
        if let Some(j) = self.jumps.get(&q) {
            return Ok(j.clone());
        }
        let State::Initial(m) = self.states[q as usize] else {
            return Ok(Vec::new());
        };
        let vars = self.p.variables(m);
        let subs = self.p.store.subformulas(&vars);
        let mus: Vec<Id> = subs
            .iter()
            .copied()
            .filter(|&f| self.p.store.is_mu(f))
            .collect();
        let nus: Vec<Id> = subs
            .iter()
            .copied()
            .filter(|&f| self.p.store.is_nu(f))
            .collect();
        if mus.len() + nus.len() > MAX_GUESS_BITS {
            return Err(Error::Unsupported(format!(
                "the LTL formula has {} temporal subformulas of `F`, `G`, `U`, `W` and `R` \
                 at one step; at most {MAX_GUESS_BITS} are supported",
                mus.len() + nus.len()
            )));
        }
        let mut out = Vec::new();
        for xbits in 0u32..1 << mus.len() {
            let xs: Vec<Id> = pick(&mus, xbits);
            let mut nu_memo = FxHashMap::default();
            'ys: for ybits in 0u32..1 << nus.len() {
                let ys: Vec<Id> = pick(&nus, ybits);
                // (1) and (3): one safety formula.
                let mut safety = self.p.map_vars(m, |p, v| {
                    let g = p.store.sub_nu(v, &xs, &mut nu_memo);
                    p.of(g)
                });
                for &y in &ys {
                    let g = self.p.store.sub_nu(y, &xs, &mut nu_memo);
                    if g == FALSE {
                        continue 'ys;
                    }
                    let always = self.p.store.temporal(super::formula::Node::Globally(g));
                    let always = self.p.of(always);
                    safety = self.p.and(safety, always);
                }
                if safety == NO {
                    continue;
                }
                // (2): a monitor for each least fixed point assumed.
                let mut mu_memo = FxHashMap::default();
                let mut targets = Vec::with_capacity(xs.len());
                for &x in &xs {
                    let g = self.p.store.sub_mu(x, &ys, &mut mu_memo);
                    if g == FALSE {
                        continue 'ys;
                    }
                    targets.push(self.p.of(g));
                }
                if safety == YES && targets.is_empty() {
                    out.push(Next::Accepted);
                    continue;
                }
                let key = (xs.clone(), ys);
                let guess = match self.guess_index.get(&key) {
                    Some(&g) => g,
                    None => {
                        let g = self.guesses.len() as u32;
                        self.guesses.push(Guess { targets });
                        self.guess_index.insert(key, g);
                        g
                    }
                };
                let monitors = vec![NO; xs.len()].into_boxed_slice();
                let s = self.intern(State::Guessed {
                    guess,
                    safety,
                    monitors,
                    fired: 0,
                });
                out.push(Next::State(s));
            }
        }
        out.sort_unstable_by_key(|n| match n {
            Next::Accepted => 0,
            Next::Rejected => 1,
            Next::State(s) => 2 + u64::from(*s),
        });
        out.dedup();
        self.jumps.insert(q, out.clone());
        Ok(out)
    }

    /// After the jump: the guess of state `q` and the monitors that fired on arriving
    /// there, with the bits of all its monitors. `None` before the jump.
    pub fn acceptance(&self, q: u32) -> Option<(u32, u64, u64)> {
        match &self.states[q as usize] {
            State::Initial(_) => None,
            State::Guessed {
                guess,
                fired,
                monitors,
                ..
            } => {
                let all = if monitors.len() == 64 {
                    u64::MAX
                } else {
                    (1u64 << monitors.len()) - 1
                };
                Some((*guess, *fired, all))
            }
        }
    }
}

/// The members of `from` picked by the bits of `bits`, in order.
fn pick(from: &[Id], bits: u32) -> Vec<Id> {
    from.iter()
        .enumerate()
        .filter(|(i, _)| bits >> i & 1 == 1)
        .map(|(_, &f)| f)
        .collect()
}
