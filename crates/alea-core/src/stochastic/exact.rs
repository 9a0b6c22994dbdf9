//! Exact values by strategy iteration, component by component.
//!
//! A strategy (one move for every maximising and minimising node of the component) turns
//! the component into a Markov chain, whose values are solved exactly: every node is
//! written as an affine function of a few cut nodes (the targets of the depth-first
//! search's back edges), and the cut nodes' own equations form a small linear system.
//! Then the strategy is checked: the minimiser's moves first, until none improves (with
//! the maximiser's moves fixed), then the maximiser's; any strict improvement is taken and
//! the chain solved again.
//!
//! Why the result is the value. When no move improves, the values are a fixed point of
//! the Bellman operator reached by the strategies themselves. In a total-reward model
//! (finite values, no zero-reward end components) the fixed point is unique, so it is the
//! value. In a payoff model a fixed point may sit above the value where the minimiser
//! could keep the game away from every positive payoff forever; those states are found
//! for the maximiser's strategy by a graph search and the minimiser is moved there, so
//! the final values are those of the minimiser's best reply (the least fixed point for
//! the fixed maximiser), and of the maximiser's best reply (the maximiser's values are
//! reached by his strategy and form a fixed point above the least one): both bounds on
//! the value meet.

use std::collections::BTreeMap;

use num_traits::{One, Zero};

use super::analysis::Class;
use super::components::Components;
use super::graph::{Graph, Node};
use crate::error::{Error, Result};
use crate::model::{Edge, Kind, Pick};
use crate::solution;
use crate::value::Exact;

/// The most improvement rounds for one component.
const MAX_ROUNDS: usize = 100_000;
/// The most affine coefficients held while solving one chain.
const MAX_COEFFICIENTS: usize = 1 << 24;

const NONE: u32 = u32::MAX;

/// Exact values of every node. `zero` marks nodes known to be worth 0; `hint` gives
/// approximate values, to start from good strategies.
pub(crate) fn solve_exact_values<S: std::fmt::Debug>(
    g: &Graph<S>,
    comps: &Components,
    class: Class,
    zero: Option<&[bool]>,
    hint: &[f64],
) -> Result<Vec<Exact>> {
    let n = g.len();
    let mut value: Vec<Option<Exact>> = vec![None; n];
    if let Some(zero) = zero {
        for v in 0..n {
            if zero[v] {
                value[v] = Some(Exact::zero());
            }
        }
    }
    let mut local = vec![NONE; n];
    for c in 0..comps.count() {
        let active: Vec<u32> = comps
            .get(c)
            .iter()
            .copied()
            .filter(|&v| value[v as usize].is_none())
            .collect();
        if active.is_empty() {
            continue;
        }
        let single = active.len() == 1 && !g.succ(active[0] as usize).contains(&active[0]);
        if single {
            let v = active[0] as usize;
            value[v] = Some(node_value(g, v, |t| {
                value[t].clone().expect("successors are solved first")
            })?);
            continue;
        }
        for (i, &v) in active.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let mut component = Component {
            g,
            class,
            nodes: &active,
            local: &local,
            known: &value,
            choice: Vec::new(),
        };
        let solved = component.solve(hint);
        for &v in &active {
            local[v as usize] = NONE;
        }
        for (i, x) in solved?.into_iter().enumerate() {
            value[active[i] as usize] = Some(x);
        }
    }
    Ok(value
        .into_iter()
        .map(|x| x.expect("every node is solved"))
        .collect())
}

/// A node's value from its successors', no successor being the node itself: the rule
/// every solver shares.
fn node_value<S: std::fmt::Debug>(
    g: &Graph<S>,
    v: usize,
    of: impl Fn(usize) -> Exact,
) -> Result<Exact> {
    let kind = match g.node[v] {
        Node::Terminal => Kind::Terminal,
        Node::Average => Kind::Chance,
        Node::Max => Kind::Choice(Pick::Max),
        Node::Min => Kind::Choice(Pick::Min),
    };
    let edges: Vec<Edge<usize>> = g
        .succ(v)
        .iter()
        .zip(g.weights(v))
        .map(|(&t, &weight)| Edge {
            to: t as usize,
            weight,
        })
        .collect();
    let values: rustc_hash::FxHashMap<usize, Exact> =
        edges.iter().map(|e| (e.to, of(e.to))).collect();
    solution::node_value(
        &v,
        kind,
        g.reward[v],
        &edges,
        |t| &values[t],
        || format!("{:?}", g.states[v]),
    )
}

