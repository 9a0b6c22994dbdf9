//! Several objectives of one decision process at once: probabilities of LTL formulas
//! and expected total rewards (within `k` steps, or over all), as a linear program over
//! the expected number of times each choice is taken.
//!
//! The model is read by every formula's automaton together (and by a step counter for
//! rewards within `k` steps): the product. A strategy of the product ends, with some
//! probability, staying for ever in an end component; one whose states let the
//! automata of a set `J` of formulas accept satisfies those formulas (and, if it stays,
//! gathers no more reward: only the choices without reward make such components).
//! The program's variables are `y_c`, the expected number of times choice `c` is
//! taken, and `x_(s,J)`, the probability of staying for ever from state `s` in a
//! component that satisfies `J`. Each state passes on what reaches it:
//!
//! `Σ_c of s y_c + Σ_J x_(s,J) - Σ_c' P(c', s) y_c' = 1 if s is initial, else 0`
//!
//! A formula's probability is the sum of the `x_(s,J)` with it in `J`, a reward's
//! expectation `Σ_c r(c) y_c`. The points the program reaches are what strategies reach
//! (which may need randomisation and memory); the answers are exact. Every objective is
//! a probability to maximise (the front end turns a least one into the greatest of the
//! negation: a set `J` is "at least `J`"), or a total reward that no strategy gathers
//! for ever (else the query is refused).
//!
//! Two solvers take the same product (a [`Frame`]): `program`, that linear program in
//! exact rationals; `weights`, in `f64` and with certified bounds, sums of the
//! objectives under weights, each the engine's single total reward, whose best
//! strategies' points bound the reachable set from inside and whose best values bound it
//! from outside, refined until the bounds meet (Forejt, Kwiatkowska and Parker's method).

mod program;
#[cfg(test)]
mod tests;
mod weights;

use num_traits::Zero;
use rustc_hash::FxHashMap;

use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::{ExactRewards, Form};
use crate::ltl::automaton::{Automaton, Next};
use crate::ltl::product::{self, Reader};
use crate::ltl::{Letter, Ltl};
use crate::numeric::simplex::Relation;
use crate::numeric::value::Exact;
use crate::solve::Context;

/// One objective, to be maximised or bounded.
#[derive(Clone, Debug)]
pub enum Objective {
    /// The probability of a formula.
    Probability(Ltl),
    /// The expected reward over all steps, or over the first `steps`.
    Reward {
        rewards: ExactRewards,
        steps: Option<u64>,
    },
}

pub use program::Program;
pub use weights::{Bounds, Curve, Weighted};

/// The product of a model with the objectives' automata, and what both solvers read off
/// it.
struct Frame {
    /// The product (with exact probabilities where the model has them).
    form: Form,
    /// Each product state's model state ([`product::NONE`] for the decided ones).
    origin: Vec<u32>,
    /// The initial product state.
    start: usize,
    /// Each state's sets `J` of formulas (bit `b` for `formulas[b]`) that a path may
    /// satisfy by staying for ever from it, none within another.
    stays: Vec<Vec<u32>>,
    /// The objective of each formula.
    formulas: Vec<usize>,
    /// Each objective's reward of each product choice (empty for a probability).
    rewards: Vec<Vec<Exact>>,
    product_states: usize,
    automaton_states: usize,
}

/// The exact linear program of `objectives` on decision process `m` (with exact
/// probabilities and one initial state), `letters[s]` holding the atomic propositions of
/// state `s`.
pub fn program(
    m: &Form,
    letters: &[Letter],
    objectives: &[Objective],
    max_states: usize,
    names: &(dyn Fn(usize) -> String + Sync),
) -> Result<Program> {
    m.exact_probs()?;
    Program::new(frame(m, letters, objectives, max_states, names)?)
}

/// The same objectives for the weighted sums in `f64` (the model's probabilities need
/// not be exact), `cx` naming its states.
pub fn weighted(
    m: &Form,
    letters: &[Letter],
    objectives: &[Objective],
    max_states: usize,
    cx: &Context,
) -> Result<Weighted> {
    Weighted::new(frame(m, letters, objectives, max_states, cx.names)?)
}

/// A component's state in a tuple: an automaton's, or these where it has decided.
const ACCEPTED: u32 = u32::MAX;
const REJECTED: u32 = u32::MAX - 1;

enum Part {
    Automaton(Box<Automaton>),
    /// Steps taken, up to the largest bound.
    Counter(u64),
}

/// The automata of the formulas and a step counter, reading together.
struct Tuple {
    parts: Vec<Part>,
    states: Vec<Vec<u32>>,
    index: FxHashMap<Vec<u32>, u32>,
}

impl Tuple {
    fn intern(&mut self, t: Vec<u32>) -> Next {
        let id = match self.index.get(&t) {
            Some(&id) => id,
            None => {
                let id = self.states.len() as u32;
                self.states.push(t.clone());
                self.index.insert(t, id);
                id
            }
        };
        Next::State(id)
    }

