//! The solver of a multi-objective query in `f64`, with certified bounds: weighted sums
//! of the objectives, each one total reward that the engine solves.
//!
//! Every objective is read as one to maximise (a least reward as the greatest of its
//! negation), and a point `x` holds the objectives' values. Under weights `w >= 0` the
//! best `w·x` over all strategies is one total reward: the engine bounds it above by
//! `U` (so every point that a strategy reaches lies below the plane `w·x = U`) and
//! gives a strategy without memory, whose chain it evaluates objective by objective:
//! the lower corner of those bounds is reached. Mixing strategies reaches everything
//! below the points found, so the set of reachable points lies between the points'
//! hull and the planes. Each question is asked of both by small linear programs in
//! exact rationals; where the answers differ by more than the precision, the weights
//! that best separate the upper answer's point from the points found are solved next.
//! The reachable set is a polytope, found in few rounds.
//!
//! A least reward enters the sum with a negative weight, which the engine's solvers of
//! rewards at least 0 do not take: it is shifted by a potential. With `Φ(s)` at least the
//! greatest reward from `s`, `-r(c)` becomes `Σ_t P(c, t)(Φ(s) - Φ(t)) - r(c)`, at least
//! 0 where `Φ` is the greatest reward (any `f64` shortfall is raised to 0, which only
//! raises the upper bound), and staying for ever from `s` gains `Φ(s)`: on every path the
//! new sum is the old one plus `Φ(start)`. `Φ` is made constant on each end component,
//! so the moves inside one gain exactly nothing, as the engine needs of a total reward.

use num_traits::{One, Signed, Zero};

use super::{Frame, Limit};
use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::{Form, Rewards};
use crate::ltl::product::NONE;
use crate::numeric::round::{above, below, clamp_precision, margin, UNIT};
use crate::numeric::simplex::{Constraint, Outcome, Relation, Simplex};
use crate::numeric::value::{Exact, Value};
use crate::solve::{total_reward, Answer, Context, Goal};

/// Rounds of weights tried for one question before it is given up.
const MAX_ROUNDS: usize = 400;

/// The most corners of a Pareto curve.
const MAX_CORNERS: usize = 200;

/// How close to a Pareto curve, as a share of its span, the segments between its
/// corners are drawn (or to the precision, where that is coarser).
const CURVE: f64 = 1e-4;

/// How much finer than the answer each solve within is.
const INNER: f64 = 1.0 / 64.0;

/// The most cells of the small programs' tableaux.
const SMALL_CELLS: usize = 4_000_000;

/// Lower and upper bounds on the best value of a question.
#[derive(Clone, Debug, PartialEq)]
pub enum Bounds {
    /// No strategy meets the limits.
    Infeasible,
    Value {
        lo: f64,
        hi: f64,
    },
}

/// A Pareto curve found in `f64`: its corners, each reached by a strategy, and how far
/// the curve may lie beyond the segments between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub corners: Vec<(f64, f64)>,
    /// Absolute, in either objective.
    pub error: f64,
}

/// The best of a linear form over the reachable points under limits: bounds, and a
/// point below the lower one's hull (reached by mixing strategies).
struct Range {
    lo: f64,
    hi: f64,
    /// The mixture's point: the midpoints of its strategies' bounds.
    point: Vec<f64>,
}

pub struct Weighted {
    /// The product with one more state (the end, absorbing) and, in each state, one
    /// more choice into it for each of its stays.
    form: Form,
    /// Each choice of `form`: the product's choice it is, or [`NONE`].
    origin: Vec<u32>,
    /// Each choice of `form`: the set of the stay it is, or [`NONE`].
    stay: Vec<u32>,
    /// Each product state's model state, for names.
    model_state: Vec<u32>,
    /// Each product state's end component ([`NONE`] outside one).
    component: Vec<u32>,
    start: usize,
    formulas: Vec<usize>,
    /// Each objective's reward of each product choice (empty for a probability).
    rewards: Vec<Vec<f64>>,
    /// The potentials of the rewards asked least, once found.
    potential: Vec<Option<Vec<f64>>>,
    /// For the question asked: each objective's sign (1 to maximise, -1 to minimise),
    /// the points reached and the planes above them (weights and bound).
    sign: Vec<f64>,
    points: Vec<Vec<f64>>,
    planes: Vec<(Vec<f64>, f64)>,
    /// The midpoints of each point's bounds, and the largest half-width of any.
    centres: Vec<Vec<f64>>,
    spread: f64,
    /// A hash of each point's strategy.
    strategies: Vec<u64>,
    /// Weighted sums solved, over all questions.
    pub solves: usize,
    pub product_states: usize,
    pub automaton_states: usize,
}

