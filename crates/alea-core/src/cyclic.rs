//! The solver for models whose states form cycles through chance nodes (a reset sends a
//! counter back to zero).
//!
//! The states are split into strongly connected components (Tarjan's algorithm, with
//! an explicit stack), which are solved one at a time, each after every component it
//! leads to. A component of one state is evaluated as in the acyclic solver, a
//! self-loop eliminated in closed form there.
//! A larger component is a set of cycles: the targets of the depth-first search's back
//! edges (the cut states) become unknowns, every state of the component is written as an
//! affine function of them, and the small linear system that the cut states' own
//! functions form is solved.
//!
//! Nothing is subtracted: besides its affine coefficients, each state carries its
//! "escape" mass, the probability of leaving the component before meeting a cut state,
//! and the system is eliminated in the Grassmann-Taksar-Heyman way, where every pivot
//! `1 - a_jj` is formed as `escape_j + sum_{l != j} a_jl`. So a reset probability close
//! to one costs no digits, where the textbook `1 - a` would lose them.
//!
//! A cycle through a maximising or minimising choice has no linear solution; it is
//! reported as [`Error::ChoiceCycle`] rather than iterated.

use rustc_hash::FxHashMap;

use crate::acyclic::Limits;
use crate::error::{Error, Result};
use crate::model::{Edge, Expansion, Kind, Model, Pick};
use crate::solution::{node_value, total_weight, Solution};
use crate::value::Value;

/// The most affine coefficients (component states times cut states) a solve may hold.
const MAX_COEFFICIENTS: usize = 1 << 28;

/// Per-state bookkeeping of Tarjan's algorithm.
struct Visit {
    index: u32,
    low: u32,
    /// Still on Tarjan's stack (its component is not complete yet).
    on_stack: bool,
    /// On the current depth-first path (the target of a back edge is a cut state).
    on_path: bool,
    /// Order of finishing: within a component, every edge that is not a back edge
    /// leads to a state that finished earlier.
    finished: u32,
    cut: bool,
}

struct Frame<S> {
    id: u32,
    edges: Vec<Edge<S>>,
    next: usize,
}

/// Evaluates every state reachable from the model's start, cycles included.
pub fn solve_cyclic<M: Model, V: Value>(
    model: &M,
    limits: &Limits,
) -> Result<Solution<M::State, V>> {
    let start = model.canonical(model.start());
    let mut ids: FxHashMap<M::State, u32> = FxHashMap::default();
    let mut states: Vec<M::State> = Vec::new();
    let mut visits: Vec<Visit> = Vec::new();
    let mut tarjan: Vec<u32> = Vec::new();
    let mut values: FxHashMap<M::State, V> = FxHashMap::default();
    let mut buf = Expansion::default();
    let mut finished = 0u32;

    let discover = |state: M::State,
                    ids: &mut FxHashMap<M::State, u32>,
                    states: &mut Vec<M::State>,
                    visits: &mut Vec<Visit>,
                    tarjan: &mut Vec<u32>,
                    buf: &mut Expansion<M::State>|
     -> Result<Frame<M::State>> {
        if states.len() >= limits.max_states {
            return Err(Error::TooManyStates {
                limit: limits.max_states,
            });
        }
        let id = states.len() as u32;
        ids.insert(state, id);
        states.push(state);
        visits.push(Visit {
            index: id,
            low: id,
            on_stack: true,
            on_path: true,
            finished: 0,
            cut: false,
        });
        tarjan.push(id);
        model.expand(state, buf);
        let edges = if buf.kind == Kind::Terminal {
            Vec::new()
        } else {
            buf.edges
                .iter()
                .map(|e| Edge {
                    to: model.canonical(e.to),
                    weight: e.weight,
                })
                .collect()
        };
        Ok(Frame { id, edges, next: 0 })
    };

    let first = discover(
        start,
        &mut ids,
        &mut states,
        &mut visits,
        &mut tarjan,
        &mut buf,
    )?;
    let mut stack = vec![first];
    while let Some(frame) = stack.last_mut() {
        if frame.next < frame.edges.len() {
            let to = frame.edges[frame.next].to;
            frame.next += 1;
            let from = frame.id as usize;
            match ids.get(&to) {
                None => {
                    let child = discover(
                        to,
                        &mut ids,
                        &mut states,
                        &mut visits,
                        &mut tarjan,
                        &mut buf,
                    )?;
                    stack.push(child);
                }
                Some(&t) => {
                    let t = t as usize;
                    if visits[t].on_stack {
                        let index = visits[t].index;
                        visits[from].low = visits[from].low.min(index);
                        if visits[t].on_path && t != from {
                            visits[t].cut = true;
                        }
                    }
                }
            }
            continue;
        }
        // Every edge explored: finish the state.
        let frame = stack.pop().expect("stack is not empty");
        let id = frame.id as usize;
        visits[id].on_path = false;
        visits[id].finished = finished;
        finished += 1;
        if let Some(parent) = stack.last() {
            let low = visits[id].low;
            let p = parent.id as usize;
            visits[p].low = visits[p].low.min(low);
        }
        if visits[id].low == visits[id].index {
            // The state is the root of a component: everything above it on Tarjan's
            // stack belongs to it.
            let at = tarjan
                .iter()
                .rposition(|&s| s as usize == id)
                .expect("a root is on the stack");
            let mut members: Vec<u32> = tarjan.split_off(at);
            for &m in &members {
                visits[m as usize].on_stack = false;
            }
            members.sort_by_key(|&m| visits[m as usize].finished);
            solve_component(model, &members, &states, &visits, &mut values, &mut buf)?;
        }
    }

    Ok(Solution {
        start: Some(start),
        values,
    })
}

