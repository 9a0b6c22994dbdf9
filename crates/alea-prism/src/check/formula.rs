//! State formulas: a property's expression evaluated in every state, bottom up. A part
//! with no operator in it is an expression over the state, evaluated as the model's
//! expressions are; an operator (`P`, `R`, `T`, `E`, `A`, `filter`) is answered in every
//! state by the engine, the state formulas of its path first; the operators of
//! expressions then combine the values state by state.
//!
//! Numbers carry their error bound through the arithmetic (each operation adds the
//! bounds it can spread and its own rounding), and a comparison of numbers is decided
//! only where their bounds tell; elsewhere the check is undecided, as a bound query too
//! close to its bound is (exact arithmetic then tells).

use alea_core::analysis::paths::Quantifier;
use alea_core::Exact;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{
    decide, paths, value_of, AutomatonSize, CheckError, Number, Result, Settings, Solved,
    StateValues,
};
use crate::ast::{BinOp, Expr, ExprKind, FilterOp, Func, NamedProperty, Operator, Path, Rel, UnOp};
use crate::error::{Error, Span};
use crate::explore::Explored;
use crate::program::{Program, Ty};
use crate::resolve::Scope;

/// A state formula's value in every state.
#[derive(Clone, Debug)]
pub enum Values {
    Bool(Vec<bool>),
    Number(Vec<Number>),
}

/// What a filter gives: one value for the model (a truth, a number, or the least and
/// greatest numbers), a set of states (`argmin`, `argmax`), or states listed with their
/// values (`print`, `printall`).
#[derive(Clone, Debug)]
pub enum Reduced {
    Bool(bool),
    Number(Number),
    Range(Number, Number),
    States(Vec<bool>),
    /// The property's values, unchanged (as PRISM leaves them: the filter stands for
    /// the property), and the states listed, each with its value (ordered where the
    /// property is answered: a nested listing is not shown).
    Listed(Values, Vec<(u32, Item)>),
}

/// A state's value in a listing.
#[derive(Clone, Debug)]
pub enum Item {
    Bool(bool),
    Number(Number),
}

/// Evaluates the state formulas of one property file on an explored model.
pub(super) struct Evaluator<'a> {
    pub program: &'a Program,
    pub explored: &'a Explored,
    pub scope: &'a Scope,
    pub named: &'a [NamedProperty],
    pub settings: &'a Settings,
    /// The named properties being evaluated, innermost last: a property that refers to
    /// itself through them is refused.
    pub within: Vec<String>,
    /// The automata of the LTL formulas answered, in order.
    pub automata: Vec<AutomatonSize>,
}