/// Bits kept of the numbers the small programs read (below the unit of a number's
/// binary magnitude, at least 1): rounded outward to them, the programs' rationals stay
/// short, at a cost far below any precision asked.
const KEPT_BITS: i32 = 40;

/// `x` rounded down (`up` false) or up to the grid of [`KEPT_BITS`].
fn snap(x: f64, up: bool) -> f64 {
    let scale = (2f64).powi(KEPT_BITS - x.abs().max(1.0).log2().ceil() as i32);
    let y = x * scale;
    let r = if up { y.ceil() } else { y.floor() };
    r / scale
}

/// An `f64` as a rational, exactly.
fn exact(f: f64) -> Exact {
    Exact::from_float(f).expect("a finite number")
}

/// `Σ a_i b_i` exactly.
fn dot(a: &[Exact], b: &[f64]) -> Exact {
    a.iter().zip(b).map(|(x, &y)| x * exact(y)).sum()
}

impl Weighted {
    pub(super) fn new(f: Frame) -> Result<Weighted> {
        let n = f.form.states();
        let m = &f.form;
        let mut form = Form {
            choices: vec![0],
            row: vec![0],
            initial: vec![f.start as u32],
            ..Form::default()
        };
        let (mut origin, mut stay) = (Vec::new(), Vec::new());
        let mut add =
            |form: &mut Form, o: u32, set: u32, moves: &mut dyn Iterator<Item = (u32, f64)>| {
                for (t, p) in moves {
                    form.to.push(t);
                    form.prob.push(p);
                }
                form.row.push(form.to.len());
                origin.push(o);
                stay.push(set);
            };
        for s in 0..n {
            for c in m.choices_of(s) {
                let t = m.transitions_of(c);
                let mut moves = m.to[t.clone()]
                    .iter()
                    .copied()
                    .zip(m.prob[t].iter().copied());
                add(&mut form, c as u32, NONE, &mut moves);
            }
            for &set in &f.stays[s] {
                add(&mut form, NONE, set, &mut std::iter::once((n as u32, 1.0)));
            }
            form.choices.push(form.row.len() - 1);
        }
        add(&mut form, NONE, NONE, &mut std::iter::once((n as u32, 1.0)));
        form.choices.push(form.row.len() - 1);

        let mut rewards = Vec::with_capacity(f.rewards.len());
        for r in &f.rewards {
            let r: Vec<f64> = r.iter().map(Value::to_f64).collect();
            if r.iter().any(|&v| v < 0.0 || !v.is_finite()) {
                return Err(Error::Unsupported(
                    "multi(...) in f64 takes rewards at least 0".into(),
                ));
            }
            rewards.push(r);
        }
        let mut component = vec![NONE; n];
        if let Some(ecs) = Graph::new(m).end_components(&vec![true; n], |_| true) {
            for k in 0..ecs.count() as u32 {
                for &s in ecs.get(k) {
                    component[s as usize] = k;
                }
            }
        }
        let objectives = f.rewards.len();
        Ok(Weighted {
            form,
            origin,
            stay,
            model_state: f.origin,
            component,
            start: f.start,
            formulas: f.formulas,
            rewards,
            potential: vec![None; objectives],
            sign: vec![1.0; objectives],
            points: Vec::new(),
            planes: Vec::new(),
            centres: Vec::new(),
            spread: 0.0,
            strategies: Vec::new(),
            solves: 0,
            product_states: f.product_states,
            automaton_states: f.automaton_states,
        })
    }

    fn objectives(&self) -> usize {
        self.rewards.len()
    }

    /// The greatest total reward of `choice` on `m` (a form of the product's states),
    /// solved finer than the answer.
    fn greatest(&self, m: &Form, choice: Vec<f64>, cx: &Context) -> Result<Answer> {
        let names = names(&self.model_state, cx);
        let mut inner = cx.naming(&names);
        inner.precision = clamp_precision(cx.precision * INNER);
        let rewards = Rewards {
            state: Vec::new(),
            choice,
        };
        total_reward(m, Goal::Max, &rewards, &inner)
    }

