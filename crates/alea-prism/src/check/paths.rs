//! The paths of `P` and of the path quantifiers `E` and `A`, each brought to one of two
//! questions the engine answers: `stay U[a,b] target` (reach `target` at a step from `a`
//! to `b`, through `stay` before it), or `X target`; possibly negated, as PRISM reduces
//! them:
//!
//! - `F[I] t` is `true U[I] t`;
//! - `G[I] t` is `!(F[I] !t)`;
//! - `l W[I] r` is `!(!r U[I] (!l & !r))`;
//! - `l R[I] r` is `!(!l U[I] !r)`.
//!
//! A negated path is worth one minus the value of the path under it, whose choices
//! optimise the other way (the most likely `G t` is the least likely `F !t`); for a
//! quantifier, it holds where the other quantifier's path under it does not (`E [G t]`
//! is `!A [F !t]`).
//!
//! `U[a,b]` with `a > 0` is two questions: `stay U<=(b-a) target` (or the unbounded
//! until) from step `a` on, and before it `a` steps that must stay in `stay`.

use alea_core::analysis::paths::{self as quantified, Quantifier};
use alea_core::form::Form;
use alea_core::solve::{self, Answer, Context, ExactAnswer, Goal};
use alea_core::Exact;
use num_traits::Zero;

use super::{Result, StateValues};
use crate::ast::{Expr, Path, Steps, Temporal};
use crate::error::{Error, Span};
use crate::explore::Explored;
use crate::resolve::Scope;

/// The steps at which a path looks: from `from` to `to` (for ever when `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub from: u64,
    pub to: Option<u64>,
}

/// A path brought to the engine's questions.
pub(super) enum Lowered {
    /// `stay U[window] target`
    Until {
        stay: Vec<bool>,
        target: Vec<bool>,
        window: Window,
    },
    /// `X target`
    Next { target: Vec<bool> },
}

/// A lowered path, and whether the path asked is its negation.
pub(super) struct Lowering {
    pub path: Lowered,
    pub negated: bool,
}

/// The window of a step bound (all steps when `None`); a window with no step in it
/// (`F<0`, `F[2,1]`) is an error, as in PRISM.
pub(super) fn window(scope: &Scope, steps: Option<&Steps>) -> Result<Window> {
    let Some(steps) = steps else {
        return Ok(Window { from: 0, to: None });
    };
    let count = |e: &Expr| -> Result<u64> {
        let k = scope.int_value(e)?;
        Ok(u64::try_from(k).expect("a step bound is at least 0"))
    };
    let from = match &steps.from {
        None => 0,
        Some((e, strict)) => count(e)? + u64::from(*strict),
    };
    let to = match &steps.to {
        None => None,
        Some((e, strict)) => Some(count(e)?.checked_sub(u64::from(*strict))),
    };
    match to {
        Some(Some(to)) if to >= from => Ok(Window { from, to: Some(to) }),
        None => Ok(Window { from, to: None }),
        Some(_) => Err(Error::new(
            steps.span,
            "these steps hold no step: the last comes before the first",
        )
        .into()),
    }
}

/// Brings `path` to an until or a next over sets of states, `sat` giving the states
/// where a state formula holds.
pub(super) fn lower(
    path: &Path,
    scope: &Scope,
    span: Span,
    sat: &mut dyn FnMut(&Expr) -> Result<Vec<bool>>,
) -> Result<Lowering> {
    let not = |v: Vec<bool>| -> Vec<bool> { v.into_iter().map(|b| !b).collect() };
    let until = |stay, target, window, negated| Lowering {
        path: Lowered::Until {
            stay,
            target,
            window,
        },
        negated,
    };
    Ok(match path {
        Path::Eventually { bound, target } => {
            let target = sat(target)?;
            let stay = vec![true; target.len()];
            until(stay, target, window(scope, bound.as_ref())?, false)
        }
        Path::Globally { bound, target } => {
            let target = not(sat(target)?);
            let stay = vec![true; target.len()];
            until(stay, target, window(scope, bound.as_ref())?, true)
        }
        Path::Next { target } => Lowering {
            path: Lowered::Next {
                target: sat(target)?,
            },
            negated: false,
        },
        Path::Until {
            op,
            left,
            right,
            bound,
        } => {
            let (l, r) = (sat(left)?, sat(right)?);
            let window = window(scope, bound.as_ref())?;
            match op {
                Temporal::Until => until(l, r, window, false),
                Temporal::WeakUntil => {
                    let target = l.iter().zip(&r).map(|(&l, &r)| !l && !r).collect();
                    until(not(r), target, window, true)
                }
                Temporal::Release => until(not(l), not(r), window, true),
            }
        }
        Path::Cumulative { .. } | Path::Instant { .. } | Path::LongRun | Path::Reach { .. } => {
            return Err(Error::new(
                span,
                "`C`, `I=k`, `S`, `Fc` and `F0` are reward paths: they need an `R` operator",
            )
            .into())
        }
        Path::Steady { .. } => unreachable!("the parser gives `S [...]` to `S` alone"),
        Path::Ltl { .. } => unreachable!("an LTL path is answered on its product, not lowered"),
    })
}