    fn decided(n: Next) -> u32 {
        match n {
            Next::Accepted => ACCEPTED,
            Next::Rejected => REJECTED,
            Next::State(q) => q,
        }
    }

    /// Whether part `i` of tuple state `q` accepts in an end component with these
    /// states: `None` where it cannot (before the jump, or rejected); else the monitors
    /// that fired on arriving and all of them.
    fn acceptance(&self, q: u32, i: usize) -> Option<(u64, u64)> {
        let Part::Automaton(a) = &self.parts[i] else {
            return None;
        };
        match self.states[q as usize][i] {
            ACCEPTED => Some((0, 0)),
            REJECTED => None,
            s => a.acceptance(s).map(|(_, fired, all)| (fired, all)),
        }
    }

    /// The steps taken in tuple state `q` (0 without a counter).
    fn steps(&self, q: u32) -> u64 {
        self.parts
            .iter()
            .zip(&self.states[q as usize])
            .find_map(|(p, &v)| matches!(p, Part::Counter(_)).then_some(u64::from(v)))
            .unwrap_or(0)
    }
}

impl Reader for Tuple {
    fn first(&mut self, letter: Letter) -> Next {
        let t = self
            .parts
            .iter_mut()
            .map(|p| match p {
                Part::Automaton(a) => Tuple::decided(a.first(letter)),
                Part::Counter(_) => 0,
            })
            .collect();
        self.intern(t)
    }

    fn step(&mut self, q: u32, letter: Letter) -> Next {
        let now = self.states[q as usize].clone();
        let t = self
            .parts
            .iter_mut()
            .zip(now)
            .map(|(p, v)| match p {
                Part::Automaton(_) if v >= REJECTED => v,
                Part::Automaton(a) => Tuple::decided(a.step(v, letter)),
                Part::Counter(k) => (u64::from(v) + 1).min(*k) as u32,
            })
            .collect();
        self.intern(t)
    }

    fn jumps(&mut self, q: u32) -> Result<Vec<Next>> {
        let now = self.states[q as usize].clone();
        let mut out = Vec::new();
        for i in 0..self.parts.len() {
            let Part::Automaton(a) = &mut self.parts[i] else {
                continue;
            };
            if now[i] >= REJECTED {
                continue;
            }
            for j in a.jumps(now[i])? {
                let mut t = now.clone();
                t[i] = Tuple::decided(j);
                out.push(self.intern(t));
            }
        }
        Ok(out)
    }
}