    /// An upper bound on the greatest total reward `i` from every product state,
    /// constant on each end component.
    fn potential_of(&mut self, i: usize, cx: &Context) -> Result<()> {
        if self.potential[i].is_some() {
            return Ok(());
        }
        let n = self.product_states;
        // The product alone: the form's first `n` states, without the stays.
        let mut m = Form {
            choices: vec![0],
            row: vec![0],
            initial: vec![self.start as u32],
            ..Form::default()
        };
        let mut choice = Vec::new();
        for s in 0..n {
            for c in self.form.choices_of(s) {
                let o = self.origin[c];
                if o == NONE {
                    continue;
                }
                let t = self.form.transitions_of(c);
                m.to.extend_from_slice(&self.form.to[t.clone()]);
                m.prob.extend_from_slice(&self.form.prob[t]);
                m.row.push(m.to.len());
                choice.push(self.rewards[i][o as usize]);
            }
            m.choices.push(m.row.len() - 1);
        }
        let a = self.greatest(&m, choice, cx)?;
        let mut phi: Vec<f64> = a
            .values
            .iter()
            .map(|&v| (v + a.error_bound * v.abs().max(1.0)) * (1.0 + 4.0 * UNIT))
            .collect();
        if phi.iter().any(|v| !v.is_finite()) {
            return Err(Error::Unsupported(
                "a reward of this multi(...) query is infinite under some strategy".into(),
            ));
        }
        let mut top = vec![0.0f64; n];
        for (&k, &v) in self.component.iter().zip(&phi) {
            if k != NONE {
                top[k as usize] = top[k as usize].max(v);
            }
        }
        for (&k, v) in self.component.iter().zip(phi.iter_mut()) {
            if k != NONE {
                *v = top[k as usize];
            }
        }
        self.potential[i] = Some(phi);
        Ok(())
    }

    /// The least value of objective `i` in the maximised space: 0, or minus the
    /// potential at the start.
    fn floor(&self, i: usize) -> f64 {
        if self.sign[i] > 0.0 {
            0.0
        } else {
            -self.potential[i].as_ref().expect("found")[self.start]
        }
    }

    /// Starts a question with these signs: the potentials they need, and the best of
    /// each objective alone.
    fn begin(&mut self, sign: Vec<f64>, cx: &Context) -> Result<()> {
        self.sign = sign;
        self.points.clear();
        self.planes.clear();
        self.centres.clear();
        self.spread = 0.0;
        self.strategies.clear();
        for i in 0..self.objectives() {
            if self.sign[i] < 0.0 {
                self.potential_of(i, cx)?;
            }
        }
        for i in 0..self.objectives() {
            let mut w = vec![0.0; self.objectives()];
            w[i] = 1.0;
            self.solve(&w, cx)?;
        }
        Ok(())
    }

    /// The best strategy for weights `w`: its point and the plane above every point
    /// (kept; the point's index and the plane returned).
    fn solve(&mut self, w: &[f64], cx: &Context) -> Result<(usize, f64)> {
        self.solves += 1;
        let n = self.product_states;
        let least: Vec<(usize, &[f64])> = (0..self.objectives())
            .filter(|&i| self.sign[i] < 0.0 && w[i] > 0.0)
            .map(|i| (i, &self.potential[i].as_ref().expect("found")[..]))
            .collect();
        let mut choice = vec![0.0; self.form.choice_count()];
        for s in 0..n {
            for c in self.form.choices_of(s) {
                let (o, set) = (self.origin[c], self.stay[c]);
                let (mut x, mut size) = (0.0f64, 0.0f64);
                let terms =
                    self.form.transitions_of(c).len() * (least.len() + 1) + self.objectives();
                if o != NONE {
                    let o = o as usize;
                    for (i, r) in self.rewards.iter().enumerate() {
                        if !r.is_empty() && self.sign[i] > 0.0 {
                            x += w[i] * r[o];
                            size += w[i] * r[o];
                        }
                    }
                    for &(i, phi) in &least {
                        let mut shift = 0.0;
                        let mut spread = 0.0;
                        for t in self.form.transitions_of(c) {
                            let d = phi[s] - phi[self.form.to[t] as usize];
                            shift += self.form.prob[t] * d;
                            spread += self.form.prob[t] * d.abs();
                        }
                        x += w[i] * (shift - self.rewards[i][o]);
                        size += w[i] * (spread + self.rewards[i][o]);
                    }
                } else {
                    for (b, &i) in self.formulas.iter().enumerate() {
                        if set >> b & 1 == 1 {
                            x += w[i];
                            size += w[i];
                        }
                    }
                    for &(i, phi) in &least {
                        x += w[i] * phi[s];
                        size += w[i] * phi[s];
                    }
                }
                // Up by more than the rounding of the sums: a bound from above.
                choice[c] = (x + size * margin(2 * terms)).max(0.0);
            }
        }
        let a = self.greatest(&self.form, choice, cx)?;
        let v = a.values[self.start];
        if !v.is_finite() {
            return Err(Error::Unsupported(
                "a weighted sum of this multi(...) query is infinite".into(),
            ));
        }
        let shift: f64 = least.iter().map(|&(i, phi)| w[i] * phi[self.start]).sum();
        let hi = v + a.error_bound * v.abs().max(1.0);
        let plane = snap(hi - shift + 64.0 * UNIT * (hi.abs() + shift.abs()), true);
        drop(least);
        // A strategy met before adds no point.
        let key = hash_of(&a.strategy);
        let j = match self.strategies.iter().position(|&k| k == key) {
            Some(j) => j,
            None => {
                let (point, centre, spread) = self.evaluate(&a.strategy, cx)?;
                self.strategies.push(key);
                self.points.push(point);
                self.centres.push(centre);
                self.spread = self.spread.max(spread);
                self.points.len() - 1
            }
        };
        self.planes.push((w.to_vec(), plane));
        Ok((j, plane))
    }

