//! Evaluation of resolved expressions ([`Ex`]) in a state.
//!
//! There is one general evaluator, [`eval`], which gives a [`Value`] (a real with both its
//! `f64` value and, when it is rational, its exact value), and four typed ones for the hot
//! paths of exploration: [`eval_bool`], [`eval_int`], [`eval_f64`] and [`eval_exact`].
//!
//! The labels `"init"` and `"deadlock"` depend on the explored model, not on the state's
//! values: the free functions report them as errors, and a [`Context`] built with
//! [`Context::with_initial`] / [`Context::with_deadlock`] answers them.
//!
//! Semantics, chosen to match PRISM and Storm where they agree and to never panic:
//! - Integer `+ - *`, unary `-`, `pow` of integers and `floor`/`ceil` of huge reals report
//!   an overflow instead of wrapping.
//! - `/` is real division. Dividing by zero is not an error in double arithmetic (it gives
//!   an infinity or NaN, as in PRISM); in exact arithmetic it is, since no rational is the
//!   answer.
//! - `mod(i, n)` is an error for `n = 0`; otherwise its result has the sign of `n`:
//!   `0 <= r < n` for `n > 0` (so `mod(-1, 3) = 2`), `n < r <= 0` for `n < 0`.
//! - `pow(i, j)` of two integers is an integer and needs `j >= 0` (an error otherwise: write
//!   a double base for a fraction). With a double operand it is a double; exactly, it is
//!   rational only when the exponent is an integer.
//! - `log(x, b)` needs `x > 0`, `b > 0` and `b != 1` (an error otherwise, rather than a NaN
//!   that would poison every probability computed from it); it has no exact value.
//! - Comparisons mix ints and doubles numerically; any comparison with NaN is false except
//!   `!=`. Decisions on reals (comparisons, `floor`, `ceil`) are made in double
//!   precision, except inside [`ExKind::Exactly`], where they are made on the exact
//!   rational values: a fractional power of a positive rational compared with a rational
//!   is decided exactly too (`pow(x, 0.5) >= c` as `x >= c^2`), and only a value with no
//!   rational form elsewhere (`log`, a fractional power inside a sum) is compared in
//!   double precision. A model resolved for exact
//!   checking wraps its decisions so, as PRISM's exact mode makes them; the same model
//!   resolved for double checking does not, so that redoing a double check in exact
//!   arithmetic reads the model the double check read.
//! - `&`, `|` and `=>` do not evaluate their right operand when the left one decides: a
//!   guard such as `y != 0 & mod(x, y) = 0` is safe.

use std::cmp::Ordering;
use std::fmt;

use alea_core::Exact;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::ast::{BinOp, Func, UnOp};
use crate::error::{Error, Span};
use crate::program::{Ex, ExKind, Real, Ty, Value};

/// Why an expression could not be evaluated, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub span: Span,
    pub message: String,
}

impl EvalError {
    pub fn new(span: Span, message: impl Into<String>) -> EvalError {
        EvalError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvalError {}

impl From<EvalError> for Error {
    fn from(e: EvalError) -> Error {
        Error::new(e.span, e.message)
    }
}

type R<T> = std::result::Result<T, EvalError>;

/// A state to evaluate in: its values (indexed as [`crate::program::Program::variables`]),
/// and, when known, whether it is initial and whether it is a deadlock.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub state: &'a [i64],
    /// The value of `"init"`; `None` makes it an error.
    pub initial: Option<bool>,
    /// The value of `"deadlock"`; `None` makes it an error.
    pub deadlock: Option<bool>,
    /// Inside [`ExKind::Exactly`]: decisions on reals are made on exact values.
    exactly: bool,
    /// Whether an exact decision may first be tried on bounds in `f64` (see
    /// [`Context::with_faithful_reals`]).
    filter: bool,
}

/// The value of `ex` in `state` (`"init"` and `"deadlock"` are errors: see [`Context`]).
pub fn eval(ex: &Ex, state: &[i64]) -> R<Value> {
    Context::new(state).eval(ex)
}

/// The value of a bool expression.
pub fn eval_bool(ex: &Ex, state: &[i64]) -> R<bool> {
    Context::new(state).eval_bool(ex)
}

/// The value of an int expression.
pub fn eval_int(ex: &Ex, state: &[i64]) -> R<i64> {
    Context::new(state).eval_int(ex)
}

/// The value of a numeric (int or double) expression in double precision.
pub fn eval_f64(ex: &Ex, state: &[i64]) -> R<f64> {
    Context::new(state).eval_f64(ex)
}

/// The exact value of a numeric expression; an error when it is not rational (`log`, a
/// power with a non-integer exponent, a division by zero).
pub fn eval_exact(ex: &Ex, state: &[i64]) -> R<Exact> {
    Context::new(state).eval_exact(ex)
}

/// Makes every real literal of `ex` that has an exact value the `f64` nearest to it (or
/// one within an ulp, as the conversion gives), where its double value was worked out
/// another way (a constant folded in `f64`, `0.1 * 3 - 0.3` some 5.5e-17 where it is 0):
/// what [`Context::with_faithful_reals`] needs for its bounds. Only decisions inside
/// [`ExKind::Exactly`] that fall back to `f64` (`log`) read such a literal's double value
/// otherwise, and they come nearer to the exact one.
pub fn faithful_reals(ex: &mut Ex) {
    ex.visit_mut(&mut |e| {
        if let ExKind::Value(Value::Real(Real {
            approx,
            exact: Some(q),
        })) = &mut e.kind
        {
            *approx = q.to_f64().unwrap_or(f64::NAN);
        }
    });
}

/// `[lo, hi]` moved out by an ulp each way (covering the rounding of the operation that
/// gave them), where both are finite.
fn outward(lo: f64, hi: f64) -> Option<[f64; 2]> {
    (lo.is_finite() && hi.is_finite()).then(|| [lo.next_down(), hi.next_up()])
}

/// Bounds on the four products (or quotients) of two intervals' ends: the least and the
/// greatest of them, moved out.
fn hull(ends: [f64; 4]) -> Option<[f64; 2]> {
    outward(
        ends.into_iter().fold(f64::INFINITY, f64::min),
        ends.into_iter().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// A number on its way through a comparison.
#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

/// Exact powers are refused beyond this many bits of result, roughly: they would take
/// long to compute and could not be useful as probabilities.
const MAX_POWER_BITS: u64 = 1 << 20;

impl<'a> Context<'a> {
    pub fn new(state: &'a [i64]) -> Context<'a> {
        Context {
            state,
            initial: None,
            deadlock: None,
            exactly: false,
            filter: false,
        }
    }

    /// Promises that every real literal of the expressions to be evaluated that has an
    /// exact value is within an ulp of it (see [`faithful_reals`]): then an exact decision
    /// is first tried on bounds computed in `f64` with outward rounding, and the exact
    /// values are worked out only when the bounds of the two sides overlap.
    pub fn with_faithful_reals(self) -> Context<'a> {
        Context {
            filter: true,
            ..self
        }
    }

    pub fn with_initial(self, initial: bool) -> Context<'a> {
        Context {
            initial: Some(initial),
            ..self
        }
    }

    pub fn with_deadlock(self, deadlock: bool) -> Context<'a> {
        Context {
            deadlock: Some(deadlock),
            ..self
        }
    }

    /// The value of `ex`, of its own type. A double gets its exact value when it has one
    /// (this computes it twice, in `f64` and exactly: the typed helpers are faster).
    pub fn eval(&self, ex: &Ex) -> R<Value> {
        Ok(match ex.ty {
            Ty::Bool => Value::Bool(self.eval_bool(ex)?),
            Ty::Int => Value::Int(self.eval_int(ex)?),
            Ty::Real => {
                let approx = self.eval_f64(ex)?;
                let exact = self.exact(ex).ok();
                Value::Real(Real { approx, exact })
            }
        })
    }

    pub fn eval_bool(&self, ex: &Ex) -> R<bool> {
        if ex.ty != Ty::Bool {
            return Err(wrong_type(ex, "a bool"));
        }
        self.boolean(ex)
    }

    pub fn eval_int(&self, ex: &Ex) -> R<i64> {
        if ex.ty != Ty::Int {
            return Err(wrong_type(ex, "an int"));
        }
        self.int(ex)
    }

    pub fn eval_f64(&self, ex: &Ex) -> R<f64> {
        if ex.ty == Ty::Bool {
            return Err(wrong_type(ex, "a number"));
        }
        self.float(ex)
    }

    pub fn eval_exact(&self, ex: &Ex) -> R<Exact> {
        if ex.ty == Ty::Bool {
            return Err(wrong_type(ex, "a number"));
        }
        self.exact(ex)
    }

    fn var(&self, index: u32, span: Span) -> R<i64> {
        self.state.get(index as usize).copied().ok_or_else(|| {
            EvalError::new(
                span,
                format!(
                    "variable #{index} is not in the state (which has {} values)",
                    self.state.len()
                ),
            )
        })
    }

    // The private evaluators trust the types the resolver checked: a node of type Bool
    // has bool operands, and so on. A mistyped tree still cannot panic, it just ends in
    // `wrong_type` at some node.

    /// This context, deciding on exact values.
    fn exactly(&self) -> Context<'a> {
        Context {
            exactly: true,
            ..*self
        }
    }

