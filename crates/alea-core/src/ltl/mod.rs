//! LTL over the paths of a model: the probability of a formula, the expected reward
//! until a co-safe formula is satisfied, and whether some path satisfies a formula.
//!
//! Each is answered on the product of the model with the formula's automaton
//! ([`automaton`]): a co-safe formula is a reachability question on the product with
//! its finite automaton; any other formula is the greatest probability of reaching the
//! product's accepting end components, with its limit-deterministic automaton. The
//! product is an explicit [`Form`], so the engine's graph analysis and solvers answer
//! it as any model, certified in `f64` or exactly.

pub mod automaton;
pub mod formula;
pub mod product;
mod progress;

#[cfg(test)]
mod tests;

pub use automaton::{Automaton, Next};
pub use formula::Ltl;
pub use product::Product;
pub use progress::Letter;

use crate::analysis::components::components_within;
use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::{ExactRewards, Form, Rewards};
use crate::solve::{self, Answer, Context, ExactAnswer, Goal};

/// An answer on a product, brought back to the model's states, with the sizes of the
/// automaton and of the product.
pub struct Checked<A> {
    pub answer: A,
    /// The automaton's states that the product met.
    pub automaton_states: usize,
    pub product_states: usize,
    /// Whether the automaton was finite (the formula co-safe), else limit-deterministic.
    pub finite: bool,
}

/// The most atomic propositions a formula may have (a letter is a 64-bit set).
pub const MAX_ATOMS: usize = 64;

/// The automaton of `f`: finite where `f` is co-safe, else limit-deterministic.
fn automaton_for(f: &Ltl) -> Automaton {
    Automaton::finite(f).unwrap_or_else(|| Automaton::limit_deterministic(f))
}

/// The product states from which the automaton accepts for sure once there: its
/// accepting state, and the states of each end component after the jump where every
/// monitor of its guess fires. With `fair`, only the strategies that take every choice
/// of a state they visit infinitely often infinitely often count: they end in a set of
/// states that no choice leaves, so the end components are the bottom components after
/// the jump (the states there have the model's choices only).
fn accepting(p: &Product, a: &Automaton, fair: bool) -> Vec<bool> {
    let n = p.states();
    let mut target = accepted_only(p);
    let region: Vec<bool> = (0..n)
        .map(|i| p.origin[i] != product::NONE && a.acceptance(p.automaton_state[i]).is_some())
        .collect();
    if !region.contains(&true) {
        return target;
    }
    let accept = |members: &[u32], target: &mut Vec<bool>| {
        let mut fired = 0u64;
        let mut all = 0u64;
        for &i in members {
            let (_, f, a_all) = a
                .acceptance(p.automaton_state[i as usize])
                .expect("an end component after the jump");
            fired |= f;
            all = a_all;
        }
        if fired == all {
            for &i in members {
                target[i as usize] = true;
            }
        }
    };
    if fair {
        let sccs = components_within(&p.form, &region);
        let mut of = vec![u32::MAX; n];
        for k in 0..sccs.count() {
            for &i in sccs.get(k) {
                of[i as usize] = k as u32;
            }
        }
        for k in 0..sccs.count() {
            let members = sccs.get(k);
            let closed = members.iter().all(|&i| {
                let m = &p.form;
                m.choices_of(i as usize)
                    .flat_map(|c| &m.to[m.transitions_of(c)])
                    .all(|&t| of[t as usize] == k as u32)
            });
            if closed {
                accept(members, &mut target);
            }
        }
        return target;
    }
    let g = Graph::new(&p.form);
    let Some(ecs) = g.end_components(&region, |_| true) else {
        return target;
    };
    for k in 0..ecs.count() as u32 {
        accept(ecs.get(k), &mut target);
    }
    target
}

/// The product of `m` with the automaton of `f`, and where it accepts.
fn product_of(
    m: &Form,
    f: &Ltl,
    letters: &[Letter],
    max_states: usize,
    fair: bool,
) -> Result<(Product, Automaton, Vec<bool>)> {
    let mut a = automaton_for(f);
    let p = product::build(m, letters, &mut a, false, max_states)?;
    let target = accepting(&p, &a, fair);
    Ok((p, a, target))
}

/// The product's accepting state alone: where a finite automaton has accepted.
fn accepted_only(p: &Product) -> Vec<bool> {
    let mut target = vec![false; p.states()];
    target[product::ACCEPTED as usize] = true;
    target
}

/// How an error on the product names a state: by its model state's name.
fn product_names<'a>(p: &'a Product, cx: &'a Context) -> impl Fn(usize) -> String + Sync + 'a {
    move |i: usize| match p.origin[i] {
        product::NONE => "the state where the formula is decided".to_string(),
        s => format!(
            "{} (with the automaton in its state {})",
            (cx.names)(s as usize),
            p.automaton_state[i]
        ),
    }
}