    /// The lower corner of the bounds on every objective under a strategy without
    /// memory (an index into each state's choices), in the maximised space; the
    /// bounds' midpoints, and their largest half-width.
    fn evaluate(&self, strategy: &[u32], cx: &Context) -> Result<(Vec<f64>, Vec<f64>, f64)> {
        let mut chain = Form {
            choices: Vec::with_capacity(strategy.len() + 1),
            row: vec![0],
            initial: vec![self.start as u32],
            ..Form::default()
        };
        chain.choices.push(0);
        let mut taken = Vec::with_capacity(strategy.len());
        for (s, &k) in strategy.iter().enumerate() {
            let c = self.form.choices[s] + k as usize;
            let t = self.form.transitions_of(c);
            chain.to.extend_from_slice(&self.form.to[t.clone()]);
            chain.prob.extend_from_slice(&self.form.prob[t]);
            chain.row.push(chain.to.len());
            chain.choices.push(chain.row.len() - 1);
            taken.push(c);
        }
        let mut point = Vec::with_capacity(self.objectives());
        let mut centre = Vec::with_capacity(self.objectives());
        let mut spread: f64 = 0.0;
        for i in 0..self.objectives() {
            let choice: Vec<f64> = if self.rewards[i].is_empty() {
                let b = self
                    .formulas
                    .iter()
                    .position(|&j| j == i)
                    .expect("a formula's objective");
                taken
                    .iter()
                    .map(|&c| {
                        let set = self.stay[c];
                        f64::from(u8::from(set != NONE && set >> b & 1 == 1))
                    })
                    .collect()
            } else {
                taken
                    .iter()
                    .map(|&c| match self.origin[c] {
                        NONE => 0.0,
                        o => self.rewards[i][o as usize],
                    })
                    .collect()
            };
            let a = self.greatest(&chain, choice, cx)?;
            let v = a.values[self.start];
            let e = if a.pinned[self.start] {
                0.0
            } else {
                a.error_bound * v.abs().max(1.0) + 4.0 * UNIT * v.abs()
            };
            point.push(snap(
                if self.sign[i] > 0.0 {
                    (v - e).max(0.0)
                } else {
                    -(v + e)
                },
                false,
            ));
            centre.push(self.sign[i] * v);
            spread = spread.max(2.0 * e);
        }
        Ok((point, centre, spread))
    }

    /// Each limited objective's least value in the maximised space.
    fn targets(&self, limits: &[Limit]) -> Vec<Option<Exact>> {
        let mut t = vec![None; self.objectives()];
        for l in limits {
            t[l.objective] = Some(if l.relation == Relation::Le {
                -l.value.clone()
            } else {
                l.value.clone()
            });
        }
        t
    }

