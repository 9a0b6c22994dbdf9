//! Sound interval iteration: a lower and an upper bound on every value left open by the
//! graph analysis, brought together until they are within the precision asked for.
//!
//! Order. The open states are split into strongly connected components, solved one at a
//! time, each after every component it leads to, so that a component's exits already
//! have their final bounds. A component of one state (or of one collapsed end
//! component, below) is worked out in one step; a cyclic one is swept in place
//! (Gauss-Seidel) from its highest-numbered state down until its bounds meet; a large one
//! in parallel blocks (see [`PARALLEL`]).
//!
//! Why the bounds hold. Every value here is the least fixed point of the Bellman operator
//! `B` (the best choice's reward plus its successors' values weighted by probability),
//! over the model with the decided states fixed. `B` is monotone, so a lower bound `l`
//! gives `B(l) <= B(value) = value`, and an upper bound likewise: each sweep keeps both.
//! Lower bounds start at 0. Upper bounds start at 1 for probabilities; for rewards, a
//! guess just above the lower bounds is kept only once a sweep maps it at or below itself
//! (optimistic value iteration): a point `u` with `B(u) <= u` lies above the least fixed
//! point. (In place, a sweep that lowers no state yields such a point: each state's new
//! bound is `B` of values no higher than the old ones.)
//!
//! End components. Where a strategy can keep the process forever among open states, the
//! upper bounds of the greatest probability stall (staying is a fixed point worth
//! anything), and for the least expected reward even the lower bounds converge to the
//! wrong value on cycles of reward 0 (staying forever costs nothing, but a run that never
//! reaches the target counts as infinite). So the maximal end components (of any choice
//! for the greatest probability, of reward-0 choices from reward-0 states for the least
//! reward) are collapsed: the component is one node whose value is the best of the
//! choices of its states that leave it, every state reaching the best exit at no cost.
//! The quotient has no end component (no reward-0 one for rewards), so the operator has
//! one fixed point and the upper bounds converge too.
//!
//! Guesses. A component whose bounds have not met after [`GUESS_AFTER`] sweeps (the
//! process wanders in it long before leaving; a chain's, or a game's probability's where
//! the players could not stay for ever, before any sweep, and then after
//! [`GAME_GUESS_AFTER`]) is given a guess at its values
//! (strategy iteration in `f64`, module `guess`), and both bounds restart just below and
//! just above it (below its values with the exits' lower bounds, above those with their
//! upper). Each side is first tested: swept with replacement until a sweep lowers no
//! lower bound (then `l <= B(l)`) and one raises no upper bound (`B(u) <= u`). A point with
//! `B(u) <= u` lies above the least fixed point, as for the rewards above. A point with
//! `l <= B(l)` lies below every fixed point that the iterates of `B` from `l` reach; here
//! `B` has only one, reached from anywhere, because the graph analysis leaves no end
//! component among the open states except those collapsed (the least probability: a state
//! that can stay away from the target forever is worth 0; the greatest reward: one that
//! can miss the target is worth infinity; the least reward: every remaining end component
//! costs a positive reward each time round, so that a strategy that stays has an infinite
//! cost). A guess refused within [`CERTIFY_SWEEPS`] leaves the bounds as they were, and the
//! next is tried after four times as many sweeps.
//!
//! Two players. In a game each state takes the best of its choices for its own player.
//! The value of a probability is still the least fixed point, and the upper bounds still
//! stall where the players together could stay forever; but an end component cannot be
//! collapsed (the minimiser may not want to leave by the maximiser's best exit). Its
//! upper bounds are lowered instead ("deflated"): within the end components of the game
//! in which the minimiser keeps only his moves that are best for the lower bounds, the
//! minimiser can keep the game inside unless the maximiser leaves, and staying forever is
//! worth 0, so no state there is worth more than the maximiser's best exit. No guess is
//! tried in such a component: with end components left, the operator may have more than
//! one fixed point, and `l <= B(l)` proves nothing.
//!
//! Payoffs. A probability is the payoff of a target worth 1; a question may give its
//! targets other values (a game's terminal payoffs, all at least 0): the upper bounds
//! start at the greatest of them, and everything else is as for probabilities.
//!
//! Chains that hardly leave. Where a component has no choice to make (a Markov chain)
//! and its iteration cannot close the gap (a process that returns a billion times
//! before it leaves: every sweep's rounding, however small, is then multiplied by as
//! much), its linear system is solved exactly instead, once with its exits' lower
//! bounds and once with their upper ones (its values grow with its exits'), and the
//! two solutions rounded outward: bounds as sound as the iteration's, and as close as
//! `f64` allows. This needs the model's exact probabilities.
//!
//! Self-loops. A choice whose transitions partly stay in its own node is solved in
//! closed form: taken until it leaves, it is worth `(reward + sum of p * v over the
//! leaving transitions) / (probability of leaving)`. The operator with these closed forms
//! has the same fixed points and the same pre-fixed points as `B`, and converges faster.
//!
//! Rounding. Each choice's bounds are computed in floating point from nonnegative terms
//! and then moved outward by a relative margin that covers every rounding of the sums,
//! products and quotient, and an error of one unit in the last place in each stored
//! probability: the lower bound is rounded down and the upper bound up, so they stay
//! bounds of the exact values.

use rayon::prelude::*;

use super::bellman::{self, View, EACH, MAXIMISE, MINIMISE};
use super::guess::Attempt;
use super::setup::{Kind, Setup, INFINITE, ONE, TARGET, UNKNOWN, ZERO};
use super::{Answer, Goal, Sides};
use crate::analysis::components::components_within;
use crate::analysis::graph::{EndComponents, Graph, NONE};
use crate::error::{Error, Result};
use crate::form::Form;
use crate::guard::Stop;
use num_traits::Zero;

use super::exact::chain_system;
use crate::form::ExactProbs;
use crate::numeric::modular;
use crate::numeric::round::{above, below, clamp_precision, fmax, fmin, margin, midpoint};
use crate::numeric::settle::Settle;
use crate::numeric::value::Exact;

/// Sweeps of a component after which, if its bounds have not met, a guess is tried.
const GUESS_AFTER: u64 = 32;
/// How many times the sweeps made the sweeps still needed must be for a guess.
const SLOW: f64 = 16.0;
/// The same two for a probability in a game, where a guess is tried before any sweep
/// (where its cut states are few) and then sooner. There each sweep goes once round the
/// players' turns, and each bound keeps one player playing on (the upper bounds the
/// maximiser, the lower the minimiser) until the values reach it, so the sweeps are slow
/// wherever the turns pass back and forth: Pig to 100 takes 76 a component as a game
/// where the same graph read as an mdp takes 21. And the turns meet again at a state or
/// two, so that a guess evaluates its strategies through those few cut states, at the
/// cost of a few sweeps (see `guess`): on Pig, one sweep a component then certifies it.
const GAME_GUESS_AFTER: u64 = 8;
const GAME_SLOW: f64 = 4.0;
/// The same for an expected reward in a component with choices, whose lower bounds rise
/// almost evenly until they near their values: the pace of their rises says too few
/// sweeps are left (on consensus N=6's greatest expected steps, some 450 at sweep 32
/// where 2,700 were needed, and fewer still at a coarser precision), so a guess is tried
/// sooner. Not as soon as the sweeps left look more than those made, though: a
/// component whose strategies' chains fill in without end (a random graph's, whose
/// elimination spends its whole budget, the sweeps it might save, and is refused) is
/// then done in some five times the sweeps made, and the refused guess costs nearly as
/// much again. Measured at sweep 32: consensus's components look 3.3 to 28 times the
/// sweeps made away at a precision of 1e-6 (2 to 8 at 1e-3), a random million-state
/// mdp's 2 times.
const SLOW_REWARD: f64 = 2.5;
/// Sweeps that test a guess before it is given up.
const CERTIFY_SWEEPS: u64 = 64;
/// Sweeps that test a guess in its tightest margin before the margin that the precision
/// allows is tried (see [`Solver::certify`]).
const TIGHT_SWEEPS: u64 = 4;
/// How many margins, each sixteen times the last, a guess is tried at when the
/// precision need not be met (see [`Solver::certify`]).
const WIDEN: usize = 7;

