//! `multi(...)`: several `P` and `R` queries of one decision process at once, answered
//! with `--exact` by the engine's linear program in rationals, and in `f64` by its
//! weighted sums with certified bounds.
//!
//! As in PRISM, every probability is brought to a greatest one: `P<=p [φ]` is
//! `P>=1-p [!φ]`, and `Pmin=? [φ]` is one minus `Pmax=? [!φ]`.

use alea_core::multi::{self, Best, Bounds, Limit, Objective};
use alea_core::numeric::round::midpoint;
use alea_core::numeric::simplex::Relation;
use alea_core::solve::{Context, Goal};
use alea_core::Exact;
use num_traits::One;

use super::formula::Evaluator;
use super::ltl::{convert, path_ltl, Atoms, MAX_PRODUCT};
use super::{
    goal_of, reward_vectors, AutomatonSize, CheckError, Checked, Gathered, Number, Result,
};
use crate::ast::{Expr, ExprKind, ModelType, Operator, Path, Query, Rel};
use crate::error::{Error, Span};

/// One objective as asked: which of the program's objectives, whether its value is
/// one minus the program's (a least probability), and its goal or its bound.
struct Asked {
    complement: bool,
    /// `=?`: maximised or not.
    wanted: Option<bool>,
    /// The bound: its relation, value, and whether it is strict.
    limit: Option<(Relation, Exact, bool)>,
    span: Span,
}

