//! Paths of LTL (`P=? [ G F a ]`, `E [ (F a) & (G b) ]`, `R=? [ a U b ]`): the formula's
//! state formulas become the atomic propositions of the engine's LTL, each state's
//! letter the set of those that hold there, and step bounds are unrolled into `X`.

use alea_core::form::Form;
use alea_core::ltl::{self, Letter, Ltl};
use alea_core::solve::{Context, Goal};

use super::formula::Evaluator;
use super::paths::{self, window, Window};
use super::{AutomatonSize, CheckError, Gathered, Result, Solved, StateValues};
use crate::ast::{self, BinOp, Temporal};
use crate::error::{Error, Span};
use crate::resolve::Scope;

/// The most steps a bounded operator of an LTL formula may unroll into.
const MAX_UNROLLED: u64 = 10_000;

/// The most states a product of the model with an automaton may have.
pub(super) const MAX_PRODUCT: usize = 1 << 28;

/// The state formulas of an LTL formula, each once (by the states where it holds).
pub(super) struct Atoms {
    sets: Vec<Vec<bool>>,
}

impl Atoms {
    pub fn new() -> Atoms {
        Atoms { sets: Vec::new() }
    }

    /// Each state's letter: the atoms that hold in it.
    pub fn letters(&self, n: usize) -> Vec<Letter> {
        (0..n)
            .map(|s| {
                self.sets
                    .iter()
                    .enumerate()
                    .filter(|(_, set)| set[s])
                    .fold(0, |l, (i, _)| l | 1 << i)
            })
            .collect()
    }

    fn atom(&mut self, set: Vec<bool>, span: Span) -> Result<Ltl> {
        if let Some(i) = self.sets.iter().position(|s| *s == set) {
            return Ok(Ltl::Atom(i as u32));
        }
        // `!"b"` beside `"b"`: the automaton must see that one is the other's negation.
        let complement = |s: &Vec<bool>| s.iter().zip(&set).all(|(a, b)| a != b);
        if let Some(i) = self.sets.iter().position(complement) {
            return Ok(Ltl::Atom(i as u32).negated());
        }
        if self.sets.len() == ltl::MAX_ATOMS {
            return Err(Error::new(
                span,
                format!(
                    "the LTL formula has more than {} different state formulas",
                    ltl::MAX_ATOMS
                ),
            )
            .into());
        }
        self.sets.push(set);
        Ok(Ltl::Atom(self.sets.len() as u32 - 1))
    }
}

/// `f` in the engine's LTL, `sat` giving the states where a state formula holds, its
/// state formulas added to `atoms`.
pub(super) fn convert(
    f: &ast::Ltl,
    scope: &Scope,
    span: Span,
    sat: &mut dyn FnMut(&ast::Expr) -> Result<Vec<bool>>,
    atoms: &mut Atoms,
) -> Result<Ltl> {
    let mut budget = MAX_UNROLLED;
    lower(f, scope, span, sat, atoms, &mut budget)
}

fn lower(
    f: &ast::Ltl,
    scope: &Scope,
    span: Span,
    sat: &mut dyn FnMut(&ast::Expr) -> Result<Vec<bool>>,
    atoms: &mut Atoms,
    budget: &mut u64,
) -> Result<Ltl> {
    let mut go = |g: &ast::Ltl, atoms: &mut Atoms, budget: &mut u64| {
        lower(g, scope, span, sat, atoms, budget)
    };
    Ok(match f {
        ast::Ltl::State(e) => {
            let set = sat(e)?;
            atoms.atom(set, e.span)?
        }
        ast::Ltl::Not(g) => go(g, atoms, budget)?.negated(),
        ast::Ltl::Binary(op, a, b) => {
            let (a, b) = (go(a, atoms, budget)?, go(b, atoms, budget)?);
            match op {
                BinOp::And => a.and(b),
                BinOp::Or => a.or(b),
                BinOp::Implies => a.negated().or(b),
                BinOp::Iff => a.clone().and(b.clone()).or(a.negated().and(b.negated())),
                _ => unreachable!("the parser joins paths by boolean operators only"),
            }
        }
        ast::Ltl::Next(g) => go(g, atoms, budget)?.next(),
        ast::Ltl::Eventually(steps, g) | ast::Ltl::Globally(steps, g) => {
            let w = window(scope, steps.as_ref())?;
            let g = go(g, atoms, budget)?;
            let eventually = matches!(f, ast::Ltl::Eventually(..));
            let rest = match (w.to, eventually) {
                (None, true) => Ltl::Eventually(Box::new(g)),
                (None, false) => Ltl::Globally(Box::new(g)),
                // `g | X (g | X ...)`, or with `&`.
                (Some(to), _) => {
                    spend(budget, to - w.from, span)?;
                    let mut acc = g.clone();
                    for _ in 0..to - w.from {
                        acc = if eventually {
                            g.clone().or(acc.next())
                        } else {
                            g.clone().and(acc.next())
                        };
                    }
                    acc
                }
            };
            delayed(rest, w.from, None, budget, span)?
        }
        ast::Ltl::Until(op, steps, a, b) => {
            let w = window(scope, steps.as_ref())?;
            let (a, b) = (go(a, atoms, budget)?, go(b, atoms, budget)?);
            match op {
                Temporal::Until => until(a, b, w, budget, span)?,
                // `a W b` is `!(!b U (!a & !b))`, `a R b` is `!(!a U !b)`, bounded alike.
                Temporal::WeakUntil if w.to.is_none() && w.from == 0 => {
                    Ltl::WeakUntil(Box::new(a), Box::new(b))
                }
                Temporal::Release if w.to.is_none() && w.from == 0 => {
                    Ltl::Release(Box::new(a), Box::new(b))
                }
                Temporal::WeakUntil => {
                    let stop = a.negated().and(b.clone().negated());
                    until(b.negated(), stop, w, budget, span)?.negated()
                }
                Temporal::Release => until(a.negated(), b.negated(), w, budget, span)?.negated(),
            }
        }
    })
}

