//! Several objectives of one decision process at once: probabilities of LTL formulas
//! and expected total rewards (within `k` steps, or over all), as a linear program over
//! the expected number of times each choice is taken.
//!
//! The model is read by every formula's automaton together (and by a step counter for
//! rewards within `k` steps): the product. A strategy of the product ends, with some
//! probability, staying for ever in an end component; one whose states let the
//! automata of a set `J` of formulas accept satisfies those formulas (and, if it stays,
//! gathers no more reward: only the choices without reward make such components).
//! The program's variables are `y_c`, the expected number of times choice `c` is
//! taken, and `x_(s,J)`, the probability of staying for ever from state `s` in a
//! component that satisfies `J`. Each state passes on what reaches it:
//!
//! `Σ_c of s y_c + Σ_J x_(s,J) - Σ_c' P(c', s) y_c' = 1 if s is initial, else 0`
//!
//! A formula's probability is the sum of the `x_(s,J)` with it in `J`, a reward's
//! expectation `Σ_c r(c) y_c`. The points the program reaches are what strategies reach
//! (which may need randomisation and memory); the answers are exact. Every objective is
//! a probability to maximise (the front end turns a least one into the greatest of the
//! negation: a set `J` is "at least `J`"), or a total reward that no strategy gathers
//! for ever (else the query is refused).

use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap;

use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::{ExactRewards, Form};
use crate::ltl::automaton::{Automaton, Next};
use crate::ltl::product::{self, Reader};
use crate::ltl::{Letter, Ltl};
use crate::numeric::simplex::{Constraint, Outcome, Relation, Simplex};
use crate::numeric::value::Exact;

/// One objective, to be maximised or bounded.
#[derive(Clone, Debug)]
pub enum Objective {
    /// The probability of a formula.
    Probability(Ltl),
    /// The expected reward over all steps, or over the first `steps`.
    Reward {
        rewards: ExactRewards,
        steps: Option<u64>,
    },
}

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

/// A component's state in a tuple: an automaton's, or these where it has decided.
const ACCEPTED: u32 = u32::MAX;
const REJECTED: u32 = u32::MAX - 1;

enum Part {
    Automaton(Box<Automaton>),
    /// Steps taken, up to the largest bound.
    Counter(u64),
}

/// The automata of the formulas and a step counter, reading together.
struct Tuple {
    parts: Vec<Part>,
    states: Vec<Vec<u32>>,
    index: FxHashMap<Vec<u32>, u32>,
}

impl Tuple {
    fn intern(&mut self, t: Vec<u32>) -> Next {
        let id = match self.index.get(&t) {
            Some(&id) => id,
            None => {
                let id = self.states.len() as u32;
                self.states.push(t.clone());
                self.index.insert(t, id);
                id
            }
        };
        Next::State(id)
    }

    fn decided(n: Next) -> u32 {
        match n {
            Next::Accepted => ACCEPTED,
            Next::Rejected => REJECTED,
            Next::State(q) => q,
        }
    }

    /// Whether part `i` of tuple state `q` accepts in an end component with these
    /// states: `None` where it cannot (before the jump, or rejected); else the monitors
    /// that fired on arriving and all of them.
    fn acceptance(&self, q: u32, i: usize) -> Option<(u64, u64)> {
        let Part::Automaton(a) = &self.parts[i] else {
            return None;
        };
        match self.states[q as usize][i] {
            ACCEPTED => Some((0, 0)),
            REJECTED => None,
            s => a.acceptance(s).map(|(_, fired, all)| (fired, all)),
        }
    }

    /// The steps taken in tuple state `q` (0 without a counter).
    fn steps(&self, q: u32) -> u64 {
        self.parts
            .iter()
            .zip(&self.states[q as usize])
            .find_map(|(p, &v)| matches!(p, Part::Counter(_)).then_some(u64::from(v)))
            .unwrap_or(0)
    }
}

impl Reader for Tuple {
    fn first(&mut self, letter: Letter) -> Next {
        let t = self
            .parts
            .iter_mut()
            .map(|p| match p {
                Part::Automaton(a) => Tuple::decided(a.first(letter)),
                Part::Counter(_) => 0,
            })
            .collect();
        self.intern(t)
    }

    fn step(&mut self, q: u32, letter: Letter) -> Next {
        let now = self.states[q as usize].clone();
        let t = self
            .parts
            .iter_mut()
            .zip(now)
            .map(|(p, v)| match p {
                Part::Automaton(_) if v >= REJECTED => v,
                Part::Automaton(a) => Tuple::decided(a.step(v, letter)),
                Part::Counter(k) => (u64::from(v) + 1).min(*k) as u32,
            })
            .collect();
        self.intern(t)
    }

