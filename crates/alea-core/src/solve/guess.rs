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
    /// A chain's, or a game's probability, before any sweep: small chains are solved by
    /// their elimination outright, and a game's turns that pass back and forth meet
    /// again at a state or two, through which its strategies are evaluated at the cost
    /// of a sweep or two (its sweeps are slow, see `interval`). As nothing is known yet of
    /// the sweeps it would save, it may cost as much as [`EARLY`] sweeps, and only an
    /// elimination through the cut states is tried, whose cost is known as it goes:
    /// where that would not do, the guess waits for the sweeps' pace.
    Early,
    /// Once the sweeps' pace says how many sweeps the guess may save.
    Paced(f64),
}

/// The sweeps an early guess may cost.
const EARLY: f64 = 32.0;

/// A guess at a component's values, with the shape of the margin that certifies it (see
/// `interval`): bounds `lo - c * shape` and `hi + c * shape`, for a scale `c` of at least
/// `least`. `lo` and `hi` are the guessed strategies' values with the exits at their lower
/// bounds and at their upper ones: the bounds the sweeps would close in on, so that the
/// margin need only cover the guess's own error (a margin around one value for both, as
/// wide as the exits' gaps, was refused by the first sweep wherever the exits were wide).
pub(super) struct Guessed {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
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
        for (i, &node) in nodes.iter().enumerate() {
            self.for_members(node, |s| local[s as usize] = i as u32);
        }
        let part = self.part::<R>(nodes, x, local);
        let mut work = (sweeps * part.size as f64 / WORK) as u64 + WORK_BASE;
        let guessed = self
            .iterate::<R>(&part, nodes, x, local, early, &mut work)
            .map(|(sides, steps, sel)| part.shaped::<R>(&sel, sides, steps));
        for &node in nodes {
            self.for_members(node, |s| local[s as usize] = NONE);
        }
        guessed
    }

    /// The component gathered from the form (see [`Part`]), `local` numbering its nodes.
    fn part<const R: bool>(&self, nodes: &[u32], x: &[[f64; 2]], local: &[u32]) -> Part {
        let m = self.m;
        let mut part = Part {
            start: Vec::with_capacity(nodes.len() + 1),
            global: Vec::new(),
            exits: Vec::new(),
            out: Vec::new(),
            leaves: Vec::new(),
            inner: Rows::with_capacity(nodes.len(), 0),
            sizes: Vec::new(),
            goal: Vec::with_capacity(nodes.len()),
            size: 0,
        };
        part.start.push(0);
        for (i, &node) in nodes.iter().enumerate() {
            let i = i as u32;
            self.for_choices(node, |c| {
                let reward = if R { self.rew[c] } else { 0.0 };
                let mut exits = Some([reward; 3]);
                let (mut out, mut leaves) = (0.0, 0.0);
                for t in m.transitions_of(c) {
                    let j = m.to[t] as usize;
                    let p = m.prob[t];
                    match local[j] {
                        k if k == i => continue,
                        NONE => {
                            exits = exits.and_then(|mut sums| {
                                for (sum, side) in sums.iter_mut().zip(Side::ALL) {
                                    *sum += p * side.of(x[j])?;
                                }
                                Some(sums)
                            });
                            leaves += p;
                        }
                        k => part.inner.push(k, p),
                    }
                    out += p;
                }
                part.inner.end_row();
                part.global.push(c as u32);
                // A choice that only stays in its node cannot be taken.
                part.exits.push(exits.filter(|_| out > 0.0));
                part.out.push(out);
                part.leaves.push(leaves);
                part.sizes.push(m.transitions_of(c).len() as u32);
                part.size += m.transitions_of(c).len() as u64;
            });
            part.start.push(part.global.len());
            part.goal.push(self.sides.at(self.first(node) as usize));
        }
        part
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

    /// Strategy iteration on the component `part`, `work` counting down the coefficients
    /// that the eliminations write and the transitions that the improving sweeps read
    /// (the component's each): the values with the exits' lower and upper bounds and the
    /// steps to leave under the last strategy evaluated, and the strategy (as choices of
    /// `part`). `early`: tried before any sweep (see [`Attempt::Early`]).
    #[allow(clippy::type_complexity)]
    fn iterate<const R: bool>(
        &self,
        part: &Part,
        nodes: &[u32],
        x: &[[f64; 2]],
        local: &[u32],
        early: bool,
        work: &mut u64,
    ) -> Option<([Vec<f64>; 2], Vec<f64>, Vec<usize>)> {
        let n = nodes.len();
        let size = part.size;
        if self.is_chain(nodes) {
            // Nothing to choose: the chain's own values (it leaves the component: the
            // analysis left no closed class among the open states).
            let sel: Vec<usize> = part.start[..n].to_vec();
            // Before any sweep, only through the cut states, their number found on the
            // chain itself: a chain with too many is refused before any elimination.
            let order = match early {
                true => Some(part.cut_order(Some(&sel), (*work, usize::MAX))?),
                false => None,
            };
            let (_, sides, steps) = part.chain_values(&sel, (work, order))?;
            return Some((sides, steps, sel));
        }
        // The values the first strategy is read off: the midpoints (the lower bounds while
        // the upper are unknown).
        let mut v: Vec<f64> = nodes
            .iter()
            .map(|&node| {
                Side::Mid
                    .of(x[self.first(node) as usize])
                    .unwrap_or(f64::INFINITY)
            })
            .collect();
        let mut sel = vec![usize::MAX; n];
        for (i, sel) in sel.iter_mut().enumerate() {
            let mut best = None;
            for c in part.choices(i) {
                if let Some(q) = part.value(c, MID, &v) {
                    if best.is_none_or(|(b, _)| part.goal[i].better(q, b)) {
                        best = Some((q, c));
                    }
                }
            }
            *sel = best?.1;
        }
        // A probability's component holds no end component (the analysis decided every
        // state that could stay away from the target for ever, and collapsed or deflates
        // the others), so every strategy leaves it: only a reward's needs making leave.
        if R {
            self.make_leave(part, nodes, local, &mut sel)?;
        }
        // A probability's chains through the cut states where they are few (a game's
        // turns that pass back and forth meet again at a state or two). Fewer than a
        // dense unit's worth, each coefficient costs one update: an evaluation then costs
        // about as much as a sweep or two, and a round ends at the first sweep that
        // switches nothing. (A reward's strategies took more rounds so, on firewire's
        // greatest expected time, than the sweeps they saved.) The cut states of every
        // choice together serve every strategy, found once; where they are too many,
        // each strategy's own are searched.
        let few = <f64 as elim::Field>::DENSE_PER_UNIT - 1;
        let every = match R {
            true => None,
            false => part.cut_order(None, (*work, few)),
        };
        let mut steps = Vec::new();
        let mut sides = [Vec::new(), Vec::new()];
        for _ in 0..ROUNDS {
            let order = match (R, &every) {
                (true, _) => None,
                (false, Some(order)) => Some(order.clone()),
                (false, None) => part.cut_order(Some(&sel), (*work, few)),
            };
            let cheap = order.is_some();
            // Before any sweep, only through the cut states (see [`Attempt::Early`]).
            if early && !cheap {
                return None;
            }
            (v, sides, steps) = part.chain_values(&sel, (work, order))?;
            // Improve with sweeps of the Bellman operator from the strategy's values, in
            // place and from the highest-numbered node down as the interval iteration
            // sweeps: a better choice found at one node raises (or lowers) its value at
            // once, and its predecessors switch in the same sweep rather than one
            // evaluation later.
            let mut switched = false;
            for k in 0..IMPROVE {
                *work = work.checked_sub(size)?;
                let mut moved = false;
                for i in (0..n).rev() {
                    let current = part.value(sel[i], MID, &v).unwrap_or(v[i]);
                    let slack = SWITCH * current.abs().max(1.0);
                    let mut best = (current, sel[i]);
                    for c in part.choices(i) {
                        if let Some(q) = part.value(c, MID, &v) {
                            let beats = match part.goal[i] {
                                Goal::Max => q > best.0 + slack,
                                Goal::Min => q < best.0 - slack,
                            };
                            if beats {
                                best = (q, c);
                            }
                        }
                    }
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
                self.make_leave(part, nodes, local, &mut sel)?;
            }
        }
        Some((sides, steps, sel))
    }

    /// Makes every node of the strategy `sel` leave the component with probability 1: a
    /// search back from the exits along the chosen choices finds the nodes that can; each
    /// other node takes a choice toward one of those (the search then goes on from it).
    /// `None` if some node cannot leave at all.
    fn make_leave(
        &self,
        part: &Part,
        nodes: &[u32],
        local: &[u32],
        sel: &mut [usize],
    ) -> Option<()> {
        let g = self.g;
        let n = nodes.len();
        let mut good = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        for i in 0..n {
            if part.leaves[sel[i]] > 0.0 && part.exits[sel[i]].is_some() {
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
                        let u = local[g.owner[c as usize] as usize];
                        if u == NONE || u == w || good[u as usize] {
                            continue;
                        }
                        let u = u as usize;
                        let taken = match pass {
                            0 => (part.global[sel[u]] == c).then_some(sel[u]),
                            _ => part
                                .choices(u)
                                .find(|&k| part.global[k] == c && part.exits[k].is_some()),
                        };
                        if let Some(k) = taken {
                            sel[u] = k;
                            good[u] = true;
                            stack.push(u as u32);
                        }
                    }
                });
            }
        }
        good.iter().all(|&b| b).then_some(())
    }
}

