//! The engine's questions on a partitioned model. First in waves (`waves`): each worker
//! solves its components with the engine once the states they lead to are done, and
//! sends what others copy. What a component across workers leaves is solved here: the
//! graph analysis that decides the states of value 0, 1 or infinity, then sound interval
//! iteration, every sweep a round.
//!
//! Each worker holds its states' rows with targets renumbered into one local index
//! space: its own states first, then a copy ("ghost") of each other worker's state that
//! one of its transitions reaches. Before a sweep, each worker sends every other the
//! current values of the states that worker copies, in an order agreed once, so a sweep
//! ships one number (or a pair) per crossing target, not per transition.
//!
//! Why the bounds hold is as in the engine's own interval iteration: the Bellman operator
//! is monotone, lower bounds start below the value and upper bounds above, every result
//! is rounded outward (a relative margin covering the roundings of the sums and products
//! and one unit in the last place of each probability), and a state may use the newest
//! values of its own partition (in place) since any bounds will do. Upper bounds of
//! probabilities start at 1. Once the lower bounds barely move, upper bounds are guessed
//! just above them (for expected rewards, which have no others, and for probabilities,
//! whose bounds from 1 can fall very slowly) and kept only once the operator is seen to
//! map them at or below themselves everywhere (optimistic value iteration), which proves
//! them above the least fixed point; see `iterate`.
//!
//! End components. Where a strategy can keep the process forever among the undecided
//! states, the upper bounds of the greatest probability stall, and the lower bounds of
//! the least expected reward converge to the cost of staying, 0, if staying costs
//! nothing. Those end components are found and collapsed in rounds (`ends`), as the
//! engine does. (The least probability and the greatest reward need no collapse once the
//! graph analysis is done: such a strategy would give those states the value 0, or
//! infinity.)

use std::ops::Range;

mod ends;
mod waves;

use alea_core::form::{Form, Rewards};
use alea_core::numeric::round::{margin, midpoint};
use alea_core::numeric::settle::Settle;
use alea_core::solve::Goal;
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::explore::{Part, LIMIT};
use crate::round::{piece, Channel, Gather, PIECE};
use crate::ClusterError;

/// Sweeps before a question is given up.
pub const MAX_SWEEPS: u64 = 1_000_000;
/// Sweeps that test a guess of the upper bounds before it is dropped.
const CERTIFY_SWEEPS: u64 = 64;

/// The graph of one worker's part, targets renumbered (ghosts after the own states).
pub struct Topology {
    pub n: usize,
    ghosts: usize,
    /// The own states' rows, then one row per copy that loops on it: a form the
    /// engine's algorithms take as it is.
    form: Form,
    /// For each worker, the own states whose values it copies, in its order.
    exports: Vec<Vec<u32>>,
    /// For each worker, where the copies of its states are.
    imports: Vec<Range<usize>>,
    /// Each copy's local id at its owner.
    ghost_local: Vec<u32>,
    me: usize,
    peers: usize,
}

impl Topology {
    /// The number of local values: own states and ghosts.
    pub fn len(&self) -> usize {
        self.n + self.ghosts
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The transitions of the own states and the copies' loops.
    pub fn transitions(&self) -> usize {
        self.form.to.len()
    }

    /// The copies of other workers' states kept here.
    pub fn copies(&self) -> usize {
        self.ghosts
    }

    #[inline]
    fn choices_of(&self, s: usize) -> Range<usize> {
        self.form.choices[s]..self.form.choices[s + 1]
    }

    /// The global id of local value `v` (an own state or a copy).
    fn global(&self, v: usize) -> u64 {
        let (owner, local) = if v < self.n {
            (self.me, v as u32)
        } else {
            // The copies' ranges follow the owners' order (see `Partition::build`).
            let owner = self.imports.partition_point(|r| r.end <= v);
            (owner, self.ghost_local[v - self.n])
        };
        u64::from(local) * self.peers as u64 + owner as u64
    }

    #[inline]
    fn row_of(&self, c: usize) -> Range<usize> {
        self.form.row[c]..self.form.row[c + 1]
    }

    /// Bytes held by the topology.
    pub fn bytes(&self) -> u64 {
        let f = &self.form;
        (f.choices.capacity() * 8
            + f.row.capacity() * 8
            + f.to.capacity() * 4
            + f.prob.capacity() * 8
            + self.ghost_local.capacity() * 4
            + self.exports.iter().map(|e| e.capacity() * 4).sum::<usize>()) as u64
    }
}

/// What a sweep tells every worker.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
struct Summary {
    changed: bool,
    /// The largest error of a midpoint among undecided states.
    worst: f64,
    /// Every upper bound was mapped at or below itself.
    closed: bool,
    /// Every upper bound is at or below where it stood two sweeps before (see
    /// [`iterate`]).
    closed_two: bool,
    /// An upper bound fell below its lower bound (a guess too low). Part of the proof,
    /// not only a hint: the bound then stored is the lower one, which may exceed the old
    /// upper bound, so such a sweep proves nothing.
    crossed: bool,
    /// The largest rise of a lower bound, relative above 1.
    moved: f64,
}

/// The summaries of all workers as one: any change, the worst gap, every bound closed.
fn combine(all: &[Summary]) -> Summary {
    all.iter().fold(
        Summary {
            closed: true,
            closed_two: true,
            ..Summary::default()
        },
        |a, s| Summary {
            changed: a.changed || s.changed,
            worst: a.worst.max(s.worst),
            closed: a.closed && s.closed,
            closed_two: a.closed_two && s.closed_two,
            crossed: a.crossed || s.crossed,
            moved: a.moved.max(s.moved),
        },
    )
}

/// The topology and the channels its rounds use.
pub struct Partition {
    pub topo: Topology,
    values: Channel<(u32, Summary, u64, Vec<f64>)>,
    summaries: Gather<Summary>,
    /// Bounds of states done in a wave: who sends, its progress (in its first piece to
    /// each worker), the positions among the receiver's copies, the bounds.
    done: Channel<Done>,
    /// Rounds and bytes of values sent by this worker since the last `take_traffic`.
    pub traffic: Traffic,
}

/// A piece of a wave's bounds (see `Partition::exchange_done`).
type Done = (u32, Option<waves::Progress>, Vec<u32>, Vec<f64>);

/// What a worker's rounds cost.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Traffic {
    pub rounds: u64,
    pub bytes: u64,
}

