//! A fast guess at the values of a cyclic component, for the interval iteration to
//! certify: strategy iteration in `f64`, each strategy's Markov chain solved by
//! elimination (`elim`).
//!
//! Why. On a component where the process wanders long before it leaves (a random walk
//! over a counter, say), the sweeps of the interval iteration close the bounds by a
//! constant factor each, thousands of sweeps; the elimination solves the same chain in
//! about the time of a few sweeps. Nothing here has to be right: the guess is only where
//! the certifying sweeps start (see `interval`), and a guess that is refused, or no guess
//! at all (fill-in over budget, a strategy that hardly leaves), leaves the iteration to
//! go on as it would have.

use super::interval::{Solver, COLLAPSED, TANGLED};
use super::Goal;
use crate::analysis::graph::NONE;
use crate::form::Form;
use crate::numeric::elim::{self, RowSource, Rows};
use crate::numeric::round::margin;

/// Strategy evaluations tried before the last one's values are taken as they are.
const ROUNDS: usize = 16;
/// Sweeps of improvement after each evaluation.
const IMPROVE: usize = 8;

/// A choice switches only when it is better than the current one by more than this
/// (relative above 1): closer, the two differ by rounding alone, and switching back and
/// forth would never end.
const SWITCH: f64 = 1e-13;

/// The elimination may hold this many coefficients per coefficient of the chain (and a
/// fixed allowance) before the guess is given up: the chains of a component seldom fill
/// in much (some 1.5 times on the benchmark models), and the budget bounds the memory
/// that a guess may take to a few times the component's own. Where the sweeps would
/// take long (a board game whose snakes link far-apart squares, whose chain fills in
/// some thirty times), the guess may hold as many coefficients as the work it may do,
/// up to [`FILL_MOST`] (some 256 MB).
const FILL: usize = 4;
const FILL_BASE: usize = 1 << 16;
const FILL_MOST: usize = 1 << 24;

/// Coefficients written by the elimination, or transitions read by an improving sweep,
/// that cost as much as a sweep reads of one transition, about: the elimination's
/// coefficients go through sorted merges and fresh rows (measured some 30 times slower),
/// and the budget leaves room for the guess to fail.
const WORK: f64 = 8.0;
/// Work any guess may do, however small its component: a small chain is solved by its
/// elimination outright.
const WORK_BASE: u64 = 1 << 16;

/// When a guess is tried.
#[derive(Clone, Copy, Debug)]
pub(super) enum Attempt {
    /// A chain's, before any sweep: small chains are solved by their elimination
    /// outright. As nothing is known yet of the sweeps it would save, it may cost as much
    /// as [`EARLY`] sweeps, and only an elimination through the chain's cut states is
    /// tried, whose cost is known as it goes: where that would not do, the guess waits
    /// for the sweeps' pace.
    Early,
    /// Once the sweeps' pace says how many sweeps the guess may save.
    Paced(f64),
}

/// The sweeps an early guess may cost.
const EARLY: f64 = 32.0;

/// A guess at a component's values, with the shape of the margin that certifies it (see
/// `interval`): bounds `values -/+ c * shape`, for a scale `c` of at least `least`.
pub(super) struct Guessed {
    pub values: Vec<f64>,
    pub shape: Vec<f64>,
    /// The least scale at which the guessed strategy's step maps the bounds inside
    /// themselves, past the guess's own error and the rounding of a sweep (infinite when
    /// none does).
    pub least: f64,
}