/// The side of the exits' bounds that [`Part::value`] reads: their midpoints (where the
/// strategies are chosen), their lower bounds, their upper.
const MID: usize = 0;
const LO: usize = 1;
const HI: usize = 2;

/// A cyclic component as a guess reads it, gathered from the form once: each node's
/// choices, each choice's exits summed and its transitions to the component's other
/// nodes in the component's numbering. The strategy iteration reads the component many
/// times over (evaluations, improving sweeps, the margin), and the form's successors are
/// scattered over the whole model: gathered, they are read from a few kilobytes (on Pig
/// as a game, the whole check took 10% less time).
struct Part {
    /// Node `i`'s choices are `start[i]..start[i + 1]`.
    start: Vec<usize>,
    /// Each choice's number in the form.
    global: Vec<u32>,
    /// Each choice's reward plus its exits' values weighted by probability, at the
    /// exits' midpoints and at each bound ([`MID`], [`LO`], [`HI`]); `None` where an
    /// exit is infinite or the choice never leaves its node (it cannot be taken).
    exits: Vec<Option<[f64; 3]>>,
    /// The probability of leaving its own node, and of leaving the component.
    out: Vec<f64>,
    leaves: Vec<f64>,
    /// Each choice's transitions to the component's other nodes: (node, probability),
    /// ascending, one per node.
    inner: Rows<f64>,
    /// Each choice's transitions in the form, as a sweep reads them (its own node's and
    /// its exits' too).
    sizes: Vec<u32>,
    /// The goal of each node's player.
    goal: Vec<Goal>,
    /// The form's transitions of the component's choices, all counted.
    size: u64,
}