/// `a U[w] b`: `b` at a step of the window, `a` at every step before it.
fn until(a: Ltl, b: Ltl, w: Window, budget: &mut u64, span: Span) -> Result<Ltl> {
    let rest = match w.to {
        None => Ltl::Until(Box::new(a.clone()), Box::new(b)),
        Some(to) => {
            spend(budget, to - w.from, span)?;
            let mut acc = b.clone();
            for _ in 0..to - w.from {
                acc = b.clone().or(a.clone().and(acc.next()));
            }
            acc
        }
    };
    delayed(rest, w.from, Some(a), budget, span)
}

/// `f` from step `from` on, with `stay` at every step before it when given.
fn delayed(f: Ltl, from: u64, stay: Option<Ltl>, budget: &mut u64, span: Span) -> Result<Ltl> {
    spend(budget, from, span)?;
    let mut acc = f;
    for _ in 0..from {
        acc = match &stay {
            Some(a) => a.clone().and(acc.next()),
            None => acc.next(),
        };
    }
    Ok(acc)
}

fn spend(budget: &mut u64, steps: u64, span: Span) -> Result<()> {
    if steps > *budget {
        return Err(Error::new(
            span,
            format!(
                "the step bounds of this LTL formula unroll into more than {MAX_UNROLLED} \
                 steps; the automaton would be too large"
            ),
        )
        .into());
    }
    *budget -= steps;
    Ok(())
}

