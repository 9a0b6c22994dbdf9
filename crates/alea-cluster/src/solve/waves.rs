//! Solving in the order the single process does: each worker splits its open states into
//! strongly connected components (over its own transitions; a copy of another worker's
//! state ends a path) and solves a component once every state it leads to is done, here
//! or on its owner. Each round, a worker gathers every component made ready by what it
//! has done and by the copies that arrived, solves them together with the engine (the
//! graph analysis, end components and interval iteration of one process, on a form of
//! those states whose exits are the states already done), and sends each other worker
//! the bounds of the states it copies that are now done, once. An acyclic model, or one
//! whose components each lie on one worker, is then solved with each state swept by
//! one engine, in as many rounds as a path crosses between workers.
//!
//! A component across workers (a cycle of transitions through two or more of them)
//! never becomes ready: a round in which no worker solves anything ends the waves, and
//! the states left are solved by the rounds of interval iteration of the parent module,
//! with the states done here fixed.
//!
//! Why the values hold. A state's exits are done: their bounds are final and hold their
//! values, which are 0, 1 or infinite exactly where the whole model's are (each was
//! decided so by the same analysis, on its own part, from exits that were right). The
//! engine's analysis on the part then decides its states as it would on the whole
//! model, and its iteration keeps sound bounds from bounds on the exits.

use alea_core::analysis::components::components_within;
use alea_core::form::{Form, Rewards};
use alea_core::solve::{part, Context, Goal};
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use super::{Partition, Question, Topology};
use crate::ClusterError;

/// Not a component: a state done, or a copy.
const NONE: u32 = u32::MAX;

/// What a worker tells the others after a round.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Progress {
    /// States solved this round.
    solved: u64,
    /// States still open.
    open: u64,
    /// The first error, as the command line shows it.
    error: Option<(u8, String)>,
}

/// The bounds found: lower and upper interleaved for every local value (own states and
/// copies), whether each is done, whether every state of every worker is, and the sweeps.
pub(super) struct Waves {
    pub x: Vec<f64>,
    pub done: Vec<bool>,
    pub complete: bool,
    pub sweeps: u64,
}

/// The components of the open states and who waits for whom.
struct Order {
    comps: alea_core::analysis::components::Components,
    /// For each component, the transitions to states of other components not yet done.
    pending: Vec<u32>,
    /// For each local value, the components with a transition to it (one entry per
    /// transition): `waiters[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    waiters: Vec<u32>,
    ready: Vec<u32>,
}

impl Order {
    fn new(t: &Topology, done: &[bool]) -> Order {
        let len = t.len();
        let open: Vec<bool> = (0..len).map(|v| v < t.n && !done[v]).collect();
        let comps = components_within(&t.form, &open);
        let mut comp_of = vec![NONE; len];
        for k in 0..comps.count() {
            for &s in comps.get(k) {
                comp_of[s as usize] = k as u32;
            }
        }
        let mut pending = vec![0u32; comps.count()];
        let mut start = vec![0u32; len + 1];
        let waits = |s: usize, v: usize| !done[v] && comp_of[v] != comp_of[s];
        for s in (0..t.n).filter(|&s| open[s]) {
            for c in t.choices_of(s) {
                for i in t.row_of(c) {
                    let v = t.form.to[i] as usize;
                    if waits(s, v) {
                        pending[comp_of[s] as usize] += 1;
                        start[v + 1] += 1;
                    }
                }
            }
        }
        for v in 0..len {
            start[v + 1] += start[v];
        }
        let mut at = start.clone();
        let mut waiters = vec![0u32; start[len] as usize];
        for s in (0..t.n).filter(|&s| open[s]) {
            for c in t.choices_of(s) {
                for i in t.row_of(c) {
                    let v = t.form.to[i] as usize;
                    if waits(s, v) {
                        waiters[at[v] as usize] = comp_of[s];
                        at[v] += 1;
                    }
                }
            }
        }
        let ready = (0..comps.count() as u32)
            .filter(|&k| pending[k as usize] == 0)
            .collect();
        Order {
            comps,
            pending,
            start,
            waiters,
            ready,
        }
    }