/// How a guess fared.
enum Held {
    /// Refused: the bounds are as they were.
    No,
    /// Certified within the margin the precision allows; the widest gap left (relative
    /// to the tolerance, as `Settle` reads it).
    Within(f64),
    /// Certified only further out: rounding keeps the bounds from coming closer.
    Wider,
}

/// Sweeps over one component before it is given up on.
pub(crate) const MAX_SWEEPS: u64 = 1_000_000;

/// The most states of a chain component solved exactly when its iteration stalls: the
/// elimination's fill-in may grow with the square of the size.
const EXACT_CHAIN: usize = 1 << 15;
/// How many coefficients per coefficient of its chain that exact solve may hold, and
/// write: a chain whose elimination fills in more (far-apart states linked) is left to
/// the iteration's bounds, as its values are long as well.
const EXACT_FILL: usize = 4;
const EXACT_WORK: usize = 16;

/// Marks a node that is a collapsed end component (its number in the low bits).
pub(super) const COLLAPSED: u32 = 1 << 31;
/// Marks a state with a choice that may stay in it: its value needs the closed form
/// (the other states take a leaner path).
pub(super) const TANGLED: u32 = 1 << 30;

/// The bounds on every state (exact where decided), the strategy read off them, and the
/// sweeps made.
pub(crate) struct Solved {
    pub x: Vec<[f64; 2]>,
    pub strategy: Vec<u32>,
    pub sweeps: u64,
}

/// What the iteration is asked besides the graph.
pub(crate) struct Job<'a> {
    pub setup: &'a Setup,
    /// The reward of each choice (its state's and its own) for expected rewards; empty
    /// for probabilities.
    pub rew: &'a [f64],
    /// Bounds on what each target is worth (the states of class [`ONE`] and [`TARGET`]);
    /// empty: 1 for a probability's targets, 0 for a reward's. A target known only within
    /// bounds is a state of a larger model solved before (see `super::part`).
    pub values: &'a [[f64; 2]],
    pub precision: f64,
    /// Whether a component may be led into by one iterated elsewhere (the form is a
    /// part of a larger model): then every component settles as one that is (`Settle`).
    pub above: bool,
    /// A component whose bounds do not meet is an error; otherwise it is left as close
    /// as its iteration could bring them (a first guess for the exact solver, or the
    /// closest bounds rounding allows, with the error bound they give).
    pub strict: bool,
    pub stop: &'a Stop,
    /// A state's name in an error.
    pub names: &'a dyn Fn(usize) -> String,
}

/// The bounds a decided state starts with (and keeps): 0, the greatest target value
/// `top`, infinity, or its own target value.
fn decided(class: u8, s: usize, values: &[[f64; 2]], top: f64) -> [f64; 2] {
    match class {
        ZERO => [0.0, 0.0],
        ONE => [top, top],
        INFINITE => [f64::INFINITY; 2],
        _ => values.get(s).copied().unwrap_or([0.0, 0.0]),
    }
}

/// The greatest value of a target: 1 for a probability, the greatest payoff otherwise.
fn greatest(job: &Job) -> f64 {
    if job.values.is_empty() {
        1.0
    } else {
        (0..job.setup.class.len())
            .filter(|&s| matches!(job.setup.class[s], ONE | TARGET))
            .map(|s| job.values[s][1])
            .fold(0.0, f64::max)
    }
}

/// In a game, for an expected reward: a state on a cycle of zero rewards among the
/// open states, where the players together could stay for ever (the iteration finds no
/// upper bound there; strategy improvement solves it, `improve`).
pub(crate) fn zero_cycle(g: &Graph, setup: &Setup, rew: &[f64]) -> Option<usize> {
    if !setup.game || setup.kind != Kind::Reward {
        return None;
    }
    let free = g.end_components(&setup.unknown(), |c| rew[c] == 0.0)?;
    Some(free.get(0)[0] as usize)
}

/// Bounds on the value of every open state of the job's setup, within its precision.
pub(crate) fn solve(g: &Graph, job: &Job) -> Result<Solved> {
    let setup = job.setup;
    let rew = job.rew;
    let m = g.m;
    let n = g.states();
    let unknown = setup.unknown();
    let top = greatest(job);
    let start_hi = match setup.kind {
        Kind::Until => top,
        Kind::Reward => f64::INFINITY,
    };
    let mut x: Vec<[f64; 2]> = setup
        .class
        .iter()
        .enumerate()
        .map(|(s, &c)| match c {
            UNKNOWN => [0.0, start_hi],
            _ => decided(c, s, job.values, top),
        })
        .collect();
    let ecs = match (setup.kind, setup.goal) {
        _ if g.markov || setup.game => None,
        (Kind::Until, Goal::Max) => g.end_components(&unknown, |_| true),
        (Kind::Reward, Goal::Min) => g.end_components(&unknown, |c| rew[c] == 0.0),
        _ => None,
    };
    // In a game, where the players together could stay forever among open states, a cost
    // that nothing makes positive is refused, as the engine cannot yet tell how a
    // minimiser who must leave such a cycle does best. (A probability's upper bounds are
    // deflated there instead, component by component: see `may_stay`.)
    if let Some(s) = zero_cycle(g, setup, rew) {
        return Err(Error::ZeroRewardCycle((job.names)(s)));
    }
    let maximise = if setup.game {
        (0..n).map(|s| setup.goal_at(g, s) == Goal::Max).collect()
    } else {
        Vec::new()
    };
    let solver = Solver {
        m,
        g,
        sides: Sides {
            goal: setup.goal,
            maximise,
        },
        kind: setup.kind,
        rew,
        ecs,
        tol: 1.9 * clamp_precision(job.precision),
        top,
        strict: job.strict,
        stop: job.stop,
    };
    let comps = components_within(m, &unknown);
    let mut comp_of = vec![NONE; n];
    for k in 0..comps.count() {
        for &s in comps.get(k) {
            comp_of[s as usize] = k as u32;
        }
    }
    // Whether each component is iterated (more than one node), and whether an iterated
    // component leads into it, directly or not: then it must settle below the tolerance
    // (see `Settle`). Components lead only to earlier ones, so the later are done first.
    let iterated: Vec<bool> = (0..comps.count())
        .map(|k| {
            let node =
                |&&s: &&u32| solver.ec_of(s) == NONE || solver.members(solver.ec_of(s))[0] == s;
            comps.get(k).iter().filter(node).count() > 1
        })
        .collect();
    // From the upstream end: a component is below an iterated one when one of its
    // predecessors is in an iterated component or below one. The search stops at the
    // first such predecessor (most components below a large one find it at once), and
    // components upstream of every iterated one are not searched at all (an acyclic
    // model searches none).
    let mut iterated_above = vec![false; comps.count()];
    let upstream_end = iterated.iter().rposition(|&i| i).unwrap_or(0);
    if job.above {
        iterated_above.fill(true);
    }
    for k in (0..upstream_end).rev().filter(|_| !job.above) {
        iterated_above[k] = comps.get(k).iter().any(|&s| {
            g.preds(s as usize).iter().any(|&c| {
                let from = g.owner[c as usize] as usize;
                let j = comp_of[from] as usize;
                unknown[from] && j != k && (iterated[j] || iterated_above[j])
            })
        });
    }
    let mut nodes: Vec<u32> = Vec::new();
    let mut local = vec![NONE; n];
    let mut sweeps = 0;
    for (k, &upstream) in iterated_above.iter().enumerate() {
        nodes.clear();
        for &s in comps.get(k) {
            match solver.ec_of(s) {
                NONE => nodes.push(if m.loops(s as usize) { s | TANGLED } else { s }),
                e => {
                    if solver.members(e)[0] == s {
                        nodes.push(COLLAPSED | e);
                    }
                }
            }
        }
        if let [node] = *nodes.as_slice() {
            solver.single(node, &mut x);
            continue;
        }
        nodes.sort_unstable_by_key(|&v| solver.first(v));
        let mut done = 0;
        let met = match setup.kind {
            Kind::Until if setup.game && solver.may_stay(&nodes, &mut local) => {
                solver.deflated_component(&nodes, &mut x, upstream, &mut done)
            }
            Kind::Until => solver.until_component(&nodes, &mut x, &mut local, upstream, &mut done),
            Kind::Reward => {
                solver.reward_component(&nodes, &mut x, &mut local, upstream, &mut done)
            }
        }?;
        sweeps += done;
        // Where the precision need not be met, bounds as close as rounding allows are the
        // answer: no exact solve for them.
        let met = met || (job.strict && solver.exact_chain(&nodes, &mut x, &mut local));
        if !met && job.strict {
            let gap = |v: u32| {
                let [lo, hi] = x[solver.first(v) as usize];
                (hi - lo) / lo.max(1.0)
            };
            let worst = nodes
                .iter()
                .copied()
                .max_by(|&a, &b| gap(a).total_cmp(&gap(b)))
                .expect("a component has nodes");
            let s = solver.first(worst) as usize;
            return Err(Error::NotConverged(
                (job.names)(s),
                done,
                format!("bounds {:e} and {:e}", x[s][0], x[s][1]),
            ));
        }
    }
    let strategy = solver.strategy(&x, setup, &unknown);
    Ok(Solved {
        x,
        strategy,
        sweeps,
    })
}