    fn boolean(&self, ex: &Ex) -> R<bool> {
        match &ex.kind {
            ExKind::Value(Value::Bool(b)) => Ok(*b),
            ExKind::Exactly(a) => self.exactly().boolean(a),
            ExKind::Var(i) => Ok(self.var(*i, ex.span)? != 0),
            ExKind::Unary(UnOp::Not, a) => Ok(!self.boolean(a)?),
            ExKind::Binary(op, a, b) => match op {
                BinOp::And => Ok(self.boolean(a)? && self.boolean(b)?),
                BinOp::Or => Ok(self.boolean(a)? || self.boolean(b)?),
                BinOp::Implies => Ok(!self.boolean(a)? || self.boolean(b)?),
                BinOp::Iff => Ok(self.boolean(a)? == self.boolean(b)?),
                BinOp::Eq | BinOp::Ne => {
                    let equal = if a.ty == Ty::Bool && b.ty == Ty::Bool {
                        self.boolean(a)? == self.boolean(b)?
                    } else {
                        self.compare(a, b)? == Some(Ordering::Equal)
                    };
                    Ok(equal == (*op == BinOp::Eq))
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    let Some(order) = self.compare(a, b)? else {
                        return Ok(false);
                    };
                    Ok(match op {
                        BinOp::Lt => order == Ordering::Less,
                        BinOp::Le => order != Ordering::Greater,
                        BinOp::Gt => order == Ordering::Greater,
                        _ => order != Ordering::Less,
                    })
                }
                _ => Err(wrong_type(ex, "a bool")),
            },
            ExKind::Ite(c, a, b) => {
                if self.boolean(c)? {
                    self.boolean(a)
                } else {
                    self.boolean(b)
                }
            }
            ExKind::Initial => self.initial.ok_or_else(|| {
                EvalError::new(
                    ex.span,
                    "\"init\" depends on the explored model, not on a state's values alone",
                )
            }),
            ExKind::Deadlock => self.deadlock.ok_or_else(|| {
                EvalError::new(
                    ex.span,
                    "\"deadlock\" depends on the explored model, not on a state's values alone",
                )
            }),
            _ => Err(wrong_type(ex, "a bool")),
        }
    }

    fn number(&self, ex: &Ex) -> R<Num> {
        Ok(if ex.ty == Ty::Int {
            Num::Int(self.int(ex)?)
        } else {
            Num::Float(self.float(ex)?)
        })
    }