/// How a state's value stands.
pub const OPEN: u8 = 0;
pub const FIXED: u8 = 1;
pub const INFINITE: u8 = 2;
/// Solved in a wave: bounds that the iteration leaves as they are.
pub const DONE: u8 = 3;

/// Every state's bounds and how they were found.
pub struct Bounds {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    pub class: Vec<u8>,
    /// The largest error of a midpoint over all workers' states.
    pub error_bound: f64,
    pub sweeps: u64,
}

impl Bounds {
    /// The value of local state `s` with its error bound and whether it is known exactly.
    pub fn value(&self, s: usize) -> (f64, f64, bool) {
        match self.class[s] {
            INFINITE => (f64::INFINITY, 0.0, true),
            FIXED => (self.lo[s], 0.0, true),
            _ if self.lo[s] == self.hi[s] => (self.lo[s], 0.0, true),
            // Open or done: the midpoint.
            _ => {
                let (mid, _) = midpoint(self.lo[s], self.hi[s]);
                (mid, self.error_bound * mid.abs().max(1.0), false)
            }
        }
    }
}

impl Partition {
    /// Renumbers the part's targets: every worker tells each owner which of its states it
    /// copies (one round).
    pub fn new(worker: &mut Worker, part: &mut Part) -> Partition {
        let n = part.states();
        Partition::build(
            worker,
            (part.me, part.peers),
            n,
            std::mem::take(&mut part.choices),
            std::mem::take(&mut part.row),
            std::mem::take(&mut part.to),
            std::mem::take(&mut part.prob),
        )
    }

    /// The graph of `n` own states with rows `choices`, `row`, `prob` to the global ids
    /// `to`, for worker `me` of `peers` (see [`Partition::new`]).
    fn build(
        worker: &mut Worker,
        (me, peers): (usize, usize),
        n: usize,
        choices: Vec<usize>,
        row: Vec<usize>,
        to: Vec<u64>,
        prob: Vec<f64>,
    ) -> Partition {
        // The other workers' states reached, by owner and then local id.
        let key = |g: u64| (g % peers as u64, g / peers as u64);
        let mut needed: Vec<u64> = to
            .iter()
            .copied()
            .filter(|&g| (g % peers as u64) as usize != me)
            .collect();
        needed.sort_unstable_by_key(|&g| key(g));
        needed.dedup();
        let mut imports = vec![0..0; peers];
        // Who asks, where the piece starts in its list, the local ids.
        let mut ask = Channel::<(u32, u64, Vec<u32>)>::new(worker);
        let mut i = 0;
        while i < needed.len() {
            let o = (needed[i] % peers as u64) as usize;
            let mut j = i;
            while j < needed.len() && (needed[j] % peers as u64) as usize == o {
                j += 1;
            }
            for (k, wanted) in needed[i..j].chunks(PIECE).enumerate() {
                let locals = wanted.iter().map(|&g| (g / peers as u64) as u32).collect();
                ask.send(o, (me as u32, (k * PIECE) as u64, locals));
            }
            imports[o] = n + i..n + j;
            i = j;
        }
        // An owner none of whose states is copied gets an empty range in its place, so
        // that the ranges follow the owners' order.
        let mut at = n;
        for range in imports.iter_mut() {
            if range.start == range.end {
                *range = at..at;
            } else {
                at = range.end;
            }
        }
        let mut exports: Vec<Vec<u32>> = vec![Vec::new(); peers];
        let mut asked = ask.finish(worker);
        asked.sort_unstable_by_key(|&(from, offset, _)| (from, offset));
        for (from, _, locals) in asked {
            exports[from as usize].extend(locals);
        }
        let local: Vec<u32> = to
            .iter()
            .map(|&g| {
                if (g % peers as u64) as usize == me {
                    (g / peers as u64) as u32
                } else {
                    let at = needed
                        .binary_search_by_key(&key(g), |&h| key(h))
                        .expect("every crossing target is a ghost");
                    (n + at) as u32
                }
            })
            .collect();
        drop(to);
        let (mut choices, mut row, mut local, mut prob) = (choices, row, local, prob);
        for ghost in n..n + needed.len() {
            local.push(ghost as u32);
            prob.push(1.0);
            row.push(local.len());
            choices.push(row.len() - 1);
        }
        let topo = Topology {
            n,
            ghosts: needed.len(),
            form: Form {
                choices,
                row,
                to: local,
                prob,
                ..Form::default()
            },
            exports,
            imports,
            ghost_local: needed.iter().map(|&g| (g / peers as u64) as u32).collect(),
            me,
            peers,
        };
        Partition {
            topo,
            values: Channel::new(worker),
            summaries: Gather::new(worker),
            done: Channel::new(worker),
            traffic: Traffic::default(),
        }
    }

