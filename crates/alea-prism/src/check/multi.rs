//! `multi(...)`: several `P` and `R` queries of one decision process at once, answered
//! by the engine's linear program in exact rationals (in `f64` the run checks the model
//! again exactly, and rounds).
//!
//! As in PRISM, every probability is brought to a greatest one: `P<=p [φ]` is
//! `P>=1-p [!φ]`, and `Pmin=? [φ]` is one minus `Pmax=? [!φ]`.

use alea_core::multi::{self, Best, Limit, Objective};
use alea_core::numeric::simplex::Relation;
use alea_core::solve::Goal;
use alea_core::Exact;
use num_traits::One;

use super::formula::Evaluator;
use super::ltl::{convert, path_ltl, Atoms, MAX_PRODUCT};
use super::{
    goal_of, reward_vectors, AutomatonSize, CheckError, Checked, Gathered, Number, Result,
};
use crate::ast::{Expr, ExprKind, ModelType, Operator, Path, Query, Rel};
use crate::error::{Error, Span};
use crate::session::EXACT_FALLBACK_STATES;

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
        // The linear program is solved in rationals; in `f64` the run checks the model
        // again exactly and rounds, on a model small enough.
        if !self.settings.exact && self.explored.form.states() > EXACT_FALLBACK_STATES {
            return Err(Error::new(
                span,
                format!(
                    "multi(...) is solved exactly: on a model of more than \
                     {EXACT_FALLBACK_STATES} states, ask with --exact"
                ),
            )
            .into());
        }
        if !self.settings.exact {
            return Err(CheckError::Engine(alea_core::Error::NotExact));
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
        let refused = |e: alea_core::Error| -> super::CheckError {
            match e {
                alea_core::Error::Unsupported(why) => Error::new(span, why).into(),
                e => e.into(),
            }
        };
        let explored = self.explored;
        let names = |s: usize| explored.name(s);
        let lp = multi::program(m, &letters, &goals, MAX_PRODUCT, &names).map_err(refused)?;
        self.automata.push(AutomatonSize {
            states: lp.automaton_states,
            product_states: lp.product_states,
            finite: false,
        });
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
                let best = lp
                    .best(i, asked[i].wanted == Some(true), &limits)
                    .map_err(refused)?;
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
            [a, b] => {
                let corners = lp
                    .pareto(
                        (a, asked[a].wanted == Some(true)),
                        (b, asked[b].wanted == Some(true)),
                        &limits,
                    )
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
            _ => Err(Error::new(
                asked[wanted[2]].span,
                "multi(...) takes at most two objectives with `=?` (two give the Pareto curve)",
            )
            .into()),
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