    /// The order of two numbers; `None` when one is NaN.
    fn compare(&self, a: &Ex, b: &Ex) -> R<Option<Ordering>> {
        if self.exactly && (a.ty == Ty::Real || b.ty == Ty::Real) {
            if let Some(order) = self.filtered(a, b) {
                return Ok(Some(order));
            }
            if let Some(order) = self.root_compare(a, b) {
                return Ok(Some(order));
            }
            if let Some(order) = self.root_compare(b, a) {
                return Ok(Some(order.reverse()));
            }
            if let (Ok(x), Ok(y)) = (self.exact(a), self.exact(b)) {
                return Ok(Some(x.cmp(&y)));
            }
            // A value with no rational form (`log`, a fractional power of a negative
            // number, a division by zero) is compared in double precision, as without
            // `Exactly`.
        }
        Ok(match (self.number(a)?, self.number(b)?) {
            (Num::Int(i), Num::Int(j)) => Some(i.cmp(&j)),
            (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
            (Num::Int(i), Num::Float(y)) => compare_int_float(i, y),
            (Num::Float(x), Num::Int(j)) => compare_int_float(j, x).map(Ordering::reverse),
        })
    }

    /// The order of `a` and `b` when their bounds in `f64` (see [`Context::bounds`]) do
    /// not overlap; `None` when they do, or a side has none.
    fn filtered(&self, a: &Ex, b: &Ex) -> Option<Ordering> {
        if !self.filter {
            return None;
        }
        let ([a_lo, a_hi], [b_lo, b_hi]) = (self.bounds(a)?, self.bounds(b)?);
        if a_hi < b_lo {
            Some(Ordering::Less)
        } else if a_lo > b_hi {
            Some(Ordering::Greater)
        } else if a_lo == a_hi && b_lo == b_hi && a_lo == b_lo {
            Some(Ordering::Equal)
        } else {
            None
        }
    }

    /// Bounds `[lo, hi]` in `f64` on the exact value of a numeric expression: each
    /// operation on bounds rounded outward by an ulp, real literals taken as within an ulp
    /// of their exact values (which [`Context::with_faithful_reals`] promises). `None`
    /// where no bounds are simple to give (a choice, a division by bounds around 0, a
    /// function other than `min`, `max` and `pow`, values beyond 2^53 or not finite).
    fn bounds(&self, ex: &Ex) -> Option<[f64; 2]> {
        const EXACT_INTS: i64 = 1 << 53;
        if ex.ty == Ty::Int {
            let i = self.int(ex).ok()?;
            return (-EXACT_INTS..=EXACT_INTS)
                .contains(&i)
                .then_some([i as f64; 2]);
        }
        match &ex.kind {
            ExKind::Value(Value::Real(Real {
                approx,
                exact: Some(_),
            })) => outward(*approx, *approx),
            ExKind::Exactly(a) => self.bounds(a),
            ExKind::Unary(UnOp::Neg, a) => {
                let [lo, hi] = self.bounds(a)?;
                Some([-hi, -lo])
            }
            ExKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let ([a0, a1], [b0, b1]) = (self.bounds(a)?, self.bounds(b)?);
                match op {
                    BinOp::Add => outward(a0 + b0, a1 + b1),
                    BinOp::Sub => outward(a0 - b1, a1 - b0),
                    BinOp::Mul => hull([a0 * b0, a0 * b1, a1 * b0, a1 * b1]),
                    _ if b0 > 0.0 || b1 < 0.0 => hull([a0 / b0, a0 / b1, a1 / b0, a1 / b1]),
                    _ => None,
                }
            }
            ExKind::Call(f @ (Func::Min | Func::Max), args) => {
                let mut m = self.bounds(args.first()?)?;
                for a in &args[1..] {
                    let [lo, hi] = self.bounds(a)?;
                    m = if *f == Func::Min {
                        [m[0].min(lo), m[1].min(hi)]
                    } else {
                        [m[0].max(lo), m[1].max(hi)]
                    };
                }
                Some(m)
            }
            ExKind::Call(Func::Pow, args) => {
                let [base, exponent] = args.as_slice() else {
                    return None;
                };
                if exponent.ty != Ty::Int {
                    return self.root_bounds(base, exponent);
                }
                let e = self.int(exponent).ok()?;
                if !(0..=64).contains(&e) {
                    return None;
                }
                let [lo, hi] = self.bounds(base)?;
                let mut m = [1.0, 1.0];
                for _ in 0..e {
                    m = hull([m[0] * lo, m[0] * hi, m[1] * lo, m[1] * hi])?;
                }
                Some(m)
            }
            _ => None,
        }
    }

    /// Bounds on `pow(base, e)` for a literal exponent `e` of at most 64 (a fractional
    /// one: the power is irrational in general) and a base bounded within `2^±500`:
    /// `powf` is monotone on positive bases and within an ulp, and the exponent's own
    /// rounding moves the power by a relative `2^-53 * |e| * |ln base|`, below 1e-11; the
    /// bounds are widened by 1e-10 of their size for both.
    fn root_bounds(&self, base: &Ex, exponent: &Ex) -> Option<[f64; 2]> {
        const SLACK: f64 = 1e-10;
        let ExKind::Value(Value::Real(Real {
            approx: e,
            exact: Some(_),
        })) = exponent.kind
        else {
            return None;
        };
        let [lo, hi] = self.bounds(base)?;
        let range = f64::powi(2.0, -500)..=f64::powi(2.0, 500);
        if !(e.abs() <= 64.0 && range.contains(&lo) && range.contains(&hi)) {
            return None;
        }
        let (a, b) = (lo.powf(e), hi.powf(e));
        let (low, high) = (a.min(b), a.max(b));
        Some([low * (1.0 - SLACK), high * (1.0 + SLACK)])
    }

    /// The order of `a`, a fractional power `pow(x, p/q)` of a positive rational `x`
    /// (irrational in general), and `b`, a rational `c`, decided exactly: `x^(p/q)` and
    /// `c` are positive (or `c` is not), and raising both to the power `q` keeps their
    /// order, so it is that of `x^p` and `c^q`. `None` when `a` is not of that shape, or
    /// a number is too large to raise so (the comparison is then made as it would be
    /// otherwise). A model's `pow(x, 0.5) >= lambda` is so decided in every state.
    fn root_compare(&self, a: &Ex, b: &Ex) -> Option<Ordering> {
        let ExKind::Call(Func::Pow, args) = &a.kind else {
            return None;
        };
        let [base, exponent] = args.as_slice() else {
            return None;
        };
        if exponent.ty == Ty::Int {
            return None;
        }
        let e = self.exact(exponent).ok()?;
        if e.is_integer() {
            return None;
        }
        let x = self.exact(base).ok()?;
        if !x.is_positive() {
            return None;
        }
        let c = self.exact(b).ok()?;
        if !c.is_positive() {
            return Some(Ordering::Greater);
        }
        let (p, q) = (e.numer().to_i64()?, e.denom().to_i64()?);
        let span = a.span;
        let left = exact_pow(&x, p, span).ok()?;
        let right = exact_pow(&c, q, span).ok()?;
        Some(left.cmp(&right))
    }