/// The answer from the bounds: the midpoints, and the largest distance from a midpoint
/// to the value it stands for (relative above 1), its own rounding included.
pub(crate) fn answer(job: &Job, solved: Solved) -> Answer {
    let setup = job.setup;
    let top = greatest(job);
    let mut error_bound: f64 = 0.0;
    let values = setup
        .class
        .iter()
        .zip(&solved.x)
        .enumerate()
        .map(|(s, (&class, &[lo, hi]))| match class {
            UNKNOWN => {
                let (mid, err) = midpoint(lo, hi);
                error_bound = error_bound.max(err);
                mid
            }
            // The questions answered here know their targets' values exactly.
            _ => decided(class, s, job.values, top)[0],
        })
        .collect();
    let pinned = setup
        .class
        .iter()
        .zip(&solved.x)
        .map(|(&class, &[lo, hi])| class != UNKNOWN || lo == hi)
        .collect();
    Answer {
        values,
        error_bound,
        strategy: solved.strategy,
        sweeps: solved.sweeps,
        pinned,
        before: None,
    }
}

/// What one sweep saw.
#[derive(Default)]
struct Sweep {
    /// The largest gap between the bounds, relative above 1.
    worst: f64,
    /// The largest rise of a lower bound, relative above 1.
    moved: f64,
    /// The largest rise of a lower bound, and the largest lower bound (expected rewards
    /// only): how fast the sweeps go, whatever the scale.
    rise: f64,
    top: f64,
    /// Probabilities only: how many nodes' bounds are further apart than the tolerance.
    open: u64,
    /// Whether any bound changed.
    changed: bool,
    /// Verifying: whether an upper bound rose.
    rose: bool,
    /// Verifying: whether a lower bound fell.
    fell: bool,
    /// Verifying: whether an upper bound fell below the lower one.
    crossed: bool,
}

impl Sweep {
    fn merge(&mut self, o: Sweep) {
        self.worst = self.worst.max(o.worst);
        self.moved = self.moved.max(o.moved);
        self.rise = self.rise.max(o.rise);
        self.top = self.top.max(o.top);
        self.open += o.open;
        self.changed |= o.changed;
        self.rose |= o.rose;
        self.fell |= o.fell;
        self.crossed |= o.crossed;
    }
}

/// The sides of the bounds a sweep tests as guesses (replacing them) rather than
/// tightens.
#[derive(Clone, Copy)]
struct Verify {
    lo: bool,
    hi: bool,
}

impl Verify {
    const NONE: Verify = Verify {
        lo: false,
        hi: false,
    };
    const UPPER: Verify = Verify {
        lo: false,
        hi: true,
    };
}

/// When a guess is tried: after [`GUESS_AFTER`] sweeps (in a game, [`GAME_GUESS_AFTER`]),
/// then after four times as many each time, and only if the sweeps look slow: at the pace
/// of the last half of them, the measure watched (the worst gap, or the largest rise of a
/// lower bound) would take more than [`SLOW`] times (for a reward [`SLOW_REWARD`] times;
/// in a game, [`GAME_SLOW`] times) the sweeps made so far to come down to where it should
/// be. (A guess may cost as much as many sweeps; on a component
/// that is soon done, it would only add its cost. The pace usually quickens, so the
/// estimate is taken with a margin.)
///
/// The worst gap says nothing while the bounds are still settling from the component's
/// exits inwards: it stays near its start until the last state has heard of an exit,
/// then falls at once (zeroconf's greatest probability: at 1 until sweep 48 of 87). So,
/// for a probability, the nodes still open are counted too, and where their number falls
/// fast enough to reach none at its pace of the last half (from 811,944 to 495,338 open
/// nodes between sweeps 16 and 32 there), no guess is tried; a process that leaks out
/// slowly everywhere keeps every node open, and the worst gap's pace decides.
struct Pace {
    /// [`SLOW`] or [`SLOW_REWARD`].
    slow: f64,
    next: u64,
    /// The sweep (at least halfway to `next`) at which the measure was noted, the
    /// measure, and the nodes open then.
    then: Option<(u64, f64, u64)>,
}

impl Pace {
    fn new(slow: f64, first: u64) -> Self {
        Pace {
            slow,
            next: first,
            then: None,
        }
    }

    fn stop(&mut self) {
        self.next = u64::MAX;
    }

    /// Whether a guess should be tried after sweep `done`, the measure now `now` and to
    /// come down to `goal`, with `open` nodes open (0 where they are not counted): the
    /// sweeps still needed, if so. (Sweeps are counted by more than one at a time where
    /// guesses are tested.)
    fn due(&mut self, done: u64, now: f64, goal: f64, open: u64) -> Option<f64> {
        if self.then.is_none() && done >= self.next / 2 {
            self.then = Some((done, now, open));
        }
        if done < self.next {
            return None;
        }
        let (at, then, open_then) = self.then.take()?;
        self.next = done.saturating_mul(4);
        if now <= goal {
            return None;
        }
        // The open nodes, closing at the pace of the last half, all close within as many
        // sweeps again as were made: the sweeps are soon done, whatever the worst gap.
        if open < open_then
            && open as f64 / (open_then - open) as f64 * ((done - at) as f64) <= done as f64
        {
            return None;
        }
        // No pace at all: the sweeps have far to go (a lower bound of an expected reward
        // that rises by as much each sweep, say).
        if now >= then {
            return Some(SLOW * SLOW * done as f64);
        }
        // The measure shrinks by a factor `then / now` every `done - at` sweeps.
        let needed = (now / goal).ln() / (then / now).ln() * (done - at) as f64;
        (needed > self.slow * done as f64).then_some(needed.min(MAX_SWEEPS as f64))
    }
}