    /// The rounds and bytes since the last call.
    pub fn take_traffic(&mut self) -> Traffic {
        std::mem::take(&mut self.traffic)
    }

    /// Sends each worker the bounds of its copies done in this wave (`out[w]`: positions
    /// among worker `w`'s copies and bounds, two numbers each) and this worker's
    /// `progress`; hands each arriving copy's local value and bounds to `arrived`, and
    /// returns every worker's progress.
    fn exchange_done(
        &mut self,
        worker: &mut Worker,
        out: Vec<(Vec<u32>, Vec<f64>)>,
        progress: waves::Progress,
        mut arrived: impl FnMut(usize, &[f64]),
    ) -> Vec<waves::Progress> {
        let t = &self.topo;
        let per = piece(3);
        for (w, (positions, bounds)) in out.into_iter().enumerate() {
            if w == t.me {
                continue;
            }
            self.traffic.bytes += positions.len() as u64 * 20;
            let mut first = Some(progress.clone());
            let mut k = 0;
            loop {
                let end = (k + per).min(positions.len());
                self.done.send(
                    w,
                    (
                        t.me as u32,
                        first.take(),
                        positions[k..end].to_vec(),
                        bounds[2 * k..2 * end].to_vec(),
                    ),
                );
                k = end;
                if k >= positions.len() {
                    break;
                }
            }
        }
        self.traffic.rounds += 1;
        let mut all = vec![(t.me as u32, progress)];
        self.done
            .finish_each(worker, |(from, theirs, positions, bounds)| {
                let at = t.imports[from as usize].start;
                for (j, &pos) in positions.iter().enumerate() {
                    arrived(at + pos as usize, &bounds[2 * j..2 * j + 2]);
                }
                if let Some(p) = theirs {
                    all.push((from, p));
                }
            });
        if all.len() != worker.peers() {
            std::panic::panic_any(crate::round::LEFT);
        }
        all.sort_unstable_by_key(|a| a.0);
        all.into_iter().map(|a| a.1).collect()
    }

    /// Brings the ghosts of `x` (`stride` numbers per state) up to date, and tells every
    /// worker every worker's summary of its last sweep (one round for both: a sweep's
    /// cost is the round's latency on a slow network).
    fn share(
        &mut self,
        worker: &mut Worker,
        x: &mut [f64],
        stride: usize,
        mine: Summary,
    ) -> Summary {
        let t = &self.topo;
        self.traffic.rounds += 1;
        for (w, states) in t.exports.iter().enumerate() {
            if w == t.me {
                continue;
            }
            self.traffic.bytes += (states.len() * stride * 8) as u64;
            // In pieces (see `round::PIECE`); the first carries the summary.
            let mut offset = 0;
            for chunk in states
                .chunks(piece(stride))
                .chain(states.is_empty().then_some(&[][..]))
            {
                let mut buf = Vec::with_capacity(chunk.len() * stride);
                for &s in chunk {
                    let s = s as usize * stride;
                    buf.extend_from_slice(&x[s..s + stride]);
                }
                self.values.send(w, (t.me as u32, mine, offset as u64, buf));
                offset += chunk.len() * stride;
            }
        }
        let mut all = vec![mine];
        self.values
            .finish_each(worker, |(from, theirs, offset, buf)| {
                let at = t.imports[from as usize].start * stride + offset as usize;
                x[at..at + buf.len()].copy_from_slice(&buf);
                if offset == 0 {
                    all.push(theirs);
                }
            });
        if all.len() != worker.peers() {
            std::panic::panic_any(crate::round::LEFT);
        }
        combine(&all)
    }