    fn int(&self, ex: &Ex) -> R<i64> {
        let overflow = || EvalError::new(ex.span, "this int expression overflows 64 bits");
        match &ex.kind {
            ExKind::Value(Value::Int(i)) => Ok(*i),
            ExKind::Var(i) => self.var(*i, ex.span),
            ExKind::Exactly(a) => self.exactly().int(a),
            ExKind::Unary(UnOp::Neg, a) => self.int(a)?.checked_neg().ok_or_else(overflow),
            ExKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    _ => x.checked_mul(y),
                }
                .ok_or_else(overflow)
            }
            ExKind::Ite(c, a, b) => {
                if self.boolean(c)? {
                    self.int(a)
                } else {
                    self.int(b)
                }
            }
            ExKind::Call(f, args) => match (f, args.as_slice()) {
                (Func::Min | Func::Max, [first, rest @ ..]) => {
                    let mut m = self.int(first)?;
                    for a in rest {
                        let v = self.int(a)?;
                        m = if *f == Func::Min { m.min(v) } else { m.max(v) };
                    }
                    Ok(m)
                }
                (Func::Floor | Func::Ceil, [a]) => {
                    if a.ty == Ty::Int {
                        return self.int(a);
                    }
                    // A value with no rational form falls back on double precision.
                    if let (true, Ok(x)) = (self.exactly, self.exact(a)) {
                        let r = if *f == Func::Floor {
                            x.floor()
                        } else {
                            x.ceil()
                        };
                        return r.to_integer().to_i64().ok_or_else(|| {
                            EvalError::new(
                                ex.span,
                                format!("{r} is not an int: it is out of the 64-bit range"),
                            )
                        });
                    }
                    let x = self.float(a)?;
                    let r = if *f == Func::Floor {
                        x.floor()
                    } else {
                        x.ceil()
                    };
                    float_to_int(r, ex.span)
                }
                (Func::Pow, [a, b]) => int_pow(self.int(a)?, self.int(b)?, ex.span),
                (Func::Mod, [a, b]) => int_mod(self.int(a)?, self.int(b)?, ex.span),
                _ => Err(wrong_type(ex, "an int")),
            },
            _ => Err(wrong_type(ex, "an int")),
        }
    }

    fn float(&self, ex: &Ex) -> R<f64> {
        if ex.ty == Ty::Int {
            return Ok(self.int(ex)? as f64);
        }
        match &ex.kind {
            ExKind::Value(Value::Real(r)) => Ok(r.approx),
            ExKind::Value(Value::Int(i)) => Ok(*i as f64),
            ExKind::Unary(UnOp::Neg, a) => Ok(-self.float(a)?),
            ExKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let (x, y) = (self.float(a)?, self.float(b)?);
                Ok(match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    _ => x / y,
                })
            }
            ExKind::Ite(c, a, b) => {
                if self.boolean(c)? {
                    self.float(a)
                } else {
                    self.float(b)
                }
            }
            ExKind::Call(f, args) => match (f, args.as_slice()) {
                (Func::Min | Func::Max, [first, rest @ ..]) => {
                    let mut m = self.float(first)?;
                    for a in rest {
                        let v = self.float(a)?;
                        // NaN wins, as in Java's Math.min: a NaN must not vanish quietly.
                        m = if m.is_nan() || v.is_nan() {
                            f64::NAN
                        } else if (*f == Func::Min) == (v < m) {
                            v
                        } else {
                            m
                        };
                    }
                    Ok(m)
                }
                (Func::Pow, [a, b]) => Ok(self.float(a)?.powf(self.float(b)?)),
                (Func::Log, [a, b]) => {
                    let (x, base) = (self.float(a)?, self.float(b)?);
                    if x.is_nan() || x <= 0.0 {
                        return Err(EvalError::new(
                            ex.span,
                            format!("`log` needs a number above 0, found {x}"),
                        ));
                    }
                    if base.is_nan() || base <= 0.0 || base == 1.0 {
                        return Err(EvalError::new(
                            ex.span,
                            format!("`log` needs a base above 0 other than 1, found {base}"),
                        ));
                    }
                    Ok(x.ln() / base.ln())
                }
                _ => Err(wrong_type(ex, "a double")),
            },
            _ => Err(wrong_type(ex, "a number")),
        }
    }

    fn exact(&self, ex: &Ex) -> R<Exact> {
        if ex.ty == Ty::Int {
            return Ok(Exact::from_integer(BigInt::from(self.int(ex)?)));
        }
        match &ex.kind {
            ExKind::Value(Value::Real(r)) => r.exact.clone().ok_or_else(|| {
                EvalError::new(
                    ex.span,
                    format!(
                        "this value, {}, has no exact rational value (it comes from `log`, \
                         a power with a non-integer exponent or a division by zero)",
                        r.approx
                    ),
                )
            }),
            ExKind::Value(Value::Int(i)) => Ok(Exact::from_integer(BigInt::from(*i))),
            ExKind::Unary(UnOp::Neg, a) => Ok(-self.exact(a)?),
            ExKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let (x, y) = (self.exact(a)?, self.exact(b)?);
                Ok(match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    _ => {
                        if y.is_zero() {
                            return Err(EvalError::new(
                                ex.span,
                                "division by zero: the quotient has no exact value",
                            ));
                        }
                        x / y
                    }
                })
            }
            ExKind::Ite(c, a, b) => {
                if self.boolean(c)? {
                    self.exact(a)
                } else {
                    self.exact(b)
                }
            }
            ExKind::Call(f, args) => match (f, args.as_slice()) {
                (Func::Min | Func::Max, [first, rest @ ..]) => {
                    let mut m = self.exact(first)?;
                    for a in rest {
                        let v = self.exact(a)?;
                        if (*f == Func::Min) == (v < m) {
                            m = v;
                        }
                    }
                    Ok(m)
                }
                (Func::Pow, [a, b]) => {
                    // The exponent first: a fractional one fails at once, before a long
                    // base is worked out for nothing.
                    let exponent = if b.ty == Ty::Int {
                        self.int(b)?
                    } else {
                        let e = self.exact(b)?;
                        if !e.is_integer() {
                            return Err(EvalError::new(
                                ex.span,
                                format!(
                                    "a power with the non-integer exponent {e} is not rational \
                                     in general: it has no exact value"
                                ),
                            ));
                        }
                        e.to_integer().to_i64().ok_or_else(|| {
                            EvalError::new(ex.span, format!("the exponent {e} is too large"))
                        })?
                    };
                    exact_pow(&self.exact(a)?, exponent, ex.span)
                }
                (Func::Log, _) => Err(EvalError::new(
                    ex.span,
                    "`log` is not rational in general: it has no exact value",
                )),
                _ => Err(wrong_type(ex, "a double")),
            },
            _ => Err(wrong_type(ex, "a number")),
        }
    }
}

fn wrong_type(ex: &Ex, expected: &str) -> EvalError {
    let found = match ex.ty {
        Ty::Int => "an int",
        Ty::Real => "a double",
        Ty::Bool => "a bool",
    };
    EvalError::new(
        ex.span,
        format!("expected {expected} expression, this is {found}"),
    )
}

/// Compares an `i64` with an `f64` without the rounding of converting the integer.
fn compare_int_float(i: i64, x: f64) -> Option<Ordering> {
    if x.is_nan() {
        return None;
    }
    // 2^63 is exactly representable; every i64 is below it and at least -2^63.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if x >= TWO_63 {
        return Some(Ordering::Less);
    }
    if x < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let floor = x.floor();
    // In range, so the conversion is exact.
    match i.cmp(&(floor as i64)) {
        Ordering::Equal if x > floor => Some(Ordering::Less),
        other => Some(other),
    }
}

