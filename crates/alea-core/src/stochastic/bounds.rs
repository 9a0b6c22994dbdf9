//! Lower and upper bounds on every value in `f64`, brought together until they are within
//! the precision asked for: a certified answer.
//!
//! Every value is at least 0 here (the analysis exchanged the players of a model whose
//! payoffs are at most 0). Components are solved in order, each after those it leads to,
//! so a component's exits already have their final bounds.
//!
//! Why the bounds hold. Starting from 0, value iteration approaches the least fixed point
//! of the Bellman operator from below, and in both classes the values are that least
//! fixed point (the payoffs and rewards are at least 0; a total-reward model has no
//! infinite values and no zero-reward end components, so its fixed point is unique).
//! Upper bounds:
//! - payoff models start from the largest payoff. Where the players together could stay
//!   in an end component forever, iteration from above can stall above the value: the
//!   upper bounds of such a component are lowered to its best exit for the maximiser,
//!   since the minimiser can keep the game inside except where the maximiser leaves (and
//!   staying forever is worth 0). The components are those of the game in which the
//!   minimiser keeps only the moves that are best for the current lower bounds.
//! - total-reward models have no natural upper bound: one is guessed just above the lower
//!   bounds and kept only once a sweep of the operator maps it below itself, which makes
//!   it an upper bound on the least fixed point.
//!
//! Rounding: each node's new bound is computed in floating point from nonnegative terms,
//! then moved outward by a relative margin that covers the rounding of its sums.

use super::analysis::Class;
use super::components::{can_stay, end_components, Components, SubNode, OUTSIDE};
use super::graph::{Graph, Node};
use crate::error::{Error, Result};

/// Sweeps over one component before it is given up on.
const MAX_SWEEPS: u64 = 1_000_000;

/// Index of the lower and of the upper bound in a node's pair.
const LO: usize = 0;
const HI: usize = 1;

/// The bounds of every node, side by side: a sweep reads both bounds of a successor at
/// once, and on large graphs each successor read is a miss of the cache.
pub(crate) struct Bounds {
    pub x: Vec<[f64; 2]>,
    /// Sweeps done over all components.
    pub sweeps: u64,
}

impl Bounds {
    pub fn lo(&self, v: usize) -> f64 {
        self.x[v][LO]
    }

    pub fn hi(&self, v: usize) -> f64 {
        self.x[v][HI]
    }

    /// The midpoint of a node's bounds: the answer.
    pub fn mid(&self, v: usize) -> f64 {
        let [lo, hi] = self.x[v];
        lo + (hi - lo) / 2.0
    }
}

/// The node's value from its successors' bounds `x`, both bounds at once, in floating
/// point. An averaging node's edges to itself are solved in closed form.
#[inline]
fn eval<S>(g: &Graph<S>, v: usize, x: &[[f64; 2]]) -> [f64; 2] {
    let succ = g.succ(v);
    let r = g.reward[v] as f64;
    match g.node[v] {
        Node::Terminal => [r, r],
        Node::Average => {
            let (mut lo, mut hi) = (0.0, 0.0);
            let mut own = 0u64;
            for (&t, &w) in succ.iter().zip(g.weights(v)) {
                if t as usize == v {
                    own += w;
                } else {
                    let [l, h] = x[t as usize];
                    lo += w as f64 * l;
                    hi += w as f64 * h;
                }
            }
            let total = g.total[v];
            if own == total {
                // Cannot happen after the analysis; keep the bounds as they are.
                return x[v];
            }
            let spent = r * total as f64;
            let rest = (total - own) as f64;
            [(lo + spent) / rest, (hi + spent) / rest]
        }
        Node::Max => {
            let (mut lo, mut hi) = (f64::MIN, f64::MIN);
            for &t in succ {
                let [l, h] = x[t as usize];
                lo = lo.max(l);
                hi = hi.max(h);
            }
            [r + lo, r + hi]
        }
        Node::Min => {
            let (mut lo, mut hi) = (f64::MAX, f64::MAX);
            for &t in succ {
                let [l, h] = x[t as usize];
                lo = lo.min(l);
                hi = hi.min(h);
            }
            [r + lo, r + hi]
        }
    }
}

/// The unit roundoff of `f64`: one rounding errs by at most this, relatively.
const UNIT: f64 = f64::EPSILON / 2.0;

/// The relative margin that covers the rounding of [`eval`] at `v`. An averaging node
/// rounds k nonnegative products, k - 1 additions, the reward's addition and a division:
/// at most (2k + 2) roundings of terms no larger than the result's numerator, so
/// (2k + 3) units cover it with room. A choice rounds only the addition of its reward
/// (taking the best successor is exact).
#[inline]
fn margin<S>(g: &Graph<S>, v: usize) -> f64 {
    match g.node[v] {
        Node::Average => (2 * (g.row[v + 1] - g.row[v]) + 3) as f64 * UNIT,
        Node::Max | Node::Min if g.reward[v] != 0 => 2.0 * UNIT,
        _ => 0.0,
    }
}