    fn jumps(&mut self, q: u32) -> Result<Vec<Next>> {
        let now = self.states[q as usize].clone();
        let mut out = Vec::new();
        for i in 0..self.parts.len() {
            let Part::Automaton(a) = &mut self.parts[i] else {
                continue;
            };
            if now[i] >= REJECTED {
                continue;
            }
            for j in a.jumps(now[i])? {
                let mut t = now.clone();
                t[i] = Tuple::decided(j);
                out.push(self.intern(t));
            }
        }
        Ok(out)
    }
}

/// The program of `objectives` on decision process `m` (with exact probabilities and
/// one initial state), `letters[s]` holding the atomic propositions of state `s`.
pub fn program(
    m: &Form,
    letters: &[Letter],
    objectives: &[Objective],
    max_states: usize,
    names: &(dyn Fn(usize) -> String + Sync),
) -> Result<Program> {
    m.exact_probs()?;
    if m.initial.len() != 1 {
        return Err(Error::Unsupported(format!(
            "a multi-objective query needs one initial state; the model has {}",
            m.initial.len()
        )));
    }
    let probabilities = objectives
        .iter()
        .filter(|o| matches!(o, Objective::Probability(_)))
        .count();
    if probabilities > 12 {
        return Err(Error::Unsupported(
            "a multi-objective query takes at most 12 probabilities".into(),
        ));
    }
    let mut parts = Vec::new();
    // Each objective's part of the tuple (a formula's automaton), and the reward
    // objectives' step bounds.
    let mut part_of = vec![usize::MAX; objectives.len()];
    let longest = objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Reward { steps, .. } => *steps,
            _ => None,
        })
        .max();
    for (i, o) in objectives.iter().enumerate() {
        if let Objective::Probability(f) = o {
            part_of[i] = parts.len();
            parts.push(Part::Automaton(Box::new(
                Automaton::finite(f).unwrap_or_else(|| Automaton::limit_deterministic(f)),
            )));
        }
    }
    if let Some(k) = longest {
        if k >= u64::from(REJECTED) {
            return Err(Error::Unsupported(format!(
                "a step bound of {k} is too large for a multi-objective query"
            )));
        }
        parts.push(Part::Counter(k));
    }
    let mut tuple = Tuple {
        parts,
        states: Vec::new(),
        index: FxHashMap::default(),
    };
    let p = product::build(m, letters, &mut tuple, true, max_states)?;
    let automaton_states = tuple
        .parts
        .iter()
        .map(|p| match p {
            Part::Automaton(a) => a.len(),
            Part::Counter(_) => 0,
        })
        .sum();
    let n = p.states();
    let choices = p.form.choice_count();
    let g = Graph::new(&p.form);

    // Each reward objective's reward of each product choice.
    let reward_of = |rewards: &ExactRewards, steps: Option<u64>, c: usize| -> Exact {
        let origin = p.choice_origin[c];
        if origin == product::NONE {
            return Exact::zero();
        }
        let s = g.owner[c] as usize;
        if steps.is_some_and(|k| tuple.steps(p.automaton_state[s]) >= k) {
            return Exact::zero();
        }
        let mut r = Exact::zero();
        if !rewards.state.is_empty() {
            r += &rewards.state[p.origin[s] as usize];
        }
        if !rewards.choice.is_empty() {
            r += &rewards.choice[origin as usize];
        }
        r
    };
    let mut rewarded = vec![false; choices];
    let mut reward_values: Vec<Vec<Exact>> = Vec::new();
    for o in objectives {
        if let Objective::Reward { rewards, steps } = o {
            let r: Vec<Exact> = (0..choices)
                .map(|c| reward_of(rewards, *steps, c))
                .collect();
            for (c, v) in r.iter().enumerate() {
                rewarded[c] |= !v.is_zero();
            }
            reward_values.push(r);
        }
    }

    // Where a path may stay for ever, and which formulas it then satisfies: for each
    // set `J` of formulas, the end components without reward where each of `J`
    // accepts.
    let formulas: Vec<usize> = (0..objectives.len())
        .filter(|&i| part_of[i] != usize::MAX)
        .collect();
    // A total reward that a strategy could gather for ever is infinite there, which the
    // program's expectations cannot say: such a query is refused.
    if let Some(ecs) = g.end_components(&vec![true; n], |_| true) {
        let mut of = vec![u32::MAX; n];
        for k in 0..ecs.count() as u32 {
            for &s in ecs.get(k) {
                of[s as usize] = k;
            }
        }
        for s in 0..n {
            if of[s] == u32::MAX {
                continue;
            }
            for c in p.form.choices_of(s) {
                let stays_in = p.form.to[p.form.transitions_of(c)]
                    .iter()
                    .all(|&t| of[t as usize] == of[s]);
                if stays_in && rewarded[c] {
                    return Err(Error::Unsupported(format!(
                        "a strategy can gather a total reward of this query for ever (in {}), \
                         where it is infinite; multi(...) takes total rewards that stay \
                         finite, or rewards within k steps (`[C<=k]`)",
                        names(p.origin[s] as usize)
                    )));
                }
            }
        }
    }
    let mut stays: Vec<Vec<u32>> = vec![Vec::new(); n];
    for set in 0u32..1 << formulas.len() {
        let members: Vec<usize> = (0..formulas.len()).filter(|b| set >> b & 1 == 1).collect();
        let region: Vec<bool> = (0..n)
            .map(|s| {
                // The product's two decided states are never reached here: the tuple
                // reads on.
                p.origin[s] != product::NONE
                    && members.iter().all(|&b| {
                        tuple
                            .acceptance(p.automaton_state[s], part_of[formulas[b]])
                            .is_some()
                    })
            })
            .collect();
        let Some(ecs) = g.end_components(&region, |c| !rewarded[c]) else {
            continue;
        };
        for k in 0..ecs.count() as u32 {
            let states = ecs.get(k);
            let accepts = members.iter().all(|&b| {
                let part = part_of[formulas[b]];
                let mut fired = 0;
                let mut all = 0;
                for &s in states {
                    let (f, a) = tuple
                        .acceptance(p.automaton_state[s as usize], part)
                        .expect("in the region");
                    fired |= f;
                    all = a;
                }
                fired == all
            });
            if accepts {
                for &s in states {
                    stays[s as usize].push(set);
                }
            }
        }
    }
    // A set within another set of the same state adds nothing.
    for sets in stays.iter_mut() {
        let all = sets.clone();
        sets.retain(|&a| !all.iter().any(|&b| b != a && b & a == a));
    }

    // The columns: each choice, then each stay.
    let mut columns = choices;
    let mut flow: Vec<Vec<(usize, Exact)>> = vec![Vec::new(); n];
    let probs = p.form.exact_probs()?;
    for s in 0..n {
        for c in p.form.choices_of(s) {
            flow[s].push((c, Exact::one()));
            for t in p.form.transitions_of(c) {
                let to = p.form.to[t] as usize;
                let pr = &probs.values[probs.id[t] as usize];
                flow[to].push((c, -pr.clone()));
            }
        }
    }
    let mut values: Vec<Vec<(usize, Exact)>> = vec![Vec::new(); objectives.len()];
    for (s, sets) in stays.iter().enumerate() {
        for &set in sets {
            flow[s].push((columns, Exact::one()));
            for (b, &i) in formulas.iter().enumerate() {
                if set >> b & 1 == 1 {
                    values[i].push((columns, Exact::one()));
                }
            }
            columns += 1;
        }
    }
    let mut rewards = reward_values.into_iter();
    for (i, o) in objectives.iter().enumerate() {
        if let Objective::Reward { .. } = o {
            let r = rewards.next().expect("one per reward objective");
            values[i] = r
                .into_iter()
                .enumerate()
                .filter(|(_, v)| !v.is_zero())
                .collect();
        }
    }
    let start = p.start[m.initial[0] as usize] as usize;
    let flow = flow
        .into_iter()
        .enumerate()
        .map(|(s, terms)| Constraint {
            terms: merge(terms),
            relation: Relation::Eq,
            bound: if s == start {
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
        automaton_states,
    })
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

/// A bound on one objective: at least (`Ge`) or at most (`Le`) a value.
#[derive(Clone, Debug)]
pub struct Limit {
    pub objective: usize,
    pub relation: Relation,
    pub value: Exact,
    /// The value itself does not meet it (`>`, `<`).
    pub strict: bool,
}

/// The best value of one objective under limits on others.
#[derive(Clone, Debug, PartialEq)]
pub enum Best {
    /// No strategy meets the limits.
    Infeasible,
    /// The objective grows without bound (a reward).
    Unbounded,
    Value(Exact),
}

impl Program {
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
