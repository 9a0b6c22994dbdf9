//! Answers properties on an explored model. A property is a state formula (see
//! [`formula`]); each operator in it becomes one of the engine's questions on the
//! explicit form (reach a set through another, within a window of steps or at all; the
//! reward gathered until a set is reached or within k steps; the paths of `E` and `A`),
//! answered for every state; a filter then reduces values over a set of states.

mod formula;
mod ltl;
mod multi;
mod paths;

use alea_core::form::{ExactRewards, Form, Rewards};
use alea_core::solve::{self, Answer, Context, ExactAnswer, Goal};
use alea_core::{Exact, Stop};
use num_traits::{ToPrimitive, Zero};

use formula::Evaluator;
pub use formula::{Item, Reduced, Values};

use crate::ast::{
    BinOp, Coalition, Expr, ExprKind, FilterOp, Missed, ModelType, NamedProperty, Operator, Opt,
    Path, PlayerRef, Query, Rel, Temporal, UnOp,
};
use crate::error::{Error, Span};
use crate::explore::Explored;
use crate::program::{Ex, ExKind, Program, Ty};
use crate::resolve::Scope;

/// How the numbers are computed.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rationals from the literals on, proven; otherwise `f64` with a certified bound.
    pub exact: bool,
    /// The largest error allowed in `f64`: absolute, relative for values above 1.
    pub precision: f64,
    /// In an mdp, only the fair strategies count, as under PRISM's `-fair`: those that
    /// take every choice of a state they visit infinitely often infinitely often. It
    /// changes the least probability of an unbounded until or eventually (and so the
    /// greatest of `G`, `W` and `R`); bounded paths, rewards and `A`/`E` are unchanged.
    pub fair: bool,
    /// Raised, it stops a check part way (a deadline, Ctrl-C).
    pub stop: Stop,
}

/// Why a property could not be answered.
#[derive(Debug)]
pub enum CheckError {
    /// The property is wrong for this model (a span in the property's text).
    Property(Error),
    /// The engine stopped (a guard, or a precision it could not reach).
    Engine(alea_core::Error),
    /// A bound query whose value is within its error bound of the bound: exact
    /// arithmetic (or a finer precision) can tell.
    Undecided(Error),
}

impl From<Error> for CheckError {
    fn from(e: Error) -> Self {
        CheckError::Property(e)
    }
}

impl From<alea_core::Error> for CheckError {
    fn from(e: alea_core::Error) -> Self {
        CheckError::Engine(e)
    }
}

pub type Result<T> = std::result::Result<T, CheckError>;

/// One number: `f64` with the absolute bound on its error, or exact (`None` stands for
/// infinity in both).
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    Float { value: f64, error_bound: f64 },
    Exact(Option<Exact>),
}

impl Number {
    /// Whether the value is 0 (as computed: a bound may still reach past it).
    pub fn is_zero(&self) -> bool {
        match self {
            Number::Float { value, .. } => *value == 0.0,
            Number::Exact(q) => q.as_ref().is_some_and(Zero::is_zero),
        }
    }

    pub fn is_infinite(&self) -> bool {
        match self {
            Number::Float { value, .. } => value.is_infinite(),
            Number::Exact(q) => q.is_none(),
        }
    }

    /// The value in `f64` (infinity when infinite).
    pub fn to_f64(&self) -> f64 {
        match self {
            Number::Float { value, .. } => *value,
            Number::Exact(Some(q)) => q.to_f64().unwrap_or(f64::NAN),
            Number::Exact(None) => f64::INFINITY,
        }
    }

    /// An exact number as `f64`, its bound covering the rounding.
    pub fn rounded(self) -> Number {
        match self {
            Number::Exact(Some(q)) => {
                let value = q.to_f64().unwrap_or(f64::NAN);
                Number::Float {
                    value,
                    error_bound: value.abs() * f64::EPSILON,
                }
            }
            Number::Exact(None) => Number::Float {
                value: f64::INFINITY,
                error_bound: 0.0,
            },
            float => float,
        }
    }

    /// The absolute bound on the error of [`Number::to_f64`] against the true value (0
    /// when exact: the rounding to `f64` aside).
    pub fn error_bound(&self) -> f64 {
        match self {
            Number::Float { error_bound, .. } => *error_bound,
            Number::Exact(_) => 0.0,
        }
    }
}

/// The values of every state.
#[derive(Clone, Debug)]
pub enum StateValues {
    Float(Answer),
    Exact(ExactAnswer),
}

/// A query answered for every state, with what it takes to value each choice of a state.
#[derive(Clone, Debug)]
pub struct Solved {
    pub values: StateValues,
    /// Whether choices minimise or maximise; `None` in a Markov chain.
    pub goal: Option<Goal>,
    /// The rewards of an expected-reward query (empty for a probability).
    pub rewards: Option<Gathered>,
    /// States whose value is fixed, not chosen (targets, and states that have failed).
    pub fixed: Vec<bool>,
    /// In a game, the states whose player is not in the coalition and chooses against
    /// `goal`; empty otherwise.
    pub against: Vec<bool>,
}

/// The rewards a query gathers, in the arithmetic it was solved in.
#[derive(Clone, Debug)]
pub enum Gathered {
    Float(Rewards),
    Exact(ExactRewards),
}

/// A property answered: the number it asks for (or whether it holds), and for a query
/// its values in every state.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// `None` for a property that is only true or false (`E [F a]`, `x=1 & P>0 [...]`,
    /// `filter(forall, ...)`) and for a range.
    pub value: Option<Number>,
    /// The values of the query the property is (absent for other properties).
    pub solved: Option<Solved>,
    /// Whether a true/false property holds: a bound query (`P>=0.9 [...]`) in every
    /// initial state (then `value` is the value of the initial state furthest on the
    /// wrong side), or any other in every initial state.
    pub holds: Option<bool>,
    /// For `filter(range, ...)`: the least and the greatest value.
    pub range: Option<(Number, Number)>,
    /// The states a filter lists (`print`, `printall`: with their values; `argmin`,
    /// `argmax`: the states of the set, each `true`), by the variables' values.
    pub listed: Vec<(u32, Item)>,
    /// The automaton of each LTL formula answered, with its product's size.
    pub automata: Vec<AutomatonSize>,
    /// A multi-objective query with two `=?`: the corners of the Pareto curve of the two,
    /// from the best first objective to the best second (the curve joins them by
    /// segments).
    pub pareto: Vec<(Number, Number)>,
    /// A multi-objective query whose bounds no strategy meets: its `=?` has no value.
    pub infeasible: bool,
}