    /// Brings the copies of `x` (`stride` numbers per state) up to date, and tells
    /// whether any worker's last pass `changed` something.
    fn share_flag(
        &mut self,
        worker: &mut Worker,
        x: &mut [f64],
        stride: usize,
        changed: bool,
    ) -> bool {
        let mine = Summary {
            changed,
            ..Summary::default()
        };
        self.share(worker, x, stride, mine).changed
    }

    /// Whether `mine` holds on any worker.
    fn any(&mut self, worker: &mut Worker, mine: bool) -> bool {
        let mine = Summary {
            changed: mine,
            ..Summary::default()
        };
        combine(&self.summaries.all(worker, mine)).changed
    }

    /// A set of states grown (least fixed point) or shrunk (greatest) until no state
    /// changes anywhere: `x` holds 1 or 0 per local value; `rule(s, x)` is the new truth of
    /// own state `s`, asked only of states that may change (false ones when growing).
    fn fixpoint(
        &mut self,
        worker: &mut Worker,
        x: &mut [f64],
        grow: bool,
        rule: impl Fn(&Topology, usize, &[f64]) -> bool,
    ) {
        let mut changed = true;
        loop {
            if !self.share_flag(worker, x, 1, changed) {
                return;
            }
            changed = false;
            for s in 0..self.topo.n {
                if (x[s] == 1.0) != grow && rule(&self.topo, s, x) == grow {
                    x[s] = if grow { 1.0 } else { 0.0 };
                    changed = true;
                }
            }
        }
    }

    /// The states that reach a state of `seed` through states of `through`, over some
    /// choice (`every_choice`: whatever the choices) with positive probability.
    fn reach(
        &mut self,
        worker: &mut Worker,
        seed: &[bool],
        through: &[bool],
        every_choice: bool,
    ) -> Vec<bool> {
        let mut x = vec![0.0; self.topo.len()];
        for s in 0..self.topo.n {
            x[s] = seed[s] as u8 as f64;
        }
        self.fixpoint(worker, &mut x, true, |t, s, x| {
            if !through[s] {
                return false;
            }
            let reaches = |c: usize| t.row_of(c).any(|i| x[t.form.to[i] as usize] == 1.0);
            if every_choice {
                t.choices_of(s).all(reaches)
            } else {
                t.choices_of(s).any(reaches)
            }
        });
        x[..self.topo.n].iter().map(|&v| v == 1.0).collect()
    }

    /// The states from which some strategy reaches `target` with probability 1 through
    /// states of `within` (the engine's nested fixed point: the largest set from which a
    /// choice stays in the set and moves closer to the target).
    fn almost_surely_some(
        &mut self,
        worker: &mut Worker,
        target: &[bool],
        within: &[bool],
    ) -> Vec<bool> {
        let len = self.topo.len();
        let mut y = vec![1.0; len];
        for s in 0..self.topo.n {
            y[s] = (target[s] || within[s]) as u8 as f64;
        }
        let mut changed = true;
        loop {
            if !self.share_flag(worker, &mut y, 1, changed) {
                return y[..self.topo.n].iter().map(|&v| v == 1.0).collect();
            }
            let mut x = vec![0.0; len];
            for s in 0..self.topo.n {
                x[s] = target[s] as u8 as f64;
            }
            let yy = &y;
            self.fixpoint(worker, &mut x, true, |t, s, x| {
                yy[s] == 1.0
                    && t.choices_of(s).any(|c| {
                        t.row_of(c).all(|i| yy[t.form.to[i] as usize] == 1.0)
                            && t.row_of(c).any(|i| x[t.form.to[i] as usize] == 1.0)
                    })
            });
            changed = (0..self.topo.n).any(|s| x[s] != y[s]);
            y[..self.topo.n].copy_from_slice(&x[..self.topo.n]);
        }
    }
}

/// What a question needs beyond the graph.
pub struct Question<'a> {
    /// `None` in a Markov chain (one choice per state).
    pub goal: Option<Goal>,
    pub precision: f64,
    /// Whether the model is a Markov chain: its end components need no strategy.
    pub mdp: bool,
    pub rewards: Option<&'a Rewards>,
}