/// An affine function of the component's cut states: `constant + sum coefficients[k] x_k`,
/// and the escape mass (the probability of leaving before meeting a cut state).
#[derive(Clone, Debug)]
struct Affine<V> {
    constant: V,
    coefficients: Vec<V>,
    escape: V,
}

impl<V: Value> Affine<V> {
    fn constant(value: V, cuts: usize) -> Self {
        Affine {
            constant: value,
            coefficients: vec![V::zero(); cuts],
            escape: V::one(),
        }
    }

    fn variable(k: usize, cuts: usize) -> Self {
        let mut coefficients = vec![V::zero(); cuts];
        coefficients[k] = V::one();
        Affine {
            constant: V::zero(),
            coefficients,
            escape: V::zero(),
        }
    }

    fn is_constant(&self) -> bool {
        self.coefficients
            .iter()
            .all(|c| c.compare(&V::zero()) == Some(std::cmp::Ordering::Equal))
    }

    /// `self += weight * other`.
    fn add_scaled(&mut self, weight: &V, other: &Affine<V>) {
        self.constant = self.constant.add(&weight.mul(&other.constant));
        for (c, o) in self.coefficients.iter_mut().zip(&other.coefficients) {
            *c = c.add(&weight.mul(o));
        }
        self.escape = self.escape.add(&weight.mul(&other.escape));
    }

    /// `self /= d`, and `constant += reward`.
    fn finish(&mut self, d: &V, reward: &V) {
        self.constant = self.constant.div(d).add(reward);
        for c in self.coefficients.iter_mut() {
            *c = c.div(d);
        }
        self.escape = self.escape.div(d);
    }
}