/// The product of `m` with the automata of `objectives`, its stays and its rewards.
fn frame(
    m: &Form,
    letters: &[Letter],
    objectives: &[Objective],
    max_states: usize,
    names: &(dyn Fn(usize) -> String + Sync),
) -> Result<Frame> {
    if m.initial.len() != 1 {
        return Err(Error::Unsupported(format!(
            "a multi-objective query needs one initial state; the model has {}",
            m.initial.len()
        )));
    }
    let probabilities = objectives
        .iter()
        .filter(|o| matches!(o, Objective::Probability(_)))
        .count();
    if probabilities > 12 {
        return Err(Error::Unsupported(
            "a multi-objective query takes at most 12 probabilities".into(),
        ));
    }
    let mut parts = Vec::new();
    // Each objective's part of the tuple (a formula's automaton), and the reward
    // objectives' step bounds.
    let mut part_of = vec![usize::MAX; objectives.len()];
    let longest = objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Reward { steps, .. } => *steps,
            _ => None,
        })
        .max();
    for (i, o) in objectives.iter().enumerate() {
        if let Objective::Probability(f) = o {
            part_of[i] = parts.len();
            parts.push(Part::Automaton(Box::new(
                Automaton::finite(f).unwrap_or_else(|| Automaton::limit_deterministic(f)),
            )));
        }
    }
    if let Some(k) = longest {
        if k >= u64::from(REJECTED) {
            return Err(Error::Unsupported(format!(
                "a step bound of {k} is too large for a multi-objective query"
            )));
        }
        parts.push(Part::Counter(k));
    }
    let mut tuple = Tuple {
        parts,
        states: Vec::new(),
        index: FxHashMap::default(),
    };
    let p = product::build(m, letters, &mut tuple, true, max_states)?;
    let automaton_states = tuple
        .parts
        .iter()
        .map(|p| match p {
            Part::Automaton(a) => a.len(),
            Part::Counter(_) => 0,
        })
        .sum();
    let n = p.states();
    let choices = p.form.choice_count();
    let g = Graph::new(&p.form);

    // Each reward objective's reward of each product choice.
    let reward_of = |rewards: &ExactRewards, steps: Option<u64>, c: usize| -> Exact {
        let origin = p.choice_origin[c];
        if origin == product::NONE {
            return Exact::zero();
        }
        let s = g.owner[c] as usize;
        if steps.is_some_and(|k| tuple.steps(p.automaton_state[s]) >= k) {
            return Exact::zero();
        }
        let mut r = Exact::zero();
        if !rewards.state.is_empty() {
            r += &rewards.state[p.origin[s] as usize];
        }
        if !rewards.choice.is_empty() {
            r += &rewards.choice[origin as usize];
        }
        r
    };
    let mut rewarded = vec![false; choices];
    let mut reward_values: Vec<Vec<Exact>> = Vec::new();
    for o in objectives {
        if let Objective::Reward { rewards, steps } = o {
            let r: Vec<Exact> = (0..choices)
                .map(|c| reward_of(rewards, *steps, c))
                .collect();
            for (c, v) in r.iter().enumerate() {
                rewarded[c] |= !v.is_zero();
            }
            reward_values.push(r);
        }
    }

    // Where a path may stay for ever, and which formulas it then satisfies: for each
    // set `J` of formulas, the end components without reward where each of `J`
    // accepts.
    let formulas: Vec<usize> = (0..objectives.len())
        .filter(|&i| part_of[i] != usize::MAX)
        .collect();
    // A total reward that a strategy could gather for ever is infinite there, which the
    // program's expectations cannot say: such a query is refused.
    if let Some(ecs) = g.end_components(&vec![true; n], |_| true) {
        let mut of = vec![u32::MAX; n];
        for k in 0..ecs.count() as u32 {
            for &s in ecs.get(k) {
                of[s as usize] = k;
            }
        }
        for s in 0..n {
            if of[s] == u32::MAX {
                continue;
            }
            for c in p.form.choices_of(s) {
                let stays_in = p.form.to[p.form.transitions_of(c)]
                    .iter()
                    .all(|&t| of[t as usize] == of[s]);
                if stays_in && rewarded[c] {
                    return Err(Error::Unsupported(format!(
                        "a strategy can gather a total reward of this query for ever (in {}), \
                         where it is infinite; multi(...) takes total rewards that stay \
                         finite, or rewards within k steps (`[C<=k]`)",
                        names(p.origin[s] as usize)
                    )));
                }
            }
        }
    }
    let mut stays: Vec<Vec<u32>> = vec![Vec::new(); n];
    for set in 0u32..1 << formulas.len() {
        let members: Vec<usize> = (0..formulas.len()).filter(|b| set >> b & 1 == 1).collect();
        let region: Vec<bool> = (0..n)
            .map(|s| {
                // The product's two decided states are never reached here: the tuple
                // reads on.
                p.origin[s] != product::NONE
                    && members.iter().all(|&b| {
                        tuple
                            .acceptance(p.automaton_state[s], part_of[formulas[b]])
                            .is_some()
                    })
            })
            .collect();
        let Some(ecs) = g.end_components(&region, |c| !rewarded[c]) else {
            continue;
        };
        for k in 0..ecs.count() as u32 {
            let states = ecs.get(k);
            let accepts = members.iter().all(|&b| {
                let part = part_of[formulas[b]];
                let mut fired = 0;
                let mut all = 0;
                for &s in states {
                    let (f, a) = tuple
                        .acceptance(p.automaton_state[s as usize], part)
                        .expect("in the region");
                    fired |= f;
                    all = a;
                }
                fired == all
            });
            if accepts {
                for &s in states {
                    stays[s as usize].push(set);
                }
            }
        }
    }
    // A set within another set of the same state adds nothing.
    for sets in stays.iter_mut() {
        let all = sets.clone();
        sets.retain(|&a| !all.iter().any(|&b| b != a && b & a == a));
    }
    let start = p.start[m.initial[0] as usize] as usize;
    let mut rewards = reward_values.into_iter();
    let rewards = objectives
        .iter()
        .map(|o| match o {
            Objective::Reward { .. } => rewards.next().expect("one per reward objective"),
            Objective::Probability(_) => Vec::new(),
        })
        .collect();
    Ok(Frame {
        form: p.form,
        origin: p.origin,
        start,
        stays,
        formulas,
        rewards,
        product_states: n,
        automaton_states,
    })
}

/// A bound on one objective: at least (`Ge`) or at most (`Le`) a value.
#[derive(Clone, Debug)]
pub struct Limit {
    pub objective: usize,
    pub relation: Relation,
    pub value: Exact,
    /// The value itself does not meet it (`>`, `<`).
    pub strict: bool,
}

/// The best value of one objective under limits on others.
#[derive(Clone, Debug, PartialEq)]
pub enum Best {
    /// No strategy meets the limits.
    Infeasible,
    /// The objective grows without bound (a reward).
    Unbounded,
    Value(Exact),
}