/// The probability of `stay U target` in every own state.
pub fn until(
    worker: &mut Worker,
    g: &mut Partition,
    q: &Question,
    stay: &[bool],
    target: &[bool],
) -> Result<Bounds, ClusterError> {
    let n = g.topo.n;
    let goal = q.goal.unwrap_or(Goal::Max);
    let exits: Vec<Option<[f64; 2]>> = (0..n)
        .map(|s| {
            if target[s] {
                Some([1.0, 1.0])
            } else if !stay[s] {
                Some([0.0, 0.0])
            } else {
                None
            }
        })
        .collect();
    let waves = waves::solve(worker, g, q, &exits)?;
    if waves.complete {
        return Ok(finished(worker, g, waves));
    }
    let through: Vec<bool> = (0..n).map(|s| stay[s] && !target[s]).collect();
    // A state that cannot reach the target (whatever the choices, for the least) is
    // worth 0.
    let reaches = g.reach(worker, target, &through, goal == Goal::Min);
    // A state from which some strategy reaches the target surely is worth 1, for the
    // greatest probability: this leaves no end component among the states worth 1, as
    // the engine's analysis does.
    let sure = if q.mdp && goal == Goal::Max {
        g.almost_surely_some(worker, target, &through)
    } else {
        // Every strategy reaches the target surely where none can reach, with positive
        // probability, a state from which some strategy misses it for ever (in a chain,
        // the one strategy).
        let avoid: Vec<bool> = reaches.iter().map(|&r| !r).collect();
        let below_one = g.reach(worker, &avoid, &through, false);
        (0..n)
            .map(|s| through[s] && reaches[s] && !below_one[s])
            .collect()
    };
    let mut class = vec![FIXED; n];
    let mut x = vec![0.0; 2 * g.topo.len()];
    for s in 0..n {
        if target[s] || sure[s] {
            x[2 * s..2 * s + 2].fill(1.0);
        } else if through[s] && reaches[s] {
            class[s] = OPEN;
            x[2 * s + 1] = 1.0;
        }
    }
    drop((through, reaches, sure));
    adopt(&waves, &mut class, &mut x);
    if q.mdp && goal == Goal::Max {
        // A strategy may keep the process forever among open states: their upper bounds
        // would stall at 1, so those end components are collapsed.
        let open: Vec<bool> = class.iter().map(|&c| c == OPEN).collect();
        if let Some(ends) = ends::find(worker, g, &open, |_| true) {
            let (mut quotient, _) = ends::collapse(worker, g, &ends, |_, _| 0.0);
            let b = iterate(worker, &mut quotient, q, goal, class, x, false);
            g.traffic.add(quotient.traffic);
            return b.map(|b| b.after(waves.sweeps));
        }
    }
    iterate(worker, g, q, goal, class, x, false).map(|b| b.after(waves.sweeps))
}

/// The bounds of a question that the waves solved entirely.
fn finished(worker: &mut Worker, g: &mut Partition, waves: waves::Waves) -> Bounds {
    let n = g.topo.n;
    let class = (0..n)
        .map(|s| {
            if waves.x[2 * s] == f64::INFINITY {
                INFINITE
            } else {
                DONE
            }
        })
        .collect();
    bounds(worker, g, &waves.x, class, waves.sweeps)
}

/// Takes the bounds of the states the waves solved, where the graph analysis left them
/// open.
fn adopt(waves: &waves::Waves, class: &mut [u8], x: &mut [f64]) {
    for s in 0..class.len() {
        if waves.done[s] && class[s] == OPEN {
            class[s] = DONE;
            x[2 * s..2 * s + 2].copy_from_slice(&waves.x[2 * s..2 * s + 2]);
        }
    }
}

impl Bounds {
    /// With `sweeps` more, made before.
    fn after(mut self, sweeps: u64) -> Bounds {
        self.sweeps += sweeps;
        self
    }
}

impl Traffic {
    fn add(&mut self, other: Traffic) {
        self.rounds += other.rounds;
        self.bytes += other.bytes;
    }
}