/// The probability of a lowered path (before any negation) in every state: exactly, or
/// certified in `f64`. With `fair`, the least probability of an unbounded until is over
/// the fair strategies only: one minus the greatest probability of its complement,
/// settled where [`solve::fair_escape`] says.
pub(super) fn probability(
    m: &Form,
    goal: Goal,
    path: &Lowered,
    exact: bool,
    fair: bool,
    cx: &Context,
) -> Result<StateValues> {
    let n = m.states();
    let all = vec![true; n];
    Ok(match path {
        Lowered::Next { target } => {
            if exact {
                let start = target.iter().map(|&t| one_if(t)).collect();
                StateValues::Exact(solve::prefix_exact(m, goal, &all, start, 1)?)
            } else {
                let start = target
                    .iter()
                    .map(|&t| [f64::from(u8::from(t)); 2])
                    .collect();
                StateValues::Float(solve::prefix(m, goal, &all, start, 1, true, cx.precision)?)
            }
        }
        Lowered::Until {
            stay,
            target,
            window: Window { from, to },
        } => {
            // From step `from` on: the until over the rest of the window.
            let rest = match (to, exact) {
                (None, _) if fair && goal == Goal::Min => {
                    let escape = solve::fair_escape(m, stay, target);
                    let avoid: Vec<bool> = target.iter().map(|&t| !t).collect();
                    complement(if exact {
                        StateValues::Exact(solve::until_exact(m, Goal::Max, &avoid, &escape, cx)?)
                    } else {
                        StateValues::Float(solve::until(m, Goal::Max, &avoid, &escape, cx)?)
                    })
                }
                (None, false) => StateValues::Float(solve::until(m, goal, stay, target, cx)?),
                (None, true) => StateValues::Exact(solve::until_exact(m, goal, stay, target, cx)?),
                (Some(to), false) => {
                    StateValues::Float(solve::bounded_until(m, goal, stay, target, to - from)?)
                }
                (Some(to), true) => StateValues::Exact(solve::bounded_until_exact(
                    m,
                    goal,
                    stay,
                    target,
                    to - from,
                )?),
            };
            if *from == 0 {
                return Ok(rest);
            }
            // Before it, `from` steps through `stay`.
            match rest {
                StateValues::Float(a) => StateValues::Float(solve::prefix(
                    m,
                    goal,
                    stay,
                    bounds(&a),
                    *from,
                    true,
                    cx.precision,
                )?),
                StateValues::Exact(a) => {
                    let start = a
                        .values
                        .into_iter()
                        .map(|v| v.expect("a probability is finite"))
                        .collect();
                    StateValues::Exact(solve::prefix_exact(m, goal, stay, start, *from)?)
                }
            }
        }
    })
}

/// Whether some (every) path of a lowered path (before any negation) starts in each
/// state.
pub(super) fn quantified(explored: &Explored, q: Quantifier, path: &Lowered) -> Vec<bool> {
    let m = &explored.form;
    let n = m.states();
    match path {
        Lowered::Next { target } => quantified::steps(m, q, &vec![true; n], target, 1, true),
        Lowered::Until {
            stay,
            target,
            window: Window { from, to },
        } => {
            let rest = match to {
                None => quantified::until(m, q, stay, target),
                Some(to) => quantified::bounded_until(m, q, stay, target, to - from),
            };
            if *from == 0 {
                rest
            } else {
                quantified::steps(m, q, stay, &rest, *from, false)
            }
        }
    }
}

/// The bounds of each state's value in `a`: its value, or within its error bound.
fn bounds(a: &Answer) -> Vec<[f64; 2]> {
    a.values
        .iter()
        .zip(&a.pinned)
        .map(|(&v, &pinned)| {
            if pinned {
                [v, v]
            } else {
                let e = a.error_bound * v.abs().max(1.0);
                [(v - e).next_down().max(0.0), (v + e).next_up().min(1.0)]
            }
        })
        .collect()
}

fn one_if(t: bool) -> Exact {
    if t {
        Exact::from_integer(1.into())
    } else {
        Exact::zero()
    }
}

/// One minus each probability (the value of a negated path), with the strategy kept:
/// the choices that optimise the path under the negation one way optimise it the other.
pub(super) fn complement(values: StateValues) -> StateValues {
    match values {
        StateValues::Float(a) => {
            let flip = |v: &mut f64| *v = 1.0 - *v;
            let mut a = a;
            let mut rounded = false;
            for (v, pinned) in a.values.iter_mut().zip(a.pinned.iter_mut()) {
                let old = *v;
                flip(v);
                // `1 - v` rounds for a small `v`: then it is not exact any more.
                if 1.0 - *v != old {
                    *pinned = false;
                    rounded = true;
                }
            }
            if let Some(before) = &mut a.before {
                before.iter_mut().for_each(flip);
            }
            // The bound of each value carries over; a subtraction's rounding is at most
            // one unit of 1.
            a.error_bound += if rounded { f64::EPSILON } else { 0.0 };
            StateValues::Float(a)
        }
        StateValues::Exact(a) => {
            let one = Exact::from_integer(1.into());
            let flip = |v: Option<Exact>| v.map(|q| &one - q);
            StateValues::Exact(ExactAnswer {
                values: a.values.into_iter().map(flip).collect(),
                strategy: a.strategy,
                before: a
                    .before
                    .map(|b| b.into_iter().map(|v| v.map(|q| &one - q)).collect()),
            })
        }
    }
}