fn float_to_int(x: f64, span: Span) -> R<i64> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if x.is_finite() && (-TWO_63..TWO_63).contains(&x) {
        Ok(x as i64)
    } else {
        Err(EvalError::new(
            span,
            format!("{x} is not an int: it is out of the 64-bit range or not a number"),
        ))
    }
}

fn int_pow(base: i64, exponent: i64, span: Span) -> R<i64> {
    if exponent < 0 {
        return Err(EvalError::new(
            span,
            format!(
                "`pow` of two ints needs an exponent of at least 0, this one is {exponent} \
                 (write the base as a double, such as {base}.0, for a fraction)"
            ),
        ));
    }
    let overflow = || EvalError::new(span, "this power overflows 64 bits");
    match base {
        0 => Ok(if exponent == 0 { 1 } else { 0 }),
        1 => Ok(1),
        -1 => Ok(if exponent % 2 == 0 { 1 } else { -1 }),
        _ => {
            let e = u32::try_from(exponent).map_err(|_| overflow())?;
            base.checked_pow(e).ok_or_else(overflow)
        }
    }
}

fn int_mod(i: i64, n: i64, span: Span) -> R<i64> {
    if n == 0 {
        return Err(EvalError::new(span, format!("mod({i}, 0): modulo zero")));
    }
    // `checked_rem` fails only for i64::MIN and -1, whose remainder is 0.
    let r = i.checked_rem(n).unwrap_or(0);
    // The result takes the sign of `n`.
    Ok(if r != 0 && (r < 0) != (n < 0) {
        r + n
    } else {
        r
    })
}

fn exact_pow(base: &Exact, exponent: i64, span: Span) -> R<Exact> {
    if base.is_zero() {
        return match exponent.cmp(&0) {
            Ordering::Greater => Ok(Exact::zero()),
            Ordering::Equal => Ok(Exact::one()),
            Ordering::Less => Err(EvalError::new(
                span,
                "0 to a negative power divides by zero: it has no exact value",
            )),
        };
    }
    if base.abs().is_one() {
        return Ok(if base.is_negative() && exponent % 2 != 0 {
            -Exact::one()
        } else {
            Exact::one()
        });
    }
    let bits = base.numer().bits().max(base.denom().bits());
    let too_large = || {
        EvalError::new(
            span,
            format!("{base} to the power {exponent} is too large to compute exactly"),
        )
    };
    if bits.saturating_mul(exponent.unsigned_abs()) > MAX_POWER_BITS {
        return Err(too_large());
    }
    // The bound above keeps the exponent well within i32.
    let e = i32::try_from(exponent).map_err(|_| too_large())?;
    Ok(base.pow(e))
}

