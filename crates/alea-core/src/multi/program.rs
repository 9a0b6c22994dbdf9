//! The exact solver of a multi-objective query: the linear program over the expected
//! number of times each choice is taken (see the module above), by the exact simplex.

use num_traits::{One, Signed, Zero};

use super::{Best, Frame, Limit};
use crate::error::{Error, Result};
use crate::numeric::simplex::{Constraint, Outcome, Relation, Simplex};
use crate::numeric::value::Exact;

/// The most cells of a simplex tableau (rows times columns) solved.
const MAX_CELLS: usize = 40_000_000;

/// The linear program of some objectives on a model.
pub struct Program {
    columns: usize,
    flow: Vec<Constraint>,
    /// Each objective's value, a linear form of the columns.
    values: Vec<Vec<(usize, Exact)>>,
    pub product_states: usize,
    pub automaton_states: usize,
}

impl Program {
    /// The program of the frame's objectives.
    pub(super) fn new(f: Frame) -> Result<Program> {
        let n = f.form.states();
        // The columns: each choice, then each stay.
        let mut columns = f.form.choice_count();
        let mut flow: Vec<Vec<(usize, Exact)>> = vec![Vec::new(); n];
        let probs = f.form.exact_probs()?;
        for s in 0..n {
            for c in f.form.choices_of(s) {
                flow[s].push((c, Exact::one()));
                for t in f.form.transitions_of(c) {
                    let to = f.form.to[t] as usize;
                    let pr = &probs.values[probs.id[t] as usize];
                    flow[to].push((c, -pr.clone()));
                }
            }
        }
        let mut values: Vec<Vec<(usize, Exact)>> = vec![Vec::new(); f.rewards.len()];
        for (s, sets) in f.stays.iter().enumerate() {
            for &set in sets {
                flow[s].push((columns, Exact::one()));
                for (b, &i) in f.formulas.iter().enumerate() {
                    if set >> b & 1 == 1 {
                        values[i].push((columns, Exact::one()));
                    }
                }
                columns += 1;
            }
        }
        for (i, r) in f.rewards.iter().enumerate() {
            if !r.is_empty() {
                values[i] = r
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| !v.is_zero())
                    .map(|(c, v)| (c, v.clone()))
                    .collect();
            }
        }
        let flow = flow
            .into_iter()
            .enumerate()
            .map(|(s, terms)| Constraint {
                terms: merge(terms),
                relation: Relation::Eq,
                bound: if s == f.start {
                    Exact::one()
                } else {
                    Exact::zero()
                },
            })
            .collect();
        Ok(Program {
            columns,
            flow,
            values,
            product_states: n,
            automaton_states: f.automaton_states,
        })
    }

    /// A feasible basis of the program under `limits`: `None` where no strategy meets
    /// them.
    /// With strict limits, none is met unless they all are with room to spare: then the
    /// basis is of the limits' closure (the best values there are the least upper
    /// bounds of those that strategies reach).
    fn simplex(&self, limits: &[Limit]) -> Result<Option<Simplex>> {
        let Some(s) = self.solver(limits, false)? else {
            return Ok(None);
        };
        if limits.iter().any(|l| l.strict) {
            // The most room `t` (up to 1) by which every strict limit can be met.
            let mut room = self.solver(limits, true)?.expect("feasible with no room");
            let t = self.columns;
            match room.maximise(&[(t, Exact::one())]) {
                Outcome::Optimal { value, .. } if value.is_positive() => {}
                _ => return Ok(None),
            }
        }
        Ok(Some(s))
    }

    /// The program under `limits`, with `room`: each strict limit met by a margin of
    /// one more column, at most 1.
    fn solver(&self, limits: &[Limit], room: bool) -> Result<Option<Simplex>> {
        let mut all = self.flow.clone();
        let t = self.columns;
        for l in limits {
            let mut terms = self.values[l.objective].clone();
            if room && l.strict {
                let sign = if l.relation == Relation::Ge { -1 } else { 1 };
                terms.push((t, Exact::from_integer(sign.into())));
            }
            all.push(Constraint {
                terms,
                relation: l.relation,
                bound: l.value.clone(),
            });
        }
        if room {
            all.push(Constraint {
                terms: vec![(t, Exact::one())],
                relation: Relation::Le,
                bound: Exact::one(),
            });
        }
        let columns = self.columns + usize::from(room);
        Simplex::new(columns, &all, MAX_CELLS).ok_or_else(|| {
            Error::Unsupported(format!(
                "the linear program of this multi-objective query has {} rows and {} columns \
                 (its product has {} states), too large for the exact solver",
                all.len(),
                self.columns,
                self.product_states
            ))
        })
    }

    /// Objective `i`'s value times `sign`, as a program's objective.
    fn signed(&self, i: usize, sign: &Exact) -> Vec<(usize, Exact)> {
        self.values[i].iter().map(|(j, v)| (*j, v * sign)).collect()
    }

    /// Every objective's value at a point of the program.
    fn values_at(&self, point: &[Exact]) -> Vec<Exact> {
        self.values
            .iter()
            .map(|form| form.iter().map(|(j, v)| v * &point[*j]).sum())
            .collect()
    }

    /// Whether some strategy meets every limit.
    pub fn achievable(&self, limits: &[Limit]) -> Result<bool> {
        Ok(self.simplex(limits)?.is_some())
    }

    /// The greatest (`maximise`) or least value of objective `i` under `limits`.
    pub fn best(&self, i: usize, maximise: bool, limits: &[Limit]) -> Result<Best> {
        let Some(mut s) = self.simplex(limits)? else {
            return Ok(Best::Infeasible);
        };
        let sign = if maximise {
            Exact::one()
        } else {
            -Exact::one()
        };
        Ok(match s.maximise(&self.signed(i, &sign)) {
            Outcome::Optimal { value, .. } => Best::Value(value * sign),
            Outcome::Unbounded => Best::Unbounded,
            Outcome::Infeasible => Best::Infeasible,
        })
    }

    /// The Pareto curve of objectives `a` and `b`, each maximised (`true`) or minimised,
    /// under `limits`: its corners from the best `a` to the best `b`, each `(value of
    /// a, value of b)`, exactly; between two corners the curve is the segment joining
    /// them. Empty where no strategy meets the limits; an error where an objective is
    /// unbounded. One basis serves every solve, each starting where the last stopped.
    pub fn pareto(
        &self,
        (a, max_a): (usize, bool),
        (b, max_b): (usize, bool),
        limits: &[Limit],
    ) -> Result<Vec<(Exact, Exact)>> {
        let sign = |max: bool| if max { Exact::one() } else { -Exact::one() };
        let (sa, sb) = (sign(max_a), sign(max_b));
        let unbounded =
            || Error::Unsupported("an objective of the Pareto curve is unbounded".into());
        let Some(mut s) = self.simplex(limits)? else {
            return Ok(Vec::new());
        };
        // In the space where both are maximised: the point of a solve.
        let at = |v: Vec<Exact>| (&v[a] * &sa, &v[b] * &sb);
        let solved = |o: Outcome| match o {
            Outcome::Optimal { point, .. } => Ok(at(self.values_at(&point))),
            _ => Err(unbounded()),
        };
        // The two ends: the best of one objective, and among those the best of the
        // other.
        let o = s.maximise(&self.signed(a, &sa));
        solved(o)?;
        let o = s.then_maximise(&self.signed(b, &sb));
        let first = solved(o)?;
        let o = s.maximise(&self.signed(b, &sb));
        solved(o)?;
        let o = s.then_maximise(&self.signed(a, &sa));
        let last = solved(o)?;
        let mut corners = vec![first.clone(), last.clone()];
        // Between two corners, the weights normal to their segment find the corner
        // furthest beyond it, or show that the segment is on the curve.
        let mut stack = vec![(first, last)];
        while let Some((p, q)) = stack.pop() {
            if p == q {
                continue;
            }
            let w_a = &q.1 - &p.1;
            let w_b = &p.0 - &q.0;
            let mut weights = self.signed(a, &(&w_a * &sa));
            weights.extend(self.signed(b, &(&w_b * &sb)));
            let o = s.maximise(&merge(weights));
            let r = solved(o)?;
            let on = &w_a * &p.0 + &w_b * &p.1;
            let beyond = &w_a * &r.0 + &w_b * &r.1;
            if beyond > on {
                corners.push(r.clone());
                stack.push((r.clone(), q));
                stack.push((p, r));
            }
        }
        // From the best `a` down.
        corners.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
        corners.dedup();
        Ok(corners
            .into_iter()
            .map(|(x, y)| (x * &sa, y * &sb))
            .collect())
    }
}

/// Terms of one column added up.
fn merge(mut terms: Vec<(usize, Exact)>) -> Vec<(usize, Exact)> {
    terms.sort_by_key(|t| t.0);
    let mut out: Vec<(usize, Exact)> = Vec::with_capacity(terms.len());
    for (j, v) in terms {
        match out.last_mut() {
            Some((k, w)) if *k == j => *w += v,
            _ => out.push((j, v)),
        }
    }
    out.retain(|(_, v)| !v.is_zero());
    out
}