    /// Local value `v` is done (or about to be, in the batch being gathered).
    fn finish(&mut self, v: usize) {
        for w in self.start[v]..self.start[v + 1] {
            let k = self.waiters[w as usize] as usize;
            self.pending[k] -= 1;
            if self.pending[k] == 0 {
                self.ready.push(k as u32);
            }
        }
    }

    /// Every component ready now or once those ready are done: their states.
    fn batch(&mut self) -> Vec<u32> {
        let mut states = Vec::new();
        while let Some(k) = self.ready.pop() {
            let members = self.comps.get(k as usize).to_vec();
            for &s in &members {
                self.finish(s as usize);
            }
            states.extend(members);
        }
        // In the order of exploration, as on one process: the engine sweeps a component
        // from its last state back, from the targets towards the initial states.
        states.sort_unstable();
        states
    }
}

/// Solves the own states without a value in `exits` (those with one are done from the
/// start: a target, a state outside `stay`), in waves, until every state of every worker
/// is done or no worker can go on.
pub(super) fn solve(
    worker: &mut Worker,
    g: &mut Partition,
    q: &Question,
    exits: &[Option<[f64; 2]>],
) -> Result<Waves, ClusterError> {
    let t = &g.topo;
    let (n, len, peers) = (t.n, t.len(), t.peers);
    let mut x = vec![0.0; 2 * len];
    let mut done = vec![false; len];
    for s in 0..n {
        if let Some([lo, hi]) = exits[s] {
            done[s] = true;
            x[2 * s] = lo;
            x[2 * s + 1] = hi;
        }
    }
    // A worker that copies no state has every state ready at once: the engine then
    // solves its whole graph as it is, with no order to work out and no copy of it.
    let whole = t.copies() == 0;
    let mut order = if whole {
        None
    } else {
        Some(Order::new(t, &done))
    };
    // Where each own state's bounds go: (worker, position in its copies), by state.
    let mut copied: Vec<(u32, u32, u32)> = Vec::new();
    for (w, states) in t.exports.iter().enumerate() {
        for (pos, &s) in states.iter().enumerate() {
            copied.push((s, w as u32, pos as u32));
        }
    }
    copied.sort_unstable();
    let mut open = (0..n).filter(|&s| !done[s]).count() as u64;
    let mut sub = vec![NONE; len];
    let mut sweeps = 0;
    let mut error = None;
    let goal = q.goal.unwrap_or(Goal::Max);
    let mut first = true;
    let mut rounds = 0u64;
    loop {
        let batch: Vec<u32> = match &mut order {
            _ if error.is_some() => Vec::new(),
            Some(order) => order.batch(),
            None if first => (0..n as u32).filter(|&s| !done[s as usize]).collect(),
            None => Vec::new(),
        };
        let mut out: Vec<(Vec<u32>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); peers];
        if first {
            // The states done from the start go out with the first round.
            for &(s, w, pos) in copied.iter().filter(|c| done[c.0 as usize]) {
                let o = &mut out[w as usize];
                o.0.push(pos);
                o.1.extend_from_slice(&x[2 * s as usize..2 * s as usize + 2]);
            }
        }
        if !batch.is_empty() {
            let solved = if whole {
                solve_whole(&g.topo, q, goal, exits, &mut x)
            } else {
                solve_batch(&g.topo, q, goal, &batch, &mut x, &mut sub)
            };
            match solved {
                Ok(swept) => {
                    sweeps += swept;
                    open -= batch.len() as u64;
                    for &s in &batch {
                        done[s as usize] = true;
                        let from = copied.partition_point(|c| c.0 < s);
                        for &(_, w, pos) in copied[from..].iter().take_while(|c| c.0 == s) {
                            let o = &mut out[w as usize];
                            o.0.push(pos);
                            o.1.extend_from_slice(&x[2 * s as usize..2 * s as usize + 2]);
                        }
                    }
                }
                Err(e) => error = Some(e),
            }
        }
        let mine = Progress {
            solved: if error.is_none() {
                batch.len() as u64
            } else {
                0
            },
            open,
            error: error.clone(),
        };
        first = false;
        rounds += 1;
        let all = g.exchange_done(worker, out, mine, |v, bounds| {
            x[2 * v..2 * v + 2].copy_from_slice(bounds);
            done[v] = true;
            if let Some(order) = &mut order {
                order.finish(v);
            }
        });
        if let Some((code, message)) = all.iter().find_map(|p| p.error.clone()) {
            return Err(ClusterError::Failed { code, message });
        }
        let open_all: u64 = all.iter().map(|p| p.open).sum();
        let solved_all: u64 = all.iter().map(|p| p.solved).sum();
        // The first round also brought the states done from the start: those may make
        // components ready even where nothing was ready before (found by review).
        if open_all == 0 || (solved_all == 0 && rounds > 1) {
            return Ok(Waves {
                x,
                done,
                complete: open_all == 0,
                sweeps,
            });
        }
    }
}