impl<'a> Evaluator<'a> {
    /// The property named in `"name"`, when that is not a label.
    fn reference(&self, e: &Expr) -> Option<&'a NamedProperty> {
        match &e.kind {
            ExprKind::Label(name) if !self.scope.has_label(name) => self
                .named
                .iter()
                .find(|p| p.name.as_deref() == Some(name.as_str())),
            _ => None,
        }
    }

    /// Whether `e` is an expression over the state alone: no operator and no property.
    fn plain(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Operator(_) => false,
            ExprKind::Label(_) => self.reference(e).is_none(),
            ExprKind::Unary(_, a) => self.plain(a),
            ExprKind::Binary(_, a, b) => self.plain(a) && self.plain(b),
            ExprKind::Ite(c, a, b) => self.plain(c) && self.plain(a) && self.plain(b),
            ExprKind::Call(_, args) => args.iter().all(|a| self.plain(a)),
            ExprKind::Int(_) | ExprKind::Real(..) | ExprKind::Bool(_) | ExprKind::Name(_) => true,
        }
    }

    /// The states where the state formula `e` holds.
    pub fn sat(&mut self, e: &Expr) -> Result<Vec<bool>> {
        if self.plain(e) {
            let ex = self.scope.state_formula(e)?;
            return Ok(self.explored.states_where(&ex)?);
        }
        match self.values(e)? {
            Values::Bool(v) => Ok(v),
            Values::Number(_) => Err(Error::new(
                e.span,
                "expected a true/false state formula here, found a number",
            )
            .into()),
        }
    }

    /// The value of `e` in every state.
    pub fn values(&mut self, e: &Expr) -> Result<Values> {
        if self.plain(e) {
            return self.plain_values(e);
        }
        if let Some(named) = self.reference(e) {
            let name = named.name.clone().expect("a reference names a property");
            if self.within.contains(&name) {
                return Err(
                    Error::new(e.span, format!("property \"{name}\" refers to itself")).into(),
                );
            }
            self.within.push(name);
            let v = self.values(&named.property);
            self.within.pop();
            return v;
        }
        let n = self.explored.form.states();
        match &e.kind {
            ExprKind::Operator(op) => self.operator(op, e.span),
            ExprKind::Unary(UnOp::Not, a) => {
                Ok(Values::Bool(self.sat(a)?.into_iter().map(|b| !b).collect()))
            }
            ExprKind::Unary(UnOp::Neg, a) => {
                let v = self.numbers(a)?;
                Ok(Values::Number(v.into_iter().map(negate).collect()))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Ite(c, a, b) => {
                let c = self.sat(c)?;
                match (self.values(a)?, self.values(b)?) {
                    (Values::Bool(x), Values::Bool(y)) => Ok(Values::Bool(
                        (0..n).map(|s| if c[s] { x[s] } else { y[s] }).collect(),
                    )),
                    (Values::Number(x), Values::Number(y)) => Ok(Values::Number(
                        (0..n)
                            .map(|s| if c[s] { x[s].clone() } else { y[s].clone() })
                            .collect(),
                    )),
                    _ => Err(Error::new(
                        e.span,
                        "the two branches of `? :` must both be numbers or both true/false",
                    )
                    .into()),
                }
            }
            ExprKind::Call(func, args) => {
                let columns = args
                    .iter()
                    .map(|a| self.numbers(a))
                    .collect::<Result<Vec<Vec<Number>>>>()?;
                (0..n)
                    .map(|s| {
                        let at: Vec<&Number> = columns.iter().map(|c| &c[s]).collect();
                        function(*func, &at, e.span)
                    })
                    .collect::<Result<Vec<Number>>>()
                    .map(Values::Number)
            }
            _ => unreachable!("literals and names are plain"),
        }
    }

    /// The numbers of `e` in every state.
    fn numbers(&mut self, e: &Expr) -> Result<Vec<Number>> {
        match self.values(e)? {
            Values::Number(v) => Ok(v),
            Values::Bool(_) => Err(Error::new(
                e.span,
                "expected a number here, found a true/false state formula",
            )
            .into()),
        }
    }

    /// An expression with no operator, in every state.
    fn plain_values(&self, e: &Expr) -> Result<Values> {
        let ex = self.scope.expression(e)?;
        if ex.ty == Ty::Bool {
            return Ok(Values::Bool(self.explored.states_where(&ex)?));
        }
        let numbers = if self.settings.exact {
            self.explored
                .numbers_where(&ex, |cx, ex| match cx.eval_exact(ex) {
                    Ok(q) => Ok(Number::Exact(Some(q))),
                    // No rational is infinite or NaN (`1/0`, `0/0`): such a value is kept
                    // as the double it is, as PRISM's exact mode keeps it.
                    Err(e) => match cx.eval_f64(ex) {
                        Ok(value) if !value.is_finite() => Ok(Number::Float {
                            value,
                            error_bound: 0.0,
                        }),
                        _ => Err(e),
                    },
                })?
        } else {
            self.explored.numbers_where(&ex, |cx, ex| {
                cx.eval_f64(ex).map(|value| Number::Float {
                    value,
                    error_bound: 0.0,
                })
            })?
        };
        Ok(Values::Number(numbers))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Result<Values> {
        let logic = |f: fn(bool, bool) -> bool, x: Vec<bool>, y: Vec<bool>| {
            Values::Bool(x.into_iter().zip(y).map(|(x, y)| f(x, y)).collect())
        };
        match op {
            BinOp::And => Ok(logic(|x, y| x && y, self.sat(a)?, self.sat(b)?)),
            BinOp::Or => Ok(logic(|x, y| x || y, self.sat(a)?, self.sat(b)?)),
            BinOp::Implies => Ok(logic(|x, y| !x || y, self.sat(a)?, self.sat(b)?)),
            BinOp::Iff => Ok(logic(|x, y| x == y, self.sat(a)?, self.sat(b)?)),
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                match (self.values(a)?, self.values(b)?) {
                    (Values::Bool(x), Values::Bool(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                        let want = op == BinOp::Eq;
                        Ok(Values::Bool(
                            x.into_iter()
                                .zip(y)
                                .map(|(x, y)| (x == y) == want)
                                .collect(),
                        ))
                    }
                    (Values::Number(x), Values::Number(y)) => {
                        let mut out = Vec::with_capacity(x.len());
                        for (s, (x, y)) in x.iter().zip(&y).enumerate() {
                            match compare(op, x, y) {
                                Some(b) => out.push(b),
                                None => return Err(self.undecided(s, x, op, y, span)),
                            }
                        }
                        Ok(Values::Bool(out))
                    }
                    _ => Err(Error::new(
                        span,
                        "a comparison needs two numbers (or, for = and !=, two true/false values)",
                    )
                    .into()),
                }
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let (x, y) = (self.numbers(a)?, self.numbers(b)?);
                x.into_iter()
                    .zip(y)
                    .map(|(x, y)| arithmetic(op, x, y, span))
                    .collect::<Result<Vec<Number>>>()
                    .map(Values::Number)
            }
        }
    }

    fn undecided(&self, s: usize, x: &Number, op: BinOp, y: &Number, span: Span) -> CheckError {
        CheckError::Undecided(Error::new(
            span,
            format!(
                "in state {} the values {} ± {:.1e} and {} ± {:.1e} are too close to tell \
                 whether `{}` holds; ask with --exact, or a smaller --precision",
                self.explored.name(s),
                x.to_f64(),
                x.error_bound(),
                y.to_f64(),
                y.error_bound(),
                op.symbol(),
            ),
        ))
    }

    /// An operator's value in every state.
    fn operator(&mut self, op: &Operator, span: Span) -> Result<Values> {
        match op {
            Operator::Query {
                op,
                path,
                bound: None,
                coalition,
            } => {
                let solved = self.query(op, path, span, None, coalition.as_ref())?;
                let n = self.explored.form.states();
                Ok(Values::Number(
                    (0..n).map(|s| value_of(&solved, s)).collect(),
                ))
            }
            Operator::Query {
                op,
                path,
                bound: Some(bound),
                coalition,
            } => {
                let threshold = self.scope.threshold(&bound.threshold)?;
                let solved = self.query(op, path, span, Some(bound.rel), coalition.as_ref())?;
                self.judged(&solved, bound.rel, &threshold, span)
                    .map(Values::Bool)
            }
            Operator::Quantified {
                all,
                path: Path::Ltl { formula, span: at },
            } => Ok(Values::Bool(self.ltl_quantified(*all, formula, *at)?)),
            Operator::Quantified { all, path } => {
                let scope = self.scope;
                let lowered = paths::lower(path, scope, span, &mut |e| self.sat(e))?;
                let q = match (*all, lowered.negated) {
                    (true, false) | (false, true) => Quantifier::Every,
                    _ => Quantifier::Some,
                };
                let holds = paths::quantified(self.explored, q, &lowered.path);
                Ok(Values::Bool(if lowered.negated {
                    holds.into_iter().map(|b| !b).collect()
                } else {
                    holds
                }))
            }
            Operator::Multi { .. } => Err(Error::new(
                span,
                "multi(...) answers a whole property: it cannot stand inside another \
                 operator or an expression",
            )
            .into()),
            Operator::Filter {
                op,
                property,
                states,
            } => {
                let n = self.explored.form.states();
                Ok(match self.filter(*op, property, states.as_ref(), span)? {
                    // Inside an expression a listing is the property's values.
                    Reduced::Listed(values, _) => values,
                    Reduced::Bool(b) => Values::Bool(vec![b; n]),
                    Reduced::Number(x) => Values::Number(vec![x; n]),
                    Reduced::States(v) => Values::Bool(v),
                    Reduced::Range(..) => return Err(Error::new(
                        span,
                        "filter(range, ...) is a pair of numbers: it can only be a whole property",
                    )
                    .into()),
                })
            }
        }
    }

    /// Whether each state's value meets `rel threshold`; undecided where its bound does
    /// not tell.
    pub fn judged(
        &self,
        solved: &Solved,
        rel: Rel,
        threshold: &Exact,
        span: Span,
    ) -> Result<Vec<bool>> {
        let n = self.explored.form.states();
        let mut out = Vec::with_capacity(n);
        for s in 0..n {
            let pinned = match &solved.values {
                StateValues::Float(a) => a.pinned[s],
                StateValues::Exact(_) => true,
            };
            let value = value_of(solved, s);
            match decide(&value, pinned, rel, threshold) {
                Some(b) => out.push(b),
                None => {
                    return Err(CheckError::Undecided(Error::new(
                        span,
                        format!(
                            "in state {} the value {} ± {:.1e} is too close to the bound {} {} \
                             to tell whether it holds; ask with --exact, or a smaller --precision",
                            self.explored.name(s),
                            value.to_f64(),
                            value.error_bound(),
                            rel.symbol(),
                            threshold.to_f64_lossy(),
                        ),
                    )))
                }
            }
        }
        Ok(out)
    }

    /// `filter(op, property, states)`.
    pub fn filter(
        &mut self,
        op: FilterOp,
        property: &Expr,
        states: Option<&Expr>,
        span: Span,
    ) -> Result<Reduced> {
        let values = self.values(property)?;
        let chosen: Vec<usize> = match states {
            Some(e) => {
                let sat = self.sat(e)?;
                (0..sat.len()).filter(|&s| sat[s]).collect()
            }
            None => (0..self.explored.form.states()).collect(),
        };
        if chosen.is_empty() {
            let at = states.map_or(span, |e| e.span);
            return Err(Error::new(at, "no reachable state satisfies the filter's states").into());
        }
        let exact = self.settings.exact;
        match (op, values) {
            (FilterOp::Forall, Values::Bool(v)) => Ok(Reduced::Bool(chosen.iter().all(|&s| v[s]))),
            (FilterOp::Exists, Values::Bool(v)) => Ok(Reduced::Bool(chosen.iter().any(|&s| v[s]))),
            (FilterOp::Count, Values::Bool(v)) => {
                let count = chosen.iter().filter(|&&s| v[s]).count();
                Ok(Reduced::Number(integer(count, exact)))
            }
            (FilterOp::First, Values::Bool(v)) => Ok(Reduced::Bool(v[chosen[0]])),
            (FilterOp::First, Values::Number(v)) => Ok(Reduced::Number(v[chosen[0]].clone())),
            (FilterOp::State, values) => {
                if chosen.len() != 1 {
                    let at = states.map_or(span, |e| e.span);
                    return Err(Error::new(
                        at,
                        format!(
                            "filter(state, ...) needs exactly one state, and {} satisfy its states",
                            chosen.len()
                        ),
                    )
                    .into());
                }
                Ok(match values {
                    Values::Bool(v) => Reduced::Bool(v[chosen[0]]),
                    Values::Number(v) => Reduced::Number(v[chosen[0]].clone()),
                })
            }
            // As PRISM: `print` lists the states where the value is not 0 (or is
            // true), `printall` every state of the filter.
            (FilterOp::Print | FilterOp::PrintAll, values) => {
                let all = op == FilterOp::PrintAll;
                let listed = match &values {
                    Values::Bool(v) => chosen
                        .iter()
                        .filter(|&&s| all || v[s])
                        .map(|&s| (s as u32, Item::Bool(v[s])))
                        .collect(),
                    Values::Number(v) => chosen
                        .iter()
                        .filter(|&&s| all || !v[s].is_zero())
                        .map(|&s| (s as u32, Item::Number(v[s].clone())))
                        .collect(),
                };
                Ok(Reduced::Listed(values, listed))
            }
            (FilterOp::Min | FilterOp::Max | FilterOp::Sum | FilterOp::Avg, Values::Number(v)) => {
                let picked = chosen.iter().map(|&s| v[s].clone()).collect();
                Ok(Reduced::Number(super::reduce_numbers(
                    op, picked, exact, span,
                )?))
            }
            (FilterOp::Range, Values::Number(v)) => {
                let picked: Vec<Number> = chosen.iter().map(|&s| v[s].clone()).collect();
                let lo = super::reduce_numbers(FilterOp::Min, picked.clone(), exact, span)?;
                let hi = super::reduce_numbers(FilterOp::Max, picked, exact, span)?;
                Ok(Reduced::Range(lo, hi))
            }
            (FilterOp::ArgMin | FilterOp::ArgMax, Values::Number(v)) => {
                let picked = chosen.iter().map(|&s| v[s].clone()).collect();
                let want = if op == FilterOp::ArgMin {
                    FilterOp::Min
                } else {
                    FilterOp::Max
                };
                let best = super::reduce_numbers(want, picked, exact, span)?;
                let mut out = vec![false; v.len()];
                for &s in &chosen {
                    out[s] = super::same_value(&v[s], &best);
                }
                Ok(Reduced::States(out))
            }
            (op, Values::Bool(_)) => Err(Error::new(
                span,
                format!(
                    "filter `{}` needs a number; this property is true/false (count, forall, \
                     exists, first, state and print take true/false)",
                    super::filter_name(op)
                ),
            )
            .into()),
            (op, Values::Number(_)) => Err(Error::new(
                span,
                format!(
                    "filter `{}` needs a true/false property; this one is a number",
                    super::filter_name(op)
                ),
            )
            .into()),
        }
    }
}

/// A count as a number.
fn integer(k: usize, exact: bool) -> Number {
    if exact {
        Number::Exact(Some(Exact::from_integer(k.into())))
    } else {
        Number::Float {
            value: k as f64,
            error_bound: 0.0,
        }
    }
}

fn negate(x: Number) -> Number {
    match x {
        Number::Float { value, error_bound } => Number::Float {
            value: -value,
            error_bound,
        },
        Number::Exact(Some(q)) => Number::Exact(Some(-q)),
        // Minus infinity has no exact form here; in `f64` it has.
        Number::Exact(None) => Number::Float {
            value: f64::NEG_INFINITY,
            error_bound: 0.0,
        },
    }
}

/// The least (greatest) of two numbers, within the larger of their bounds.
fn extreme(x: Number, y: Number, max: bool) -> Number {
    match (&x, &y) {
        (Number::Exact(a), Number::Exact(b)) => {
            // `None` is infinity, above every number.
            let x_first = match (a, b) {
                (Some(a), Some(b)) => (a >= b) == max,
                (None, _) => max,
                (_, None) => !max,
            };
            if x_first {
                x
            } else {
                y
            }
        }
        _ => {
            let (a, b) = (x.to_f64(), y.to_f64());
            let value = if max { a.max(b) } else { a.min(b) };
            Number::Float {
                value,
                error_bound: x.error_bound().max(y.error_bound()),
            }
        }
    }
}

/// A function of numbers: exact on exact arguments where the function has an exact
/// value, in `f64` otherwise. `min` and `max` keep the larger bound; `floor` and `ceil`
/// (and `round`, read as `floor(x + 0.5)`) are exact where the bound keeps the value
/// within one integer step; the others need arguments known exactly (a bound of 0).
fn function(func: Func, args: &[&Number], span: Span) -> Result<Number> {
    if matches!(func, Func::Min | Func::Max) {
        let mut acc = args[0].clone();
        for a in &args[1..] {
            acc = extreme(acc, (*a).clone(), func == Func::Max);
        }
        return Ok(acc);
    }
    let exact: Option<Vec<&Exact>> = args
        .iter()
        .map(|a| match a {
            Number::Exact(Some(q)) => Some(q),
            _ => None,
        })
        .collect();
    if let Some(q) = exact {
        let whole = |q: &Exact| q.is_integer();
        let value = match (func, q.as_slice()) {
            (Func::Floor, [x]) => Some(x.floor()),
            (Func::Ceil, [x]) => Some(x.ceil()),
            (Func::Pow, [x, y]) if whole(y) => y
                .to_integer()
                .to_i32()
                .filter(|e| e.unsigned_abs() <= 10_000 && !(x.is_zero() && *e < 0))
                .map(|e| x.pow(e)),
            (Func::Mod, [x, y]) if whole(x) && whole(y) && !y.is_zero() => {
                let (a, b) = (x.to_integer(), y.to_integer());
                Some(Exact::from_integer(((a % &b) + &b) % &b))
            }
            _ => None,
        };
        if let Some(v) = value {
            return Ok(Number::Exact(Some(v)));
        }
    }
    let x: Vec<f64> = args.iter().map(|a| a.to_f64()).collect();
    let bound = args.iter().map(|a| a.error_bound()).fold(0.0, f64::max);
    let undecided = || {
        CheckError::Undecided(Error::new(
            span,
            "the arguments' error bounds are too wide to bound this function's value; ask with --exact, or a smaller --precision",
        ))
    };
    let value = match (func, x.as_slice()) {
        (Func::Floor | Func::Ceil, [v]) => {
            let e = args[0].error_bound();
            let f = |v: f64| {
                if func == Func::Floor {
                    v.floor()
                } else {
                    v.ceil()
                }
            };
            let (lo, hi) = (f(v - e), f(v + e));
            if lo != hi {
                return Err(undecided());
            }
            return Ok(Number::Float {
                value: lo,
                error_bound: 0.0,
            });
        }
        _ if bound > 0.0 => return Err(undecided()),
        (Func::Pow, [a, b]) => a.powf(*b),
        (Func::Mod, [a, b]) => a.rem_euclid(*b),
        (Func::Log, [a, b]) => a.ln() / b.ln(),
        _ => return Err(Error::new(span, "this function takes other arguments").into()),
    };
    if value.is_nan() {
        return Err(Error::new(span, "the function has no value for these arguments").into());
    }
    Ok(Number::Float {
        value,
        error_bound: 0.0,
    })
}

/// `x op y` for a comparison, where the bounds tell.
fn compare(op: BinOp, x: &Number, y: &Number) -> Option<bool> {
    if let (Number::Exact(a), Number::Exact(b)) = (x, y) {
        // `None` is infinity.
        let ord = match (a, b) {
            (Some(a), Some(b)) => a.cmp(b),
            (None, None) => std::cmp::Ordering::Equal,
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
        };
        return Some(holds(op, ord));
    }
    let (a, b) = (x.to_f64(), y.to_f64());
    let (ea, eb) = (x.error_bound(), y.error_bound());
    if ea == 0.0 && eb == 0.0 || a.is_infinite() || b.is_infinite() {
        return a.partial_cmp(&b).map(|ord| holds(op, ord));
    }
    // The intervals apart: every pair of values they allow is ordered the same way. When
    // they overlap only equality of one value with itself could be told, and it is not.
    let gap = ea + eb;
    if (a - b).abs() > gap * (1.0 + 4.0 * f64::EPSILON) {
        return a.partial_cmp(&b).map(|ord| holds(op, ord));
    }
    None
}

fn holds(op: BinOp, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op {
        BinOp::Eq => ord == Equal,
        BinOp::Ne => ord != Equal,
        BinOp::Lt => ord == Less,
        BinOp::Le => ord != Greater,
        BinOp::Gt => ord == Greater,
        BinOp::Ge => ord != Less,
        _ => unreachable!("a comparison"),
    }
}

/// `x op y` for `+`, `-`, `*`, `/`, its bound growing by what the operation spreads
/// and by its own rounding.
fn arithmetic(op: BinOp, x: Number, y: Number, span: Span) -> Result<Number> {
    if let (Number::Exact(Some(a)), Number::Exact(Some(b))) = (&x, &y) {
        return Ok(Number::Exact(Some(match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            _ => {
                if b.is_zero() {
                    return Err(Error::new(span, "division by zero").into());
                }
                a / b
            }
        })));
    }
    let (a, b) = (x.to_f64(), y.to_f64());
    let (ea, eb) = (x.error_bound(), y.error_bound());
    let value = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        _ => a / b,
    };
    if value.is_nan() {
        return Err(Error::new(
            span,
            format!("`{}` of {a} and {b} has no value", op.symbol()),
        )
        .into());
    }
    let spread = match op {
        BinOp::Add | BinOp::Sub => ea + eb,
        BinOp::Mul => a.abs() * eb + b.abs() * ea + ea * eb,
        _ => {
            // `b` within `eb` of the true divisor, which must keep its sign.
            let least = b.abs() - eb;
            if least <= 0.0 {
                return Err(CheckError::Undecided(Error::new(
                    span,
                    format!(
                        "the divisor {b} ± {eb:.1e} may be 0; ask with --exact, or a smaller --precision"
                    ),
                )));
            }
            (a.abs() * eb + b.abs() * ea) / (b.abs() * least)
        }
    };
    let error_bound = if value.is_infinite() {
        0.0
    } else {
        spread * (1.0 + 4.0 * f64::EPSILON) + value.abs() * f64::EPSILON
    };
    Ok(Number::Float { value, error_bound })
}

/// An exact rational in `f64`, for messages.
trait Lossy {
    fn to_f64_lossy(&self) -> f64;
}

impl Lossy for Exact {
    fn to_f64_lossy(&self) -> f64 {
        self.to_f64().unwrap_or(if self.is_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        })
    }
}