/// The expected reward gathered until `target`, in every own state.
pub fn reach_reward(
    worker: &mut Worker,
    g: &mut Partition,
    q: &Question,
    target: &[bool],
) -> Result<Bounds, ClusterError> {
    let n = g.topo.n;
    let goal = q.goal.unwrap_or(Goal::Max);
    let exits: Vec<Option<[f64; 2]>> = target.iter().map(|&t| t.then_some([0.0, 0.0])).collect();
    let waves = waves::solve(worker, g, q, &exits)?;
    if waves.complete {
        return Ok(finished(worker, g, waves));
    }
    let outside: Vec<bool> = target.iter().map(|&t| !t).collect();
    // Infinite where the target is missed with positive probability: by some strategy
    // for the greatest reward (and in a chain), by every one for the least.
    let sure: Vec<bool> = if goal == Goal::Min && q.mdp {
        g.almost_surely_some(worker, target, &outside)
    } else {
        let positive = g.reach(worker, target, &outside, q.mdp);
        let zero: Vec<bool> = positive.iter().map(|&p| !p).collect();
        let missing = g.reach(worker, &zero, &outside, false);
        missing.iter().map(|&m| !m).collect()
    };
    let mut class = vec![FIXED; n];
    // The upper bounds are guessed later; until then they follow the lower ones.
    let mut x = vec![0.0; 2 * g.topo.len()];
    for s in 0..n {
        if !target[s] {
            if sure[s] {
                class[s] = OPEN;
            } else {
                class[s] = INFINITE;
                x[2 * s..2 * s + 2].fill(f64::INFINITY);
            }
        }
    }
    drop(sure);
    adopt(&waves, &mut class, &mut x);
    if q.mdp && goal == Goal::Min {
        let r = q.rewards.expect("a reward question has rewards");
        let free: Vec<bool> = (0..n)
            .map(|s| class[s] == OPEN && r.state.get(s).is_none_or(|&v| v == 0.0))
            .collect();
        let zero_choice = |c: usize| r.choice.get(c).is_none_or(|&v| v == 0.0);
        // A strategy may stay forever among open states at no cost: the lower bounds
        // would converge to that cost, 0, so those end components are collapsed.
        if let Some(ends) = ends::find(worker, g, &free, zero_choice) {
            let (mut quotient, choice) = ends::collapse(worker, g, &ends, |s, c| r.of(s, c));
            let rewards = Rewards {
                state: Vec::new(),
                choice,
            };
            let q = Question {
                rewards: Some(&rewards),
                ..*q
            };
            let b = iterate(worker, &mut quotient, &q, goal, class, x, true);
            g.traffic.add(quotient.traffic);
            return b.map(|b| b.after(waves.sweeps));
        }
    }
    iterate(worker, g, q, goal, class, x, true).map(|b| b.after(waves.sweeps))
}

/// The bounds of one choice from the values `x` (lower and upper interleaved), its
/// reward included, rounded outward; infinite when a transition reaches infinity.
#[inline]
fn choice_bounds(t: &Topology, c: usize, base: f64, x: &[f64]) -> [f64; 2] {
    let mut sum = [base, base];
    for i in t.row_of(c) {
        let p = t.form.prob[i];
        let v = t.form.to[i] as usize * 2;
        sum[0] += p * x[v];
        sum[1] += p * x[v + 1];
    }
    // The engine's margin, as on one process; each side on its own (a guessed upper
    // bound that overflows says nothing about the lower one).
    let margin = margin(t.row_of(c).len());
    [sum[0] * (1.0 - margin), sum[1] * (1.0 + margin)]
}

/// The bounds of state `s`'s best choice (both sides of every choice rounded outward,
/// then the greatest or least of each side), `base(s, c)` the reward of choice `c`.
#[inline]
fn best_bounds(
    t: &Topology,
    s: usize,
    goal: Goal,
    base: &impl Fn(usize, usize) -> f64,
    x: &[f64],
) -> [f64; 2] {
    let mut choices = t.choices_of(s);
    let first = choices.next().expect("every state has a choice");
    let mut best = choice_bounds(t, first, base(s, first), x);
    for c in choices {
        best = goal.best_of(best, choice_bounds(t, c, base(s, c), x));
    }
    best
}