    /// The best of `c·x` over the points below the planes meeting the targets, and a
    /// point where it is: `None` where none meets them.
    fn upper(&self, c: &[f64], t: &[Option<Exact>]) -> Result<Option<(Exact, Vec<Exact>)>> {
        let k = self.objectives();
        // Over `y = x - floor >= 0`.
        let floor: Vec<f64> = (0..k).map(|i| self.floor(i)).collect();
        let mut rows = Vec::new();
        for (w, u) in &self.planes {
            rows.push(Constraint {
                terms: (0..k).map(|i| (i, exact(w[i]))).collect(),
                relation: Relation::Le,
                bound: exact(*u) - dot(&w.iter().map(|&x| exact(x)).collect::<Vec<_>>(), &floor),
            });
        }
        for (i, ti) in t.iter().enumerate() {
            if let Some(ti) = ti {
                rows.push(Constraint {
                    terms: vec![(i, <Exact as One>::one())],
                    relation: Relation::Ge,
                    bound: ti - exact(floor[i]),
                });
            }
        }
        let objective: Vec<(usize, Exact)> = (0..k).map(|i| (i, exact(c[i]))).collect();
        let Some(s) = Simplex::new(k, &rows, SMALL_CELLS).ok_or_else(too_many)? else {
            return Ok(None);
        };
        let mut s = s;
        match s.maximise(&objective) {
            Outcome::Optimal { value, point } => {
                let x: Vec<Exact> = point
                    .into_iter()
                    .zip(&floor)
                    .map(|(y, &f)| y + exact(f))
                    .collect();
                let shift: Exact = (0..k).map(|i| exact(c[i]) * exact(floor[i])).sum();
                Ok(Some((value + shift, x)))
            }
            Outcome::Infeasible => Ok(None),
            Outcome::Unbounded => Err(Error::Unsupported(
                "an objective of this multi(...) query is unbounded".into(),
            )),
        }
    }

    /// The best of `c·x` (then of `then·x`) over the mixtures of the points found that
    /// meet the targets: its value and the mixture of the points' midpoints. `None`
    /// where none meets them.
    fn lower(
        &self,
        c: &[f64],
        then: Option<&[f64]>,
        t: &[Option<Exact>],
    ) -> Result<Option<(Exact, Vec<f64>)>> {
        let k = self.objectives();
        let m = self.points.len();
        let points: Vec<Vec<Exact>> = self
            .points
            .iter()
            .map(|p| p.iter().map(|&x| exact(x)).collect())
            .collect();
        let mut rows = vec![Constraint {
            terms: (0..m).map(|j| (j, <Exact as One>::one())).collect(),
            relation: Relation::Eq,
            bound: <Exact as One>::one(),
        }];
        for (i, ti) in t.iter().enumerate() {
            if let Some(ti) = ti {
                rows.push(Constraint {
                    terms: (0..m).map(|j| (j, points[j][i].clone())).collect(),
                    relation: Relation::Ge,
                    bound: ti.clone(),
                });
            }
        }
        let form = |c: &[f64]| -> Vec<(usize, Exact)> {
            (0..m).map(|j| (j, dot(&points[j], c))).collect()
        };
        let Some(mut s) = Simplex::new(m, &rows, SMALL_CELLS).ok_or_else(too_many)? else {
            return Ok(None);
        };
        let mut outcome = s.maximise(&form(c));
        if let Some(then) = then {
            outcome = s.then_maximise(&form(then));
        }
        let Outcome::Optimal { point: lambda, .. } = outcome else {
            return Ok(None);
        };
        let x: Vec<Exact> = (0..k)
            .map(|i| (0..m).map(|j| &lambda[j] * &points[j][i]).sum())
            .collect();
        let value = dot(&x, c);
        let centre = (0..k)
            .map(|i| {
                (0..m)
                    .map(|j| lambda[j].to_f64() * self.centres[j][i])
                    .sum()
            })
            .collect();
        Ok(Some((value, centre)))
    }