fn solve_component<M: Model, V: Value>(
    model: &M,
    members: &[u32],
    states: &[M::State],
    visits: &[Visit],
    values: &mut FxHashMap<M::State, V>,
    buf: &mut Expansion<M::State>,
) -> Result<()> {
    let cuts: Vec<u32> = members
        .iter()
        .copied()
        .filter(|&m| visits[m as usize].cut)
        .collect();

    if cuts.is_empty() {
        // No cycle but perhaps self-loops: states in finishing order see their
        // successors done.
        for &m in members {
            let state = states[m as usize];
            model.expand(state, buf);
            canonicalise(model, buf);
            let v = node_value(
                &state,
                buf.kind,
                buf.reward,
                &buf.edges,
                |s| &values[s],
                || format!("{state:?}"),
            )?;
            values.insert(state, v);
        }
        return Ok(());
    }

    let k = cuts.len();
    if members.len().saturating_mul(k + 2) > MAX_COEFFICIENTS {
        return Err(Error::TooManyStates {
            limit: MAX_COEFFICIENTS / (k + 2),
        });
    }
    let cut_of: FxHashMap<M::State, usize> = cuts
        .iter()
        .enumerate()
        .map(|(i, &m)| (states[m as usize], i))
        .collect();
    let mut forms: FxHashMap<M::State, Affine<V>> = FxHashMap::default();
    forms.reserve(members.len());
    for &m in members {
        let state = states[m as usize];
        model.expand(state, buf);
        canonicalise(model, buf);
        let form = affine_form(state, buf, k, &cut_of, &forms, values)?;
        forms.insert(state, form);
    }

    let x = solve_cuts(&cuts, states, &forms)?;
    for &m in members {
        let state = states[m as usize];
        let f = &forms[&state];
        let mut v = f.constant.clone();
        for (c, xk) in f.coefficients.iter().zip(&x) {
            v = v.add(&c.mul(xk));
        }
        values.insert(state, v);
    }
    Ok(())
}

fn canonicalise<M: Model>(model: &M, buf: &mut Expansion<M::State>) {
    for e in buf.edges.iter_mut() {
        e.to = model.canonical(e.to);
    }
}

fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::Chance => "chance",
        _ => "choice",
    }
}

/// A state of a cyclic component as an affine function of the cut states.
fn affine_form<S, V>(
    state: S,
    buf: &Expansion<S>,
    cuts: usize,
    cut_of: &FxHashMap<S, usize>,
    forms: &FxHashMap<S, Affine<V>>,
    values: &FxHashMap<S, V>,
) -> Result<Affine<V>>
where
    S: Copy + Eq + std::hash::Hash + std::fmt::Debug,
    V: Value,
{
    if buf.kind == Kind::Terminal {
        return Ok(Affine::constant(V::from_int(buf.reward), cuts));
    }
    if buf.edges.is_empty() {
        return Err(Error::NoSuccessors {
            state: format!("{state:?}"),
            kind: describe(buf.kind),
        });
    }
    // A successor is a cut state (an unknown), a state of this component already
    // written as a function of them, or a state of a component solved before.
    let successor = |to: &S| -> Affine<V> {
        if let Some(&k) = cut_of.get(to) {
            Affine::variable(k, cuts)
        } else if let Some(f) = forms.get(to) {
            f.clone()
        } else {
            Affine::constant(values[to].clone(), cuts)
        }
    };
    let self_loop = |e: &&Edge<S>| e.to == state && !cut_of.contains_key(&state);
    if let Kind::Choice(pick @ (Pick::Max | Pick::Min)) = buf.kind {
        // Only a choice among known values can be made inside a component.
        let mut best: Option<V> = None;
        for e in &buf.edges {
            let f = successor(&e.to);
            if self_loop(&e) || !f.is_constant() {
                return Err(Error::ChoiceCycle(format!("{state:?}")));
            }
            best = match best {
                Some(b) if !crate::solution::improves(pick, &f.constant, &b)? => Some(b),
                _ => Some(f.constant),
            };
        }
        let best = best.expect("edges are not empty");
        return Ok(Affine::constant(best.add(&V::from_int(buf.reward)), cuts));
    }
    let total = total_weight(&buf.edges, || format!("{state:?}"))?;
    let self_weight = buf
        .edges
        .iter()
        .filter(self_loop)
        .fold(0u64, |sum, e| sum.saturating_add(e.weight));
    if total == self_weight {
        return Err(Error::NeverEnds(format!("{state:?}")));
    }
    let mut form = Affine {
        constant: V::zero(),
        coefficients: vec![V::zero(); cuts],
        escape: V::zero(),
    };
    for e in buf.edges.iter().filter(|e| !self_loop(e)) {
        form.add_scaled(&V::from_int(e.weight as i64), &successor(&e.to));
    }
    form.finish(
        &V::from_int((total - self_weight) as i64),
        &V::from_int(buf.reward)
            .mul(&V::from_int(total as i64))
            .div(&V::from_int((total - self_weight) as i64)),
    );
    Ok(form)
}