impl Solver<'_> {
    /// An estimate of the value of each of `nodes` (one cyclic component, every node
    /// after the components it leads to in `x`), or `None`; `attempt` says what the
    /// guess may cost, in sweeps over the component (see [`WORK`]). `local` is [`NONE`]
    /// for every state, and is left so.
    pub(super) fn guess<const R: bool>(
        &self,
        nodes: &[u32],
        x: &[[f64; 2]],
        local: &mut [u32],
        attempt: Attempt,
    ) -> Option<Guessed> {
        let (sweeps, early) = match attempt {
            Attempt::Early => (EARLY, true),
            Attempt::Paced(sweeps) => (sweeps, false),
        };
        let mut size = 0;
        for (i, &node) in nodes.iter().enumerate() {
            self.for_members(node, |s| local[s as usize] = i as u32);
            self.for_choices(node, |c| size += self.m.transitions_of(c).len());
        }
        let mut work = (sweeps * size as f64 / WORK) as u64 + WORK_BASE;
        let guessed = self
            .iterate::<R>(nodes, x, local, (size as u64, early), &mut work)
            .map(|(values, steps, sel)| self.shaped::<R>(x, local, &sel, values, steps));
        for &node in nodes {
            self.for_members(node, |s| local[s as usize] = NONE);
        }
        guessed
    }

    /// The margin's shape for a guess `v` of the strategy `sel`, whose steps to leave the
    /// component are `w`: for a probability, the steps (scaled to at most 1), for a reward,
    /// the value (at least 1) and the steps. Either way the strategy's step maps `shape`
    /// at least one step's worth below itself, where an even margin would be mapped onto
    /// itself wherever the process stays inside. The least scale follows from that slack,
    /// the guess's own error (what one step moves it) and the rounding of one step.
    fn shaped<const R: bool>(
        &self,
        x: &[[f64; 2]],
        local: &[u32],
        sel: &[usize],
        v: Vec<f64>,
        w: Vec<f64>,
    ) -> Guessed {
        let most = w.iter().copied().fold(1.0, f64::max);
        let shape: Vec<f64> = if R {
            v.iter()
                .zip(&w)
                .map(|(&v, &w)| v.abs().max(1.0) + w)
                .collect()
        } else {
            w.iter().map(|&w| w / most).collect()
        };
        let m = self.m;
        let mut least: f64 = 0.0;
        for (i, &c) in sel.iter().enumerate() {
            let Some([step, moved]) = self.step::<R, true>(c, i as u32, (&v, &shape), x, local)
            else {
                least = f64::INFINITY;
                break;
            };
            let slack = shape[i] - moved;
            let rounding = 2.0 * margin(m.transitions_of(c).len()) * step.abs().max(v[i].abs());
            let need = ((step - v[i]).abs() + rounding) / slack;
            least = if slack > 0.0 {
                least.max(need)
            } else {
                f64::INFINITY
            };
        }
        Guessed {
            values: v,
            shape,
            least,
        }
    }

    pub(super) fn for_members(&self, node: u32, mut f: impl FnMut(u32)) {
        if node & COLLAPSED == 0 {
            f(node & !TANGLED);
        } else {
            for &s in self.members(node & !COLLAPSED) {
                f(s);
            }
        }
    }

    fn for_choices(&self, node: u32, mut f: impl FnMut(usize)) {
        self.for_members(node, |s| self.m.choices_of(s as usize).for_each(&mut f));
    }

    /// The value of choice `c` of node `i`: its reward and its successors' values `v`
    /// (in the component) or midpoints (outside it), those staying in the node solved in
    /// closed form; `None` when it cannot be taken.
    fn value_of<const R: bool>(
        &self,
        c: usize,
        i: u32,
        v: &[f64],
        x: &[[f64; 2]],
        local: &[u32],
    ) -> Option<f64> {
        self.step::<R, false>(c, i, (v, &[]), x, local)
            .map(|[value, _]| value)
    }

    /// [`Solver::value_of`], and with `S` the same step on `shape` (0 outside the
    /// component) in the same pass.
    fn step<const R: bool, const S: bool>(
        &self,
        c: usize,
        i: u32,
        (v, shape): (&[f64], &[f64]),
        x: &[[f64; 2]],
        local: &[u32],
    ) -> Option<[f64; 2]> {
        let m = self.m;
        let mut sum = if R { self.rew[c] } else { 0.0 };
        let (mut moved, mut out) = (0.0, 0.0);
        for t in m.transitions_of(c) {
            let j = m.to[t] as usize;
            let p = m.prob[t];
            match local[j] {
                k if k == i => continue,
                NONE => sum += p * outside(x[j])?,
                k => {
                    sum += p * v[k as usize];
                    if S {
                        moved += p * shape[k as usize];
                    }
                }
            }
            out += p;
        }
        (out > 0.0).then(|| [sum / out, moved / out])
    }

    /// The goal at a node: its state's player's (a collapsed end component, found in a
    /// decision process only, has the one player's).
    fn goal_of(&self, node: u32) -> Goal {
        self.sides.at(self.first(node) as usize)
    }

    /// Strategy iteration, `work` counting down the coefficients that the eliminations
    /// write and the transitions that the improving sweeps read (`size` each): the values
    /// the steps to leave under the last strategy evaluated, and the strategy. `early`:
    /// tried before any sweep (see [`Attempt::Early`]).
    fn iterate<const R: bool>(
        &self,
        nodes: &[u32],
        x: &[[f64; 2]],
        local: &[u32],
        (size, early): (u64, bool),
        work: &mut u64,
    ) -> Option<(Vec<f64>, Vec<f64>, Vec<usize>)> {
        let n = nodes.len();
        if self.is_chain(nodes) {
            // Nothing to choose: the chain's own values (it leaves the component: the
            // analysis left no closed class among the open states).
            let sel: Vec<usize> = nodes
                .iter()
                .map(|&node| self.m.choices[self.first(node) as usize])
                .collect();
            // Before any sweep, only through the cut states, their number found on the
            // form itself: a chain with too many is refused before its rows are built.
            let order = match early {
                true => Some(self.cut_order(local, &sel, size, (*work, usize::MAX))?),
                false => None,
            };
            let (v, steps) = self.chain_values::<R>(nodes, x, local, &sel, (work, order))?;
            return Some((v, steps, sel));
        }
        // The values the first strategy is read off: the midpoints (the lower bounds while
        // the upper are unknown).
        let mut v: Vec<f64> = nodes
            .iter()
            .map(|&node| outside(x[self.first(node) as usize]).unwrap_or(f64::INFINITY))
            .collect();
        let mut sel = vec![usize::MAX; n];
        for (i, &node) in nodes.iter().enumerate() {
            let mut best = None;
            self.for_choices(node, |c| {
                if let Some(q) = self.value_of::<R>(c, i as u32, &v, x, local) {
                    if best.is_none_or(|(b, _)| self.goal_of(node).better(q, b)) {
                        best = Some((q, c));
                    }
                }
            });
            sel[i] = best?.1;
        }
        // A probability's component holds no end component (the analysis decided every
        // state that could stay away from the target for ever, and collapsed or deflates
        // the others), so every strategy leaves it: only a reward's needs making leave.
        if R {
            self.make_leave::<R>(nodes, x, local, &mut sel, &v)?;
        }
        let mut steps = Vec::new();
        for _ in 0..ROUNDS {
            // A probability's chain through its cut states where they are few (a game's
            // turns that pass back and forth meet again at a state or two). Fewer than a
            // dense unit's worth, each coefficient costs one update: an evaluation then
            // costs about as much as a sweep or two, and a round ends at the first sweep
            // that switches nothing. (A reward's strategies took more rounds so, on
            // firewire's greatest expected time, than the sweeps they saved.)
            let few = <f64 as elim::Field>::DENSE_PER_UNIT - 1;
            let order = match R {
                true => None,
                false => self.cut_order(local, &sel, size, (*work, few)),
            };
            let cheap = order.is_some();
            (v, steps) = self.chain_values::<R>(nodes, x, local, &sel, (work, order))?;
            // Improve with sweeps of the Bellman operator from the strategy's values, in
            // place and from the highest-numbered node down as the interval iteration
            // sweeps: a better choice found at one node raises (or lowers) its value at
            // once, and its predecessors switch in the same sweep rather than one
            // evaluation later.
            let mut switched = false;
            for k in 0..IMPROVE {
                *work = work.checked_sub(size)?;
                let mut moved = false;
                for (i, &node) in nodes.iter().enumerate().rev() {
                    let current = self
                        .value_of::<R>(sel[i], i as u32, &v, x, local)
                        .unwrap_or(v[i]);
                    let slack = SWITCH * current.abs().max(1.0);
                    let mut best = (current, sel[i]);
                    self.for_choices(node, |c| {
                        if let Some(q) = self.value_of::<R>(c, i as u32, &v, x, local) {
                            let beats = match self.goal_of(node) {
                                Goal::Max => q > best.0 + slack,
                                Goal::Min => q < best.0 - slack,
                            };
                            if beats {
                                best = (q, c);
                            }
                        }
                    });
                    if best.1 != sel[i] {
                        sel[i] = best.1;
                        moved = true;
                    }
                    v[i] = best.0;
                }
                switched |= moved;
                if !moved && (k == 0 || cheap) {
                    break;
                }
            }
            if !switched {
                break;
            }
            // A switch never makes a strategy stay forever in exact arithmetic; in
            // floating point, make sure.
            if R {
                self.make_leave::<R>(nodes, x, local, &mut sel, &v)?;
            }
        }
        Some((v, steps, sel))
    }

    /// Makes every node of the strategy `sel` leave the component with probability 1: a
    /// search back from the exits along the chosen choices finds the nodes that can; each
    /// other node takes a choice toward one of those (the search then goes on from it).
    /// `None` if some node cannot leave at all.
    fn make_leave<const R: bool>(
        &self,
        nodes: &[u32],
        x: &[[f64; 2]],
        local: &[u32],
        sel: &mut [usize],
        v: &[f64],
    ) -> Option<()> {
        let m = self.m;
        let g = self.g;
        let n = nodes.len();
        let exits = |c: usize, i: u32| {
            m.to[m.transitions_of(c)]
                .iter()
                .any(|&j| local[j as usize] == NONE)
                && self.value_of::<R>(c, i, v, x, local).is_some()
        };
        let mut good = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        for i in 0..n {
            if exits(sel[i], i as u32) {
                good[i] = true;
                stack.push(i as u32);
            }
        }
        // Along the chosen choices first; then, from every node found, any choice.
        for pass in 0..2 {
            if pass == 1 {
                stack.extend((0..n as u32).filter(|&i| good[i as usize]));
            }
            while let Some(w) = stack.pop() {
                self.for_members(nodes[w as usize], |s| {
                    for &c in g.preds(s as usize) {
                        let c = c as usize;
                        let u = local[g.owner[c] as usize];
                        if u == NONE || u == w || good[u as usize] {
                            continue;
                        }
                        let ok = if pass == 0 {
                            sel[u as usize] == c
                        } else {
                            self.value_of::<R>(c, u, v, x, local).is_some()
                        };
                        if ok {
                            sel[u as usize] = c;
                            good[u as usize] = true;
                            stack.push(u);
                        }
                    }
                });
            }
        }
        good.iter().all(|&b| b).then_some(())
    }

    /// The order of an elimination through the cut states of the chain `sel` (see
    /// `elim`), and how many there are, searched on the form's transitions; `None` as soon
    /// as the cut states make it cost more than `work`, its `size` transitions all counted,
    /// or are more than `most`.
    fn cut_order(
        &self,
        local: &[u32],
        sel: &[usize],
        size: u64,
        (work, most): (u64, usize),
    ) -> Option<(Vec<u32>, usize)> {
        let m = self.m;
        let n = sel.len();
        let row = |v: u32| m.transitions_of(sel[v as usize]);
        // A state outside the component is `NONE`, past every node: no successor.
        let entry = |t: usize| local[m.to[t] as usize];
        let too_many =
            |cuts| cuts > most || !elim::through_cuts_fit::<f64>(n, size, cuts, Some(work));
        elim::search_order(n, row, entry, too_many)
    }

    /// The values of the strategy `sel` on the component, and the expected number of
    /// steps (each choice taken until it leaves its node counted once) before it leaves
    /// the component: its chain's linear system with both right-hand sides, by one
    /// elimination: through the cut states in `order` if given, else as `elim` sees fit.
    fn chain_values<const R: bool>(
        &self,
        nodes: &[u32],
        x: &[[f64; 2]],
        local: &[u32],
        sel: &[usize],
        (work, order): (&mut u64, Option<(Vec<u32>, usize)>),
    ) -> Option<(Vec<f64>, Vec<f64>)> {
        let m = self.m;
        // Each row's right-hand sides and escape, and what it passes to the component's
        // other nodes (its coefficients are divided by that).
        let mut chain = Chain {
            m,
            local,
            sel,
            out: Vec::with_capacity(nodes.len()),
            row: Rows::with_capacity(1, 16),
        };
        let mut b: Vec<[f64; 2]> = Vec::with_capacity(nodes.len());
        let mut escape: Vec<f64> = Vec::with_capacity(nodes.len());
        for (i, &c) in sel.iter().enumerate() {
            let mut constant = if R { self.rew[c] } else { 0.0 };
            let mut out = 0.0;
            let mut leaves = 0.0;
            for t in m.transitions_of(c) {
                let j = m.to[t] as usize;
                let p = m.prob[t];
                match local[j] {
                    k if k == i as u32 => continue,
                    NONE => {
                        constant += p * outside(x[j])?;
                        leaves += p;
                    }
                    _ => {}
                }
                out += p;
            }
            if out <= 0.0 {
                return None;
            }
            chain.out.push(out);
            b.push([constant / out, 1.0 / out]);
            escape.push(leaves / out);
        }
        let x = match order {
            // Through the cut states, each row is read once: computed from the form as
            // it is needed rather than stored.
            Some((order, cuts)) => {
                elim::through_cuts(&mut chain, b, Some(escape), &order, cuts, work)?
            }
            None => {
                let held = sel.iter().map(|&c| m.transitions_of(c).len()).sum();
                let mut rows: Rows<f64> = Rows::with_capacity(nodes.len(), held);
                for (i, &c) in sel.iter().enumerate() {
                    chain_row(m, local, (c, i as u32, chain.out[i]), &mut rows);
                }
                let held = rows.held();
                let budget = (held * FILL + FILL_BASE).max((*work as usize).min(FILL_MOST));
                elim::solve_many(rows, b, Some(escape), budget, work)?
            }
        };
        Some(x.into_iter().map(|[v, w]| (v, w)).unzip())
    }
}