impl Evaluator<'_> {
    fn note(&mut self, c: (usize, usize, bool)) {
        self.automata.push(AutomatonSize {
            states: c.0,
            product_states: c.1,
            finite: c.2,
        });
    }

    /// The formula in the engine's LTL and each state's letter.
    fn formula(&mut self, m: &Form, f: &ast::Ltl, span: Span) -> Result<(Ltl, Vec<Letter>)> {
        let scope = self.scope;
        let mut atoms = Atoms::new();
        let f = convert(f, scope, span, &mut |e| self.sat(e), &mut atoms)?;
        Ok((f, atoms.letters(m.states())))
    }

    /// The probability of LTL formula `f` in every state: its least is one minus the
    /// greatest of its negation, whose choices then minimise it.
    pub(super) fn ltl_probability(
        &mut self,
        m: &Form,
        f: &ast::Ltl,
        span: Span,
        goal: Option<Goal>,
        cx: &Context,
    ) -> Result<Solved> {
        let (f, letters) = self.formula(m, f, span)?;
        if !m.opponent.is_empty() {
            return self.game_probability(m, &f, &letters, span, goal, cx);
        }
        let min = goal == Some(Goal::Min);
        // Over the fair strategies, the paths end where no choice leaves.
        let fair = self.settings.fair;
        let f = if min { f.negated() } else { f };
        let values = if self.settings.exact {
            let c = ltl::probability_exact(m, &f, &letters, fair, MAX_PRODUCT, cx)?;
            self.note((c.automaton_states, c.product_states, c.finite));
            StateValues::Exact(c.answer)
        } else {
            let c = ltl::probability(m, &f, &letters, fair, MAX_PRODUCT, cx)?;
            self.note((c.automaton_states, c.product_states, c.finite));
            StateValues::Float(c.answer)
        };
        let values = if min {
            paths::complement(values)
        } else {
            values
        };
        Ok(memoryful(m, values, goal))
    }

    /// In a game: the probability of a co-safe path that the coalition can secure.
    fn game_probability(
        &mut self,
        m: &Form,
        f: &Ltl,
        letters: &[Letter],
        span: Span,
        goal: Option<Goal>,
        cx: &Context,
    ) -> Result<Solved> {
        let g = goal.unwrap_or(Goal::Max);
        let exact = self.settings.exact;
        let Some(c) = ltl::game_probability(m, g, f, letters, exact, MAX_PRODUCT, cx)? else {
            return Err(Error::new(
                span,
                "in a game (smg) a path of LTL must be co-safe (in negation normal form only \
                 `X`, `F`, `U` and boolean operators): it is read by a finite automaton",
            )
            .into());
        };
        self.note((c.automaton_states, c.product_states, c.finite));
        let values = match c.answer {
            Ok(a) => StateValues::Float(a),
            Err(a) => StateValues::Exact(a),
        };
        Ok(memoryful(m, values, goal))
    }

    /// The expected reward until co-safe `f` holds, in every state.
    pub(super) fn ltl_reward(
        &mut self,
        m: &Form,
        f: &ast::Ltl,
        span: Span,
        goal: Option<Goal>,
        rewards: &Gathered,
        cx: &Context,
    ) -> Result<Solved> {
        let (f, letters) = self.formula(m, f, span)?;
        let g = goal.unwrap_or(Goal::Max);
        let refused = |e: alea_core::Error| -> CheckError {
            match e {
                alea_core::Error::Unsupported(why) => Error::new(span, why).into(),
                e => e.into(),
            }
        };
        let values = match rewards {
            Gathered::Float(r) => {
                let c = ltl::reward(m, g, &f, &letters, r, MAX_PRODUCT, cx).map_err(refused)?;
                self.note((c.automaton_states, c.product_states, c.finite));
                StateValues::Float(c.answer)
            }
            Gathered::Exact(r) => {
                let c =
                    ltl::reward_exact(m, g, &f, &letters, r, MAX_PRODUCT, cx).map_err(refused)?;
                self.note((c.automaton_states, c.product_states, c.finite));
                StateValues::Exact(c.answer)
            }
        };
        Ok(memoryful(m, values, goal))
    }

    /// Whether some path (`all`: every path) from each state satisfies `f`.
    pub(super) fn ltl_quantified(
        &mut self,
        all: bool,
        f: &ast::Ltl,
        span: Span,
    ) -> Result<Vec<bool>> {
        let m = &self.explored.form;
        let (f, letters) = self.formula(m, f, span)?;
        // Every path satisfies `f` where no path satisfies its negation.
        let f = if all { f.negated() } else { f };
        let c = ltl::exists(m, &f, &letters, MAX_PRODUCT)?;
        self.note((c.automaton_states, c.product_states, c.finite));
        Ok(c.answer.into_iter().map(|b| b != all).collect())
    }
}

/// The values of a path whose best choices depend on the automaton's state as well:
/// a state's choices are not judged one by one (its values say where a path starts).
fn memoryful(m: &Form, values: StateValues, goal: Option<Goal>) -> Solved {
    Solved {
        against: m.opponent.clone(),
        values,
        goal,
        rewards: None,
        fixed: vec![true; m.states()],
    }
}

/// A plain path that PRISM reads as LTL under `R` (`R=? [ a U b ]`, `R=? [ X a ]`).
pub(super) fn as_ltl(path: &ast::Path) -> Option<ast::Ltl> {
    match path {
        ast::Path::Eventually { .. } => None,
        _ => path_ltl(path),
    }
}

/// Any path of `P` as LTL.
pub(super) fn path_ltl(path: &ast::Path) -> Option<ast::Ltl> {
    let state = |e: &ast::Expr| Box::new(ast::Ltl::State(e.clone()));
    match path {
        ast::Path::Eventually { bound, target } => {
            Some(ast::Ltl::Eventually(bound.clone(), state(target)))
        }
        ast::Path::Ltl { formula, .. } => Some((**formula).clone()),
        ast::Path::Until {
            op,
            left,
            right,
            bound,
        } => Some(ast::Ltl::Until(
            *op,
            bound.clone(),
            state(left),
            state(right),
        )),
        ast::Path::Next { target } => Some(ast::Ltl::Next(state(target))),
        ast::Path::Globally { bound, target } => {
            Some(ast::Ltl::Globally(bound.clone(), state(target)))
        }
        _ => None,
    }
}
