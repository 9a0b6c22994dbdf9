//! The product of a model with an automaton over the letters of its states: a state
//! for each pair of a model state and an automaton state met, and two more where the
//! automaton has decided (accepted, rejected), each of which loops for ever.
//!
//! The automaton reads each state's letter on arriving there, so a path's first state
//! is read too: a model state `s` starts the product at `(s, first(letter(s)))`. Each
//! product state has the choices of its model state, each moving as the model's does
//! and the automaton on the letter of the state it moves to; before the automaton's
//! jump, it has one more choice for each state the automaton may jump to, with no step
//! of the model (the first player makes it, towards the goal).

use rustc_hash::FxHashMap;

use super::automaton::{Automaton, Next};
use super::progress::Letter;
use crate::error::{Error, Result};
use crate::form::{ExactProbs, Form};
use crate::numeric::value::Exact;

/// No model state or choice: the decided states, and the jumps.
pub const NONE: u32 = u32::MAX;

/// The decided states' numbers.
pub const ACCEPTED: u32 = 0;
pub const REJECTED: u32 = 1;

pub struct Product {
    pub form: Form,
    /// Where each model state starts the product.
    pub start: Vec<u32>,
    /// Each product state's model state ([`NONE`] for the decided ones).
    pub origin: Vec<u32>,
    /// Each product state's automaton state ([`NONE`] for the decided ones).
    pub automaton_state: Vec<u32>,
    /// Each product choice's model choice ([`NONE`] for a jump, and for the loops of
    /// the decided states).
    pub choice_origin: Vec<u32>,
}

impl Product {
    pub fn states(&self) -> usize {
        self.origin.len()
    }
}

/// What a product reads the model's letters with: an automaton, or several together.
pub trait Reader {
    /// Where the reader is after the first letter of a path.
    fn first(&mut self, letter: Letter) -> Next;
    /// Where state `q` goes on `letter`.
    fn step(&mut self, q: u32, letter: Letter) -> Next;
    /// Where state `q` may jump without reading a letter.
    fn jumps(&mut self, q: u32) -> Result<Vec<Next>>;
}

impl Reader for Automaton {
    fn first(&mut self, letter: Letter) -> Next {
        Automaton::first(self, letter)
    }
    fn step(&mut self, q: u32, letter: Letter) -> Next {
        Automaton::step(self, q, letter)
    }
    fn jumps(&mut self, q: u32) -> Result<Vec<Next>> {
        Automaton::jumps(self, q)
    }
}