/// Solves every open state of a worker that copies no other worker's state: its graph
/// is a form of its own, whose states done are targets or outside `stay`, never left.
fn solve_whole(
    t: &Topology,
    q: &Question,
    goal: Goal,
    exits: &[Option<[f64; 2]>],
    x: &mut [f64],
) -> Result<u64, (u8, String)> {
    let names = |s: usize| format!("{}", t.global(s));
    let cx = Context::new(q.precision).with_names(&names);
    let solved = part(&t.form, goal, exits, q.rewards, &cx, t.peers > 1)
        .map_err(|e| (crate::explore::LIMIT, e.to_string()))?;
    for (s, [lo, hi]) in solved.bounds.into_iter().enumerate() {
        x[2 * s] = lo;
        x[2 * s + 1] = hi;
    }
    Ok(solved.sweeps)
}

/// Solves the states of `batch` with the engine, on a form of them and of the done
/// states they lead to, and writes their bounds into `x`; the sweeps made.
fn solve_batch(
    t: &Topology,
    q: &Question,
    goal: Goal,
    batch: &[u32],
    x: &mut [f64],
    sub: &mut [u32],
) -> Result<u64, (u8, String)> {
    for (i, &s) in batch.iter().enumerate() {
        sub[s as usize] = i as u32;
    }
    let mut exits: Vec<u32> = Vec::new();
    let mut form = Form {
        choices: vec![0],
        row: vec![0],
        ..Form::default()
    };
    let mut reward = Vec::new();
    for &s in batch {
        let s = s as usize;
        for c in t.choices_of(s) {
            for i in t.row_of(c) {
                let v = t.form.to[i] as usize;
                if sub[v] == NONE {
                    sub[v] = (batch.len() + exits.len()) as u32;
                    exits.push(v as u32);
                }
                form.to.push(sub[v]);
                form.prob.push(t.form.prob[i]);
            }
            form.row.push(form.to.len());
            if let Some(r) = q.rewards {
                reward.push(r.of(s, c));
            }
        }
        form.choices.push(form.row.len() - 1);
    }
    let mut bounds: Vec<Option<[f64; 2]>> = vec![None; batch.len()];
    for (i, &v) in exits.iter().enumerate() {
        let v = v as usize;
        form.to.push((batch.len() + i) as u32);
        form.prob.push(1.0);
        form.row.push(form.to.len());
        form.choices.push(form.row.len() - 1);
        if q.rewards.is_some() {
            reward.push(0.0);
        }
        bounds.push(Some([x[2 * v], x[2 * v + 1]]));
    }
    let rewards = q.rewards.map(|_| Rewards {
        state: Vec::new(),
        choice: reward,
    });
    let names = |i: usize| format!("{}", t.global(batch.get(i).map_or(0, |&s| s as usize)));
    let cx = Context::new(q.precision).with_names(&names);
    let solved = part(&form, goal, &bounds, rewards.as_ref(), &cx, t.peers > 1);
    for &v in batch.iter().chain(&exits) {
        sub[v as usize] = NONE;
    }
    let solved = solved.map_err(|e| (crate::explore::LIMIT, e.to_string()))?;
    for (i, &s) in batch.iter().enumerate() {
        let [lo, hi] = solved.bounds[i];
        x[2 * s as usize] = lo;
        x[2 * s as usize + 1] = hi;
    }
    Ok(solved.sweeps)
}