/// Each model state's choice at the start of its product: the choice that the product's
/// strategy takes there, or after its jump.
fn model_strategy(m: &Form, p: &Product, strategy: &[u32]) -> Vec<u32> {
    let choice_at = |i: u32| -> Option<u32> {
        if p.origin[i as usize] == product::NONE {
            return None;
        }
        let c = p.form.choices[i as usize] + strategy[i as usize] as usize;
        let origin = p.choice_origin[c];
        if origin != product::NONE {
            return Some(origin);
        }
        // A jump: the choice after it.
        let j = p.form.to[p.form.row[c]];
        if p.origin[j as usize] == product::NONE {
            return None;
        }
        let c = p.form.choices[j as usize] + strategy[j as usize] as usize;
        Some(p.choice_origin[c]).filter(|&o| o != product::NONE)
    };
    (0..m.states())
        .map(|s| match choice_at(p.start[s]) {
            Some(c) => c - m.choices[s] as u32,
            None => 0,
        })
        .collect()
}

fn checked_float(m: &Form, p: &Product, a: &Automaton, ans: Answer) -> Checked<Answer> {
    let strategy = model_strategy(m, p, &ans.strategy);
    let at = |i: &u32| *i as usize;
    Checked {
        answer: Answer {
            values: p.start.iter().map(|i| ans.values[at(i)]).collect(),
            error_bound: ans.error_bound,
            strategy,
            sweeps: ans.sweeps,
            pinned: p.start.iter().map(|i| ans.pinned[at(i)]).collect(),
            before: None,
        },
        automaton_states: a.len(),
        product_states: p.states(),
        finite: a.is_finite(),
    }
}

fn checked_exact(m: &Form, p: &Product, a: &Automaton, ans: ExactAnswer) -> Checked<ExactAnswer> {
    let strategy = model_strategy(m, p, &ans.strategy);
    Checked {
        answer: ExactAnswer {
            values: p
                .start
                .iter()
                .map(|&i| ans.values[i as usize].clone())
                .collect(),
            strategy,
            before: None,
        },
        automaton_states: a.len(),
        product_states: p.states(),
        finite: a.is_finite(),
    }
}

fn check_letters(m: &Form, letters: &[Letter]) {
    assert_eq!(letters.len(), m.states(), "one letter per state");
}

/// The greatest probability of `f` from each state of `m` (of a chain: its probability),
/// certified in `f64`; `letters[s]` holds the atomic propositions true in state `s`.
/// The least is one minus the greatest of the negation. With `fair`, over the fair
/// strategies only (see [`accepting`]).
pub fn probability(
    m: &Form,
    f: &Ltl,
    letters: &[Letter],
    fair: bool,
    max_states: usize,
    cx: &Context,
) -> Result<Checked<Answer>> {
    check_letters(m, letters);
    let (p, a, target) = product_of(m, f, letters, max_states, fair)?;
    let names = product_names(&p, cx);
    let pcx = cx.naming(&names);
    let all = vec![true; p.states()];
    let ans = solve::until(&p.form, Goal::Max, &all, &target, &pcx)?;
    Ok(checked_float(m, &p, &a, ans))
}

/// In a turn-based game `m` (its `opponent` states choosing against `goal`), the
/// probability of co-safe `f` that the first player can secure, certified in `f64`
/// (exactly with `exact`): the game of reaching acceptance on the product with the
/// finite automaton, whose states keep their model state's player. `None` where `f` is
/// not co-safe (a limit-deterministic automaton's guesses are not a game's).
pub fn game_probability(
    m: &Form,
    goal: Goal,
    f: &Ltl,
    letters: &[Letter],
    exact: bool,
    max_states: usize,
    cx: &Context,
) -> Result<Option<Checked<std::result::Result<Answer, ExactAnswer>>>> {
    check_letters(m, letters);
    let Some(mut a) = Automaton::finite(f) else {
        return Ok(None);
    };
    let mut p = product::build(m, letters, &mut a, false, max_states)?;
    lift_players(m, &mut p);
    let names = product_names(&p, cx);
    let pcx = cx.naming(&names);
    let all = vec![true; p.states()];
    let target = accepted_only(&p);
    Ok(Some(if exact {
        let ans = solve::until_exact(&p.form, goal, &all, &target, &pcx)?;
        let c = checked_exact(m, &p, &a, ans);
        Checked {
            answer: Err(c.answer),
            automaton_states: c.automaton_states,
            product_states: c.product_states,
            finite: true,
        }
    } else {
        let ans = solve::until(&p.form, goal, &all, &target, &pcx)?;
        let c = checked_float(m, &p, &a, ans);
        Checked {
            answer: Ok(c.answer),
            automaton_states: c.automaton_states,
            product_states: c.product_states,
            finite: true,
        }
    }))
}

/// In a game, each product state is its model state's player's (a finite automaton
/// has no choices of its own).
fn lift_players(m: &Form, p: &mut Product) {
    if !m.opponent.is_empty() {
        p.form.opponent = p
            .origin
            .iter()
            .map(|&o| o != product::NONE && m.opponent[o as usize])
            .collect();
    }
}