/// An LTL formula's automaton: its states that the product met, the product's states,
/// and whether it is a finite automaton (a co-safe formula) or a limit-deterministic one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AutomatonSize {
    pub states: usize,
    pub product_states: usize,
    pub finite: bool,
}

impl Checked {
    /// An exact answer as `f64`, its bound covering the rounding; the values of every
    /// state stay exact.
    pub fn rounded(self) -> Checked {
        Checked {
            value: self.value.map(Number::rounded),
            range: self.range.map(|(lo, hi)| (lo.rounded(), hi.rounded())),
            pareto: self
                .pareto
                .into_iter()
                .map(|(a, b)| (a.rounded(), b.rounded()))
                .collect(),
            listed: self
                .listed
                .into_iter()
                .map(|(s, item)| match item {
                    Item::Number(n) => (s, Item::Number(n.rounded())),
                    other => (s, other),
                })
                .collect(),
            ..self
        }
    }
}

/// Answers `property` on the explored model; `named` are the properties of its file,
/// which it may name in quotes.
pub fn check(
    program: &Program,
    explored: &Explored,
    scope: &Scope,
    named: &[NamedProperty],
    property: &Expr,
    settings: &Settings,
) -> Result<Checked> {
    let mut ev = Evaluator {
        program,
        explored,
        scope,
        named,
        settings,
        within: Vec::new(),
        automata: Vec::new(),
    };
    let mut checked = answer(&mut ev, explored, scope, property)?;
    checked.automata = std::mem::take(&mut ev.automata);
    Ok(checked)
}

/// [`check`]'s answer, by `ev`.
fn answer(
    ev: &mut Evaluator,
    explored: &Explored,
    scope: &Scope,
    property: &Expr,
) -> Result<Checked> {
    let span = property.span;
    if let ExprKind::Operator(op) = &property.kind {
        match &**op {
            Operator::Query {
                op,
                path,
                bound: None,
                coalition,
            } => {
                let solved = ev.query(op, path, span, None, coalition.as_ref())?;
                let value = at_initial(explored, &solved, span)?;
                return Ok(Checked {
                    value: Some(value),
                    solved: Some(solved),
                    ..Default::default()
                });
            }
            Operator::Query {
                op,
                path,
                bound: Some(bound),
                coalition,
            } => {
                let threshold = scope.threshold(&bound.threshold)?;
                let solved = ev.query(op, path, span, Some(bound.rel), coalition.as_ref())?;
                let (value, holds) = judge(explored, &solved, bound.rel, &threshold, span)?;
                return Ok(Checked {
                    value: Some(value),
                    solved: Some(solved),
                    holds: Some(holds),
                    ..Default::default()
                });
            }
            Operator::Filter {
                op,
                property,
                states,
            } => {
                let mut checked = Checked::default();
                match ev.filter(*op, property, states.as_ref(), span)? {
                    // The property's answer, as if unfiltered, with the states listed.
                    Reduced::Listed(values, listed) => {
                        checked = Checked {
                            listed,
                            ..at_initial_states(explored, values, span)?
                        };
                    }
                    Reduced::Bool(b) => checked.holds = Some(b),
                    Reduced::Number(x) => checked.value = Some(x),
                    Reduced::Range(lo, hi) => checked.range = Some((lo, hi)),
                    Reduced::States(v) => {
                        checked.holds = Some(explored.form.initial.iter().all(|&s| v[s as usize]));
                        checked.listed = (0..v.len())
                            .filter(|&s| v[s])
                            .map(|s| (s as u32, Item::Bool(true)))
                            .collect();
                    }
                }
                // In PRISM's order of states: by the variables' values.
                checked
                    .listed
                    .sort_by_cached_key(|&(s, _)| explored.valuation(s));
                return Ok(checked);
            }
            Operator::Multi { objectives } => return ev.multi(objectives, span),
            Operator::Quantified { .. } => {}
        }
    }
    // Any other state formula: its value in the initial states.
    at_initial_states(explored, ev.values(property)?, span)
}

/// A state formula's answer from its values: whether it holds in every initial state, or
/// its value there.
fn at_initial_states(explored: &Explored, values: Values, span: Span) -> Result<Checked> {
    let initial = &explored.form.initial;
    Ok(match values {
        Values::Bool(v) => Checked {
            holds: Some(initial.iter().all(|&s| v[s as usize])),
            ..Default::default()
        },
        Values::Number(v) => {
            let numbers = initial.iter().map(|&s| v[s as usize].clone()).collect();
            Checked {
                value: Some(at_initial_values(numbers, span)?),
                ..Default::default()
            }
        }
    })
}

/// A property as a question for a checker that keeps the model elsewhere (alea's
/// cluster), with the bound its values are judged against.
#[derive(Clone, Debug)]
pub struct Plan {
    pub question: Question,
    pub bound: Option<(Rel, Exact)>,
    pub span: Span,
    /// A filter's reduction of the values over a set of states (`None`: all states).
    pub filter: Option<(FilterOp, Option<Ex>)>,
    /// Where the filter's states are written, for the error when there are none.
    filter_span: Span,
}

/// The plan of `property` for a checker that keeps the model elsewhere: a query of `F`
/// or `U` (within `k` steps or not) over expressions of the state, with or without a
/// bound, or a filter of such a query.
pub fn plan(program: &Program, scope: &Scope, property: &Expr) -> Result<Plan> {
    let span = property.span;
    let ExprKind::Operator(op) = &property.kind else {
        return Err(beyond_plans(span));
    };
    match &**op {
        Operator::Query {
            coalition: Some(c), ..
        } => Err(Error::new(
            c.span,
            "with --cluster alea checks mdps and dtmcs, not the coalitions of a game yet; \
             check this property without --cluster",
        )
        .into()),
        Operator::Query {
            op,
            path,
            bound,
            coalition: None,
        } => {
            let (op, bound) = match bound {
                None => (op.clone(), None),
                Some(b) => (
                    bounded_goal(program, op, b.rel, false),
                    Some((b.rel, scope.threshold(&b.threshold)?)),
                ),
            };
            Ok(Plan {
                question: question(program, scope, (&op, path, span))?,
                bound,
                span,
                filter: None,
                filter_span: span,
            })
        }
        Operator::Filter {
            op,
            property: inner,
            states,
        } => {
            let (inner_op, path, inner_span) = filtered(inner, span)?;
            if !matches!(
                op,
                FilterOp::Min | FilterOp::Max | FilterOp::Avg | FilterOp::Sum | FilterOp::First
            ) {
                return Err(beyond_plans(span));
            }
            let states_ex = match states {
                Some(e) if mentions_operator(e) => return Err(beyond_plans(e.span)),
                Some(e) => Some(scope.state_formula(e)?),
                None => None,
            };
            Ok(Plan {
                question: question(program, scope, (inner_op, path, inner_span))?,
                bound: None,
                span,
                filter: Some((*op, states_ex)),
                filter_span: states.as_ref().map_or(span, |e| e.span),
            })
        }
        Operator::Quantified { .. } | Operator::Multi { .. } => Err(beyond_plans(span)),
    }
}