impl Evaluator<'_> {
    /// The answer of `multi(objectives)`.
    pub(super) fn multi(&mut self, objectives: &[Expr], span: Span) -> Result<Checked> {
        let program = self.program;
        if program.kind == ModelType::Smg {
            return Err(Error::new(
                span,
                "multi-objective queries are for mdps and dtmcs, not games",
            )
            .into());
        }
        if self.settings.fair {
            return Err(Error::new(
                span,
                "multi(...) counts every strategy: it does not take --fair",
            )
            .into());
        }
        let mut atoms = Atoms::new();
        let mut goals = Vec::with_capacity(objectives.len());
        let mut asked = Vec::with_capacity(objectives.len());
        for o in objectives {
            let (objective, a) = self.objective(o, &mut atoms)?;
            goals.push(objective);
            asked.push(a);
        }
        let m = &self.explored.form;
        let letters = atoms.letters(m.states());
        let refused = |e: alea_core::Error| -> CheckError {
            match e {
                alea_core::Error::Unsupported(why) => Error::new(span, why).into(),
                // A small model is then checked exactly.
                alea_core::Error::Undecided(why) => CheckError::Undecided(Error::new(span, why)),
                e => e.into(),
            }
        };
        let explored = self.explored;
        let names = |s: usize| explored.name(s);
        let limits: Vec<Limit> = asked
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                a.limit.clone().map(|(relation, value, strict)| Limit {
                    objective: i,
                    relation,
                    value,
                    strict,
                })
            })
            .collect();
        let wanted: Vec<usize> = (0..asked.len())
            .filter(|&i| asked[i].wanted.is_some())
            .collect();
        if let [_, _, third, ..] = wanted[..] {
            return Err(Error::new(
                asked[third].span,
                "multi(...) takes at most two objectives with `=?` (two give the Pareto curve)",
            )
            .into());
        }
        let maximised = |i: usize| asked[i].wanted == Some(true);
        if !self.settings.exact {
            let cx = Context::new(self.settings.precision)
                .with_stop(self.settings.stop.clone())
                .with_names(&names);
            let mut ws = multi::weighted(m, &letters, &goals, MAX_PRODUCT, &cx).map_err(refused)?;
            self.automata.push(AutomatonSize {
                states: ws.automaton_states,
                product_states: ws.product_states,
                finite: false,
            });
            // A value between `lo` and `hi`, of objective `i` as asked (a probability's
            // bounds within [0, 1]).
            let probability = |i: usize| matches!(goals[i], Objective::Probability(_));
            let float = |i: usize, lo: f64, hi: f64| -> Number {
                let (lo, hi) = if probability(i) {
                    (lo.max(0.0), hi.min(1.0))
                } else {
                    (lo, hi)
                };
                let (lo, hi) = if asked[i].complement {
                    (1.0 - hi, 1.0 - lo)
                } else {
                    (lo, hi)
                };
                let (value, error_bound) = midpoint(lo, hi);
                Number::Float { value, error_bound }
            };
            return Ok(match wanted[..] {
                [] => Checked {
                    holds: Some(ws.achievable(&limits, &cx).map_err(refused)?),
                    ..Default::default()
                },
                [i] => match ws.best(i, maximised(i), &limits, &cx).map_err(refused)? {
                    Bounds::Value { lo, hi } => Checked {
                        value: Some(float(i, lo, hi)),
                        ..Default::default()
                    },
                    Bounds::Infeasible => Checked {
                        infeasible: true,
                        ..Default::default()
                    },
                },
                _ => {
                    let (a, b) = (wanted[0], wanted[1]);
                    let curve = ws
                        .pareto((a, maximised(a)), (b, maximised(b)), &limits, &cx)
                        .map_err(refused)?;
                    // Each corner is reached by a strategy (as its bounds say), and
                    // the curve lies within the error beyond the segments between them.
                    let beyond = |i: usize, x: f64| {
                        let x = if probability(i) { x.clamp(0.0, 1.0) } else { x };
                        Number::Float {
                            value: if asked[i].complement { 1.0 - x } else { x },
                            error_bound: curve.error / x.abs().max(1.0),
                        }
                    };
                    Checked {
                        infeasible: curve.corners.is_empty(),
                        pareto: curve
                            .corners
                            .iter()
                            .map(|&(x, y)| (beyond(a, x), beyond(b, y)))
                            .collect(),
                        ..Default::default()
                    }
                }
            });
        }
        let lp = multi::program(m, &letters, &goals, MAX_PRODUCT, &names).map_err(refused)?;
        self.automata.push(AutomatonSize {
            states: lp.automaton_states,
            product_states: lp.product_states,
            finite: false,
        });
        let value_of = |i: usize, v: Exact| -> Number {
            if asked[i].complement {
                Number::Exact(Some(Exact::one() - v))
            } else {
                Number::Exact(Some(v))
            }
        };
        match wanted[..] {
            [] => Ok(Checked {
                holds: Some(lp.achievable(&limits).map_err(refused)?),
                ..Default::default()
            }),
            [i] => {
                let best = lp.best(i, maximised(i), &limits).map_err(refused)?;
                Ok(match best {
                    Best::Value(v) => Checked {
                        value: Some(value_of(i, v)),
                        ..Default::default()
                    },
                    Best::Unbounded => Checked {
                        value: Some(Number::Exact(None)),
                        ..Default::default()
                    },
                    Best::Infeasible => Checked {
                        infeasible: true,
                        ..Default::default()
                    },
                })
            }
            _ => {
                let (a, b) = (wanted[0], wanted[1]);
                let corners = lp
                    .pareto((a, maximised(a)), (b, maximised(b)), &limits)
                    .map_err(refused)?;
                Ok(Checked {
                    infeasible: corners.is_empty(),
                    pareto: corners
                        .into_iter()
                        .map(|(x, y)| (value_of(a, x), value_of(b, y)))
                        .collect(),
                    ..Default::default()
                })
            }
        }
    }

    /// One objective of `multi`, as the program takes it.
    fn objective(&mut self, e: &Expr, atoms: &mut Atoms) -> Result<(Objective, Asked)> {
        let span = e.span;
        let ExprKind::Operator(op) = &e.kind else {
            unreachable!("the parser gives multi queries only")
        };
        let Operator::Query {
            op,
            path,
            bound,
            coalition,
        } = &**op
        else {
            unreachable!("the parser gives multi queries only")
        };
        if let Some(c) = coalition {
            return Err(Error::new(c.span, "multi(...) takes no coalition").into());
        }
        let (program, scope) = (self.program, self.scope);
        let limit = match bound {
            Some(b) => Some((b.rel, scope.threshold(&b.threshold)?)),
            None => None,
        };
        let relation = |rel: Rel| match rel {
            Rel::Ge | Rel::Gt => Relation::Ge,
            Rel::Le | Rel::Lt => Relation::Le,
        };
        let strict = |rel: Rel| matches!(rel, Rel::Gt | Rel::Lt);
        match op {
            Query::Probability(opt) => {
                let Some(f) = path_ltl(path) else {
                    return Err(Error::new(span, "a probability of multi(...) needs a path").into());
                };
                let scope = self.scope;
                let f = convert(&f, scope, span, &mut |e| self.sat(e), atoms)?;
                let (complement, wanted, limit) = match (limit, opt) {
                    (Some((rel, p)), _) => {
                        let lower = rel.is_lower();
                        let p = if lower { p } else { Exact::one() - p };
                        (!lower, None, Some((Relation::Ge, p, strict(rel))))
                    }
                    (None, _) => {
                        let goal = goal_of(program, *opt, span, "P")?.unwrap_or(Goal::Max);
                        (goal == Goal::Min, Some(true), None)
                    }
                };
                let f = if complement { f.negated() } else { f };
                Ok((
                    Objective::Probability(f),
                    Asked {
                        complement,
                        wanted,
                        limit,
                        span,
                    },
                ))
            }
            Query::Reward(reference, opt) => {
                let steps = match path {
                    Path::Cumulative { bound: None } => None,
                    Path::Cumulative { bound: Some(k) } => Some(super::step_count(scope, k)?),
                    _ => {
                        return Err(Error::new(
                            span,
                            "a reward of multi(...) is a total one, `[C]`, or within k steps, \
                             `[C<=k]`",
                        )
                        .into())
                    }
                };
                let index = scope.reward_index_at(reference, span)?;
                let Gathered::Exact(rewards) =
                    reward_vectors(program, self.explored, Some(index), true)?
                else {
                    unreachable!("asked for exact rewards")
                };
                let (wanted, limit) = match limit {
                    Some((rel, r)) => (None, Some((relation(rel), r, strict(rel)))),
                    None => {
                        let goal = goal_of(program, *opt, span, "R")?.unwrap_or(Goal::Max);
                        (Some(goal == Goal::Max), None)
                    }
                };
                Ok((
                    Objective::Reward { rewards, steps },
                    Asked {
                        complement: false,
                        wanted,
                        limit,
                        span,
                    },
                ))
            }
            _ => {
                Err(Error::new(span, "the objectives of multi(...) are `P` and `R` queries").into())
            }
        }
    }
}