impl Part {
    fn choices(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i]..self.start[i + 1]
    }

    /// The value of choice `c`: its reward and its successors' values `v` (in the
    /// component) or the exits' bounds on `side`, those staying in its node solved in
    /// closed form; `None` when it cannot be taken.
    #[inline]
    fn value(&self, c: usize, side: usize, v: &[f64]) -> Option<f64> {
        let mut sum = self.exits[c]?[side];
        for &(k, p) in self.inner.row(c) {
            sum += p * v[k as usize];
        }
        Some(sum / self.out[c])
    }

    /// The same step on `shape` (0 outside the component).
    fn moved(&self, c: usize, shape: &[f64]) -> f64 {
        let mut sum = 0.0;
        for &(k, p) in self.inner.row(c) {
            sum += p * shape[k as usize];
        }
        sum / self.out[c]
    }

    /// The margin's shape for the guess of the strategy `sel`, whose values are `v` (with
    /// the exits' lower and upper bounds, `[lo, hi]`) and whose steps to leave the
    /// component are `w`: for a probability, the steps (scaled to at most 1), for a reward,
    /// the value (at least 1) and the steps. Either way the strategy's step maps `shape`
    /// at least one step's worth below itself, where an even margin would be mapped onto
    /// itself wherever the process stays inside. The least scale follows from that slack,
    /// the guess's own error (what one step moves it, on either side) and the rounding of
    /// one step (in the form's transitions).
    fn shaped<const R: bool>(
        &self,
        sel: &[usize],
        [lo, hi]: [Vec<f64>; 2],
        w: Vec<f64>,
    ) -> Guessed {
        let most = w.iter().copied().fold(1.0, f64::max);
        let shape: Vec<f64> = if R {
            lo.iter()
                .zip(&w)
                .map(|(&v, &w)| v.abs().max(1.0) + w)
                .collect()
        } else {
            w.iter().map(|&w| w / most).collect()
        };
        let mut least: f64 = 0.0;
        'nodes: for (i, &c) in sel.iter().enumerate() {
            let slack = shape[i] - self.moved(c, &shape);
            if slack <= 0.0 {
                least = f64::INFINITY;
                break;
            }
            for (v, side) in [(&lo, LO), (&hi, HI)] {
                let Some(step) = self.value(c, side, v) else {
                    least = f64::INFINITY;
                    break 'nodes;
                };
                let rounding = 2.0 * margin(self.sizes[c] as usize) * step.abs().max(v[i].abs());
                least = least.max(((step - v[i]).abs() + rounding) / slack);
            }
        }
        Guessed {
            lo,
            hi,
            shape,
            least,
        }
    }

    /// The order of an elimination through the cut states of the chains of strategy
    /// `sel`, or of every choice together (`None`: an order for any strategy), and how
    /// many there are (see `elim`); `None` as soon as the cut states make it cost more
    /// than `work`, the component's transitions all counted, or are more than `most`.
    fn cut_order(
        &self,
        sel: Option<&[usize]>,
        (work, most): (u64, usize),
    ) -> Option<(Vec<u32>, usize)> {
        let n = self.start.len() - 1;
        let row = |v: u32| {
            let v = v as usize;
            match sel {
                Some(sel) => self.inner.span(sel[v]..sel[v] + 1),
                None => self.inner.span(self.choices(v)),
            }
        };
        let too_many =
            |cuts| cuts > most || !elim::through_cuts_fit::<f64>(n, self.size, cuts, Some(work));
        elim::search_order(n, row, |t| self.inner.column(t), too_many)
    }

    /// The values of the strategy `sel` on the component, with its exits at the midpoints
    /// of their bounds and at each bound (`[lo, hi]`), and the expected number of steps
    /// (each choice taken until it leaves its node counted once) before it leaves the
    /// component: its chain's linear system with those four right-hand sides, by one
    /// elimination: through the cut states in `order` if given, else as `elim` sees fit.
    #[allow(clippy::type_complexity)]
    fn chain_values(
        &self,
        sel: &[usize],
        (work, order): (&mut u64, Option<(Vec<u32>, usize)>),
    ) -> Option<(Vec<f64>, [Vec<f64>; 2], Vec<f64>)> {
        let n = sel.len();
        // Each row's right-hand sides and escape; its coefficients are divided by the
        // probability of leaving its node.
        let mut b: Vec<[f64; 4]> = Vec::with_capacity(n);
        let mut escape: Vec<f64> = Vec::with_capacity(n);
        for &c in sel {
            let out = self.out[c];
            let [mid, lo, hi] = self.exits[c]?.map(|e| e / out);
            b.push([mid, lo, hi, 1.0 / out]);
            escape.push(self.leaves[c] / out);
        }
        let mut chain = Chain { part: self, sel };
        let x = match order {
            // Through the cut states, each row is read once: computed as it is needed
            // rather than stored.
            Some((order, cuts)) => {
                elim::through_cuts(&mut chain, b, Some(escape), &order, cuts, work)?
            }
            None => {
                let held = sel.iter().map(|&c| self.inner.row(c).len()).sum();
                let mut rows: Rows<f64> = Rows::with_capacity(n, held);
                for i in 0..n {
                    chain.each(i, |k, a| rows.push(k, *a));
                    rows.end_row();
                }
                let held = rows.held();
                let budget = (held * FILL + FILL_BASE).max((*work as usize).min(FILL_MOST));
                elim::solve_many(rows, b, Some(escape), budget, work)?
            }
        };
        let mut mid = Vec::with_capacity(n);
        let mut sides = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut steps = Vec::with_capacity(n);
        for [v, lo, hi, w] in x {
            mid.push(v);
            sides[0].push(lo);
            sides[1].push(hi);
            steps.push(w);
        }
        Some((mid, sides, steps))
    }
}