    /// The weights (at least 0, adding up to 1) under which `x` lies furthest beyond
    /// the points found, and how far: at most 0 where a mixture of them reaches `x`.
    fn separate(&self, x: &[Exact]) -> Result<(Exact, Vec<f64>)> {
        let k = self.objectives();
        // Columns: the weights, then the distance as a difference of two.
        let mut rows = vec![Constraint {
            terms: (0..k).map(|i| (i, <Exact as One>::one())).collect(),
            relation: Relation::Eq,
            bound: <Exact as One>::one(),
        }];
        for p in &self.points {
            let mut terms: Vec<(usize, Exact)> = (0..k).map(|i| (i, &x[i] - exact(p[i]))).collect();
            terms.push((k, -<Exact as One>::one()));
            terms.push((k + 1, <Exact as One>::one()));
            rows.push(Constraint {
                terms,
                relation: Relation::Ge,
                bound: <Exact as Zero>::zero(),
            });
        }
        let objective = [(k, <Exact as One>::one()), (k + 1, -<Exact as One>::one())];
        let s = Simplex::new(k + 2, &rows, SMALL_CELLS).ok_or_else(too_many)?;
        let Some(mut s) = s else {
            unreachable!("any weights meet the rows")
        };
        match s.maximise(&objective) {
            Outcome::Optimal { value, point } => {
                // Any weights give a sound plane: short ones keep the programs short.
                let w = point[..k]
                    .iter()
                    .map(|x| snap(x.to_f64(), false).max(0.0))
                    .collect();
                Ok((value, w))
            }
            _ => unreachable!("the distance is bounded by the points'"),
        }
    }

    /// How far apart two answers near `v` may be.
    fn tolerance(v: f64, cx: &Context) -> f64 {
        clamp_precision(cx.precision) * v.abs().max(1.0)
    }

    /// The best of `c·x` (weights at least 0) over the reachable points meeting
    /// targets `t`, to the precision; `None` where no strategy meets them.
    fn maximise(
        &mut self,
        c: &[f64],
        then: Option<&[f64]>,
        t: &[Option<Exact>],
        cx: &Context,
    ) -> Result<Option<Range>> {
        for _ in 0..MAX_ROUNDS {
            let Some((u, top)) = self.upper(c, t)? else {
                return Ok(None);
            };
            let hi = above(&u);
            let low = self.lower(c, then, t)?;
            if let Some((l, x)) = &low {
                let lo = below(l);
                if hi - lo <= Self::tolerance(hi, cx) {
                    return Ok(Some(Range {
                        lo,
                        hi: hi.max(lo),
                        point: x.clone(),
                    }));
                }
            }
            let (delta, w) = self.separate(&top)?;
            // The weights' solves cannot bring the bounds closer.
            if below(&delta) <= Self::tolerance(hi, cx) * INNER {
                let Some((l, x)) = &low else {
                    return Err(boundary());
                };
                return Ok(Some(Range {
                    lo: below(l),
                    hi: hi.max(below(l)),
                    point: x.clone(),
                }));
            }
            self.solve(&w, cx)?;
        }
        Err(Error::Undecided(format!(
            "the bounds of this multi(...) query did not meet within {MAX_ROUNDS} weighted \
             sums; ask with --exact"
        )))
    }

    /// Signs: from the limits' relations, and `wanted` (objective, maximised).
    fn signs(&self, limits: &[Limit], wanted: &[(usize, bool)]) -> Vec<f64> {
        let mut sign = vec![1.0; self.objectives()];
        for l in limits {
            if l.relation == Relation::Le {
                sign[l.objective] = -1.0;
            }
        }
        for &(i, max) in wanted {
            sign[i] = if max { 1.0 } else { -1.0 };
        }
        sign
    }

    /// Whether some strategy meets every limit. An error where the limits lie within
    /// the precision of what strategies reach.
    pub fn achievable(&mut self, limits: &[Limit], cx: &Context) -> Result<bool> {
        self.begin(self.signs(limits, &[]), cx)?;
        self.meets(limits, cx)
    }

    /// Whether some strategy meets every limit, strict ones with room to spare: told
    /// from the points and planes found, with more solves where they cannot tell.
    fn meets(&mut self, limits: &[Limit], cx: &Context) -> Result<bool> {
        let t = self.targets(limits);
        let k = self.objectives();
        let strict: Vec<bool> = (0..k)
            .map(|i| limits.iter().any(|l| l.objective == i && l.strict))
            .collect();
        // Unlimited objectives ask for less than any strategy reaches.
        let target: Vec<Exact> = (0..k)
            .map(|i| t[i].clone().unwrap_or_else(|| exact(self.floor(i) - 1.0)))
            .collect();
        for _ in 0..MAX_ROUNDS {
            let (delta, w) = self.separate(&target)?;
            if delta.is_negative() || (delta.is_zero() && !strict.contains(&true)) {
                return Ok(true);
            }
            let mut closest = f64::INFINITY;
            for (w, u) in &self.planes {
                let at = dot(&target, w);
                let room = exact(*u) - &at;
                let all_strict = (0..k).all(|i| w[i] == 0.0 || strict[i]);
                if room.is_negative() || (room.is_zero() && all_strict) {
                    return Ok(false);
                }
                closest = closest.min(room.to_f64());
            }
            let tol = Self::tolerance(closest, cx) * INNER;
            if delta.to_f64() <= tol && closest <= tol {
                return Err(boundary());
            }
            self.solve(&w, cx)?;
        }
        Err(boundary())
    }