/// The error for a property that [`plan`] cannot make a question of.
fn beyond_plans(span: Span) -> CheckError {
    Error::new(
        span,
        "with --cluster alea checks the queries P, R and T of F phi, phi U psi (within k \
         steps or not) and C<=k over expressions of the state, with or without a bound, and \
         their filters min, max, avg, sum and first; check this property without --cluster",
    )
    .into()
}

/// Whether an operator (or the name of a property) is within `e`.
fn mentions_operator(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Operator(_) => true,
        ExprKind::Unary(_, a) => mentions_operator(a),
        ExprKind::Binary(_, a, b) => mentions_operator(a) || mentions_operator(b),
        ExprKind::Ite(c, a, b) => {
            mentions_operator(c) || mentions_operator(a) || mentions_operator(b)
        }
        ExprKind::Call(_, args) => args.iter().any(mentions_operator),
        _ => false,
    }
}

/// The answer of a filter from its parts, each reduced where its states are: the
/// parts' results (sums for an average), the number of states the filter chose, and
/// for `first` the value of the first of them if it is an initial state (exploration
/// numbers those first; the order of the others is a single process's order of
/// exploration).
pub fn conclude_filter(
    plan: &Plan,
    parts: Vec<Number>,
    count: usize,
    first: Option<Number>,
) -> Result<Checked> {
    let Some((op, _)) = &plan.filter else {
        unreachable!("a filter's plan");
    };
    if count == 0 {
        return Err(Error::new(
            plan.filter_span,
            "no reachable state satisfies the filter's states",
        )
        .into());
    }
    let value = match op {
        FilterOp::First => first.ok_or_else(|| {
            Error::new(
                plan.span,
                "filter(first, ...) over states none of which is initial follows a single \
                 process's order of exploration; check it without --cluster",
            )
        })?,
        FilterOp::Avg => average(
            reduce_numbers(FilterOp::Sum, parts, false, plan.span)?,
            count,
        ),
        op => reduce_numbers(*op, parts, false, plan.span)?,
    };
    Ok(Checked {
        value: Some(value),
        ..Default::default()
    })
}

/// The answer of a plan from the values of the initial states, each with whether it is
/// known exactly: as [`check`] gives it.
pub fn conclude(plan: &Plan, initial: Vec<(Number, bool)>) -> Result<Checked> {
    match &plan.bound {
        None => Ok(Checked {
            value: Some(at_initial_values(
                initial.into_iter().map(|(n, _)| n).collect(),
                plan.span,
            )?),
            ..Default::default()
        }),
        Some((rel, threshold)) => {
            let (value, holds) = judge_values(initial, *rel, threshold, plan.span)?;
            Ok(Checked {
                value: Some(value),
                holds: Some(holds),
                ..Default::default()
            })
        }
    }
}

/// The query a filter reduces: one for a value, without a bound.
fn filtered(inner: &Expr, span: Span) -> Result<(&Query, &Path, Span)> {
    match &inner.kind {
        ExprKind::Operator(op) => match &**op {
            Operator::Query {
                op,
                path,
                bound: None,
                coalition: None,
            } => Ok((op, path, inner.span)),
            _ => Err(beyond_plans(span)),
        },
        _ => Err(beyond_plans(span)),
    }
}

/// The query of a bound: in an mdp, one without `min` or `max` must hold whatever the
/// choices, so a lower bound (`>=`) is on the least value and an upper bound on the
/// greatest (as PRISM reads it). A coalition's bound asks whether it can meet the bound
/// whatever the others do: it aims high for a lower bound and low for an upper one.
fn bounded_goal(program: &Program, op: &Query, rel: Rel, coalition: bool) -> Query {
    if !program.kind.chooses() {
        return op.clone();
    }
    let pick = |opt: Opt| match opt {
        Opt::None if rel.is_lower() == coalition => Opt::Max,
        Opt::None => Opt::Min,
        given => given,
    };
    match op {
        Query::Probability(opt) => Query::Probability(pick(*opt)),
        Query::Reward(r, opt) => Query::Reward(r.clone(), pick(*opt)),
        Query::Time(opt) => Query::Time(pick(*opt)),
        Query::Steady(opt) => Query::Steady(pick(*opt)),
    }
}

/// Whether the bound holds in every initial state, and the value of the one furthest on
/// the wrong side; an error when a value is too close to the bound for its error bound to
/// tell.
fn judge(
    explored: &Explored,
    solved: &Solved,
    rel: Rel,
    threshold: &Exact,
    span: Span,
) -> Result<(Number, bool)> {
    judge_values(initial_values(explored, solved), rel, threshold, span)
}

/// Each initial state's value, and whether it is known exactly.
fn initial_values(explored: &Explored, solved: &Solved) -> Vec<(Number, bool)> {
    explored
        .form
        .initial
        .iter()
        .map(|&s| {
            let s = s as usize;
            let pinned = match &solved.values {
                StateValues::Float(a) => a.pinned[s],
                StateValues::Exact(_) => true,
            };
            (value_of(solved, s), pinned)
        })
        .collect()
}

/// [`judge`] over the initial states' values.
fn judge_values(
    values: Vec<(Number, bool)>,
    rel: Rel,
    threshold: &Exact,
    span: Span,
) -> Result<(Number, bool)> {
    // Each initial state's value and whether it meets the bound (`None`: too close).
    let judged: Vec<(Number, Option<bool>)> = values
        .into_iter()
        .map(|(value, pinned)| {
            let meets = decide(&value, pinned, rel, threshold);
            (value, meets)
        })
        .collect();
    // One state that fails decides it, whatever the others; otherwise all must be told.
    let holds = if judged.iter().any(|(_, m)| *m == Some(false)) {
        false
    } else if let Some((value, _)) = judged.iter().find(|(_, m)| m.is_none()) {
        return Err(CheckError::Undecided(Error::new(
            span,
            format!(
                "the value {} ± {:.1e} is too close to the bound {} {} to tell whether it \
                 holds; ask with --exact, or a smaller --precision",
                value.to_f64(),
                value.error_bound(),
                rel.symbol(),
                threshold.to_f64().unwrap_or(f64::NAN),
            ),
        )));
    } else {
        true
    };
    // The value shown: the state furthest on the wrong side among those told (the least
    // value against a lower bound, the greatest against an upper one).
    let key = |n: &Number| {
        let v = n.to_f64();
        if rel.is_lower() {
            v
        } else {
            -v
        }
    };
    let value = judged
        .into_iter()
        .filter(|(_, m)| m.is_some())
        .map(|(n, _)| n)
        .min_by(|a, b| key(a).total_cmp(&key(b)))
        .expect("a model has an initial state");
    Ok((value, holds))
}