/// [`probability`] in exact rationals; the model needs its exact probabilities.
pub fn probability_exact(
    m: &Form,
    f: &Ltl,
    letters: &[Letter],
    fair: bool,
    max_states: usize,
    cx: &Context,
) -> Result<Checked<ExactAnswer>> {
    check_letters(m, letters);
    m.exact_probs()?;
    let (p, a, target) = product_of(m, f, letters, max_states, fair)?;
    let names = product_names(&p, cx);
    let pcx = cx.naming(&names);
    let all = vec![true; p.states()];
    let ans = solve::until_exact(&p.form, Goal::Max, &all, &target, &pcx)?;
    Ok(checked_exact(m, &p, &a, ans))
}

/// The co-safe formula's finite automaton, or the error that says it is not co-safe.
fn finite(f: &Ltl) -> Result<Automaton> {
    Automaton::finite(f).ok_or_else(|| {
        Error::Unsupported(
            "the expected reward of an LTL formula needs a co-safe one: in negation normal \
             form only `X`, `F`, `U` and boolean operators (every path that satisfies it does \
             so by a finite prefix)"
                .to_string(),
        )
    })
}

/// The product for a co-safe formula's reward, and its rewards (each product state
/// gathers its model state's, each choice its model choice's).
fn reward_product<T: Clone + Default>(
    m: &Form,
    f: &Ltl,
    letters: &[Letter],
    rewards: &Rewards<T>,
    max_states: usize,
) -> Result<(Product, Automaton, Rewards<T>)> {
    check_letters(m, letters);
    let mut a = finite(f)?;
    let mut p = product::build(m, letters, &mut a, false, max_states)?;
    lift_players(m, &mut p);
    let lift = |v: &[T], origin: &[u32]| -> Vec<T> {
        if v.is_empty() {
            return Vec::new();
        }
        origin
            .iter()
            .map(|&o| match o {
                product::NONE => T::default(),
                o => v[o as usize].clone(),
            })
            .collect()
    };
    let r = Rewards {
        state: lift(&rewards.state, &p.origin),
        choice: lift(&rewards.choice, &p.choice_origin),
    };
    Ok((p, a, r))
}

/// The expected reward until co-safe `f` is satisfied, from each state of `m`, optimised
/// by `goal`, certified in `f64`; infinite where it is missed with positive probability.
pub fn reward(
    m: &Form,
    goal: Goal,
    f: &Ltl,
    letters: &[Letter],
    rewards: &Rewards,
    max_states: usize,
    cx: &Context,
) -> Result<Checked<Answer>> {
    let (p, a, r) = reward_product(m, f, letters, rewards, max_states)?;
    let names = product_names(&p, cx);
    let pcx = cx.naming(&names);
    let target = accepted_only(&p);
    let ans = solve::reach_reward(&p.form, goal, &target, &r, &pcx)?;
    Ok(checked_float(m, &p, &a, ans))
}

/// [`reward`] in exact rationals.
pub fn reward_exact(
    m: &Form,
    goal: Goal,
    f: &Ltl,
    letters: &[Letter],
    rewards: &ExactRewards,
    max_states: usize,
    cx: &Context,
) -> Result<Checked<ExactAnswer>> {
    m.exact_probs()?;
    let (p, a, r) = reward_product(m, f, letters, rewards, max_states)?;
    let names = product_names(&p, cx);
    let pcx = cx.naming(&names);
    let target = accepted_only(&p);
    let ans = solve::reach_reward_exact(&p.form, goal, &target, &r, &pcx)?;
    Ok(checked_exact(m, &p, &a, ans))
}

/// Whether some path from each state of `m` satisfies `f`, over every choice and every
/// transition; with the automaton's and the product's sizes.
pub fn exists(
    m: &Form,
    f: &Ltl,
    letters: &[Letter],
    max_states: usize,
) -> Result<Checked<Vec<bool>>> {
    check_letters(m, letters);
    // Each transition its own choice: a strategy of this process picks one path.
    let mut paths = Form {
        choices: vec![0],
        row: vec![0],
        initial: m.initial.clone(),
        ..Form::default()
    };
    for s in 0..m.states() {
        for c in m.choices_of(s) {
            for t in m.transitions_of(c) {
                paths.to.push(m.to[t]);
                paths.prob.push(1.0);
                paths.row.push(paths.to.len());
            }
        }
        paths.choices.push(paths.row.len() - 1);
    }
    let (p, a, target) = product_of(&paths, f, letters, max_states, false)?;
    let g = Graph::new(&p.form);
    let all = vec![true; p.states()];
    let reach = g.exists_reach(&target, &all, |_, _| {});
    Ok(Checked {
        answer: p.start.iter().map(|&i| reach[i as usize]).collect(),
        automaton_states: a.len(),
        product_states: p.states(),
        finite: a.is_finite(),
    })
}