/// Interval iteration over the open states until every midpoint is within the
/// precision, from the bounds `x` of [`start_values`] (those of the own states set);
/// `guess_upper` for rewards, whose upper bounds are guessed.
///
/// Each round shares the values and the summaries of the sweep just made; what the
/// summaries say is acted on at the start of the next sweep, the same on every worker.
/// A guess of the upper bounds is proven by a sweep that raises none of them, which
/// makes the vector after it a point that the operator maps at or below itself (every
/// value read, own or copied, was at least the new one) — so the sweep right after a
/// guess, whose copies still hold the values from before it, leaves the upper bounds as
/// guessed and proves nothing.
///
/// Or by two sweeps, `u -> u' -> u''`, after which every upper bound is at or below
/// where it stood before the first (`u'' <= u`): then `w = min(u', u'')` is such a
/// point, and becomes the upper bounds. (The values the second sweep read are from `u'`
/// or `u''`, so at least `w`, and it put `B` of them in `u''`; the first read values
/// from `u` or `u'`, at least `w` too since `u'' <= u`, and put them in `u'`. So
/// `B(w) <= u'` and `B(w) <= u''`.) Copies lag one sweep behind their owners, and a
/// cycle of transitions across workers can then split the values into two interleaved
/// sequences, each falling, that overtake each other by a rounding every other sweep:
/// no single sweep is then free of a rise, while every two sweeps are.
fn iterate(
    worker: &mut Worker,
    g: &mut Partition,
    q: &Question,
    goal: Goal,
    class: Vec<u8>,
    mut x: Vec<f64>,
    guess_upper: bool,
) -> Result<Bounds, ClusterError> {
    let n = g.topo.n;
    // The copies' places after the own states' (the quotient's may differ from the
    // graph the start was made for).
    x.resize(2 * g.topo.len(), 0.0);
    let rewards = q.rewards;
    let base = |s: usize, c: usize| rewards.map_or(0.0, |r| r.of(s, c));
    let mut guess = Guess {
        certified: !guess_upper,
        ..Guess::default()
    };
    let mut sweeps = 0u64;
    let mut mine = Summary {
        worst: f64::INFINITY,
        ..Summary::default()
    };
    // The engine's stop rule, on the worst error of a midpoint over all workers (the
    // whole model is one component here, with nothing before it).
    let mut settle = Settle::new(false);
    loop {
        let all = g.share(worker, &mut x, 2, mine);
        if sweeps > 0 {
            if guess.certified && settle.done(all.worst / q.precision) {
                break;
            }
            guess.decide(&all, sweeps, q.precision, &mut x, &class);
        }
        sweeps += 1;
        if sweeps > MAX_SWEEPS {
            return Err(ClusterError::Failed {
                code: LIMIT,
                message: format!(
                    "the bounds did not meet within {MAX_SWEEPS} sweeps; ask for a larger \
                     --precision"
                ),
            });
        }
        let t = &g.topo;
        mine = Summary {
            closed: guess.testing(),
            // Two sweeps back must be the guess, as all copies had it.
            closed_two: guess.testing() && sweeps >= guess.at + 3,
            ..Summary::default()
        };
        // The copies still hold values from before a guess, or a failed guess's values
        // after the proven bounds were restored: this sweep leaves the upper bounds.
        let fresh =
            (guess.testing() && sweeps == guess.at + 1) || guess.restored == Some(sweeps - 1);
        // From the last state found back to the first: values flow from the targets,
        // which exploration tends to reach late, towards the initial states.
        for s in (0..n).rev() {
            if class[s] != OPEN {
                continue;
            }
            let [mut l, mut h] = best_bounds(t, s, goal, &base, &x);
            let (old_l, old_h) = (x[2 * s], x[2 * s + 1]);
            l = l.max(old_l);
            if fresh {
                h = old_h;
            }
            if !guess_upper {
                h = h.min(1.0);
            }
            if guess.certified || !guess.guessed {
                h = h.min(old_h);
            } else {
                mine.closed &= h <= old_h;
                mine.closed_two &= h <= guess.before[s];
                guess.before[s] = old_h;
            }
            if guess.guessed && h < l {
                mine.crossed = true;
            }
            mine.moved = mine.moved.max((l - old_l) / l.max(1.0));
            let h = h.max(l);
            x[2 * s] = l;
            x[2 * s + 1] = h;
            if guess.certified {
                mine.worst = mine.worst.max(midpoint(l, h).1);
            }
        }
        if !guess.certified {
            mine.worst = f64::INFINITY;
        }
    }
    Ok(bounds(worker, g, &x, class, sweeps))
}

/// The bounds of the own states from `x` (lower and upper interleaved), with the largest
/// error of a midpoint over all workers' open states.
fn bounds(
    worker: &mut Worker,
    g: &mut Partition,
    x: &[f64],
    class: Vec<u8>,
    sweeps: u64,
) -> Bounds {
    let n = g.topo.n;
    let worst = (0..n)
        .filter(|&s| class[s] == OPEN || class[s] == DONE)
        .map(|s| midpoint(x[2 * s], x[2 * s + 1]).1)
        .fold(0.0, f64::max);
    let mine = Summary {
        worst,
        ..Summary::default()
    };
    Bounds {
        lo: (0..n).map(|s| x[2 * s]).collect(),
        hi: (0..n).map(|s| x[2 * s + 1]).collect(),
        class,
        error_bound: combine(&g.summaries.all(worker, mine)).worst,
        sweeps,
    }
}

/// Where a guess of the upper bounds stands: guessed just above the lower bounds once
/// they barely move, for expected rewards (which have no upper bounds before) and for
/// probabilities (whose upper bounds from 1 can fall very slowly when the process can
/// linger long among the open states).
#[derive(Default)]
struct Guess {
    /// The upper bounds are proven (from the start for probabilities).
    certified: bool,
    guessed: bool,
    /// The sweep the current guess was made after.
    at: u64,
    /// The next sweep at which a guess may be made.
    next: u64,
    /// The rise of the lower bounds in the sweep before the last one.
    moved_before: f64,
    /// How many guesses were dropped: each next guess is twice as far up.
    dropped: u32,
    /// The sweep after which the proven bounds were last restored.
    restored: Option<u64>,
    /// While a guess is tested: each own state's upper bound before the last sweep.
    before: Vec<f64>,
    /// While a guess is tested: the proven upper bounds it would improve, restored if it
    /// fails.
    proven: Vec<f64>,
    /// Whether there were proven bounds when the guess was made (the same on every
    /// worker, which `proven` is not: a worker may own no state).
    had_proven: bool,
}