struct Window<'a> {
    x: &'a [[f64; 2]],
    own: &'a [[f64; 2]],
    first: u32,
}

impl View for Window<'_> {
    #[inline(always)]
    fn get(&self, j: u32) -> [f64; 2] {
        let k = j.wrapping_sub(self.first) as usize;
        if k < self.own.len() {
            self.own[k]
        } else {
            self.x[j as usize]
        }
    }
}

/// Components of at least this many nodes are swept in parallel blocks of `BLOCK`
/// nodes: each block reads its own states' new bounds and the others' from the sweep
/// before (a block Gauss-Seidel sweep). The blocks depend only on the component, never on
/// the number of threads, so neither do the results.
const PARALLEL: usize = 1 << 16;
const BLOCK: usize = 1 << 14;

/// How a cyclic component is swept.
enum Plan<'n> {
    /// Node after node, in place.
    Serial(&'n [u32]),
    /// The single states in blocks (ascending), each with its window of the bounds;
    /// then the collapsed end components, in place.
    Blocks {
        singles: Vec<u32>,
        collapsed: Vec<u32>,
        windows: Vec<Vec<[f64; 2]>>,
    },
}

pub(super) struct Solver<'a> {
    pub(super) m: &'a Form,
    pub(super) g: &'a Graph<'a>,
    /// Who picks at each state.
    pub(super) sides: Sides,
    kind: Kind,
    pub(super) rew: &'a [f64],
    ecs: Option<EndComponents>,
    /// How far apart the bounds may end (relative above 1): a little under twice the
    /// precision, leaving room for the midpoint's rounding.
    tol: f64,
    /// The greatest value of a probability's target.
    top: f64,
    /// The precision must be met (see [`Job::strict`]).
    strict: bool,
    stop: &'a Stop,
}