/// The rows of a strategy's chain: node `i` takes choice `sel[i]`, and passes to another
/// node `k` the probability of going there over its probability of leaving its node.
struct Chain<'a> {
    part: &'a Part,
    sel: &'a [usize],
}

impl RowSource<f64> for Chain<'_> {
    fn len(&self) -> usize {
        self.sel.len()
    }

    fn each(&mut self, i: usize, mut f: impl FnMut(u32, &f64)) {
        let c = self.sel[i];
        let out = self.part.out[c];
        for &(k, p) in self.part.inner.row(c) {
            f(k, &(p / out));
        }
    }
}

/// Which of an exit's final bounds a guess reads.
#[derive(Clone, Copy)]
enum Side {
    /// Their midpoint, or the lower bound while the upper is unknown: where the
    /// strategies are chosen.
    Mid,
    Lo,
    /// The upper bound, or the lower while it is unknown.
    Hi,
}

impl Side {
    const ALL: [Side; 3] = [Side::Mid, Side::Lo, Side::Hi];

    /// The exit's value on this side; `None` if it is infinite.
    fn of(self, [lo, hi]: [f64; 2]) -> Option<f64> {
        if lo == f64::INFINITY {
            None
        } else if hi == f64::INFINITY {
            Some(lo)
        } else {
            Some(match self {
                Side::Mid => lo + (hi - lo) / 2.0,
                Side::Lo => lo,
                Side::Hi => hi,
            })
        }
    }
}