    /// Bounds on the greatest (`maximise`) or least value of objective `i` under
    /// `limits` (strict limits as their closure: the value is the least upper bound).
    pub fn best(
        &mut self,
        i: usize,
        maximise: bool,
        limits: &[Limit],
        cx: &Context,
    ) -> Result<Bounds> {
        self.begin(self.signs(limits, &[(i, maximise)]), cx)?;
        // A strict limit met only at its edge is met by no strategy.
        if limits.iter().any(|l| l.strict) && !self.meets(limits, cx)? {
            return Ok(Bounds::Infeasible);
        }
        let t = self.targets(limits);
        let mut c = vec![0.0; self.objectives()];
        c[i] = 1.0;
        Ok(match self.maximise(&c, None, &t, cx)? {
            None => Bounds::Infeasible,
            Some(r) if maximise => Bounds::Value { lo: r.lo, hi: r.hi },
            Some(r) => Bounds::Value {
                lo: -r.hi,
                hi: -r.lo,
            },
        })
    }

    /// The Pareto curve of the only two objectives, as [`Weighted::pareto`] (whose
    /// `begin` has solved each alone): no program is needed. Between two corners, the
    /// weights normal to their segment find a point beyond it, a new corner, or a plane
    /// close above it.
    fn pareto_plain(&mut self, a: usize, b: usize, cx: &Context) -> Result<Curve> {
        let (ja, jb) = (self.best_point(a), self.best_point(b));
        let (pa, ua) = (self.points[ja].clone(), self.planes[a].1);
        let (pb, ub) = (self.points[jb].clone(), self.planes[b].1);
        let mut error: f64 = (ua - pa[a]).max(ub - pb[b]).max(0.0);
        let at = |x: &[f64]| (x[a], x[b]);
        // Each corner's point, by its lower corner.
        let mut found = vec![(at(&pa), ja), (at(&pb), jb)];
        // A curve of many corners is drawn to a share of its span.
        let span = (pa[a] - pb[a]).abs().max((pb[b] - pa[b]).abs());
        let close = |on: f64| Self::tolerance(on, cx).max(CURVE * span);
        let mut corners = vec![at(&pa), at(&pb)];
        let mut stack = vec![(at(&pa), at(&pb))];
        while let Some((p, q)) = stack.pop() {
            let (wa, wb) = (q.1 - p.1, p.0 - q.0);
            if wa <= 0.0 || wb <= 0.0 {
                continue;
            }
            let mut w = vec![0.0; self.objectives()];
            w[a] = snap(wa / (wa + wb), false);
            w[b] = snap(wb / (wa + wb), false);
            let (j, u) = self.solve(&w, cx)?;
            let r = self.points[j].clone();
            let on = (w[a] * p.0 + w[b] * p.1).max(w[a] * q.0 + w[b] * q.1);
            if weighed(&w, &r) > on + close(on) && corners.len() < MAX_CORNERS {
                let x = at(&r);
                corners.push(x);
                found.push((x, j));
                stack.push((x, q));
                stack.push((p, x));
            } else {
                // The curve lies within `u - on` of the segment's line along the
                // weights, whose larger part is at least a half.
                error = error.max(2.0 * (u - on).max(0.0));
            }
        }
        // Drawn through the points' midpoints.
        let corners = self.kept(corners);
        let centres = corners
            .iter()
            .map(|c| {
                let j = found.iter().find(|f| f.0 == *c).expect("found").1;
                (self.centres[j][a], self.centres[j][b])
            })
            .collect();
        Ok(self.curve(a, b, centres, error))
    }

    /// The point found with the greatest objective `j` (after `begin`, that of its
    /// solve alone).
    fn best_point(&self, j: usize) -> usize {
        (0..self.points.len())
            .max_by(|&x, &y| self.points[x][j].total_cmp(&self.points[y][j]))
            .expect("a point per solve")
    }