/// One cyclic component being solved.
struct Component<'a, S> {
    g: &'a Graph<S>,
    class: Class,
    nodes: &'a [u32],
    /// Node -> index in `nodes`, or [`NONE`] outside the component.
    local: &'a [u32],
    known: &'a [Option<Exact>],
    /// The move of each choice node of the component (the node itself for the others).
    choice: Vec<u32>,
}

impl<S: std::fmt::Debug> Component<'_, S> {
    fn inside(&self, t: u32) -> Option<usize> {
        match self.local[t as usize] {
            NONE => None,
            i => Some(i as usize),
        }
    }

    fn solve(&mut self, hint: &[f64]) -> Result<Vec<Exact>> {
        let g = self.g;
        // Start from the moves that are best for the approximate values.
        self.choice = self
            .nodes
            .iter()
            .map(|&v| {
                let v = v as usize;
                let succ = g.succ(v).iter().copied();
                match g.node[v] {
                    Node::Max => {
                        succ.max_by(|&a, &b| hint[a as usize].total_cmp(&hint[b as usize]))
                    }
                    Node::Min => {
                        succ.min_by(|&a, &b| hint[a as usize].total_cmp(&hint[b as usize]))
                    }
                    _ => Some(v as u32),
                }
                .expect("a choice has edges")
            })
            .collect();
        for _ in 0..MAX_ROUNDS {
            let values = self.evaluate()?;
            if self.improve(Node::Min, &values) {
                continue;
            }
            if self.class == Class::Payoff && self.keep_from_payoffs(&values) {
                continue;
            }
            if self.improve(Node::Max, &values) {
                continue;
            }
            return Ok(values);
        }
        let v = self.nodes[0] as usize;
        Err(Error::NotConverged(
            format!("{:?}", g.states[v]),
            MAX_ROUNDS as u64,
            "strategy iteration did not settle".to_string(),
        ))
    }

    /// The value of successor `t` given the component's current `values`.
    fn value_of<'v>(&'v self, t: u32, values: &'v [Exact]) -> &'v Exact {
        match self.inside(t) {
            Some(i) => &values[i],
            None => self.known[t as usize]
                .as_ref()
                .expect("exits are solved first"),
        }
    }

    /// Takes every strictly better move of `player`'s nodes; whether any was taken.
    fn improve(&mut self, player: Node, values: &[Exact]) -> bool {
        let g = self.g;
        let mut changed = false;
        for i in 0..self.nodes.len() {
            let v = self.nodes[i] as usize;
            if g.node[v] != player {
                continue;
            }
            let mut best = self.choice[i];
            for &t in g.succ(v) {
                let better = match player {
                    Node::Max => self.value_of(t, values) > self.value_of(best, values),
                    _ => self.value_of(t, values) < self.value_of(best, values),
                };
                if better {
                    best = t;
                }
            }
            if best != self.choice[i] {
                self.choice[i] = best;
                changed = true;
            }
        }
        changed
    }

    /// In a payoff model: where the minimiser can keep the game away from every positive
    /// payoff forever against the maximiser's current moves, the value is 0; moves him to
    /// stay there wherever a value above 0 shows he does not yet. Whether any move changed.
    fn keep_from_payoffs(&mut self, values: &[Exact]) -> bool {
        let g = self.g;
        let m = self.nodes.len();
        let mut safe = vec![true; m];
        let good = |t: u32, safe: &[bool]| match self.inside(t) {
            Some(j) => safe[j],
            None => self.known[t as usize].as_ref().is_some_and(|x| x.is_zero()),
        };
        loop {
            let mut changed = false;
            for i in 0..m {
                if !safe[i] {
                    continue;
                }
                let v = self.nodes[i] as usize;
                let stays = match g.node[v] {
                    Node::Max => good(self.choice[i], &safe),
                    Node::Min => g.succ(v).iter().any(|&t| good(t, &safe)),
                    _ => g.succ(v).iter().all(|&t| good(t, &safe)),
                };
                if !stays {
                    safe[i] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if !(0..m).any(|i| safe[i] && !values[i].is_zero()) {
            return false;
        }
        let moves: Vec<(usize, u32)> = (0..m)
            .filter_map(|i| {
                let v = self.nodes[i] as usize;
                if !safe[i] || g.node[v] != Node::Min || good(self.choice[i], &safe) {
                    return None;
                }
                let to = g.succ(v).iter().copied().find(|&t| good(t, &safe));
                Some((i, to.expect("a safe minimiser has a safe move")))
            })
            .collect();
        for &(i, to) in &moves {
            self.choice[i] = to;
        }
        !moves.is_empty()
    }

    /// The successors of local node `i` under the current moves, with weights and their
    /// total.
    fn edges(&self, i: usize) -> (Vec<(u32, u64)>, u64) {
        let g = self.g;
        let v = self.nodes[i] as usize;
        match g.node[v] {
            Node::Average => (
                g.succ(v)
                    .iter()
                    .copied()
                    .zip(g.weights(v).iter().copied())
                    .collect(),
                g.total[v],
            ),
            _ => (vec![(self.choice[i], 1)], 1),
        }
    }

    /// The exact values of the component's nodes under the current moves.
    fn evaluate(&mut self) -> Result<Vec<Exact>> {
        let m = self.nodes.len();
        let mut closed = self.closed();
        if closed.iter().any(|&c| c) && self.class == Class::TotalReward {
            // A strategy under which the game may not end is worth infinitely much to the
            // minimiser: move him towards the exits, which the analysis showed he can
            // reach with probability one whatever the maximiser does.
            self.towards_exits();
            closed = self.closed();
            if let Some(i) = closed.iter().position(|&c| c) {
                return Err(Error::InfiniteReward(
                    format!("{:?}", self.g.states[self.nodes[i] as usize]),
                    "the maximiser can keep the game going forever".to_string(),
                ));
            }
        }
        // Affine forms over the cut nodes, in the depth-first search's finishing order.
        let mut state = vec![0u8; m]; // 0 new, 1 on the path, 2 finished
        let mut cut = vec![NONE; m];
        let mut cuts: Vec<usize> = Vec::new();
        let mut form: Vec<Option<(Exact, BTreeMap<u32, Exact>)>> = vec![None; m];
        let mut coefficients = 0usize;
        let edges: Vec<(Vec<(u32, u64)>, u64)> = (0..m).map(|i| self.edges(i)).collect();
        for root in 0..m {
            if state[root] != 0 || closed[root] {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
            state[root] = 1;
            while let Some((i, next)) = stack.last_mut() {
                let i = *i;
                if let Some(&(t, _)) = edges[i].0.get(*next) {
                    *next += 1;
                    if let Some(j) = self.inside(t) {
                        if closed[j] {
                            continue;
                        }
                        match state[j] {
                            0 => {
                                state[j] = 1;
                                stack.push((j, 0));
                            }
                            1 if cut[j] == NONE => {
                                cut[j] = cuts.len() as u32;
                                cuts.push(j);
                            }
                            _ => {}
                        }
                    }
                    continue;
                }
                stack.pop();
                state[i] = 2;
                let (ref list, total) = edges[i];
                let mut constant = Exact::zero();
                let mut coeffs: BTreeMap<u32, Exact> = BTreeMap::new();
                for &(t, w) in list {
                    let w = Exact::from_integer(w.into());
                    match self.inside(t) {
                        None => constant += self.value_of(t, &[]) * &w,
                        Some(j) if closed[j] => {}
                        // A cut node (met on the path) enters as its own unknown; any
                        // other successor finished first and enters by its form.
                        Some(j) if cut[j] != NONE => {
                            *coeffs.entry(cut[j]).or_insert_with(Exact::zero) += w;
                        }
                        Some(j) => {
                            let (c, f) = form[j].as_ref().expect("finished before");
                            constant += c * &w;
                            for (k, a) in f {
                                *coeffs.entry(*k).or_insert_with(Exact::zero) += a * &w;
                            }
                        }
                    }
                }
                let total = Exact::from_integer(total.into());
                let v = self.nodes[i] as usize;
                constant = constant / &total + Exact::from_integer(self.g.reward[v].into());
                for a in coeffs.values_mut() {
                    *a /= &total;
                }
                coeffs.retain(|_, a| !a.is_zero());
                coefficients += coeffs.len();
                if coefficients > MAX_COEFFICIENTS {
                    return Err(Error::TooManyStates {
                        limit: MAX_COEFFICIENTS,
                    });
                }
                form[i] = Some((constant, coeffs));
            }
        }
        // The cut nodes' own equations: x_k = c_k + sum_j a_kj x_j.
        let k = cuts.len();
        let mut matrix: Vec<Vec<Exact>> = vec![vec![Exact::zero(); k + 1]; k];
        for (row, &i) in cuts.iter().enumerate() {
            let (c, f) = form[i].as_ref().expect("cut nodes are finished");
            matrix[row][row] = Exact::one();
            for (&j, a) in f {
                matrix[row][j as usize] -= a;
            }
            matrix[row][k] = c.clone();
        }
        let x = gauss(matrix).ok_or_else(|| {
            Error::InfiniteReward(
                format!("{:?}", self.g.states[self.nodes[cuts[0]] as usize]),
                "the strategies found never end the game".to_string(),
            )
        })?;
        Ok((0..m)
            .map(|i| match &form[i] {
                None => Exact::zero(),
                Some((c, f)) => {
                    let mut value = c.clone();
                    for (&j, a) in f {
                        value += a * &x[j as usize];
                    }
                    value
                }
            })
            .collect())
    }

    /// The nodes that cannot leave the component under the current moves.
    fn closed(&self) -> Vec<bool> {
        let m = self.nodes.len();
        let mut pred: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut leaves = vec![false; m];
        let mut work = Vec::new();
        for (i, leaf) in leaves.iter_mut().enumerate() {
            for (t, _) in self.edges(i).0 {
                match self.inside(t) {
                    Some(j) => pred[j].push(i as u32),
                    None => *leaf = true,
                }
            }
            if *leaf {
                work.push(i);
            }
        }
        while let Some(j) = work.pop() {
            for &p in &pred[j] {
                if !leaves[p as usize] {
                    leaves[p as usize] = true;
                    work.push(p as usize);
                }
            }
        }
        leaves.iter().map(|&l| !l).collect()
    }

    /// Moves every minimising node to a successor closer to the component's exits, in the
    /// game where the minimiser tries to leave and the maximiser to stay.
    fn towards_exits(&mut self) {
        let g = self.g;
        let m = self.nodes.len();
        let mut joined = vec![false; m];
        loop {
            let mut changed = false;
            for i in 0..m {
                if joined[i] {
                    continue;
                }
                let v = self.nodes[i] as usize;
                let out = |t: &u32| self.inside(*t).is_none_or(|j| joined[j]);
                let via = match g.node[v] {
                    Node::Max => g.succ(v).iter().all(out).then_some(self.choice[i]),
                    Node::Min => g.succ(v).iter().copied().find(|t| out(t)),
                    _ => g.succ(v).iter().any(out).then_some(self.choice[i]),
                };
                if let Some(t) = via {
                    joined[i] = true;
                    self.choice[i] = t;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }
}

/// Solves the augmented system `matrix` (k rows of k coefficients and a constant) exactly;
/// `None` when it is singular.
fn gauss(mut a: Vec<Vec<Exact>>) -> Option<Vec<Exact>> {
    let k = a.len();
    for col in 0..k {
        let pivot = (col..k).find(|&r| !a[r][col].is_zero())?;
        a.swap(col, pivot);
        let p = a[col][col].clone();
        for x in a[col].iter_mut().skip(col) {
            *x /= &p;
        }
        for r in 0..k {
            if r != col && !a[r][col].is_zero() {
                let f = a[r][col].clone();
                let pivot_row = a[col].clone();
                for (x, p) in a[r].iter_mut().zip(&pivot_row).skip(col) {
                    *x -= &f * p;
                }
            }
        }
    }
    Some(a.into_iter().map(|row| row[k].clone()).collect())
}