/// Whether a value meets `rel threshold`, if its bounds tell: every value they allow does,
/// or none does. `None` stands for infinity at either end.
fn decide(value: &Number, pinned: bool, rel: Rel, threshold: &Exact) -> Option<bool> {
    let (lo, hi): (Option<Exact>, Option<Exact>) = match value {
        Number::Exact(q) => (q.clone(), q.clone()),
        Number::Float { value, .. } if value.is_infinite() => (None, None),
        Number::Float { value, error_bound } => {
            let (lo, hi) = if pinned || *error_bound == 0.0 {
                (*value, *value)
            } else {
                // One step further out covers the rounding of the subtraction; no value
                // is below 0.
                let lo = (value - error_bound).next_down().max(0.0);
                (lo, (value + error_bound).next_up())
            };
            // An error bound that overflowed tells nothing.
            if !hi.is_finite() {
                return None;
            }
            (Exact::from_float(lo), Exact::from_float(hi))
        }
    };
    // `x rel threshold`, infinity above every number.
    let meets = |x: &Option<Exact>| match (x, rel) {
        (None, r) => r.is_lower(),
        (Some(x), Rel::Ge) => x >= threshold,
        (Some(x), Rel::Gt) => x > threshold,
        (Some(x), Rel::Le) => x <= threshold,
        (Some(x), Rel::Lt) => x < threshold,
    };
    match (meets(&lo), meets(&hi)) {
        (true, true) => Some(true),
        (false, false) => Some(false),
        _ => None,
    }
}

/// The value of a query in the initial state; several initial states must agree.
fn at_initial(explored: &Explored, solved: &Solved, span: Span) -> Result<Number> {
    let values = initial_values(explored, solved);
    at_initial_values(values.into_iter().map(|(n, _)| n).collect(), span)
}

/// [`at_initial`] over the initial states' values.
fn at_initial_values(numbers: Vec<Number>, span: Span) -> Result<Number> {
    let first = numbers[0].clone();
    if numbers.len() == 1 {
        return Ok(first);
    }
    if numbers.iter().all(|n| same_value(n, &first)) {
        return Ok(first);
    }
    let initial = &numbers;
    let values: Vec<f64> = numbers.iter().map(Number::to_f64).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Err(Error::new(
        span,
        format!(
            "the model has {} initial states and the value differs among them ({lo} to {hi}); \
             say which with filter(min, ..., \"init\"), filter(max, ...) or filter(avg, ...), \
             or pick a state with --at",
            initial.len()
        ),
    )
    .into())
}

/// Whether two answers are the same value (for `f64`, within their bounds).
fn same_value(a: &Number, b: &Number) -> bool {
    match (a, b) {
        (Number::Exact(x), Number::Exact(y)) => x == y,
        _ => {
            let (x, y) = (a.to_f64(), b.to_f64());
            x == y || (x - y).abs() <= a.error_bound() + b.error_bound()
        }
    }
}

/// The value of state `s`, with its absolute error bound.
pub fn value_of(solved: &Solved, s: usize) -> Number {
    match &solved.values {
        StateValues::Float(a) => {
            let value = a.values[s];
            Number::Float {
                value,
                error_bound: absolute(a.error_bound, value),
            }
        }
        StateValues::Exact(a) => Number::Exact(a.values[s].clone()),
    }
}

/// The bound on the error of `value`, from a bound that is absolute up to 1 and
/// relative above.
fn absolute(bound: f64, value: f64) -> f64 {
    if value.is_infinite() {
        0.0
    } else {
        bound * value.abs().max(1.0)
    }
}

/// A filter's reduction of `values` (at least one), exact or in `f64` with the bound of
/// every rounding. A checker that keeps the states apart (alea's cluster) reduces each
/// part, then the parts' results: the least of the least, the sum of the sums (an
/// average is a sum divided by the count, see [`average`]).
pub fn reduce_numbers(
    op: FilterOp,
    values: Vec<Number>,
    exact: bool,
    span: Span,
) -> Result<Number> {
    let pick = |want_max: bool| -> Number {
        let better = |a: &Number, b: &Number| {
            let (x, y) = (a.to_f64(), b.to_f64());
            match (a, b) {
                (Number::Exact(Some(p)), Number::Exact(Some(q))) => {
                    if want_max {
                        p > q
                    } else {
                        p < q
                    }
                }
                _ => {
                    if want_max {
                        x > y
                    } else {
                        x < y
                    }
                }
            }
        };
        let mut best = values[0].clone();
        let mut worst_bound = 0.0f64;
        for v in &values {
            worst_bound = worst_bound.max(v.error_bound());
            if better(v, &best) {
                best = v.clone();
            }
        }
        // The least (greatest) of values each within its bound is within the largest
        // of the bounds of the true least (greatest).
        match best {
            Number::Float { value, .. } => Number::Float {
                value,
                error_bound: worst_bound,
            },
            exact => exact,
        }
    };
    match op {
        FilterOp::Min => Ok(pick(false)),
        FilterOp::Max => Ok(pick(true)),
        FilterOp::First => Ok(values[0].clone()),
        FilterOp::Sum | FilterOp::Avg => {
            let n = values.len();
            let total = if exact {
                let mut sum = Some(Exact::zero());
                for v in &values {
                    sum = match (sum, v) {
                        (Some(a), Number::Exact(Some(b))) => Some(a + b),
                        _ => None,
                    };
                }
                Number::Exact(sum)
            } else {
                let mut sum = 0.0;
                let mut bound = 0.0;
                for v in &values {
                    sum += v.to_f64();
                    bound += v.error_bound();
                }
                // The summation's own rounding: at most n - 1 roundings of partial
                // sums no larger than the total of magnitudes.
                let magnitude: f64 = values.iter().map(|v| v.to_f64().abs()).sum();
                bound += magnitude * f64::EPSILON * n as f64;
                Number::Float {
                    value: sum,
                    error_bound: bound,
                }
            };
            Ok(if op == FilterOp::Avg {
                average(total, n)
            } else {
                total
            })
        }
        _ => Err(Error::new(
            span,
            format!(
                "filter `{}` does not reduce numbers to one: use min, max, avg, sum or first",
                filter_name(op)
            ),
        )
        .into()),
    }
}