impl Solver<'_> {
    /// The collapsed end component of `s`, or [`NONE`].
    #[inline]
    fn ec_of(&self, s: u32) -> u32 {
        self.ecs.as_ref().map_or(NONE, |ecs| ecs.of[s as usize])
    }

    pub(super) fn members(&self, e: u32) -> &[u32] {
        self.ecs.as_ref().expect("collapsed nodes exist").get(e)
    }

    /// The state whose bounds stand for a node.
    #[inline]
    pub(super) fn first(&self, node: u32) -> u32 {
        if node & COLLAPSED != 0 {
            self.members(node & !COLLAPSED)[0]
        } else {
            node & !TANGLED
        }
    }

    /// Bounds on the value of choice `c` from the bounds `x`, its transitions into
    /// `inside` (its own node) solved in closed form; `None` when the choice cannot be
    /// taken (it never leaves its node, or it may reach a state of infinite value).
    #[inline(always)]
    fn choice<const R: bool, V: View + ?Sized>(
        &self,
        c: usize,
        x: &V,
        inside: impl Fn(u32) -> bool,
    ) -> Option<[f64; 2]> {
        let m = self.m;
        let range = m.transitions_of(c);
        let (mut lo, mut hi) = (0.0f64, 0.0f64);
        let mut internal = false;
        for t in range.clone() {
            let j = m.to[t];
            if inside(j) {
                internal = true;
                continue;
            }
            let p = m.prob[t];
            let [l, h] = x.get(j);
            lo += p * l;
            hi += p * h;
        }
        if R {
            if lo == f64::INFINITY {
                return None;
            }
            let r = self.rew[c];
            lo += r;
            hi += r;
        }
        // k products, k additions and a representation error in each of k
        // probabilities: under 2k + 2 units of the result; a quotient by the leaving
        // probability (itself a sum of k rounded terms) adds about k + 2 more: twice the
        // margin covers both.
        let k = range.len();
        if internal {
            let mut out = 0.0;
            for t in range {
                if !inside(m.to[t]) {
                    out += m.prob[t];
                }
            }
            if out <= 0.0 {
                return None;
            }
            let e = 2.0 * margin(k);
            Some([lo / out * (1.0 - e), hi / out * (1.0 + e)])
        } else {
            let e = margin(k);
            Some([lo * (1.0 - e), hi * (1.0 + e)])
        }
    }

    /// The better of two bounds pairs for the goal at state `s` (each bound on its own:
    /// the best of lower bounds is a lower bound on the best).
    #[inline(always)]
    fn pick(&self, s: usize, best: Option<[f64; 2]>, v: [f64; 2]) -> [f64; 2] {
        best.map_or(v, |b| self.sides.at(s).best_of(b, v))
    }

    /// Bounds on a node's value from the others' bounds.
    #[inline(always)]
    fn node<const R: bool, V: View + ?Sized>(&self, node: u32, x: &V) -> Option<[f64; 2]> {
        let mut best = None;
        if node & COLLAPSED == 0 {
            let s = node & !TANGLED;
            for c in self.m.choices_of(s as usize) {
                if let Some(v) = self.choice::<R, V>(c, x, |t| t == s) {
                    best = Some(self.pick(s as usize, best, v));
                }
            }
        } else {
            let e = node & !COLLAPSED;
            let ecs = self.ecs.as_ref().expect("collapsed nodes exist");
            for &s in ecs.get(e) {
                for c in self.m.choices_of(s as usize) {
                    if let Some(v) = self.choice::<R, V>(c, x, |t| ecs.of[t as usize] == e) {
                        best = Some(self.pick(s as usize, best, v));
                    }
                }
            }
        }
        best
    }

    /// Bounds on the value of state `s`, none of whose choices may stay in it: the
    /// engine's one Bellman step ([`bellman::lean`]), the hot path of every sweep. A
    /// choice that may reach a state of infinite value (only for the least reward) is
    /// infinite and never the least.
    #[inline(always)]
    fn lean<const R: bool, const MODE: u8, V: View + ?Sized>(&self, s: u32, x: &V) -> [f64; 2] {
        bellman::lean::<R, MODE, V>(self.m, self.rew, &self.sides.maximise, s as usize, x)
    }

    #[inline(always)]
    fn write(&self, node: u32, x: &mut [[f64; 2]], v: [f64; 2]) {
        self.for_members(node, |s| x[s as usize] = v);
    }

    /// A component of one node: its exits are final, so one step solves it.
    fn single(&self, node: u32, x: &mut [[f64; 2]]) {
        let v = match self.kind {
            Kind::Until => self.node::<false, _>(node, &*x),
            Kind::Reward => self.node::<true, _>(node, &*x),
        };
        // Every open node has a choice that can be taken (the analysis sees to it); were
        // one without, its bounds would stay as they started.
        if let Some([lo, hi]) = v {
            let lo = lo.max(0.0);
            let hi = match self.kind {
                Kind::Until => hi.min(self.top),
                Kind::Reward => hi,
            };
            self.write(node, x, [lo, hi.max(lo)]);
        }
    }

    /// How to sweep a cyclic component's nodes.
    fn plan<'n>(&self, nodes: &'n [u32]) -> Plan<'n> {
        if nodes.len() < PARALLEL {
            return Plan::Serial(nodes);
        }
        let (collapsed, singles): (Vec<u32>, Vec<u32>) =
            nodes.iter().partition(|&&v| v & COLLAPSED != 0);
        let windows = singles
            .chunks(BLOCK)
            .map(|b| {
                let span = self.first(b[b.len() - 1]) - self.first(b[0]);
                Vec::with_capacity(span as usize + 1)
            })
            .collect();
        Plan::Blocks {
            singles,
            collapsed,
            windows,
        }
    }

    /// One Gauss-Seidel sweep of both bounds over a component. Each new bound is kept only
    /// where it is tighter, except on a side that `verify` names: there the new bounds
    /// replace the old ones (a guess being tested).
    ///
    /// A sweep runs from the highest-numbered state down. A model explored breadth first
    /// numbers most successors after their predecessors, so a backward sweep carries
    /// values from successors to predecessors along whole paths at once, as an order of
    /// the graph would (on such models several times fewer sweeps than forward, or than
    /// alternating directions).
    fn sweep<const R: bool>(&self, plan: &mut Plan, x: &mut [[f64; 2]], verify: Verify) -> Sweep {
        let Verify { lo, hi } = verify;
        let mode = self.sides.mode();
        match (mode, lo, hi) {
            (MAXIMISE, false, false) => self.sweep_as::<R, MAXIMISE, false, false>(plan, x),
            (MAXIMISE, false, true) => self.sweep_as::<R, MAXIMISE, false, true>(plan, x),
            (MAXIMISE, true, false) => self.sweep_as::<R, MAXIMISE, true, false>(plan, x),
            (MAXIMISE, true, true) => self.sweep_as::<R, MAXIMISE, true, true>(plan, x),
            (MINIMISE, false, false) => self.sweep_as::<R, MINIMISE, false, false>(plan, x),
            (MINIMISE, false, true) => self.sweep_as::<R, MINIMISE, false, true>(plan, x),
            (MINIMISE, true, false) => self.sweep_as::<R, MINIMISE, true, false>(plan, x),
            (MINIMISE, true, true) => self.sweep_as::<R, MINIMISE, true, true>(plan, x),
            (_, false, false) => self.sweep_as::<R, EACH, false, false>(plan, x),
            (_, false, true) => self.sweep_as::<R, EACH, false, true>(plan, x),
            (_, true, false) => self.sweep_as::<R, EACH, true, false>(plan, x),
            (_, true, true) => self.sweep_as::<R, EACH, true, true>(plan, x),
        }
    }

    /// [`Solver::sweep`] for one way of picking (`MODE`) and mode (`VL`, `VH`: the sides verified),
    /// fixed at compile time so that the hot loop tests none of them.
    fn sweep_as<const R: bool, const MODE: u8, const VL: bool, const VH: bool>(
        &self,
        plan: &mut Plan,
        x: &mut [[f64; 2]],
    ) -> Sweep {
        match plan {
            Plan::Serial(nodes) => self.serial::<R, MODE, VL, VH>(nodes, x),
            Plan::Blocks {
                singles,
                collapsed,
                windows,
            } => {
                let shared: &[[f64; 2]] = x;
                let parts: Vec<Sweep> = singles
                    .par_chunks(BLOCK)
                    .zip(windows.par_iter_mut())
                    .map(|(block, own)| {
                        let first = self.first(block[0]);
                        let last = self.first(block[block.len() - 1]);
                        own.clear();
                        own.extend_from_slice(&shared[first as usize..=last as usize]);
                        self.block::<R, MODE, VL, VH>(block, shared, own, first)
                    })
                    .collect();
                let mut st = Sweep::default();
                for (block, own) in singles.chunks(BLOCK).zip(windows.iter()) {
                    let first = self.first(block[0]) as usize;
                    x[first..first + own.len()].copy_from_slice(own);
                }
                for part in parts {
                    st.merge(part);
                }
                st.merge(self.serial::<R, MODE, VL, VH>(collapsed, x));
                st
            }
        }
    }

    /// The new bounds of a node from the computed `v` and the old ones.
    #[inline(always)]
    fn update<const R: bool, const VL: bool, const VH: bool>(
        &self,
        st: &mut Sweep,
        [l, h]: [f64; 2],
        [ol, oh]: [f64; 2],
    ) -> [f64; 2] {
        let lo = if VL {
            st.fell |= l < ol;
            l
        } else {
            fmax(l, ol)
        };
        let hi = if VH {
            st.rose |= h > oh;
            h
        } else {
            fmin(h, oh)
        };
        if VL || VH {
            st.crossed |= hi < lo;
        }
        st.changed |= (lo != ol) | (hi != oh);
        // Probabilities are at most 1: their gaps are absolute.
        if R {
            let scale = fmax(lo, 1.0);
            st.moved = fmax(st.moved, (lo - ol) / scale);
            st.rise = fmax(st.rise, lo - ol);
            st.top = fmax(st.top, lo);
            st.worst = fmax(st.worst, (hi - lo) / scale);
        } else {
            st.worst = fmax(st.worst, hi - lo);
            st.open += u64::from(hi - lo > self.tol);
        }
        [lo, hi]
    }

    // The statistics live in locals: the loop is bound by the instructions each node
    // takes and by the latency of the successors' bounds, and the leaner the body, the
    // more of those reads the processor keeps in flight.
    fn serial<const R: bool, const MODE: u8, const VL: bool, const VH: bool>(
        &self,
        nodes: &[u32],
        x: &mut [[f64; 2]],
    ) -> Sweep {
        let mut st = Sweep::default();
        for &node in nodes.iter().rev() {
            if node & (COLLAPSED | TANGLED) == 0 {
                let v = self.lean::<R, MODE, _>(node, &*x);
                let s = node as usize;
                x[s] = self.update::<R, VL, VH>(&mut st, v, x[s]);
                continue;
            }
            let Some(v) = self.node::<R, _>(node, &*x) else {
                continue;
            };
            let old = x[self.first(node) as usize];
            let new = self.update::<R, VL, VH>(&mut st, v, old);
            self.write(node, x, new);
        }
        st
    }

    /// One block of a parallel sweep: single states only, within `own`, the window of
    /// the bounds from state `first` on.
    fn block<const R: bool, const MODE: u8, const VL: bool, const VH: bool>(
        &self,
        block: &[u32],
        x: &[[f64; 2]],
        own: &mut [[f64; 2]],
        first: u32,
    ) -> Sweep {
        let mut st = Sweep::default();
        for &node in block.iter().rev() {
            let view = Window {
                x,
                own: &*own,
                first,
            };
            let v = if node & TANGLED == 0 {
                self.lean::<R, MODE, _>(node, &view)
            } else {
                match self.node::<R, _>(node, &view) {
                    Some(v) => v,
                    None => continue,
                }
            };
            let k = ((node & !TANGLED) - first) as usize;
            own[k] = self.update::<R, VL, VH>(&mut st, v, own[k]);
        }
        st
    }

    /// Tries a guess at the values of a component (see [`Solver::guess`]) as the start of
    /// both bounds: a little below its values with the exits' lower bounds and a little
    /// above those with their upper bounds. Each side is swept as a guess (replaced) until
    /// a sweep lowers no lower bound, which makes them lower bounds, and one raises no
    /// upper bound, which makes them upper bounds (see the module's comment); then it is
    /// tightened as usual. The margin is first the tightest the guess allows, for
    /// [`TIGHT_SWEEPS`], then the widest that `enough` allows, for [`CERTIFY_SWEEPS`];
    /// whether both sides held; if not, the bounds are put back as they were. `attempt`
    /// says what the guess may cost (see [`Attempt`]).
    ///
    /// Without `strict`, a guess refused that close is tried again sixteen times as far
    /// out, up to [`WIDEN`] times. Where the guess's own rounding floor is above what the
    /// precision allows (a chain that hardly leaves its component, where the rounding of
    /// one sweep outweighs what the guess gains), bounds as close as rounding allows are
    /// what is asked ([`Held::Wider`]); a guess a little off that holds only further out
    /// is certified, and its bounds are swept on ([`Held::Within`]).
    fn certify<const R: bool>(
        &self,
        nodes: &[u32],
        plan: &mut Plan,
        x: &mut [[f64; 2]],
        local: &mut [u32],
        (enough, attempt): (f64, Attempt),
        done: &mut u64,
    ) -> Held {
        let Some(guessed) = self.guess::<R>(nodes, x, local, attempt) else {
            return Held::No;
        };
        let (lo_v, hi_v, shape) = (guessed.lo, guessed.hi, guessed.shape);
        // The scale the precision allows: bounds `enough` times the tolerance apart at
        // most, absolute for a probability (whose shape is at most 1), relative above 1
        // for a reward.
        let room = if R {
            lo_v.iter()
                .zip(&hi_v)
                .zip(&shape)
                .map(|((&lo, &hi), &shape)| lo.abs().min(hi.abs()).max(1.0) / shape)
                .fold(f64::INFINITY, f64::min)
        } else {
            1.0
        };
        let want = enough * self.tol / 4.0 * room;
        // The widest scale whose bounds still meet the precision: where the guess's own
        // floor is between the two (a reward's guess a little off, on wlan's cost), the
        // bounds are tried there rather than refused.
        let limit = 2.0 * want;
        let mut scale = if guessed.least <= want {
            want
        } else if guessed.least < limit {
            limit
        } else if self.strict || !guessed.least.is_finite() {
            // Certain to be refused: rounding alone moves the bounds more than the
            // precision leaves room for.
            return Held::No;
        } else {
            2.0 * guessed.least
        };
        // Past the precision's room from the start: rounding keeps them apart.
        let floored = scale > limit;
        let saved: Vec<[f64; 2]> = nodes
            .iter()
            .map(|&node| x[self.first(node) as usize])
            .collect();
        // First in the tightest margin the guess allows, a little past its own error: the
        // bounds then start where the sweeps would close in, and the first sweep that
        // holds them leaves them settled (on Pig as a game, at 1e-12 where the margin
        // that the precision allows left 5e-10 and some seven sweeps to settle). Where
        // the guessed strategies differ from the bounds' best by a hair (choices that tie
        // within the exits' gaps), a few sweeps refuse it and the margin that the
        // precision allows is tried.
        let tight = (4.0 * guessed.least).max(want / f64::from(1 << 20));
        let mut tries = Vec::with_capacity(WIDEN + 1);
        if tight < scale / 16.0 {
            tries.push((tight, TIGHT_SWEEPS));
        }
        for _ in 0..if self.strict { 1 } else { WIDEN } {
            tries.push((scale, CERTIFY_SWEEPS));
            scale *= 16.0;
        }
        for (scale, sweeps) in tries {
            for (i, (&node, &[lo, hi])) in nodes.iter().zip(&saved).enumerate() {
                let d = scale * shape[i];
                let top = if R { f64::INFINITY } else { self.top };
                let guess = [
                    fmax(lo_v[i] - d, lo).max(0.0),
                    fmin(fmin(hi_v[i] + d, hi), top),
                ];
                self.write(node, x, guess);
            }
            let mut verify = Verify { lo: true, hi: true };
            for _ in 0..sweeps {
                let st = self.sweep::<R>(plan, x, verify);
                *done += 1;
                if st.crossed {
                    break;
                }
                verify.lo &= st.fell;
                verify.hi &= st.rose;
                if !verify.lo && !verify.hi {
                    return if floored {
                        Held::Wider
                    } else {
                        Held::Within(st.worst / self.tol)
                    };
                }
            }
            for (&node, &old) in nodes.iter().zip(&saved) {
                self.write(node, x, old);
            }
        }
        Held::No
    }

    /// A cyclic component of a probability; whether its bounds met.
    fn until_component(
        &self,
        nodes: &[u32],
        x: &mut [[f64; 2]],
        local: &mut [u32],
        upstream: bool,
        done: &mut u64,
    ) -> Result<bool> {
        let mut settle = Settle::new(upstream);
        let mut plan = self.plan(nodes);
        let mut pace = match self.g.game {
            true => Pace::new(GAME_SLOW, GAME_GUESS_AFTER),
            false => Pace::new(SLOW, GUESS_AFTER),
        };
        if self.is_chain(nodes) || self.g.game {
            let early = (settle.enough, Attempt::Early);
            match self.certify::<false>(nodes, &mut plan, x, local, early, done) {
                Held::Within(worst) if settle.done(worst) => return Ok(true),
                Held::Within(_) => pace.stop(),
                Held::Wider => return Ok(false),
                Held::No => {}
            }
        }
        while *done < MAX_SWEEPS {
            self.stop.check()?;
            let st = self.sweep::<false>(&mut plan, x, Verify::NONE);
            *done += 1;
            if settle.done(st.worst / self.tol) {
                return Ok(true);
            }
            // A sweep that changes nothing will be repeated exactly: rounding keeps the
            // bounds where they are.
            if !st.changed {
                return Ok(st.worst <= self.tol);
            }
            if let Some(needed) = pace.due(*done, st.worst / self.tol, settle.enough, st.open) {
                let paced = (settle.enough, Attempt::Paced(needed));
                match self.certify::<false>(nodes, &mut plan, x, local, paced, done) {
                    Held::Within(worst) if settle.done(worst) => return Ok(true),
                    Held::Within(_) => pace.stop(),
                    // As close as rounding lets the bounds come: the caller may yet solve
                    // the component exactly.
                    Held::Wider => return Ok(false),
                    Held::No if self.exact_chain(nodes, x, local) => return Ok(true),
                    Held::No => {}
                }
            }
        }
        Ok(false)
    }

    /// Whether the players of a game together could keep it for ever among `nodes` (one
    /// component's states): whether any are left once those whose every choice may leave
    /// are dropped, then the choices into those, and so on. (Those left hold an end
    /// component: with the choices that stay, the last of their components is one.) Read
    /// on the component alone, as it is about to be swept, rather than on the whole model
    /// beforehand: as fast on Pig as a game, where no state is left, and one component
    /// where the players could stay sends only that one to [`Solver::deflated_component`].
    /// `local` is [`NONE`] for every state, and is left so.
    fn may_stay(&self, nodes: &[u32], local: &mut [u32]) -> bool {
        let m = self.m;
        let n = nodes.len();
        for (i, &v) in nodes.iter().enumerate() {
            local[self.first(v) as usize] = i as u32;
        }
        // The choices that stay, each numbered, counted by node; and for each, the nodes
        // it moves to (in the component's numbering), to find the choices into a node
        // dropped without searching the model's predecessors.
        let mut left = vec![0u32; n];
        let mut owner: Vec<u32> = Vec::new();
        let mut into: Vec<(u32, u32)> = Vec::new();
        for (i, &v) in nodes.iter().enumerate() {
            for c in m.choices_of(self.first(v) as usize) {
                let to = &m.to[m.transitions_of(c)];
                if to.iter().all(|&t| local[t as usize] != NONE) {
                    let k = owner.len() as u32;
                    owner.push(i as u32);
                    into.extend(to.iter().map(|&t| (local[t as usize], k)));
                    left[i] += 1;
                }
            }
        }
        for &v in nodes {
            local[self.first(v) as usize] = NONE;
        }
        if owner.is_empty() {
            return false;
        }
        // By node moved to: `by[start[t]..start[t + 1]]` the choices into `t`.
        let mut start = vec![0usize; n + 1];
        for &(t, _) in &into {
            start[t as usize + 1] += 1;
        }
        for t in 0..n {
            start[t + 1] += start[t];
        }
        let mut by = vec![0u32; into.len()];
        let mut fill = start.clone();
        for &(t, k) in &into {
            by[fill[t as usize]] = k;
            fill[t as usize] += 1;
        }
        let mut dropped: Vec<u32> = (0..n as u32).filter(|&i| left[i as usize] == 0).collect();
        let mut kept = n - dropped.len();
        let mut gone = vec![false; owner.len()];
        while let Some(t) = dropped.pop() {
            for &k in &by[start[t as usize]..start[t as usize + 1]] {
                if !std::mem::replace(&mut gone[k as usize], true) {
                    let i = owner[k as usize] as usize;
                    left[i] -= 1;
                    if left[i] == 0 {
                        dropped.push(i as u32);
                        kept -= 1;
                    }
                }
            }
        }
        kept > 0
    }

    /// A cyclic component of a probability in a game where the players together could
    /// stay forever; whether its bounds met. Swept as [`Solver::until_component`] sweeps,
    /// its end components deflated now and then (see the module's comment): after sweeps
    /// 1, 2, 4, ... 64 and then every 64, enough for bounds that stall only there, as
    /// each search costs as much as many sweeps.
    fn deflated_component(
        &self,
        nodes: &[u32],
        x: &mut [[f64; 2]],
        upstream: bool,
        done: &mut u64,
    ) -> Result<bool> {
        let mut settle = Settle::new(upstream);
        let mut plan = self.plan(nodes);
        let mut inside = vec![false; self.g.states()];
        for &v in nodes {
            inside[self.first(v) as usize] = true;
        }
        while *done < MAX_SWEEPS {
            self.stop.check()?;
            let st = self.sweep::<false>(&mut plan, x, Verify::NONE);
            *done += 1;
            if settle.done(st.worst / self.tol) {
                return Ok(true);
            }
            let due = done.is_power_of_two() || done.is_multiple_of(64);
            if due || !st.changed {
                let lowered = self.deflate(&inside, x);
                if !st.changed && !lowered {
                    return Ok(st.worst <= self.tol);
                }
            }
        }
        Ok(false)
    }

    /// Lowers the upper bounds of each end component among the states `inside` (the
    /// minimiser keeping only his choices that are best for the lower bounds) to the
    /// best upper bound among the maximiser's choices that leave it, or 0 (staying
    /// forever); whether any bound was lowered.
    fn deflate(&self, inside: &[bool], x: &mut [[f64; 2]]) -> bool {
        let m = self.m;
        let best_for_lo = |c: usize| {
            let s = self.g.owner[c] as usize;
            if self.sides.at(s) == Goal::Max {
                return true;
            }
            let lo = |c: usize| {
                m.transitions_of(c)
                    .map(|t| m.prob[t] * x[m.to[t] as usize][0])
                    .sum::<f64>()
            };
            let least = m.choices_of(s).map(lo).fold(f64::INFINITY, f64::min);
            lo(c) <= least
        };
        let Some(ecs) = self.g.end_components(inside, best_for_lo) else {
            return false;
        };
        let mut lowered = false;
        for e in 0..ecs.count() as u32 {
            let members = ecs.get(e);
            let mut exit: f64 = 0.0;
            for &s in members {
                let s = s as usize;
                if self.sides.at(s) != Goal::Max {
                    continue;
                }
                for c in m.choices_of(s) {
                    let leaves = m.to[m.transitions_of(c)]
                        .iter()
                        .any(|&t| ecs.of[t as usize] != e);
                    if leaves {
                        if let Some([_, hi]) = self.choice::<false, _>(c, &*x, |_| false) {
                            exit = exit.max(hi);
                        }
                    }
                }
            }
            for &s in members {
                let [lo, hi] = x[s as usize];
                let new = hi.min(exit).max(lo);
                if new < hi {
                    x[s as usize][1] = new;
                    lowered = true;
                }
            }
        }
        lowered
    }

    /// A cyclic component of an expected reward; whether its bounds met. The lower bounds
    /// alone until they barely move; then upper bounds guessed just above them, tested by
    /// sweeps that replace them until one lowers none (certified) or one falls below a
    /// lower bound (refuted: back to the lower bounds, asking them to settle further).
    fn reward_component(
        &self,
        nodes: &[u32],
        x: &mut [[f64; 2]],
        local: &mut [u32],
        upstream: bool,
        done: &mut u64,
    ) -> Result<bool> {
        let mut settle = Settle::new(upstream);
        let mut settled = self.tol;
        let mut window = 16u64;
        let mut certified = false;
        let mut plan = self.plan(nodes);
        let chain = self.is_chain(nodes);
        // A chain's guess was tried before any sweep, and its pace is as for a
        // probability's.
        let mut pace = Pace::new(if chain { SLOW } else { SLOW_REWARD }, GUESS_AFTER);
        if chain {
            let early = (settle.enough, Attempt::Early);
            match self.certify::<true>(nodes, &mut plan, x, local, early, done) {
                Held::Within(worst) if settle.done(worst) => return Ok(true),
                Held::Within(_) => certified = true,
                Held::Wider => return Ok(false),
                Held::No => {}
            }
        }
        while *done < MAX_SWEEPS {
            self.stop.check()?;
            let st = self.sweep::<true>(&mut plan, x, Verify::NONE);
            *done += 1;
            if certified {
                if settle.done(st.worst / self.tol) {
                    return Ok(true);
                }
                if !st.changed {
                    return Ok(st.worst <= self.tol);
                }
                continue;
            }
            // The pace of the lower bounds: how fast their rises shrink (a relative rise
            // would shrink while the bounds grow, fast as they may still have far to go).
            if let Some(needed) = pace.due(*done, st.rise, settled * st.top.max(1.0), 0) {
                let paced = (settle.enough, Attempt::Paced(needed));
                match self.certify::<true>(nodes, &mut plan, x, local, paced, done) {
                    Held::Within(worst) if settle.done(worst) => return Ok(true),
                    Held::Within(_) => {
                        certified = true;
                        continue;
                    }
                    Held::Wider => return Ok(false),
                    Held::No if self.exact_chain(nodes, x, local) => return Ok(true),
                    Held::No => {}
                }
            }
            if st.moved > settled && st.changed {
                continue;
            }
            for &node in nodes {
                let lo = x[self.first(node) as usize][0];
                self.write(node, x, [lo, lo + self.tol / 4.0 * lo.max(1.0)]);
            }
            let mut tried = 0;
            while tried < window && *done < MAX_SWEEPS {
                let st = self.sweep::<true>(&mut plan, x, Verify::UPPER);
                *done += 1;
                tried += 1;
                if st.crossed {
                    break;
                }
                if !st.rose {
                    certified = true;
                    break;
                }
            }
            if !certified {
                for &node in nodes {
                    let lo = x[self.first(node) as usize][0];
                    self.write(node, x, [lo, f64::INFINITY]);
                }
                settled /= 16.0;
                window = window.saturating_mul(2);
            }
        }
        Ok(false)
    }

    /// Whether a component has no choice to make: its guess is its system solved, tried
    /// before any sweep.
    pub(super) fn is_chain(&self, nodes: &[u32]) -> bool {
        nodes
            .iter()
            .all(|&v| v & COLLAPSED == 0 && self.m.choices_of(self.first(v) as usize).len() == 1)
    }

    /// Bounds on a component with no choice to make, from its linear system solved
    /// exactly (see the module's comment); whether it could be (the model has its exact
    /// probabilities, the component is a chain of at most [`EXACT_CHAIN`] states, and its
    /// exits are finite). `local` is [`NONE`] for every state, and is left so.
    fn exact_chain(&self, nodes: &[u32], x: &mut [[f64; 2]], local: &mut [u32]) -> bool {
        let m = self.m;
        let Ok(ex) = m.exact_probs() else {
            return false;
        };
        if !self.is_chain(nodes) || nodes.len() > EXACT_CHAIN {
            return false;
        }
        for (i, &v) in nodes.iter().enumerate() {
            local[self.first(v) as usize] = i as u32;
        }
        let solved = self.solve_chain(ex, nodes, x, local);
        for &v in nodes {
            local[self.first(v) as usize] = NONE;
        }
        let Some((lo, hi)) = solved else {
            return false;
        };
        for (i, &v) in nodes.iter().enumerate() {
            let s = self.first(v) as usize;
            x[s] = [below(&lo[i]).max(x[s][0]), above(&hi[i]).min(x[s][1])];
        }
        true
    }

    /// The exact solutions of a chain component's system with its exits' lower and upper
    /// bounds.
    fn solve_chain(
        &self,
        ex: &ExactProbs,
        nodes: &[u32],
        x: &[[f64; 2]],
        local: &[u32],
    ) -> Option<(Vec<Exact>, Vec<Exact>)> {
        let m = self.m;
        let exact = |f: f64| Exact::from_float(f);
        let (rows, b) = chain_system(
            m,
            ex,
            nodes.iter().map(|&v| m.choices[self.first(v) as usize]),
            local,
            |c| match self.kind {
                Kind::Reward => exact(self.rew[c]),
                Kind::Until => Some(Exact::zero()),
            },
            |j| Some([exact(x[j][0])?, exact(x[j][1])?]),
        )?;
        let (b_lo, b_hi): (Vec<Exact>, Vec<Exact>) = b.into_iter().map(|[l, h]| (l, h)).unzip();
        // Within a budget of fill-in, and modulo primes only: the fraction-free
        // elimination of a large chain whose values are long could take hours.
        let held = rows.held();
        let budget = held * EXACT_FILL + (1 << 16);
        let work = (held * EXACT_WORK + (1 << 16)) as u64;
        let solve = |b: Vec<Exact>| modular::solve(&rows, &b, budget, work);
        let same = b_lo == b_hi;
        let lo = solve(b_lo)?;
        let hi = if same { lo.clone() } else { solve(b_hi)? };
        Some((lo, hi))
    }

    /// Whether choice `c` of a state of end component `e` keeps within it, and is one of
    /// those the component was made of.
    fn internal(&self, c: usize, e: u32) -> bool {
        let m = self.m;
        let ecs = self.ecs.as_ref().expect("collapsed nodes exist");
        (self.kind == Kind::Until || self.rew[c] == 0.0)
            && m.to[m.transitions_of(c)]
                .iter()
                .all(|&t| ecs.of[t as usize] == e)
    }

    /// The strategy read off the bounds: in each open state the choice with the best
    /// midpoint; in a collapsed end component, the best exit, and in its other states
    /// choices within the component that lead to the exit's state (a search back from
    /// it), so that the component is left for sure and at no cost.
    fn strategy(&self, x: &[[f64; 2]], setup: &Setup, unknown: &[bool]) -> Vec<u32> {
        let m = self.m;
        let mut strategy = setup.strategy.clone();
        let mid = |[l, h]: [f64; 2]| l + (h - l) / 2.0;
        let best_of = |choices: &mut dyn Iterator<Item = usize>, inside: &dyn Fn(u32) -> bool| {
            let mut best: Option<(f64, usize)> = None;
            for c in choices {
                let v = match self.kind {
                    Kind::Until => self.choice::<false, _>(c, x, inside),
                    Kind::Reward => self.choice::<true, _>(c, x, inside),
                };
                if let Some(v) = v {
                    let v = mid(v);
                    let goal = self.sides.at(self.g.owner[c] as usize);
                    if best.is_none_or(|(b, _)| goal.better(v, b)) {
                        best = Some((v, c));
                    }
                }
            }
            best
        };
        for s in 0..self.g.states() {
            // A state with one choice keeps it (as the setup has it).
            if unknown[s] && self.ec_of(s as u32) == NONE && m.choices_of(s).len() > 1 {
                if let Some((_, c)) = best_of(&mut m.choices_of(s), &|t| t as usize == s) {
                    strategy[s] = (c - m.choices[s]) as u32;
                }
            }
        }
        let Some(ecs) = &self.ecs else {
            return strategy;
        };
        let mut stack: Vec<u32> = Vec::new();
        for e in 0..ecs.count() as u32 {
            let members = ecs.get(e);
            let mut all = members.iter().flat_map(|&s| m.choices_of(s as usize));
            let Some((_, exit)) = best_of(&mut all, &|t| ecs.of[t as usize] == e) else {
                continue;
            };
            for &s in members {
                strategy[s as usize] = NONE;
            }
            let s0 = self.g.owner[exit];
            strategy[s0 as usize] = (exit - m.choices[s0 as usize]) as u32;
            stack.push(s0);
            while let Some(t) = stack.pop() {
                for &c in self.g.preds(t as usize) {
                    let s = self.g.owner[c as usize] as usize;
                    if ecs.of[s] == e && strategy[s] == NONE && self.internal(c as usize, e) {
                        strategy[s] = (c as usize - m.choices[s]) as u32;
                        stack.push(s as u32);
                    }
                }
            }
            // The component is strongly connected by its own choices, so the search finds
            // every state; this only guards the output.
            for &s in members {
                if strategy[s as usize] == NONE {
                    strategy[s as usize] = 0;
                }
            }
        }
        strategy
    }
}