/// How far apart a node's bounds may be: twice the precision, relative above 1.
#[inline]
fn tolerance(precision: f64, lo: f64) -> f64 {
    2.0 * precision * lo.max(1.0)
}

/// Bounds on every node. `zero` marks the nodes known to be worth 0. With `strict`,
/// a component whose bounds do not meet within [`MAX_SWEEPS`] is an error; without, its
/// bounds are left as they are (for a first guess of the exact solver).
pub(crate) fn solve_bounds<S: std::fmt::Debug>(
    g: &Graph<S>,
    comps: &Components,
    class: Class,
    zero: Option<&[bool]>,
    precision: f64,
    strict: bool,
) -> Result<Bounds> {
    let n = g.len();
    let top = (0..n)
        .filter(|&v| g.node[v] == Node::Terminal)
        .map(|v| g.reward[v] as f64)
        .fold(0.0, f64::max);
    let start_hi = match class {
        Class::Payoff => top,
        Class::TotalReward => f64::INFINITY,
    };
    let mut b = Bounds {
        x: vec![[0.0, start_hi]; n],
        sweeps: 0,
    };
    if let Some(zero) = zero {
        for (x, _) in b.x.iter_mut().zip(zero).filter(|(_, &z)| z) {
            x[HI] = 0.0;
        }
    }
    let mut local = vec![u32::MAX; n];
    for c in 0..comps.count() {
        let mut active: Vec<u32> = comps
            .get(c)
            .iter()
            .copied()
            .filter(|&v| zero.is_none_or(|z| !z[v as usize]))
            .collect();
        // Large components are swept in the order of the nodes' rows, which reads the
        // graph from memory in sequence; small ones in the order the search finished
        // them (nearer their exits first), which carries values along in fewer sweeps.
        if active.len() > 4096 {
            active.sort_unstable();
        }
        let cyclic = match *active.as_slice() {
            [] => continue,
            [v] => g.succ(v as usize).contains(&v) && g.node[v as usize] != Node::Average,
            _ => true,
        };
        if !cyclic {
            let v = active[0] as usize;
            let m = margin(g, v);
            let [lo, hi] = eval(g, v, &b.x);
            b.x[v] = [(lo * (1.0 - m)).max(0.0), hi * (1.0 + m)];
            continue;
        }
        for (i, &v) in active.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let done = match class {
            Class::Payoff => payoff_component(g, &active, &local, &mut b, precision),
            Class::TotalReward => reward_component(g, &active, &mut b, precision),
        };
        for &v in &active {
            local[v as usize] = u32::MAX;
        }
        if !done && strict {
            let v = active
                .iter()
                .copied()
                .max_by(|&a, &c| {
                    let gap = |v: u32| b.hi(v as usize) - b.lo(v as usize);
                    gap(a).total_cmp(&gap(c))
                })
                .expect("a component has nodes") as usize;
            return Err(Error::NotConverged(
                format!("{:?}", g.states[v]),
                MAX_SWEEPS,
                format!("{:e}", b.hi(v) - b.lo(v)),
            ));
        }
    }
    Ok(b)
}

/// One Gauss-Seidel sweep of both bounds over `nodes`; the largest gap left, relative to
/// the tolerance (at most 1 when every node is within it).
fn sweep<S>(g: &Graph<S>, nodes: &[u32], b: &mut Bounds, precision: f64) -> f64 {
    let mut worst: f64 = 0.0;
    for &v in nodes {
        let v = v as usize;
        let m = margin(g, v);
        let [new_lo, new_hi] = eval(g, v, &b.x);
        let [old_lo, old_hi] = b.x[v];
        let lo = (new_lo * (1.0 - m)).max(old_lo);
        let hi = (new_hi * (1.0 + m)).min(old_hi);
        b.x[v] = [lo, hi];
        worst = worst.max((hi - lo) / tolerance(precision, lo));
    }
    b.sweeps += 1;
    worst
}

/// When a component's sweeps may stop. Its bounds can never be closer than its exits'
/// (a node's gap is at least the mean of its successors'), so a component that stopped
/// just within the tolerance would leave the components before it just above: each is
/// swept until a quarter of the tolerance, or, once within it, until the gap stops
/// shrinking.
struct Settle {
    /// The worst gap (relative to the tolerance) some sweeps ago, and the sweeps since.
    mark: f64,
    since: u32,
}

impl Default for Settle {
    fn default() -> Self {
        Settle {
            mark: f64::INFINITY,
            since: 0,
        }
    }
}

impl Settle {
    fn done(&mut self, worst: f64) -> bool {
        if worst <= 0.25 {
            return true;
        }
        self.since += 1;
        if self.since >= 16 {
            let stalled = worst > self.mark * 0.99;
            self.mark = worst;
            self.since = 0;
            return worst <= 1.0 && stalled;
        }
        false
    }
}