/// The product of `m` with `a`, `letters` giving each model state's letter: from every
/// model state (so that each has a value), or with `initial_only` from the initial
/// states (then `start` holds a product state for those alone, [`NONE`] for the others).
/// Stops past `max_states` product states.
pub fn build(
    m: &Form,
    letters: &[Letter],
    a: &mut impl Reader,
    initial_only: bool,
    max_states: usize,
) -> Result<Product> {
    let n = m.states();
    let exact = m.exact_probs().ok();
    let staying = in_end_components(m);
    // The exact probabilities of the product: the model's, and 1 (a jump), and the
    // sums of transitions that the automaton decides alike.
    let mut values: Vec<Exact> = exact.map_or(Vec::new(), |e| e.values.clone());
    let mut value_index: FxHashMap<Exact, u32> = FxHashMap::default();
    let mut intern_value = |values: &mut Vec<Exact>, v: Exact| -> u32 {
        *value_index.entry(v.clone()).or_insert_with(|| {
            values.push(v);
            values.len() as u32 - 1
        })
    };
    let one = exact.map(|_| intern_value(&mut values, Exact::from_integer(1.into())));

    let mut p = Product {
        form: Form {
            choices: vec![0],
            row: vec![0],
            ..Form::default()
        },
        start: Vec::with_capacity(n),
        origin: vec![NONE, NONE],
        automaton_state: vec![NONE, NONE],
        choice_origin: Vec::new(),
    };
    let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut intern = |p: &mut Product, s: u32, next: Next| -> Result<u32> {
        Ok(match next {
            Next::Accepted => ACCEPTED,
            Next::Rejected => REJECTED,
            Next::State(q) => match index.get(&(s, q)) {
                Some(&i) => i,
                None => {
                    if p.origin.len() >= max_states {
                        return Err(Error::TooManyStates { limit: max_states });
                    }
                    let i = p.origin.len() as u32;
                    p.origin.push(s);
                    p.automaton_state.push(q);
                    index.insert((s, q), i);
                    i
                }
            },
        })
    };
    p.start = vec![NONE; n];
    let starts: Vec<u32> = if initial_only {
        m.initial.clone()
    } else {
        (0..n as u32).collect()
    };
    for s in starts {
        let first = a.first(letters[s as usize]);
        p.start[s as usize] = intern(&mut p, s, first)?;
    }
    let mut at = 0usize;
    // The transitions of the choice being built, merged by product state.
    let mut pending: Vec<(u32, f64, Option<Exact>)> = Vec::new();
    while at < p.origin.len() {
        let (s, q) = (p.origin[at], p.automaton_state[at]);
        if s == NONE {
            // A decided state loops for ever.
            push_choice(&mut p, &[(at as u32, 1.0)], one.map(|o| vec![o]), NONE);
            p.form.choices.push(p.form.row.len() - 1);
            at += 1;
            continue;
        }
        for c in m.choices_of(s as usize) {
            pending.clear();
            for t in m.transitions_of(c) {
                let to = m.to[t];
                let next = a.step(q, letters[to as usize]);
                let j = intern(&mut p, to, next)?;
                let e = exact.map(|e| e.values[e.id[t] as usize].clone());
                match pending.iter_mut().find(|x| x.0 == j) {
                    Some(x) => {
                        x.1 += m.prob[t];
                        x.2 = match (x.2.take(), e) {
                            (Some(a), Some(b)) => Some(a + b),
                            _ => None,
                        };
                    }
                    None => pending.push((j, m.prob[t], e)),
                }
            }
            let trans: Vec<(u32, f64)> = pending.iter().map(|x| (x.0, x.1)).collect();
            let ids_here = exact.map(|_| {
                pending
                    .iter()
                    .map(|x| intern_value(&mut values, x.2.clone().expect("exact with the model")))
                    .collect()
            });
            push_choice(&mut p, &trans, ids_here, c as u32);
        }
        // A jump is needed only where a path may stay for ever: a late enough jump
        // does what an earlier one does, and every path ends in an end component.
        if staying[s as usize] {
            for next in a.jumps(q)? {
                let j = intern(&mut p, s, next)?;
                push_choice(&mut p, &[(j, 1.0)], one.map(|o| vec![o]), NONE);
            }
        }
        p.form.choices.push(p.form.row.len() - 1);
        at += 1;
    }
    // `push_choice` gathered the exact ids.
    if exact.is_some() {
        let id = p.form.exact.take().map_or(Vec::new(), |e| e.id);
        p.form.exact = Some(ExactProbs { values, id });
    }
    p.form.initial = m.initial.iter().map(|&s| p.start[s as usize]).collect();
    Ok(p)
}

/// The states of `m` in its end components: where a path may stay for ever.
pub fn in_end_components(m: &Form) -> Vec<bool> {
    let n = m.states();
    let mut out = vec![false; n];
    let g = crate::analysis::graph::Graph::new(m);
    if let Some(ecs) = g.end_components(&vec![true; n], |_| true) {
        for k in 0..ecs.count() as u32 {
            for &s in ecs.get(k) {
                out[s as usize] = true;
            }
        }
    }
    out
}

/// Adds a choice with transitions `trans` (and their exact ids) to the state being
/// built.
fn push_choice(p: &mut Product, trans: &[(u32, f64)], exact_ids: Option<Vec<u32>>, origin: u32) {
    let f = &mut p.form;
    for &(to, prob) in trans {
        f.to.push(to);
        f.prob.push(prob);
    }
    f.row.push(f.to.len());
    if let Some(ids) = exact_ids {
        f.exact
            .get_or_insert_with(ExactProbs::default)
            .id
            .extend(ids);
    }
    p.choice_origin.push(origin);
}