#[cfg(test)]
mod pace_tests {
    use super::Pace;

    /// The measure `now` at sweeps 16 and 32, with `open` nodes open at each: the sweeps
    /// the pace says are needed, if a guess is due.
    fn due_at_32(now: [f64; 2], open: [u64; 2]) -> Option<f64> {
        let mut pace = Pace::new(16.0, super::GUESS_AFTER);
        assert_eq!(pace.due(16, now[0], 1.0, open[0]), None);
        pace.due(32, now[1], 1.0, open[1])
    }

    #[test]
    fn bounds_settling_inwards_wait_while_a_slow_leak_is_guessed() {
        // The worst gap stays at its start either way.
        let flat = [5e8, 4.99e8];
        // Settling from the exits inwards: the open nodes fall fast (zeroconf's counts).
        assert_eq!(due_at_32(flat, [811_944, 495_338]), None);
        // Leaking out slowly everywhere: every node stays open.
        assert!(due_at_32(flat, [1_000_000, 1_000_000]).is_some());
        // Closing, but too slowly to be done within as many sweeps again.
        assert!(due_at_32(flat, [1_000_000, 900_000]).is_some());
        // Not counted (an expected reward): the worst gap's pace alone decides.
        assert!(due_at_32(flat, [0, 0]).is_some());
        // A pace that is quick anyway needs no guess.
        assert_eq!(due_at_32([1e4, 1e2], [0, 0]), None);
    }
}