/// The average of `n` values from their sum (in `f64` with the division's rounding).
pub fn average(sum: Number, n: usize) -> Number {
    match sum {
        Number::Exact(q) => Number::Exact(q.map(|q| q / Exact::from_integer(n.into()))),
        Number::Float { value, error_bound } => {
            let avg = value / n as f64;
            Number::Float {
                value: avg,
                error_bound: error_bound / n as f64 + avg.abs() * f64::EPSILON,
            }
        }
    }
}

fn filter_name(op: FilterOp) -> &'static str {
    match op {
        FilterOp::Min => "min",
        FilterOp::Max => "max",
        FilterOp::Avg => "avg",
        FilterOp::Sum => "sum",
        FilterOp::Count => "count",
        FilterOp::Forall => "forall",
        FilterOp::Exists => "exists",
        FilterOp::First => "first",
        FilterOp::Print => "print",
        FilterOp::PrintAll => "printall",
        FilterOp::Range => "range",
        FilterOp::State => "state",
        FilterOp::ArgMin => "argmin",
        FilterOp::ArgMax => "argmax",
    }
}

/// The paths an expected reward takes.
const R_PATHS: &str = "R=? takes F phi (reach phi), C<=k (k steps), C (all steps), I=k (at step k) or S (in the long run)";