    /// Corners from the best `a` to the best `b`, none below another.
    fn kept(&self, mut corners: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
        corners.sort_by(|x, y| y.0.total_cmp(&x.0).then(y.1.total_cmp(&x.1)));
        let mut kept: Vec<(f64, f64)> = Vec::with_capacity(corners.len());
        for c in corners {
            if kept.last().is_none_or(|l| c.1 > l.1) {
                kept.push(c);
            }
        }
        kept
    }

    /// The curve in the objectives' own signs, its error with the points' own.
    fn curve(&self, a: usize, b: usize, corners: Vec<(f64, f64)>, error: f64) -> Curve {
        let (sa, sb) = (self.sign[a], self.sign[b]);
        Curve {
            corners: corners.into_iter().map(|(x, y)| (x * sa, y * sb)).collect(),
            error: error + self.spread,
        }
    }

    /// minimised, under `limits`: corners reached by strategies, from the best `a` to
    /// the best `b`, and how far the curve may lie beyond them. No corners where no
    /// strategy meets the limits.
    pub fn pareto(
        &mut self,
        (a, max_a): (usize, bool),
        (b, max_b): (usize, bool),
        limits: &[Limit],
        cx: &Context,
    ) -> Result<Curve> {
        self.begin(self.signs(limits, &[(a, max_a), (b, max_b)]), cx)?;
        if limits.is_empty() {
            return self.pareto_plain(a, b, cx);
        }
        if limits.iter().any(|l| l.strict) && !self.meets(limits, cx)? {
            return Ok(Curve {
                corners: Vec::new(),
                error: 0.0,
            });
        }
        let t = self.targets(limits);
        let k = self.objectives();
        let unit = |i: usize| -> Vec<f64> { (0..k).map(|j| f64::from(u8::from(j == i))).collect() };
        let (ea, eb) = (unit(a), unit(b));
        let Some(first) = self.maximise(&ea, Some(&eb), &t, cx)? else {
            return Ok(Curve {
                corners: Vec::new(),
                error: 0.0,
            });
        };
        let last = self
            .maximise(&eb, Some(&ea), &t, cx)?
            .expect("feasible as before");
        let mut error = (first.hi - first.lo).max(last.hi - last.lo);
        let at = |r: &Range| (r.point[a], r.point[b]);
        let (p0, q0) = (at(&first), at(&last));
        let mut corners = vec![p0, q0];
        let mut stack = vec![(p0, q0)];
        while let Some((p, q)) = stack.pop() {
            let (wa, wb) = (q.1 - p.1, p.0 - q.0);
            if wa <= 0.0 || wb <= 0.0 || corners.len() >= MAX_CORNERS {
                continue;
            }
            let (wa, wb) = (wa / (wa + wb), wb / (wa + wb));
            let mut c = vec![0.0; k];
            c[a] = wa;
            c[b] = wb;
            let r = self
                .maximise(&c, None, &t, cx)?
                .expect("feasible as before");
            let on = (wa * p.0 + wb * p.1).max(wa * q.0 + wb * q.1);
            if r.lo > on + Self::tolerance(on, cx) {
                let x = at(&r);
                corners.push(x);
                stack.push((x, q));
                stack.push((p, x));
            } else {
                // The curve lies within `r.hi - on` of the segment, along the weights
                // (whose larger part is at least a half).
                error = error.max(2.0 * (r.hi - on).max(0.0));
            }
        }
        Ok(self.curve(a, b, self.kept(corners), error))
    }
}

/// The product's states' names (their model states'), the end's its own.
fn names<'a>(model_state: &'a [u32], cx: &'a Context) -> impl Fn(usize) -> String + Sync + 'a {
    move |s: usize| match model_state.get(s) {
        Some(&o) if o != NONE => (cx.names)(o as usize),
        _ => "the end of the product".into(),
    }
}

/// A strategy's hash.
fn hash_of(strategy: &[u32]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    strategy.hash(&mut h);
    h.finish()
}

/// Limits that the bounds cannot tell met or not.
fn boundary() -> Error {
    Error::Undecided(
        "the limits of this multi(...) query lie within the precision of what strategies \
         reach: ask with --exact"
            .into(),
    )
}

/// `w·x`, in `f64`.
fn weighed(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

fn too_many() -> Error {
    Error::Unsupported("the weighted sums' programs grew too large".into())
}