/// The exact value of a decimal literal as written (`0.1` is 1/10, `1e-3` is 1/1000);
/// `None` when the text is not a plain decimal or its exponent is absurdly large.
pub fn parse_decimal(text: &str) -> Option<Exact> {
    let text = text.trim();
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole
        .bytes()
        .chain(frac.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits = format!("{whole}{frac}");
    let numer: BigInt = if digits.is_empty() {
        BigInt::zero()
    } else {
        digits.parse().ok()?
    };
    let scale = exponent.checked_sub(i64::try_from(frac.len()).ok()?)?;
    if scale.unsigned_abs() > 100_000 {
        return None;
    }
    let power = BigInt::from(10u32).pow(u32::try_from(scale.unsigned_abs()).ok()?);
    Some(if scale >= 0 {
        Exact::from_integer(numer * power)
    } else {
        Exact::new(numer, power)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{BinOp, Func, UnOp};
    use proptest::prelude::*;

    fn sp() -> Span {
        Span::new(3, 4)
    }

    fn int(i: i64) -> Ex {
        Ex {
            kind: ExKind::Value(Value::Int(i)),
            ty: Ty::Int,
            span: sp(),
        }
    }

    fn real(text: &str) -> Ex {
        Ex {
            kind: ExKind::Value(Value::Real(Real {
                approx: text.parse().unwrap(),
                exact: parse_decimal(text),
            })),
            ty: Ty::Real,
            span: sp(),
        }
    }

    fn boolean(b: bool) -> Ex {
        Ex {
            kind: ExKind::Value(Value::Bool(b)),
            ty: Ty::Bool,
            span: sp(),
        }
    }

    fn var(i: u32, ty: Ty) -> Ex {
        Ex {
            kind: ExKind::Var(i),
            ty,
            span: sp(),
        }
    }

    fn numeric(a: &Ex, b: &Ex) -> Ty {
        if a.ty == Ty::Int && b.ty == Ty::Int {
            Ty::Int
        } else {
            Ty::Real
        }
    }

    fn bin(op: BinOp, a: Ex, b: Ex) -> Ex {
        let ty = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => numeric(&a, &b),
            BinOp::Div => Ty::Real,
            _ => Ty::Bool,
        };
        Ex {
            kind: ExKind::Binary(op, Box::new(a), Box::new(b)),
            ty,
            span: sp(),
        }
    }

    fn call(f: Func, args: Vec<Ex>) -> Ex {
        let all_int = args.iter().all(|a| a.ty == Ty::Int);
        let ty = match f {
            Func::Floor | Func::Ceil | Func::Mod => Ty::Int,
            Func::Log => Ty::Real,
            _ if all_int => Ty::Int,
            _ => Ty::Real,
        };
        Ex {
            kind: ExKind::Call(f, args),
            ty,
            span: sp(),
        }
    }

    fn neg(a: Ex) -> Ex {
        let ty = a.ty;
        Ex {
            kind: ExKind::Unary(UnOp::Neg, Box::new(a)),
            ty,
            span: sp(),
        }
    }

    fn ite(c: Ex, a: Ex, b: Ex) -> Ex {
        let ty = if a.ty == Ty::Bool {
            Ty::Bool
        } else {
            numeric(&a, &b)
        };
        Ex {
            kind: ExKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
            ty,
            span: sp(),
        }
    }

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(parse_decimal("0.1"), Some(q(1, 10)));
        assert_eq!(parse_decimal("1e-3"), Some(q(1, 1000)));
        assert_eq!(parse_decimal("2.5E2"), Some(q(250, 1)));
        assert_eq!(parse_decimal(".5"), Some(q(1, 2)));
        assert_eq!(parse_decimal("3."), Some(q(3, 1)));
        assert_eq!(parse_decimal("1.25e+1"), Some(q(25, 2)));
        assert_eq!(parse_decimal("abc"), None);
        assert_eq!(parse_decimal("."), None);
        assert_eq!(parse_decimal("1e999999999"), None);
    }

    #[test]
    fn int_and_real_mix() {
        let e = bin(BinOp::Add, int(1), real("0.5"));
        assert_eq!(e.ty, Ty::Real);
        assert_eq!(eval_f64(&e, &[]).unwrap(), 1.5);
        assert_eq!(eval_exact(&e, &[]).unwrap(), q(3, 2));
        let e = bin(BinOp::Mul, int(6), int(7));
        assert_eq!(eval(&e, &[]).unwrap(), Value::Int(42));
        let e = bin(BinOp::Div, int(7), int(2));
        assert_eq!(
            eval(&e, &[]).unwrap(),
            Value::Real(Real {
                approx: 3.5,
                exact: Some(q(7, 2))
            })
        );
        // 0.1 + 0.2 is exactly 3/10, and about 0.30000000000000004.
        let e = bin(BinOp::Add, real("0.1"), real("0.2"));
        assert_eq!(eval_exact(&e, &[]).unwrap(), q(3, 10));
        assert_eq!(eval_f64(&e, &[]).unwrap(), 0.1 + 0.2);
    }

    fn exactly(a: Ex) -> Ex {
        Ex {
            ty: a.ty,
            span: a.span,
            kind: ExKind::Exactly(Box::new(a)),
        }
    }

    #[test]
    fn bounds_read_faithful_literals() {
        // `0.3 - 0.1 - 0.2` folded in f64: some 5.5e-17 where it is exactly 0.
        let folded = || Ex {
            kind: ExKind::Value(Value::Real(Real {
                approx: 0.3 - 0.1 - 0.2,
                exact: Some(Exact::zero()),
            })),
            ty: Ty::Real,
            span: sp(),
        };
        let mut e = exactly(bin(BinOp::Gt, folded(), int(0)));
        assert!(!eval_bool(&e, &[]).unwrap());
        faithful_reals(&mut e);
        assert!(!Context::new(&[])
            .with_faithful_reals()
            .eval_bool(&e)
            .unwrap());
        let mut e = exactly(bin(BinOp::Eq, folded(), int(0)));
        faithful_reals(&mut e);
        assert!(Context::new(&[])
            .with_faithful_reals()
            .eval_bool(&e)
            .unwrap());
        // Far apart, bounds decide; close, the exact values do.
        let cx = Context::new(&[]).with_faithful_reals();
        let sum = bin(BinOp::Add, real("0.1"), real("0.2"));
        assert_eq!(
            cx.bounds(&sum).map(|[lo, hi]| lo < 0.3 && 0.3 < hi),
            Some(true)
        );
        assert!(cx
            .eval_bool(&exactly(bin(BinOp::Eq, sum.clone(), real("0.3"))))
            .unwrap());
        assert!(!cx
            .eval_bool(&exactly(bin(BinOp::Gt, sum, real("0.3"))))
            .unwrap());
        let ratio = bin(
            BinOp::Div,
            int(1),
            bin(BinOp::Sub, real("0.5"), real("0.5")),
        );
        assert_eq!(cx.bounds(&ratio), None);
    }

    #[test]
    fn fractional_powers_compare_exactly() {
        let p = |a: Ex, b: Ex| call(Func::Pow, vec![a, b]);
        // sqrt(1 + 1e-17) is above 1, though in double precision it is 1.
        let above = p(real("1.00000000000000001"), real("0.5"));
        let e = bin(BinOp::Ge, above.clone(), real("1.0"));
        assert!(eval_bool(&e, &[]).unwrap());
        let e = bin(BinOp::Gt, above.clone(), int(1));
        assert!(!eval_bool(&e, &[]).unwrap());
        assert!(eval_bool(&exactly(e), &[]).unwrap());
        // Either side; a perfect square is equal; a negative or zero bound is below.
        let e = bin(BinOp::Lt, int(1), above.clone());
        assert!(eval_bool(&exactly(e), &[]).unwrap());
        let e = bin(BinOp::Eq, p(real("0.25"), real("0.5")), real("0.5"));
        assert!(eval_bool(&exactly(e), &[]).unwrap());
        let e = bin(BinOp::Gt, above, real("-2"));
        assert!(eval_bool(&exactly(e), &[]).unwrap());
        // Cube roots and negative exponents: 8^(2/3) = 4 and 8^(-1/3) = 1/2.
        let third = bin(BinOp::Div, int(1), int(3));
        let two_thirds = bin(BinOp::Div, int(2), int(3));
        let e = bin(BinOp::Eq, p(int(8), two_thirds), int(4));
        assert!(eval_bool(&exactly(e), &[]).unwrap());
        let e = bin(BinOp::Eq, p(int(8), neg(third.clone())), real("0.5"));
        assert!(eval_bool(&exactly(e), &[]).unwrap());
        // A negative base has no real root: compared in double precision (NaN: false).
        let e = bin(BinOp::Ge, p(real("-8.0"), third), real("-3"));
        assert!(!eval_bool(&exactly(e), &[]).unwrap());
        // Against the double root, over many cases away from ties.
        for x in 1..60 {
            for c in 1..20 {
                let (xq, cq) = (q(x, 7), q(c, 5));
                let root = (x as f64 / 7.0).sqrt();
                let e = bin(
                    BinOp::Lt,
                    p(bin(BinOp::Div, int(x), int(7)), real("0.5")),
                    bin(BinOp::Div, int(c), int(5)),
                );
                let exact = xq < cq.clone() * cq;
                assert_eq!(eval_bool(&exactly(e), &[]).unwrap(), exact, "{x}/7 {c}/5");
                if (root - c as f64 / 5.0).abs() > 1e-9 {
                    assert_eq!(exact, root < c as f64 / 5.0);
                }
            }
        }
    }

    #[test]
    fn comparisons_mix_numerically() {
        let e = bin(BinOp::Lt, int(1), real("1.5"));
        assert!(eval_bool(&e, &[]).unwrap());
        let e = bin(BinOp::Eq, int(2), real("2.0"));
        assert!(eval_bool(&e, &[]).unwrap());
        let e = bin(BinOp::Ge, real("2.5"), var(0, Ty::Int));
        assert!(eval_bool(&e, &[2]).unwrap());
        assert!(!eval_bool(&e, &[3]).unwrap());
        // Precision beyond f64: 2^53 + 1 is above the double 2^53.
        assert_eq!(
            compare_int_float((1 << 53) + 1, 9_007_199_254_740_992.0),
            Some(Ordering::Greater)
        );
        assert_eq!(compare_int_float(i64::MAX, 9.3e18), Some(Ordering::Less));
        assert_eq!(compare_int_float(0, f64::NAN), None);
        let nan = bin(BinOp::Div, int(0), int(0));
        assert!(!eval_bool(&bin(BinOp::Eq, nan.clone(), nan.clone()), &[]).unwrap());
        assert!(eval_bool(&bin(BinOp::Ne, nan.clone(), int(1)), &[]).unwrap());
        assert!(!eval_bool(&bin(BinOp::Lt, nan, int(1)), &[]).unwrap());
    }

    #[test]
    fn bools() {
        let b = var(0, Ty::Bool);
        let e = bin(BinOp::Eq, b.clone(), boolean(true));
        assert!(eval_bool(&e, &[1]).unwrap());
        assert!(!eval_bool(&e, &[0]).unwrap());
        let e = bin(BinOp::Iff, b.clone(), boolean(false));
        assert!(eval_bool(&e, &[0]).unwrap());
        let e = bin(BinOp::Implies, boolean(false), boolean(false));
        assert!(eval_bool(&e, &[]).unwrap());
        // The right operand is not evaluated when the left one decides.
        let bad = bin(BinOp::Eq, call(Func::Mod, vec![int(1), int(0)]), int(0));
        let e = bin(BinOp::And, boolean(false), bad.clone());
        assert!(!eval_bool(&e, &[]).unwrap());
        let e = bin(BinOp::Or, boolean(true), bad.clone());
        assert!(eval_bool(&e, &[]).unwrap());
        assert!(eval_bool(&bin(BinOp::And, boolean(true), bad), &[]).is_err());
    }

    #[test]
    fn mod_has_the_sign_of_the_divisor() {
        let m = |i, n| eval_int(&call(Func::Mod, vec![int(i), int(n)]), &[]);
        assert_eq!(m(7, 3).unwrap(), 1);
        assert_eq!(m(-1, 3).unwrap(), 2);
        assert_eq!(m(-6, 3).unwrap(), 0);
        assert_eq!(m(7, -3).unwrap(), -2);
        assert_eq!(m(-7, -3).unwrap(), -1);
        assert_eq!(m(i64::MIN, -1).unwrap(), 0);
        assert_eq!(m(i64::MIN, i64::MAX).unwrap(), i64::MAX - 1);
        let e = m(5, 0).unwrap_err();
        assert_eq!(e.span, sp());
        assert!(e.message.contains("modulo zero"), "{}", e.message);
    }

    #[test]
    fn powers() {
        let p = |a: Ex, b: Ex| call(Func::Pow, vec![a, b]);
        assert_eq!(eval(&p(int(2), int(10)), &[]).unwrap(), Value::Int(1024));
        assert_eq!(eval_int(&p(int(-1), int(i64::MAX)), &[]).unwrap(), -1);
        assert_eq!(eval_int(&p(int(0), int(0)), &[]).unwrap(), 1);
        assert!(eval_int(&p(int(2), int(-1)), &[])
            .unwrap_err()
            .message
            .contains("at least 0"));
        assert!(eval_int(&p(int(2), int(63)), &[])
            .unwrap_err()
            .message
            .contains("overflows"));
        assert_eq!(eval_int(&p(int(2), int(62)), &[]).unwrap(), 1 << 62);
        let e = p(real("0.5"), int(-2));
        assert_eq!(e.ty, Ty::Real);
        assert_eq!(eval_f64(&e, &[]).unwrap(), 4.0);
        assert_eq!(eval_exact(&e, &[]).unwrap(), q(4, 1));
        let e = p(int(2), real("3.0"));
        assert_eq!(eval_exact(&e, &[]).unwrap(), q(8, 1));
        let e = p(int(4), real("0.5"));
        assert_eq!(eval_f64(&e, &[]).unwrap(), 2.0);
        assert!(eval_exact(&e, &[])
            .unwrap_err()
            .message
            .contains("non-integer exponent"));
        assert!(
            eval(&e, &[]).unwrap()
                == Value::Real(Real {
                    approx: 2.0,
                    exact: None
                })
        );
        let e = p(real("1.5"), int(100_000_000));
        assert!(eval_exact(&e, &[])
            .unwrap_err()
            .message
            .contains("too large"));
        let e = p(real("0.0"), int(-1));
        assert_eq!(eval_f64(&e, &[]).unwrap(), f64::INFINITY);
        assert!(eval_exact(&e, &[]).is_err());
    }

    #[test]
    fn floor_ceil_min_max() {
        let f = call(Func::Floor, vec![real("-2.5")]);
        assert_eq!(f.ty, Ty::Int);
        assert_eq!(eval(&f, &[]).unwrap(), Value::Int(-3));
        assert_eq!(eval_exact(&f, &[]).unwrap(), q(-3, 1));
        let c = call(Func::Ceil, vec![real("2.1")]);
        assert_eq!(eval_int(&c, &[]).unwrap(), 3);
        assert_eq!(eval_int(&call(Func::Ceil, vec![int(4)]), &[]).unwrap(), 4);
        let huge = call(Func::Floor, vec![real("1e30")]);
        assert!(eval_int(&huge, &[]).is_err());
        let m = call(Func::Min, vec![int(3), var(0, Ty::Int), int(5)]);
        assert_eq!(m.ty, Ty::Int);
        assert_eq!(eval_int(&m, &[1]).unwrap(), 1);
        assert_eq!(eval_int(&m, &[9]).unwrap(), 3);
        let m = call(Func::Max, vec![int(3), real("3.5")]);
        assert_eq!(m.ty, Ty::Real);
        assert_eq!(eval_f64(&m, &[]).unwrap(), 3.5);
        assert_eq!(eval_exact(&m, &[]).unwrap(), q(7, 2));
    }

    #[test]
    fn division_and_log() {
        let e = bin(BinOp::Div, int(1), int(0));
        assert_eq!(eval_f64(&e, &[]).unwrap(), f64::INFINITY);
        assert!(eval_exact(&e, &[])
            .unwrap_err()
            .message
            .contains("division by zero"));
        let l = call(Func::Log, vec![int(8), int(2)]);
        assert!((eval_f64(&l, &[]).unwrap() - 3.0).abs() < 1e-12);
        assert!(eval_exact(&l, &[]).is_err());
        assert!(eval_f64(&call(Func::Log, vec![int(0), int(2)]), &[]).is_err());
        assert!(eval_f64(&call(Func::Log, vec![int(3), int(1)]), &[]).is_err());
        assert!(eval_f64(&call(Func::Log, vec![real("-1.0"), int(2)]), &[]).is_err());
    }

    #[test]
    fn overflow_is_an_error_not_a_panic() {
        let e = bin(BinOp::Add, int(i64::MAX), int(1));
        assert!(eval_int(&e, &[]).unwrap_err().message.contains("overflow"));
        let e = neg(int(i64::MIN));
        assert!(eval_int(&e, &[]).is_err());
        let e = bin(BinOp::Mul, var(0, Ty::Int), int(3));
        assert!(eval_int(&e, &[i64::MAX / 2]).is_err());
        // A variable missing from the state.
        assert!(eval_int(&var(5, Ty::Int), &[1]).is_err());
    }

    #[test]
    fn ite_and_types() {
        let e = ite(var(0, Ty::Bool), int(1), real("0.5"));
        assert_eq!(e.ty, Ty::Real);
        assert_eq!(eval_f64(&e, &[1]).unwrap(), 1.0);
        assert_eq!(eval_exact(&e, &[0]).unwrap(), q(1, 2));
        assert!(eval_int(&e, &[1]).is_err());
        assert!(eval_bool(&int(1), &[]).is_err());
        assert!(eval_f64(&boolean(true), &[]).is_err());
    }

    #[test]
    fn specials_need_a_context() {
        let init = Ex {
            kind: ExKind::Initial,
            ty: Ty::Bool,
            span: sp(),
        };
        let dead = Ex {
            kind: ExKind::Deadlock,
            ty: Ty::Bool,
            span: sp(),
        };
        assert!(eval_bool(&init, &[]).is_err());
        let ctx = Context::new(&[]).with_initial(true).with_deadlock(false);
        assert!(ctx.eval_bool(&init).unwrap());
        assert!(!ctx.eval_bool(&dead).unwrap());
        assert!(ctx.eval_bool(&dead).is_ok());
        assert!(Context::new(&[])
            .with_initial(true)
            .eval_bool(&dead)
            .is_err());
    }

    /// Random numeric expressions over small rationals: `+ - * / min max ite pow`.
    fn rational_expr() -> impl Strategy<Value = Ex> {
        let leaf = prop_oneof![
            (-20i64..20).prop_map(int),
            (0i64..200, 0u32..3, any::<bool>()).prop_map(|(m, scale, negative)| {
                let r = real(&format!("{m}e-{scale}"));
                if negative {
                    neg(r)
                } else {
                    r
                }
            }),
        ];
        leaf.prop_recursive(5, 40, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Add, a, b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Sub, a, b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Mul, a, b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Div, a, b)),
                inner.clone().prop_map(neg),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| call(Func::Min, vec![a, b])),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| call(Func::Max, vec![a, b])),
                (inner.clone(), 0i64..4).prop_map(|(a, k)| call(Func::Pow, vec![a, int(k)])),
                (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| ite(
                    bin(BinOp::Lt, c, int(0)),
                    a,
                    b
                )),
            ]
        })
    }

    /// Whether double rounding stays small in `e`: no intermediate value above 1e4, no
    /// division by anything below 0.5 in size (cancellation could otherwise blow a
    /// rounding error up arbitrarily).
    fn well_conditioned(e: &Ex) -> bool {
        let Ok(x) = eval_f64(e, &[]) else {
            return false;
        };
        let children: Vec<&Ex> = match &e.kind {
            ExKind::Unary(_, a) => vec![a],
            ExKind::Binary(op, a, b) => {
                if *op == BinOp::Div && eval_f64(b, &[]).map_or(true, |d| d.abs() < 0.5) {
                    return false;
                }
                vec![a, b]
            }
            ExKind::Ite(c, a, b) => vec![c, a, b],
            ExKind::Call(_, args) => args.iter().collect(),
            _ => vec![],
        };
        x.abs() <= 1e4
            && children
                .into_iter()
                .all(|c| c.ty == Ty::Bool || well_conditioned(c))
    }

    proptest! {
        #[test]
        fn exact_agrees_with_f64(e in rational_expr()) {
            let float = eval_f64(&e, &[]);
            let exact = eval_exact(&e, &[]);
            match (float, exact) {
                (Ok(x), Ok(q)) => {
                    let y = alea_core::Value::to_f64(&q);
                    if well_conditioned(&e) {
                        prop_assert!(
                            (x - y).abs() <= 1e-6 * (1.0 + y.abs()),
                            "f64 {} vs exact {} ({})", x, q, y
                        );
                    }
                }
                // An exact failure must come from a division by zero (or a too large
                // power), which double arithmetic turns into inf or NaN.
                (Ok(x), Err(err)) => prop_assert!(
                    !x.is_finite() || err.message.contains("division by zero")
                        || err.message.contains("negative power")
                        || err.message.contains("too large"),
                    "{} / {}", x, err.message
                ),
                (Err(err), _) => prop_assert!(err.message.contains("overflow"), "{}", err.message),
            }
        }

        /// Decisions tried on bounds in `f64` first are those made on exact values, on
        /// sums that cancel (`a - b` against `c`, where `a - b` is often near or at `c`)
        /// and on literals whose double value was folded apart from the exact one.
        #[test]
        fn bounds_decide_as_exact_values(
            a in rational_expr(),
            b in rational_expr(),
            c in rational_expr(),
            drift in -3i32..3,
            op in prop_oneof![Just(BinOp::Lt), Just(BinOp::Le), Just(BinOp::Eq), Just(BinOp::Ge)],
        ) {
            let mut left = bin(BinOp::Sub, a.clone(), b);
            // A literal whose double value is off its exact one, as a constant folded in
            // `f64` can be.
            left.visit_mut(&mut |e| {
                if let ExKind::Value(Value::Real(r)) = &mut e.kind {
                    for _ in 0..drift.unsigned_abs() {
                        r.approx = if drift > 0 { r.approx.next_up() } else { r.approx.next_down() };
                    }
                }
            });
            for right in [c, a] {
                // Where a side has no exact value, the double one decides, and that
                // reads the literals' double values, which differ here on purpose.
                if eval_exact(&left, &[]).is_err() || eval_exact(&right, &[]).is_err() {
                    continue;
                }
                let mut e = exactly(bin(op, left.clone(), right));
                let plain = Context::new(&[]).eval_bool(&e);
                faithful_reals(&mut e);
                let filtered = Context::new(&[]).with_faithful_reals().eval_bool(&e);
                prop_assert_eq!(plain.is_ok(), filtered.is_ok());
                if let (Ok(x), Ok(y)) = (plain, filtered) {
                    prop_assert_eq!(x, y);
                }
            }
        }

        #[test]
        fn full_eval_matches_typed(e in rational_expr()) {
            if let (Ok(v), Ok(x)) = (eval(&e, &[]), eval_f64(&e, &[])) {
                match v {
                    Value::Int(i) => prop_assert_eq!(i as f64, x),
                    Value::Real(r) => {
                        prop_assert!(r.approx == x || (r.approx.is_nan() && x.is_nan()));
                        prop_assert_eq!(r.exact, eval_exact(&e, &[]).ok());
                    }
                    Value::Bool(_) => prop_assert!(false),
                }
            }
        }
    }
}