/// The rows of a chain's system, computed from the form: node `i` of the component takes
/// choice `sel[i]`, and passes to another node `k` of it the probability of going there
/// over `out[i]`, its probability of going to any other node or leaving.
struct Chain<'a> {
    m: &'a Form,
    local: &'a [u32],
    sel: &'a [usize],
    out: Vec<f64>,
    /// The row being read, sorted and merged as a stored row is: the same sums in the
    /// same order, so the same guess to the last bit.
    row: Rows<f64>,
}

impl RowSource<f64> for Chain<'_> {
    fn len(&self) -> usize {
        self.sel.len()
    }

    fn each(&mut self, i: usize, mut f: impl FnMut(u32, &f64)) {
        self.row.clear();
        let row = (self.sel[i], i as u32, self.out[i]);
        chain_row(self.m, self.local, row, &mut self.row);
        for (k, a) in self.row.row(0) {
            f(*k, a);
        }
    }
}

/// Adds to `rows` the row of node `i` taking choice `c`, whose probability of going to
/// another node or leaving is `out`.
fn chain_row(m: &Form, local: &[u32], (c, i, out): (usize, u32, f64), rows: &mut Rows<f64>) {
    for t in m.transitions_of(c) {
        match local[m.to[t] as usize] {
            k if k == i || k == NONE => {}
            k => rows.push(k, m.prob[t] / out),
        }
    }
    rows.end_row();
}

/// The value a guess takes for a state outside the component (final bounds): their
/// midpoint, or the lower bound while the upper is unknown; `None` if it is infinite.
fn outside([lo, hi]: [f64; 2]) -> Option<f64> {
    if lo == f64::INFINITY {
        None
    } else if hi == f64::INFINITY {
        Some(lo)
    } else {
        Some(lo + (hi - lo) / 2.0)
    }
}