impl Guess {
    /// Whether the sweep about to be made tests the guess: not the first after it.
    fn testing(&self) -> bool {
        self.guessed && !self.certified
    }

    /// Acts on what the last sweep found: proves the guess, drops it, or makes one.
    fn decide(&mut self, all: &Summary, sweeps: u64, precision: f64, x: &mut [f64], class: &[u8]) {
        if self.testing() && sweeps > self.at + 1 {
            if (all.closed || all.closed_two) && !all.crossed {
                // Proven: by the last sweep, or by the last two (then the point
                // `min(u', u'')` of `iterate`'s comment); bounds proven before still hold.
                for s in 0..class.len() {
                    if class[s] == OPEN {
                        let h = &mut x[2 * s + 1];
                        if !all.closed {
                            *h = h.min(self.before[s]);
                        }
                        if self.had_proven {
                            *h = h.min(self.proven[s]);
                        }
                    }
                }
                self.proven = Vec::new();
                self.before = Vec::new();
                self.certified = true;
                self.guessed = false;
                self.next = sweeps * 2;
                return;
            }
            if all.crossed || sweeps - self.at > CERTIFY_SWEEPS {
                // A guess below the values, or one not proven in time: back to the
                // proven bounds, or to none.
                self.guessed = false;
                self.dropped += 1;
                self.next = sweeps * 2;
                let proven = std::mem::take(&mut self.proven);
                self.certified = self.had_proven;
                if self.certified {
                    self.restored = Some(sweeps);
                }
                // Only the open states: the others keep their bounds (a state solved in a
                // wave has two; found by review).
                for s in (0..class.len()).filter(|&s| class[s] == OPEN) {
                    x[2 * s + 1] = if self.had_proven { proven[s] } else { x[2 * s] };
                }
            }
        }
        let ratio = if self.moved_before > 0.0 {
            (all.moved / self.moved_before).min(0.999_999)
        } else {
            0.0
        };
        self.moved_before = all.moved;
        if self.guessed || sweeps < self.next.max(8) || all.moved > precision.sqrt() {
            return;
        }
        self.had_proven = self.certified;
        if self.certified {
            self.proven = (0..class.len()).map(|s| x[2 * s + 1]).collect();
            self.certified = false;
        }
        if self.before.is_empty() {
            self.before = vec![0.0; class.len()];
        }
        // How far the lower bounds still are, if they keep shrinking their steps at the
        // last rate; the guess is twice that above them, and never closer than the
        // precision asks.
        let far = all.moved * ratio / (1.0 - ratio);
        let margin = (2.0 * far).max(precision) * f64::from(1u32 << self.dropped.min(20));
        for s in 0..class.len() {
            if class[s] == OPEN {
                let l = x[2 * s];
                let guess = l + margin * l.max(1.0);
                x[2 * s + 1] = if self.had_proven {
                    guess.min(self.proven[s])
                } else {
                    guess
                };
            }
        }
        self.guessed = true;
        self.at = sweeps;
    }
}

/// `steps` steps of the Bellman operator from `start`, for step-bounded questions: the
/// probability of `stay U<=k target` or the reward gathered in `k` steps.
pub fn bounded(
    worker: &mut Worker,
    g: &mut Partition,
    q: &Question,
    steps: u64,
    fixed: &[Option<f64>],
) -> Result<Bounds, ClusterError> {
    let n = g.topo.n;
    let len = g.topo.len();
    let goal = q.goal.unwrap_or(Goal::Max);
    let mut x = vec![0.0; 2 * len];
    for s in 0..n {
        if let Some(v) = fixed[s] {
            x[2 * s..2 * s + 2].fill(v);
        }
    }
    let rewards = q.rewards;
    let base = |s: usize, c: usize| rewards.map_or(0.0, |r| r.of(s, c));
    let mut next = vec![0.0; 2 * n];
    let mut changed = true;
    let mut taken = 0;
    while taken < steps {
        // Once a step changes no value anywhere, the rest would not either.
        if !g.share_flag(worker, &mut x, 2, changed) {
            break;
        }
        taken += 1;
        let t = &g.topo;
        for s in 0..n {
            if let Some(v) = fixed[s] {
                next[2 * s..2 * s + 2].fill(v);
                continue;
            }
            let [l, h] = best_bounds(t, s, goal, &base, &x);
            next[2 * s] = l;
            next[2 * s + 1] = if rewards.is_none() { h.min(1.0) } else { h };
        }
        // Steps are taken together (Jacobi): step k must read the values of step k - 1.
        changed = x[..2 * n] != next[..];
        x[..2 * n].copy_from_slice(&next);
    }
    let class = fixed
        .iter()
        .map(|f| if f.is_some() { FIXED } else { OPEN })
        .collect();
    Ok(bounds(worker, g, &x, class, taken))
}