/// In a game, the states whose player is not in `coalition` (which chooses against the
/// query's goal); `None` where one side makes every choice (no coalition given: the
/// players together; or a coalition of every player). An error for a coalition outside
/// a game, or a player the game does not have.
fn against(
    program: &Program,
    explored: &Explored,
    coalition: Option<&Coalition>,
) -> Result<Option<Vec<bool>>> {
    let names = &program.players.names;
    let Some(c) = coalition else {
        return Ok(None);
    };
    if program.kind != ModelType::Smg {
        return Err(Error::new(
            c.span,
            "a coalition `<<...>>` names players of a game: the model is not an `smg`",
        )
        .into());
    }
    let mut inside = vec![c.every; names.len()];
    for p in &c.players {
        let i = match p {
            PlayerRef::Name(id) => names.iter().position(|n| *n == id.name).ok_or_else(|| {
                Error::new(
                    id.span,
                    format!(
                        "unknown player `{}` (the players are {})",
                        id.name,
                        names
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?,
            PlayerRef::Number(k, span) => usize::try_from(*k)
                .ok()
                .filter(|&k| (1..=names.len()).contains(&k))
                .map(|k| k - 1)
                .ok_or_else(|| {
                    Error::new(
                        *span,
                        format!(
                            "no player {k}: the players are numbered 1 to {}",
                            names.len()
                        ),
                    )
                })?,
        };
        inside[i] = true;
    }
    if inside.iter().all(|&b| b) {
        return Ok(None);
    }
    Ok(Some(
        explored
            .owners
            .iter()
            .map(|&o| !inside[o as usize])
            .collect(),
    ))
}

/// The goal of a query: an MDP must say min or max; a Markov chain may say either.
fn goal_of(program: &Program, opt: Opt, span: Span, what: &str) -> Result<Option<Goal>> {
    match (program.kind, opt) {
        (ModelType::Dtmc, _) => Ok(None),
        (ModelType::Mdp | ModelType::Smg, Opt::Min) => Ok(Some(Goal::Min)),
        (ModelType::Mdp | ModelType::Smg, Opt::Max) => Ok(Some(Goal::Max)),
        (kind, Opt::None) => Err(Error::new(
            span,
            format!(
                "in {} the value depends on the choices: ask for {what}min=? or {what}max=?",
                if kind == ModelType::Smg {
                    "a game"
                } else {
                    "an mdp"
                }
            ),
        )
        .into()),
    }
}

/// What a query asks of the model, checked against the program: the engine's question,
/// its formulas resolved, before any state is looked at. A checker that keeps the model
/// elsewhere (alea's cluster) answers it too.
#[derive(Clone, Debug)]
pub enum Question {
    /// The probability of `stay U target` (`None`: stay anywhere), within `steps` if given.
    Until {
        goal: Option<Goal>,
        stay: Option<Ex>,
        target: Ex,
        steps: Option<u64>,
    },
    /// The expected reward (`None`: one per step) gathered until `target`.
    Reach {
        goal: Option<Goal>,
        reward: Option<usize>,
        target: Ex,
    },
    /// The expected reward gathered in `steps` steps.
    Cumulative {
        goal: Option<Goal>,
        reward: Option<usize>,
        steps: u64,
    },
}

impl Question {
    /// Whether choices minimise or maximise; `None` in a Markov chain.
    pub fn goal(&self) -> Option<Goal> {
        match self {
            Question::Until { goal, .. }
            | Question::Reach { goal, .. }
            | Question::Cumulative { goal, .. } => *goal,
        }
    }
}

/// The question of a query for a checker that keeps the model elsewhere (see [`plan`]),
/// or why it cannot be asked.
pub fn question(
    program: &Program,
    scope: &Scope,
    (op, path, span): (&Query, &Path, Span),
) -> Result<Question> {
    let formula = |e: &Expr| -> Result<Ex> {
        if mentions_operator(e) {
            return Err(beyond_plans(e.span));
        }
        Ok(scope.state_formula(e)?)
    };
    // `<=k` or nothing.
    let upper = |steps: &Option<crate::ast::Steps>| -> Result<Option<u64>> {
        match steps {
            None => Ok(None),
            Some(crate::ast::Steps {
                from: None,
                to: Some((k, false)),
                ..
            }) => Ok(Some(step_count(scope, k)?)),
            Some(_) => Err(beyond_plans(span)),
        }
    };
    match op {
        Query::Probability(opt) => {
            let goal = goal_of(program, *opt, span, "P")?;
            let (stay, target, steps) = match path {
                Path::Eventually { bound, target } => (None, formula(target)?, upper(bound)?),
                Path::Until {
                    op: Temporal::Until,
                    left,
                    right,
                    bound,
                } => (Some(formula(left)?), formula(right)?, upper(bound)?),
                _ => return Err(beyond_plans(span)),
            };
            Ok(Question::Until {
                goal,
                stay,
                target,
                steps,
            })
        }
        Query::Reward(_, opt) | Query::Time(opt) => {
            let (name, reward) = match op {
                Query::Reward(reference, _) => ("R", Some(scope.reward_index_at(reference, span)?)),
                _ => ("T", None),
            };
            let goal = goal_of(program, *opt, span, name)?;
            match path {
                Path::Eventually {
                    bound: None,
                    target,
                } => Ok(Question::Reach {
                    goal,
                    reward,
                    target: formula(target)?,
                }),
                Path::Cumulative { bound: Some(k) } if reward.is_some() => {
                    Ok(Question::Cumulative {
                        goal,
                        reward,
                        steps: step_count(scope, k)?,
                    })
                }
                _ => Err(beyond_plans(span)),
            }
        }
        Query::Steady(_) => Err(beyond_plans(span)),
    }
}

/// A step count, at least 0.
fn step_count(scope: &Scope, e: &Expr) -> Result<u64> {
    let k = scope.int_value(e)?;
    Ok(u64::try_from(k).expect("a step bound is at least 0"))
}

impl Evaluator<'_> {
    /// A query answered in every state; `rel` is the relation of its bound, if any (in
    /// an mdp, a bound without `min` or `max` is on the least value for `>` and `>=`,
    /// the greatest otherwise).
    pub(super) fn query(
        &mut self,
        op: &Query,
        path: &Path,
        span: Span,
        rel: Option<Rel>,
        coalition: Option<&Coalition>,
    ) -> Result<Solved> {
        let (program, explored, settings) = (self.program, self.explored, self.settings);
        let op = match rel {
            Some(rel) => bounded_goal(program, op, rel, coalition.is_some()),
            None => op.clone(),
        };
        // In a game, the coalition's opponents make their choices against the goal.
        let game;
        let m = match against(program, explored, coalition)? {
            Some(opponent) => {
                game = Form {
                    opponent,
                    ..explored.form.clone()
                };
                &game
            }
            None => &explored.form,
        };
        let n = m.states();
        let names = |s: usize| explored.name(s);
        let cx = Context::new(settings.precision)
            .with_stop(settings.stop.clone())
            .with_names(&names);
        match &op {
            Query::Probability(opt) => {
                let goal = goal_of(program, *opt, span, "P")?;
                if let Path::Ltl { formula, span: at } = path {
                    return self.ltl_probability(m, formula, *at, goal, &cx);
                }
                let scope = self.scope;
                let lowered = paths::lower(path, scope, span, &mut |e| self.sat(e))?;
                // The path under a negation optimises the other way.
                let g = goal.unwrap_or(Goal::Max);
                let g = if lowered.negated { g.opposite() } else { g };
                let values =
                    paths::probability(m, g, &lowered.path, settings.exact, settings.fair, &cx)?;
                let values = if lowered.negated {
                    paths::complement(values)
                } else {
                    values
                };
                // A state whose value the path settles at once is fixed: no choice
                // there changes it.
                let fixed = match &lowered.path {
                    paths::Lowered::Until {
                        stay,
                        target,
                        window: paths::Window { from: 0, .. },
                    } => (0..n).map(|s| target[s] || !stay[s]).collect(),
                    _ => vec![false; n],
                };
                Ok(Solved {
                    against: m.opponent.clone(),
                    values,
                    goal,
                    rewards: None,
                    fixed,
                })
            }
            Query::Reward(_, opt) | Query::Time(opt) => {
                let (name, reward) = match &op {
                    Query::Reward(reference, _) => {
                        ("R", Some(self.scope.reward_index_at(reference, span)?))
                    }
                    _ => ("T", None),
                };
                let goal = goal_of(program, *opt, span, name)?;
                let g = goal.unwrap_or(Goal::Max);
                let rewards = reward_vectors(program, explored, reward, settings.exact)?;
                // PRISM reads these paths as co-safe LTL: the reward until the formula
                // is satisfied.
                if let Some(f) = ltl::as_ltl(path).filter(|_| name == "R") {
                    return self.ltl_reward(m, &f, span, goal, &rewards, &cx);
                }
                let (values, fixed) = match path {
                    Path::Eventually {
                        bound: None,
                        target,
                    } => {
                        let target = self.sat(target)?;
                        let values = match &rewards {
                            Gathered::Float(r) => {
                                StateValues::Float(solve::reach_reward(m, g, &target, r, &cx)?)
                            }
                            Gathered::Exact(r) => StateValues::Exact(solve::reach_reward_exact(
                                m, g, &target, r, &cx,
                            )?),
                        };
                        (values, target)
                    }
                    Path::Reach {
                        target,
                        missed,
                        span,
                    } if name == "R" => {
                        let target = self.sat(target)?;
                        let values = match &rewards {
                            // Solved in exact arithmetic only (the layers of reward
                            // gathered turn on exact ties of probabilities): in floating
                            // point, the run checks it again on the exact model.
                            _ if *missed == Missed::Zero && !settings.exact => {
                                return Err(CheckError::Engine(alea_core::Error::NotExact));
                            }
                            Gathered::Exact(r) if *missed == Missed::Zero => StateValues::Exact(
                                solve::reached_reward_exact(m, g, &target, r, &cx).map_err(
                                    |e| match e {
                                        alea_core::Error::Unsupported(why) => {
                                            CheckError::from(Error::new(*span, why))
                                        }
                                        e => e.into(),
                                    },
                                )?,
                            ),
                            Gathered::Float(r) => StateValues::Float(solve::gathered_reward(
                                m, g, &target, r, &cx,
                            )?),
                            Gathered::Exact(r) => StateValues::Exact(
                                solve::gathered_reward_exact(m, g, &target, r, &cx)?,
                            ),
                        };
                        (values, target)
                    }
                    Path::Cumulative { bound: Some(k) } if name == "R" => {
                        let k = step_count(self.scope, k)?;
                        let values = match &rewards {
                            Gathered::Float(r) => {
                                StateValues::Float(solve::cumulative_reward(m, g, r, k, cx.precision)?)
                            }
                            Gathered::Exact(r) => {
                                StateValues::Exact(solve::cumulative_reward_exact(m, g, r, k)?)
                            }
                        };
                        (values, vec![false; n])
                    }
                    Path::Instant { at } if name == "R" => {
                        // The state rewards at step k: k steps of expectation from them.
                        let k = step_count(self.scope, at)?;
                        let all = vec![true; n];
                        // A structure of choice rewards alone has no state rewards: 0.
                        let values = match &rewards {
                            Gathered::Float(r) => {
                                let start = match r.state.is_empty() {
                                    true => vec![[0.0, 0.0]; n],
                                    false => r.state.iter().map(|&v| [v, v]).collect(),
                                };
                                StateValues::Float(solve::prefix(m, g, &all, start, k, false, cx.precision)?)
                            }
                            Gathered::Exact(r) => {
                                let start = match r.state.is_empty() {
                                    true => vec![Exact::zero(); n],
                                    false => r.state.clone(),
                                };
                                StateValues::Exact(solve::prefix_exact(m, g, &all, start, k)?)
                            }
                        };
                        return Ok(Solved {
                            against: m.opponent.clone(),
                            values,
                            goal,
                            rewards: None,
                            fixed: vec![false; n],
                        });
                    }
                    Path::Cumulative { bound: None } | Path::LongRun if name == "R" => {
                        let total = matches!(path, Path::Cumulative { .. });
                        let values = match (&rewards, total) {
                            (Gathered::Float(r), true) => {
                                StateValues::Float(solve::total_reward(m, g, r, &cx)?)
                            }
                            (Gathered::Exact(r), true) => {
                                StateValues::Exact(solve::total_reward_exact(m, g, r, &cx)?)
                            }
                            (Gathered::Float(r), false) => {
                                StateValues::Float(solve::long_run(m, g, r, &cx)?)
                            }
                            (Gathered::Exact(r), false) => {
                                StateValues::Exact(solve::long_run_exact(m, g, r, &cx)?)
                            }
                        };
                        if !total {
                            // A choice is worth its successors' averages: one step's
                            // reward counts for nothing in the long run.
                            return Ok(Solved {
                                against: m.opponent.clone(),
                                values,
                                goal,
                                rewards: None,
                                fixed: vec![false; n],
                            });
                        }
                        (values, vec![false; n])
                    }
                    Path::Eventually { bound: Some(b), .. } => {
                        return Err(Error::new(
                            b.span,
                            format!("{name}=? takes F phi, C<=k, C, I=k or S; a step bound on F is not a reward path"),
                        )
                        .into())
                    }
                    _ => {
                        return Err(Error::new(
                            span,
                            match path {
                                _ if name != "R" => {
                                    "T=? asks for the expected steps to reach a set: T=? [F phi]"
                                        .to_string()
                                }
                                // PRISM reads these as co-safe LTL: rewards until an
                                // automaton over the path accepts.
                                Path::Next { .. } | Path::Until { .. } => format!(
                                    "{R_PATHS}; the reward of another path is a co-safe LTL \
                                     reward, which is not supported yet"
                                ),
                                _ => R_PATHS.to_string(),
                            },
                        )
                        .into())
                    }
                };
                Ok(Solved {
                    against: m.opponent.clone(),
                    values,
                    goal,
                    rewards: Some(rewards),
                    fixed,
                })
            }
            Query::Steady(opt) => {
                let Path::Steady { target } = path else {
                    unreachable!("the parser gives `S` a state formula")
                };
                let goal = goal_of(program, *opt, span, "S")?;
                let g = goal.unwrap_or(Goal::Max);
                // The long-run average of a reward of 1 where the formula holds.
                let holds = self.sat(target)?;
                let values = if settings.exact {
                    let one = |b: bool| Exact::from_integer(u8::from(b).into());
                    let r = ExactRewards {
                        state: holds.iter().map(|&b| one(b)).collect(),
                        choice: Vec::new(),
                    };
                    StateValues::Exact(solve::long_run_exact(m, g, &r, &cx)?)
                } else {
                    let r = Rewards {
                        state: holds.iter().map(|&b| f64::from(u8::from(b))).collect(),
                        choice: Vec::new(),
                    };
                    StateValues::Float(solve::long_run(m, g, &r, &cx)?)
                };
                Ok(Solved {
                    against: m.opponent.clone(),
                    values,
                    goal,
                    rewards: None,
                    fixed: vec![false; n],
                })
            }
        }
    }
}

/// The rewards of structure `index`, or one per step (`T=?`) when `None`.
fn reward_vectors(
    program: &Program,
    explored: &Explored,
    index: Option<usize>,
    exact: bool,
) -> Result<Gathered> {
    let n = explored.form.states();
    Ok(match (index, exact) {
        (Some(i), false) => Gathered::Float(explored.rewards(program, i)?),
        (Some(i), true) => Gathered::Exact(explored.exact_rewards(program, i)?),
        (None, false) => Gathered::Float(Rewards {
            state: vec![1.0; n],
            choice: Vec::new(),
        }),
        (None, true) => Gathered::Exact(ExactRewards {
            state: vec![Exact::from_integer(1.into()); n],
            choice: Vec::new(),
        }),
    })
}

/// One choice of a state, valued: what `--at` shows for an MDP.
#[derive(Clone, Debug)]
pub struct ChoiceValue {
    /// The choice's index among the state's choices.
    pub index: usize,
    pub value: Number,
    /// How much worse than the best choice (0 for the best).
    pub loss: Number,
}

/// Every choice of state `s` with its value and its loss against the best; empty where
/// the state's value is fixed (a target) or it has one choice.
pub fn choices_at(explored: &Explored, solved: &Solved, s: usize) -> Vec<ChoiceValue> {
    let m = &explored.form;
    let Some(goal) = solved.goal else {
        return Vec::new();
    };
    // In a game, a state of the coalition's opponents is judged by their goal.
    let goal = if solved.against.get(s) == Some(&true) {
        goal.opposite()
    } else {
        goal
    };
    if solved.fixed[s] {
        return Vec::new();
    }
    let numbers: Vec<Number> = match (&solved.values, &solved.rewards) {
        (StateValues::Float(a), rewards) => {
            let r = match rewards {
                Some(Gathered::Float(r)) => Some(r),
                _ => None,
            };
            // A step-bounded value: the choice takes the first step, and is worth its
            // successors' values for the steps left after it.
            let basis = match &a.before {
                Some(before) if before.is_empty() => return Vec::new(),
                Some(before) => before,
                None => &a.values,
            };
            let values = solve::choice_values(m, s, basis, r);
            m.choices_of(s)
                .zip(values)
                .map(|(c, v)| {
                    // The choice's value averages its successors' values, each off by up
                    // to the bound at its own size; the largest of those covers the
                    // average, and the sum's own rounding is covered on top.
                    let widest = m
                        .transitions_of(c)
                        .map(|t| basis[m.to[t] as usize].abs().max(1.0))
                        .fold(1.0f64, f64::max);
                    let terms = m.transitions_of(c).len() as f64 + 2.0;
                    Number::Float {
                        value: v,
                        error_bound: a.error_bound * widest * (1.0 + 4.0 * f64::EPSILON)
                            + terms * f64::EPSILON * v.abs(),
                    }
                })
                .collect()
        }
        (StateValues::Exact(a), rewards) => {
            let r = match rewards {
                Some(Gathered::Exact(r)) => Some(r),
                _ => None,
            };
            let basis = match &a.before {
                Some(before) if before.is_empty() => return Vec::new(),
                Some(before) => before,
                None => &a.values,
            };
            match solve::choice_values_exact(m, s, basis, r) {
                Ok(values) => values.into_iter().map(Number::Exact).collect(),
                // Exact values come only from a model with exact probabilities.
                Err(_) => return Vec::new(),
            }
        }
    };
    let best = value_of(solved, s);
    numbers
        .into_iter()
        .enumerate()
        .map(|(index, value)| {
            let loss = loss(&best, &value, goal);
            ChoiceValue { index, value, loss }
        })
        .collect()
}

/// How far `value` falls short of `best` in the goal's direction.
fn loss(best: &Number, value: &Number, goal: Goal) -> Number {
    match (best, value) {
        (Number::Exact(b), Number::Exact(v)) => Number::Exact(match (b, v) {
            (Some(b), Some(v)) => Some(match goal {
                Goal::Max => b - v,
                Goal::Min => v - b,
            }),
            // An infinite value where the best is finite loses infinitely much.
            (Some(_), None) | (None, Some(_)) => None,
            (None, None) => Some(Exact::zero()),
        }),
        _ => {
            let (b, v) = (best.to_f64(), value.to_f64());
            let d = if b == v {
                0.0
            } else {
                match goal {
                    Goal::Max => b - v,
                    Goal::Min => v - b,
                }
            };
            Number::Float {
                value: d.max(0.0),
                error_bound: best.error_bound() + value.error_bound(),
            }
        }
    }
}

/// The states whose successors none of `properties` needs: where each property's value
/// is settled on arrival (the targets of a reachability or an expected reward, and the
/// states that leave the left side of an until). Exploration can leave them unexpanded.
/// `None` when every state is needed: any property but a query of `F` or `U` with an
/// upper step bound or none (or a filter of one over `"init"`) on expressions of the
/// state, or one that mentions the label `"deadlock"`, which only expansion can tell.
pub fn absorbing(properties: &[(&Scope, &Expr)]) -> std::result::Result<Option<Ex>, Error> {
    let mut all: Option<Ex> = None;
    for (scope, property) in properties {
        let Some(settled) = settled_on_arrival(scope, property)? else {
            return Ok(None);
        };
        if mentions_deadlock(&settled) {
            return Ok(None);
        }
        all = Some(match all {
            None => settled,
            Some(before) => both(BinOp::And, before, settled),
        });
    }
    Ok(all)
}

fn settled_on_arrival(scope: &Scope, property: &Expr) -> std::result::Result<Option<Ex>, Error> {
    let ExprKind::Operator(op) = &property.kind else {
        return Ok(None);
    };
    // Only an upper bound (or none) settles a target on arrival: `F>=k` looks on.
    let upper_only = |b: &Option<crate::ast::Steps>| b.as_ref().is_none_or(|b| b.from.is_none());
    let formula = |e: &Expr| -> std::result::Result<Option<Ex>, Error> {
        if mentions_operator(e) {
            return Ok(None);
        }
        scope.state_formula(e).map(Some)
    };
    match &**op {
        Operator::Filter {
            property, states, ..
        } => match states {
            Some(e) if matches!(&e.kind, ExprKind::Label(l) if l == "init") => {
                settled_on_arrival(scope, property)
            }
            _ => Ok(None),
        },
        Operator::Query { op, path, .. } => match (op, path) {
            (Query::Probability(_), Path::Eventually { bound, target }) if upper_only(bound) => {
                formula(target)
            }
            (
                Query::Reward(..) | Query::Time(_),
                Path::Eventually {
                    bound: None,
                    target,
                },
            ) => formula(target),
            (
                Query::Probability(_),
                Path::Until {
                    op: Temporal::Until,
                    left,
                    right,
                    bound,
                },
            ) if upper_only(bound) => {
                let (Some(left), Some(right)) = (formula(left)?, formula(right)?) else {
                    return Ok(None);
                };
                let span = left.span;
                let not_left = Ex {
                    kind: ExKind::Unary(UnOp::Not, Box::new(left)),
                    ty: Ty::Bool,
                    span,
                };
                Ok(Some(both(BinOp::Or, right, not_left)))
            }
            _ => Ok(None),
        },
        Operator::Quantified { .. } | Operator::Multi { .. } => Ok(None),
    }
}

fn both(op: BinOp, a: Ex, b: Ex) -> Ex {
    let span = a.span;
    Ex {
        kind: ExKind::Binary(op, Box::new(a), Box::new(b)),
        ty: Ty::Bool,
        span,
    }
}

fn mentions_deadlock(e: &Ex) -> bool {
    e.find(&mut |e| matches!(e.kind, ExKind::Deadlock))
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float(value: f64, error_bound: f64) -> Number {
        Number::Float { value, error_bound }
    }

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(n.into(), d.into())
    }

    #[test]
    fn a_bound_is_told_only_when_the_interval_is_on_one_side() {
        let half = q(1, 2);
        assert_eq!(decide(&float(0.6, 1e-9), false, Rel::Ge, &half), Some(true));
        assert_eq!(
            decide(&float(0.4, 1e-9), false, Rel::Ge, &half),
            Some(false)
        );
        assert_eq!(decide(&float(0.5, 1e-9), false, Rel::Ge, &half), None);
        // Known exactly: 0.5 meets `>= 1/2` and fails `> 1/2`.
        assert_eq!(decide(&float(0.5, 1e-9), true, Rel::Ge, &half), Some(true));
        assert_eq!(decide(&float(0.5, 1e-9), true, Rel::Gt, &half), Some(false));
        assert_eq!(
            decide(&Number::Exact(Some(half.clone())), false, Rel::Le, &half),
            Some(true)
        );
        assert_eq!(
            decide(&Number::Exact(Some(half.clone())), false, Rel::Lt, &half),
            Some(false)
        );
        // Infinity is above every bound.
        assert_eq!(
            decide(&Number::Exact(None), false, Rel::Gt, &q(1000, 1)),
            Some(true)
        );
        assert_eq!(
            decide(&float(f64::INFINITY, 0.0), false, Rel::Le, &q(1000, 1)),
            Some(false)
        );
        // An error bound that overflowed tells nothing, not "infinitely large".
        assert_eq!(
            decide(&float(3.0, f64::INFINITY), false, Rel::Ge, &q(5, 1)),
            None
        );
        assert_eq!(
            decide(&float(3.0, f64::INFINITY), false, Rel::Le, &q(5, 1)),
            None
        );
    }
}