/// A cyclic component of a payoff model; whether its bounds met.
fn payoff_component<S>(
    g: &Graph<S>,
    nodes: &[u32],
    local: &[u32],
    b: &mut Bounds,
    precision: f64,
) -> bool {
    let may_stay = can_stay(&subgraph(g, nodes, local, None)).contains(&true);
    let mut settle = Settle::default();
    for done in 1..=MAX_SWEEPS {
        if settle.done(sweep(g, nodes, b, precision)) {
            return true;
        }
        // A search for end components costs many sweeps: it is made after sweeps 1, 2,
        // 4, ... 64 and then every 64 sweeps, enough for bounds that stall only there.
        if may_stay && (done.is_power_of_two() || done % 64 == 0) {
            deflate(g, nodes, local, b);
        }
    }
    false
}

/// The component as a subgraph for end-component search; with `lo`, a minimising node
/// keeps only its moves that are best for those lower bounds.
fn subgraph<S>(g: &Graph<S>, nodes: &[u32], local: &[u32], lo: Option<&[f64]>) -> Vec<SubNode> {
    nodes
        .iter()
        .map(|&v| {
            let v = v as usize;
            let succ = g.succ(v);
            let inside = |t: u32| match local[t as usize] {
                u32::MAX => OUTSIDE,
                i => i,
            };
            let edges = match (g.node[v], lo) {
                (Node::Min, Some(lo)) => {
                    let best = succ
                        .iter()
                        .map(|&t| lo[t as usize])
                        .fold(f64::MAX, f64::min);
                    succ.iter()
                        .filter(|&&t| lo[t as usize] <= best)
                        .map(|&t| inside(t))
                        .collect()
                }
                _ => succ.iter().map(|&t| inside(t)).collect(),
            };
            SubNode {
                keeps_all: g.node[v] == Node::Average,
                edges,
            }
        })
        .collect()
}

/// Lowers the upper bounds of each end component (with the minimiser's moves restricted
/// to the best for the lower bounds) to the best upper bound among the maximiser's exits.
fn deflate<S>(g: &Graph<S>, nodes: &[u32], local: &[u32], b: &mut Bounds) {
    let lo: Vec<f64> = b.x.iter().map(|x| x[LO]).collect();
    let sub = subgraph(g, nodes, local, Some(&lo));
    for ec in end_components(&sub) {
        let mut members = ec.clone();
        members.sort_unstable();
        let inside = |t: u32| {
            let i = local[t as usize];
            i != u32::MAX && members.binary_search(&i).is_ok()
        };
        let mut exit: f64 = 0.0;
        for &i in &ec {
            let v = nodes[i as usize] as usize;
            if g.node[v] == Node::Max {
                for &t in g.succ(v) {
                    if !inside(t) {
                        exit = exit.max(b.hi(t as usize));
                    }
                }
            }
        }
        for &i in &ec {
            let v = nodes[i as usize] as usize;
            b.x[v][HI] = b.hi(v).min(exit).max(b.lo(v));
        }
    }
}

/// A cyclic component of a total-reward model; whether its bounds met.
fn reward_component<S>(g: &Graph<S>, nodes: &[u32], b: &mut Bounds, precision: f64) -> bool {
    let mut settled = precision;
    let mut settle = Settle::default();
    let mut certified = false;
    let mut guess: Vec<f64> = Vec::new();
    let mut sweeps = 0;
    while sweeps < MAX_SWEEPS {
        if certified {
            sweeps += 1;
            if settle.done(sweep(g, nodes, b, precision)) {
                return true;
            }
            continue;
        }
        // The lower bounds alone, until they barely move.
        let mut moved: f64 = 0.0;
        for &v in nodes {
            let v = v as usize;
            let lo = (eval(g, v, &b.x)[LO] * (1.0 - margin(g, v))).max(b.lo(v));
            moved = moved.max((lo - b.lo(v)) / lo.max(1.0));
            b.x[v][LO] = lo;
        }
        b.sweeps += 1;
        sweeps += 1;
        if moved > settled {
            continue;
        }
        // Guess an upper bound just above, and keep it once a sweep maps it below itself.
        guess.clear();
        guess.extend(nodes.iter().map(|&v| {
            let lo = b.lo(v as usize);
            lo + precision / 2.0 * (lo + 1.0)
        }));
        for (i, &v) in nodes.iter().enumerate() {
            b.x[v as usize][HI] = guess[i];
        }
        for _ in 0..32 {
            let mut below = true;
            for &v in nodes {
                let v = v as usize;
                let hi = eval(g, v, &b.x)[HI] * (1.0 + margin(g, v));
                if hi > b.hi(v) {
                    below = false;
                }
                b.x[v][HI] = hi;
            }
            b.sweeps += 1;
            sweeps += 1;
            if below {
                certified = true;
                break;
            }
        }
        if !certified {
            for &v in nodes {
                b.x[v as usize][HI] = f64::INFINITY;
            }
            settled /= 16.0;
            if settled < 1e-300 {
                return false;
            }
        }
    }
    false
}