/// Solves `x_c = form_c(x)` for the cut states by subtraction-free elimination.
fn solve_cuts<S, V>(cuts: &[u32], states: &[S], forms: &FxHashMap<S, Affine<V>>) -> Result<Vec<V>>
where
    S: Copy + Eq + std::hash::Hash + std::fmt::Debug,
    V: Value,
{
    let k = cuts.len();
    let mut rows: Vec<Affine<V>> = cuts
        .iter()
        .map(|&m| forms[&states[m as usize]].clone())
        .collect();
    // Eliminate x_0, x_1, ... in turn; keep each pivot row for back substitution.
    let mut pivots: Vec<(Affine<V>, V)> = Vec::with_capacity(k);
    for j in 0..k {
        let row = rows[j].clone();
        // 1 - a_jj, as the escape plus the weight on the variables not yet eliminated.
        let mut d = row.escape.clone();
        for (l, a) in row.coefficients.iter().enumerate() {
            if l > j {
                d = d.add(a);
            }
        }
        if d.compare(&V::zero()) != Some(std::cmp::Ordering::Greater) {
            return Err(Error::NeverEnds(format!("{:?}", states[cuts[j] as usize])));
        }
        for row_i in rows.iter_mut().skip(j + 1) {
            let a_ij = row_i.coefficients[j].clone();
            if a_ij.compare(&V::zero()) == Some(std::cmp::Ordering::Equal) {
                continue;
            }
            let scale = a_ij.div(&d);
            row_i.constant = row_i.constant.add(&scale.mul(&row.constant));
            row_i.escape = row_i.escape.add(&scale.mul(&row.escape));
            for l in j + 1..k {
                let add = scale.mul(&row.coefficients[l]);
                row_i.coefficients[l] = row_i.coefficients[l].add(&add);
            }
            row_i.coefficients[j] = V::zero();
        }
        pivots.push((row, d));
    }
    let mut x: Vec<V> = vec![V::zero(); k];
    for j in (0..k).rev() {
        let (row, d) = &pivots[j];
        let mut v = row.constant.clone();
        for (l, xl) in x.iter().enumerate().skip(j + 1) {
            v = v.add(&row.coefficients[l].mul(xl));
        }
        x[j] = v.div(d);
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acyclic::solve;
    use crate::value::{fraction, Exact};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random absorbing chain: states 0..n, each a chance node (or a uniform choice)
    /// with a reward, weighted edges to random states (itself included) and an edge to
    /// the end state `n`, so every state can finish.
    /// A node: its kind, its reward, and its weighted edges.
    type Node = (Kind, i64, Vec<(u32, u64)>);

    struct Chain {
        n: u32,
        nodes: Vec<Node>,
    }

    impl Chain {
        fn random(rng: &mut ChaCha8Rng, n: u32) -> Chain {
            let nodes = (0..n)
                .map(|_| {
                    let kind = if rng.gen_bool(0.3) {
                        Kind::Choice(Pick::Uniform)
                    } else {
                        Kind::Chance
                    };
                    let mut edges: Vec<(u32, u64)> = (0..rng.gen_range(1..4))
                        .map(|_| (rng.gen_range(0..n), rng.gen_range(1..5)))
                        .collect();
                    edges.push((n, rng.gen_range(1..3)));
                    (kind, rng.gen_range(0..6), edges)
                })
                .collect();
            Chain { n, nodes }
        }
    }

    impl Model for Chain {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn expand(&self, s: u32, out: &mut Expansion<u32>) {
            if s == self.n {
                out.terminal(0);
                return;
            }
            let (kind, reward, edges) = &self.nodes[s as usize];
            match kind {
                Kind::Choice(p) => out.choice(*p, *reward),
                _ => out.chance(*reward),
            }
            for &(to, w) in edges {
                out.weighted(to, w);
            }
        }
    }

    /// The same values by a dense Gauss-Jordan solve of `(I - P) v = r` in exact
    /// arithmetic, written independently of the solver.
    fn dense(chain: &Chain) -> Vec<Exact> {
        let n = chain.n as usize;
        let mut m = vec![vec![Exact::zero(); n + 1]; n];
        for (i, (_, reward, edges)) in chain.nodes.iter().enumerate() {
            let total: u64 = edges.iter().map(|e| e.1).sum();
            m[i][i] = Exact::one();
            m[i][n] = Exact::from_int(*reward);
            for &(to, w) in edges {
                if (to as usize) < n {
                    let p = Exact::from_ratio(w as i64, total);
                    m[i][to as usize] = m[i][to as usize].sub(&p);
                }
            }
        }
        for col in 0..n {
            let pivot = (col..n)
                .find(|&r| m[r][col] != Exact::zero())
                .expect("absorbing chains are regular");
            m.swap(col, pivot);
            let p = m[col][col].clone();
            for x in m[col].iter_mut() {
                *x = x.div(&p);
            }
            let pivot_row = m[col].clone();
            for (r, row) in m.iter_mut().enumerate() {
                if r != col && row[col] != Exact::zero() {
                    let f = row[col].clone();
                    for (x, p) in row.iter_mut().zip(&pivot_row) {
                        *x = x.sub(&f.mul(p));
                    }
                }
            }
        }
        m.into_iter().map(|row| row[n].clone()).collect()
    }

    #[test]
    fn random_cyclic_chains_match_a_dense_solve() {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        for case in 0..300 {
            let chain = Chain::random(&mut rng, 1 + case % 12);
            let expected = dense(&chain);
            let exact = solve_cyclic::<_, Exact>(&chain, &Limits::default()).unwrap();
            let float = solve_cyclic::<_, f64>(&chain, &Limits::default()).unwrap();
            for (s, want) in expected.iter().enumerate() {
                let s = s as u32;
                // Only states reachable from 0 are solved.
                if let Some(got) = exact.get(&s) {
                    assert_eq!(fraction(got), fraction(want), "case {case} state {s}");
                    let f = float.get(&s).unwrap();
                    assert!((f - want.to_f64()).abs() <= 1e-9 * want.to_f64().max(1.0));
                }
            }
        }
    }

    #[test]
    fn acyclic_models_give_the_acyclic_answer() {
        struct Ladder;
        impl Model for Ladder {
            type State = u8;
            fn start(&self) -> u8 {
                0
            }
            fn expand(&self, s: u8, out: &mut Expansion<u8>) {
                if s >= 6 {
                    out.terminal(i64::from(s));
                } else {
                    out.choice(
                        if s.is_multiple_of(2) {
                            Pick::Max
                        } else {
                            Pick::Min
                        },
                        1,
                    );
                    out.edge(s + 1);
                    out.edge(s + 2);
                }
            }
        }
        let a = solve::<_, Exact>(&Ladder, &Limits::default()).unwrap();
        let c = solve_cyclic::<_, Exact>(&Ladder, &Limits::default()).unwrap();
        assert_eq!(a.start_value(), c.start_value());
        assert_eq!(a.len(), c.len());
    }

    /// Throw a coin until heads: a self-loop. Expected throws: 2.
    struct Coin;
    impl Model for Coin {
        type State = u8;
        fn start(&self) -> u8 {
            0
        }
        fn expand(&self, s: u8, out: &mut Expansion<u8>) {
            if s == 1 {
                out.terminal(0);
            } else {
                out.chance(1);
                out.edge(0);
                out.edge(1);
            }
        }
    }

    #[test]
    fn self_loops_in_closed_form() {
        let s = solve_cyclic::<_, Exact>(&Coin, &Limits::default()).unwrap();
        assert_eq!(fraction(s.start_value()), "2/1");
    }

    /// A counter 0..=2 that a die pushes up by 1 or 2, or back to 0 with weight
    /// `reset`; over 2 it ends. Nearly certain resets must not cost digits.
    struct Reset {
        reset: u64,
    }
    impl Model for Reset {
        type State = u8;
        fn start(&self) -> u8 {
            0
        }
        fn expand(&self, s: u8, out: &mut Expansion<u8>) {
            if s > 2 {
                out.terminal(0);
            } else {
                out.chance(1);
                out.weighted(s + 1, 1);
                out.weighted(s + 2, 1);
                out.weighted(0, self.reset);
            }
        }
    }

    #[test]
    fn nearly_certain_resets_keep_their_digits() {
        for reset in [1, 1000, 1_000_000_000] {
            let model = Reset { reset };
            let exact = solve_cyclic::<_, Exact>(&model, &Limits::default()).unwrap();
            let float = solve_cyclic::<_, f64>(&model, &Limits::default()).unwrap();
            let want = exact.start_value().to_f64();
            let rel = (float.start_value() - want).abs() / want;
            assert!(
                rel < 1e-13,
                "reset {reset}: {} vs {want}",
                float.start_value()
            );
        }
    }

    #[test]
    fn a_choice_on_a_cycle_is_refused() {
        struct Loop;
        impl Model for Loop {
            type State = u8;
            fn start(&self) -> u8 {
                0
            }
            fn expand(&self, s: u8, out: &mut Expansion<u8>) {
                match s {
                    0 => {
                        out.chance(1);
                        out.edge(1);
                        out.edge(2);
                    }
                    1 => {
                        out.choice(Pick::Min, 0);
                        out.edge(0);
                        out.edge(2);
                    }
                    _ => out.terminal(0),
                }
            }
        }
        let err = solve_cyclic::<_, f64>(&Loop, &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::ChoiceCycle(_)), "{err}");
    }

    #[test]
    fn a_choice_between_cycles_is_fine() {
        // From 10, choose the coin game (2 throws expected) or a sure 3.
        struct Menu;
        impl Model for Menu {
            type State = u8;
            fn start(&self) -> u8 {
                10
            }
            fn expand(&self, s: u8, out: &mut Expansion<u8>) {
                match s {
                    10 => {
                        out.choice(Pick::Min, 0);
                        out.edge(0);
                        out.edge(11);
                    }
                    11 => out.terminal(3),
                    s => Coin.expand(s, out),
                }
            }
        }
        let s = solve_cyclic::<_, Exact>(&Menu, &Limits::default()).unwrap();
        assert_eq!(fraction(s.start_value()), "2/1");
    }

    #[test]
    fn a_game_that_never_ends_is_reported() {
        struct Forever;
        impl Model for Forever {
            type State = u8;
            fn start(&self) -> u8 {
                0
            }
            fn expand(&self, s: u8, out: &mut Expansion<u8>) {
                out.chance(1);
                out.edge(1 - s);
            }
        }
        let err = solve_cyclic::<_, f64>(&Forever, &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::NeverEnds(_)), "{err}");
        struct Spin;
        impl Model for Spin {
            type State = u8;
            fn start(&self) -> u8 {
                0
            }
            fn expand(&self, _: u8, out: &mut Expansion<u8>) {
                out.chance(1);
                out.edge(0);
            }
        }
        let err = solve_cyclic::<_, f64>(&Spin, &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::NeverEnds(_)), "{err}");
    }
}
